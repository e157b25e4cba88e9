//! The assembled container, and what a container's code runs.

use dxbc::chunks::derived::derive_signatures;
use dxbc::container::FourCC;
use dxbc::{Opcode, Stage};

use super::tree::*;

/// Why a generated program did not become a container (a generator bug). Code:
/// `generator.lower` (the only kind).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("generated program does not assemble: {why}\n{asm}")]
pub struct LowerError {
    pub why: String,
    pub asm: String,
}

impl LowerError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        "generator.lower"
    }
}

impl RandomProgram {
    /// The DXBC container, with the signature chunks fxc writes: `uint` input and output
    /// signatures for pixel and vertex programs (words pass the interface untouched), a vertex
    /// program's `SV_Position` output (float) among them; empty ones for compute, which
    /// [`dxbc::build_container`] derives from the (absent) declarations.
    pub fn blob(&self) -> Result<Vec<u8>, LowerError> {
        let asm = self.asm();
        let err = |why: String| LowerError {
            why,
            asm: asm.clone(),
        };
        let assembled = dxbc::assemble(&asm).map_err(|e| err(e.to_string()))?;
        let sigs = match self.stage {
            Stage::Compute => Vec::new(),
            Stage::Pixel => vec![
                crate::programs::signature(FourCC::ISGN, INPUTS as usize, "IN"),
                crate::programs::signature(FourCC::OSGN, self.temps as usize, "SV_Target"),
            ],
            _ => {
                // The outputs as the declarations name them (`SV_Position`, system value 1,
                // float, at the `dcl_output_siv` register; `TEXCOORD<n>` for the rest), the
                // generic ones typed `uint` like every other interface word here.
                let [_, mut osgn] = derive_signatures(&assembled.program);
                for e in &mut osgn.elements {
                    if e.system_value == 0 {
                        e.component_type = 1;
                    }
                }
                vec![
                    crate::programs::signature(FourCC::ISGN, INPUTS as usize, "IN"),
                    osgn,
                ]
            }
        };
        let c = dxbc::build_container(&sigs, &assembled.program).map_err(|e| err(e.to_string()))?;
        Ok(c.to_bytes())
    }
}

/// The instructions a container's code runs: everything but declarations and the final `ret`
/// (what "a program of five instructions" counts). Empty for a blob that does not decode.
pub fn code(blob: &[u8]) -> Vec<Opcode> {
    dxbc::Shader::parse(blob)
        .map(|s| {
            s.program
                .instructions
                .iter()
                .filter(|i| !i.opcode.info().is_declaration() && i.opcode != Opcode::Ret)
                .map(|i| i.opcode)
                .collect()
        })
        .unwrap_or_default()
}

/// The distinct opcodes of [`code`], sorted.
pub fn opcodes(blob: &[u8]) -> Vec<Opcode> {
    let mut ops = code(blob);
    ops.sort_by_key(|o| *o as u32);
    ops.dedup();
    ops
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn lower_error_has_a_code() {
        let e = LowerError {
            why: "x".into(),
            asm: String::new(),
        };
        assert!(!e.code().is_empty());
    }
}
