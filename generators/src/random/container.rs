//! The assembled container, and what a container's code runs.

use dxbc::container::FourCC;
use dxbc::{Opcode, Stage};

use super::tree::*;

/// Why a generated program did not become a container (a generator bug).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("generated program does not assemble: {why}\n{asm}")]
pub struct LowerError {
    pub why: String,
    pub asm: String,
}

impl RandomProgram {
    /// The DXBC container: the assembled program with `uint` signatures for pixel and vertex
    /// programs (words pass the interface untouched).
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
            _ => vec![
                crate::programs::signature(FourCC::ISGN, INPUTS as usize, "IN"),
                crate::programs::signature(FourCC::OSGN, self.temps as usize, "TEXCOORD"),
            ],
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
