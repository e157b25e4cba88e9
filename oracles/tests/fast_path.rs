//! The interpreter's batch-wide fast path for float ops must agree bit for bit with the rule
//! functions, and record the same events, on every kind of input: a batch of normal values
//! takes the fast path, and one edge value in the batch sends the whole component to the rules.

use oracles::domain::Events;
use oracles::interp::{DEFAULT_BUDGET, Resources, run_invocations};
use oracles::rules::float as fl;

fn values(seed: u64, n: usize, edges: bool) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|i| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let edge = [
                0,
                0x8000_0000,
                1,
                0x8000_0001,
                0x7f80_0000,
                0x7fc0_0001,
                0x7f7f_ffff,
                0x0080_0000,
            ];
            if edges && i % 97 == 0 {
                edge[(s % 8) as usize]
            } else {
                // Normal values of moderate exponent, so sums and products stay normal.
                (0x3000_0000 + (s as u32 % 0x1f00_0000)) | (s as u32 & 0x8000_0000)
            }
        })
        .collect()
}

#[test]
fn fast_path_matches_the_rules() {
    let p = dxbc::assemble(
        "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_input_ps linear v2.xyzw\n\
         dcl_output o0.xyzw\ndcl_output o1.xyzw\n\
         add o0.x, v0.x, v1.x\nmul o0.y, v0.y, v1.y\nmin o0.z, v0.z, v1.z\nmax o0.w, v0.w, v1.w\n\
         mad o1.x, v0.x, v1.y, v2.z\nret\n",
    )
    .expect("assembles")
    .program;
    for edges in [false, true] {
        let n = 4096;
        let a = values(1, n * 4, edges);
        let b = values(2, n * 4, edges);
        let c = values(3, n * 4, edges);
        let inputs: Vec<Vec<[u32; 4]>> = (0..n)
            .map(|l| {
                let q = |v: &Vec<u32>| [v[4 * l], v[4 * l + 1], v[4 * l + 2], v[4 * l + 3]];
                vec![q(&a), q(&b), q(&c)]
            })
            .collect();
        let r =
            run_invocations(&p, &mut Resources::default(), &inputs, DEFAULT_BUDGET).expect("runs");
        for (l, regs) in inputs.iter().enumerate() {
            let mut ev: Events = 0;
            let want = [
                fl::fadd(regs[0][0], regs[1][0], &mut ev),
                fl::fmul(regs[0][1], regs[1][1], &mut ev),
                fl::fmin(regs[0][2], regs[1][2], &mut ev),
                fl::fmax(regs[0][3], regs[1][3], &mut ev),
            ];
            let mad = fl::fmad(regs[0][0], regs[1][1], regs[2][2], &mut ev);
            assert_eq!(r.outputs_of(l)[0], want, "lane {l} (edges: {edges})");
            assert_eq!(r.outputs_of(l)[1][0], mad, "lane {l} (edges: {edges})");
            assert_eq!(r.events[l], ev, "lane {l} events (edges: {edges})");
        }
    }
}

/// More threads than batches: the threads left without work must not change the result.
#[test]
fn results_do_not_depend_on_the_thread_count() {
    let p = dxbc::assemble("ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nadd o0.xyzw, v0.xyzw, v0.wzyx\nret\n")
        .expect("assembles")
        .program;
    let inputs: Vec<Vec<[u32; 4]>> = (0..3000u32)
        .map(|i| vec![[i, i ^ 0x3f80_0000, i * 7, 0x4000_0000]])
        .collect();
    let one = oracles::interp::run_invocations_on(
        &p,
        &mut Resources::default(),
        &inputs,
        DEFAULT_BUDGET,
        1,
    )
    .expect("runs");
    for threads in [2, 3, 16] {
        let many = oracles::interp::run_invocations_on(
            &p,
            &mut Resources::default(),
            &inputs,
            DEFAULT_BUDGET,
            threads,
        )
        .expect("runs");
        assert_eq!(many, one, "{threads} threads");
        assert_eq!(many.outputs_per_lane, 1);
    }
}
