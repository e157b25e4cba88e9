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
