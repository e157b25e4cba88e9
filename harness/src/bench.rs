//! `dxdiff bench`: translation throughput of several translators over the same programs, in
//! one run. Each translator is first qualified over the corpus (the same rules as `dxdiff
//! corpus`); only the programs every translator qualifies are timed, so the figures compare
//! like with like.
//!
//! What is timed, per translator:
//! - built-in, in process: `translation` (DXBC decoding + lowering to naga IR), `DXBC decoding`
//!   alone (container, signatures, token stream and its validation; not the checksum, which
//!   parsing leaves to `dxbc::checksum_matches`), `naga validation` (of that module), `WGSL
//!   writing` (naga's back end), and `whole` (all of it, what `translate` returns);
//! - vkd3d-shader, in process: `translation` (DXBC → SPIR-V through libvkd3d-shader), then naga's
//!   share of the route to WGSL: `naga SPIR-V reading`, `naga validation`, `WGSL writing`, and
//!   `whole` (all of it);
//! - `cmd:` translators, one process per program: `translation (per process)`, the process's
//!   wall time with its answer, and `process cost`, the same spawn with a command that only
//!   drains stdin, so the translator's own time is the difference.
//!
//! Each line runs whole passes over the programs until `min_seconds` have passed, the lines
//! taking turns pass by pass; every program's time in every pass is a sample for p50/p99, and
//! each program's median over the passes makes the typical pass that ratios are taken of.
//!
//! Then the warm phase: each program runs `warm_runs` times back to back on every line (the
//! lines taking turns program by program), and its median there makes the warm pass. In the
//! typical pass a program follows the others, so it starts with the caches and branch
//! predictors they left; in the warm pass it follows itself. Warm ÷ typical is what the mix
//! costs a translator (docs/corpus.md).

use std::time::{Duration, Instant};

use crate::qualify;
use crate::translators::Shared;
use reports::bench::{Bench, Line};
use reports::corpus::Status;

/// The middle of `times` once sorted (the upper one of an even count); 0 for none.
fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(0.0)
}

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
            median(&mut mine)
        })
        .sum()
}

/// One line being measured: its inputs, and the samples of the passes run so far.
struct Timer<'a> {
    translator: String,
    part: &'static str,
    inputs: Vec<Box<dyn std::any::Any>>,
    run: crate::translators::Work<'a>,
    samples: Vec<f64>,
    busy: f64,
    passes: usize,
    /// Seconds of the warm pass: each program's median over its back-to-back runs, summed.
    warm: f64,
}

impl<'a> Timer<'a> {
    /// A line with no pass run yet.
    fn new(
        translator: String,
        part: &'static str,
        inputs: Vec<Box<dyn std::any::Any>>,
        run: crate::translators::Work<'a>,
    ) -> Timer<'a> {
        Timer {
            translator,
            part,
            inputs,
            run,
            samples: Vec::new(),
            busy: 0.0,
            passes: 0,
            warm: 0.0,
        }
    }

    /// Program `i` run `runs` times back to back; its median time joins the warm pass.
    fn warm_program(&mut self, i: usize, runs: usize) {
        let Some(input) = self.inputs.get(i) else {
            return;
        };
        let mut times: Vec<f64> = (0..runs).map(|_| self.time(input.as_ref())).collect();
        self.warm += median(&mut times);
    }

    /// Seconds of one run of the timed part on `input`.
    fn time(&self, input: &dyn std::any::Any) -> f64 {
        let t = Instant::now();
        (self.run)(input);
        t.elapsed().as_secs_f64()
    }

    /// Whether the line still wants a pass: always a first one, then until it has spent `min`
    /// inside the timed part.
    fn wants(&self, min: Duration) -> bool {
        self.passes == 0 || (self.busy < min.as_secs_f64() && self.passes < 100_000)
    }

    /// One whole pass over the inputs, each program timed alone.
    fn pass(&mut self) {
        for it in &self.inputs {
            let s = self.time(it.as_ref());
            self.busy += s;
            self.samples.push(s);
        }
        self.passes += 1;
    }

    fn line(mut self, bytes: u64) -> Line {
        let items = self.inputs.len();
        let typical = typical_pass(&self.samples, items);
        let samples = &mut self.samples;
        samples.sort_by(f64::total_cmp);
        let pct = |p: f64| {
            samples
                .get(((samples.len() as f64 - 1.0) * p).round() as usize)
                .map_or(0.0, |s| s * 1e6)
        };
        let (busy, passes, warm) = (self.busy, self.passes, self.warm);
        let n = (items * passes) as f64;
        Line {
            translator: self.translator,
            part: self.part.to_string(),
            shaders: items,
            bytes,
            passes,
            seconds: busy,
            shaders_per_s: if busy > 0.0 { n / busy } else { 0.0 },
            typical_per_s: if typical > 0.0 {
                items as f64 / typical
            } else {
                0.0
            },
            warm_per_s: if warm > 0.0 { items as f64 / warm } else { 0.0 },
            mb_per_s: if busy > 0.0 {
                bytes as f64 * passes as f64 / busy / 1e6
            } else {
                0.0
            },
            p50_us: pct(0.5),
            p99_us: pct(0.99),
        }
    }
}

/// Run every line's passes in rounds, one pass of each line per round, until each has had
/// `min`. Interleaved, so a change in the machine's speed during the run (another tenant, a
/// clock step) falls on every translator alike instead of on whichever ran then: run one after
/// the other, one binary's ratio moved from 0.97 to 1.38 between runs.
fn interleave(timers: &mut [Timer<'_>], min: Duration) {
    loop {
        let mut ran = false;
        for t in timers.iter_mut().filter(|t| t.wants(min)) {
            t.pass();
            ran = true;
        }
        if !ran {
            break;
        }
    }
}

/// The warm phase: program by program, every line runs the program `runs` times back to back
/// (none when `runs` is 0), but no more often than it ran whole passes, and at least 3 times:
/// a translator slow enough to get few passes in its time (one process per program, say) gets
/// a warm phase about as long as its passes, not `runs` times one. The lines take turns per
/// program, for the reason [`interleave`] gives.
fn warm(timers: &mut [Timer<'_>], runs: usize) {
    if runs == 0 {
        return;
    }
    let programs = timers.iter().map(|t| t.inputs.len()).max().unwrap_or(0);
    for i in 0..programs {
        for t in timers.iter_mut() {
            let runs = runs.min(t.passes.max(3));
            t.warm_program(i, runs);
        }
    }
}

/// Qualify, intersect, and time each translator over `programs` (read from folders,
/// `crate::programs::relative`, or made, `crate::programs::generated`): interleaved passes for
/// at least `min` a line, then `warm_runs` back-to-back runs of each program.
pub fn run(
    programs: Vec<crate::programs::Program>,
    translators: &[Shared],
    min: Duration,
    warm_runs: usize,
) -> Bench {
    let blobs: Vec<(String, Vec<u8>)> = programs
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
    let mut timers = Vec::new();
    for t in translators {
        let name = t.name();
        let parts = t.parts();
        if parts.is_empty() {
            bench
                .notes
                .push(format!("{name}: no part can be measured in this process"));
        }
        for part in parts {
            let inputs = common.iter().filter_map(|b| (part.setup)(b)).collect();
            timers.push(Timer::new(name.clone(), part.name, inputs, part.run));
        }
    }
    interleave(&mut timers, min);
    warm(&mut timers, warm_runs);
    bench
        .lines
        .extend(timers.into_iter().map(|t| t.line(bytes)));
    bench
}

#[cfg(test)]
mod tests {
    use super::{Line, Timer, interleave, typical_pass, warm};
    use std::cell::RefCell;
    use std::time::Duration;

    /// Lines take turns: while both want passes, a pass of one is followed by a pass of the
    /// other, so no line's passes all fall in one stretch of the run.
    #[test]
    fn lines_take_turns_pass_by_pass() {
        let order = RefCell::new(String::new());
        let timer = |part: &'static str, pause: u64| {
            let order = &order;
            Timer::new(
                part.into(),
                part,
                vec![Box::new(()) as Box<dyn std::any::Any>],
                Box::new(move |_| {
                    order.borrow_mut().push_str(part);
                    std::thread::sleep(Duration::from_millis(pause));
                }),
            )
        };
        // `a` needs about three passes of 2 ms to reach 5 ms; `b`, about five of 1 ms.
        let mut timers = [timer("a", 2), timer("b", 1)];
        interleave(&mut timers, Duration::from_millis(5));
        let busy: Vec<f64> = timers.iter().map(|t| t.busy).collect();
        drop(timers);
        let order = order.into_inner();
        // They alternate while both want passes; once one has had its time, the other goes
        // on alone. (Which stops first depends on how long the sleeps really took.)
        let alternating = order
            .as_bytes()
            .chunks(2)
            .take_while(|pair| *pair == b"ab")
            .count();
        let rest = &order[2 * alternating..];
        assert!(alternating >= 1, "{order}");
        assert!(
            rest.chars().all(|c| c == 'a') || rest.chars().all(|c| c == 'b'),
            "{order}"
        );
        assert!(
            busy.iter().all(|b| *b >= 0.005),
            "both reached the minimum: {busy:?}"
        );
    }

    /// The warm phase runs each program back to back, the lines taking turns program by
    /// program, and a translator that is slow only after another program is slow in the
    /// typical pass and fast in the warm one: here 20 ms after another program and 1 ms after
    /// itself (far enough apart that a loaded machine's late wake-ups, a few ms each, cannot
    /// close the gap). Asked for 9 runs, lines that ran one pass get 3.
    #[test]
    fn the_warm_pass_follows_each_program_with_itself() {
        let order = RefCell::new(Vec::new());
        let last = RefCell::new(None::<(char, usize)>);
        let timer = |line: char| {
            let (order, last) = (&order, &last);
            Timer::new(
                line.to_string(),
                "translation",
                (0..2usize)
                    .map(|i| Box::new(i) as Box<dyn std::any::Any>)
                    .collect(),
                Box::new(move |input| {
                    let i = *input.downcast_ref::<usize>().expect("a program number");
                    order.borrow_mut().push((line, i));
                    let cold = last.replace(Some((line, i))) != Some((line, i));
                    std::thread::sleep(Duration::from_millis(if cold { 20 } else { 1 }));
                }),
            )
        };
        let mut timers = [timer('a'), timer('b')];
        interleave(&mut timers, Duration::ZERO);
        order.borrow_mut().clear();
        warm(&mut timers, 9);
        let lines: Vec<Line> = timers.into_iter().map(|t| t.line(0)).collect();
        let order = order.borrow().clone();
        let runs = |line, i| std::iter::repeat_n((line, i), 3);
        let want: Vec<(char, usize)> = runs('a', 0)
            .chain(runs('b', 0))
            .chain(runs('a', 1))
            .chain(runs('b', 1))
            .collect();
        assert_eq!(order, want);
        for l in &lines {
            // Typical: two cold programs, at least 40 ms; warm: two medians of 1 ms, well
            // under 26 ms even on a loaded machine.
            assert!(
                l.typical_per_s > 0.0 && l.typical_per_s <= 2.0 / 0.040,
                "{l:?}"
            );
            assert!(l.warm_per_s > l.typical_per_s * 1.5, "{l:?}");
        }
        // Skipped, the warm figure is 0.
        let mut skipped = [timer('c')];
        interleave(&mut skipped, Duration::ZERO);
        warm(&mut skipped, 0);
        let [t] = skipped;
        assert_eq!(t.line(0).warm_per_s, 0.0);
    }

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
