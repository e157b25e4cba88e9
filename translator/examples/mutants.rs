//! The translator's mutation campaign (docs/reliability.md): mutants of every program under
//! the given folders, aimed inside the code chunk, each translated in both profiles. A panic,
//! or a lowered module naga refuses, is a translator bug: the first mutant of each distinct
//! message is written to `OUT` and named; the exit status is 1 when there was one.
//!
//! ```sh
//! cargo run --release -p translator --example mutants -- 150 7 /tmp/mutants \
//!   ../shared/corpus/peer ../shared/corpus/sdk
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

// Each includer uses a part: the campaign, the test, the fuzz target.
#[allow(dead_code)]
#[path = "common/mutate.rs"]
mod mutate;
#[path = "common/programs.rs"]
mod programs;

use mutate::{Outcome, Rng, judge, mutate_code};
use translator::Profile;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(secs), Some(seed), Some(out)) = (
        args.first().and_then(|s| s.parse::<f64>().ok()),
        args.get(1).and_then(|s| s.parse::<u64>().ok()),
        args.get(2),
    ) else {
        eprintln!("usage: mutants SECONDS SEED OUT PATH...");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    for p in &args[3..] {
        programs::collect(&PathBuf::from(p), &mut files);
    }
    let seeds: Vec<Vec<u8>> = files
        .iter()
        .filter_map(|p| programs::blob(p))
        .filter(|b| dxbc::Shader::parse(b).is_ok())
        .collect();
    if seeds.is_empty() {
        eprintln!("no program decodes under the given paths");
        std::process::exit(2);
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("{out}: {e}");
        std::process::exit(2);
    }
    // The panics are counted and reported here, not printed as they happen.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng::new(seed);
    let (mut mutants, mut parsed, mut lowered, mut refused, mut panics) = (0u64, 0, 0, 0, 0);
    // Distinct failures by message, numbers blanked (handles and indices differ per program).
    let mut distinct: BTreeMap<String, PathBuf> = BTreeMap::new();
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < secs {
        let seed_blob = &seeds[(rng.next() % seeds.len() as u64) as usize];
        let Some(m) = mutate_code(seed_blob, &mut rng) else {
            continue;
        };
        mutants += 1;
        let outcomes = [Profile::Contract, Profile::Exact].map(|p| (p, judge(&m, p)));
        if matches!(outcomes[0].1, Outcome::Malformed) {
            continue;
        }
        parsed += 1;
        let mut any_lowered = false;
        for (p, o) in &outcomes {
            let failure = match o {
                Outcome::Translated => {
                    any_lowered = true;
                    continue;
                }
                Outcome::NagaRefused(e) => {
                    any_lowered = true;
                    refused += 1;
                    format!("naga refuses ({p}): {e}")
                }
                Outcome::Panicked(e) => {
                    panics += 1;
                    format!("panic ({p}): {e}")
                }
                Outcome::Malformed | Outcome::Refused => continue,
            };
            let key: String = failure
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .collect();
            if !distinct.contains_key(&key) {
                let file = PathBuf::from(out).join(format!("bug-{}.dxbc", distinct.len() + 1));
                let _ = std::fs::write(&file, &m);
                println!("{}: {failure}", file.display());
                distinct.insert(key, file);
            }
        }
        lowered += u64::from(any_lowered);
    }
    println!(
        "mutants: {mutants} mutants of {} programs, {parsed} decoded, {lowered} lowered, \
         {refused} modules naga refused, {panics} panics, {} distinct",
        seeds.len(),
        distinct.len()
    );
    if !distinct.is_empty() {
        std::process::exit(1);
    }
}
