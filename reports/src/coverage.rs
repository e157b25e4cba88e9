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
/// domains, sorted.
pub fn universe() -> Vec<(String, oracles::domain::Domain)> {
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
}

/// The coverage table (Markdown): one row per (opcode, domain) of the catalog among the
/// opcodes the run had, with the programs that reached it per stage; a row no stage reached is
/// marked. `coverage` counts programs per `stage op domain` cell; `ops` are the opcodes the run
/// had (a cell of an opcode the run never drew is not listed, only counted).
pub fn markdown(coverage: &BTreeMap<String, u64>, ops: &[String]) -> String {
    let stages = ["ps", "vs", "cs"];
    let mut rows = String::new();
    let (mut reached, mut listed, mut absent) = (0usize, 0usize, 0usize);
    for (op, d) in universe() {
        if !ops.contains(&op) {
            absent += 1;
            continue;
        }
        listed += 1;
        let n: Vec<u64> = stages
            .iter()
            .map(|s| {
                coverage
                    .get(&format!("{s} {op} {}", d.id()))
                    .copied()
                    .unwrap_or(0)
            })
            .collect();
        let any = n.iter().any(|x| *x > 0);
        reached += usize::from(any);
        rows.push_str(&format!(
            "| {op} | {} | {} | {} | {} | {} |\n",
            d.id(),
            n[0],
            n[1],
            n[2],
            if any { "" } else { "**never reached**" }
        ));
    }
    format!(
        "\n## Coverage of the catalog's domains\n\n{reached} of the {listed} (opcode, domain) cells of the opcodes this run had were reached; {absent} more belong to opcodes it never ran. Programs per stage:\n\n| opcode | domain | ps | vs | cs | |\n| --- | --- | ---: | ---: | ---: | --- |\n{rows}"
    )
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
