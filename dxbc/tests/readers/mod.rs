//! One check per reader of the `dxbc` crate, shared by the deterministic slice in
//! `dxbc/tests/fuzz_slice.rs` and the cargo-fuzz targets in `fuzz/` (which include this file by
//! path). Each takes arbitrary bytes, must not panic inside the reader, and asserts the reader's
//! round-trip properties on whatever it accepts.
#![allow(dead_code)]

use dxbc::chunks::{rdef::Rdef, sfi0::Sfi0, signature::Signature, stat::Stat};
use dxbc::{Container, FourCC, Limit, Program, Shader, Syntax};

/// A decoded program re-encodes to its own words, and its exact listing reassembles to it.
fn program_round_trips(program: &Program, code: &[u8]) {
    let bytes = dxbc::encode_program(program).expect("a decoded program encodes");
    assert_eq!(bytes, code, "a decoded program re-encodes to its own bytes");
    let exact = dxbc::disassemble(program, Syntax::Exact);
    let _ = dxbc::disassemble(program, Syntax::Fxc);
    let again = dxbc::assemble(&exact).expect("an exact listing assembles");
    assert_eq!(
        &again.program, program,
        "the exact listing reassembles to the same program"
    );
}

/// A validated program asks for nothing beyond D3D11's limits (the `v#`/`o#` files, beyond
/// the pixel program's special registers kept past them).
fn validated_is_bounded(program: &Program) {
    let c = program.register_counts();
    let special = dxbc::OperandType::SPECIAL_REGISTERS_END;
    assert!(c.temps <= Limit::TempRegisters.value());
    assert!(c.inputs <= Limit::InputRegisters.value().max(special));
    assert!(c.outputs <= Limit::OutputRegisters.value().max(special));
}

/// `Container::parse`, then everything that reads a parsed container.
pub fn container(data: &[u8]) {
    if let Ok(container) = Container::parse(data) {
        let rebuilt = container.to_bytes_exact();
        let again = Container::parse(&rebuilt).expect("a written container parses");
        assert_eq!(again.chunks, container.chunks, "chunks survive a rewrite");
        for c in &container.chunks {
            chunk(c.tag, &c.data);
        }
    }
    if let Ok(shader) = Shader::parse(data) {
        validated_is_bounded(&shader.program);
        let exact = shader.listing(Syntax::Exact);
        let _ = shader.listing(Syntax::Fxc);
        let again = dxbc::assemble(&exact).expect("a shader listing assembles");
        assert_eq!(again.program, shader.program, "the listing reassembles");
        let _ = dxbc::assemble_container(&exact);
    }
}

/// The token decoder on a bare stream (what a code chunk holds), then validation.
pub fn tokens(data: &[u8]) {
    if let Ok(program) = dxbc::decode_program(data) {
        program_round_trips(&program, data);
        if program.validate().is_ok() {
            validated_is_bounded(&program);
        }
    }
}

/// The assembler on text; what it assembles encodes and decodes back to the same program.
pub fn text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(assembled) = dxbc::assemble(text)
        && let Ok(words) = dxbc::encode_words(&assembled.program)
    {
        let decoded = dxbc::decode_words(&words).expect("an encoded program decodes");
        assert_eq!(decoded, assembled.program, "assemble -> encode -> decode");
        let _ = decoded.validate();
    }
    if let Ok(container) = dxbc::assemble_container(text) {
        let _ = Shader::parse(&container.to_bytes());
    }
    let _ = dxbc::chunks::signature::parse_fxc_signature_comments(text);
}

const CHUNK_TAGS: [FourCC; 10] = [
    FourCC::ISGN,
    FourCC::OSGN,
    FourCC::OSG5,
    FourCC::PCSG,
    FourCC::ISG1,
    FourCC::OSG1,
    FourCC::PSG1,
    FourCC::RDEF,
    FourCC::STAT,
    FourCC::SFI0,
];

/// The metadata chunk parsers: the first byte picks the reader, the rest is the chunk's data.
pub fn chunks(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let tag = CHUNK_TAGS[usize::from(pick) % CHUNK_TAGS.len()];
    chunk(tag, rest);
}

fn chunk(tag: FourCC, data: &[u8]) {
    if Signature::is_signature_tag(tag) {
        if let Ok(sig) = Signature::parse(tag, data) {
            let _ = sig.to_fxc_comment();
            let again = Signature::parse(tag, &sig.encode()).expect("an encoded signature parses");
            let strip = |s: &Signature| {
                let mut e = s.elements.clone();
                e.iter_mut().for_each(|e| e.name_offset = None);
                e
            };
            assert_eq!(
                strip(&again),
                strip(&sig),
                "signature elements survive encoding"
            );
        }
    } else if tag == FourCC::RDEF {
        if let Ok(rdef) = Rdef::parse(data) {
            assert_eq!(rdef.encode(), data, "an unchanged RDEF re-emits its bytes");
            Rdef::parse(&rdef.encode_canonical()).expect("the canonical RDEF parses");
        }
    } else if tag == FourCC::STAT {
        if let Ok(stat) = Stat::parse(data) {
            assert_eq!(stat.encode(), data);
        }
    } else if tag == FourCC::SFI0
        && let Ok(sfi0) = Sfi0::parse(data)
    {
        assert_eq!(sfi0.encode(), data);
        let _ = sfi0.names();
    }
}
