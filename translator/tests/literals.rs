//! Immediates that WGSL would evaluate as constants: an instruction of immediates only, and an
//! infinity or NaN read as a float, are bound to function `var`s. As constants they are
//! shader-creation errors (an out-of-range `exp2`, `bitcast<f32>` of an infinity) that naga
//! lets through and Chrome's Tint rejects; a `let` is folded back into a constant by Dawn.

use translator::{Profile, translate};

fn wgsl(asm: &str, profile: Profile) -> String {
    let container = dxbc::assemble_container(asm).expect("assembles");
    let shader = dxbc::Shader::parse(&container.to_bytes()).expect("reparses");
    translate(&shader, profile).expect("translates").wgsl
}

#[test]
fn constant_only_and_non_finite_immediates_become_vars() {
    let asm = "ps_5_0\n\
               dcl_input_ps linear v0.xyzw\n\
               dcl_output o0.xyzw\n\
               dcl_temps 1\n\
               exp r0.x, l(0x4f000000)\n\
               eq r0.y, l(0xff800000), l(0x00000000)\n\
               mul r0.z, l(0x7fc01234), v0.x\n\
               add r0.w, l(0x3f800000), v0.y\n\
               mov o0.xyzw, r0.xyzw\n\
               ret\n";
    for profile in [Profile::Contract, Profile::Exact] {
        let w = wgsl(asm, profile);
        // naga's writer spells integers in decimal.
        for bits in ["1325400064u", "4286578688u", "0u", "2143294004u"] {
            let bound = w
                .lines()
                .any(|l| l.trim_start().starts_with("var ") && l.ends_with(&format!(" = {bits};")));
            assert!(bound, "{bits} bound to a var:\n{w}");
        }
        // No non-finite constant is ever read as a float.
        for bits in ["4286578688u", "2143294004u"] {
            assert!(!w.contains(&format!("({bits})")), "{bits} inline:\n{w}");
        }
        // A finite immediate beside a register stays an inline constant.
        assert!(w.contains("1065353216u"), "{w}");
        assert!(!w.contains("= 1065353216u;"), "{w}");
    }
}
