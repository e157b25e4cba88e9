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
