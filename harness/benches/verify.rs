//! `dxdiff verify` end to end, beside its own reference measured in the same run: every
//! built-in single-instruction program over the same edge-biased inputs, once through the
//! whole differential path (translation, input generation, the interpreter, the translated
//! WGSL on the local GPU through the worker, judging every lane) and once through the
//! interpreter alone. Both report lanes per second, so their ratio is what the GPU side and
//! judging cost on top of the reference. Without a usable GPU adapter the bench says so and
//! measures the interpreter only.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group};
use harness::session::{Session, Settings};
use oracles::interp::{DEFAULT_BUDGET, Resources, run_invocations};

/// Input vectors per program: enough that a dispatch, not its setup, dominates.
const CASES: usize = 4096;
const SEED: u64 = 1;

fn bench(c: &mut Criterion) {
    let programs = generators::programs::all_single();
    let lanes = (programs.len() * CASES) as u64;
    let mut g = c.benchmark_group("verify");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(lanes));
    let opts = Settings {
        seed: SEED,
        cases: CASES,
        counterexamples: false,
        ..Settings::new(
            harness::translators::parse("builtin", "exact", Duration::from_secs(30))
                .expect("the built-in translator"),
            Default::default(),
        )
    };
    let scratch = std::env::temp_dir().join(format!("dxdiff-bench-verify-{}", std::process::id()));
    match Session::new(opts, "auto", &scratch) {
        Ok(mut v) => {
            g.bench_function("end_to_end_exact", |b| {
                b.iter(|| {
                    for op in &programs {
                        let r = v.single(op);
                        assert_eq!(r.tally.counts.mismatch, 0, "{}", r.name);
                    }
                })
            });
        }
        Err(e) => eprintln!("verify/end_to_end_exact skipped: no usable GPU adapter: {e}"),
    }
    // The peer: the interpreter alone over the same programs and inputs.
    let work: Vec<(dxbc::Program, Vec<Vec<[u32; 4]>>)> = programs
        .iter()
        .map(|op| {
            let program = dxbc::Shader::parse(&op.blob)
                .expect("a built-in program parses")
                .program
                .clone();
            let batch = harness::inputs::single_op(SEED, op.opcode, op.sources, CASES);
            let inputs = (0..batch.vectors)
                .map(|k| batch.invocation(k, 0).to_vec())
                .collect();
            (program, inputs)
        })
        .collect();
    g.bench_function("interpreter_only", |b| {
        b.iter(|| {
            for (p, inputs) in &work {
                let r = run_invocations(p, &mut Resources::default(), inputs, DEFAULT_BUDGET);
                assert!(r.is_ok());
            }
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&scratch);
}

criterion_group!(benches, bench);

/// The GPU executor re-runs the current executable as `gpu-worker --adapter A` (its isolated
/// child process); in a bench that executable is this one, so it serves that request itself.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("gpu-worker") {
        let adapter = args.get(3).map_or("auto", String::as_str);
        std::process::exit(harness::gpu::isolated::serve(adapter));
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
