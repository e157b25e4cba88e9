//! Source modifiers (`-`, `|x|`) on every instruction class that takes them (FS §22.18): a float
//! source flips or clears its sign, an integer source negates in two's complement, and a double
//! source flips the sign of the 64-bit value. A 32-bit source of a double op (`ftod`, `itod`,
//! `utod`) takes the modifier as its own type reads it: a real Windows driver showed `ftod` of
//! `-x` keeping the negation, which the interpreter used to drop.

use oracles::domain::{Domain, Events};
use oracles::interp::{Buffer, DEFAULT_BUDGET, Resources, run_dispatch, run_invocations};

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Double `x` as (low, high) words.
fn d(x: f64) -> [u32; 2] {
    let b = x.to_bits();
    [b as u32, (b >> 32) as u32]
}

/// Run `body` in a vertex program with inputs `v0..v2` (given) and outputs `o0`, `o1`; lane 0's
/// outputs and events.
fn run(body: &str, v: [[u32; 4]; 3]) -> (Vec<[u32; 4]>, Events) {
    let text = format!(
        "vs_5_0
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_input v2.xyzw
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
    let r = run_invocations(&p, &mut Resources::default(), &[v.to_vec()], DEFAULT_BUDGET)
        .expect("runs");
    (r.outputs_of(0).to_vec(), r.events[0])
}

const Z: [u32; 4] = [0; 4];

#[test]
fn float_alu() {
    let (o, _) = run(
        "add o0.x, -v0.x, |v0.y|
mul o0.y, -|v0.x|, v0.z
mad o0.z, -v0.x, v0.z, -v0.z
dp2 o0.w, -v0.xyxx, v0.zzzz
sqrt o1.x, |v0.y|
frc o1.y, -v0.w",
        [[f(1.0), f(-4.0), f(3.0), f(0.25)], Z, Z],
    );
    assert_eq!(o[0], [f(3.0), f(-3.0), f(-6.0), f(-3.0 * 1.0 + 3.0 * 4.0)]);
    assert_eq!(o[1][..2], [f(2.0), f(0.75)]);
}

#[test]
fn moves_and_selects() {
    let (o, _) = run(
        "mov o0.x, -v0.x
mov o0.y, |v0.y|
movc o0.z, v0.z, -v0.x, v0.y
movc o0.w, -v0.w, l(1), l(2)
swapc r0.x, r1.x, v0.z, -v0.x, |v0.y|
mov o1.xy, r0.xxxx
mov o1.y, r1.x",
        // v0.w = -0.0: an integer negate keeps it nonzero (a float one would clear it).
        [[f(2.0), f(-5.0), 1, 0x8000_0000], Z, Z],
    );
    assert_eq!(o[0], [f(-2.0), f(5.0), f(-2.0), 1]);
    assert_eq!(o[1][..2], [f(5.0), f(-2.0)]);
}

#[test]
fn integer_ops() {
    let (o, _) = run(
        "iadd o0.x, -v0.x, l(10)
imad o0.y, -v0.x, v0.y, l(1)
ishl o0.z, -v0.y, l(1)
and o0.w, -v0.y, l(0xff)
umax o1.x, -v0.x, l(0)",
        [[3, 4, 0, 0], Z, Z],
    );
    assert_eq!(o[0], [7, (-11i32) as u32, (-8i32) as u32, 0xfc]);
    assert_eq!(o[1][0], (-3i32) as u32);
}

#[test]
fn comparisons() {
    let (o, _) = run(
        "lt o0.x, -v0.x, l(0.0)
ge o0.y, -|v0.y|, l(0.0)
ilt o0.z, -v0.z, l(0)
ult o0.w, -v0.z, l(5)",
        [[f(1.0), f(-2.0), 3, 0], Z, Z],
    );
    assert_eq!(o[0], [u32::MAX, 0, u32::MAX, 0]);
}

#[test]
fn float_int_conversions() {
    let (o, _) = run(
        "ftoi o0.x, -v0.x
ftou o0.y, |v0.y|
itof o0.z, -v0.z
utof o0.w, -v0.w",
        [[f(1.5), f(-7.9), 3, 1], Z, Z],
    );
    assert_eq!(o[0], [(-1i32) as u32, 7, f(-3.0), f(4_294_967_296.0)]);
}

/// `ftod`, `itod` and `utod` read a 32-bit source: its modifier is a float or integer one.
#[test]
fn conversions_to_double() {
    let (o, _) = run(
        "ftod o0.xy, -v0.x
ftod o0.zw, |v0.y|
itod o1.xy, -v0.z
utod o1.zw, -v0.w",
        [[f(1.5), f(-2.0), 5, 1], Z, Z],
    );
    let cat = |a: [u32; 2], b: [u32; 2]| [a[0], a[1], b[0], b[1]];
    assert_eq!(o[0], cat(d(-1.5), d(2.0)), "ftod");
    assert_eq!(o[1], cat(d(-5.0), d(4_294_967_295.0)), "itod/utod");
}

/// Double sources: the modifier acts on the 64-bit value.
#[test]
fn double_ops_and_conversions_from_double() {
    let a = d(1.5);
    let b = d(-7.0);
    let (o, _) = run(
        "dadd o0.xy, -v1.xyxy, v1.zwzw
dtof o0.z, -v1.xy
dtoi o0.w, -v1.zw
dtou o1.x, |v1.zw|
dmov o1.zw, -v1.xyxy",
        [Z, [a[0], a[1], b[0], b[1]], Z],
    );
    let s = d(-7.0 - 1.5);
    assert_eq!(o[0], [s[0], s[1], f(-1.5), 7]);
    assert_eq!(o[1][0], 7);
    assert_eq!(o[1][2..], d(-1.5));
}

/// A modifier on a store's value is a float negate (the value is typeless).
#[test]
fn memory_values() {
    let p = dxbc::assemble(
        "cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
mov r0.x, l(2.0)
store_raw u0.xy, l(0), -r0.xxxx
ret
",
    )
    .expect("assembles")
    .program;
    let mut res = Resources::default();
    res.uavs.insert(
        0,
        Buffer {
            words: vec![0; 2],
            size_bytes: 8,
            format: None,
            texture: None,
        },
    );
    run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    assert_eq!(res.uavs[&0].words, vec![f(-2.0); 2]);
}

/// Literal-zero folding sees the modified value: `-x * 0` is `-0` in D3D for a positive x,
/// which a compiler folding to `+0` changes.
#[test]
fn folding_reads_modified_sources() {
    let (o, ev) = run("mul o0.x, -v0.x, l(0.0)", [[f(3.0), 0, 0, 0], Z, Z]);
    assert_eq!(o[0][0], 0x8000_0000);
    assert_ne!(ev & Domain::LiteralZeroFolded.bit(), 0);
    let (_, ev) = run("mul o0.x, v0.x, l(0.0)", [[f(3.0), 0, 0, 0], Z, Z]);
    assert_eq!(ev & Domain::LiteralZeroFolded.bit(), 0);
}
