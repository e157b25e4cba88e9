//! The translator never panics: every program the decoder accepts, however odd, is translated or
//! refused with a catalog id. The inputs are the project's own programs, every opcode alone
//! with no operands it expects, and thousands of single-bit and single-word mutations of real
//! containers (the shared SDK corpus when it is beside the project).

use std::path::Path;

use translator::{Profile, translate};

// Each includer uses a part: the campaign, the test, the fuzz target.
#[allow(dead_code)]
#[path = "../examples/common/mutate.rs"]
mod mutate;

/// Programs to mutate: the snapshot inputs and examples, and the SDK corpus when present.
fn programs() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for dir in [
        root.join("translator/tests/in"),
        root.join("examples/shaders"),
    ] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            match p.extension().and_then(|e| e.to_str()) {
                Some("asm") => {
                    let text = std::fs::read_to_string(&p).unwrap_or_default();
                    if let Ok(c) = dxbc::assemble_container(&text) {
                        out.push(c.to_bytes());
                    }
                }
                Some("dxbc") => out.extend(std::fs::read(&p).ok()),
                _ => {}
            }
        }
    }
    let sdk = root.join("../shared/corpus/sdk");
    let mut stack = vec![sdk];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "o") {
                out.extend(std::fs::read(&p).ok());
            }
        }
    }
    out
}

/// Translate with both profiles; a panic fails the test with the blob that caused it.
fn translate_both(blob: &[u8]) {
    let Ok(shader) = dxbc::Shader::parse(blob) else {
        return;
    };
    for p in [Profile::Contract, Profile::Exact] {
        // The whole route: lowering, naga's validation of the module, and its writing.
        let r = std::panic::catch_unwind(|| translate(&shader, p));
        assert!(r.is_ok(), "the translator panicked ({p}) on {}", hex(blob));
    }
}

/// A fixed stream of pseudo-random words, so a failure reproduces.
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn every_opcode_without_its_operands_is_refused_not_a_panic() {
    for info in dxbc::TABLE {
        for stage in ["ps_5_0", "vs_5_0", "cs_5_0"] {
            let mut p = dxbc::assemble(&format!("{stage}\nret\n"))
                .expect("assembles")
                .program;
            p.instructions
                .insert(0, dxbc::Instruction::new(info.opcode));
            // Built in memory, past the decoder: the translator must not trust operand counts.
            let shader = dxbc::Shader {
                program: p,
                signatures: Vec::new(),
            };
            for prof in [Profile::Contract, Profile::Exact] {
                let r = std::panic::catch_unwind(|| translate(&shader, prof));
                assert!(r.is_ok(), "{} ({stage}, {prof}) panicked", info.mnemonic);
            }
        }
    }
}

#[test]
fn mutated_programs_never_panic_the_translator() {
    let programs = programs();
    assert!(!programs.is_empty(), "no programs to mutate");
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut translated = 0usize;
    for blob in &programs {
        translate_both(blob);
        for _ in 0..64 {
            let mut m = blob.clone();
            let i = (next() as usize) % m.len().max(1);
            if next().is_multiple_of(2) {
                m[i] ^= 1 << (next() % 8);
            } else {
                let w = i & !3;
                let v = next() as u32;
                if w + 4 <= m.len() {
                    m[w..w + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            // A wrong stored checksum is reported, not rejected, so mutants reach the decoder.
            if dxbc::Shader::parse(&m).is_ok() {
                translated += 1;
            }
            translate_both(&m);
        }
    }
    assert!(
        translated > 0,
        "no mutant decoded; the test exercises nothing"
    );
}

/// Whatever the decoder accepts and the translator lowers, naga accepts: a module naga
/// refuses is a translator bug (a program the lowering should have refused by name), not a
/// verdict. The mutants are the campaign's (`examples/common/mutate.rs`, docs/reliability.md),
/// aimed inside the code chunk where a whole-container mutation seldom lands; its millions of
/// mutants of the shared corpus found the classes `malformed_structure_is_refused_before_naga_sees_it`
/// (fail_closed.rs) and dxbc's `limits.rs` now refuse.
#[test]
fn lowered_mutants_are_modules_naga_accepts() {
    let mut rng = mutate::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut lowered = 0usize;
    for blob in &programs() {
        for _ in 0..48 {
            let Some(m) = mutate::mutate_code(blob, &mut rng) else {
                break;
            };
            for p in [Profile::Contract, Profile::Exact] {
                match mutate::judge(&m, p) {
                    mutate::Outcome::Panicked(e) => {
                        panic!("the translator panicked ({p}): {e}\n{}", hex(&m))
                    }
                    mutate::Outcome::NagaRefused(e) => {
                        panic!("a lowered module naga refuses ({p}): {e}\n{}", hex(&m))
                    }
                    mutate::Outcome::Translated => lowered += 1,
                    mutate::Outcome::Malformed | mutate::Outcome::Refused => {}
                }
            }
        }
    }
    assert!(lowered > 0, "no mutant lowered; the test exercises nothing");
}
