//! Which implementation of WebGPU runs a translator's kernels (`--executor`), and opening it:
//! wgpu's isolated worker ([`crate::gpu`]) or a browser ([`crate::chrome`]). It sits above
//! both, so that neither needs the other: Chrome implements the GPU side's
//! [`KernelRunner`], and only this module chooses between them.

use crate::gpu::executor::KernelRunner;

/// Which implementation of WebGPU runs the translator's kernels (`--executor`).
#[derive(Debug, Clone, Default)]
pub enum Runner {
    /// wgpu and naga, through the isolated worker (`gpu`).
    #[default]
    Wgpu,
    /// Chrome's Dawn and Tint, in a browser dxdiff starts (`chrome`).
    Chrome(crate::chrome::ChromeOptions),
}

impl Runner {
    /// Open the runner on `adapter` (wgpu's adapter choice; the browser picks its own).
    pub fn open(&self, adapter: &str) -> Result<Box<dyn KernelRunner>, crate::gpu::GpuError> {
        Ok(match self {
            Runner::Wgpu => Box::new(crate::gpu::isolated::IsolatedGpu::new(adapter)?),
            Runner::Chrome(o) => Box::new(crate::chrome::Chrome::new(o.clone())?),
        })
    }
}
