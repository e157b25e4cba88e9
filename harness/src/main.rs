//! `dxdiff`: the command-line front end. Every command exits 0 on success and 2 on malformed input
//! or a usage error, with a message naming the offset; no input makes it panic.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "dxdiff",
    version,
    about = "Differential verification of DXBC -> WGSL translators"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a container's chunks, checksum, shader model, signatures and declarations.
    Info(cli::info::InfoArgs),
    /// Print assembly (exact by default; `--fxc` for fxc's own spelling).
    Disasm(cli::disasm::DisasmArgs),
    /// Assemble dxdiff's text or an fxc listing into a DXBC container.
    Asm(cli::asm::AsmArgs),
    /// The main job: every ALU opcode over edge-biased inputs, interpreter against GPU.
    Verify(cli::verify::VerifyArgs),
    /// Translate a program to WGSL with the built-in translator.
    Translate(cli::translate::TranslateArgs),
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
    /// Run case files and check their expectations.
    Replay(cli::replay::ReplayArgs),
    /// Print the adaptation catalog (`--json` for the full entries).
    Catalog(cli::catalog::CatalogArgs),
    /// Qualify a translator over a corpus; with `--baseline`, the transition since a record.
    Corpus(cli::corpus::CorpusArgs),
    /// Translation throughput of one or more translators, side by side.
    Bench(cli::bench::BenchArgs),
    /// A campaign of random programs; each distinct divergence shrunk and saved.
    Fuzz(cli::fuzz::FuzzArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Command::Info(a) => cli::info::run(&a),
        Command::Disasm(a) => cli::disasm::run(&a),
        Command::Asm(a) => cli::asm::run(&a),
        Command::Replay(a) => cli::replay::run(&a),
        Command::GpuWorker { adapter } => {
            return ExitCode::from(harness::gpu::isolated::serve(&adapter).clamp(0, 255) as u8);
        }
        Command::Vkd3dAdapter => {
            use std::io::Read;
            let mut blob = Vec::new();
            if std::io::stdin().read_to_end(&mut blob).is_err() {
                return ExitCode::from(2);
            }
            println!("{}", harness::vkd3d::adapter::answer(&blob));
            return ExitCode::SUCCESS;
        }
        Command::Translate(a) => cli::translate::run(&a),
        Command::Verify(a) => cli::verify::run(&a),
        Command::Catalog(a) => cli::catalog::run(&a),
        Command::Corpus(a) => cli::corpus::run(&a),
        Command::Bench(a) => cli::bench::run(&a),
        Command::Fuzz(a) => cli::fuzz::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("dxdiff: {e}");
            e.exit_code()
        }
    }
}
