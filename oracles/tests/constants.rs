//! Compile-time constants through registers: a zero that reaches `mul`, `mad` or `dp*` through
//! a temp that holds that zero wherever the read can be reached from folds on a GPU just as a literal does, so the lane gets
//! `literal-zero-folded`; a temp loaded from an input does not.

use oracles::domain::Domain;
use oracles::interp::{DEFAULT_BUDGET, Resources, run_invocations};

const NAN: u32 = 0x7fc0_0000;

/// Whether lane 0 of `body` (inputs `v0 = [NaN, 0, 0, 0]`) enters `literal-zero-folded`.
fn folded(body: &str) -> bool {
    let text = format!(
        "vs_5_0
dcl_immediateConstantBuffer {{ {{ 0, 1065353216, 0, 0}} }}
dcl_input v0.xyzw
dcl_output o0.xyzw
dcl_temps 3
dcl_indexableTemp x0[4], 4
mov o0.xyzw, l(0, 0, 0, 0)
{body}
ret
"
    );
    let p = dxbc::assemble(&text).expect("assembles").program;
    let r = run_invocations(
        &p,
        &mut Resources::default(),
        &[vec![[NAN, 0, 0, 0]]],
        DEFAULT_BUDGET,
    )
    .expect("runs");
    r.events[0] & Domain::LiteralZeroFolded.bit() != 0
}

#[test]
fn a_zero_moved_into_a_register_folds() {
    assert!(folded("mov r0.x, l(0)\nmul o0.x, r0.x, v0.x"));
}

#[test]
fn a_register_loaded_from_an_input_does_not() {
    assert!(!folded("mov r0.x, v0.y\nmul o0.x, r0.x, v0.x"));
}

/// Through moves, swizzles and `icb[0]`; and into `mad` and `dp3`.
#[test]
fn constants_travel_through_moves_swizzles_and_the_icb() {
    assert!(folded(
        "mov r0.y, l(0)\nmov r1.xyz, r0.yyyy\nmad o0.x, v0.x, r1.z, l(1.0)"
    ));
    assert!(folded("mov r0.xyz, icb[0].xzw\ndp3 o0.x, v0.xyzx, r0.xyzx"));
    // icb[0].y is 1.0: a constant, but not a zero.
    assert!(!folded("mov r0.x, icb[0].y\nmul o0.x, r0.x, v0.x"));
}

/// What reaches the read decides, as in a compiler's constant propagation: a later write does
/// not matter, an earlier non-constant write is overwritten, and a branch or a loop that may
/// write something else makes the component unknown.
#[test]
fn the_write_that_reaches_the_read_decides() {
    // The H200 folded this one (dxdiff fuzz on the H200, exact profile).
    assert!(folded(
        "mov r0.xyzw, v0.xyzw\nmov r0.x, l(0)\ndp3 o0.x, r0.xyzx, v0.xyzx"
    ));
    assert!(folded(
        "mov r0.x, l(0)\nmul o0.x, r0.x, v0.x\nmov r0.x, l(1.0)"
    ));
    assert!(!folded(
        "mov r0.x, l(0)\nadd r0.x, r0.x, l(0.5)\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded("add r0.x, v0.y, l(0)\nmul o0.x, r0.x, v0.x"));
    assert!(!folded(
        "mov r0.x, -l(0)\nmov r0.x, |v0.y|\nmul o0.x, r0.x, v0.x"
    ));
    // The same zero on both paths of a branch: still the one constant; another value on one
    // path (even a path lane 0 does not take): unknown.
    assert!(folded(
        "mov r0.x, l(0)\nif_nz v0.y\nmov r0.x, l(0)\nendif\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded(
        "mov r0.x, l(0)\nif_nz v0.y\nmov r0.x, v0.z\nendif\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded(
        "if_nz v0.y\nmov r0.x, l(0)\nelse\nmov r0.x, v0.z\nendif\nmul o0.x, r0.x, v0.x"
    ));
    // In a loop, a value from another iteration may reach the read; a move inside the body
    // just before it cannot be bypassed.
    assert!(!folded(
        "mov r0.x, l(0)\nloop\nmul o0.x, r0.x, v0.x\nmov r0.x, v0.y\nbreakc_nz v0.z\nendloop"
    ));
    assert!(folded(
        "loop\nmov r0.x, l(0)\nmul o0.x, r0.x, v0.x\nbreak\nendloop"
    ));
    assert!(!folded(
        "mov r0.x, l(0)\nloop\nmov r0.x, v0.y\nbreak\nendloop\nmul o0.x, r0.x, v0.x"
    ));
}

/// Any ALU op of constants is a constant a compiler evaluates: the H200 folded `round_ne`,
/// `countbits` and `sincos` of a literal 0 into a following `dp*` with a NaN (dxdiff fuzz, exact
/// profile, 5 minutes). Its value is the lane's own at run time.
#[test]
fn ops_of_constants_are_constants() {
    assert!(folded("round_ne r0.x, l(0)\ndp3 o0.x, r0.xyzx, v0.xyzx"));
    assert!(folded("countbits r0.x, l(0)\nmul o0.x, v0.x, r0.x"));
    assert!(folded(
        "sincos r0.x, null, l(0)\ndp2 o0.x, r0.xyxx, v0.xyxx"
    ));
    assert!(folded("mov_sat r0.x, l(0)\nmul o0.x, r0.x, v0.x"));
    assert!(folded("mov r0.x, -l(0)\nmul o0.x, r0.x, v0.x"));
    // A constant that is not a zero does not fold to one; an op of an input is no constant.
    assert!(!folded("round_ne r0.x, l(1.5)\nmul o0.x, v0.x, r0.x"));
    assert!(!folded("round_ne r0.x, v0.y\nmul o0.x, v0.x, r0.x"));
    // Two computed constants meeting after a branch are not taken for equal.
    assert!(!folded(
        "if_nz v0.y\nround_ne r0.x, l(0)\nelse\nround_ne r0.x, l(1.0)\nendif\nmul o0.x, r0.x, v0.x"
    ));
}

/// A loop that only rewrites the literal a component already holds keeps it a constant; one
/// that writes anything else, or a literal the entry did not hold, does not.
/// An `icb` read at a register index that holds a constant is a constant: the H200 folded
/// `and r1.x, l(0x24), l(7)` then `mul r0.y, icb[r1.x + 0].wwwx, v0` with a −0 read there
/// (dxdiff fuzz, exact profile, seed 27).
#[test]
fn icb_at_a_constant_index_is_a_constant() {
    assert!(folded(
        "and r1.x, l(8), l(0)\nmul o0.x, icb[r1.x + 0].x, v0.x"
    ));
    assert!(folded(
        "mov r1.y, l(0)\niadd r1.x, r1.y, l(0)\ndp2 o0.x, icb[r1.x + 0].xzxx, v0.xyxx"
    ));
    // An index read from an input is not a constant, whatever value it has.
    assert!(!folded("mov r1.x, v0.y\nmul o0.x, icb[r1.x + 0].x, v0.x"));
}

#[test]
fn loops_that_rewrite_the_same_literal_keep_it() {
    assert!(folded(
        "mov r0.x, l(0)\nloop\nmul o0.x, r0.x, v0.x\nmov r0.x, l(0)\nbreak\nendloop\nmul o0.y, r0.x, v0.x"
    ));
    // The body can start again (its end falls through to `endloop`) with 1.0 in r0.x.
    assert!(!folded(
        "mov r0.x, l(0)\nloop\nmul o0.x, r0.x, v0.x\nmov r0.x, l(1.0)\nbreakc_nz v0.y\nendloop"
    ));
    assert!(!folded(
        "mov r0.x, v0.z\nloop\nbreakc_nz v0.y\nmov r0.x, l(0)\nbreak\nendloop\nmul o0.x, r0.x, v0.x"
    ));
}

/// A `case` is reached from the `switch` and from a case before it that falls through, not
/// from a case that ends in `break`: the H200 and lavapipe folded `mad r0.z, v0.z, r1.x, l(1)`
/// in `case 2` with `r1.x` 0 before the `switch` and 1.0 in `case 1` (dxdiff fuzz, exact
/// profile, 5 minutes on the H200).
#[test]
fn switch_cases_see_only_the_paths_that_reach_them() {
    let switch = |first: &str| {
        format!(
            "mov r0.x, l(0)\niadd r1.x, v0.y, l(2)\nswitch r1.x\ncase l(1)\n{first}\ncase l(2)\nmul o0.x, r0.x, v0.x\nbreak\ndefault\nbreak\nendswitch"
        )
    };
    assert!(folded(&switch("mov r0.x, l(1.0)\nbreak")));
    assert!(folded(&switch("mov r0.x, v0.z\nret")));
    assert!(folded(&switch("mov r0.x, l(0)")));
    // Falling through brings the other value along.
    assert!(!folded(&switch("mov r0.x, l(1.0)")));
    assert!(!folded(&switch("mov r0.x, v0.z\nbreakc_nz v0.y")));
    // A literal the entry did not hold: a case reached from the head does not see it.
    assert!(!folded(
        "mov r0.x, v0.z\nand r1.x, v0.y, l(3)\nswitch r1.x\ncase l(2)\nmov r0.x, l(0)\nbreak\ncase l(0)\nmul o0.x, r0.x, v0.x\nbreak\ndefault\nbreak\nendswitch"
    ));
    // A known selector that no `case` takes, and no `default`: only the end is reached, so
    // a `case` that writes another value does not count. The H100 folded `mad r0.x, v0, r1,
    // l(1)` to 1 with a NaN in `v0.x`, `r1.x` 0 before `switch` on `and l(0), l(3)` with one
    // `case l(2)` that moved 1.0 to it (dxdiff fuzz, exact profile, 2026-12-07).
    assert!(folded(
        "mov r0.x, l(0)\nand r1.x, l(0), l(3)\nswitch r1.x\ncase l(2)\nmov r0.x, l(1.0)\nbreak\nendswitch\nmad o0.x, v0.x, r0.x, l(1.0)"
    ));
    assert!(!folded(
        "mov r0.x, l(0)\nand r1.x, l(2), l(3)\nswitch r1.x\ncase l(2)\nmov r0.x, l(1.0)\nbreak\nendswitch\nmad o0.x, v0.x, r0.x, l(1.0)"
    ));
    // After the end: every `break` and, without a `default`, the head.
    let after = |cases: &str| {
        format!(
            "mov r0.x, l(0)\nand r1.x, v0.y, l(3)\nswitch r1.x\n{cases}\nendswitch\nmul o0.x, r0.x, v0.x"
        )
    };
    assert!(folded(&after(
        "case l(1)\nmov r0.x, l(0)\nbreak\ndefault\nbreak"
    )));
    assert!(!folded(&after(
        "case l(1)\nmov r0.x, l(1.0)\nbreak\ndefault\nbreak"
    )));
    assert!(!folded(&after(
        "case l(1)\nmov r0.x, l(0)\nif_nz v0.z\nmov r0.x, v0.w\nbreak\nendif\nbreak"
    )));
    assert!(folded(&after(
        "case l(1)\nmov r0.x, v0.w\nret\ndefault\nbreak"
    )));
}

/// A branch taken only when a component is 0 knows it is, and so does every temp copied from
/// it: lavapipe and the H200 dropped the `+0` of `dp3 r3.y, r2.xxzw, v0` under `if_z v2.z`
/// after `mov r2, v2`, turning D3D's `+0` into `-0` (dxdiff fuzz, exact profile, 5 minutes on
/// the H200).
#[test]
fn a_branch_on_zero_knows_the_zero() {
    // v0.y is 0 for lane 0.
    assert!(folded(
        "mov r0.xyzw, v0.xyzw\nif_z v0.y\nmul o0.x, r0.y, v0.x\nendif"
    ));
    assert!(folded(
        "mov r1.x, v0.y\nmov r0.z, r1.x\nif_z r0.z\nmul o0.x, r1.x, v0.x\nendif"
    ));
    assert!(folded(
        "mov r0.y, v0.y\nif_nz v0.y\nelse\nmul o0.x, r0.y, v0.x\nendif"
    ));
    assert!(folded(
        "add r0.x, v0.y, v0.z\nif_z r0.x\nmul o0.x, r0.x, v0.x\nendif"
    ));
    // Not in the other branch, not after the end, not through a modifier.
    assert!(!folded(
        "mov r0.xyzw, v0.xyzw\nif_nz v0.y\nelse\nendif\nmul o0.x, r0.y, v0.x"
    ));
    assert!(!folded(
        "mov r0.xyzw, v0.xyzw\nif_nz v0.y\nmul o0.x, r0.y, v0.x\nendif"
    ));
    assert!(!folded(
        "mov r0.xyzw, -v0.xyzw\nif_z v0.y\nmul o0.x, r0.y, v0.x\nendif"
    ));
    assert!(!folded(
        "mov r0.xyzw, v0.xyzw\nif_z v0.z\nmul o0.x, r0.y, v0.x\nendif"
    ));
    // A copy rewritten before the branch is no longer a copy.
    assert!(!folded(
        "mov r0.xyzw, v0.xyzw\nadd r0.y, r0.y, l(1.0)\nif_z v0.y\nmul o0.x, r0.y, v0.x\nendif"
    ));
}

/// The branch knows the tested input component itself, read directly or through a copy made
/// inside the branch: lavapipe folded `if_nz v0.x` … `else` … `dp4 r0.z, l(1,1,1,1), v0.xyxx`
/// to −0 with −0 in `v0.y`, where D3D gives +0 (dxdiff fuzz, exact profile, lavapipe).
#[test]
fn a_branch_on_an_input_knows_the_input() {
    // v0.y is 0 for lane 0.
    assert!(folded("if_z v0.y\nmul o0.x, v0.y, v0.x\nendif"));
    assert!(folded("if_nz v0.y\nelse\nmul o0.x, v0.x, v0.y\nendif"));
    assert!(folded(
        "if_z v0.y\nmov r1.x, v0.y\nmul o0.x, r1.x, v0.x\nendif"
    ));
    assert!(folded("if_z v0.y\nmul o0.x, -v0.y, v0.x\nendif"));
    // Through a copy tested in its place, and after a conditional exit on nonzero.
    assert!(folded(
        "mov r0.x, v0.y\nif_z r0.x\nmul o0.x, v0.y, v0.x\nendif"
    ));
    assert!(folded(
        "loop\nbreakc_nz v0.y\nmul o0.x, v0.y, v0.x\nbreak\nendloop"
    ));
    // Not in the other branch, not after the end, not another component.
    assert!(!folded("if_z v0.y\nelse\nmul o0.x, v0.y, v0.x\nendif"));
    assert!(!folded("if_z v0.y\nendif\nmul o0.x, v0.y, v0.x"));
    assert!(!folded("if_z v0.y\nmul o0.x, v0.z, v0.x\nendif"));
}

/// An integer op of one value with itself is a constant whatever the value: lavapipe folded
/// `xor r1.w, cb0[2].w, cb0[2].w` (0) into `dp2 r0.x, v0, r1.w` with a NaN in `v0.y`, giving 0
/// where D3D gives NaN (dxdiff fuzz, exact profile, lavapipe).
#[test]
fn an_integer_op_of_a_value_with_itself_is_a_constant() {
    assert!(folded("xor r0.x, v0.x, v0.x\nmul o0.x, r0.x, v0.x"));
    assert!(folded("ine r0.x, v0.x, v0.x\nmul o0.x, r0.x, v0.x"));
    assert!(folded("iadd r0.x, -v0.x, v0.x\nmul o0.x, r0.x, v0.x"));
    assert!(folded("usubb r0.x, r1.x, v0.x, v0.x\nmul o0.x, r0.x, v0.x"));
    assert!(folded("usubb r1.x, r0.x, v0.w, v0.w\nmul o0.x, r0.x, v0.x"));
    assert!(folded(
        "mov r1.x, v0.x\nult r0.x, r1.x, v0.x\nmul o0.x, r0.x, v0.x"
    ));
    // Two values, or `x + x`, are not.
    assert!(!folded("xor r0.x, v0.x, v0.y\nmul o0.x, r0.x, v0.x"));
    assert!(!folded("iadd r0.x, v0.y, v0.y\nmul o0.x, r0.x, v0.x"));
    assert!(!folded(
        "usubb r0.x, r1.x, v0.x, v0.w\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded(
        "xor r0.x, v0.x, v0.x\nadd r0.x, r0.x, v0.y\nmul o0.x, r0.x, v0.x"
    ));
}

/// The constant such an op computes is its value, not only "some constant": a path that writes
/// the same literal meets it equal. The H100 folded `ilt r1.x, v0, v0`, then `if_z v0.x` that
/// moves `l(0)` to `r1.x`, into `mul r0.x, v0, r1` to +0 with −0 in `v0.x` (dxdiff fuzz, exact
/// profile, 2026-12-07; lavapipe does too).
#[test]
fn an_identity_meets_the_literal_it_equals() {
    assert!(folded(
        "ilt r0.x, v0.x, v0.x
if_z v0.y
mov r0.x, l(0)
endif
mul o0.x, r0.x, v0.x"
    ));
    assert!(folded(
        "ieq r0.x, v0.x, v0.x
if_z v0.y
mov r0.x, l(-1)
endif
xor r0.x, r0.x, l(-1)
mul o0.x, r0.x, v0.x"
    ));
    // Another literal on the other path: unknown.
    assert!(!folded(
        "ilt r0.x, v0.x, v0.x
if_z v0.y
mov r0.x, l(1.0)
endif
mul o0.x, r0.x, v0.x"
    ));
}

/// A thread id tested zero is 0 in the branch, read directly: lavapipe and the H100 folded
/// `if_z vThreadIDInGroupFlattened.x`, `mul r1.w, vThreadIDInGroupFlattened.x, l(1.0)`, `mad
/// r0.y, r0.y, r1.w, l(1.0)` to 1 with a NaN in `r0.y` (dxdiff fuzz, exact profile,
/// 2026-12-07).
#[test]
fn a_thread_id_tested_zero_is_zero_in_the_branch() {
    let body = |test: &str| {
        format!(
            "mov r1.x, l(0)\n{test} vThreadIDInGroupFlattened.x\nitof r0.x, vThreadIDInGroupFlattened.x\nmad r1.x, cb0[0].x, r0.x, l(1.0)\nendif"
        )
    };
    assert!(folded_cs("4, 1, 1", &body("if_z")));
    // Where the id is not 0, its conversion is a float the compiler does not know.
    assert!(!folded_cs("4, 1, 1", &body("if_nz")));
}

/// A value provably below 2^23 is a denormal or zero as float bits, which a compiler that
/// flushes folds like a zero: the H200 folded `countbits r1.y, v2` into a `dp4` with a NaN.
#[test]
fn small_integers_fold_like_zeros() {
    assert!(folded("countbits r0.x, v0.y\nmul o0.x, r0.x, v0.x"));
    assert!(folded("and r0.x, v0.y, l(255)\nmul o0.x, r0.x, v0.x"));
    assert!(folded(
        "ushr r0.x, v0.y, l(9)\nmov r1.x, r0.x\nmul o0.x, r1.x, v0.x"
    ));
    // A carry or borrow (0 or 1; the H200 folded `usubb`'s into a `dp3`), a half.
    assert!(folded(
        "usubb null, r0.x, l(0), v0.x\ndp3 o0.y, v0.xyzx, r0.xyzx"
    ));
    assert!(folded("uaddc r1.x, r0.x, v0.y, v0.z\nmul o0.x, r0.x, v0.x"));
    assert!(folded("f32tof16 r0.x, v0.y\nmul o0.x, r0.x, v0.x"));
    // A quotient by a wide literal, a remainder by a narrow one (the H200 folded
    // `udiv r1.y, null, v0, l(0x3fc00000)` into a `dp2` with a NaN).
    assert!(folded(
        "udiv r0.x, null, v0.y, l(0x3fc00000)\ndp2 o0.x, v0.xyxx, r0.xyxx"
    ));
    assert!(folded(
        "udiv null, r0.x, v0.y, l(1000)\nmul o0.x, r0.x, v0.x"
    ));
    assert!(folded(
        "and r1.x, v0.y, l(255)\nudiv r0.x, null, r1.x, l(3)\nmul o0.x, r0.x, v0.x"
    ));
    // Not provably small: a sum (uaddc's first destination): a wide mask, a short shift, a float modifier on an input.
    assert!(!folded(
        "and r0.x, v0.y, l(0xffffffff)\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded("ushr r0.x, v0.y, l(8)\nmul o0.x, r0.x, v0.x"));
    assert!(!folded("mov r0.x, -v0.y\nmul o0.x, r0.x, v0.x"));
    // A quotient by a narrow literal, a remainder by a wide one, a small dividend by zero.
    assert!(!folded(
        "udiv r0.x, null, v0.y, l(256)\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded(
        "udiv null, r0.x, v0.y, l(0x01000000)\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded(
        "and r1.x, v0.y, l(255)\nudiv r0.x, null, r1.x, l(0)\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded(
        "uaddc r0.x, r1.x, v0.y, v0.z\nmul o0.x, r0.x, v0.x"
    ));
}

/// A value the compiler knows is one of a few constants folds where it is a zero: lavapipe and
/// the H200 gave +0 for `ine r0.z, v0.z, v0.y` then `mul r0.x, r0.z, v0.x` with a negative
/// denormal in `v0.x`, where D3D gives −0 (dxdiff fuzz, exact profile, seed 29).
#[test]
fn choices_among_constants_fold_where_they_are_zero() {
    // A comparison's mask (the H200 also folded `ige r1.x, vThreadIDInGroupFlattened,
    // l(0x4b800000)`, never true, into a `mul` with a NaN), `movc` of two constants, an op
    // of a choice, a choice unchanged across a loop.
    assert!(folded("ine r0.x, v0.y, v0.z\nmul o0.x, r0.x, v0.x"));
    assert!(folded("lt r0.x, v0.y, v0.z\nmul o0.x, v0.x, r0.x"));
    assert!(folded(
        "movc r0.x, v0.y, l(1.0), l(0)\nmul o0.x, r0.x, v0.x"
    ));
    assert!(folded(
        "ieq r1.x, v0.y, v0.z\nnot r0.x, r1.x\nmul o0.x, r0.x, v0.x"
    ));
    assert!(folded(
        "ne r0.x, v0.y, v0.z\nloop\nbreakc_z v0.y\nendloop\nmul o0.x, r0.x, v0.x"
    ));
    // An integer op of inputs, `movc` with an input arm, a literal met with an input, two
    // literals met.
    assert!(!folded("iadd r0.x, v0.y, v0.z\nmul o0.x, r0.x, v0.x"));
    assert!(!folded("movc r0.x, v0.y, v0.z, l(0)\nmul o0.x, r0.x, v0.x"));
    assert!(!folded(
        "if_nz v0.w\nmov r0.x, v0.y\nelse\nmov r0.x, l(0)\nendif\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded(
        "if_nz v0.y\nmov r0.x, l(1.0)\nelse\nmov r0.x, l(0)\nendif\nmul o0.x, r0.x, v0.x"
    ));
}

/// `x / x` and `x + -x` of one value fold to 1 and 0, also where one side is a copy: the H200
/// gave 1 for `mov r1, v1; div r0.w, r1.w, v1.w` with a NaN in `v1.w` (dxdiff fuzz, exact
/// profile, 5 minutes).
#[test]
fn copies_of_one_value_are_one_value() {
    assert!(folded("div o0.x, v0.x, v0.x"));
    assert!(folded("mov r0.xyzw, v0.xyzw\ndiv o0.x, r0.x, v0.x"));
    assert!(folded(
        "mov r0.xyzw, v0.xyzw\nmov r1.x, r0.x\nadd o0.x, r1.x, -v0.x"
    ));
    assert!(!folded("mov r0.xyzw, v0.xyzw\ndiv o0.x, r0.x, v0.y"));
    assert!(!folded("mov r0.xyzw, |v0.xyzw|\ndiv o0.x, r0.x, v0.x"));
    assert!(!folded("mov r0.xyzw, v0.xyzw\nadd o0.x, r0.x, v0.x"));
}

/// What a load wrote is one value wherever it is read until the register is written again:
/// the H100 saw `ilt r0.yzw, l(0), r0.yyyy` of a loaded `r0.y` as one value and folded
/// `div r0.y, r0.y, r0.w` to 1 where D3D's 0/0 is NaN (../shared/findings/h100-2026-12-07,
/// `div_ilt`). Two loads are two values.
#[test]
fn a_loaded_value_is_one_value() {
    assert!(folded_cs(
        "1, 1, 1",
        "ld_raw r0.x, l(0), u0.xxxx\nilt r0.yz, l(0, 0, 0, 0), r0.xxxx\ndiv r1.x, r0.y, r0.z"
    ));
    assert!(!folded_cs(
        "1, 1, 1",
        "ld_raw r0.x, l(0), u0.xxxx\nld_raw r0.w, l(4), u0.xxxx\nilt r0.y, l(0), r0.x\nilt r0.z, l(0), r0.w\ndiv r1.x, r0.y, r0.z"
    ));
    // A load written again in a loop is forgotten there, as every number is.
    assert!(!folded_cs(
        "1, 1, 1",
        "mov r2.x, l(0)\nld_raw r0.x, l(0), u0.xxxx\nloop\nige r2.y, r2.x, l(2)\nbreakc_nz r2.y\nmov r0.y, r0.x\nld_raw r0.x, r2.x, u0.xxxx\niadd r2.x, r2.x, l(4)\nendloop\nilt r0.z, l(0), r0.x\nilt r0.w, l(0), r0.y\ndiv r1.x, r0.z, r0.w"
    ));
}

/// A loop that can never start a second iteration (its body ends in an unconditional exit, and
/// nothing continues it) runs at most once: a compiler sees straight-line code. lavapipe and the
/// H200 folded `mov r1.w, l(0)` written in such a loop into a `mul` after it, where `r1.w`
/// held an input before (`dxdiff fuzz`, exact profile, seed 32, program 6170: D3D gives −0 for
/// 0 × a negative denormal, the GPUs +0).
#[test]
fn a_loop_that_runs_once_is_straight_line_code() {
    // The fuzzer's program, reduced: a counter known to be 1 is not 0, so `breakc_z` is never
    // taken; the literal `breakc_nz` always is.
    assert!(folded(
        "mov r1.x, v0.x\nmov r2.x, l(1)\nloop\nbreakc_z r2.x\niadd r2.x, r2.x, l(-1)\nmov r1.x, l(0)\nbreakc_nz l(0x3eaaaaab)\nendloop\nmul o0.x, r1.x, v0.x"
    ));
    // The body sees the state before the loop.
    assert!(folded(
        "mov r0.x, l(0)\nloop\nmul o0.x, r0.x, v0.x\nmov r0.x, l(1.0)\nbreak\nendloop"
    ));
    // Its end is the meet of its breaks: one that leaves with an input keeps the register
    // unknown.
    assert!(!folded(
        "mov r1.x, v0.x\nloop\nbreakc_nz v0.y\nmov r1.x, l(0)\nbreak\nendloop\nmul o0.x, r1.x, v0.x"
    ));
    // Code after the exit at the loop's own depth is dead: the H200's form of the fuzzer's
    // program had a `mov` there.
    assert!(folded(
        "mov r1.x, v0.x\nmov r2.x, l(1)\nloop\nbreakc_z r2.x\niadd r2.x, r2.x, l(-1)\nmov r1.x, l(0)\nbreakc_nz l(0x3eaaaaab)\nmov r0.x, l(0)\nendloop\nmul o0.x, r1.x, v0.x"
    ));
    // An exit inside an `if` is not at the loop's depth: the body can still fall through.
    assert!(!folded(
        "mov r1.x, v0.x\nloop\nmov r2.x, r1.x\nmov r1.x, l(0)\nif_nz v0.y\nbreak\nendif\nendloop\nmul o0.x, r2.x, v0.x"
    ));
    // A `continue` anywhere in it makes it a loop again.
    assert!(!folded(
        "mov r1.x, v0.x\nloop\nmov r2.x, r1.x\nmov r1.x, l(0)\ncontinuec_nz v0.y\nmov r1.x, v0.x\nbreak\nendloop\nmul o0.x, r2.x, v0.x"
    ));
    // A body whose end can fall through to `endloop` iterates.
    assert!(!folded(
        "mov r1.x, v0.x\nloop\nmov r2.x, r1.x\nmov r1.x, l(0)\nbreakc_nz v0.y\nendloop\nmul o0.x, r2.x, v0.x"
    ));
}

/// A `breakc` on a value the pass knows is taken or not as that value says, in a `switch` too:
/// one never taken leaves nothing at the end.
#[test]
fn breaks_on_known_values_are_taken_as_the_value_says() {
    assert!(folded(
        "mov r1.x, v0.x\nmov r2.x, l(0)\nswitch l(0)\ncase l(0)\nbreakc_nz r2.x\nmov r1.x, l(0)\nbreak\ndefault\nmov r1.x, l(0)\nbreak\nendswitch\nmul o0.x, r1.x, v0.x"
    ));
    assert!(!folded(
        "mov r1.x, v0.x\nmov r2.x, l(1)\nswitch l(0)\ncase l(0)\nbreakc_nz r2.x\nmov r1.x, l(0)\nbreak\ndefault\nmov r1.x, l(0)\nbreak\nendswitch\nmul o0.x, r1.x, v0.x"
    ));
}

/// Whether the compute program `body` (thread group `group`, `cb0[0] = [NaN, …]`) enters
/// `literal-zero-folded`.
fn folded_cs(group: &str, body: &str) -> bool {
    let text = format!(
        "cs_5_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadIDInGroup.xyz
dcl_input vThreadID.xyz
dcl_temps 3
dcl_thread_group {group}
{body}
store_raw u0.x, l(0), r1.x
ret
"
    );
    let p = dxbc::assemble(&text).expect("assembles").program;
    let mut res = Resources::default();
    res.cbs.insert(0, vec![NAN, 0, 0, 0]);
    res.uavs.insert(
        0,
        oracles::interp::Buffer {
            words: vec![0; 64],
            size_bytes: 256,
            format: None,
            texture: None,
        },
    );
    let d = oracles::interp::run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    d.events & Domain::LiteralZeroFolded.bit() != 0
}

/// A thread id with one value in every invocation is that constant: `vThreadIDInGroupFlattened`
/// in a group of one thread, `vThreadIDInGroup` in a dimension of size 1. A compiler knows the
/// workgroup size; the H200 folded `round_pi`, `min` and `ibfe` of
/// `vThreadIDInGroupFlattened` in `dcl_thread_group 1, 1, 1` into a `mad` or `dp2` with a NaN
/// (dxdiff fuzz, exact profile, seeds 33 and 34).
#[test]
fn thread_ids_of_a_one_thread_dimension_are_constants() {
    let ops = [
        "itof r0.x, vThreadIDInGroupFlattened.x",
        "imul null, r0.x, vThreadIDInGroupFlattened.x, l(0x3f800000)",
    ];
    for op in ops {
        let body = format!("{op}\nmul r1.x, r0.x, cb0[0].x");
        assert!(folded_cs("1, 1, 1", &body), "{op}");
        assert!(!folded_cs("2, 1, 1", &body), "{op} in a group of 2");
    }
    let body = "itof r0.x, vThreadIDInGroup.y\nmul r1.x, r0.x, cb0[0].x";
    assert!(folded_cs("4, 1, 1", body));
    assert!(!folded_cs("4, 2, 1", body));
}

/// Integer arithmetic of literals and thread ids whose bound stays below 2^23 is small: the
/// H100 folded `imad r0.x, l(8), vThreadIDInGroupFlattened.x, l(0)` (at most 120 in a group
/// of 16) into a `mul` with a negative value, giving +0 where D3D gives −0 (dxdiff fuzz, exact
/// profile, 2026-12-07).
#[test]
fn bounded_integer_arithmetic_of_thread_ids_is_small() {
    let body = |op: &str| format!("{op}\nmul r1.x, r0.x, cb0[0].x");
    for op in [
        "imad r0.x, l(8), vThreadIDInGroupFlattened.x, l(0)",
        "umad r0.x, vThreadIDInGroup.y, l(3), l(7)",
        "imul null, r0.x, vThreadIDInGroupFlattened.x, l(1000)",
        "iadd r0.x, vThreadIDInGroupFlattened.x, l(5)",
        "ishl r0.x, vThreadIDInGroupFlattened.x, l(4)",
    ] {
        assert!(folded_cs("16, 4, 1", &body(op)), "{op}");
    }
    // Past 2^23, or a bound the compiler does not know (a dispatch-wide id, a negated one).
    for op in [
        "imad r0.x, l(0x100000), vThreadIDInGroupFlattened.x, l(0)",
        "iadd r0.x, vThreadIDInGroupFlattened.x, l(-1)",
        "imul null, r0.x, vThreadID.x, l(8)",
        "iadd r0.x, -vThreadIDInGroupFlattened.x, l(5)",
    ] {
        assert!(!folded_cs("16, 4, 1", &body(op)), "{op}");
    }
}

/// What the H100 folded in its second exact-profile campaign (dxdiff fuzz, 2026-12-07): a float
/// comparison of literals met with the literal it gives, a carry-less `uaddc` of a thread id,
/// `max` of a thread id and −0, a small integer times 1.0, and the other components of the
/// `dp4` an `if_nz` tested.
#[test]
fn the_second_h100_campaign_folds() {
    assert!(folded(
        "mov r0.x, l(0)\nif_nz v0.y\nelse\nlt r0.x, l(0), l(0)\nendif\nmul o0.x, r0.x, v0.x"
    ));
    assert!(folded_cs(
        "4, 4, 1",
        "uaddc r0.x, null, l(0), vThreadIDInGroupFlattened.x\nmul r1.x, r0.x, cb0[0].x"
    ));
    assert!(folded_cs(
        "2, 2, 2",
        "max r0.x, vThreadIDInGroupFlattened.x, l(0x80000000)\nmul r1.x, cb0[0].x, r0.x"
    ));
    assert!(folded(
        "usubb null, r1.x, l(0), v0.y\nmul r0.x, r1.x, l(1.0)\nmul o0.x, v0.x, r0.x"
    ));
    assert!(folded(
        "dp4 r1.xzw, l(1.0, 1.0, 1.0, 1.0), v0.yyyy\nif_nz r1.z\nelse\nmul o0.x, r1.w, v0.x\nendif"
    ));
    // In the fourth: a quotient of a literal zero.
    assert!(folded(
        "add r0.y, v0.y, l(1.0)\ndiv r1.x, l(0), r0.y\nmul o0.x, r1.x, v0.x"
    ));
    assert!(!folded(
        "add r0.y, v0.y, l(1.0)\ndiv r1.x, l(1.0), r0.y\nmul o0.x, r1.x, v0.x"
    ));
    // In the third: a field of 0 inserted into 0, and taken out of 0.
    assert!(folded(
        "bfi r1.x, v0.y, v0.z, l(0), l(0)\nmul o0.x, r1.x, v0.x"
    ));
    assert!(folded("ubfe r1.x, v0.y, v0.z, l(0)\nmul o0.x, r1.x, v0.x"));
    assert!(!folded(
        "bfi r1.x, v0.y, v0.z, l(0), l(1)\nmul o0.x, r1.x, v0.x"
    ));
    // A comparison of a literal with a value, `max` of a thread id and 1.0, a small integer
    // times an input, another `dp4`'s component: not constants.
    assert!(!folded(
        "mov r0.x, l(0)\nif_nz v0.y\nelse\nlt r0.x, l(0), v0.z\nendif\nmul o0.x, r0.x, v0.x"
    ));
    assert!(!folded_cs(
        "2, 2, 2",
        "max r0.x, vThreadIDInGroupFlattened.x, l(1.0)\nmul r1.x, cb0[0].x, r0.x"
    ));
    assert!(!folded(
        "usubb null, r1.x, l(0), v0.y\nmul r0.x, r1.x, v0.z\nmul o0.x, v0.x, r0.x"
    ));
    assert!(!folded(
        "dp4 r1.xz, l(1.0, 1.0, 1.0, 1.0), v0.yyyy\ndp4 r1.w, l(1.0, 1.0, 1.0, 1.0), v0.zzzz\nif_nz r1.z\nelse\nmul o0.x, r1.w, v0.x\nendif"
    ));
}

/// A shift right of a small integer is small, and so is a rounding of one (D3D flushes the
/// denormal it is as a float to +0 first), the least or greatest of small ones, and a bit field
/// of width 0: the H200 folded `ushr` of a literal 0 by a thread id and `round_ni` of a thread
/// id into a `dp4` with a NaN (seed 35), `min` of 0 and a thread id and `ibfe` of width 0 into
/// a `mad` (seed 34), `sqrt` of a thread id into a `dp2` (seed 44; dxdiff fuzz, exact profile).
/// A conversion of one to an integer is 0, and a product's high word with a small factor is
/// small.
#[test]
fn shifts_and_roundings_of_small_integers_are_small() {
    for op in [
        "ushr r0.x, l(0), vThreadIDInGroupFlattened.x",
        "ishr r0.x, vThreadIDInGroupFlattened.x, l(1)",
        "round_ni r0.x, vThreadIDInGroupFlattened.x",
        "round_pi r0.x, vThreadIDInGroupFlattened.x",
        "round_pi r0.x, |vThreadIDInGroupFlattened.x|",
        "frc r0.x, vThreadIDInGroupFlattened.x",
        "sqrt r0.x, vThreadIDInGroupFlattened.x",
        "ftoi r0.x, vThreadIDInGroupFlattened.x",
        "ftou r0.x, -vThreadIDInGroupFlattened.x",
        "umul r0.x, null, vThreadIDInGroupFlattened.x, cb0[0].y",
        "min r0.x, l(0), vThreadIDInGroupFlattened.x",
        "imax r0.x, l(7), vThreadIDInGroupFlattened.x",
        "ibfe r0.x, l(0), l(0), vThreadIDInGroupFlattened.x",
        "ubfe r0.x, l(0), l(3), vThreadIDInGroupFlattened.x",
        // Width 26 at offset 20 (0x7fc01234 & 31) keeps 12 bits: the H100 folded it into a
        // `dp2` with a NaN (../shared/findings/h100-2026-12-07, dp2_ubfe).
        "ubfe r0.x, l(26), l(0x7fc01234), cb0[0].z",
    ] {
        let body = format!("{op}\nmul r1.x, r0.x, cb0[0].x");
        assert!(folded_cs("64, 1, 1", &body), "{op}");
    }
    // A field of 24 bits or more below offset 9 is not small.
    let body = "ubfe r0.x, l(24), l(8), cb0[0].z\nmul r1.x, r0.x, cb0[0].x";
    assert!(!folded_cs("64, 1, 1", body));
    // A negated one is not small (−(a denormal) flushes to −0), but it is −0 in every lane,
    // the one constant a float op of it gives; a product's low word is neither.
    for op in [
        "round_ni r0.x, -vThreadIDInGroupFlattened.x",
        "sqrt r0.x, -vThreadIDInGroupFlattened.x",
    ] {
        let body = format!("{op}\nmul r1.x, r0.x, cb0[0].x");
        assert!(folded_cs("64, 1, 1", &body), "{op}");
    }
    let body = "umul null, r0.x, vThreadIDInGroupFlattened.x, cb0[0].y\nmul r1.x, r0.x, cb0[0].x";
    assert!(!folded_cs("64, 1, 1", body));
}

/// After `discard_nz`, `breakc_nz`, `continuec_nz` or `retc_nz` the path that goes on knows
/// the tested component is 0, as after `if_nz`'s `else`: the H200 folded `mov r1, v1;
/// discard_nz v1.x; mul r0.w, v0, r1.x` to +0 with −1 in `v0.w` (dxdiff fuzz, exact profile).
#[test]
fn a_conditional_exit_on_nonzero_leaves_a_zero_behind() {
    assert!(folded(
        "mov r1.xyzw, v0.yyyy\ndiscard_nz r1.x\nmul o0.x, r1.x, v0.x"
    ));
    assert!(folded(
        "mov r1.xyzw, v0.yyyy\nretc_nz r1.x\nmul o0.x, r1.x, v0.x"
    ));
    assert!(folded(
        "mov r1.xyzw, v0.yyyy\nloop\nbreakc_nz r1.x\nmul o0.x, r1.x, v0.x\nbreak\nendloop"
    ));
    // `_z` leaves a nonzero behind, which is not a constant.
    assert!(!folded(
        "mov r1.xyzw, v0.yyyy\ndiscard_z r1.x\nmul o0.x, r1.x, v0.x"
    ));
}

/// A constant computed before an `if`, a `loop` or a `switch` that does not write it is the same
/// constant after: the H200 folded `firstbit_shi` of a literal, computed before an empty `if`,
/// into a `mad` with a NaN; `round_pi` of a literal before a loop, into an `add` (dxdiff fuzz,
/// exact profile, seed 35).
#[test]
fn a_computed_constant_survives_constructs_that_do_not_write_it() {
    assert!(folded(
        "round_ne r0.y, l(0)\nif_nz v0.y\nendif\nmul o0.x, r0.y, v0.x"
    ));
    assert!(folded(
        "round_ne r0.y, l(0)\nmov r2.x, v0.y\nloop\nbreakc_z r2.x\niadd r2.x, r2.x, l(-1)\nendloop\nmul o0.x, r0.y, v0.x"
    ));
    // Written on one path: unknown after.
    assert!(!folded(
        "round_ne r0.y, l(0)\nif_nz v0.y\nmov r0.y, v0.z\nendif\nmul o0.x, r0.y, v0.x"
    ));
}

/// An op of components reads only the source component its destination component reads: the
/// H200 folded `mov r1, v1; mov r1.z, l(…); firstbit_lo r0.z, r1.xyzw` (a constant in `.z`)
/// into a `dp2` with a NaN (dxdiff fuzz, exact profile, seed 35). A dot product reads all its
/// components.
#[test]
fn an_op_of_components_is_constant_where_its_component_is() {
    assert!(folded(
        "mov r1.xyzw, v0.xyzw\nmov r1.z, l(0)\nround_ne r0.z, r1.xyzw\nmul o0.x, r0.z, v0.x"
    ));
    assert!(!folded(
        "mov r1.xyzw, v0.xyzw\nmov r1.z, l(0)\nround_ne r0.y, r1.xyzw\nmul o0.x, r0.y, v0.x"
    ));
    assert!(!folded(
        "mov r1.xyzw, v0.xyzw\nmov r1.z, l(0)\ndp2 r0.z, r1.zyyy, r1.yyyy\nmul o0.x, r0.z, v0.x"
    ));
}

/// A branch on a value the pass knows is entered or not as the value says: the H100 dropped
/// `if_z l(1.0)`'s branch, so the zero `r0.y` held before it reached `mul r0.x, v0, r0.y`
/// (dxdiff fuzz, exact profile, seed 44).
#[test]
fn an_if_on_a_known_value_enters_one_branch() {
    assert!(folded(
        "mov r0.y, l(0)\nif_z l(0x3f800000)\n  mov r0.y, l(0x3f800000)\nendif\nmul o0.x, v0.x, r0.y"
    ));
    assert!(folded(
        "mov r0.y, v0.y\nif_nz l(1)\n  mov r0.y, l(0)\nelse\n  mov r0.y, v0.z\nendif\nmul o0.x, v0.x, r0.y"
    ));
    // A computed test the pass evaluates.
    assert!(folded(
        "mov r0.y, l(0)\nand r1.x, l(6), l(1)\nif_nz r1.x\n  mov r0.y, v0.y\nendif\nmul o0.x, v0.x, r0.y"
    ));
    // A test on an input decides nothing.
    assert!(!folded(
        "mov r0.y, l(0)\nif_z v0.y\n  mov r0.y, v0.z\nendif\nmul o0.x, v0.x, r0.y"
    ));
}

/// An element of an indexable temp at a known index holds what was stored there: the H100
/// folded `mov x0[r4.x + 0].zw, l(0)` (`r4.x` a thread id of a one-thread group, and 3) then
/// `mad r0.y, r0, x0[r2.x + 0].yzww, l(1)` (`r2.x = 0 & 3`) to 1 with a NaN in `r0.y` (dxdiff
/// fuzz, exact profile, seed 44).
#[test]
fn an_indexable_element_at_a_known_index_is_known() {
    assert!(folded(
        "mov x0[1].xyzw, v0.xyzw\nmov x0[1].z, l(0)\nmul o0.x, v0.x, x0[1].z"
    ));
    assert!(folded(
        "mov x0[1].xyzw, v0.xyzw\nand r1.x, l(5), l(3)\nmov x0[r1.x + 0].z, l(0)\nmul o0.x, v0.x, x0[1].z"
    ));
    assert!(folded(
        "mov x0[2].z, l(0)\niadd r1.x, l(1), l(1)\nmul o0.x, v0.x, x0[r1.x + 0].z"
    ));
    // A write at an index the pass does not know may change any element.
    assert!(!folded(
        "mov x0[1].z, l(0)\nand r2.x, v0.y, l(3)\nmov x0[r2.x + 0].z, v0.w\nmul o0.x, v0.x, x0[1].z"
    ));
    // A read at one, or of an element written from an input, is not known.
    assert!(!folded(
        "mov x0[1].z, l(0)\nand r2.x, v0.y, l(3)\nmul o0.x, v0.x, x0[r2.x + 0].z"
    ));
    assert!(!folded("mov x0[1].z, v0.y\nmul o0.x, v0.x, x0[1].z"));
}

/// An `icb` element at an index the pass knows the value of is that element: the H100 decided
/// `if_z icb[r1.x + 0]` with `r1.x = and l(0x7fc01234), l(7)` (dxdiff fuzz, exact profile,
/// seed 44).
#[test]
fn an_icb_element_at_a_computed_index_is_its_value() {
    let body = |index: &str| {
        format!(
            "mov r0.y, l(0)\nand r1.x, {index}\nif_z icb[r1.x + 0].y\n  mov r0.y, v0.y\nendif\nmul o0.x, v0.x, r0.y"
        )
    };
    // Row 0's `.y` is 1.0: the branch is not entered.
    assert!(folded(&body("l(8), l(0)")));
    // Row 8 is past the end and reads 0: it is.
    assert!(!folded(&body("l(8), l(8)")));
}

/// A `switch` on a value the pass knows enters only the case it selects (the default when none
/// matches, the end when there is no default): the H100 folded the zero `case l(0)` writes
/// into a `dp3` after `switch` on `and l(0), l(3)` (dxdiff fuzz, exact profile, seed 45).
#[test]
fn a_switch_on_a_known_value_enters_one_case() {
    let body = |selector: u32, default: &str| {
        format!(
            "mov r0.y, v0.y\nand r1.x, l({selector}), l(3)\nswitch r1.x\ncase l(0)\n  mov r0.y, l(0)\n  break\ncase l(1)\n  mov r0.y, v0.z\n  break\n{default}endswitch\nmul o0.x, v0.x, r0.y"
        )
    };
    assert!(folded(&body(0, "")));
    assert!(!folded(&body(1, "")));
    // No case matches 2: to the end, or to a default.
    assert!(!folded(&body(2, "")));
    assert!(folded(&body(2, "default\n  mov r0.y, l(0)\n  break\n")));
    // A matched case does not also reach the default.
    assert!(folded(&body(0, "default\n  mov r0.y, v0.z\n  break\n")));
}

/// Code that is never reached stays unreached through a `switch` or `loop` inside it: the
/// H100 folded `if_nz l(nonzero)` … `discard_nz v0.w` … `else` … `switch` … `endif` then a
/// `mul` by `v0.w` to +0 (dxdiff fuzz, exact profile, seed 45).
#[test]
fn constructs_inside_a_dead_branch_stay_dead() {
    for construct in [
        "switch v0.z\n  default\n    mov r0.x, l(1)\n    break\n  endswitch",
        "switch v0.z\n  case l(3)\n    mov r0.x, l(1)\n    break\n  endswitch",
        "loop\n    breakc_nz v0.z\n    mov r0.x, l(1)\n  endloop",
    ] {
        let body = format!(
            "if_nz l(0xc7ac1ff5)\n  retc_nz v0.y\nelse\n  {construct}\nendif\nmul o0.x, v0.x, v0.y"
        );
        assert!(folded(&body), "{body}");
    }
}

/// A known source can decide an op whatever its other sources hold: an integer product or
/// `and` with 0, `imad` with a zero factor (its addend), a float sum with a NaN saturated
/// (+0). The H100 folded `imad r1.x, l(0), v0, l(0)` and `add_sat r0.y, v0, l(NaN)` into a dot
/// product with a NaN or infinity (dxdiff fuzz, exact profile, seed 45).
#[test]
fn a_known_source_can_decide_an_op() {
    for op in [
        "imad r0.x, l(0), v0.y, l(0)",
        "imul null, r0.x, v0.y, l(0)",
        "umul r0.x, null, l(0), v0.y",
        "and r0.x, v0.z, l(0)",
        "ishl r0.x, l(0), v0.y",
        "add_sat r0.x, v0.y, l(0xffc00000)",
        "mad_sat r0.x, v0.y, l(0x7fc00000), v0.z",
    ] {
        assert!(folded(&format!("{op}\nmul o0.x, v0.x, r0.x")), "{op}");
    }
    for op in [
        // The addend decides, and it is an input; NaN unsaturated is no zero; a nonzero factor.
        "imad r0.x, l(0), v0.y, v0.z",
        "add r0.x, v0.y, l(0xffc00000)",
        "imad r0.x, l(1), v0.y, l(0)",
        "ishl r0.x, v0.y, l(0)",
    ] {
        assert!(!folded(&format!("{op}\nmul o0.x, v0.x, r0.x")), "{op}");
    }
}

/// Integer ops of known values are evaluated by the interpreter's own rules, so a value so
/// computed decides a `switch`: the H100 and lavapipe folded the zero `case l(0)` writes after
/// `ibfe r0.x, l(0), l(0), l(0)` then `and r6.x, r0.x, l(3)` into a `dp3` with a NaN (dxdiff
/// fuzz, exact profile, seed 45).
#[test]
fn integer_ops_of_known_values_are_evaluated() {
    let body = |op: &str| {
        format!(
            "mov r0.y, v0.y\n{op}\nswitch r1.x\ncase l(2)\n  mov r0.y, l(0)\n  break\ncase l(3)\n  mov r0.y, v0.z\n  break\nendswitch\nmul o0.x, v0.x, r0.y"
        )
    };
    for op in [
        "ibfe r1.x, l(3), l(0), l(2)",
        "ubfe r1.x, l(4), l(4), l(0x25)",
        "countbits r1.x, l(0x00100100)",
        "firstbit_lo r1.x, l(4)",
        "umul null, r1.x, l(0x80000001), l(2)",
        "udiv null, r1.x, l(17), l(5)",
        "bfi r1.x, l(1), l(1), l(1), l(0)",
    ] {
        assert!(folded(&body(op)), "{op}");
    }
    // 3 selects the other case.
    assert!(!folded(&body("iadd r1.x, l(1), l(2)")));
}

/// `imad x, -1, x` is `-x + x`, 0 for every x: the H100 and lavapipe folded `imad r1.y, l(-1),
/// r1.y, r1.y` into a `dp4` with a NaN (dxdiff fuzz, exact profile, seed 45).
#[test]
fn imad_of_minus_one_and_a_value_with_itself_is_zero() {
    assert!(folded(
        "mov r1.y, v0.y\nimad r0.x, l(-1), r1.y, v0.y\nmul o0.x, v0.x, r0.x"
    ));
    assert!(folded(
        "imad r0.x, v0.z, l(0xffffffff), v0.z\nmul o0.x, v0.x, r0.x"
    ));
    assert!(!folded(
        "imad r0.x, v0.z, l(0xffffffff), v0.y\nmul o0.x, v0.x, r0.x"
    ));
    assert!(!folded("imad r0.x, v0.z, l(1), v0.z\nmul o0.x, v0.x, r0.x"));
}

/// A write in a branch an `if` on a literal never enters is not a write of the loop around it:
/// the H100 and lavapipe kept `mov r1.x, l(0)` written before a loop whose only other write to
/// `r1.x` was in such a branch, and folded it into a `dp3` with a NaN (dxdiff fuzz, exact
/// profile, seed 46).
#[test]
fn a_branch_never_entered_does_not_write_in_a_loop() {
    let body = |test: &str| {
        format!(
            "mov r1.x, l(0)\nmov r2.x, l(2)\nloop\n  breakc_z r2.x\n  iadd r2.x, r2.x, l(-1)\n  if_nz {test}\n    mul o0.x, v0.x, r1.x\n  else\n    mov r1.x, l(0x3f800000)\n  endif\nendloop"
        )
    };
    assert!(folded(&body("l(0x3f800000)")));
    assert!(!folded(&body("v0.y")));
}

/// The same op of the same values is one value wherever it is computed (a compiler's common
/// subexpressions): `div` of two copies of one comparison is `x / x` (the H100 folded
/// `lt r0.xy, l(0), v0.xx` then `div r0.y, r0.y, r0.x` to 1), and `xor` of two equal sums is
/// 0 (dxdiff fuzz, exact profile, seed 46).
#[test]
fn one_op_of_one_set_of_values_is_one_value() {
    assert!(folded(
        "lt r0.x, l(0), v0.x\nlt r0.y, l(0), v0.x\ndiv o0.x, r0.x, r0.y"
    ));
    assert!(folded(
        "iadd r1.x, v0.y, l(1)\nmov r1.y, r1.x\niadd r2.x, v0.y, l(1)\nxor r0.x, r1.y, r2.x\nmul o0.x, v0.x, r0.x"
    ));
    // Other values, another op, or a source rewritten between.
    assert!(!folded(
        "lt r0.x, l(0), v0.x\nlt r0.y, l(0), v0.y\ndiv o0.x, r0.x, r0.y"
    ));
    assert!(!folded(
        "lt r0.x, l(0), v0.x\nge r0.y, l(0), v0.x\ndiv o0.x, r0.x, r0.y"
    ));
    assert!(!folded(
        "iadd r1.x, v0.y, l(1)\nmov r0.w, v0.z\niadd r2.x, v0.y, l(2)\nxor r0.x, r1.x, r2.x\nmul o0.x, v0.x, r0.x"
    ));
}

/// A load from an indexable temp at an index numbered as the last store's reads what it
/// stored: lavapipe and the H100 forwarded `mov x0[r4.x + 0].zw, l(0)` to `mad r0.y, r0,
/// x0[r2.x + 0].yzww, l(1)`, `r4.x` and `r2.x` both `and` of one thread id with 3 (dxdiff
/// fuzz, exact profile, seed 44).
#[test]
fn a_store_is_forwarded_to_a_load_at_the_same_index() {
    let body = |between: &str, load_index: &str| {
        format!(
            "and r1.x, v0.y, l(3)\nmov x0[r1.x + 0].z, l(0)\n{between}and r2.x, {load_index}, l(3)\nmul o0.x, v0.x, x0[r2.x + 0].z"
        )
    };
    assert!(folded(&body("", "v0.y")));
    // Another component written meanwhile changes nothing.
    assert!(folded(&body("mov x0[r2.y + 0].w, v0.w\n", "v0.y")));
    // Another index, or a write of the same component anywhere else meanwhile.
    assert!(!folded(&body("", "v0.z")));
    assert!(!folded(&body("mov x0[1].z, v0.w\n", "v0.y")));
    assert!(!folded(&body("mov x0[r0.w + 0].z, v0.w\n", "v0.y")));
}

/// A float product, or a dot product, with a known zero factor in every term is 0 to a
/// compiler: lavapipe and the H100 folded `dp4 r0.y, l(0, 0, 0, 0), v0.xxxx` into a `dp4`
/// after it with a NaN in `v0.y` (dxdiff fuzz, exact profile, seed 47).
#[test]
fn a_product_with_a_zero_factor_is_zero_to_a_compiler() {
    for op in [
        "dp4 r0.x, l(0, 0, 0, 0), v0.yyyy",
        "dp2 r0.x, v0.yzyy, l(0, 0x80000000, 0, 0)",
        "mul r0.x, v0.y, l(0)",
    ] {
        assert!(folded(&format!("{op}\nmul o0.x, v0.x, r0.x")), "{op}");
    }
    // A term without a zero factor.
    assert!(!folded(
        "dp3 r0.x, l(0, 0, 1.0, 0), v0.yyyy\nmul o0.x, v0.x, r0.x"
    ));
}

/// An `if` on a value the pass computes inside a loop decides which branch writes in the loop
/// too: lavapipe and the H100 dropped the `else` of `if_nz icb[r3.x + 0].y` with `r3.x = 0 &
/// 7` computed in the loop, so `r1.x` kept the 0 moved before it (dxdiff fuzz, exact profile,
/// seed 46).
#[test]
fn a_branch_decided_inside_a_loop_does_not_write_in_it() {
    let body = |test: &str| {
        format!(
            "mov r1.x, l(0)\nmov r2.x, l(2)\nloop\n  breakc_z r2.x\n  iadd r2.x, r2.x, l(-1)\n  and r0.z, {test}, l(7)\n  if_z icb[r0.z + 0].x\n    mul o0.x, v0.x, r1.x\n  else\n    mov r1.x, l(0x3f800000)\n  endif\nendloop"
        )
    };
    assert!(folded(&body("l(0)")));
    assert!(!folded(&body("v0.y")));
}
