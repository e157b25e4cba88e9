//! Compute programs on a real Vulkan device (lavapipe where there is no GPU): the translated
//! WGSL must produce the same UAV words as the reference interpreter.

use crate::support::*;

use std::collections::BTreeMap;

use harness::gpu::{ComputeInputs, Gpu, GpuError};
use oracles::interp::{Buffer, DEFAULT_BUDGET, Resources, run_dispatch};
use translator::{Profile, translate};

fn gpu() -> Option<Gpu> {
    match Gpu::new("auto") {
        Ok(g) => Some(g),
        Err(GpuError::NoAdapter(why)) => {
            eprintln!("skipped: {why}");
            None
        }
        Err(e) => panic!("device: {e}"),
    }
}

/// Interpreter and GPU on the same program and UAV contents.
fn both(gpu: &mut Gpu, asm: &str, uavs: &[(u32, Vec<u32>)], groups: [u32; 3], profile: Profile) {
    let container = dxbc::assemble_container(asm).expect("assembles");
    let shader = dxbc::Shader::parse(&container.to_bytes()).expect("parses");
    let t = translate(&shader, profile).expect("translates");
    let mut res = Resources::default();
    let mut inputs = ComputeInputs::default();
    for (slot, words) in uavs {
        let size = (words.len() * 4) as u32;
        res.uavs.insert(
            *slot,
            Buffer {
                words: words.clone(),
                size_bytes: size,
                format: None,
                texture: None,
            },
        );
        inputs.uavs.insert(*slot, (words.clone(), size));
    }
    run_dispatch(&shader.program, &mut res, groups, DEFAULT_BUDGET).expect("interprets");
    let got = gpu
        .run_compute(&t.wgsl, &t.manifest, &inputs, groups)
        .expect("runs on the GPU");
    let want: BTreeMap<u32, Vec<u32>> = res.uavs.into_iter().map(|(k, b)| (k, b.words)).collect();
    assert_eq!(got, want, "{profile}:\n{}", t.wgsl);
}

#[test]
fn tgsm_reduction_and_atomics_match_the_interpreter() {
    let _turn = gpu_turn();
    let Some(mut gpu) = gpu() else { return };
    eprintln!("adapter: {} ({:?})", gpu.info.name, gpu.info.device_type);
    let asm = include_str!("../../../examples/shaders/tgsm_reduce.asm");
    let input: Vec<u32> = (0..256).map(|i| i * 7 + 1).collect();
    for profile in [Profile::Contract, Profile::Exact] {
        both(
            &mut gpu,
            asm,
            &[(0, input.clone()), (1, vec![0; 4])],
            [4, 1, 1],
            profile,
        );
    }
}

#[test]
fn integer_edges_match_the_interpreter() {
    let _turn = gpu_turn();
    let Some(mut gpu) = gpu() else { return };
    // udiv by zero, shifts past 31, bitfields with masked widths, firstbit, imul high halves,
    // out-of-range structured reads and writes.
    let asm = "cs_5_0
dcl_uav_raw u0
dcl_uav_structured u1, 8
dcl_input vThreadID.x
dcl_temps 3
dcl_thread_group 8, 1, 1
ishl r0.x, vThreadID.x, l(5)
ld_raw r1.xyzw, r0.x, u0.xyzw
udiv r2.x, r2.y, r1.x, r1.y
ishl r2.z, r1.x, r1.y
ishr r2.w, r1.z, r1.y
store_raw u0.xyzw, r0.x, r2.xyzw
ubfe r2.x, r1.y, r1.z, r1.x
ibfe r2.y, r1.y, r1.z, r1.w
bfi r2.z, r1.y, r1.z, r1.x, r1.w
firstbit_hi r2.w, r1.w
iadd r0.y, r0.x, l(16)
store_raw u0.xyzw, r0.y, r2.xyzw
imul r2.x, r2.y, r1.z, r1.w
umul r2.z, r2.w, r1.z, r1.w
ld_structured r0.zw, vThreadID.x, l(0), u1.xxxy
store_structured u1.xy, vThreadID.x, l(0), r2.xzxx
ret
";
    let mut u0 = Vec::new();
    let edges = [
        0u32,
        1,
        31,
        32,
        33,
        0x8000_0000,
        0xffff_ffff,
        0x7fff_ffff,
        12345,
        0xdead_beef,
        5,
        64,
    ];
    for i in 0..8 {
        for k in 0..8 {
            u0.push(edges[(i * 3 + k * 5) % edges.len()]);
        }
    }
    let u1: Vec<u32> = (0..10).collect();
    for profile in [Profile::Contract, Profile::Exact] {
        both(
            &mut gpu,
            asm,
            &[(0, u0.clone()), (1, u1.clone())],
            [1, 1, 1],
            profile,
        );
    }
}

/// The exact profile is bit-exact with D3D on float edges (NaN, ±0, denormals, ±inf, overflow)
/// for the ops it polyfills, whatever the device does with denormals.
#[test]
fn exact_profile_float_edges_match_the_interpreter() {
    let _turn = gpu_turn();
    let Some(mut gpu) = gpu() else { return };
    let asm = "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadID.x
dcl_temps 3
dcl_thread_group 16, 1, 1
ishl r0.x, vThreadID.x, l(3)
ld_raw r1.xy, r0.x, u0.xyxx
add r2.x, r1.x, r1.y
mul r2.y, r1.x, r1.y
mad r2.z, r1.x, r1.y, r1.x
min r2.w, r1.x, r1.y
ishl r0.y, vThreadID.x, l(6)
store_raw u1.xyzw, r0.y, r2.xyzw
max r2.x, r1.x, r1.y
ftoi r2.y, r1.x
ftou r2.z, r1.y
f32tof16 r2.w, r1.x
iadd r0.z, r0.y, l(16)
store_raw u1.xyzw, r0.z, r2.xyzw
f16tof32 r2.x, r1.y
round_ne r2.y, r1.x
frc r2.z, r1.y
mov_sat r2.w, r1.x
iadd r0.z, r0.y, l(32)
store_raw u1.xyzw, r0.z, r2.xyzw
lt r2.x, r1.x, r1.y
ne r2.y, r1.x, r1.y
ge r2.z, r1.x, r1.y
eq r2.w, r1.x, r1.y
iadd r0.z, r0.y, l(48)
store_raw u1.xyzw, r0.z, r2.xyzw
ret
";
    let edges = [
        0u32,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0001,
        0x4f00_0000,
        0x4f80_0000,
        0xcf00_0001,
        0x477f_e000,
        0x4780_0000,
        0x3f00_0000,
        0xbeff_ffff,
        0x0000_3c00,
        0x0000_0001,
        0x0000_7c01,
    ];
    let mut u0 = Vec::new();
    for i in 0..32 {
        u0.push(edges[i % edges.len()]);
        u0.push(edges[(i * 7 + 3) % edges.len()]);
    }
    both(
        &mut gpu,
        asm,
        &[(0, u0), (1, vec![0; 16 * 16])],
        [2, 1, 1],
        Profile::Exact,
    );
}
