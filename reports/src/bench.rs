//! The result of `dxdiff bench`: translation throughput per translator and part, side by
//! side, with ratios to the first translator.

use serde::{Deserialize, Serialize};

/// The format tag of `dxdiff bench --json` output; a change to the fields gets a new number.
pub const FORMAT: &str = "dxdiff-bench/2";

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

/// The Markdown tables: translators side by side (their `translation` and `whole` lines, with
/// ratios to the first translator), then every line.
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
            "| {part} | typical shaders/s | mean shaders/s | MB/s | p50 µs | p99 µs | × `{}` |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
            first.translator
        ));
        for l in &rows {
            s.push_str(&format!(
                "| `{}` | {:.0} | {:.0} | {:.2} | {:.1} | {:.1} | {:.2} |\n",
                l.translator,
                l.typical_per_s,
                l.shaders_per_s,
                l.mb_per_s,
                l.p50_us,
                l.p99_us,
                l.typical_per_s / first.typical_per_s.max(f64::MIN_POSITIVE)
            ));
        }
        s.push('\n');
    }
    s.push_str("| translator | part | typical shaders/s | mean shaders/s | MB/s | p50 µs | p99 µs | passes |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for l in &b.lines {
        s.push_str(&format!(
            "| `{}` | {} | {:.0} | {:.0} | {:.2} | {:.1} | {:.1} | {} |\n",
            l.translator,
            l.part,
            l.typical_per_s,
            l.shaders_per_s,
            l.mb_per_s,
            l.p50_us,
            l.p99_us,
            l.passes
        ));
    }
    for n in &b.notes {
        s.push_str(&format!("\n{n}\n"));
    }
    s
}
