//! Input drawing throughput in words per second: the bulk sampler (`values::sample`, `rand`'s
//! Xoshiro256++ over the edge mixture, on all cores) beside its peer measured in the same run,
//! the proptest strategy `values::word` drawn one value tree at a time on one core (how inputs
//! were drawn before). Divide the bulk figure by the core count for words/s per core.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("values");
    g.sample_size(10);
    let n = 1 << 22;
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("sample_4M_words_all_cores", |b| {
        b.iter(|| generators::values::sample(7, n))
    });
    let m = 1 << 16;
    g.throughput(Throughput::Elements(m as u64));
    g.bench_function("proptest_word_64K_one_core", |b| {
        let strategy = generators::values::word();
        let mut runner = TestRunner::deterministic();
        b.iter(|| {
            (0..m)
                .map(|_| {
                    strategy
                        .new_tree(&mut runner)
                        .map(|t| t.current())
                        .unwrap_or(0)
                })
                .fold(0u32, u32::wrapping_add)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
