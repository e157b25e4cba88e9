//! Arbitrary UTF-8 into the assembler: it must return `Ok` or `Err`, never panic; whatever it
//! assembles must survive encoding and decoding without panicking either.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(assembled) = dxbc::assemble(text)
        && let Ok(bytes) = dxbc::encode_program(&assembled.program)
    {
        let _ = dxbc::decode_program(&bytes);
    }
    if let Ok(container) = dxbc::assemble_container(text) {
        let _ = dxbc::Shader::parse(&container.to_bytes());
    }
});
