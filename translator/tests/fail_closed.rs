//! The seed's fail-closed entries, each refused under its own id (not `dxdiff/not-lowered`),
//! naming the instruction: what `dxdiff contract` holds every translator to.

use translator::{Profile, TranslateError, translate_blob};

fn refused(text: &str) -> (String, Option<usize>) {
    let blob = dxbc::assemble_container(text)
        .expect("assembles")
        .to_bytes();
    match translate_blob(&blob, Profile::Contract) {
        Err(TranslateError::Rejected(r)) => (r.catalog_id, r.instruction),
        other => panic!("not refused: {other:?}\n{text}"),
    }
}

fn ps(body: &str) -> String {
    format!(
        "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nret\n"
    )
}

#[test]
fn a_loop_nothing_leaves_is_refused_as_intentional_nontermination() {
    // A `break` that leaves only a switch inside the loop does not leave the loop.
    for body in [
        "loop\n  iadd r0.x, r0.x, l(1)\nendloop",
        "loop\n  switch r0.x\n  default\n    break\n  endswitch\nendloop",
    ] {
        let (id, at) = refused(&ps(body));
        assert_eq!(id, "fail-closed/system-crash", "{body}");
        assert!(at.is_some(), "{body}");
    }
    // A break or a return leaves it.
    for body in [
        "loop\n  breakc_nz v0.x\nendloop\nmov o0.xyzw, v0.xyzw",
        "loop\n  if_nz v0.x\n    mov o0.xyzw, v0.xyzw\n    ret\n  endif\nendloop",
    ] {
        let blob = dxbc::assemble_container(&ps(body))
            .expect("assembles")
            .to_bytes();
        assert!(translate_blob(&blob, Profile::Contract).is_ok(), "{body}");
    }
}

#[test]
fn seed_features_are_refused_under_their_own_ids() {
    let cases = [
        (
            ps("dcl_sampler s0, mode_comparison\ndcl_resource_texture2d (float,float,float,float) t0\nsample_c r0.x, v0.xyxx, t0.xxxx, s0, v0.z\nmov o0.xyzw, r0.xxxx"),
            "fail-closed/sampler-modes",
        ),
        (
            ps("dcl_resource_texture2d (float,float,float,float) t0\nftou r0.xyzw, v0.xyzw\nld_aoffimmi(1,1,0) r1.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r1.xyzw"),
            "fail-closed/texture-offsets",
        ),
        (
            ps("add r0.xyzw {min2_8f}, v0.xyzw {min2_8f}, v0.xyzw {min2_8f}\nmov o0.xyzw, r0.xyzw"),
            "fail-closed/min-precision-kinds",
        ),
        (
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_output oDepth\nmov oDepth, v0.x\nret\n".into(),
            "fail-closed/system-values",
        ),
        (
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps_sgv constant v0.x, primitive_id\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xxxx\nret\n".into(),
            "fail-closed/system-values",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(refused(&text).0, want, "{text}");
    }
}

#[test]
fn sm51_ranges_are_refused_under_their_seed_entries() {
    let tex = "ps_5_1\ndcl_resource_texture2d (float,float,float,float) T0[0:7], space=0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\nftou r0.xyzw, v0.xyzw\nand r1.x, r0.x, l(7)\nld r0.xyzw, r0.yzww, T0[r1.x + 0].xyzw\nmov o0.xyzw, r0.xyzw\nret\n";
    assert_eq!(refused(tex).0, "fail-closed/bindless-ranges");
    let cb = "ps_5_1\ndcl_constantbuffer CB0[0:3][4], immediateIndexed, space=0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\nftou r0.x, v0.x\nand r1.x, r0.x, l(3)\nmov o0.xyzw, CB0[r1.x + 0][1].xyzw\nret\n";
    assert_eq!(refused(cb).0, "fail-closed/dynamic-cb-selection");
    // One register's range, its handle chosen at run time: a relative identity.
    let one = tex.replace("T0[0:7]", "T0[0:0]");
    assert_eq!(refused(&one).0, "fail-closed/relative-resource-identities");
}

#[test]
fn a_structured_offset_past_its_structure_is_refused() {
    let load = |off: u32, mask: &str| {
        ps(&format!(
            "dcl_resource_structured t0, 16\nftou r0.x, v0.x\nld_structured r1.{mask}, r0.x, l({off}), t0.{mask}\nmov o0.xyzw, r1.xxxx"
        ))
    };
    for (off, mask) in [(12, "xy"), (14, "x"), (16, "x")] {
        assert_eq!(
            refused(&load(off, mask)).0,
            "dxdiff/not-lowered",
            "{off} {mask}"
        );
    }
    for (off, mask) in [(12, "x"), (0, "xyzw"), (8, "xy")] {
        let blob = dxbc::assemble_container(&load(off, mask))
            .expect("assembles")
            .to_bytes();
        assert!(
            translate_blob(&blob, Profile::Contract).is_ok(),
            "{off} {mask}"
        );
    }
}

/// Programs D3D's validator would refuse that still decode: malformed control flow and a
/// system value declared twice. Each is refused naming what is wrong, never lowered into a
/// module naga rejects (found by mutating corpus programs).
#[test]
fn malformed_structure_is_refused_before_naga_sees_it() {
    let flow = [
        ("break", "break outside a loop or switch"),
        ("breakc_nz r0.x", "break outside a loop or switch"),
        (
            "switch r0.x\n  default\n  continue\nendswitch",
            "continue outside a loop",
        ),
        (
            "switch r0.x\n  breakc_z r0.y\n  case l(3)\n  break\nendswitch",
            "code between a switch and its first case",
        ),
        (
            "switch r0.x\n  case l(1)\n  break\n  case l(1)\n  break\nendswitch",
            "case label repeated",
        ),
        (
            "switch r0.x\n  case l(2)\n  case l(2)\n  break\nendswitch",
            "case label repeated",
        ),
        (
            "switch r0.x\n  default\n  break\n  default\n  break\nendswitch",
            "a second default",
        ),
    ];
    for (body, why) in flow {
        let blob = dxbc::assemble_container(&ps(&format!("{body}\nmov o0.xyzw, v0.xyzw")))
            .expect("assembles")
            .to_bytes();
        match translate_blob(&blob, Profile::Contract) {
            Err(TranslateError::Rejected(r)) => {
                assert_eq!(r.catalog_id, "dxdiff/not-lowered", "{body}");
                assert!(r.reason.contains(why), "{body}: {}", r.reason);
                assert!(r.instruction.is_some(), "{body}");
            }
            other => panic!("not refused: {other:?}\n{body}"),
        }
    }
    // `continue` in a switch inside a loop continues the loop.
    let blob = dxbc::assemble_container(&ps(
        "loop\n  switch r0.x\n  case l(0)\n  continue\n  default\n  break\n  endswitch\n  break\nendloop\nmov o0.xyzw, v0.xyzw",
    ))
    .expect("assembles")
    .to_bytes();
    assert!(translate_blob(&blob, Profile::Contract).is_ok());

    let twice = [
        "vs_5_0\ndcl_input_sgv v0.x, vertex_id\ndcl_input_sgv v1.x, vertex_id\n\
         dcl_output_siv o0.xyzw, position\nutof o0.xyzw, v1.xxxx\nret\n",
        "ps_5_0\ndcl_input_ps_siv linear noperspective v0.xyzw, position\n\
         dcl_input_ps_siv linear noperspective v1.xyzw, position\ndcl_output o0.xyzw\n\
         add o0.xyzw, v0.xyzw, v1.xyzw\nret\n",
    ];
    for text in twice {
        let (id, _) = refused(text);
        assert_eq!(id, "dxdiff/not-lowered", "{text}");
        let blob = dxbc::assemble_container(text)
            .expect("assembles")
            .to_bytes();
        let Err(TranslateError::Rejected(r)) = translate_blob(&blob, Profile::Exact) else {
            panic!("not refused in the exact profile:\n{text}");
        };
        assert!(r.reason.contains("declared twice"), "{}", r.reason);
    }
}
