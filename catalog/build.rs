//! Writes `ids.rs`: one constant per catalog entry, named from its id, and the entries each of
//! the built-in translator's profiles claims, so that every crate names an entry through the
//! one file that states it (`catalog.json`).

use std::collections::BTreeMap;
use std::fmt::Write;

/// The built-in translator's profiles (`translator::Profile`), the only names `claimed_by` may
/// hold.
const PROFILES: &[&str] = &["contract", "exact"];

fn main() {
    println!("cargo:rerun-if-changed=catalog.json");
    let text = std::fs::read_to_string("catalog.json").expect("catalog.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("catalog.json is JSON");
    let entries = json["entries"].as_array().expect("an entries list");
    let ids: Vec<&str> = entries
        .iter()
        .map(|e| e["id"].as_str().expect("every entry has an id"))
        .collect();
    // An id's name drops its category, unless two entries would share it.
    let short = |id: &str| id.split_once('/').map_or(id, |(_, n)| n).to_string();
    let mut uses: BTreeMap<String, usize> = BTreeMap::new();
    for id in &ids {
        *uses.entry(short(id)).or_default() += 1;
    }
    let name = |id: &str| {
        let n = if uses[&short(id)] > 1 {
            id.to_string()
        } else {
            short(id)
        };
        n.to_uppercase().replace(['-', '/'], "_")
    };
    let mut out = String::new();
    for (e, id) in entries.iter().zip(&ids) {
        let what = e["seed_ref"].as_str().map_or_else(
            || format!("`{id}`."),
            |s| format!("`{id}`: the seed's \"{s}\"."),
        );
        let _ = writeln!(out, "#[doc = {what:?}]");
        let _ = writeln!(out, "pub const {}: &str = {id:?};", name(id));
    }
    for e in entries {
        for p in e["claimed_by"].as_array().into_iter().flatten() {
            let p = p.as_str().unwrap_or("");
            assert!(
                PROFILES.contains(&p),
                "catalog.json: entry {} is claimed by `{p}`, not a profile of the built-in translator ({PROFILES:?})",
                e["id"]
            );
        }
    }
    let _ = writeln!(
        out,
        "/// The built-in translator's profiles, as `claimed_by` names them.\npub const PROFILES: &[&str] = &{PROFILES:?};"
    );
    for profile in PROFILES {
        let _ = writeln!(
            out,
            "/// The entries the built-in translator's `{profile}` profile claims (`claimed_by`)."
        );
        let _ = write!(
            out,
            "pub const {}_CLAIMS: &[&str] = &[",
            profile.to_uppercase()
        );
        for (e, id) in entries.iter().zip(&ids) {
            let claimed = e["claimed_by"]
                .as_array()
                .is_some_and(|p| p.iter().any(|p| p.as_str() == Some(profile)));
            if claimed {
                let _ = write!(out, "{}, ", name(id));
            }
        }
        out.push_str("];\n");
    }
    let dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("ids.rs"), out).expect("ids.rs written");
}
