//! `dxdiff bench`: translation throughput of several translators over the same programs, in
//! one run. Each translator is first qualified over the corpus (the same rules as `dxdiff
//! corpus`); only the programs every translator qualifies are timed, so the figures compare
//! like with like.
//!
//! What is timed, per translator:
//! - built-in, in process: `translation` (DXBC decoding + lowering to naga IR), `DXBC decoding`
//!   alone, `DXBC checksum` (the MD5 part of decoding, which vkd3d-shader 1.2 skips), `naga
//!   validation` (of that module), `WGSL writing` (naga's back end), and `whole` (all of it,
//!   what `translate` returns);
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

use crate::qualify;
use crate::translators::Shared;
use reports::bench::{Bench, Line};
use reports::corpus::Status;

/// Seconds of a typical pass: each program's median time over the passes, summed. `samples`
/// holds the passes one after another, `per_pass` programs each.
fn typical_pass(samples: &[f64], per_pass: usize) -> f64 {
    if per_pass == 0 {
        return 0.0;
    }
    let passes = samples.len() / per_pass;
    let mut mine = Vec::with_capacity(passes);
    (0..per_pass)
        .map(|i| {
            mine.clear();
            mine.extend((0..passes).map(|p| samples[p * per_pass + i]));
            mine.sort_by(f64::total_cmp);
            mine.get(mine.len() / 2).copied().unwrap_or(0.0)
        })
        .sum()
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
    let typical = typical_pass(&samples, items.len());
    samples.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        samples
            .get(((samples.len() as f64 - 1.0) * p).round() as usize)
            .map_or(0.0, |s| s * 1e6)
    };
    let n = (items.len() * passes) as f64;
    Line {
        translator: translator.to_string(),
        part: part.to_string(),
        shaders: items.len(),
        bytes,
        passes,
        seconds: busy,
        shaders_per_s: if busy > 0.0 { n / busy } else { 0.0 },
        typical_per_s: if typical > 0.0 {
            items.len() as f64 / typical
        } else {
            0.0
        },
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
pub fn run(roots: &[std::path::PathBuf], translators: &[Shared], min: Duration) -> Bench {
    let blobs: Vec<(String, Vec<u8>)> = crate::programs::relative(roots)
        .into_iter()
        .filter_map(|(n, b)| Some((n, b.ok()?)))
        .collect();
    let mut qualified = Vec::new();
    let mut keep = vec![true; blobs.len()];
    for t in translators {
        let recs = crate::parallel::par_map(
            &blobs,
            |(n, b)| qualify::classify(n, Ok(b), t.as_ref()).status == Status::Qualified,
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
        format: reports::bench::FORMAT.into(),
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
        let parts = t.parts();
        if parts.is_empty() {
            bench
                .notes
                .push(format!("{name}: no part can be measured in this process"));
        }
        for part in parts {
            let inputs: Vec<Box<dyn std::any::Any>> =
                common.iter().filter_map(|b| (part.setup)(b)).collect();
            let l = measure(&name, part.name, &inputs, bytes, min, |i| {
                (part.run)(i.as_ref())
            });
            bench.lines.push(l);
        }
    }
    bench
}

#[cfg(test)]
mod tests {
    use super::typical_pass;

    /// A sample stretched by the machine moves the mean, not the typical pass: two programs
    /// (1 and 3 µs) over five passes, one pass of which took 1000 µs for the first.
    #[test]
    fn a_stretched_sample_does_not_move_the_typical_pass() {
        let mut samples = Vec::new();
        for pass in 0..5 {
            samples.push(if pass == 2 { 1000e-6 } else { 1e-6 });
            samples.push(3e-6);
        }
        let typical = typical_pass(&samples, 2);
        assert!((typical - 4e-6).abs() < 1e-12, "{typical}");
        let mean_pass = samples.iter().sum::<f64>() / 5.0;
        assert!(mean_pass > 200e-6, "{mean_pass}");
        assert_eq!(typical_pass(&[], 0), 0.0);
    }
}
