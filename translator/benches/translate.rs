//! The built-in translator alone, over the shared corpus (`../shared/corpus/peer`, case files,
//! and `../shared/corpus/sdk`, fxc's `.o` blobs): programs per second for lowering decoded
//! programs to naga IR (`lower`), for naga's validation of those modules, for naga's writing
//! of their WGSL, and for all of it (`translate`, what `dxdiff` calls). Only programs the translator accepts count; a
//! corpus missing (a clone without `../shared`) leaves the bench empty rather than failing.
//! `dxdiff bench` sets these beside vkd3d-shader; this bench isolates the translator's own
//! parts for profiling.

use std::path::Path;

#[path = "../examples/common/programs.rs"]
mod programs;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use translator::{Profile, lower, translate, validate_module, write};

/// The allocator the `dxdiff` binary uses (harness/src/main.rs), so these figures are the ones
/// `dxdiff bench` sees.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Every corpus blob that parses.
fn corpus() -> Vec<dxbc::Shader> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut paths = Vec::new();
    programs::collect(&root, &mut paths);
    paths
        .iter()
        .filter_map(|p| programs::blob(p))
        .filter_map(|blob| dxbc::Shader::parse(&blob).ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let all = corpus();
    let profile = Profile::Contract;
    let accepted: Vec<dxbc::Shader> = all
        .into_iter()
        .filter(|s| translate(s, profile).is_ok())
        .collect();
    if accepted.is_empty() {
        eprintln!("translate bench: no corpus at ../shared/corpus; nothing to measure");
        return;
    }
    let lowered: Vec<_> = accepted
        .iter()
        .filter_map(|s| lower(s, profile).ok())
        .collect();
    let validated: Vec<_> = lowered
        .iter()
        .filter_map(|e| Some((e, validate_module(&e.module, &e.manifest.enables).ok()?)))
        .collect();
    let mut g = c.benchmark_group("translator");
    g.sample_size(20);
    g.throughput(Throughput::Elements(accepted.len() as u64));
    g.bench_function("lowering", |b| {
        b.iter(|| {
            for s in &accepted {
                std::hint::black_box(lower(s, profile).ok());
            }
        })
    });
    g.bench_function("naga_validation", |b| {
        b.iter(|| {
            for e in &lowered {
                std::hint::black_box(validate_module(&e.module, &e.manifest.enables).ok());
            }
        })
    });
    g.bench_function("wgsl_writing", |b| {
        b.iter(|| {
            for (e, info) in &validated {
                std::hint::black_box(write(e, info).ok());
            }
        })
    });
    g.bench_function("whole", |b| {
        b.iter(|| {
            for s in &accepted {
                std::hint::black_box(translate(s, profile).ok());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
