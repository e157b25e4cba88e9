//! Ground truth: every run of every case in `../shared/corpus/peer` (outputs that real Windows
//! drivers produced) passes on the interpreter, with nothing skipped.

use oracles::case::CaseFile;
use oracles::interp::DEFAULT_BUDGET;
use oracles::replay::{RunOutcome, replay_interp};

#[test]
fn peer_corpus_passes_on_the_interpreter() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/peer");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} not found", dir.display());
        return;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let (mut passed, mut failures) = (0, Vec::new());
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|x| x == "json"))
    {
        let case =
            CaseFile::parse(&std::fs::read_to_string(f).expect("readable")).expect("case file");
        for (id, outcome) in replay_interp(&case, DEFAULT_BUDGET) {
            match outcome {
                RunOutcome::Passed => passed += 1,
                other => failures.push(format!("{}: {id}: {other:?}", case.name)),
            }
        }
    }
    eprintln!("{passed} runs passed, {} not", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
