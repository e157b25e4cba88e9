//! The evidence behind the catalog entry `dxdiff/lavapipe-loop-limit`: a minimal WGSL kernel
//! whose loop runs 70,000 times. llvmpipe stops it after 65,535 iterations; any other adapter
//! must count all of them. When this test fails on llvmpipe, the defect is fixed and the entry
//! (and the interpreter's `long-loop` domain) can go.

use crate::support::*;

use harness::gpu::{ComputeInputs, Gpu, GpuError};

const KERNEL: &str = r#"
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main() {
    let n = out[1];
    var i = 0u;
    loop {
        if (i >= n) { break; }
        i = i + 1u;
    }
    out[0] = i;
}
"#;

#[test]
fn a_loop_of_70000_trips() {
    let _turn = gpu_turn();
    let mut gpu = match Gpu::new("auto") {
        Ok(g) => g,
        Err(GpuError::NoAdapter(why)) => {
            eprintln!("skipped: {why}");
            return;
        }
        Err(e) => panic!("device: {e}"),
    };
    let manifest = one_uav_manifest();
    let mut inputs = ComputeInputs::default();
    inputs.uavs.insert(0, (vec![0, 70_000], 8));
    let got = gpu
        .run_compute(KERNEL, &manifest, &inputs, [1, 1, 1])
        .expect("runs");
    let trips = got[&0][0];
    let llvmpipe = oracles::catalog::catalog()
        .get("dxdiff/lavapipe-loop-limit")
        .expect("the entry exists")
        .applies(&[], &gpu.info.name);
    eprintln!("{}: {trips} trips", gpu.info.name);
    assert_eq!(trips, if llvmpipe { 65_535 } else { 70_000 });
}
