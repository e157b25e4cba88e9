//! The wgpu executor: runs a translator's WGSL on a real GPU (Vulkan: the NVIDIA driver on a
//! GPU machine, lavapipe on CPU-only ones) and reads results back as raw 32-bit words.
//!
//! One device per run, created with the adapter's own limits; compute pipelines cached by WGSL
//! text; every creation inside error scopes, so a shader the driver rejects is an error value,
//! never a panic. Compute programs run directly; pixel and vertex programs are wrapped into
//! compute kernels (`wrap`); `isolated` runs all of it in a child process.

use std::collections::BTreeMap;
use std::time::Duration;

mod bound;
mod builtins;
mod device;
mod draw;
mod enables;
pub mod executor;
pub mod isolated;
pub mod kernel;
pub mod plan;
mod sampled;
pub mod storage;
pub mod wire;
pub mod wrap;

pub use device::{Gpu, device_names};

pub use draw::COVER as COVER_WGSL;
pub use enables::{directive_enables, webgpu_feature};
pub use sampled::{
    SamplerState, TextureShape, fill_wgsl, format_name as texel_format_name, wgpu_format,
};

/// The device limits a plan is checked against (and a storage texture's width): here, below
/// both `plan` and `storage`, so neither needs the other for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most bind groups a pipeline may use.
    pub bind_groups: u32,
    /// Widest 1D texture.
    pub texture_1d: u32,
    /// Widest 2D texture.
    pub texture_2d: u32,
}

/// Why GPU work did not produce results. Codes: `gpu.no-adapter`, `gpu.device`,
/// `gpu.validation`, `gpu.unfeedable`, `gpu.feature`, `gpu.timeout`, `gpu.device-lost`; the isolated worker
/// sends the code over its pipe ([`GpuError::from_wire`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// No adapter matched the `--adapter` request.
    #[error("no usable GPU adapter: {0}")]
    NoAdapter(String),
    /// The device, or the worker that opens it, did not start (or a request was unreadable).
    #[error("device creation failed: {0}")]
    Device(String),
    /// wgpu or the driver rejected the WGSL module or the pipeline.
    #[error("the device rejected the module or pipeline: {0}")]
    Validation(String),
    /// The program needs a binding kind the executor cannot supply yet.
    #[error("the program cannot be fed: {0}")]
    Unfeedable(String),
    /// The module enables a WGSL extension whose feature the device does not grant.
    #[error("the device lacks a feature the module needs: {0}")]
    Feature(String),
    /// A dispatch (or the worker's whole answer) ran past its time limit.
    #[error("the GPU did not finish within {0:?}")]
    Timeout(Duration),
    /// The device (or the worker process holding it) went away mid-request.
    #[error("device lost: {0}")]
    DeviceLost(String),
}

impl GpuError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            GpuError::NoAdapter(_) => "gpu.no-adapter",
            GpuError::Device(_) => "gpu.device",
            GpuError::Validation(_) => "gpu.validation",
            GpuError::Unfeedable(_) => "gpu.unfeedable",
            GpuError::Feature(_) => "gpu.feature",
            GpuError::Timeout(_) => "gpu.timeout",
            GpuError::DeviceLost(_) => "gpu.device-lost",
        }
    }

    /// What the error carries, as text: the message, or a timeout's milliseconds.
    pub fn detail(&self) -> String {
        match self {
            GpuError::NoAdapter(m)
            | GpuError::Device(m)
            | GpuError::Validation(m)
            | GpuError::Unfeedable(m)
            | GpuError::Feature(m)
            | GpuError::DeviceLost(m) => m.clone(),
            GpuError::Timeout(d) => d.as_millis().to_string(),
        }
    }

    /// The error a [`code`](Self::code) and [`detail`](Self::detail) came from. An unknown code
    /// (a worker of another version) is a lost device: the request did not complete.
    pub fn from_wire(code: &str, detail: String) -> GpuError {
        match code {
            "gpu.no-adapter" => GpuError::NoAdapter(detail),
            "gpu.device" => GpuError::Device(detail),
            "gpu.validation" => GpuError::Validation(detail),
            "gpu.unfeedable" => GpuError::Unfeedable(detail),
            "gpu.feature" => GpuError::Feature(detail),
            "gpu.timeout" => GpuError::Timeout(Duration::from_millis(detail.parse().unwrap_or(0))),
            _ => GpuError::DeviceLost(detail),
        }
    }
}

/// Inputs of one compute dispatch, by DXBC register.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ComputeInputs {
    /// Constant buffers' words.
    pub cbs: BTreeMap<u32, Vec<u32>>,
    /// SRV buffers: words and view size in bytes.
    pub srvs: BTreeMap<u32, (Vec<u32>, u32)>,
    /// UAV buffers: initial words and view size in bytes.
    pub uavs: BTreeMap<u32, (Vec<u32>, u32)>,
    /// The element of each typed SRV and UAV (its format; `R32_UINT` when not listed): how
    /// words map to the slots of a storage texture or a `storage-vec4-u32-array`.
    pub elements: BTreeMap<(BindingClass, u32), storage::Element>,
    /// Sampled 2D textures and arrays by `t#` register: their shape, and every mip level's
    /// texels (four words each, row-major), level after level, each level layer after layer.
    #[serde(default)]
    pub textures: BTreeMap<u32, (TextureShape, Vec<u32>)>,
    /// Sampler states by `s#` register.
    #[serde(default)]
    pub samplers: BTreeMap<u32, SamplerState>,
    /// The shape of each typed UAV texture by `u#` register (one level); its texels are its
    /// `uavs` words.
    #[serde(default)]
    pub uav_textures: BTreeMap<u32, TextureShape>,
    /// Hidden counters' initial counts by `u#` register (0 when absent).
    #[serde(default)]
    pub counters: BTreeMap<u32, u32>,
}

/// Which register file a typed element's register is in.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum BindingClass {
    /// `t#`.
    Srv,
    /// `u#`.
    Uav,
}

/// Per-invocation data of a wrapped pixel/vertex kernel, bound in its own group.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Records {
    /// The bind group these buffers take (`wrap::Wrapped::records_group`): one the
    /// translator's module leaves free.
    pub group: u32,
    /// Input records (binding 0).
    pub input: Vec<u32>,
    /// Length in words of the output records (binding 1).
    pub out_words: u32,
    /// Further read-only word buffers at bindings 2, 3, …: per-invocation copies of constant
    /// buffers (`wrap::Wrapped::lane_uniforms`).
    pub lane_buffers: Vec<Vec<u32>>,
    /// For a fragment kernel (`wrap::Kernel::Quads`): the grid of pixels to draw, width and
    /// height; the entry point is then a fragment one and the dispatch a draw.
    pub grid: Option<[u32; 2]>,
}

/// Seconds one request spent in each phase, so a run can say where its GPU time went.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Phases {
    /// Shader module (cache miss only), layouts, pipeline and bind groups.
    pub pipeline: f64,
    /// Creating and filling the buffers.
    pub upload: f64,
    /// Encoding, submitting and waiting for the GPU (dispatch and the copies to staging).
    pub dispatch: f64,
    /// Mapping the staging buffers and reading the words out.
    pub readback: f64,
    /// Moving the request and its answer between dxdiff and the worker (filled in by the
    /// client: the round trip less the phases above).
    pub transfer: f64,
    /// Whole requests that failed (timeouts, crashes, rejected modules), measured by the client.
    pub failed: f64,
}

impl Phases {
    /// Accumulate another request's phases into these.
    pub fn add(&mut self, o: &Phases) {
        self.pipeline += o.pipeline;
        self.upload += o.upload;
        self.dispatch += o.dispatch;
        self.readback += o.readback;
        self.transfer += o.transfer;
        self.failed += o.failed;
    }

    /// The phases as (name, seconds), in pipeline order.
    pub fn named(&self) -> [(&'static str, f64); 6] {
        [
            ("pipeline", self.pipeline),
            ("upload", self.upload),
            ("dispatch", self.dispatch),
            ("readback", self.readback),
            ("transfer", self.transfer),
            ("failed", self.failed),
        ]
    }

    /// The seconds spent inside the worker (everything but `transfer` and `failed`).
    pub fn worker_total(&self) -> f64 {
        self.pipeline + self.upload + self.dispatch + self.readback
    }
}

/// A kernel's results: every UAV's words by register, the output records if any, and where
/// the time went.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelOutput {
    /// Every UAV's words after the dispatch, by register.
    pub uavs: BTreeMap<u32, Vec<u32>>,
    /// The output records of a wrapped kernel; `None` for a plain compute program.
    pub records: Option<Vec<u32>>,
    /// Where this request's time went.
    pub phases: Phases,
}
