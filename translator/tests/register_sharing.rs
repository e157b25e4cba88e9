//! A register named by immediate indices is resolved once per block and its loads are shared
//! there, and each block reads it itself: the arm of an `if` that first reads `cb0[0]`, and the
//! code after the `if` that reads it again, each load it. (That the cache never hands one block
//! what another made is checked where its key is built, `emit::operand`.)

use translator::{Profile, translate_blob};

const PROGRAM: &str = "ps_4_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 2
add r0.x, cb0[1].x, v0.x
mul r0.y, cb0[1].x, v0.y
lt r1.x, v0.x, l(0)
if_nz r1.x
  add r0.z, cb0[0].x, r0.y
else
  mov r0.z, l(0)
endif
add r0.w, cb0[0].x, r0.z
mov o0.xyzw, r0.xyzw
ret
";

/// The WGSL of `asm` under each profile (`translate_blob` validates the module with naga).
fn wgsl_per_profile(asm: &str) -> Vec<(Profile, String)> {
    let blob = dxbc::assemble_container(asm).expect("assembles").to_bytes();
    [Profile::Contract, Profile::Exact]
        .into_iter()
        .map(|p| (p, translate_blob(&blob, p).expect("translates").wgsl))
        .collect()
}

#[test]
fn a_register_is_read_once_per_block_and_never_across_blocks() {
    for (profile, w) in wgsl_per_profile(PROGRAM) {
        // Two reads of `cb0[1]` in one block share one load; `cb0[0]` is loaded in the arm and
        // again after the `if`.
        assert_eq!(w.matches("cb0_.v[1].x").count(), 1, "{profile}:\n{w}");
        assert_eq!(w.matches("cb0_.v[0].x").count(), 2, "{profile}:\n{w}");
    }
}

/// A register with a run-time index is fetched once for the instruction that reads it, not
/// once per component (D3D reads a source once), and fetched again by the next instruction (its
/// index register may have changed in between).
const RELATIVE: &str = "ps_4_0
dcl_constantbuffer cb0[8], dynamicIndexed
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 2
ftou r1.x, v0.x
dp4 r0.x, v0.xyzw, cb0[r1.x + 0].xyzw
iadd r1.x, r1.x, l(1)
dp4 r0.y, v0.xyzw, cb0[r1.x + 0].xyzw
mov r0.zw, cb0[r1.x + 2].zzzw
mov o0.xyzw, r0.xyzw
ret
";

#[test]
fn a_relatively_indexed_register_is_fetched_once_per_instruction() {
    for (profile, w) in wgsl_per_profile(RELATIVE) {
        let calls = w.matches("cb0_at(").count() - w.matches("fn cb0_at(").count();
        // Three instructions read a relatively indexed row: three fetches, where one per
        // component read was 4 + 4 + 2.
        assert_eq!(calls, 3, "{profile}:\n{w}");
    }
}
