//! The result of `dxdiff bench`: translation throughput per translator and part, side by
//! side, with ratios to the first translator.

use serde::{Deserialize, Serialize};

/// The format tag of `dxdiff bench --json` output; a change to the fields gets a new number.
pub const FORMAT: &str = "dxdiff-bench/3";

/// One measured line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The translator's name, as `--translator` gave it.
    pub translator: String,
    /// What was timed (`translation`, `whole`, `naga validation`...).
    pub part: String,
    /// Programs timed in each pass.
    pub shaders: usize,
    /// DXBC bytes of those programs, summed.
    pub bytes: u64,
    /// Whole passes run over the programs.
    pub passes: usize,
    /// Seconds spent inside the timed part, over all passes (setup excluded).
    pub seconds: f64,
    /// Programs per second of timed time: the mean over every sample.
    pub shaders_per_s: f64,
    /// Programs per second of a typical pass: one in which each program takes its median time
    /// over the passes. A sample stretched by the machine (preemption, another tenant) moves
    /// the mean but not the median, so this is the figure ratios are taken of (docs/corpus.md).
    pub typical_per_s: f64,
    /// Programs per second of a warm pass: each program's median over runs back to back, so
    /// it follows itself instead of the others; 0 when the warm phase was skipped. Warm ÷
    /// typical is what the mix of programs costs the translator.
    pub warm_per_s: f64,
    /// DXBC megabytes (10^6 bytes) per second of timed time.
    pub mb_per_s: f64,
    /// Median time of one program, in microseconds.
    pub p50_us: f64,
    /// 99th-percentile time of one program, in microseconds.
    pub p99_us: f64,
}

/// The run: which programs were timed, and the lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bench {
    /// The format tag, [`FORMAT`].
    pub format: String,
    /// Programs found under the given folders.
    pub programs: usize,
    /// Programs each translator qualified: (translator, count).
    pub qualified: Vec<(String, usize)>,
    /// Programs all of them qualified: the ones timed.
    pub common: usize,
    /// DXBC bytes of the common programs, summed.
    pub bytes: u64,
    /// One line per translator and part timed.
    pub lines: Vec<Line>,
    /// Why a translator has fewer lines than it should (vkd3d-shader not loadable...).
    pub notes: Vec<String>,
}

/// A warm figure for a table: `–` when the warm phase was skipped.
fn warm_cell(l: &Line) -> String {
    if l.warm_per_s > 0.0 {
        format!("{:.0}", l.warm_per_s)
    } else {
        "–".into()
    }
}

/// `a ÷ b` for a table: `–` unless both are measured (a skipped warm phase is 0).
fn ratio_cell(a: f64, b: f64) -> String {
    if a > 0.0 && b > 0.0 {
        format!("{:.2}", a / b)
    } else {
        "–".into()
    }
}

/// The Markdown tables: translators side by side (their `translation` and `whole` lines, with
/// ratios to the first translator, typical and warm), then every line.
pub fn markdown(b: &Bench) -> String {
    let mut s = format!(
        "# dxdiff bench\n\n{} programs; timed: the {} ({} bytes of DXBC) that every translator qualifies",
        b.programs, b.common, b.bytes
    );
    for (t, n) in &b.qualified {
        s.push_str(&format!("; `{t}` qualifies {n}"));
    }
    s.push_str(".\n\n");
    for part in ["translation", "whole"] {
        let rows: Vec<&Line> = b
            .lines
            .iter()
            .filter(|l| l.part == part || (part == "translation" && l.part.starts_with(part)))
            .collect();
        let Some(first) = rows.first() else {
            continue;
        };
        s.push_str(&format!(
            "| {part} | typical shaders/s | mean shaders/s | MB/s | p50 µs | p99 µs | × `{0}` | warm shaders/s | × `{0}`, warm |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
            first.translator
        ));
        for l in &rows {
            s.push_str(&format!(
                "| `{}` | {:.0} | {:.0} | {:.2} | {:.1} | {:.1} | {:.2} | {} | {} |\n",
                l.translator,
                l.typical_per_s,
                l.shaders_per_s,
                l.mb_per_s,
                l.p50_us,
                l.p99_us,
                l.typical_per_s / first.typical_per_s.max(f64::MIN_POSITIVE),
                warm_cell(l),
                ratio_cell(l.warm_per_s, first.warm_per_s)
            ));
        }
        s.push('\n');
    }
    s.push_str("| translator | part | typical shaders/s | mean shaders/s | MB/s | p50 µs | p99 µs | passes | warm shaders/s | warm ÷ typical |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for l in &b.lines {
        s.push_str(&format!(
            "| `{}` | {} | {:.0} | {:.0} | {:.2} | {:.1} | {:.1} | {} | {} | {} |\n",
            l.translator,
            l.part,
            l.typical_per_s,
            l.shaders_per_s,
            l.mb_per_s,
            l.p50_us,
            l.p99_us,
            l.passes,
            warm_cell(l),
            ratio_cell(l.warm_per_s, l.typical_per_s)
        ));
    }
    for n in &b.notes {
        s.push_str(&format!("\n{n}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(translator: &str, part: &str, typical: f64, warm: f64) -> Line {
        Line {
            translator: translator.into(),
            part: part.into(),
            shaders: 2,
            bytes: 100,
            passes: 3,
            seconds: 1.0,
            shaders_per_s: typical,
            typical_per_s: typical,
            warm_per_s: warm,
            mb_per_s: 0.1,
            p50_us: 1.0,
            p99_us: 2.0,
        }
    }

    /// The side-by-side table gives both ratios to the first translator, typical and warm, and
    /// the full table warm ÷ typical; a skipped warm phase shows as `–`, never as a ratio.
    #[test]
    fn tables_give_typical_and_warm_ratios() {
        let b = Bench {
            format: FORMAT.into(),
            programs: 2,
            qualified: vec![("a".into(), 2), ("b".into(), 2)],
            common: 2,
            bytes: 100,
            lines: vec![
                line("a", "translation", 300.0, 600.0),
                line("b", "translation", 200.0, 300.0),
                line("a", "whole", 100.0, 0.0),
            ],
            notes: Vec::new(),
        };
        let text = markdown(&b);
        assert!(
            text.contains("| `b` | 200 | 200 | 0.10 | 1.0 | 2.0 | 0.67 | 300 | 0.50 |"),
            "{text}"
        );
        assert!(
            text.contains("| `a` | translation | 300 | 300 | 0.10 | 1.0 | 2.0 | 3 | 600 | 2.00 |"),
            "{text}"
        );
        assert!(
            text.contains("| `a` | whole | 100 | 100 | 0.10 | 1.0 | 2.0 | 3 | – | – |"),
            "{text}"
        );
    }
}
