//! The events `dxdiff fuzz` made the interpreter raise: an approximate result reaching an op that
//! is not continuous in it (`approximate-amplified`), and a literal ±0 next to a NaN, an infinity,
//! a −0 or a denormal in float arithmetic (`literal-zero-folded`).

use oracles::domain::Domain;
use oracles::interp::{DEFAULT_BUDGET, Resources, run_invocations};

const NAN: u32 = 0x7fc0_0000;
const TWO: u32 = 0x4000_0000;

/// Events of each lane, one lane per `v0` value.
fn events(body: &str, v0: &[u32]) -> Vec<u64> {
    let text = format!(
        "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nmov o0.xyzw, r1.xyzw\nret\n"
    );
    let program = dxbc::assemble(&text).expect("assembles").program;
    let inputs: Vec<Vec<[u32; 4]>> = v0.iter().map(|w| vec![[*w; 4]]).collect();
    run_invocations(&program, &mut Resources::default(), &inputs, DEFAULT_BUDGET)
        .expect("runs")
        .events
}

fn has(ev: u64, d: Domain) -> bool {
    ev & d.bit() != 0
}

#[test]
fn an_approximate_result_into_a_discontinuous_op_is_amplified() {
    let a = Domain::ApproximateAmplified;
    // rsq, then float arithmetic: continuous, the band covers it.
    let ev = events(
        "rsq r0.x, v0.x\nadd r1.x, r0.x, r0.x\nmov r1.yzw, l(0,0,0,0)",
        &[TWO],
    );
    assert!(!has(ev[0], a));
    // rsq, then an integer op on its bits.
    let ev = events(
        "rsq r0.x, v0.x\nftoi r1.x, r0.x\nmov r1.yzw, l(0,0,0,0)",
        &[TWO],
    );
    assert!(has(ev[0], a));
    // Through a move and into a branch condition.
    let ev = events(
        "exp r0.x, v0.x\nmov r0.y, r0.x\nlt r0.z, r0.y, l(4.0)\nmov r1.xyzw, l(0,0,0,0)\nif_nz r0.z\nmov r1.x, l(1)\nendif",
        &[TWO],
    );
    assert!(has(ev[0], a));
    // An exact value overwrites the taint: the integer op reads no approximate value.
    let ev = events(
        "rsq r0.x, v0.x\nmov r0.x, v0.x\niadd r1.x, r0.x, l(1)\nmov r1.yzw, l(0,0,0,0)",
        &[TWO],
    );
    assert!(!has(ev[0], a));
    // The second destination reads its own components: `umul`'s low word at `.y` multiplies
    // `sqrt`'s `.y` (the H200, one ULP off, dxdiff fuzz), though the high word is `.x`.
    let ev = events(
        "mov r0.x, v0.x\nsqrt r0.y, v0.y\numul r1.x, r0.y, l(0, 0x3f800000, 0, 0), r0.xyzw\nmov r1.zw, l(0,0,0,0)",
        &[0x3fc0_0000],
    );
    assert!(has(ev[0], a));
    let ev = events(
        "mov r0.x, v0.x\nsqrt r0.y, v0.y\numul r1.x, r0.z, l(0, 0x3f800000, 0, 0), r0.xyzw\nmov r1.yzw, l(0,0,0,0)",
        &[0x3fc0_0000],
    );
    assert!(!has(ev[0], a));
}

#[test]
fn a_literal_zero_next_to_an_unusual_value_may_fold() {
    let f = Domain::LiteralZeroFolded;
    let ev = events(
        "mul r1.x, v0.x, l(0.0)\nmov r1.yzw, l(0,0,0,0)",
        &[NAN, TWO, 0x8000_0000, 0x0000_0001],
    );
    assert_eq!(
        ev.iter().map(|e| has(*e, f)).collect::<Vec<_>>(),
        [true, false, true, true]
    );
    // No literal zero: nothing to fold.
    let ev = events("mul r1.x, v0.x, l(2.0)\nmov r1.yzw, l(0,0,0,0)", &[NAN]);
    assert!(!has(ev[0], f));
    // A dot product with a zero vector.
    let ev = events(
        "dp3 r1.x, v0.xyzw, l(0,0,0,0)\nmov r1.yzw, l(0,0,0,0)",
        &[NAN],
    );
    assert!(has(ev[0], f));
}

/// A reciprocal of an approximate value is unbounded near 0: `sincos` of 2^-14 is within an
/// absolute band, and `rcp` of it can be off by any factor.
#[test]
fn a_reciprocal_of_an_approximate_value_amplifies() {
    let text = "vs_5_0
dcl_input v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.xyzw, v0.xyzw
sincos r0.y, null, v0.xyzw
rcp r0.xy, r0.xyzw
mov o0.xyzw, r0.xyzw
ret
";
    let p = dxbc::assemble(text).expect("assembles").program;
    let r = oracles::interp::run_invocations(
        &p,
        &mut oracles::interp::Resources::default(),
        &[vec![[0x3380_0000, 0x3880_0000, 0, 0]]],
        oracles::interp::DEFAULT_BUDGET,
    )
    .expect("runs");
    assert_ne!(
        r.events[0] & oracles::domain::Domain::ApproximateAmplified.bit(),
        0
    );
    // The same rcp of an input is exact to D3D and judged by its own band.
    let plain = dxbc::assemble(&text.replace("sincos r0.y, null, v0.xyzw\n", ""))
        .expect("assembles")
        .program;
    let r = oracles::interp::run_invocations(
        &plain,
        &mut oracles::interp::Resources::default(),
        &[vec![[0x3380_0000, 0x3880_0000, 0, 0]]],
        oracles::interp::DEFAULT_BUDGET,
    )
    .expect("runs");
    assert_eq!(
        r.events[0] & oracles::domain::Domain::ApproximateAmplified.bit(),
        0
    );
}

/// `sincos` is off by an absolute amount; scaled by a factor above 1 that error grows past the
/// program's band (the H200 on `sincos` of 4e-4 times 2^31 in a `dp2`). The same product with a
/// factor below 1, or a `sqrt` (relative error) scaled up, stays within it. `log` is off by an
/// absolute amount where its result is below 1 in magnitude.
#[test]
fn a_scaled_absolute_error_amplifies() {
    let run = |body: &str, v0: [u32; 4]| {
        let text = format!(
            "vs_5_0\ndcl_input v0.xyzw\ndcl_input v1.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\nmov r1.xyzw, v1.xyzw\n{body}\nmov o0.xyzw, r0.xyzw\nret\n"
        );
        let p = dxbc::assemble(&text).expect("assembles").program;
        let r = oracles::interp::run_invocations(
            &p,
            &mut oracles::interp::Resources::default(),
            &[vec![v0, [0; 4]]],
            oracles::interp::DEFAULT_BUDGET,
        )
        .expect("runs");
        r.events[0] & oracles::domain::Domain::ApproximateAmplified.bit() != 0
    };
    let big = [0x39d1_8f50, 0x4f00_0000, 0, 0];
    assert!(run(
        "sincos r1.x, null, v0.x\ndp2 r0.x, r1.xyxx, v0.yzyy",
        big
    ));
    assert!(run(
        "sincos r1.x, null, v0.x\nmov r1.z, r1.x\nmul r0.x, r1.z, v0.y",
        big
    ));
    let small = [0x39d1_8f50, 0x3f00_0000, 0, 0];
    assert!(!run("sincos r1.x, null, v0.x\nmul r0.x, r1.x, v0.y", small));
    assert!(!run("sqrt r1.x, v0.x\nmul r0.x, r1.x, v0.y", big));
    // `log` near 1 is off by up to 2^-21 absolute, scaled here by 66 (the H100 on `log` of
    // `frc` of 65.99999 in a `dp3`, dxdiff fuzz); far from 1 its band is relative.
    let near_one = [0x3f7f_ff80, 0x4284_0000, 0, 0];
    assert!(run("log r1.y, v0.x\ndp3 r0.x, v0.yyyy, r1.xyzx", near_one));
    let far = [0x4780_0000, 0x4284_0000, 0, 0];
    assert!(!run("log r1.y, v0.x\ndp3 r0.x, v0.yyyy, r1.xyzx", far));
    // `sqrt` of a small value with an absolute error grows the error (e / 2√x): the H100's
    // `log` of 0x3f800002, inside its 2^-21, then `sqrt`, 14.5 % off
    // (`../shared/findings/h100-2026-12-07`, `log_sqrt`). Above 1/4 it shrinks instead.
    assert!(run(
        "log r1.x, v0.x\nsqrt r0.x, r1.x",
        [0x3f80_0002, 0, 0, 0]
    ));
    assert!(!run(
        "log r1.x, v0.x\nsqrt r0.x, r1.x",
        [0x4180_0000, 0, 0, 0]
    ));
}

/// A sum that loses a leading bit where a term is approximate: the term's error grows past
/// the program's band relative to the sum. The H100's `rsq` of 0.5, one ULP off, then `add`
/// of −1.5 was 16 ULPs off (dxdiff fuzz, exact profile, 2026-12-07).
#[test]
fn an_approximate_term_of_a_cancelling_sum_amplifies() {
    let a = Domain::ApproximateAmplified;
    let half = 0x3f00_0000;
    let run = |body: &str| events(&format!("{body}\nmov r1.yzw, l(0,0,0,0)"), &[half])[0];
    assert!(has(run("rsq r0.x, v0.x\nadd r1.x, l(-1.5), r0.x"), a));
    assert!(has(
        run("rsq r0.x, v0.x\nmad r1.x, r0.x, l(2.0), l(-3.0)"),
        a
    ));
    assert!(has(
        run("rsq r0.x, v0.x\nmov r0.y, l(-1.5)\ndp2 r1.x, r0.xyxx, l(1.0, 1.0, 0, 0)"),
        a
    ));
    // The same sign, or a sum of exact values that cancels: the band holds.
    assert!(!has(run("rsq r0.x, v0.x\nadd r1.x, l(1.5), r0.x"), a));
    assert!(!has(run("rsq r0.x, v0.x\nadd r1.x, l(1.5), -v0.x"), a));
    // Within a factor of two of the largest term: not a lost bit.
    assert!(!has(run("rsq r0.x, v0.x\nadd r1.x, l(-0.5), r0.x"), a));
}

/// An approximate op run again on its own result (a loop) compounds its error past the one
/// band the judge sums for it: the H100's `div r0.z, r0.z, v0.z` three times was 4 ULPs off.
#[test]
fn an_approximate_op_run_again_on_its_result_amplifies() {
    let a = Domain::ApproximateAmplified;
    let run = |n: u32| {
        events(
            &format!(
                "mov r0.x, v0.x\nmov r0.y, l({n})\nloop\nbreakc_z r0.y\niadd r0.y, r0.y, l(-1)\ndiv r0.x, r0.x, v0.x\nendloop\nmov r1.x, r0.x\nmov r1.yzw, l(0,0,0,0)"
            ),
            &[0x43d3_2944],
        )[0]
    };
    assert!(has(run(3), a));
    assert!(!has(run(1), a));
    // The same `div` twice on fresh inputs each time: nothing compounds.
    let ev = events(
        "mov r0.y, l(2)\nloop\nbreakc_z r0.y\niadd r0.y, r0.y, l(-1)\ndiv r1.x, v0.x, v0.y\nendloop\nmov r1.yzw, l(0,0,0,0)",
        &[0x43d3_2944],
    )[0];
    assert!(!has(ev, a));
}

/// `mul` then `add` of its product, in one block of a program that allows refactoring: a
/// compiler may contract them into one fused multiply-add, as D3D lets the driver. The H100
/// fused `mul r1.x, v0.x, v0.x` then `add r0.z, l(1.0), r1.x` with −5060.26 in `v0.x`, one ULP
/// from the unfused sum (dxdiff fuzz, contract profile, 2026-12-07).
#[test]
fn a_product_added_in_the_same_block_may_be_contracted() {
    let fusion = Domain::FusionSensitive;
    let run = |flags: &str, body: &str| {
        let text = format!(
            "ps_5_0\n{flags}dcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\nmov r1.xyzw, l(0,0,0,0)\n{body}\nmov o0.xyzw, r1.xyzw\nret\n"
        );
        let program = dxbc::assemble(&text).expect("assembles").program;
        run_invocations(
            &program,
            &mut Resources::default(),
            &[vec![[0xc59e_2313; 4]]],
            DEFAULT_BUDGET,
        )
        .expect("runs")
        .events[0]
    };
    let allowed = "dcl_globalFlags refactoringAllowed\n";
    assert!(has(
        run(allowed, "mul r0.x, v0.x, v0.x\nadd r1.x, l(1.0), r0.x"),
        fusion
    ));
    // Negated, and with a move of something else between.
    assert!(has(
        run(
            allowed,
            "mul r0.x, -v0.x, v0.x\nmov r0.y, l(2.0)\nadd r1.x, l(1.0), -r0.x"
        ),
        fusion
    ));
    // Without the flag, across a branch, or after a factor changed: no contraction.
    assert!(!has(
        run("", "mul r0.x, v0.x, v0.x\nadd r1.x, l(1.0), r0.x"),
        fusion
    ));
    assert!(!has(
        run(
            allowed,
            "mul r0.x, v0.x, v0.x\nif_nz v0.y\nendif\nadd r1.x, l(1.0), r0.x"
        ),
        fusion
    ));
    assert!(!has(
        run(
            allowed,
            "mov r0.y, v0.x\nmul r0.x, r0.y, r0.y\nmov r0.y, l(3.0)\nadd r1.x, l(1.0), r0.x"
        ),
        fusion
    ));
}

/// A zero whose sign a translation need not keep (`itof`/`utof`/`frc`/`mad`/`dp*` of a zero
/// result) enters `signed-zero` only where its bits leave float arithmetic: the H100 gave −0
/// for `itof` of a false `lt`, then `imad` read it as an integer; and for `dp2 l(L, L),
/// (2^31, -2^31)`, which `swapc` then tested (dxdiff fuzz, contract profile, 2026-12-07).
#[test]
fn a_free_signed_zero_matters_where_its_bits_are_read() {
    let z = Domain::SignedZero;
    let run = |body: &str| events(&format!("{body}\nmov r1.yzw, l(0,0,0,0)"), &[0xc049_0fdb])[0];
    // Read as an integer, tested, moved to an output: the lane enters it.
    assert!(has(
        run("lt r0.x, l(0), v0.x\nitof r0.y, r0.x\nimad r1.x, r0.y, v0.x, l(1)"),
        z
    ));
    assert!(has(
        run("dp2 r0.x, l(-1.0, -1.0, 0, 0), l(2.0, -2.0, 0, 0)\nmovc r1.x, r0.x, l(1), l(2)"),
        z
    ));
    // Written to an output: only that word is flagged (its sign free), not the lane.
    let free = |body: &str| {
        let text = format!(
            "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nmov o0.yzw, l(0,0,0,0)\nret\n"
        );
        let program = dxbc::assemble(&text).expect("assembles").program;
        let r = run_invocations(
            &program,
            &mut Resources::default(),
            &[vec![[0; 4]]],
            DEFAULT_BUDGET,
        )
        .expect("runs");
        (r.free_nan[0], has(r.events[0], z))
    };
    assert_eq!(free("frc o0.x, l(0)"), ([true, false, false, false], false));
    assert_eq!(
        free("itof r0.x, l(0)\nmov r0.z, r0.x\nmov o0.x, r0.z"),
        ([true, false, false, false], false)
    );
    assert_eq!(
        free("itof r0.x, l(0)\nmov o0.x, |r0.x|"),
        ([false; 4], false)
    );
    // Float arithmetic of it that is not a zero, a float comparison, `|x|`: nothing.
    assert!(!has(run("itof r0.x, l(0)\nadd r1.x, r0.x, l(1.0)"), z));
    assert!(!has(
        run("itof r0.x, l(0)\nlt r0.y, r0.x, l(1.0)\nmov r1.x, r0.y"),
        z
    ));
    assert!(!has(run("itof r0.x, l(0)\nmov r1.x, |r0.x|"), z));
    // A zero of another op (an exact `add` of zeros) is D3D's own +0.
    assert!(!has(
        run("add r0.x, l(0), l(0)\nimad r1.x, r0.x, l(3), l(1)"),
        z
    ));
}
