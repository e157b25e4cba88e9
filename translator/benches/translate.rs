//! The built-in translator alone, over the shared corpus (`../shared/corpus/peer`, case files,
//! and `../shared/corpus/sdk`, fxc's `.o` blobs): programs per second for lowering decoded
//! programs to naga IR (`lower`), for naga's validation of those modules, for naga's writing
//! of their WGSL, and for all of it (`translate`, what `dxdiff` calls). Only programs the translator accepts count; a
//! corpus missing (a clone without `../shared`) leaves the bench empty rather than failing.
//! `dxdiff bench` sets these beside vkd3d-shader; this bench isolates the translator's own
//! parts for profiling.

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use translator::{Profile, lower, translate, validate_module, write};

/// The allocator the `dxdiff` binary uses (harness/src/main.rs), so these figures are the ones
/// `dxdiff bench` sees.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every corpus blob that parses.
fn corpus() -> Vec<dxbc::Shader> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    paths
        .iter()
        .filter_map(|p| match p.extension().and_then(|e| e.to_str()) {
            Some("o") => std::fs::read(p).ok(),
            Some("json") => std::fs::read_to_string(p)
                .ok()
                .and_then(|t| oracles::case::CaseFile::parse(&t).ok())
                .and_then(|c| c.blob().ok()),
            _ => None,
        })
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
