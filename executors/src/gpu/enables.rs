//! WGSL `enable` extensions: the device features behind them, and the ones a module's text
//! asks for (`Manifest::enables` declares them; the text is what the device sees).

/// The device features behind the WGSL `enable` extensions a translator may declare
/// (`Manifest::enables`); the device is opened with those of them the adapter has.
pub(super) const ENABLE_FEATURES: wgpu::Features = wgpu::Features::SHADER_F16
    .union(wgpu::Features::CLIP_DISTANCES)
    .union(wgpu::Features::DUAL_SOURCE_BLENDING)
    .union(wgpu::Features::PRIMITIVE_INDEX);

/// Each WGSL extension with its wgpu feature and its WebGPU feature name: one table for both
/// executors.
const EXTENSIONS: [(&str, wgpu::Features, &str); 4] = [
    ("f16", wgpu::Features::SHADER_F16, "shader-f16"),
    (
        "clip_distances",
        wgpu::Features::CLIP_DISTANCES,
        "clip-distances",
    ),
    (
        "dual_source_blending",
        wgpu::Features::DUAL_SOURCE_BLENDING,
        "dual-source-blending",
    ),
    (
        "primitive_index",
        wgpu::Features::PRIMITIVE_INDEX,
        "primitive-index",
    ),
];

/// The device feature a WGSL `enable` needs; `None` for one this executor cannot grant.
pub(super) fn enable_feature(name: &str) -> Option<wgpu::Features> {
    EXTENSIONS.iter().find(|e| e.0 == name).map(|e| e.1)
}

/// The WebGPU feature (`GPUFeatureName`) a WGSL `enable` needs; `None` for one no executor
/// grants.
pub fn webgpu_feature(name: &str) -> Option<&'static str> {
    EXTENSIONS.iter().find(|e| e.0 == name).map(|e| e.2)
}

/// The extensions a module's `enable` directives name. Directives come first in WGSL, so the
/// scan stops at the first other declaration; comments are skipped.
pub fn directive_enables(wgsl: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = wgsl;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, r)| r);
        } else if let Some(r) = rest.strip_prefix("enable") {
            let Some((list, r)) = r.split_once(';') else {
                break;
            };
            names.extend(
                list.split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(String::from),
            );
            rest = r;
        } else if let Some(r) = rest
            .strip_prefix("requires")
            .or(rest.strip_prefix("diagnostic"))
        {
            rest = r.split_once(';').map_or("", |(_, r)| r);
        } else {
            break;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::GpuError;

    #[test]
    fn directives_are_read_up_to_the_first_declaration() {
        let src = "// a module\nenable f16, clip_distances;\n/* x */ requires packed_4x8_integer_dot_product;\nenable primitive_index ;\nfn enable_me() {}\nenable dual_source_blending;";
        assert_eq!(
            directive_enables(src),
            ["f16", "clip_distances", "primitive_index"]
        );
        assert!(directive_enables("fn main() {}").is_empty());
        assert!(directive_enables("enable f16").is_empty());
    }

    #[test]
    fn every_grantable_enable_is_a_naga_extension_with_a_requested_feature() {
        for name in [
            "f16",
            "clip_distances",
            "dual_source_blending",
            "primitive_index",
        ] {
            let f = enable_feature(name).expect("mapped");
            assert!(ENABLE_FEATURES.contains(f), "{name}");
            assert!(translator::enable_capability(name).is_some(), "{name}");
        }
        assert!(enable_feature("wgpu_mesh_shader").is_none());
        assert_eq!(webgpu_feature("f16"), Some("shader-f16"));
        let e = GpuError::Feature("x".into());
        assert_eq!(GpuError::from_wire(e.code(), e.detail()), e);
    }
}
