//! `--translator dxbc-spirv`: DXVK's DXBC compiler (dxbc-spirv) through naga. The library runs
//! in a driver of ours (`examples/translators/dxbc-spirv/`, C++, built with meson beside the
//! library), a persistent process that turns each container into SPIR-V and reports the
//! descriptor bindings the library asked for. `dxdiff dxbc-spirv-adapter` holds one driver,
//! applies the SPIR-V fix-ups naga needs ([`crate::spirv::fixup`]), and answers through the
//! `serve:` protocol, so a driver or naga that crashes takes one program and one child with it.
//!
//! Why a driver beside the library and not a linked library: dxdiff stays free of a C++
//! toolchain and of meson for everyone who does not test dxbc-spirv, and the library's
//! assertions abort a process, which must be a child's.

/// The adapter that `dxdiff dxbc-spirv-adapter` runs.
pub mod adapter;

use std::path::PathBuf;
use std::time::Duration;

use translator::Translation;

use super::{Failure, Part, Serve, Translator, crash};

/// The environment variable that names the driver when `--translator dxbc-spirv` does not.
pub const DRIVER_ENV: &str = "DXDIFF_DXBC_SPIRV_DRIVER";

/// The driver's file name, looked up on `PATH` when nothing else names it.
pub const DRIVER_NAME: &str = "dxbc-spirv-driver";

/// Why dxbc-spirv's route to WGSL produced nothing. Codes: `dxbc-spirv.dxbc`,
/// `dxbc-spirv.driver`, `dxbc-spirv.compile`, `dxbc-spirv.counters`, `dxbc-spirv.fixup`,
/// `dxbc-spirv.route`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DxbcSpirvError {
    /// The program does not parse as DXBC (dxdiff's parser, for the signatures).
    #[error("[{code}] {0}", code = .0.code())]
    Dxbc(dxbc::DxbcError),
    /// The driver cannot be started, or broke the framing.
    #[error("the dxbc-spirv driver failed: {0}")]
    Driver(String),
    /// The library refused the program; its log says why.
    #[error("dxbc-spirv cannot compile it: {0}")]
    Compile(String),
    /// The program declares a UAV counter (append/consume), which no manifest binding feeds.
    #[error("it uses a UAV counter (append/consume), which dxdiff's manifest has no binding for")]
    Counters,
    /// A SPIR-V fix-up refused the module.
    #[error("[{code}] {0}", code = .0.code())]
    Fixup(crate::spirv::fixup::FixupError),
    /// naga's share of the route failed.
    #[error("[{code}] {0}", code = .0.code())]
    Route(crate::spirv::RouteError),
}

impl DxbcSpirvError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            DxbcSpirvError::Dxbc(_) => "dxbc-spirv.dxbc",
            DxbcSpirvError::Driver(_) => "dxbc-spirv.driver",
            DxbcSpirvError::Compile(_) => "dxbc-spirv.compile",
            DxbcSpirvError::Counters => "dxbc-spirv.counters",
            DxbcSpirvError::Fixup(_) => "dxbc-spirv.fixup",
            DxbcSpirvError::Route(_) => "dxbc-spirv.route",
        }
    }
}

/// `--translator dxbc-spirv[:DRIVER]`: the adapter behind the `serve:` protocol, one per
/// worker.
#[derive(Debug)]
pub struct DxbcSpirv {
    /// The driver the adapters run.
    pub driver: PathBuf,
    serve: Serve,
}

impl DxbcSpirv {
    /// The route through `driver`; nothing starts until the first program.
    pub fn new(driver: PathBuf, timeout: Duration) -> DxbcSpirv {
        let exe = std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "dxdiff".into());
        let line = format!(
            "{} dxbc-spirv-adapter --driver {}",
            quote(&exe),
            quote(&driver.display().to_string())
        );
        DxbcSpirv {
            driver,
            serve: Serve::new(line, timeout),
        }
    }

    /// The driver `--translator dxbc-spirv` means: `$DXDIFF_DXBC_SPIRV_DRIVER`, else
    /// `dxbc-spirv-driver` on `PATH`.
    pub fn default_driver() -> PathBuf {
        if let Some(p) = std::env::var_os(DRIVER_ENV).filter(|p| !p.is_empty()) {
            return PathBuf::from(p);
        }
        std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|d| d.join(DRIVER_NAME))
            .find(|p| p.is_file())
            .unwrap_or_else(|| PathBuf::from(DRIVER_NAME))
    }
}

/// A word for `sh -c`, single-quoted.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

impl Translator for DxbcSpirv {
    fn name(&self) -> String {
        "dxbc-spirv".into()
    }

    fn translate(&self, blob: &[u8], shader: &dxbc::Shader) -> Result<Translation, Failure> {
        if !self.driver.is_file() {
            return Err(crash(
                format!(
                    "no dxbc-spirv driver at {} (build it with examples/translators/dxbc-spirv/build.sh, then name it with --translator dxbc-spirv:PATH or ${DRIVER_ENV})",
                    self.driver.display()
                ),
                &[],
            ));
        }
        self.serve.translate(blob, shader)
    }

    /// In process, over programs already known to compile: the driver's compilation (one
    /// persistent driver), the fix-ups, naga's share, and the whole route.
    fn parts(&self) -> Vec<Part<'_>> {
        adapter::parts(&self.driver)
    }
}
