//! `dxdiff fuzz [--translator T] [--profile P] [--seed S] [--programs N | --time DURATION]
//! [--out DIR] [--adapter A]`: a random-program campaign (crate::fuzz). Prints the
//! campaign's statistics and distinct divergences; the last line is `fuzz: N programs, N lanes
//! compared, N distinct mismatches`. Exit 1 when a distinct mismatch is known, 4 without a
//! usable adapter.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::fuzz::{FuzzError, FuzzOptions};
use crate::session::Settings;

use super::{CliError, CliResult, usage};

/// The arguments of `dxdiff fuzz`.
#[derive(Debug, clap::Args)]
pub struct FuzzArgs {
    #[command(flatten)]
    translator: super::TranslatorArgs,
    #[command(flatten)]
    model: super::ModelArgs,
    /// Makes the campaign reproducible: program i is generated from (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many programs (a resumed campaign counts the earlier ones).
    #[arg(long, conflicts_with = "time")]
    programs: Option<u64>,
    /// Stop after this long: `90s`, `10m`, `1h` (or seconds).
    #[arg(long)]
    time: Option<String>,
    /// The campaign folder: `state.json` (resumable), `cases/` and `report.html`.
    #[arg(long, default_value = "dxdiff-fuzz")]
    out: PathBuf,
    /// Also write JUnit XML here: one failed test case per distinct divergence, or one passing
    /// case when the campaign found none.
    #[arg(long)]
    junit: Option<PathBuf>,
    #[command(flatten)]
    pub(super) place: super::PlacementArgs,
    /// Input vectors per program, 1..=65536.
    #[arg(long, default_value_t = 256, value_parser = super::bounded(1, 65_536))]
    vectors: usize,
    /// Seconds of shrinking per divergence.
    #[arg(long, default_value_t = 60.0)]
    shrink_time: f64,
    /// Top-level statements per program, 1..=256.
    #[arg(long, default_value_t = 8, value_parser = super::bounded(1, 256))]
    statements: usize,
    /// Deepest control-flow nesting, 0..=8.
    #[arg(long, default_value_t = 2, value_parser = super::bounded(0, 8))]
    depth: usize,
    /// Working temps (and outputs), 1..=8.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=8))]
    temps: u32,
    /// Stages to generate: any of `ps`, `vs`, `cs`, comma-separated.
    #[arg(long, default_value = "ps,vs,cs")]
    stages: String,
    /// Also generate out-of-range dynamic constant-buffer indices (D3D reads 0).
    #[arg(long)]
    oob_indices: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// Aim the campaign at these opcodes (mnemonics, `udiv,ishr`): together they take 80 % of
    /// the instruction draws, every other row the rest (docs/fuzz.md, "Aimed campaigns").
    #[arg(long, value_delimiter = ',')]
    ops: Vec<String>,
    /// Aim at the opcodes these catalog entries cover (`bounded/udiv`), as `--ops` does.
    #[arg(long, value_delimiter = ',')]
    entry: Vec<String>,
    /// Steer generation toward the catalog cells (opcode, domain, stage) no program has
    /// reached yet: every 8 programs the campaign aims at the opcodes with the most
    /// (docs/fuzz.md, "Guided campaigns").
    #[arg(long, conflicts_with_all = ["ops", "entry"])]
    guided: bool,
}

/// The opcodes `--ops` and `--entry` aim at, each one the generator draws.
fn aimed(ops: &[String], entries: &[String]) -> Result<Vec<dxbc::Opcode>, CliError> {
    let drawn: Vec<dxbc::Opcode> = generators::random::rows()
        .iter()
        .map(|r| r.opcode)
        .collect();
    let mut out = Vec::new();
    for m in ops {
        let op = dxbc::Opcode::from_mnemonic_ci(m.trim())
            .filter(|o| drawn.contains(o))
            .ok_or_else(|| usage(format!("--ops: `{m}` is not an opcode the generator draws")))?;
        out.push(op);
    }
    for id in entries {
        let e = oracles::catalog::catalog().get(id.trim()).ok_or_else(|| {
            usage(format!(
                "--entry: `{id}` is not a catalog id (dxdiff catalog)"
            ))
        })?;
        let covered: Vec<dxbc::Opcode> = drawn.iter().copied().filter(|o| e.covers(*o)).collect();
        if covered.is_empty() {
            return Err(usage(format!(
                "--entry: `{id}` covers no opcode the generator draws"
            )));
        }
        out.extend(covered);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// A campaign that could not run: exit 4 without a usable device, a usage error otherwise.
fn failed(e: FuzzError) -> CliResult {
    match e {
        FuzzError::Gpu(e) => {
            eprintln!("dxdiff: {e}");
            Ok(ExitCode::from(4))
        }
        e @ FuzzError::NothingToGenerate { .. } => {
            Ok(super::nothing_compared(&format!("[{}] {e}", e.code())))
        }
        e @ (FuzzError::State { .. } | FuzzError::Out(_) | FuzzError::Write { .. }) => {
            Err(usage(e.to_string()))
        }
    }
}

/// `--adapter all` or `--jobs J`: shard `k/N` of the campaign on worker `k`, each in its own
/// folder under `OUT/shards/` (resumable as any campaign folder), merged into `OUT` as
/// `dxdiff merge` merges campaign folders. Each worker runs the whole `--time`.
fn spread(
    o: &FuzzOptions,
    workers: &[String],
) -> Result<Result<reports::fuzz::State, FuzzError>, CliError> {
    use crate::spread::Stopped;
    let run =
        crate::spread::over_folders(&o.out, workers, o.session.quiet, |shard, dir, adapter| {
            let mine = FuzzOptions {
                session: o.session.worker(shard, false),
                out: dir.to_path_buf(),
                ..o.clone()
            };
            crate::fuzz::run(&mine, adapter)
        });
    match run {
        Ok((dirs, _, _held)) => super::parts::fuzz_folders(&dirs, &o.out).map(Ok),
        Err(Stopped::Folders(why)) => Err(usage(why)),
        Err(Stopped::Run(e)) => Ok(Err(e)),
    }
}

/// `90s`, `10m`, `1h`, or plain seconds.
pub fn parse_duration(s: &str) -> Option<Duration> {
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let v: f64 = num.trim().parse().ok()?;
    let mul = match unit {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return None,
    };
    // `try_`: a finite number of hours can still overflow a Duration (`1e300h`).
    (v >= 0.0).then(|| Duration::try_from_secs_f64(v * mul).ok())?
}

/// Run (or resume) the campaign and print its statistics.
pub fn run(a: &FuzzArgs) -> CliResult {
    let time = match &a.time {
        Some(t) => {
            Some(parse_duration(t).ok_or_else(|| usage(format!("--time {t}: not a duration")))?)
        }
        None => None,
    };
    let mut knobs = generators::random::Knobs {
        statements: a.statements.max(1),
        depth: a.depth,
        temps: a.temps.clamp(1, 8),
        oob_indices: a.oob_indices,
        aimed: aimed(&a.ops, &a.entry)?,
        ..Default::default()
    };
    knobs.stages.clear();
    for s in a.stages.split(',') {
        let stage = dxbc::Stage::from_prefix(s.trim())
            .filter(|s| {
                matches!(
                    s,
                    dxbc::Stage::Pixel | dxbc::Stage::Vertex | dxbc::Stage::Compute
                )
            })
            .ok_or_else(|| usage(format!("--stages: `{s}` is not ps, vs or cs")))?;
        knobs.stages.push(stage);
    }
    let o = FuzzOptions {
        session: Settings {
            seed: a.seed,
            vectors: a.vectors.max(1),
            quiet: a.quiet,
            shard: a.place.shard,
            shader_model: a.model.shader_model,
            ..Settings::new(a.translator.build()?, a.place.executor.runner())
        },
        programs: a.programs.or(if time.is_none() { Some(100) } else { None }),
        time,
        out: a.out.clone(),
        shrink_time: Duration::try_from_secs_f64(a.shrink_time.clamp(0.0, 86_400.0))
            .unwrap_or_default(),
        knobs,
        guided: a.guided,
    };
    let workers = match a.place.workers() {
        Ok(w) => w,
        Err(e) => return failed(e.into()),
    };
    let mut writes = super::Writes::default();
    let st = if workers.is_empty() {
        match crate::fuzz::run(&o, &a.place.adapter) {
            Ok(st) => {
                writes.keep(super::parts::write_fuzz_report(&a.out, &st));
                st
            }
            Err(e) => return failed(e),
        }
    } else {
        a.place.shard()?;
        match spread(&o, &workers)? {
            Ok(st) => st,
            Err(e) => return failed(e),
        }
    };
    let rows: Vec<&str> = generators::random::rows()
        .iter()
        .map(|r| r.opcode.mnemonic())
        .collect();
    if let Some(junit) = &a.junit {
        writes.write(Some(junit), reports::fuzz::junit(&st).as_bytes());
    }
    print!("{}", reports::fuzz::summary(&st, &rows));
    writes.finish()?;
    Ok(if !st.divergences.is_empty() {
        ExitCode::from(1)
    } else if st.stats.counts.judged() == 0 {
        // `--programs 0` too: a campaign that compared nothing is not a pass.
        super::nothing_compared(&format!(
            "{} programs: {} rejected by the translator, {} crashed it, {} skipped",
            st.stats.programs, st.stats.rejected, st.stats.crashed, st.stats.skipped
        ))
    } else {
        ExitCode::SUCCESS
    })
}
