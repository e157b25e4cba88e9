//! Pixel and vertex programs through the case-file path: inputs in `v#`, discard, control flow,
//! indexable temps, the immediate constant buffer, typed buffers, texture loads, sampling and
//! `resinfo`. Each test is a `dxdiff-case/1` document built here, as a user would write one.

use oracles::case::CaseFile;
use oracles::interp::DEFAULT_BUDGET;
use oracles::replay::{RunOutcome, replay_interp};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Build a case from assembly and the JSON of its runs, replay it, and require every run to pass.
fn check(asm: &str, runs: &str) {
    let blob = dxbc::assemble_container(asm).expect("assembles").to_bytes();
    let json = format!(
        r#"{{"format": "dxdiff-case/1", "name": "t", "dxbc": "{}", "runs": {runs}}}"#,
        hex(&blob)
    );
    let case = CaseFile::parse(&json).expect("case parses");
    for (id, outcome) in replay_interp(&case, DEFAULT_BUDGET) {
        assert_eq!(outcome, RunOutcome::Passed, "run {id}");
    }
}

fn f(v: f32) -> String {
    format!("\"0x{:08x}\"", v.to_bits())
}

#[test]
fn pixel_inputs_discard_and_flow() {
    let asm = "ps_5_0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 2
lt r0.x, v0.x, l(0.0)
discard_nz r0.x
mov r1.xyzw, l(0, 0, 0, 0)
mov r0.y, l(0)
loop
  uge r0.z, r0.y, l(5)
  breakc_nz r0.z
  iadd r0.y, r0.y, l(1)
  ieq r0.w, r0.y, l(2)
  continuec_nz r0.w
  iadd r1.x, r1.x, r0.y
endloop
switch r1.x
  case l(13)
  iadd r1.y, r1.y, l(1)
  case l(14)
  iadd r1.y, r1.y, l(10)
  break
  default
  mov r1.y, l(99)
  break
endswitch
add r1.z, v0.x, v0.y
mov o0.xyzw, r1.xyzw
ret
";
    // 1+3+4+5 = 13: case 13 falls through into 14.
    let runs = format!(
        r#"[
        {{"id": "kept", "inputs": {{"v0": [{}, {}, "0x0", "0x0"]}},
          "expect": {{"o0": {{"words": ["0x0000000d", "0x0000000b", {}, "0x00000000"], "compare": "bits"}},
                      "discarded": false}}}},
        {{"id": "discarded", "inputs": {{"v0": [{}, "0x0", "0x0", "0x0"]}},
          "expect": {{"discarded": true}}}}
    ]"#,
        f(1.5),
        f(2.0),
        f(3.5),
        f(-1.0)
    );
    check(asm, &runs);
}

#[test]
fn indexable_temps_and_immediate_constant_buffer() {
    let asm = "vs_5_0
dcl_immediateConstantBuffer { { 10, 0, 0, 0},
                              { 20, 0, 0, 0},
                              { 30, 0, 0, 0} }
dcl_input v0.x
dcl_output o0.xyzw
dcl_temps 1
dcl_indexableTemp x0[4], 4
mov x0[0].x, l(1)
mov x0[1].x, l(2)
mov x0[2].x, l(3)
mov x0[3].x, l(4)
mov r0.x, v0.x
mov r0.y, x0[r0.x + 1].x
mov r0.z, icb[r0.x + 0].x
mov r0.w, icb[r0.x + 7].x
mov o0.xyzw, r0.xyzw
ret
";
    // v0.x = 1: x0[2] = 3, icb[1] = 20, icb[8] is out of range and reads 0.
    let runs = r#"[{"id": "a", "inputs": {"v0": ["0x1", "0x0", "0x0", "0x0"]},
        "expect": {"o0": {"words": ["0x1", "0x3", "0x14", "0x0"], "compare": "bits"}}}]"#;
    check(asm, runs);
}

#[test]
fn typed_buffer_and_texture_loads() {
    let asm = "ps_5_0
dcl_resource_buffer (uint,uint,uint,uint) t0
dcl_resource_texture2d (float,float,float,float) t1
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
ld r0.xyzw, l(1, 0, 0, 0), t0.xyzw
mov o0.x, r0.x
ld r0.xyzw, l(7, 0, 0, 0), t0.xyzw
mov o0.y, r0.x
mov o0.z, r0.w
ld r0.xyzw, l(1, 1, 0, 0), t1.xyzw
mov o1.xy, r0.xyxx
ld r0.xyzw, l(0, 0, 0, 1), t1.zyxw
mov o1.zw, r0.xxxw
ret
";
    let tex = format!(
        r#"{{"texture2d": {{"width": 2, "height": 2, "format": "R32G32B32A32_FLOAT", "mips": [
            [{a}, {a}, {a}, {a},  {a}, {a}, {a}, {a},  {a}, {a}, {a}, {a},  {b}, {c}, {a}, {a}],
            [{c}, {a}, {b}, {a}]]}}}}"#,
        a = f(0.0),
        b = f(0.25),
        c = f(0.75)
    );
    let runs = format!(
        r#"[{{"id": "a", "inputs": {{
            "t0": {{"size_bytes": 16, "words": ["0x5", "0x6", "0x7", "0x8"], "format": "R32_UINT"}},
            "t1": {tex}}},
            "expect": {{"o0": {{"words": ["0x6", "0x0", "0x1", "0x0"], "compare": "bits"}},
                        "o1": {{"words": [{b}, {c}, {b}, {a}], "compare": "bits"}}}}}}]"#,
        a = f(0.0),
        b = f(0.25),
        c = f(0.75)
    );
    check(asm, &runs);
}

#[test]
fn point_and_linear_sampling_and_resinfo() {
    let asm = "ps_5_0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 1
sample r0.xyzw, v0.xyxx, t0.xyzw, s0
mov o0.x, r0.x
sample_l r0.xyzw, v0.xyxx, t0.xyzw, s1, l(0.0)
mov o0.y, r0.x
resinfo_uint r0.xyzw, l(0), t0.xyzw
mov o0.z, r0.x
resinfo r0.xyzw, l(5), t0.xyzw
mov o0.w, r0.w
ret
";
    // A 2x1 R32_FLOAT texture (0, 1). At u = 0.5 the sample sits on the texel boundary: point
    // takes texel 1, linear blends both halves.
    let runs = format!(
        r#"[{{"id": "a", "inputs": {{
            "v0": [{half}, {half}, "0x0", "0x0"],
            "t0": {{"texture2d": {{"width": 2, "height": 1, "format": "R32_FLOAT", "mips": [[{zero}, {one}]]}}}},
            "s0": {{"filter": "point", "address": ["clamp", "clamp", "clamp"]}},
            "s1": {{"filter": "linear", "address": ["clamp", "clamp", "clamp"]}}}},
            "expect": {{"o0": {{"words": [{one}, {half}, "0x2", {one}], "compare": "bits"}}}}}}]"#,
        half = f(0.5),
        zero = f(0.0),
        one = f(1.0)
    );
    check(asm, &runs);
}

#[test]
fn special_pixel_registers_are_named_as_fxc_names_them() {
    // vCoverage is v32, oDepth (and its conservative forms) o32, oMask o33
    // (`dxbc::OperandType::special_register`); case files name them as fxc does.
    let asm = "ps_5_0
dcl_input_ps linear v0.xy
dcl_input vCoverage
dcl_output o0.xyzw
dcl_output oDepthGE
dcl_output oMask
mov o0.xyzw, v0.xyxy
mul oDepthGE, v0.x, l(0.5)
and oMask, vCoverage.x, l(5)
ret
";
    let runs = format!(
        r#"[{{"id": "a", "inputs": {{"v0": [{}, {}, "0x0", "0x0"], "vCoverage": ["0x7", "0x0", "0x0", "0x0"]}},
            "expect": {{"oDepth": {{"words": [{}, "0x0", "0x0", "0x0"], "compare": "bits"}},
                        "oMask": {{"words": ["0x5", "0x0", "0x0", "0x0"], "compare": "bits"}}}}}}]"#,
        f(3.0),
        f(1.0),
        f(1.5)
    );
    check(asm, &runs);
}

#[test]
fn gather4_po_offsets_by_the_low_six_bits_of_a_register() {
    // A 5x1 R32_FLOAT texture (0, 1, 2, 3, 4) gathered at u = 0.2 (between texels 0 and 1),
    // then offset by x = 0x41 (1 in its low six bits) and by x = 0x3f (−1), wrapping: x and y
    // of the gather are the footprint's left and right texels of the row below (v wraps to
    // it). Five texels, so that the unmasked offsets (65 and 63) land elsewhere.
    let asm = "ps_5_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 1
gather4_po r0.xyzw, v0.xyxx, l(0x41, 0, 0, 0), t0.xyzw, s0.x
mov o0.xy, r0.xyxx
gather4_po r0.xyzw, v0.xyxx, l(0x3f, 0, 0, 0), t0.xyzw, s0.x
mov o0.zw, r0.xxxy
ret
";
    let runs = format!(
        r#"[{{"id": "a", "inputs": {{
            "v0": [{fifth}, {half}, "0x0", "0x0"],
            "t0": {{"texture2d": {{"width": 5, "height": 1, "format": "R32_FLOAT", "mips": [[{zero}, {one}, {two}, {three}, {four}]]}}}},
            "s0": {{"filter": "point", "address": ["wrap", "wrap", "wrap"]}}}},
            "expect": {{"o0": {{"words": [{one}, {two}, {four}, {zero}], "compare": "bits"}}}}}}]"#,
        fifth = f(0.2),
        half = f(0.5),
        zero = f(0.0),
        one = f(1.0),
        two = f(2.0),
        three = f(3.0),
        four = f(4.0)
    );
    check(asm, &runs);
}

#[test]
fn a_nan_written_to_odepth_keeps_its_free_payload() {
    // `mul` of a NaN leaves the payload free (D3D does not say which NaN): so must the
    // special register it lands in, as any `o#`.
    let asm = "ps_5_0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_output oDepth
mov o0.xyzw, v0.xyxy
mul oDepth, v0.x, l(0.5)
ret
";
    let blob = dxbc::assemble_container(asm).expect("assembles").to_bytes();
    let shader = dxbc::Shader::parse(&blob).expect("parses");
    let json = r#"{"format": "dxdiff-case/1", "name": "t", "dxbc": "00", "runs": [
        {"id": "a", "inputs": {"v0": ["0x7fc01234", "0x0", "0x0", "0x0"]}, "expect": {}}]}"#;
    let case = CaseFile::parse(json).expect("case parses");
    let seen =
        oracles::replay::observe(&shader.program, &case.runs[0], DEFAULT_BUDGET).expect("runs");
    assert!(oracles::rules::float::is_nan(seen.outputs[32][0]));
    assert!(seen.free_outputs[32][0], "oDepth's NaN payload is free");
    assert!(!seen.free_outputs[0][0], "a moved NaN keeps its payload");
}
