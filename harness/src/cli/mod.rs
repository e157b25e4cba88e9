//! The `dxdiff` command line ([`main`]): one module per subcommand, plus the input and error
//! plumbing they share. Both `dxdiff` and the end-to-end tests' `dxdiff-e2e` are this function.

pub mod asm;
pub mod bench;
pub mod catalog;
pub mod contract;
pub mod corpus;
pub mod diff;
pub mod disasm;
pub mod fuzz;
pub mod info;
pub mod merge;
mod parts;
pub mod replay;
pub mod sweep;
pub mod translate;
pub mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Why a command failed, and which exit code that means (docs/case-format.md's contract).
/// Codes: `cli.io`, `cli.dxbc`, `cli.input`.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file (or stdout) could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file, or `<stdout>`.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A program's container or token stream does not parse.
    #[error("{path}: [{}] {source}", source.code())]
    Dxbc {
        /// The file the program came from.
        path: PathBuf,
        /// The parser's error, with its own code.
        source: dxbc::DxbcError,
    },
    /// Anything else wrong with an input: a malformed case file, a bad argument.
    #[error("{path}: {what}")]
    Input {
        /// The file, or `<arguments>` for a usage error.
        path: PathBuf,
        /// What is wrong, for the user.
        what: String,
    },
}

/// The exit code of a run that compared nothing: every program was skipped or rejected, or
/// nothing could be generated. It is not a pass (docs/harness.md).
pub const NOTHING_COMPARED: u8 = 5;

/// Say why a run could not use its device (no usable adapter, or a device error before the
/// first program) and give exit 4, docs/case-format.md's code for it.
pub(crate) fn no_device(e: &crate::gpu::GpuError) -> ExitCode {
    match e {
        crate::gpu::GpuError::NoAdapter(why) => eprintln!("dxdiff: no usable GPU adapter: {why}"),
        e => eprintln!("dxdiff: {e}"),
    }
    ExitCode::from(4)
}

/// Warn that a run compared no lane, saying why, and give [`NOTHING_COMPARED`].
pub(crate) fn nothing_compared(why: &str) -> ExitCode {
    eprintln!(
        "dxdiff: warning: no lane was compared: {why}; a run that compares nothing is not a pass (exit {NOTHING_COMPARED})"
    );
    ExitCode::from(NOTHING_COMPARED)
}

impl From<reports::folder::FolderError> for CliError {
    fn from(e: reports::folder::FolderError) -> CliError {
        CliError::Io {
            path: e.path,
            source: e.source,
        }
    }
}

impl CliError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            CliError::Io { .. } => "cli.io",
            CliError::Dxbc { .. } => "cli.dxbc",
            CliError::Input { .. } => "cli.input",
        }
    }

    /// The process exit code for this error: 2, an input or usage error (docs/case-format.md).
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(2)
    }
}

/// What a subcommand's `run` returns: the exit code it chose, or the error that ends it.
pub type CliResult = Result<ExitCode, CliError>;

/// A clap parser for a count within `lo..=hi`: every number from the command line that sizes
/// an allocation is bounded before anything is allocated.
pub fn bounded(lo: usize, hi: usize) -> impl Fn(&str) -> Result<usize, String> + Clone {
    let within = bounded_u64(lo as u64, hi as u64);
    // Inside `lo..=hi`, so it fits a `usize`.
    move |s: &str| within(s).map(|n| n as usize)
}

/// A value parser for a whole number of `u64` inside `lo..=hi` (a time limit beyond a day
/// would overflow the deadlines computed from it).
pub fn bounded_u64(lo: u64, hi: u64) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |s: &str| {
        let n: u64 = s
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a whole number"))?;
        if (lo..=hi).contains(&n) {
            Ok(n)
        } else {
            Err(format!("{n} is outside {lo}..={hi}"))
        }
    }
}

/// A usage error (exit 2).
pub fn usage(what: String) -> CliError {
    CliError::Input {
        path: PathBuf::from("<arguments>"),
        what,
    }
}

/// The options that choose the translator under test.
#[derive(Debug, Clone, clap::Args)]
pub struct TranslatorArgs {
    /// `builtin`, `vkd3d` (vkd3d-shader, its SPIR-V through naga; docs/vkd3d.md),
    /// `dxbc-spirv[:DRIVER]` (DXVK's compiler through naga, the driver built by
    /// examples/translators/dxbc-spirv/build.sh; docs/dxbc-spirv.md), `cmd:<command line>` (an external translator run once per program: DXBC on stdin, JSON
    /// on stdout), or `serve:<command line>` (one that stays up: a request per line on stdin,
    /// an answer per line on stdout; docs/translators.md).
    #[arg(long, default_value = "builtin")]
    pub translator: String,
    /// `contract` (the seed's lowering, the default) or `exact` (D3D-exact polyfills), for the
    /// built-in translator.
    #[arg(long, default_value = "contract")]
    pub profile: String,
    /// Seconds an external translator gets per program (1 to 86,400).
    #[arg(long, default_value_t = 30, value_parser = bounded_u64(1, 86_400))]
    pub translator_timeout: u64,
}

impl TranslatorArgs {
    /// The translator these options name; an unknown name or profile is a usage error.
    pub fn build(&self) -> Result<crate::translators::Shared, CliError> {
        crate::translators::parse(
            &self.translator,
            &self.profile,
            std::time::Duration::from_secs(self.translator_timeout.max(1)),
        )
        .map_err(|e| usage(e.to_string()))
    }
}

/// The Shader Model dxdiff writes the programs it generates for.
#[derive(Debug, Clone, clap::Args)]
pub struct ModelArgs {
    /// `4.0`, `4.1` or `5.0`: the Shader Model of the pixel and vertex programs dxdiff writes
    /// (its built-in programs, random programs, the contract's families), as fxc writes the
    /// same HLSL for that profile. A program that needs a later model is left out (said on
    /// stderr); compute programs stay 5.0. Default 5.0, what fxc writes for the D3D11
    /// profiles (docs/harness.md, "Shader model").
    #[arg(long = "shader-model", default_value = "5.0", value_parser = parse_model)]
    pub shader_model: dxbc::TargetModel,
}

fn parse_model(s: &str) -> Result<dxbc::TargetModel, String> {
    dxbc::TargetModel::parse(s).ok_or_else(|| format!("`{s}` is not 4.0, 4.1 or 5.0"))
}

/// How dxdiff starts the browser for `--executor chrome` (docs/chrome.md).
#[derive(Debug, Clone, clap::Args)]
pub struct ChromeArgs {
    /// The browser binary; default: `$CHROME`, else `chromium` on PATH.
    #[arg(long)]
    pub chrome: Option<PathBuf>,
    /// A further browser flag (repeatable). `--chrome-flag=--use-webgpu-adapter=default`
    /// uses a real GPU instead of SwiftShader.
    #[arg(long = "chrome-flag", allow_hyphen_values = true)]
    pub chrome_flags: Vec<String>,
    /// Seconds one job may run in the browser before its GPU process is killed (1 to 86,400).
    #[arg(long, default_value_t = 30, value_parser = bounded_u64(1, 86_400))]
    pub chrome_timeout: u64,
}

impl ChromeArgs {
    /// The browser options these flags give.
    pub fn options(&self) -> crate::chrome::ChromeOptions {
        crate::chrome::ChromeOptions {
            binary: self.chrome.clone(),
            flags: self.chrome_flags.clone(),
            timeout: std::time::Duration::from_secs(self.chrome_timeout.max(1)),
        }
    }
}

/// Which WebGPU implementation runs the translator's WGSL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Candidate {
    /// wgpu and naga on Vulkan (a real GPU, or lavapipe).
    Gpu,
    /// Chrome's Dawn and Tint, in a headless browser dxdiff starts.
    Chrome,
}

/// `--executor` with the browser's options, for the commands that compare against the GPU.
#[derive(Debug, Clone, clap::Args)]
pub struct ExecutorArgs {
    /// `gpu` (wgpu) or `chrome` (the browser's WebGPU).
    #[arg(long, value_enum, default_value = "gpu")]
    pub executor: Candidate,
    /// The browser's options, used with `chrome`.
    #[command(flatten)]
    pub chrome: ChromeArgs,
}

impl ExecutorArgs {
    /// The runner these options choose.
    pub fn runner(&self) -> crate::runner::Runner {
        match self.executor {
            Candidate::Gpu => crate::runner::Runner::Wgpu,
            Candidate::Chrome => crate::runner::Runner::Chrome(self.chrome.options()),
        }
    }
}

/// Where a run's work goes: the adapter, the executor (with the browser's options), workers per
/// device and the shard. One struct for every command that places work on devices (`verify`,
/// `fuzz`, `sweep`, `corpus --verify`), as [`TranslatorArgs`] is for the translator.
#[derive(Debug, Clone, clap::Args)]
pub struct PlacementArgs {
    /// `auto` (a real GPU first, lavapipe otherwise), a substring of the adapter's name, `#k`
    /// (the k-th GPU), or `all`: every GPU of the host, one worker and one shard of the run
    /// each (campaigns keep them in `OUT/shards/`), merged into the one-device result.
    #[arg(long, default_value = "auto")]
    pub adapter: String,
    /// `--executor` and the browser's options.
    #[command(flatten)]
    pub executor: ExecutorArgs,
    /// Workers per device (the help text is [`crate::spread::JOBS_HELP`]); unset: see
    /// [`PlacementArgs::jobs`].
    #[arg(long, help = crate::spread::JOBS_HELP,
          value_parser = bounded(1, crate::spread::MAX_JOBS))]
    pub jobs: Option<usize>,
    /// Run only shard K of N (0 <= K < N): every N-th unit of the run's own order, from the
    /// K-th (a program; a fuzz campaign's program index; a sweep's chunk of 2^22 inputs of
    /// each op; for `corpus`, a program in name order); `dxdiff merge` puts the shards back
    /// together.
    #[arg(long)]
    pub shard: Option<reports::shard::Shard>,
}

impl PlacementArgs {
    /// Workers per device: `--jobs` as given; without it one, except where the command
    /// chooses from the machine (`machine`: `verify`), which takes one per core up to four
    /// ([`crate::spread::machine_jobs`]). A run given `--shard` is one worker unless `--jobs`
    /// says otherwise.
    pub fn jobs(&self, machine: bool) -> usize {
        match self.jobs {
            Some(j) => j,
            None if machine && self.shard.is_none() => crate::spread::machine_jobs(),
            None => 1,
        }
    }

    /// The shard, refused where `--adapter all` or `--jobs` above 1 make their own shards.
    pub fn shard(&self) -> Result<Option<reports::shard::Shard>, CliError> {
        if (self.adapter == crate::spread::ALL || self.jobs(false) > 1) && self.shard.is_some() {
            return Err(usage(crate::spread::NO_SHARD.into()));
        }
        Ok(self.shard)
    }

    /// The workers to spread over (none: one worker on `adapter`), with `--jobs` as given or
    /// one.
    pub fn workers(&self) -> Result<Vec<String>, crate::gpu::GpuError> {
        crate::spread::workers(&self.adapter, self.jobs(false))
    }
}

/// A `map_err` adapter: a parse error in the program read from `path`.
pub fn dxbc_err(path: &Path) -> impl Fn(dxbc::DxbcError) -> CliError + '_ {
    move |source| CliError::Dxbc {
        path: path.to_path_buf(),
        source,
    }
}

/// A program to show (`info`, `disasm`): decoded whole, a validation finding printed as a
/// warning rather than refused, so a program the run would refuse can still be read.
pub fn decode_to_show(path: &Path, blob: &[u8]) -> Result<dxbc::Shader, CliError> {
    let shader = dxbc::Shader::decode(blob).map_err(dxbc_err(path))?;
    if let Err(e) = shader.program.validate() {
        eprintln!(
            "dxdiff: warning: {}: the program would be refused where it runs or translates: [{}] {e}",
            path.display(),
            e.code()
        );
    }
    Ok(shader)
}

/// An input that could not be read (bounded: `dxbc::MAX_INPUT_BYTES`).
pub fn read_err(e: dxbc::ReadError) -> CliError {
    match e {
        dxbc::ReadError::Io { path, source } => CliError::Io { path, source },
        other => CliError::Input {
            path: other.path().to_path_buf(),
            what: format!("[{}] {other}", other.code()),
        },
    }
}

/// Read a program: a raw DXBC container, or a `dxdiff-case/1` JSON file (its `dxbc` field).
pub fn read_blob(path: &Path) -> Result<Vec<u8>, CliError> {
    let bytes = dxbc::read_file(path).map_err(read_err)?;
    // A case file may start with white space; a container starts with `DXBC`.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        let input = |what: String| CliError::Input {
            path: path.to_path_buf(),
            what,
        };
        return case_of(path, &bytes)?.blob().map_err(input);
    }
    Ok(bytes)
}

/// A case file, read within the input size limit. Non-UTF-8 text names the byte; a JSON or
/// schema error names the line, the column and the field.
pub fn read_case(path: &Path) -> Result<oracles::case::CaseFile, CliError> {
    let bytes = dxbc::read_file(path).map_err(read_err)?;
    case_of(path, &bytes)
}

fn case_of(path: &Path, bytes: &[u8]) -> Result<oracles::case::CaseFile, CliError> {
    let input = |what: String| CliError::Input {
        path: path.to_path_buf(),
        what,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        input(format!(
            "not UTF-8: byte {} is not part of a valid UTF-8 sequence",
            e.valid_up_to()
        ))
    })?;
    oracles::case::CaseFile::parse(text).map_err(|e| input(format!("not a case file: {e}")))
}

/// Every output of a command attempted, the first failure kept for the end: a full disk costs
/// the file it hit, not the others, and never the summary printed after them.
#[derive(Debug, Default)]
pub(crate) struct Writes(Option<CliError>);

impl Writes {
    /// Write `bytes` to `out` ([`write_output`]), keeping the failure.
    pub(crate) fn write(&mut self, out: Option<&Path>, bytes: &[u8]) {
        self.keep(write_output(out, bytes));
    }

    /// Keep `r`'s failure, if it is the first.
    pub(crate) fn keep(&mut self, r: Result<(), CliError>) {
        if let Err(e) = r {
            self.0.get_or_insert(e);
        }
    }

    /// The first failure, once everything was attempted and printed.
    pub(crate) fn finish(self) -> Result<(), CliError> {
        self.0.map_or(Ok(()), Err)
    }
}

/// A text file a user or a shard names (a baseline, a shard's state), read through the bounded
/// reader and parsed; either failure names the path.
pub(crate) fn read_parsed<T, E: std::fmt::Display>(
    path: &Path,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<T, CliError> {
    let input = |what: String| CliError::Input {
        path: path.to_path_buf(),
        what,
    };
    let text = crate::files::read_text(path).map_err(|e| input(format!("[{}] {e}", e.code())))?;
    parse(&text).map_err(|e| input(e.to_string()))
}

/// Write to `-o OUT`, or stdout.
pub fn write_output(out: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    match out {
        // Whole or not at all: a full disk leaves the old file, never half a new one.
        Some(p) => crate::outdir::write_atomic(p, bytes).map_err(|source| CliError::Io {
            path: p.to_path_buf(),
            source,
        }),
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|source| CliError::Io {
                path: PathBuf::from("<stdout>"),
                source,
            }),
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "dxdiff",
    version = crate::VERSION,
    about = "Differential verification of DXBC -> WGSL translators"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a container's chunks, checksum, shader model, signatures and declarations.
    Info(self::info::InfoArgs),
    /// Print assembly (exact by default; `--fxc` for fxc's own spelling).
    Disasm(self::disasm::DisasmArgs),
    /// Assemble dxdiff's text or an fxc listing into a DXBC container.
    Asm(self::asm::AsmArgs),
    /// The main job: every ALU opcode over edge-biased inputs, interpreter against GPU.
    Verify(self::verify::VerifyArgs),
    /// One property per seed-contract entry, checked on the GPU: the translator's
    /// conformance map against the contract.
    Contract(self::contract::ContractArgs),
    /// Translate a program to WGSL with the translator under test (the built-in one by default,
    /// `vkd3d`, or an external `cmd:` translator).
    Translate(self::translate::TranslateArgs),
    /// Internal: the child process that owns the GPU device (one JSON request per line).
    #[command(hide = true)]
    GpuWorker {
        #[arg(long, default_value = "auto")]
        adapter: String,
    },
    /// Internal: `--translator vkd3d` behind the external-translator protocol (DXBC on stdin,
    /// one JSON answer on stdout), in a child so that a crash in vkd3d or naga stays there.
    #[command(hide = true)]
    Vkd3dAdapter,
    /// Internal: `--translator dxbc-spirv` behind the `serve:` protocol: one driver, its
    /// SPIR-V through the fix-ups and naga, one JSON answer per request line.
    #[command(hide = true)]
    DxbcSpirvAdapter {
        #[arg(long)]
        driver: std::path::PathBuf,
    },
    /// Internal: runs one external translator (`sh -c LINE`) as a child subreaper, kills
    /// whatever it leaves behind, and answers with its framed output (translators::guard).
    #[command(hide = true)]
    TranslatorGuard {
        #[arg(long)]
        timeout_ms: u64,
        /// Relay: the translator stays up with the guard's own pipes (`serve:`).
        #[arg(long)]
        serve: bool,
        #[arg(last = true)]
        line: String,
    },
    /// Run case files and check their expectations.
    Replay(self::replay::ReplayArgs),
    /// Print the adaptation catalog (`--json` for the full entries).
    Catalog(self::catalog::CatalogArgs),
    /// Qualify a translator over a corpus; with `--baseline`, the transition since a record.
    Corpus(self::corpus::CorpusArgs),
    /// Translation throughput of one or more translators, side by side.
    Bench(self::bench::BenchArgs),
    /// A campaign of random programs; each distinct divergence shrunk and saved.
    Fuzz(self::fuzz::FuzzArgs),
    /// Every 32-bit input of one-source ops in a range, interpreter against GPU.
    Sweep(self::sweep::SweepArgs),
    /// Put the reports of a run's shards (`--shard K/N`) back together.
    Merge(self::merge::MergeArgs),
    /// What a translator change did: two `verify` runs on one seed (the baseline build's and
    /// the change's) compared program by program; exit 1 only on a regression.
    Diff(self::diff::DiffArgs),
}

/// The `dxdiff` command line: parse the arguments, run the command, map its result to the exit
/// code of docs/case-format.md.
pub fn main() -> ExitCode {
    // A closed pipe (`dxdiff verify | true`) or a full device (`> /dev/full`) makes `print!`
    // panic; that is an output error, said in one line, not a dxdiff bug with a backtrace. The
    // reports are written before anything is printed, so nothing measured is lost.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !output_failure(info.payload()) {
            default_hook(info);
        }
    }));
    let args = Args::parse();
    // The hidden child processes handle their own signals (the translator guard) or die with
    // their parent; every command a user runs cleans up what it started when stopped.
    if !matches!(
        args.command,
        Command::GpuWorker { .. }
            | Command::TranslatorGuard { .. }
            | Command::Vkd3dAdapter
            | Command::DxbcSpirvAdapter { .. }
    ) {
        crate::lifetime::install();
    }
    match std::panic::catch_unwind(|| run_command(args)) {
        Ok(code) => code,
        Err(payload) if output_failure(payload.as_ref()) => {
            let why = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            // stderr may be the closed one too: nothing more to do then.
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("dxdiff: cannot write the output: {why}\n").as_bytes(),
            );
            crate::translators::wgsl::shutdown();
            ExitCode::from(2)
        }
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// Whether a panic is `print!` failing on stdout or stderr.
fn output_failure(payload: &(dyn std::any::Any + Send)) -> bool {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    text.starts_with("failed printing to std")
}

fn run_command(args: Args) -> ExitCode {
    let result = match args.command {
        Command::Info(a) => self::info::run(&a),
        Command::Disasm(a) => self::disasm::run(&a),
        Command::Asm(a) => self::asm::run(&a),
        Command::Replay(a) => self::replay::run(&a),
        Command::Diff(a) => self::diff::run(&a),
        Command::GpuWorker { adapter } => {
            return ExitCode::from(crate::gpu::isolated::serve(&adapter).clamp(0, 255) as u8);
        }
        Command::TranslatorGuard {
            timeout_ms,
            serve,
            line,
        } => {
            let code = if serve {
                crate::translators::guard::relay(&line)
            } else {
                crate::translators::guard::serve(
                    &line,
                    std::time::Duration::from_millis(timeout_ms),
                )
            };
            return ExitCode::from(code.clamp(0, 255) as u8);
        }
        Command::Vkd3dAdapter => {
            use std::io::Read;
            let mut blob = Vec::new();
            if std::io::stdin().read_to_end(&mut blob).is_err() {
                return ExitCode::from(2);
            }
            println!("{}", crate::translators::vkd3d::adapter::answer(&blob));
            return ExitCode::SUCCESS;
        }
        Command::DxbcSpirvAdapter { driver } => {
            let code = crate::translators::dxbc_spirv::adapter::serve(&driver);
            return ExitCode::from(code.clamp(0, 255) as u8);
        }
        Command::Translate(a) => self::translate::run(&a),
        Command::Verify(a) => self::verify::run(&a),
        Command::Contract(a) => self::contract::run(&a),
        Command::Catalog(a) => self::catalog::run(&a),
        Command::Corpus(a) => self::corpus::run(&a),
        Command::Bench(a) => self::bench::run(&a),
        Command::Fuzz(a) => self::fuzz::run(&a),
        Command::Sweep(a) => self::sweep::run(&a),
        Command::Merge(a) => self::merge::run(&a),
    };
    // A browser started to ask Tint about a module goes with the command.
    crate::translators::wgsl::shutdown();
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("dxdiff: {e}");
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn cli_error_codes_are_distinct_and_not_empty() {
        let path = PathBuf::from("x");
        let all = [
            CliError::Io {
                path: path.clone(),
                source: std::io::Error::other("e"),
            },
            CliError::Dxbc {
                path: path.clone(),
                source: dxbc::DxbcError::MissingChunk { tag: "SHEX".into() },
            },
            usage("w".into()),
        ];
        let codes: std::collections::BTreeSet<_> = all.iter().map(CliError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| !c.is_empty()));
    }
}

#[cfg(test)]
mod placement_tests {
    use super::*;

    fn placement(line: &[&str]) -> PlacementArgs {
        match Args::try_parse_from(line).expect("parses").command {
            Command::Verify(a) => a.place,
            Command::Fuzz(a) => a.place,
            other => panic!("not verify or fuzz: {other:?}"),
        }
    }

    /// `verify` without `--jobs` takes one worker per core up to four; `--jobs` as given wins;
    /// `--shard` alone keeps one (so it is never refused for a default it did not ask for);
    /// other commands default to one.
    #[test]
    fn verify_chooses_its_workers_from_the_machine_and_the_rest_take_one() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(
            placement(&["dxdiff", "verify"]).jobs(true),
            cores.clamp(1, 4)
        );
        assert_eq!(
            placement(&["dxdiff", "verify", "--jobs", "3"]).jobs(true),
            3
        );
        let sharded = placement(&["dxdiff", "verify", "--shard", "1/4"]);
        assert_eq!(sharded.jobs(true), 1);
        assert!(sharded.shard().is_ok());
        assert!(
            placement(&["dxdiff", "verify", "--shard", "1/4", "--jobs", "2"])
                .shard()
                .is_err()
        );
        assert_eq!(placement(&["dxdiff", "fuzz"]).jobs(false), 1);
    }
}
