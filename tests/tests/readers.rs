//! The deterministic slice of the JSON readers' fuzz targets (`fuzz/fuzz_targets/case_file.rs`
//! and `manifest.rs`): the project's case files and the built-in translator's manifests,
//! each mutated a fixed number of times with a fixed PRNG, through the same checks
//! (`fuzz/checks/json_readers.rs`). `DXDIFF_READER_CASES` sets the mutants per seed (the long
//! run in docs/reliability.md used it in release mode).

#[path = "../../fuzz/checks/json_readers.rs"]
mod json_readers;

use std::path::PathBuf;

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

/// Values a hostile file puts where numbers, words and strings go.
const HOSTILE: &[&str] = &[
    "-1",
    "0",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "1e400",
    "-0",
    "NaN",
    "null",
    "\"0x+1\"",
    "\"0xffffffffff\"",
    "\"\"",
    "[]",
    "{}",
    "true",
    "\"*\"",
    "\"-0.0\"",
    "9999999999",
    "\"\\ud800\"",
    "[[[[[[[[",
    "\"zz\"",
];

/// One mutant: byte flips, a deleted or duplicated span, or a number/string/value replaced by a
/// hostile one (at a position where one starts).
fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        if b.is_empty() {
            b.push(b'{');
        }
        let at = rng.below(b.len());
        match rng.below(5) {
            0 => b[at] ^= 1 << rng.below(8),
            1 => {
                let end = (at + 1 + rng.below(16)).min(b.len());
                b.drain(at..end);
            }
            2 => {
                let end = (at + 1 + rng.below(64)).min(b.len());
                let span = b[at..end].to_vec();
                b.splice(at..at, span);
            }
            _ => {
                // Replace the token that starts at or after `at`.
                let start = (at..b.len())
                    .find(|&i| b[i].is_ascii_digit() || b[i] == b'"' || b[i] == b'[')
                    .unwrap_or(at);
                let end = (start + 1..b.len())
                    .find(|&i| matches!(b[i], b',' | b'}' | b']'))
                    .unwrap_or(b.len());
                let with = HOSTILE[rng.below(HOSTILE.len())].as_bytes().to_vec();
                b.splice(start..end.max(start), with);
            }
        }
    }
    b
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cases_per_seed() -> u64 {
    std::env::var("DXDIFF_READER_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400)
}

fn case_seeds() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(root().join("examples/cases"))
        .expect("examples/cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 5, "the shipped case files");
    seeds
}

fn manifest_seeds() -> Vec<Vec<u8>> {
    let dir = root().join("translator/tests/in");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("translator/tests/in")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    names.sort();
    let mut seeds = Vec::new();
    // Manifests with bindings or a workgroup size first: those are the fields `check` bounds.
    for p in &names {
        if seeds.len() == 12 {
            break;
        }
        let text = std::fs::read_to_string(p).expect("read");
        let Ok(container) = dxbc::assemble_container(&text) else {
            continue;
        };
        let Ok(shader) = dxbc::Shader::parse(&container.to_bytes()) else {
            continue;
        };
        if let Ok(t) = translator::translate(&shader, translator::Profile::Contract)
            && (!t.manifest.bindings.is_empty() || t.manifest.workgroup_size.is_some())
        {
            seeds.push(serde_json::to_vec(&t.manifest).expect("manifest"));
        }
    }
    assert!(seeds.len() >= 4, "manifests to mutate: {}", seeds.len());
    seeds
}

#[test]
fn mutated_case_files_never_panic_their_reader() {
    let mut rng = Rng(0xca5e_f11e);
    let mut accepted = 0;
    for seed in case_seeds() {
        json_readers::case_file(&seed);
        for _ in 0..cases_per_seed() {
            let m = mutate(&seed, &mut rng);
            json_readers::case_file(&m);
            accepted += usize::from(
                std::str::from_utf8(&m).is_ok_and(|t| oracles::case::CaseFile::parse(t).is_ok()),
            );
        }
    }
    // The mutants must reach past the JSON syntax check, or the slice tests nothing.
    assert!(accepted > 0, "no mutant parsed");
}

#[test]
fn mutated_manifests_never_pass_unbounded() {
    let mut rng = Rng(0x0005_1de5);
    let mut refused_by_check = 0;
    for seed in manifest_seeds() {
        json_readers::manifest(&seed);
        for _ in 0..cases_per_seed() {
            let m = mutate(&seed, &mut rng);
            json_readers::manifest(&m);
            refused_by_check += usize::from(
                serde_json::from_slice::<translator::manifest::Manifest>(&m)
                    .is_ok_and(|m| m.check().is_err()),
            );
        }
    }
    assert!(
        refused_by_check > 0,
        "no mutant reached Manifest::check's refusals"
    );
}

/// A campaign state with every counter set and a divergence: the seed the state mutants start
/// from.
fn state_seed() -> Vec<u8> {
    let mut s = reports::fuzz::State::new("builtin (contract)".into(), 7);
    s.next = 40;
    s.stats.programs = 30;
    s.stats.counts.lanes = 12;
    s.stats.counts.matched = 10;
    s.stats.counts.mismatch = 2;
    s.stats.mismatching_programs = 1;
    s.stats.rejected = 3;
    s.stats.crashed = 1;
    s.knobs = "vectors=16 model=5.0".into();
    s.ahead.push(reports::fuzz::Ahead {
        k: 1,
        n: 2,
        until: 50,
    });
    s.divergences.push(reports::fuzz::Divergence {
        signature: "builtin | udiv | ".into(),
        case: "cases/fuzz-3-udiv.json".into(),
        program: 3,
        instructions: 1,
        seen: 2,
    });
    s.check().expect("the seed is consistent");
    serde_json::to_vec_pretty(&s).expect("json")
}

/// Mutated campaign states (counters near 2^64 among them): reading, checking and merging
/// never panic, and a merge of checked states is consistent.
#[test]
fn mutated_fuzz_states_never_wrap_or_panic() {
    let mut rng = Rng(0x57a7_e000);
    let seed = state_seed();
    json_readers::fuzz_state(&seed);
    let mut checked = 0;
    for _ in 0..cases_per_seed() * 4 {
        let m = mutate(&seed, &mut rng);
        json_readers::fuzz_state(&m);
        checked += usize::from(
            std::str::from_utf8(&m)
                .is_ok_and(|t| reports::fuzz::State::parse(t).is_ok_and(|s| s.check().is_ok())),
        );
    }
    assert!(checked > 0, "no mutant passed the check");
}

/// Mutated contract reports as `--baseline`: reading and comparing never panic.
#[test]
fn mutated_contract_baselines_never_panic() {
    use reports::contract::{ContractReport, EntryRow, FORMAT, Status};
    let row = |id: &str, status| EntryRow {
        id: id.into(),
        category: "adapted".into(),
        property: "p".into(),
        status,
        programs: 1,
        lanes: 2,
        adapted_lanes: 0,
        domain_lanes: 0,
        rejections: 0,
        attributed: 0,
        reason: "r".into(),
        cases: vec!["cases/a.json".into()],
    };
    let seed = serde_json::to_vec(&ContractReport {
        format: FORMAT.into(),
        translator: "t".into(),
        executor: "e".into(),
        seed: 1,
        cases: 4,
        seed_entries: 84,
        entries: vec![
            row("adapted/a", Status::Verified),
            row("bounded/b", Status::Violated),
            row("fail-closed/c", Status::NotExercisable),
        ],
        seconds: 1.0,
    })
    .expect("json");
    let mut rng = Rng(0xc0_7ac7);
    json_readers::contract_report(&seed);
    for _ in 0..cases_per_seed() * 4 {
        json_readers::contract_report(&mutate(&seed, &mut rng));
    }
}

/// Outside text, hostile and mutated: no cell or line that shows it holds a control
/// character, a line break or a bare pipe.
#[test]
fn outside_text_never_acts_where_it_is_shown() {
    let seeds: [&[u8]; 5] = [
        b"red \x1b[31mX\x1b]0;title\x07\r|a\nb\tc",
        "\u{202e}txt\u{85}\u{2066}|".as_bytes(),
        b"a\\|b\\\\|c\\",
        b"\xff\xfe\x00\x7f|",
        b"plain text",
    ];
    let mut rng = Rng(0x7e47);
    for seed in seeds {
        json_readers::outside_text(seed);
        for _ in 0..cases_per_seed() {
            json_readers::outside_text(&mutate(seed, &mut rng));
        }
    }
}
