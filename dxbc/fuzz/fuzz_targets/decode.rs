//! One mutation case of `dxbc/tests/mutations.rs`, driven by libFuzzer: the input is a container
//! (and, for inputs that are not, a bare token stream). Nothing may panic; a decoded program must
//! re-encode to its own bytes and its exact listing must reassemble to the same program.
#![no_main]

use dxbc::{Container, Program, Shader, Syntax};
use libfuzzer_sys::fuzz_target;

fn check_program(program: &Program, code: &[u8]) {
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

fuzz_target!(|data: &[u8]| {
    if let Ok(program) = dxbc::decode_program(data) {
        check_program(&program, data);
    }
    if let Ok(container) = Container::parse(data) {
        let _ = container.to_bytes_exact();
        if let Some(code) = container.code_chunk()
            && let Ok(program) = dxbc::decode_program(&code.data)
        {
            check_program(&program, &code.data);
        }
    }
    if let Ok(shader) = Shader::parse(data) {
        let exact = shader.listing(Syntax::Exact);
        let _ = shader.listing(Syntax::Fxc);
        let again = dxbc::assemble(&exact).expect("a shader listing assembles");
        assert_eq!(
            again.program, shader.program,
            "the shader listing reassembles"
        );
        let _ = dxbc::assemble_container(&exact);
    }
});
