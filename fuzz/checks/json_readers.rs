// The checks of the JSON readers (case files, binding manifests), shared by the libFuzzer
// targets in `fuzz/fuzz_targets/` and the deterministic slice in `tests/tests/readers.rs`
// (both `include!`/`#[path]` this one file, so the checks live once).

/// A case file: parsing never panics; an accepted file re-serializes to one that parses to the
/// same thing; its program either decodes or is refused with an error, never a panic.
pub fn case_file(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(case) = oracles::case::CaseFile::parse(text) else {
        return;
    };
    let again = serde_json::to_string(&case).expect("an accepted case file serializes");
    let back = oracles::case::CaseFile::parse(&again).expect("its serialization parses");
    assert_eq!(back.name, case.name);
    assert_eq!(back.runs.len(), case.runs.len());
    if let Ok(blob) = case.blob() {
        let _ = dxbc::Shader::parse(&blob);
    }
}

/// A binding manifest: deserializing and checking never panic, and a manifest that passes
/// `check` asks for no more than D3D11 allows, so nothing sized from it can be huge.
pub fn manifest(bytes: &[u8]) {
    let Ok(m) = serde_json::from_slice::<translator::manifest::Manifest>(bytes) else {
        return;
    };
    if m.check().is_err() {
        return;
    }
    for b in &m.bindings {
        if b.kind == translator::manifest::BindingKind::Cbuffer {
            assert!(b.size_bytes.unwrap_or(0) <= 4096 * 16, "{b:?}");
            assert!(b.register < 14, "{b:?}");
        }
        assert!(b.stride.unwrap_or(0) <= 2048, "{b:?}");
    }
    if let Some([x, y, z]) = m.workgroup_size {
        assert!(u64::from(x) * u64::from(y) * u64::from(z) <= 1024);
    }
    assert!(m.bindings.len() <= 256 && m.inputs.len() <= 64 && m.outputs.len() <= 64);
}

/// A fuzz campaign's `state.json`: reading and checking never panic; a state that passes
/// `check` merges with itself as the other shard of two into a state that passes `check`
/// too, or is refused (counters past 2^64), never wrapped.
pub fn fuzz_state(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(state) = reports::fuzz::State::parse(text) else {
        return;
    };
    if state.check().is_err() {
        return;
    }
    let part = |k: u32| {
        let mut s = state.clone();
        s.shard = Some(reports::shard::Part {
            shard: reports::shard::Shard { k, n: 2 },
            version: "v".into(),
        });
        s
    };
    if let Ok(merged) = reports::shard::merge_fuzz(vec![part(0), part(1)]) {
        merged
            .check()
            .expect("a merge of checked states is consistent");
        assert_eq!(
            Some(merged.stats.programs),
            state.stats.programs.checked_mul(2),
            "no counter wraps"
        );
    }
}

/// A `contract.json` used as `--baseline`: reading never panics, a report has no transition
/// against itself, and the transitions' text is written whatever the ids hold.
pub fn contract_report(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(report) = reports::contract::ContractReport::parse(text) else {
        return;
    };
    let same = reports::contract::transitions(&report, &report);
    assert!(same.iter().all(|c| !c.regression()), "{same:?}");
    let empty = reports::contract::ContractReport {
        entries: Vec::new(),
        ..report.clone()
    };
    let gone = reports::contract::transitions(&report, &empty);
    let lines = reports::contract::transitions_text(&gone);
    assert_eq!(lines.lines().count(), gone.len() + 1);
}

/// Outside text (a translator's words) as shown: nothing in a Markdown cell or a one-line
/// message is a control character or a line break, and a cell's pipes are escaped.
pub fn outside_text(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let line = reports::text::one_line(&text);
    assert!(!line.chars().any(char::is_control), "{line:?}");
    let cell = reports::text::cell(&text);
    assert!(!cell.chars().any(char::is_control), "{cell:?}");
    // A row splits at a pipe no backslash escapes; a backslash escapes the next character.
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '|' => panic!("a bare pipe: {cell:?}"),
            _ => {}
        }
    }
    // A message of several lines keeps its line breaks and tabs, nothing else.
    let kept = reports::text::printable(&text);
    assert!(
        !kept
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "{kept:?}"
    );
}
