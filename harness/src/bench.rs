//! `dxdiff bench`: translation throughput of several translators over the same programs, in
//! one run. Each translator is first qualified over the corpus (the same rules as `dxdiff
//! corpus`); only the programs every translator qualifies are timed, so the figures compare
//! like with like.
//!
//! What is timed, per translator:
//! - built-in, in process: `translation` (DXBC decoding + WGSL writing), `DXBC decoding` alone,
//!   `naga validation`
//!   (parsing and validating that WGSL), and `whole` (both, what `translate` returns);
//! - vkd3d-shader, in process: `translation` (DXBC → SPIR-V through libvkd3d-shader), then naga's
//!   share of the route to WGSL: `naga SPIR-V reading`, `naga validation`, `WGSL writing`, and
//!   `whole` (all of it);
//! - `cmd:` translators, one process per program: `translation (per process)`, the process's
//!   wall time with its answer, and `process cost`, the same spawn with a command that only
//!   drains stdin, so the translator's own time is the difference.
//!
//! Each line runs whole passes over the programs until `min_seconds` have passed; every
//! program's time in every pass is a sample for p50/p99.

use std::time::{Duration, Instant};

use crate::qualify::{self, Status};
use crate::translators::{Translator, run_process};
use crate::vkd3d::{Vkd3d, adapter};

/// One measured line.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Line {
    pub translator: String,
    pub part: &'static str,
    pub shaders: usize,
    pub bytes: u64,
    pub passes: usize,
    pub seconds: f64,
    pub shaders_per_s: f64,
    pub mb_per_s: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

/// The run: which programs were timed, and the lines.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Bench {
    pub programs: usize,
    /// Programs each translator qualified: (translator, count).
    pub qualified: Vec<(String, usize)>,
    /// Programs all of them qualified: the ones timed.
    pub common: usize,
    pub bytes: u64,
    pub lines: Vec<Line>,
    /// Why a translator has fewer lines than it should (vkd3d-shader not loadable...).
    pub notes: Vec<String>,
}

/// Time `f` over `items` in whole passes until `min` has passed.
fn measure<T>(
    translator: &str,
    part: &'static str,
    items: &[T],
    bytes: u64,
    min: Duration,
    mut f: impl FnMut(&T),
) -> Line {
    let mut samples = Vec::new();
    let mut passes = 0;
    let started = Instant::now();
    let mut busy = 0.0;
    while passes == 0 || (started.elapsed() < min && passes < 100_000) {
        for it in items {
            let t = Instant::now();
            f(it);
            let s = t.elapsed().as_secs_f64();
            busy += s;
            samples.push(s);
        }
        passes += 1;
    }
    samples.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        samples
            .get(((samples.len() as f64 - 1.0) * p).round() as usize)
            .map_or(0.0, |s| s * 1e6)
    };
    let n = (items.len() * passes) as f64;
    Line {
        translator: translator.to_string(),
        part,
        shaders: items.len(),
        bytes,
        passes,
        seconds: busy,
        shaders_per_s: if busy > 0.0 { n / busy } else { 0.0 },
        mb_per_s: if busy > 0.0 {
            bytes as f64 * passes as f64 / busy / 1e6
        } else {
            0.0
        },
        p50_us: pct(0.5),
        p99_us: pct(0.99),
    }
}

/// Qualify, intersect, and time each translator over `roots`.
pub fn run(roots: &[std::path::PathBuf], translators: &[Translator], min: Duration) -> Bench {
    let blobs: Vec<(String, Vec<u8>)> = qualify::programs(roots)
        .into_iter()
        .filter_map(|(n, b)| Some((n, b.ok()?)))
        .collect();
    let mut qualified = Vec::new();
    let mut keep = vec![true; blobs.len()];
    for t in translators {
        let recs = crate::verify::corpus::par_map(
            &blobs,
            |(n, b)| qualify::classify(n, Ok(b), t).status == Status::Qualified,
            || false,
        );
        qualified.push((t.name(), recs.iter().filter(|q| **q).count()));
        for (k, q) in keep.iter_mut().zip(recs) {
            *k &= q;
        }
    }
    let common: Vec<&[u8]> = blobs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|((_, b), _)| b.as_slice())
        .collect();
    let bytes: u64 = common.iter().map(|b| b.len() as u64).sum();
    let mut bench = Bench {
        programs: blobs.len(),
        qualified,
        common: common.len(),
        bytes,
        lines: Vec::new(),
        notes: Vec::new(),
    };
    if common.is_empty() {
        bench
            .notes
            .push("no program is qualified by every translator: nothing to time".into());
        return bench;
    }
    for t in translators {
        let name = t.name();
        match t {
            Translator::Builtin(p) => builtin(&mut bench, &name, *p, &common, min),
            Translator::Vkd3d { .. } => vkd3d(&mut bench, &name, &common, min),
            Translator::Command { line, timeout } => {
                let run = |b: &&[u8]| {
                    let _ = run_process(line, *timeout, b);
                };
                let l = measure(&name, "translation (per process)", &common, bytes, min, run);
                bench.lines.push(l);
                let idle = |b: &&[u8]| {
                    let _ = run_process("cat >/dev/null", *timeout, b);
                };
                let l = measure(&name, "process cost", &common, bytes, min, idle);
                bench.lines.push(l);
            }
        }
    }
    bench
}

fn builtin(b: &mut Bench, name: &str, p: translator::Profile, common: &[&[u8]], min: Duration) {
    let bytes = b.bytes;
    let decode = |blob: &&[u8]| {
        let _ = dxbc::Shader::parse(blob);
    };
    b.lines
        .push(measure(name, "DXBC decoding", common, bytes, min, decode));
    let emit = |blob: &&[u8]| {
        if let Ok(s) = dxbc::Shader::parse(blob) {
            let _ = translator::emit_unvalidated(&s, p);
        }
    };
    b.lines
        .push(measure(name, "translation", common, bytes, min, emit));
    let wgsl: Vec<String> = common
        .iter()
        .filter_map(|blob| {
            let s = dxbc::Shader::parse(blob).ok()?;
            translator::emit_unvalidated(&s, p).ok().map(|t| t.wgsl)
        })
        .collect();
    b.lines.push(measure(
        name,
        "naga validation",
        &wgsl,
        bytes,
        min,
        |w: &String| {
            let _ = translator::validate(w);
        },
    ));
    let whole = |blob: &&[u8]| {
        let _ = translator::translate_blob(blob, p);
    };
    b.lines
        .push(measure(name, "whole", common, bytes, min, whole));
}

fn vkd3d(b: &mut Bench, name: &str, common: &[&[u8]], min: Duration) {
    let lib = match Vkd3d::load() {
        Ok(l) => l,
        Err(e) => {
            b.notes
                .push(format!("{name}: not measured in process: {e}"));
            return;
        }
    };
    let bytes = b.bytes;
    let compile = |blob: &&[u8]| {
        let _ = lib.compile_to_spirv(blob);
    };
    b.lines
        .push(measure(name, "translation", common, bytes, min, compile));
    // naga's share, over the SPIR-V vkd3d made; every program here already went this way in
    // a child process during qualification, so none of these panics.
    let spirv: Vec<(dxbc::Shader, Vec<u8>)> = common
        .iter()
        .filter_map(|blob| {
            Some((
                dxbc::Shader::parse(blob).ok()?,
                lib.compile_to_spirv(blob).ok()?,
            ))
        })
        .collect();
    b.lines.push(measure(
        name,
        "naga SPIR-V reading",
        &spirv,
        bytes,
        min,
        |(_, spv)| {
            let _ = adapter::read_spirv(spv);
        },
    ));
    let modules: Vec<naga::Module> = spirv
        .iter()
        .filter_map(|(s, spv)| {
            let mut m = adapter::read_spirv(spv).ok()?;
            adapter::rebind(&mut m, s).ok()?;
            Some(m)
        })
        .collect();
    b.lines.push(measure(
        name,
        "naga validation",
        &modules,
        bytes,
        min,
        |m| {
            let _ = adapter::validate_module(m);
        },
    ));
    let validated: Vec<(&naga::Module, naga::valid::ModuleInfo)> = modules
        .iter()
        .filter_map(|m| Some((m, adapter::validate_module(m).ok()?)))
        .collect();
    b.lines.push(measure(
        name,
        "WGSL writing",
        &validated,
        bytes,
        min,
        |(m, info)| {
            let _ = adapter::write_wgsl(m, info);
        },
    ));
    let whole = |blob: &&[u8]| {
        let Ok(s) = dxbc::Shader::parse(blob) else {
            return;
        };
        let Ok(spv) = lib.compile_to_spirv(blob) else {
            return;
        };
        let Ok(mut m) = adapter::read_spirv(&spv) else {
            return;
        };
        if adapter::rebind(&mut m, &s).is_ok()
            && let Ok(info) = adapter::validate_module(&m)
        {
            let _ = adapter::write_wgsl(&m, &info);
        }
    };
    b.lines
        .push(measure(name, "whole", common, bytes, min, whole));
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
            "| {part} | shaders/s | MB/s | p50 µs | p99 µs | × `{}` |\n| --- | ---: | ---: | ---: | ---: | ---: |\n",
            first.translator
        ));
        for l in &rows {
            s.push_str(&format!(
                "| `{}` | {:.0} | {:.2} | {:.1} | {:.1} | {:.2} |\n",
                l.translator,
                l.shaders_per_s,
                l.mb_per_s,
                l.p50_us,
                l.p99_us,
                l.shaders_per_s / first.shaders_per_s.max(f64::MIN_POSITIVE)
            ));
        }
        s.push('\n');
    }
    s.push_str("| translator | part | shaders/s | MB/s | p50 µs | p99 µs | passes |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    for l in &b.lines {
        s.push_str(&format!(
            "| `{}` | {} | {:.0} | {:.2} | {:.1} | {:.1} | {} |\n",
            l.translator, l.part, l.shaders_per_s, l.mb_per_s, l.p50_us, l.p99_us, l.passes
        ));
    }
    for n in &b.notes {
        s.push_str(&format!("\n{n}\n"));
    }
    s
}
