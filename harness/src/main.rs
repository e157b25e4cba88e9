//! `dxdiff`: the command-line front end ([`harness::cli`]). Every command exits 0 on success and
//! 2 on malformed input or a usage error, with a message naming the offset; no input makes it
//! panic.

fn main() -> std::process::ExitCode {
    harness::cli::main()
}
