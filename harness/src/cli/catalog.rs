//! `dxdiff catalog [--json]`: the adaptation catalog. Plain output is a table (id, category,
//! ops, domain); `--json` prints the list of entries with every field
//! (docs/case-format.md's contract: `id`, `category`, `seed_ref`, `ops`, `source`, …).

use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use oracles::catalog::{Entry, catalog};

use super::{CliError, CliResult, write_output};

/// The arguments of `dxdiff catalog`.
#[derive(Debug, clap::Args)]
pub struct CatalogArgs {
    /// Print the entries as a JSON list.
    #[arg(long)]
    json: bool,
}

/// Print the catalog as a table or as JSON.
pub fn run(a: &CatalogArgs) -> CliResult {
    let entries = &catalog().entries;
    let text = if a.json {
        let mut s = serde_json::to_string_pretty(entries).map_err(|e| CliError::Input {
            path: PathBuf::from("<catalog>"),
            what: e.to_string(),
        })?;
        s.push('\n');
        s
    } else {
        table(entries)
    };
    write_output(None, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join(",")
    }
}

fn table(entries: &[Entry]) -> String {
    let id_w = entries.iter().map(|e| e.id.len()).max().unwrap_or(2).max(2);
    // Long op lists overflow their column rather than widening every row.
    let ops_w = entries
        .iter()
        .map(|e| list(&e.ops).len())
        .filter(|w| *w <= 40)
        .max()
        .unwrap_or(3)
        .max(3);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:id_w$}  {:11}  {:ops_w$}  DOMAIN",
        "ID", "CATEGORY", "OPS"
    );
    for e in entries {
        let _ = writeln!(
            s,
            "{:id_w$}  {:11}  {:ops_w$}  {}",
            e.id,
            e.category.as_str(),
            list(&e.ops),
            list(&e.domain)
        );
    }
    let _ = writeln!(s, "{} entries", entries.len());
    s
}
