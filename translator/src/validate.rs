//! naga validation of emitted WGSL, with the capabilities a wgpu Vulkan device grants without
//! optional features: naga's defaults plus `SHADER_FLOAT16_IN_FLOAT32` (the `pack2x16float`
//! family), which wgpu enables on every Vulkan adapter. A program that needs more is rejected.

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// What the validator is allowed to assume.
pub fn capabilities() -> Capabilities {
    Capabilities::default() | Capabilities::SHADER_FLOAT16_IN_FLOAT32
}

/// Parse and validate; the error text names what naga objected to.
pub fn validate(wgsl: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    Validator::new(ValidationFlags::all(), capabilities())
        .validate(&module)
        .map_err(|e| e.emit_to_string(wgsl))?;
    Ok(module)
}
