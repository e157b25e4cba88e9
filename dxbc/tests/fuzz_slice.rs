//! The deterministic slice of the fuzz targets (`fuzz/`), run as a normal test: seeds made from
//! the project's own example programs, each mutated a fixed number of times with a fixed PRNG and
//! thrown at every reader through the same checks the fuzz targets use (`readers/mod.rs`).
//!
//! `DXBC_READER_CASES` changes the number of mutants per seed and reader; `DXBC_WRITE_SEEDS=DIR`
//! writes the seeds to `DIR/<target>/` for `cargo fuzz run <target> DIR/<target>`.

mod readers;

use std::path::{Path, PathBuf};

use dxbc::{Container, FourCC};

const DEFAULT_CASES: u64 = 1000;

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutant of `seed`: a few bit flips, byte overwrites with edge values, a truncation, a
/// duplicated run or a 32-bit word set to an edge value (where lengths and counts live).
fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        if b.is_empty() {
            b.push(0);
        }
        let at = rng.below(b.len());
        match rng.below(6) {
            0 => b[at] ^= 1 << rng.below(8),
            1 => b[at] = [0, 1, 0x7F, 0x80, 0xFF][rng.below(5)],
            2 => b.truncate(at),
            3 => {
                let end = (at + 1 + rng.below(16)).min(b.len());
                let run = b[at..end].to_vec();
                b.splice(at..at, run);
            }
            4 => {
                let word = [0u32, 1, 0x20, 0xFFFF, 0x8000_0000, u32::MAX][rng.below(6)];
                let at = at & !3;
                for (i, byte) in word.to_le_bytes().iter().enumerate() {
                    if let Some(slot) = b.get_mut(at + i) {
                        *slot = *byte;
                    }
                }
            }
            _ => {
                let end = (at + 1 + rng.below(8)).min(b.len());
                b.drain(at..end);
            }
        }
    }
    b
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The project's example assembly: `examples/shaders/*.asm` and the translator's snapshot inputs.
fn example_texts() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["examples/shaders", "translator/tests/in"] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|x| x == "asm")
                && let Ok(text) = std::fs::read_to_string(&p)
            {
                out.push(text);
            }
        }
    }
    out
}

struct Seeds {
    containers: Vec<Vec<u8>>,
    tokens: Vec<Vec<u8>>,
    texts: Vec<Vec<u8>>,
    chunks: Vec<Vec<u8>>,
}

fn seeds() -> Seeds {
    let texts = example_texts();
    let mut s = Seeds {
        containers: Vec::new(),
        tokens: Vec::new(),
        texts: Vec::new(),
        chunks: Vec::new(),
    };
    for text in &texts {
        let Ok(container) = dxbc::assemble_container(text) else {
            continue;
        };
        let bytes = container.to_bytes();
        if let Ok(shader) = dxbc::Shader::parse(&bytes) {
            s.texts
                .push(shader.listing(dxbc::Syntax::Exact).into_bytes());
        }
        s.texts.push(text.clone().into_bytes());
        for c in &container.chunks {
            if c.tag == FourCC::SHEX || c.tag == FourCC::SHDR {
                s.tokens.push(c.data.clone());
            } else {
                // The chunk fuzz target's pick byte: index of the tag in its table.
                let pick = [FourCC::ISGN, FourCC::OSGN, FourCC::OSG5, FourCC::PCSG]
                    .iter()
                    .position(|t| *t == c.tag)
                    .unwrap_or(0) as u8;
                let mut data = vec![pick];
                data.extend_from_slice(&c.data);
                s.chunks.push(data);
            }
        }
        s.containers.push(bytes);
    }
    s
}

fn cases() -> u64 {
    std::env::var("DXBC_READER_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

fn run(name: &str, seeds: &[Vec<u8>], reader: fn(&[u8])) {
    assert!(!seeds.is_empty(), "{name}: no seeds");
    let mut rng = Rng(0xD1B5_0000 ^ name.len() as u64);
    let mut total = 0;
    for seed in seeds {
        reader(seed);
        for _ in 0..cases() {
            let input = mutate(seed, &mut rng);
            let outcome = std::panic::catch_unwind(|| reader(&input));
            assert!(
                outcome.is_ok(),
                "{name}: reader failed on a mutant (hex {})",
                input.iter().map(|b| format!("{b:02x}")).collect::<String>()
            );
            total += 1;
        }
    }
    println!("{name}: {} seeds, {total} mutants", seeds.len());
}

#[test]
fn container_reader() {
    let s = seeds();
    write_seeds("container", &s.containers);
    run("container", &s.containers, readers::container);
    // The seeds are real programs: they parse.
    for c in &s.containers {
        Container::parse(c).expect("seed container parses");
    }
}

#[test]
fn token_reader() {
    let s = seeds();
    write_seeds("decode", &s.tokens);
    run("decode", &s.tokens, readers::tokens);
}

#[test]
fn assembler() {
    let s = seeds();
    write_seeds("assemble", &s.texts);
    run("assemble", &s.texts, readers::text);
}

#[test]
fn chunk_readers() {
    let s = seeds();
    write_seeds("chunks", &s.chunks);
    run("chunks", &s.chunks, readers::chunks);
}

fn write_seeds(target: &str, seeds: &[Vec<u8>]) {
    let Some(dir) = std::env::var_os("DXBC_WRITE_SEEDS") else {
        return;
    };
    let dir = Path::new(&dir).join(target);
    std::fs::create_dir_all(&dir).expect("seed dir");
    for (i, s) in seeds.iter().enumerate() {
        std::fs::write(dir.join(format!("seed-{i:03}")), s).expect("write seed");
    }
}
