//! NaN payloads: D3D defines that float arithmetic gives *a* NaN, not which one, while moves
//! and bit ops copy bits. The interpreter flags output words (and UAV words) that hold a NaN a
//! payload-freeing op produced, carried through `mov`/`movc`/`swapc` and memory.

use oracles::interp::{
    BatchResult, Buffer, DEFAULT_BUDGET, Resources, frees_nan, run_dispatch, run_invocations,
};

const NAN: u32 = 0x7fc0_1234;

fn run(body: &str, lanes: &[[u32; 4]]) -> BatchResult {
    let text = format!(
        "vs_5_0
dcl_input v0.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 2
mov o0.xyzw, l(0, 0, 0, 0)
mov o1.xyzw, l(0, 0, 0, 0)
{body}
ret
"
    );
    let p = dxbc::assemble(&text).expect("assembles").program;
    let inputs: Vec<Vec<[u32; 4]>> = lanes.iter().map(|v| vec![*v]).collect();
    let r = run_invocations(&p, &mut Resources::default(), &inputs, DEFAULT_BUDGET).expect("runs");
    assert_eq!(r.free_nan.len(), r.outputs.len());
    r
}

/// The flags of lane `l`'s `o0` and `o1`.
fn flags(r: &BatchResult, l: usize) -> [[bool; 4]; 2] {
    [r.free_nan[2 * l], r.free_nan[2 * l + 1]]
}

#[test]
fn the_rule_per_op() {
    use dxbc::Opcode::*;
    for op in [
        Add,
        Mul,
        Mad,
        Div,
        Min,
        Max,
        Dp3,
        Sqrt,
        Rsq,
        Exp,
        Log,
        Frc,
        RoundNe,
        Dtof,
        DerivRtx,
        DerivRty,
        DerivRtxCoarse,
        DerivRtxFine,
        DerivRtyCoarse,
        DerivRtyFine,
    ] {
        assert!(frees_nan(op), "{op:?}");
    }
    for op in [
        Mov, Movc, Swapc, And, Or, Iadd, Itof, Ftoi, LdRaw, StoreRaw, Dmov, Eq,
    ] {
        assert!(!frees_nan(op), "{op:?}");
    }
}

#[test]
fn arithmetic_frees_moves_and_bit_ops_do_not() {
    let r = run(
        "add o0.x, v0.x, v0.y
mov o0.y, v0.x
and o0.z, v0.x, l(0xffffffff)
mul o0.w, v0.y, v0.y",
        &[[NAN, 0x3f80_0000, 0, 0]],
    );
    assert_eq!(r.outputs_of(0)[0][0] & 0x7f80_0000, 0x7f80_0000);
    // add of a NaN: free; mov and and copy the input's bits; 1*1 is no NaN.
    assert_eq!(flags(&r, 0)[0], [true, false, false, false]);
}

#[test]
fn a_freed_nan_keeps_its_flag_through_copies() {
    let r = run(
        "add r0.x, v0.x, l(1.0)
mov o0.x, r0.x
mov r1.yz, r0.xxxx
mov o0.yz, r1.yyzy
movc o0.w, v0.w, r0.x, v0.x
movc o1.x, v0.z, r0.x, v0.x
swapc o1.y, o1.z, v0.w, r0.x, v0.x
iadd r0.x, r0.x, l(0)
mov o1.w, r0.x",
        &[[NAN, 0, 0, 1]],
    );
    let f = flags(&r, 0);
    // movc picks r0.x (w = 1, free) or v0.x (z = 0, exact); swapc: o1.y = v0.x, o1.z = r0.x.
    assert_eq!(f[0], [true, true, true, true]);
    assert_eq!(f[1], [false, false, true, false], "iadd clears it");
}

/// A modifier or `_sat` makes a move a float op, which frees the payload.
#[test]
fn modifiers_free_the_payload() {
    let r = run("mov o0.x, -v0.x\nmov o0.y, |v0.x|", &[[NAN, 0, 0, 0]]);
    assert_eq!(flags(&r, 0)[0][..2], [true, true]);
}

/// Lanes are flagged one by one: in a batch that takes the fast path for most lanes, only the
/// lane with the NaN is flagged, and a later batch starts clean.
#[test]
fn per_lane_and_per_batch() {
    let mut lanes = vec![[0x3f80_0000, 0x4000_0000, 0, 0]; 1500];
    lanes[3][0] = NAN;
    let r = run("add o0.x, v0.x, v0.y", &lanes);
    for l in 0..lanes.len() {
        assert_eq!(flags(&r, l)[0][0], l == 3, "lane {l}");
    }
}

/// UAV words: a freed NaN stored directly or through TGSM is flagged; a NaN copied from memory
/// is not.
#[test]
fn uav_words() {
    let p = dxbc::assemble(
        "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_temps 2
dcl_tgsm_raw g0, 4
dcl_thread_group 1, 1, 1
ld_raw r0.x, l(0), u1.xxxx
add r0.y, r0.x, l(1.0)
store_raw u0.x, l(0), r0.y
store_raw u0.x, l(4), r0.x
store_raw g0.x, l(0), r0.y
sync_g_t
ld_raw r1.x, l(0), g0.xxxx
store_raw u0.x, l(8), r1.x
store_raw u0.x, l(12), r0.y
atomic_or u0, l(12), l(0)
ret
",
    )
    .expect("assembles")
    .program;
    let mut res = Resources::default();
    let buf = |words: Vec<u32>| Buffer {
        size_bytes: (words.len() * 4) as u32,
        words,
        format: None,
        texture: None,
    };
    res.uavs.insert(0, buf(vec![0; 4]));
    res.uavs.insert(1, buf(vec![NAN]));
    let r = run_dispatch(&p, &mut res, [2, 1, 1], DEFAULT_BUDGET).expect("runs");
    assert_eq!(r.free_nan[&0], vec![true, false, true, false]);
    assert_eq!(r.free_nan[&1], vec![false]);
}

/// An integer, bit or comparison op reading a freed NaN's bits makes a result D3D leaves
/// undefined: the lane is `nan-bits-read`. A float op on it, a float comparison, a copy and a
/// bit op on an input NaN (whose bits are defined) are not.
#[test]
fn bits_of_a_freed_nan_are_undefined_wherever_they_go() {
    use oracles::domain::Domain;
    let undefined = |body: &str| {
        let r = run(body, &[[NAN, 0x7fff_ffff, 0, 0]]);
        r.events[0] & Domain::NanBitsRead.bit() != 0
    };
    assert!(undefined("add r0.x, v0.x, l(1.0)\nand o0.x, r0.x, l(1)"));
    assert!(undefined("mov r0.x, |v0.y|\nand o0.x, r0.x, l(1)"));
    assert!(undefined(
        "round_ni r0.x, v0.x\nimul null, o0.x, r0.x, l(3)"
    ));
    assert!(undefined(
        "add r0.x, v0.x, l(1.0)\nmov r1.x, r0.x\nieq o0.x, r1.x, l(0x7fc00000)"
    ));
    assert!(undefined("add r0.x, v0.x, l(1.0)\nitof o0.x, r0.x"));
    assert!(!undefined("add r0.x, v0.x, l(1.0)\nmov o0.x, r0.x"));
    assert!(!undefined("add r0.x, v0.x, l(1.0)\neq o0.x, r0.x, r0.x"));
    assert!(!undefined("add r0.x, v0.x, l(1.0)\nftoi o0.x, r0.x"));
    assert!(!undefined("and o0.x, v0.x, l(1)"));
}

/// The selector of `switch` and the operands of atomics read bits too: a freed NaN there makes
/// the lane `nan-bits-read` (fuzzing iridia: lavapipe's NaN `0xffc00000` took another case, and
/// `atomic_iadd` of it stored another word).
#[test]
fn a_freed_nan_as_a_selector_or_an_atomic_operand_is_undefined() {
    use oracles::domain::Domain;
    let r = run(
        "rsq r0.x, v0.y
switch r0.x
case l(0x7fc00000)
mov o0.x, l(1)
break
default
mov o0.x, l(2)
break
endswitch",
        &[[0, 0xbf00_0000, 0, 0], [0, 0x3f80_0000, 0, 0]],
    );
    assert_ne!(r.events[0] & Domain::NanBitsRead.bit(), 0);
    assert_eq!(r.events[1] & Domain::NanBitsRead.bit(), 0);

    let text = "cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
mov r0.x, l(-0.5)
rsq r0.x, r0.x
atomic_iadd u0, l(0), r0.x
ret
";
    let p = dxbc::assemble(text).expect("assembles").program;
    let mut res = Resources::default();
    res.uavs.insert(
        0,
        Buffer {
            words: vec![1],
            size_bytes: 4,
            format: None,
            texture: None,
        },
    );
    let d = run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    assert_ne!(d.events & Domain::NanBitsRead.bit(), 0, "{:?}", d.events);
}
