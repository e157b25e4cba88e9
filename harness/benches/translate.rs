//! Translation throughput, the built-in translator beside vkd3d-shader, measured in one run over
//! the same programs: the corpus blobs that both translate (vkd3d-shader is screened in a child
//! process first, because 1.2 aborts on some blobs). The built-in translator is measured whole
//! (lowering to naga IR, validation, WGSL writing) and as lowering and validation; vkd3d-shader
//! is DXBC → SPIR-V in
//! process. Criterion reports shaders/s (elements) and MB/s of DXBC (bytes).

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use harness::translators::vkd3d::{Library as Vkd3d, compiles_in_child};
use translator::{Profile, lower, translate, validate_module};

fn corpus() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "o") {
                out.extend(std::fs::read(&p).ok());
            } else if p.extension().is_some_and(|x| x == "json") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                if let Ok(case) = oracles::case::CaseFile::parse(&text) {
                    out.extend(case.blob().ok());
                }
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let all = corpus();
    if all.is_empty() {
        eprintln!("translate bench: no corpus beside the project; nothing to measure");
        return;
    }
    let vkd3d = Vkd3d::load()
        .map_err(|e| eprintln!("translate bench: vkd3d-shader unavailable: {e}"))
        .ok();
    let shaders: Vec<(Vec<u8>, dxbc::Shader)> = all
        .into_iter()
        .filter_map(|b| {
            let s = dxbc::Shader::parse(&b).ok()?;
            translate(&s, Profile::Contract).ok()?;
            if vkd3d.is_some() && compiles_in_child(&b) != Some(true) {
                return None;
            }
            Some((b, s))
        })
        .collect();
    let bytes: u64 = shaders.iter().map(|(b, _)| b.len() as u64).sum();
    eprintln!(
        "translate bench: {} programs both translators accept, {bytes} bytes of DXBC",
        shaders.len()
    );
    let lowered: Vec<translator::Emitted> = shaders
        .iter()
        .filter_map(|(_, s)| lower(s, Profile::Contract).ok())
        .collect();
    for (unit, throughput) in [
        ("shaders", Throughput::Elements(shaders.len() as u64)),
        ("bytes", Throughput::Bytes(bytes)),
    ] {
        let mut g = c.benchmark_group(format!("translate_{unit}"));
        g.throughput(throughput);
        g.bench_function("builtin", |b| {
            b.iter(|| {
                shaders
                    .iter()
                    .filter(|(_, s)| translate(s, Profile::Contract).is_ok())
                    .count()
            })
        });
        g.bench_function("builtin_lowering", |b| {
            b.iter(|| {
                shaders
                    .iter()
                    .filter(|(_, s)| lower(s, Profile::Contract).is_ok())
                    .count()
            })
        });
        g.bench_function("builtin_naga_validation", |b| {
            b.iter(|| {
                lowered
                    .iter()
                    .filter(|e| validate_module(&e.module, &e.manifest.enables).is_ok())
                    .count()
            })
        });
        if let Some(v) = &vkd3d {
            g.bench_function("vkd3d_shader_spirv", |b| {
                b.iter(|| {
                    shaders
                        .iter()
                        .filter(|(blob, _)| v.compile_to_spirv(blob).is_ok())
                        .count()
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
