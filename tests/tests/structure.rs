//! The import structure: no two modules of a crate depend on each other (docs/architecture.md,
//! "No cycle between modules"). Each crate's modules are read from its `src/` tree; an edge
//! `a → b` between two sibling modules means code in `a`'s subtree names a path into `b`'s
//! (`crate::…`, `super::…`, `use` groups included). Sibling modules whose edges close a loop
//! are one strongly connected component: a cycle.
//!
//! The cycles that exist today are listed in [`KNOWN`], each as its parent and members: the
//! check fails on a cycle that is not listed, on a listed one that grew, and on a listed one
//! that is gone (so the list only shrinks, and says what is left to break).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The cycles not broken yet: `crate::parent`, then its members in order. Empty: every cycle
/// found on 750c182 is broken (docs/architecture.md says how); a new one fails the check.
const KNOWN: &[(&str, &[&str])] = &[];

/// A module path inside its crate: `["gpu", "executor"]`.
type ModPath = Vec<String>;

/// Each module of the crate under `src`, with its source text (test modules cut off).
fn modules(src: &Path) -> BTreeMap<ModPath, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).expect("inside src");
            let mut path: ModPath = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let file = path.pop().expect("a file name");
            let stem = file.trim_end_matches(".rs");
            // `bin/`, `lib.rs`, `main.rs`: the crate root; `x/mod.rs`: module `x`.
            if path.first().is_some_and(|p| p == "bin") {
                continue;
            }
            if !(stem == "mod" || (path.is_empty() && (stem == "lib" || stem == "main"))) {
                path.push(stem.to_string());
            }
            let text = std::fs::read_to_string(&p).expect("readable source");
            out.insert(path, code_only(&text));
        }
    }
    out
}

/// The text without comments and without the test module at its end (`#[cfg(test)]`): a doc
/// link or a test's helper is not a dependency of the module.
fn code_only(text: &str) -> String {
    let body = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .map(|l| match l.find("//") {
            // A `//` inside a string (`http://`) cuts the rest of that line only.
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path `text` names from the crate root: `crate::a::b`, `super::a` (resolved against
/// `at`, the module the text is in; `is_dir` for a `mod.rs` or the root), and `use` groups
/// (`crate::{a::b, c}`) expanded.
fn paths(text: &str, at: &ModPath) -> Vec<ModPath> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let starts_word = i == 0 || !ident(bytes[i - 1]);
        let (base, skip): (ModPath, usize) = if starts_word && rest.starts_with(b"crate::") {
            (Vec::new(), "crate::".len())
        } else if starts_word && rest.starts_with(b"super::") {
            let mut base = at.clone();
            let mut skip = 0;
            while bytes[i + skip..].starts_with(b"super::") {
                base.pop();
                skip += "super::".len();
            }
            (base, skip)
        } else {
            i += 1;
            continue;
        };
        let mut end = i + skip;
        expand(text, &mut end, base, &mut found);
        i = end.max(i + 1);
    }
    found
}

/// Read a path tail at `*pos` (`a::b`, `a::{b, c::d}`, `{..}`), appending each full path.
fn expand(text: &str, pos: &mut usize, base: ModPath, found: &mut Vec<ModPath>) {
    let bytes = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut path = base;
    loop {
        while *pos < bytes.len() && bytes[*pos].is_ascii_whitespace() {
            *pos += 1;
        }
        if *pos < bytes.len() && bytes[*pos] == b'{' {
            *pos += 1;
            loop {
                while *pos < bytes.len()
                    && (bytes[*pos].is_ascii_whitespace() || bytes[*pos] == b',')
                {
                    *pos += 1;
                }
                if *pos >= bytes.len() || bytes[*pos] == b'}' {
                    *pos += 1;
                    return;
                }
                let before = *pos;
                expand(text, pos, path.clone(), found);
                // Skip `as name` and anything the reader does not follow, to the next item.
                while *pos < bytes.len() && !matches!(bytes[*pos], b',' | b'}') {
                    *pos += 1;
                }
                if *pos == before {
                    *pos += 1;
                }
            }
        }
        let start = *pos;
        while *pos < bytes.len() && ident(bytes[*pos]) {
            *pos += 1;
        }
        if *pos == start {
            found.push(path);
            return;
        }
        path.push(text[start..*pos].to_string());
        if bytes[*pos..].starts_with(b"::") {
            *pos += 2;
        } else {
            found.push(path);
            return;
        }
    }
}

/// The edges between sibling modules: `(parent, from, to)`.
fn edges(mods: &BTreeMap<ModPath, String>) -> BTreeSet<(ModPath, String, String)> {
    let is_module = |p: &[String]| mods.contains_key(p);
    let mut out = BTreeSet::new();
    for (at, text) in mods {
        for p in paths(text, at) {
            let common = at.iter().zip(&p).take_while(|(a, b)| a == b).count();
            let (Some(from), Some(to)) = (at.get(common), p.get(common)) else {
                continue;
            };
            // Only a path into a sibling module counts; an item of the parent does not.
            if is_module(&p[..=common]) {
                out.insert((at[..common].to_vec(), from.clone(), to.clone()));
            }
        }
    }
    out
}

/// The strongly connected components of more than one module, per parent: two modules are in
/// one when each reaches the other (plain reachability; a crate level has a few dozen modules).
fn cycles(edges: &BTreeSet<(ModPath, String, String)>) -> BTreeSet<(ModPath, Vec<String>)> {
    let mut by_parent: BTreeMap<&ModPath, BTreeMap<&str, BTreeSet<&str>>> = BTreeMap::new();
    for (parent, from, to) in edges {
        by_parent
            .entry(parent)
            .or_default()
            .entry(from)
            .or_default()
            .insert(to);
    }
    let mut out = BTreeSet::new();
    for (parent, graph) in by_parent {
        let reach = |start: &str| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![start];
            while let Some(n) = stack.pop() {
                for &m in graph.get(n).into_iter().flatten() {
                    if seen.insert(m) {
                        stack.push(m);
                    }
                }
            }
            seen
        };
        let nodes: BTreeSet<&str> = graph
            .iter()
            .flat_map(|(k, v)| std::iter::once(*k).chain(v.iter().copied()))
            .collect();
        let reaches: BTreeMap<&str, BTreeSet<&str>> =
            nodes.iter().map(|n| (*n, reach(n))).collect();
        for n in &nodes {
            let scc: Vec<String> = nodes
                .iter()
                .filter(|m| m != &n && reaches[n].contains(*m) && reaches[*m].contains(*n))
                .chain(std::iter::once(n))
                .map(|m| m.to_string())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            if scc.len() > 1 {
                out.insert((parent.clone(), scc));
            }
        }
    }
    out
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The workspace's crates, read from its manifest, so that a new crate is checked without
/// being listed here.
fn members() -> Vec<String> {
    let manifest =
        std::fs::read_to_string(workspace().join("Cargo.toml")).expect("the workspace manifest");
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members"))
        .expect("a members line");
    let list = &line[line.find('[').expect("a list") + 1..line.rfind(']').expect("a list")];
    list.split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

/// Every crate's cycles, as `crate::parent` and members.
fn all_cycles() -> BTreeSet<(String, Vec<String>)> {
    let mut out = BTreeSet::new();
    let crates = members();
    assert!(
        crates.iter().any(|c| c == "harness") && crates.len() >= 8,
        "the members line was misread: {crates:?}"
    );
    for krate in crates {
        let krate = krate.as_str();
        let mods = modules(&workspace().join(krate).join("src"));
        for (parent, members) in cycles(&edges(&mods)) {
            let name = std::iter::once(krate.to_string())
                .chain(parent)
                .collect::<Vec<_>>()
                .join("::");
            out.insert((name, members));
        }
    }
    out
}

#[test]
fn no_module_cycle_beyond_the_known_ones() {
    let found = all_cycles();
    let known: BTreeSet<(String, Vec<String>)> = KNOWN
        .iter()
        .map(|(p, m)| (p.to_string(), m.iter().map(|s| s.to_string()).collect()))
        .collect();
    let new: Vec<_> = found.difference(&known).collect();
    let gone: Vec<_> = known.difference(&found).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "module cycles not in KNOWN (break them): {new:?}\nKNOWN cycles no longer there (take them out of the list): {gone:?}"
    );
}

/// The check finds a planted cycle, through `use` groups and `super::`, and not a module that
/// only uses its parent's items.
#[test]
fn a_planted_cycle_is_found() {
    let dir = std::env::temp_dir().join(format!("dxdiff-structure-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).expect("scratch");
    let files = [
        (
            "lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub struct Root;\n",
        ),
        ("a/mod.rs", "pub mod x;\npub mod y;\npub struct Shared;\n"),
        // x → y through a group; y → x through super; both use their parent's item.
        (
            "a/x.rs",
            "use crate::{a::{y::Y, Shared}, Root};\npub struct X;\n",
        ),
        ("a/y.rs", "pub struct Y(super::x::X, super::Shared);\n"),
        // b → c only; c names b in a comment and in a test, which do not count.
        ("b.rs", "pub fn f() -> crate::c::C { todo!() }\n"),
        (
            "c.rs",
            "// crate::b::f\npub struct C;\n#[cfg(test)]\nmod tests { use crate::b::f; }\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(src.join(name), text).expect("scratch");
    }
    let found = cycles(&edges(&modules(&src)));
    let _ = std::fs::remove_dir_all(&dir);
    let want: BTreeSet<(ModPath, Vec<String>)> = [(
        vec!["a".to_string()],
        vec!["x".to_string(), "y".to_string()],
    )]
    .into();
    assert_eq!(found, want);
}
