//! SM5.1 register ranges: declarations carry (id, first, last) and a register space; code operands
//! carry (id, index). No corpus blob is 5.1, so these are built from text and round-tripped.

const TEXT: &str = "ps_5_1
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[0:0][2], immediateIndexed, space=0
dcl_sampler S0[3:3], mode_default, space=1
dcl_resource_texture2d (float,float,float,float) T1[2:*], space=0
dcl_uav_raw U0[0:0], space=2
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 1
sample r0.xyzw, v0.xyxx, T1[r0.x + 2].xyzw, S0[3]
add r0.xyzw, r0.xyzw, CB0[0][1].xyzw
mov o0.xyzw, r0.xyzw
ret 
";

#[test]
fn sm51_ranges_round_trip_through_text_and_tokens() {
    let program = dxbc::assemble(TEXT).expect("assembles").program;
    let cb = &program.instructions[1];
    assert_eq!(
        cb.operands[0].indices.len(),
        3,
        "CB decl is (id, first, last)"
    );
    assert_eq!(cb.trailing, vec![2, 0], "size then space");
    let tex = &program.instructions[3];
    assert_eq!(
        tex.operands[0].indices[2].immediate(),
        Some(0xFFFF_FFFF),
        "`*` is unbounded"
    );
    let words = dxbc::encode_words(&program).expect("encodes");
    let decoded = dxbc::decode_words(&words).expect("decodes");
    assert_eq!(decoded, program);
    let text = dxbc::disassemble(&decoded, dxbc::Syntax::Exact);
    assert!(!text.contains(".raw"), "{text}");
    assert_eq!(text, TEXT);
}
