//! Codec benchmarks. For now: container parse and write of a small synthetic blob (the manifest
//! declares this bench, so it must exist for the crate to build).

use criterion::{Criterion, criterion_group, criterion_main};
use dxbc::{Chunk, Container, FourCC};

fn container(c: &mut Criterion) {
    let blob = Container::new(vec![
        Chunk {
            tag: FourCC::ISGN,
            data: vec![0, 0, 0, 0, 8, 0, 0, 0],
        },
        Chunk {
            tag: FourCC::SHEX,
            data: vec![0; 4096],
        },
    ])
    .to_bytes();
    c.bench_function("container_parse", |b| {
        b.iter(|| Container::parse(&blob).map(|c| c.chunks.len()))
    });
    let parsed = Container::parse(&blob).expect("synthetic blob is valid");
    c.bench_function("container_to_bytes", |b| b.iter(|| parsed.to_bytes().len()));
}

criterion_group!(benches, container);
criterion_main!(benches);
