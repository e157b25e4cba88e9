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
