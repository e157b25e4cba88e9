//! Qualification table: translate every program under the given folders (raw `.o`/`.dxbc`
//! containers and `dxdiff-case/1` files) with both profiles and print, as Markdown, how many are
//! emitted and why the rest are rejected.
//!
//! `cargo run --release -p translator --example qualify -- ../shared/corpus/peer ../shared/corpus/sdk`

use std::collections::BTreeMap;
use std::path::PathBuf;

#[path = "common/programs.rs"]
mod programs;
use programs::{blob, collect};

use translator::{Profile, TranslateError, translate_blob};

fn main() {
    let roots: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if roots.is_empty() {
        eprintln!("usage: qualify PATH...");
        std::process::exit(2);
    }
    for root in &roots {
        let mut files = Vec::new();
        collect(root, &mut files);
        println!("## {}\n", root.display());
        for profile in [Profile::Contract, Profile::Exact] {
            let mut stages: BTreeMap<String, (usize, usize)> = BTreeMap::new();
            let mut reasons: BTreeMap<(String, String), usize> = BTreeMap::new();
            let (mut emitted, mut doubles_free, mut doubles_free_emitted) = (0, 0, 0);
            for f in &files {
                let Some(b) = blob(f) else { continue };
                let stage = dxbc::Shader::parse(&b)
                    .map(|s| s.program.version.stage.prefix().to_string())
                    .unwrap_or("?".into());
                let entry = stages.entry(stage).or_default();
                entry.0 += 1;
                let r = translate_blob(&b, profile);
                let double = matches!(&r, Err(TranslateError::Rejected(x)) if x.catalog_id == "dxdiff/doubles");
                if !double {
                    doubles_free += 1;
                }
                match r {
                    Ok(_) => {
                        emitted += 1;
                        entry.1 += 1;
                        if !double {
                            doubles_free_emitted += 1;
                        }
                    }
                    Err(TranslateError::Rejected(x)) => {
                        *reasons
                            .entry((
                                x.catalog_id.clone(),
                                x.reason.lines().next().unwrap_or("").to_string(),
                            ))
                            .or_default() += 1;
                    }
                    Err(e) => {
                        *reasons
                            .entry(("malformed".into(), e.to_string()))
                            .or_default() += 1
                    }
                }
            }
            println!("### profile `{profile}`\n");
            println!(
                "{emitted} of {} emitted; without doubles: {doubles_free_emitted} of {doubles_free}.\n",
                files.len()
            );
            println!("| stage | programs | emitted |\n| --- | ---: | ---: |");
            for (s, (n, e)) in &stages {
                println!("| {s} | {n} | {e} |");
            }
            println!("\n| rejected under | reason | programs |\n| --- | --- | ---: |");
            for ((id, why), n) in &reasons {
                println!("| `{id}` | {why} | {n} |");
            }
            println!();
        }
    }
}
