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
    /// The assembler's or container builder's message.
    pub why: String,
    /// The assembly text that failed, so the bug can be reproduced without the seed.
    pub asm: String,
}

impl LowerError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        "generator.lower"
    }
}

impl RandomProgram {
    /// The DXBC container, with the signature chunks fxc writes: `float` inputs and `uint`
    /// outputs for pixel and vertex programs (words pass the interface as bits), a vertex
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
mod tests {
    use super::*;
    use crate::random::{Knobs, generate};

    #[test]
    fn blobs_parse_and_carry_the_signatures_of_their_stage() {
        for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
            let k = Knobs {
                stages: vec![stage],
                ..Knobs::default()
            };
            for seed in 0..20 {
                let p = generate(&k, seed);
                let blob = p.blob().unwrap_or_else(|e| panic!("{stage:?} {seed}: {e}"));
                let shader = dxbc::Shader::parse(&blob).expect("parses");
                assert_eq!(shader.program.version.stage, stage);
                let sig = |tag| {
                    let all: Vec<_> = shader.signatures.iter().filter(|s| s.kind == tag).collect();
                    assert_eq!(all.len(), 1, "{stage:?} {seed}: {tag} chunks");
                    all[0].elements.clone()
                };
                let (isgn, osgn) = (sig(FourCC::ISGN), sig(FourCC::OSGN));
                if stage == Stage::Compute {
                    assert!(isgn.is_empty() && osgn.is_empty(), "{stage:?} {seed}");
                    continue;
                }
                assert_eq!(isgn.len(), INPUTS as usize);
                assert_eq!(osgn.len(), p.temps as usize);
                // Inputs are `float` (fxc's `float4 a : IN0` read with `asuint`); outputs
                // `uint`, apart from a vertex program's float position.
                for e in &isgn {
                    assert_eq!(e.system_value, 0, "{stage:?} {seed}: {e:?}");
                    assert_eq!(e.component_type, 3, "{stage:?} {seed}: {e:?}");
                }
                for e in &osgn {
                    let position = stage == Stage::Vertex && e.register == POSITION_OUTPUT;
                    assert_eq!(e.system_value == 1, position, "{stage:?} {seed}: {e:?}");
                    assert_eq!(e.component_type == 1, !position, "{stage:?} {seed}: {e:?}");
                }
                // The code lists no declarations and no `ret`, and `opcodes` is its set.
                let code = code(&blob);
                assert!(!code.is_empty());
                assert!(
                    code.iter()
                        .all(|o| !o.info().is_declaration() && *o != Opcode::Ret)
                );
                let ops = opcodes(&blob);
                assert!(ops.windows(2).all(|w| (w[0] as u32) < (w[1] as u32)));
                assert!(code.iter().all(|o| ops.contains(o)));
            }
        }
        assert!(code(b"not a container").is_empty());
    }

    #[test]
    fn a_program_that_does_not_assemble_is_an_error_with_its_text() {
        // `add` with one source: the assembler rejects the operand count.
        let p = RandomProgram {
            stage: Stage::Pixel,
            temps: 1,
            threads: [1, 1, 1],
            body: vec![Stmt::Op(Op {
                opcode: Opcode::Add,
                sat: false,
                dst: vec![Some((0, 0xF))],
                src: vec![Src::plain(Reg::Imm([0; 4]))],
            })],
            oob_indices: false,
            split_moves: false,
            shader_model: dxbc::TargetModel::Sm50,
        };
        let e = p.blob().expect_err("one source for add");
        assert_eq!(e.asm, p.asm());
        assert!(!e.why.is_empty());
        assert!(!e.code().is_empty());
    }
}
