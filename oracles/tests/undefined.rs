//! Programs that rely on behaviour Direct3D leaves undefined: the interpreter flags the lanes
//! (`d3d-undefined`) and records a finding about the program, and a well-synchronised twin of
//! each program is not flagged.

use oracles::domain::Domain;
use oracles::interp::{
    Buffer, DEFAULT_BUDGET, DispatchResult, FindingKind, Resources, run_dispatch,
};

fn program(text: &str) -> dxbc::Program {
    dxbc::assemble(text)
        .expect("test program assembles")
        .program
}

fn uav(words: usize) -> Buffer {
    Buffer {
        words: vec![0; words],
        size_bytes: (words * 4) as u32,
        format: None,
        texture: None,
    }
}

fn dispatch(text: &str, words: usize, groups: u32) -> (DispatchResult, Vec<u32>) {
    let mut res = Resources::default();
    res.uavs.insert(0, uav(words));
    let r = run_dispatch(&program(text), &mut res, [groups, 1, 1], DEFAULT_BUDGET).expect("runs");
    (r, res.uavs[&0].words.clone())
}

fn undefined(r: &DispatchResult) -> bool {
    r.events & Domain::D3dUndefined.bit() != 0
}

fn kinds(r: &DispatchResult) -> Vec<FindingKind> {
    r.findings.iter().map(|f| f.kind).collect()
}

/// A compaction loop: every thread clears a TGSM word, ORs its bit in and reads the word back.
/// `{sync}` goes between the steps.
fn compaction(sync: &str) -> String {
    format!(
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_tgsm_raw g0, 4
dcl_thread_group 8, 1, 1
ishl r0.x, l(1), vThreadIDInGroupFlattened.x
mov r1.x, l(0)
loop
uge r1.y, r1.x, l(3)
breakc_nz r1.y
store_raw g0.x, l(0), l(0)
{sync}
atomic_or g0, l(0), r0.x
{sync}
ld_raw r2.x, l(0), g0.xxxx
{sync}
iadd r1.x, r1.x, l(1)
endloop
ishl r1.z, vThreadIDInGroupFlattened.x, l(2)
store_raw u0.x, r1.z, r2.x
ret
"
    )
}

#[test]
fn tgsm_compaction_without_barriers_races() {
    let (r, _) = dispatch(&compaction(""), 8, 1);
    assert!(undefined(&r));
    assert!(
        kinds(&r).contains(&FindingKind::TgsmRace),
        "{:?}",
        r.findings
    );
    let text = r.findings[0].to_string();
    assert!(text.starts_with("tgsm-race at instruction "), "{text}");
    assert!(text.contains("g0 byte 0"), "{text}");
}

#[test]
fn tgsm_compaction_with_barriers_is_clean() {
    let (r, words) = dispatch(&compaction("sync_g_t"), 8, 1);
    assert!(!undefined(&r), "{:?}", r.findings);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(words, vec![0xff; 8]);
}

/// A fence without the thread sync orders nothing between invocations.
#[test]
fn a_fence_without_thread_sync_is_no_barrier() {
    let (r, _) = dispatch(&compaction("sync_g"), 8, 1);
    assert!(
        kinds(&r).contains(&FindingKind::TgsmRace),
        "{:?}",
        r.findings
    );
}

/// Atomics from every invocation on one word, with no plain access by others: not a race.
#[test]
fn atomics_alone_do_not_race() {
    let (r, words) = dispatch(
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_tgsm_raw g0, 4
dcl_thread_group 16, 1, 1
imm_atomic_iadd r0.x, g0, l(0), l(1)
atomic_iadd u0, l(0), l(1)
ret
",
        1,
        2,
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert!(!undefined(&r));
    assert_eq!(words, vec![32]);
}

/// Invocation 0 stores a UAV word that the others read with no barrier between.
fn uav_publish(sync: &str) -> String {
    format!(
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 4, 1, 1
if_z vThreadIDInGroupFlattened.x
store_raw u0.x, l(0), l(7)
endif
{sync}
ld_raw r0.x, l(0), u0.xxxx
ishl r0.y, vThreadIDInGroupFlattened.x, l(2)
iadd r0.y, r0.y, l(4)
store_raw u0.x, r0.y, r0.x
ret
"
    )
}

#[test]
fn uav_race_within_a_group() {
    let (r, _) = dispatch(&uav_publish(""), 5, 1);
    assert!(undefined(&r));
    assert_eq!(kinds(&r), vec![FindingKind::UavRace], "{:?}", r.findings);
    let (r, words) = dispatch(&uav_publish("sync_ugroup_t"), 5, 1);
    assert!(!undefined(&r), "{:?}", r.findings);
    assert!(r.findings.is_empty());
    assert_eq!(words, vec![7; 5]);
}

/// Every invocation writes and reads back its own word: nothing is shared, nothing races.
#[test]
fn own_words_are_clean() {
    let (r, words) = dispatch(
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 8, 1, 1
ishl r0.x, vThreadID.x, l(2)
store_raw u0.x, r0.x, vThreadID.x
ld_raw r0.y, r0.x, u0.xxxx
iadd r0.y, r0.y, l(1)
store_raw u0.x, r0.x, r0.y
ret
",
        16,
        2,
    );
    assert!(!undefined(&r), "{:?}", r.findings);
    assert!(r.findings.is_empty());
    assert_eq!(words, (1..=16).collect::<Vec<u32>>());
}

/// The first invocation of each group stores its group id to one word: groups are never
/// ordered, so the final value is undefined. (One group alone is fine.)
#[test]
fn uav_stores_race_across_groups() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroupFlattened
dcl_thread_group 2, 1, 1
if_z vThreadIDInGroupFlattened.x
store_raw u0.x, l(0), vThreadGroupID.x
endif
ret
";
    let (r, _) = dispatch(text, 1, 1);
    assert!(!undefined(&r) && r.findings.is_empty(), "{:?}", r.findings);
    let (r, _) = dispatch(text, 1, 3);
    assert!(undefined(&r));
    assert_eq!(kinds(&r), vec![FindingKind::UavRace], "{:?}", r.findings);
    assert!(r.findings[0].detail.contains("group"), "{}", r.findings[0]);
}

fn lanes_of(text: &str, v0: &[u32], inputs: usize) -> oracles::interp::BatchResult {
    let inputs: Vec<Vec<[u32; 4]>> = v0
        .iter()
        .map(|&x| {
            let mut regs = vec![[0u32; 4]; inputs];
            regs[0] = [x, 0, 0, 0];
            for (r, reg) in regs.iter_mut().enumerate().skip(1) {
                *reg = [
                    r as u32 * 10,
                    r as u32 * 10 + 1,
                    r as u32 * 10 + 2,
                    r as u32 * 10 + 3,
                ];
            }
            regs
        })
        .collect();
    oracles::interp::run_invocations(
        &program(text),
        &mut Resources::default(),
        &inputs,
        DEFAULT_BUDGET,
    )
    .expect("runs")
}

fn lane_undefined(r: &oracles::interp::BatchResult, l: usize) -> bool {
    r.events[l] & Domain::D3dUndefined.bit() != 0
}

/// `v[r0.x + 1]` inside `dcl_indexrange v1 3` reads v1..v3; beyond it the read is undefined
/// (the interpreter reads 0).
#[test]
fn indexed_input_read_out_of_range() {
    let text = "vs_5_0
dcl_input v0.x
dcl_input v1.xyzw
dcl_input v2.xyzw
dcl_input v3.xyzw
dcl_input v4.xyzw
dcl_indexrange v1.xyzw 3
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, v0.x
mov o0.xyzw, v[r0.x + 1].xyzw
ret
";
    let r = lanes_of(text, &[0, 2, 3, u32::MAX], 5);
    assert_eq!(r.outputs_of(0), &[[10, 11, 12, 13]]);
    assert_eq!(r.outputs_of(1), &[[30, 31, 32, 33]]);
    // v4 exists but is outside the range: undefined, read as 0.
    assert_eq!(r.outputs_of(2), &[[0, 0, 0, 0]]);
    assert_eq!(r.outputs_of(3), &[[0, 0, 0, 0]]);
    assert!(!lane_undefined(&r, 0) && !lane_undefined(&r, 1));
    assert!(lane_undefined(&r, 2) && lane_undefined(&r, 3));
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    assert_eq!(r.findings[0].kind, FindingKind::IndexOutOfRange);
    assert!(
        r.findings[0]
            .to_string()
            .starts_with("index-out-of-range at instruction ")
    );
}

/// Without a range, the declared registers bound the index; in range nothing is flagged.
#[test]
fn indexed_input_in_range_is_clean() {
    let text = "vs_5_0
dcl_input v0.x
dcl_input v1.xyzw
dcl_input v2.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, v0.x
mov o0.xyzw, v[r0.x + 0].xyzw
ret
";
    let r = lanes_of(text, &[1, 2], 3);
    assert_eq!(r.outputs_of(1), &[[20, 21, 22, 23]]);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert!(!lane_undefined(&r, 0) && !lane_undefined(&r, 1));
    let r = lanes_of(text, &[3], 3);
    assert!(lane_undefined(&r, 0));
    assert_eq!(r.findings[0].kind, FindingKind::IndexOutOfRange);
}

/// `o[r0.x]` inside `dcl_indexrange o0 2` writes that output; beyond it the write is dropped.
#[test]
fn indexed_output_write_out_of_range() {
    let text = "ps_5_0
dcl_input_ps constant v0.x
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_indexrange o0.xyzw 2
dcl_temps 1
mov r0.x, v0.x
mov o0.xyzw, l(0, 0, 0, 0)
mov o1.xyzw, l(0, 0, 0, 0)
mov o2.xyzw, l(0, 0, 0, 0)
mov o[r0.x + 0].xyzw, l(1, 2, 3, 4)
ret
";
    let r = lanes_of(text, &[1, 2], 1);
    assert_eq!(r.outputs_of(0), &[[0; 4], [1, 2, 3, 4], [0; 4]]);
    assert_eq!(r.outputs_of(1), &[[0; 4], [0; 4], [0; 4]]);
    assert!(!lane_undefined(&r, 0));
    assert!(lane_undefined(&r, 1));
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    assert_eq!(r.findings[0].kind, FindingKind::IndexOutOfRange);
    assert!(r.findings[0].detail.contains("o[2]"), "{}", r.findings[0]);
}

/// An inactive lane's x# index is whatever its register holds; a flow instruction that reads
/// x# (here `discard_nz`) must not flag it, nor leave its events for the next instruction's
/// lanes (`dxdiff fuzz`'s generator tripped on this).
#[test]
fn an_inactive_lanes_index_is_not_undefined() {
    let text = "ps_5_0
dcl_input_ps constant v0.x
dcl_output o0.x
dcl_temps 1
dcl_indexableTemp x0[2], 4
mov x0[0].x, l(0)
mov x0[1].x, l(0)
mov r0.x, v0.x
if_z v0.x
discard_nz x0[r0.x + 0].x
endif
mov o0.x, l(1)
ret
";
    let r = lanes_of(text, &[0, 7], 1);
    assert!(!lane_undefined(&r, 0));
    assert!(!lane_undefined(&r, 1));
    // The same read in an active lane is undefined.
    let r = lanes_of(&text.replace("if_z v0.x", "if_nz v0.x"), &[0, 7], 1);
    assert!(!lane_undefined(&r, 0));
    assert!(lane_undefined(&r, 1));
}
