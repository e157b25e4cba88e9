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
        let container = Container::borrow(bytes)?;
        let code = container
            .code_chunk()
            .ok_or_else(|| DxbcError::MissingChunk {
                tag: "SHDR or SHEX".into(),
            })?;
        let program = decode_program(code.data)?;
        program.validate()?;
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
