//! `dxdiff catalog [--json]` (docs/case-format.md): the JSON shape and one entry per category.

use crate::support::*;

use std::collections::BTreeSet;

#[test]
fn json_lists_entries_with_the_contract_fields() {
    let out = dxdiff().args(["catalog", "--json"]).output().expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let entries = v.as_array().expect("a JSON list");
    assert!(!entries.is_empty());
    let mut ids = BTreeSet::new();
    let mut categories = BTreeSet::new();
    for e in entries {
        let id = e["id"].as_str().expect("id is a string");
        assert!(ids.insert(id.to_string()), "duplicate id {id}");
        let cat = e["category"].as_str().expect("category is a string");
        assert!(
            ["adapted", "fail-closed", "bounded", "supported", "dxdiff"].contains(&cat),
            "{id}: category {cat}"
        );
        assert!(id.starts_with(&format!("{cat}/")), "{id} vs {cat}");
        categories.insert(cat.to_string());
        let seed_ref = &e["seed_ref"];
        assert!(seed_ref.is_string() || seed_ref.is_null(), "{id}: seed_ref");
        assert_eq!(
            seed_ref.is_null(),
            cat == "dxdiff",
            "{id}: seed_ref null iff dxdiff"
        );
        let ops = e["ops"].as_array().expect("ops is a list");
        assert!(ops.iter().all(|o| o.is_string()), "{id}: ops");
        assert!(
            e["source"].as_str().is_some_and(|s| !s.is_empty()),
            "{id}: source"
        );
        assert!(e["domain"].is_array(), "{id}: domain");
        assert!(e["tolerance"]["kind"].is_string(), "{id}: tolerance");
    }
    for cat in ["adapted", "fail-closed", "bounded", "supported", "dxdiff"] {
        assert!(categories.contains(cat), "no {cat} entry");
    }
    assert!(ids.contains("adapted/numeric-conversion-edges"));
}

#[test]
fn plain_output_is_a_table_of_every_entry() {
    let out = dxdiff().arg("catalog").output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    for col in ["ID", "CATEGORY", "OPS", "DOMAIN"] {
        assert!(header.contains(col), "header lacks {col}");
    }
    assert!(text.contains("adapted/rcp-division"));
    assert!(text.contains("ftoi-nan,ftoi-overflow"));
    let json = dxdiff().args(["catalog", "--json"]).output().expect("run");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let n = v.as_array().expect("list").len();
    assert!(text.ends_with(&format!("{n} entries\n")));
}
