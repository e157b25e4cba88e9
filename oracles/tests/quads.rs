//! Pixel quads: lanes 4q..4q+3 are the 2×2 quad q (x = i & 1, y = i >> 1), and derivatives
//! come from it: fine per row or column, coarse from the top row or left column, undefined in
//! a quad with a lane that is not running.

use oracles::domain::Domain;
use oracles::interp::{BatchResult, DEFAULT_BUDGET, Resources, run_invocations};

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Run `op o0.x, v0.x` over lanes whose `v0.x` are `values`.
fn run(op: &str, values: &[f32]) -> BatchResult {
    let text = format!("ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\n{op} o0.x, v0.x\nret\n");
    let p = dxbc::assemble(&text).expect("assembles").program;
    let inputs: Vec<Vec<[u32; 4]>> = values.iter().map(|v| vec![[f(*v), 0, 0, 0]]).collect();
    run_invocations(&p, &mut Resources::default(), &inputs, DEFAULT_BUDGET).expect("runs")
}

fn xs(r: &BatchResult) -> Vec<f32> {
    (0..r.outputs.len() / r.outputs_per_lane.max(1))
        .map(|l| f32::from_bits(r.outputs_of(l)[0][0]))
        .collect()
}

/// One quad: top row 1, 2; bottom row 10, 30.
const QUAD: [f32; 4] = [1.0, 2.0, 10.0, 30.0];

#[test]
fn fine_derivatives_take_the_lanes_own_row_or_column() {
    assert_eq!(xs(&run("deriv_rtx_fine", &QUAD)), [1.0, 1.0, 20.0, 20.0]);
    assert_eq!(xs(&run("deriv_rty_fine", &QUAD)), [9.0, 28.0, 9.0, 28.0]);
}

#[test]
fn coarse_derivatives_take_the_top_row_and_left_column() {
    assert_eq!(xs(&run("deriv_rtx_coarse", &QUAD)), [1.0; 4]);
    assert_eq!(xs(&run("deriv_rty_coarse", &QUAD)), [9.0; 4]);
    // deriv_rtx may be either: where they differ, the lane says so.
    let r = run("deriv_rtx", &QUAD);
    assert_eq!(xs(&r), [1.0; 4]);
    let choice = Domain::DerivativeChoice.bit();
    assert_eq!(r.events[0] & choice, 0);
    assert_ne!(r.events[2] & choice, 0);
}

#[test]
fn an_incomplete_quad_has_undefined_derivatives() {
    // Six lanes: the second quad has only two.
    let r = run("deriv_rtx_fine", &[1.0, 2.0, 10.0, 30.0, 5.0, 7.0]);
    let divergent = Domain::DerivativeDivergent.bit();
    assert_eq!(r.events[0] & divergent, 0);
    assert_ne!(r.events[4] & divergent, 0);
    assert_ne!(r.events[5] & divergent, 0);
}

/// A derivative is a float subtraction, so a NaN it makes has a free payload (FS §3.1.3): the
/// H100 gave its own NaN where a neighbour held `0x7fc01234`
/// (`../shared/findings/h100-2026-12-07/iridia`). Every lane whose result is NaN is flagged.
#[test]
fn a_derivative_frees_the_nan_payload() {
    for op in [
        "deriv_rtx",
        "deriv_rty",
        "deriv_rtx_coarse",
        "deriv_rtx_fine",
        "deriv_rty_coarse",
        "deriv_rty_fine",
    ] {
        let r = run(op, &[f32::from_bits(0x7fc0_1234), 0.0, 0.0, 0.0]);
        for l in 0..4 {
            let word = r.outputs_of(l)[0][0];
            let nan = word & 0x7f80_0000 == 0x7f80_0000 && word & 0x007f_ffff != 0;
            assert_eq!(r.free_nan[l][0], nan, "{op} lane {l}: {word:#010x}");
        }
        assert!((0..4).any(|l| r.free_nan[l][0]), "{op}: some lane is NaN");
    }
}

/// Run `text` (a pixel program reading `v0.x` and writing `o0.x`) over lanes whose `v0.x` are
/// `values`.
fn run_text(text: &str, values: &[f32]) -> BatchResult {
    let p = dxbc::assemble(text).expect("assembles").program;
    let inputs: Vec<Vec<[u32; 4]>> = values.iter().map(|v| vec![[f(*v), 0, 0, 0]]).collect();
    run_invocations(&p, &mut Resources::default(), &inputs, DEFAULT_BUDGET).expect("runs")
}

/// An attribute evaluated off the centre is the quad's plane there: the fed value plus the
/// row's x step and the column's y step times the offset (sixteenths, signed 4 bits) or the
/// sample's position in the 4-sample pattern; at the centroid it is the fed value.
#[test]
fn evaluations_read_the_quads_plane() {
    // x steps by 16, y by 32.
    let plane = [0.0, 16.0, 32.0, 48.0];
    let eval = |mode: &str, inst: &str| {
        let text = format!("ps_5_0\ndcl_input_ps {mode} v0.x\ndcl_output o0.x\n{inst}\nret\n");
        xs(&run_text(&text, &plane))
    };
    // Offset x −8/16 (0xf8's low bits are 8), y 4/16: −8 + 8 added to each pixel.
    assert_eq!(
        eval("linear", "eval_snapped o0.x, v0.x, l(0xf8, 4, 0, 0)"),
        [0.0, 16.0, 32.0, 48.0]
    );
    assert_eq!(
        eval(
            "linear noperspective",
            "eval_snapped o0.x, -v0.x, l(1, 0, 0, 0)"
        ),
        [-1.0, -17.0, -33.0, -49.0]
    );
    // Sample 3 of the pattern sits at (2, 6) sixteenths: +2 + 12.
    assert_eq!(
        eval("linear", "eval_sample_index o0.x, v0.x, l(3)"),
        [14.0, 30.0, 46.0, 62.0]
    );
    assert_eq!(eval("linear centroid", "eval_centroid o0.x, v0.x"), plane);
    // A constant attribute is its fed value anywhere.
    assert_eq!(
        eval("constant", "eval_snapped o0.x, v0.x, l(7, 7, 0, 0)"),
        plane
    );
}

/// A sample past the target's four, and four values on no plane, leave the evaluation
/// undefined; an offset of 0 does not read the plane.
#[test]
fn evaluations_off_any_plane_or_sample_are_undefined() {
    let undefined = Domain::D3dUndefined.bit();
    let text = "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\neval_sample_index o0.x, v0.x, l(4)\nret\n";
    let r = run_text(text, &[0.0, 16.0, 32.0, 48.0]);
    assert!(r.events.iter().all(|e| e & undefined != 0));
    let text = "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\neval_snapped o0.x, v0.x, l(1, 0, 0, 0)\nret\n";
    let r = run_text(text, &[0.0, 16.0, 32.0, 49.0]);
    assert!(r.events.iter().all(|e| e & undefined != 0));
    let text = "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\neval_snapped o0.x, v0.x, l(16, 0, 0, 0)\nret\n";
    let r = run_text(text, &[0.0, 16.0, 32.0, 49.0]);
    assert!(r.events.iter().all(|e| e & undefined == 0));
    assert_eq!(xs(&r), [0.0, 16.0, 32.0, 49.0]);
}
