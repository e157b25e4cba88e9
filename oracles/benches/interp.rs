//! Interpreter throughput in lane-instructions per second: one ALU instruction executed for one
//! input vector counts 1. The program is 64 four-component ALU instructions (float, integer and
//! bit ops) over 1M input vectors, as the oracles issue specifies. Float ops see float values
//! (the integer chain lives in its own register) and stay bounded, as in compiled shaders, so
//! the measurement is of the common path; edge values are the generators' business.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oracles::interp::{DEFAULT_BUDGET, Resources, run_invocations, run_invocations_on};

const BODY: [&str; 8] = [
    "mad r0.xyzw, r0.xyzw, l(0.5, 0.25, 0.75, 0.5), v1.xyzw",
    "add r1.xyzw, r1.xyzw, -r0.wzyx",
    "mul r2.xyzw, r0.xyzw, r1.yxwz",
    "max r1.xyzw, r1.xyzw, -r2.xyzw",
    "iadd r3.xyzw, r3.xyzw, l(1, 2, 3, 4)",
    "xor r3.xyzw, r3.xyzw, r0.xyzw",
    "ushr r3.xyzw, r3.xyzw, l(3, 5, 7, 9)",
    "min r0.xyzw, r0.xyzw, r2.xyzw",
];

fn program() -> dxbc::Program {
    let mut text = String::from(
        "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\ndcl_temps 4\n\
         mov r0.xyzw, v0.xyzw\nmov r1.xyzw, v1.xyzw\nmov r3.xyzw, v0.xyzw\n",
    );
    for i in 0..60 {
        text.push_str(BODY[i % BODY.len()]);
        text.push('\n');
    }
    text.push_str("mov o0.xyzw, r0.xyzw\nret\n");
    dxbc::assemble(&text)
        .expect("bench program assembles")
        .program
}

fn bench(c: &mut Criterion) {
    let p = program();
    let alu = p
        .instructions
        .iter()
        .filter(|i| !i.info().is_declaration())
        .count() as u64
        - 1;
    assert_eq!(alu, 64);
    let lanes = 1 << 20;
    let inputs: Vec<Vec<[u32; 4]>> = (0..lanes as u32)
        .map(|i| {
            let f = |k: u32| {
                (1.0 + (i.wrapping_mul(2654435761).wrapping_add(k) % 1000) as f32 / 1000.0)
                    .to_bits()
            };
            vec![[f(0), f(1), f(2), f(3)], [f(4), f(5), f(6), f(7)]]
        })
        .collect();
    let mut g = c.benchmark_group("interp");
    g.sample_size(10);
    g.throughput(Throughput::Elements(alu * lanes as u64));
    g.bench_function("alu64_1M_vectors", |b| {
        b.iter(|| {
            let mut res = Resources::default();
            run_invocations(&p, &mut res, &inputs, DEFAULT_BUDGET).expect("runs")
        })
    });
    g.bench_function("alu64_1M_vectors_one_core", |b| {
        b.iter(|| {
            let mut res = Resources::default();
            run_invocations_on(&p, &mut res, &inputs, DEFAULT_BUDGET, 1).expect("runs")
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
