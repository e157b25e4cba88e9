//! Compute semantics with more than one invocation per group: barrier-separated TGSM exchange,
//! atomics from many invocations, and structured-buffer out-of-bounds reads and writes.

use oracles::domain::Domain;
use oracles::interp::{Buffer, DEFAULT_BUDGET, Resources, run_dispatch};

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

/// Each invocation writes its id to TGSM, waits at the barrier, then reads its neighbour's slot
/// (which another invocation wrote): only correct if every write lands before any read.
#[test]
fn tgsm_exchange_across_a_barrier() {
    let p = program(
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 256
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
imul null, r0.y, vThreadIDInGroupFlattened.x, l(3)
store_raw g0.x, r0.x, r0.y
sync_g_t
iadd r1.x, vThreadIDInGroupFlattened.x, l(1)
and r1.x, r1.x, l(63)
ishl r1.x, r1.x, l(2)
ld_raw r1.y, r1.x, g0.xxxx
store_raw u0.x, r0.x, r1.y
ret
",
    );
    let mut res = Resources::default();
    res.uavs.insert(0, uav(64));
    run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    let out = &res.uavs[&0].words;
    for i in 0..64u32 {
        assert_eq!(out[i as usize], ((i + 1) % 64) * 3, "invocation {i}");
    }
}

/// 4 groups of 32 invocations each add their id to one UAV word and to a TGSM counter; the
/// returned old values of `imm_atomic_iadd` on TGSM are a permutation of 0..32 per group.
#[test]
fn atomics_from_many_invocations() {
    let p = program(
        "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_tgsm_raw g0, 4
dcl_thread_group 32, 1, 1
atomic_iadd u0, l(0), vThreadID.x
imm_atomic_iadd r0.x, g0, l(0), l(1)
ishl r0.y, vThreadID.x, l(2)
store_raw u1.x, r0.y, r0.x
atomic_umax u0, l(4), vThreadID.x
ret
",
    );
    let mut res = Resources::default();
    res.uavs.insert(0, uav(2));
    res.uavs.insert(1, uav(128));
    run_dispatch(&p, &mut res, [4, 1, 1], DEFAULT_BUDGET).expect("runs");
    assert_eq!(res.uavs[&0].words[0], (0..128).sum::<u32>());
    assert_eq!(res.uavs[&0].words[1], 127);
    for g in 0..4 {
        let mut olds: Vec<u32> = res.uavs[&1].words[g * 32..g * 32 + 32].to_vec();
        olds.sort_unstable();
        assert_eq!(olds, (0..32).collect::<Vec<_>>(), "group {g}");
    }
}

/// A structured UAV of 4 elements of 8 bytes: element indices 4..8 are out of bounds, so their
/// reads give 0 and their writes are dropped (FS §22.4.12-13), and the lanes record the events.
#[test]
fn structured_out_of_bounds_reads_and_writes() {
    let p = program(
        "cs_5_0
dcl_uav_structured u0, 8
dcl_uav_raw u1
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 8, 1, 1
ld_structured r0.x, vThreadIDInGroupFlattened.x, l(4), u0.xxxx
iadd r0.x, r0.x, l(100)
store_structured u0.x, vThreadIDInGroupFlattened.x, l(0), r0.x
ishl r0.y, vThreadIDInGroupFlattened.x, l(2)
store_raw u1.x, r0.y, r0.x
ret
",
    );
    let mut res = Resources::default();
    res.uavs.insert(
        0,
        Buffer {
            words: vec![0, 10, 0, 11, 0, 12, 0, 13],
            size_bytes: 32,
            format: None,
            texture: None,
        },
    );
    res.uavs.insert(1, uav(8));
    let r = run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    assert_eq!(res.uavs[&0].words, vec![110, 10, 111, 11, 112, 12, 113, 13]);
    assert_eq!(
        res.uavs[&1].words,
        vec![110, 111, 112, 113, 100, 100, 100, 100]
    );
    assert!(r.events & Domain::OobRead.bit() != 0);
    assert!(r.events & Domain::OobWrite.bit() != 0);
}

/// A loop that never ends is cut off by the budget instead of hanging.
#[test]
fn runaway_loop_is_inconclusive() {
    let p = program(
        "cs_5_0
dcl_temps 1
dcl_thread_group 1, 1, 1
mov r0.x, l(0)
loop
  iadd r0.x, r0.x, l(1)
endloop
ret
",
    );
    let mut res = Resources::default();
    let e = run_dispatch(&p, &mut res, [1, 1, 1], 10_000).expect_err("budget ends it");
    assert_eq!(e.code(), "interp.budget");
}

/// Invocations that store different values to one UAV word race: D3D leaves the winner
/// undefined, so the dispatch enters `d3d-undefined`. Storing the same value is no race.
#[test]
fn racing_uav_stores_are_undefined() {
    let run = |value: &str| {
        let p = program(&format!(
            "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_thread_group 8, 1, 1
store_raw u0.x, l(0), {value}
ret
"
        ));
        let mut res = Resources::default();
        res.uavs.insert(0, uav(4));
        run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET)
            .expect("runs")
            .events
    };
    let undefined = Domain::D3dUndefined.bit();
    assert_ne!(run("vThreadIDInGroupFlattened.x") & undefined, 0);
    assert_eq!(run("l(7)") & undefined, 0);
}

/// The budget covers the whole dispatch: a legal 65535^3 dispatch (from a vkd3d test) is
/// inconclusive at once instead of running for days, and groups share what is left.
#[test]
fn the_budget_covers_the_whole_dispatch() {
    let p = dxbc::assemble(
        "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nmov r0.x, l(1)\nret\n",
    )
    .expect("assembles")
    .program;
    let mut res = oracles::interp::Resources::default();
    let err = oracles::interp::run_dispatch(&p, &mut res, [65535, 65535, 65535], 1 << 22)
        .expect_err("over budget");
    assert!(matches!(
        err,
        oracles::interp::InterpError::BudgetExceeded { .. }
    ));
    // Groups share one budget: 100 groups of a few instructions each fit in 2^22, not in 100
    // (which passes the up-front check of one instruction per group).
    assert!(oracles::interp::run_dispatch(&p, &mut res, [100, 1, 1], 1 << 22).is_ok());
    assert!(oracles::interp::run_dispatch(&p, &mut res, [100, 1, 1], 100).is_err());
    assert!(oracles::interp::run_dispatch(&p, &mut res, [1, 1, 1], 100).is_ok());
}
