//! A container together with its decoded program and signatures: what `dxdiff info`, `disasm`
//! and `asm` work on.

use crate::asm::assemble;
use crate::chunks::derived::derive_signatures;
use crate::chunks::signature::{Signature, parse_fxc_signature_comments, section_rank};
use crate::container::{Chunk, Container, FourCC};
use crate::decode::decode_program;
use crate::disasm::{Syntax, disassemble};
use crate::encode::encode_program;
use crate::error::{DxbcError, Result};
use crate::ir::Program;

/// A decoded shader blob: what the container's chunks hold, decoded. (The chunks themselves are
/// [`Container::parse`]'s; decoding borrows them and keeps no copy.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shader {
    /// The program decoded from the `SHDR`/`SHEX` chunk.
    pub program: Program,
    /// The signature chunks, in container order.
    pub signatures: Vec<Signature>,
}

impl Shader {
    /// Parse a container, decode its token stream and signatures, and validate the program
    /// against D3D11's limits and its declarations ([`crate::validate`]), so that nothing sized
    /// by the program's numbers downstream can exceed a limit.
    pub fn parse(bytes: &[u8]) -> Result<Shader> {
        let shader = Shader::decode(bytes)?;
        shader.program.validate()?;
        Ok(shader)
    }

    /// Decode a container's token stream and signatures without validating the program: the
    /// structural reading, which every well-formed container passes. What shows a program
    /// (`dxdiff info`, `disasm`) reads it so, and reports [`crate::ir::Program::validate`]'s
    /// finding as a warning; what runs or translates one goes through [`Shader::parse`].
    pub fn decode(bytes: &[u8]) -> Result<Shader> {
        let container = Container::borrow(bytes)?;
        let code = container
            .code_chunk()
            .ok_or_else(|| DxbcError::MissingChunk {
                tag: "SHDR or SHEX".into(),
            })?;
        let program = decode_program(code.data)?;
        // Decoded over a dropped shader's signatures, their names' storage reused.
        let mut signatures = crate::spare::signatures();
        let mut used = 0;
        for c in container.chunks.iter() {
            if !Signature::is_signature_tag(c.tag) {
                continue;
            }
            if used == signatures.len() {
                signatures.push(Signature {
                    kind: c.tag,
                    elements: Vec::new(),
                });
            }
            signatures[used].parse_into(c.tag, c.data)?;
            used += 1;
        }
        signatures.truncate(used);
        Ok(Shader {
            program,
            signatures,
        })
    }

    /// The listing: fxc's signature tables as comments (the assembler rebuilds signatures from
    /// them), then the program.
    pub fn listing(&self, syntax: Syntax) -> String {
        let mut out = String::from("//\n");
        for sig in &self.signatures {
            out.push_str("//\n");
            out.push_str(&sig.to_fxc_comment());
        }
        out.push_str(&disassemble(&self.program, syntax));
        out
    }
}

/// A dropped shader's signatures are kept for the next `Shader::parse` on the thread (`spare`).
impl Drop for Shader {
    fn drop(&mut self) {
        crate::spare::give_signatures(std::mem::take(&mut self.signatures));
    }
}

/// Assemble dxdiff's text or an fxc listing into a container: signature chunks rebuilt from the
/// listing's comment tables (or derived from the declarations when it has none, see
/// [`build_container`]), then the code chunk (`SHDR` for SM4, `SHEX` for SM5), with a fresh
/// checksum.
pub fn assemble_container(text: &str) -> Result<Container> {
    let assembled = assemble(text)?;
    build_container(&parse_fxc_signature_comments(text)?, &assembled.program)
}

/// A fresh container like fxc's stripped output: the input signature, the output signature, any
/// patch-constant signature, then the code chunk (`SHDR` for SM4, `SHEX` for SM5).
///
/// fxc always writes an input and an output signature (empty for compute shaders). When
/// `signatures` has none for a side, that side is derived from the declarations
/// ([`derive_signatures`]); given signatures are kept as they are.
pub fn build_container(signatures: &[Signature], program: &Program) -> Result<Container> {
    let mut all: Vec<Signature> = signatures.to_vec();
    for derived in derive_signatures(program) {
        let rank = section_rank(derived.kind);
        if !signatures.iter().any(|s| section_rank(s.kind) == rank) {
            all.push(derived);
        }
    }
    // Stable: given signatures of one side keep their order.
    all.sort_by_key(|s| section_rank(s.kind));
    let mut chunks: Vec<Chunk> = all
        .iter()
        .map(|s| Chunk {
            tag: s.kind,
            data: s.encode(),
        })
        .collect();
    let tag = if program.version.major >= 5 {
        FourCC::SHEX
    } else {
        FourCC::SHDR
    };
    chunks.push(Chunk {
        tag,
        data: encode_program(program)?,
    });
    Ok(Container::new(chunks))
}

/// A Shader Model a generator may write its programs for (`--shader-model`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetModel {
    /// `ps_4_0`, `vs_4_0`: D3D10.
    Sm40,
    /// `ps_4_1`, `vs_4_1`: D3D10.1 (`gather4`, `lod`, `sampleinfo`...).
    Sm41,
    /// `ps_5_0`, `vs_5_0`, `cs_5_0`: D3D11, what fxc writes for the D3D11 profiles.
    Sm50,
}

impl TargetModel {
    /// `4.0`, `4.1` or `5.0`.
    pub fn parse(s: &str) -> Option<TargetModel> {
        match s {
            "4.0" => Some(TargetModel::Sm40),
            "4.1" => Some(TargetModel::Sm41),
            "5.0" => Some(TargetModel::Sm50),
            _ => None,
        }
    }

    /// The first opcode model this one lacks (what a program written for it may not use).
    pub fn allows_model(self, m: crate::opcodes::Model) -> bool {
        self.allows(m)
    }

    fn version(self) -> (u8, u8) {
        match self {
            TargetModel::Sm40 => (4, 0),
            TargetModel::Sm41 => (4, 1),
            TargetModel::Sm50 => (5, 0),
        }
    }

    fn allows(self, m: crate::opcodes::Model) -> bool {
        use crate::opcodes::Model;
        match self {
            TargetModel::Sm40 => m == Model::Sm40,
            TargetModel::Sm41 => m <= Model::Sm41,
            TargetModel::Sm50 => m <= Model::Sm50D3d111,
        }
    }
}

impl std::fmt::Display for TargetModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (major, minor) = self.version();
        write!(f, "{major}.{minor}")
    }
}

/// A pixel or vertex program of Shader Model 5.0 or below written for `target`, as fxc writes
/// the same HLSL for that profile: its version token, and `SHDR` for Shader Model 4 (`SHEX`
/// for 5). `Ok(None)` where the program uses what `target` lacks: an opcode of a later model,
/// a minimum-precision operand, or a stage (compute, hull, domain) `target` has no profile of
/// that dxdiff writes. The other chunks (signatures) are kept as they are.
pub fn retarget(bytes: &[u8], target: TargetModel) -> Result<Option<Vec<u8>>> {
    let container = Container::parse(bytes)?;
    let Some(code) = container.code_chunk() else {
        return Err(DxbcError::MissingChunk {
            tag: "SHDR or SHEX".into(),
        });
    };
    let mut program = decode_program(&code.data)?;
    let (major, minor) = target.version();
    let v = program.version;
    if (v.major, v.minor) == (major, minor) {
        return Ok(Some(bytes.to_vec()));
    }
    let staged = matches!(v.stage, crate::Stage::Pixel | crate::Stage::Vertex);
    let fits = program.instructions.iter().all(|i| {
        target.allows(i.opcode.info().model) && i.operands.iter().all(|o| o.precision == 0)
    });
    if v.at_least(5, 1) || !fits || (major < 5 && !staged) {
        return Ok(None);
    }
    program.version.major = major;
    program.version.minor = minor;
    let tag = if major >= 5 {
        FourCC::SHEX
    } else {
        FourCC::SHDR
    };
    let data = encode_program(&program)?;
    let chunks = container
        .chunks
        .iter()
        .map(|c| {
            if Some(c.tag) == container.code_chunk().map(|k| k.tag) {
                Chunk {
                    tag,
                    data: data.clone(),
                }
            } else {
                c.clone()
            }
        })
        .collect();
    Ok(Some(Container::new(chunks).to_bytes()))
}

#[cfg(test)]
mod retarget_tests {
    use super::*;

    #[test]
    fn a_program_is_rewritten_for_the_model_it_fits_and_refused_where_it_does_not() {
        let text = "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nadd o0.xyzw, v0.xyzw, v0.xyzw\nret\n";
        let blob = assemble_container(text).expect("assembles").to_bytes();
        let sm4 = retarget(&blob, TargetModel::Sm40)
            .expect("decodes")
            .expect("fits 4.0");
        let s = Shader::parse(&sm4).expect("parses");
        assert_eq!((s.program.version.major, s.program.version.minor), (4, 0));
        let c = Container::parse(&sm4).expect("container");
        assert!(c.chunk(FourCC::SHDR).is_some() && c.chunk(FourCC::SHEX).is_none());
        assert_eq!(s.signatures.len(), 2, "signatures kept");
        // An SM5 opcode does not fit 4.x.
        let bfi = text.replace(
            "add o0.xyzw, v0.xyzw, v0.xyzw",
            "bfi o0.xyzw, v0.xyzw, v0.xyzw, v0.xyzw, v0.xyzw",
        );
        let blob = assemble_container(&bfi).expect("assembles").to_bytes();
        assert_eq!(retarget(&blob, TargetModel::Sm41).expect("decodes"), None);
        assert!(
            retarget(&blob, TargetModel::Sm50)
                .expect("decodes")
                .is_some()
        );
    }
}
