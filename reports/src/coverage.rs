//! Which cells of the catalog's domains a run reached: (opcode, domain, stage), where the
//! domains of an opcode are those of the catalog entries that cover it. A translator's author
//! asks which of the contract's numeric edges a campaign exercised at all; a cell no lane
//! entered is one where the run proves nothing.
//!
//! A program reaches a cell when one of its lanes entered the domain and the program has the
//! opcode. For `verify`'s single-instruction programs that is exact; in a program of many
//! instructions a lane's domain is credited to each of the program's opcodes the domain belongs
//! to, which can only over-count (the interpreter records domains per lane, not per
//! instruction).

use std::collections::BTreeMap;

/// The cells a program reached: `stage op domain` (`ps udiv divide-by-zero`), sorted, for the
/// program's opcodes (mnemonics), its stage prefix and the domains its lanes entered.
pub fn reached(stage: &str, ops: &[&str], events: oracles::domain::Events) -> Vec<String> {
    let mut out = Vec::new();
    for (op, domain) in universe() {
        if ops.contains(&op.as_str()) && events & domain.bit() != 0 {
            out.push(format!("{stage} {op} {}", domain.id()));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Every (opcode, domain) pair the catalog names: each entry's ops against each of its
/// domains, sorted. Worked out once: every program's report asks.
pub fn universe() -> &'static [(String, oracles::domain::Domain)] {
    static CELLS: std::sync::OnceLock<Vec<(String, oracles::domain::Domain)>> =
        std::sync::OnceLock::new();
    CELLS.get_or_init(|| {
        let mut cells: Vec<(String, oracles::domain::Domain)> = Vec::new();
        for e in &oracles::catalog::catalog().entries {
            for op in &e.ops {
                for d in e.domains() {
                    cells.push((op.to_ascii_lowercase(), d));
                }
            }
        }
        cells.sort_by(|a, b| (a.0.as_str(), a.1.id()).cmp(&(b.0.as_str(), b.1.id())));
        cells.dedup();
        cells
    })
}

/// One row of the coverage table: an (opcode, domain) of the catalog with the programs that
/// reached it per stage (ps, vs, cs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The opcode's mnemonic.
    pub op: String,
    /// The domain.
    pub domain: oracles::domain::Domain,
    /// Programs per stage: ps, vs, cs.
    pub programs: [u64; 3],
}

impl Row {
    /// Whether some stage reached it.
    pub fn reached(&self) -> bool {
        self.programs.iter().any(|n| *n > 0)
    }
}

/// The coverage table's rows: the catalog's (opcode, domain) cells of the opcodes the run had
/// (`ops`), from `coverage` (programs per `stage op domain`); and how many cells belong to
/// opcodes the run never had.
pub fn rows(coverage: &BTreeMap<String, u64>, ops: &[String]) -> (Vec<Row>, usize) {
    let (mut rows, mut absent) = (Vec::new(), 0usize);
    for (op, domain) in universe() {
        if !ops.contains(op) {
            absent += 1;
            continue;
        }
        let programs = ["ps", "vs", "cs"].map(|s| {
            coverage
                .get(&format!("{s} {op} {}", domain.id()))
                .copied()
                .unwrap_or(0)
        });
        rows.push(Row {
            op: op.clone(),
            domain: *domain,
            programs,
        });
    }
    (rows, absent)
}

/// The sentence above the table: how many cells were reached.
pub fn summary(rows: &[Row], absent: usize) -> String {
    format!(
        "{} of the {} (opcode, domain) cells of the opcodes this run had were reached; {absent} more belong to opcodes it never ran. Programs per stage:",
        rows.iter().filter(|r| r.reached()).count(),
        rows.len()
    )
}

/// The coverage table (Markdown), with the cells no stage reached marked.
pub fn markdown(coverage: &BTreeMap<String, u64>, ops: &[String]) -> String {
    let (rows, absent) = self::rows(coverage, ops);
    let mut s = format!(
        "\n## Coverage of the catalog's domains\n\n{}\n\n| opcode | domain | ps | vs | cs | |\n| --- | --- | ---: | ---: | ---: | --- |\n",
        summary(&rows, absent)
    );
    for r in &rows {
        let [ps, vs, cs] = r.programs;
        s.push_str(&format!(
            "| {} | {} | {ps} | {vs} | {cs} | {} |\n",
            r.op,
            r.domain.id(),
            if r.reached() { "" } else { "**never reached**" }
        ));
    }
    s
}

/// The coverage section of an HTML report: the same rows as [`markdown`], the cells no stage
/// reached marked.
pub fn html(page: &mut crate::html::Page, coverage: &BTreeMap<String, u64>, ops: &[String]) {
    use crate::html::{Cell, col, num};
    let (rows, absent) = rows(coverage, ops);
    page.heading("coverage", "Coverage of the catalog's domains");
    page.para(&summary(&rows, absent));
    let cells: Vec<Vec<Cell>> = rows
        .iter()
        .map(|c| {
            let mut row = vec![Cell::code(&c.op), Cell::code(c.domain.id())];
            row.extend(c.programs.map(Cell::num));
            row.push(
                Cell::text(if c.reached() { "" } else { "never reached" }).bad_if(!c.reached()),
            );
            row
        })
        .collect();
    page.table(
        &[
            col("opcode"),
            col("domain"),
            num("ps"),
            num("vs"),
            num("cs"),
            col(""),
        ],
        &cells,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracles::domain::Domain;

    #[test]
    fn a_program_reaches_the_cells_of_its_ops_and_its_lanes_domains() {
        let ev = Domain::FusionSensitive.bit() | Domain::BitfieldMasked.bit();
        let cells = reached("ps", &["mad"], ev);
        assert!(
            cells.iter().any(|c| c == "ps mad fusion-sensitive"),
            "{cells:?}"
        );
        // A domain no entry of the op names is no cell of it.
        assert!(
            !cells.iter().any(|c| c.ends_with("bitfield-masked")),
            "{cells:?}"
        );
        assert!(reached("ps", &["mad"], 0).is_empty());
    }

    #[test]
    fn the_table_marks_cells_never_reached() {
        let mut cov = BTreeMap::new();
        cov.insert("vs mad fusion-sensitive".to_string(), 3);
        let md = markdown(&cov, &["mad".to_string()]);
        assert!(
            md.contains("| mad | fusion-sensitive | 0 | 3 | 0 |  |"),
            "{md}"
        );
        assert!(md.contains("**never reached**"), "{md}");
        assert!(!md.contains("| udiv |"), "{md}");
    }
}
