//! Codec benchmarks over the whole corpus (the same blobs the tests read), each reported in MB/s:
//!
//! - `decode+encode`: `Shader::parse` and `Container::parse`, re-encode the program,
//!   re-serialise the container;
//! - `decode`: the token stream alone;
//! - `disasm_exact`, `disasm_fxc`: listings of the pre-decoded programs (bytes = code chunks);
//! - `asm`: assemble every exact listing (bytes = listing text).
//!
//! Without the shared corpus beside the clone this prints a notice and benchmarks nothing.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dxbc::{Program, Shader, Syntax};

struct Corpus {
    /// Whole container blobs that `Shader::parse` accepts.
    blobs: Vec<Vec<u8>>,
    /// Their code chunk data.
    code: Vec<Vec<u8>>,
    programs: Vec<Program>,
    /// `disassemble(.., Syntax::Exact)` of each program.
    listings: Vec<String>,
}

fn load() -> Option<Corpus> {
    let mut corpus = Corpus {
        blobs: Vec::new(),
        code: Vec::new(),
        programs: Vec::new(),
        listings: Vec::new(),
    };
    for (name, blob) in common::blobs() {
        let shader = match Shader::parse(&blob) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("codec bench: skipping {name}: {e}");
                continue;
            }
        };
        let Some(code) = dxbc::Container::borrow(&blob)
            .ok()
            .and_then(|c| c.code_chunk())
        else {
            continue;
        };
        corpus.code.push(code.data.to_vec());
        corpus
            .listings
            .push(dxbc::disassemble(&shader.program, Syntax::Exact));
        corpus.programs.push(shader.program.clone());
        corpus.blobs.push(blob);
    }
    if corpus.blobs.is_empty() {
        eprintln!("codec bench: no corpus blobs (../shared/corpus missing?); nothing to benchmark");
        return None;
    }
    Some(corpus)
}

fn total<T: AsRef<[u8]>>(items: &[T]) -> u64 {
    items.iter().map(|i| i.as_ref().len() as u64).sum()
}

fn codec(c: &mut Criterion) {
    let Some(corpus) = load() else { return };
    eprintln!(
        "codec bench: {} blobs, {} bytes of containers, {} bytes of code chunks, {} bytes of exact listings",
        corpus.blobs.len(),
        total(&corpus.blobs),
        total(&corpus.code),
        total(&corpus.listings),
    );
    let mut g = c.benchmark_group("codec");

    g.throughput(Throughput::Bytes(total(&corpus.blobs)));
    g.bench_function("decode+encode", |b| {
        b.iter(|| {
            let mut n = 0;
            for blob in &corpus.blobs {
                let shader = Shader::parse(black_box(blob)).expect("corpus blob parses");
                let container = dxbc::Container::parse(blob).expect("corpus blob parses");
                let code = dxbc::encode_program(&shader.program).expect("corpus program encodes");
                n += code.len() + container.to_bytes_exact().len();
            }
            n
        })
    });

    g.throughput(Throughput::Bytes(total(&corpus.code)));
    g.bench_function("decode", |b| {
        b.iter(|| {
            let mut n = 0;
            for code in &corpus.code {
                let program = dxbc::decode_program(black_box(code)).expect("corpus code decodes");
                n += program.instructions.len();
            }
            n
        })
    });
    for (label, syntax) in [("disasm_exact", Syntax::Exact), ("disasm_fxc", Syntax::Fxc)] {
        g.bench_function(label, |b| {
            b.iter(|| {
                let mut n = 0;
                for p in &corpus.programs {
                    n += dxbc::disassemble(black_box(p), syntax).len();
                }
                n
            })
        });
    }

    g.throughput(Throughput::Bytes(total(&corpus.listings)));
    g.bench_function("asm", |b| {
        b.iter(|| {
            let mut n = 0;
            for text in &corpus.listings {
                let a = dxbc::assemble(black_box(text)).expect("exact listing assembles");
                n += a.program.instructions.len();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
