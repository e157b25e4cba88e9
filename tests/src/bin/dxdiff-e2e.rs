//! The `dxdiff` command line under the name the end-to-end tests run: the same
//! `harness::cli::main` as the shipped binary, built inside this package so that its tests can
//! find it (`CARGO_BIN_EXE_dxdiff-e2e`).

fn main() -> std::process::ExitCode {
    harness::cli::main()
}
