//! Domains that `dxdiff contract` showed the interpreter did not raise: a saturated bit mover's
//! NaN and denormal, an immediate-constant-buffer index past the table, a vertex output that is
//! declared and never written, and a structured access whose byte offset overruns its
//! structure. Each lane that meets one enters the domain; its twin inside the rules does not.

use oracles::domain::{Domain, Events};
use oracles::interp::{Buffer, DEFAULT_BUDGET, Resources, run_dispatch, run_invocations};

fn vertex(decls_and_body: &str, v0: [u32; 4]) -> (Vec<[u32; 4]>, Events) {
    let text = format!("vs_5_0\ndcl_input v0.xyzw\n{decls_and_body}\nret\n");
    let p = dxbc::assemble(&text).expect("assembles").program;
    let r =
        run_invocations(&p, &mut Resources::default(), &[vec![v0]], DEFAULT_BUDGET).expect("runs");
    (r.outputs_of(0).to_vec(), r.events[0])
}

fn has(ev: Events, d: Domain) -> bool {
    ev & d.bit() != 0
}

const SAT: &str =
    "dcl_output o0.xyzw\ndcl_temps 1\nmovc_sat o0.xyzw, l(1, 1, 1, 1), v0.xyzw, v0.xyzw";

#[test]
fn a_saturated_mover_names_its_nan_and_denormal_inputs() {
    let (o, ev) = vertex(SAT, [0x7fc0_0000, 0, 0, 0]);
    assert_eq!(o[0][0], 0, "sat(NaN) is 0");
    assert!(has(ev, Domain::NanInput));
    let (o, ev) = vertex(SAT, [1, 0, 0, 0]);
    assert_eq!(o[0][0], 0, "sat(denormal) is +0");
    assert!(has(ev, Domain::DenormInputFlushed));
    let (o, ev) = vertex(SAT, [0x3f00_0000, 0, 0, 0]);
    assert_eq!(o[0][0], 0x3f00_0000);
    assert_eq!(ev, 0);
}

const ICB: &str = "dcl_immediateConstantBuffer { { 1, 2, 3, 4},\n { 5, 6, 7, 8} }\ndcl_output o0.xyzw\ndcl_temps 1\nmov r0.x, v0.x\nmov o0.xyzw, icb[r0.x + 0].xyzw";

#[test]
fn an_icb_index_past_the_table_reads_zero_and_enters_oob_read() {
    let (o, ev) = vertex(ICB, [1, 0, 0, 0]);
    assert_eq!(o[0], [5, 6, 7, 8]);
    assert!(!has(ev, Domain::OobRead));
    let (o, ev) = vertex(ICB, [2, 0, 0, 0]);
    assert_eq!(o[0], [0; 4]);
    assert!(has(ev, Domain::OobRead));
}

#[test]
fn a_declared_vertex_output_never_written_is_undefined() {
    let (_, ev) = vertex("dcl_output o0.xyzw\nmov o0.xy, v0.xyxx", [1, 2, 3, 4]);
    assert!(has(ev, Domain::D3dUndefined));
    let (_, ev) = vertex(
        "dcl_output o0.xy\ndcl_output o0.zw\nmov o0.xy, v0.xyxx\nmov o0.zw, v0.zzzw",
        [1, 2, 3, 4],
    );
    assert!(!has(ev, Domain::D3dUndefined));
}

fn structured(body: &str) -> Events {
    let text = format!(
        "cs_5_0\ndcl_uav_structured u0, 16\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n{body}\nret\n"
    );
    let p = dxbc::assemble(&text).expect("assembles").program;
    let mut res = Resources::default();
    res.uavs.insert(
        0,
        Buffer {
            words: (0..16).collect(),
            size_bytes: 64,
            format: None,
            texture: None,
        },
    );
    run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET)
        .expect("runs")
        .events
}

#[test]
fn a_structured_offset_past_its_structure_is_undefined() {
    let inside = structured("ld_structured r0.xy, l(1), l(8), u0.xyxx");
    assert!(!has(inside, Domain::D3dUndefined));
    for overrun in [
        "ld_structured r0.xy, l(1), l(12), u0.xyxx",
        "ld_structured r0.x, l(1), l(14), u0.xxxx",
        "store_structured u0.xy, l(0), l(12), l(1, 2, 0, 0)",
    ] {
        assert!(has(structured(overrun), Domain::D3dUndefined), "{overrun}");
    }
}

#[test]
fn sm51_programs_are_refused_not_misread() {
    let text = "ps_5_1\ndcl_constantbuffer CB0[0:3][4], immediateIndexed, space=0\ndcl_output o0.xyzw\nmov o0.xyzw, CB0[2][1].xyzw\nret\n";
    let p = dxbc::assemble(text).expect("assembles").program;
    let e = run_invocations(&p, &mut Resources::default(), &[vec![]], DEFAULT_BUDGET)
        .expect_err("refused");
    assert!(e.to_string().contains("5.1"), "{e}");
}
