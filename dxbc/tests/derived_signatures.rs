//! Containers built from text without fxc's signature tables get ISGN and OSGN derived from the
//! declarations, as fxc would write them (empty for compute shaders); the derivation agrees with
//! fxc's own chunks on the corpus.

mod common;

use dxbc::chunks::derived::derive_signatures;
use dxbc::chunks::signature::{Signature, SignatureElement};
use dxbc::{FourCC, Shader, Stage};

fn chunks_of(text: &str) -> (Vec<FourCC>, Vec<Signature>) {
    let bytes = dxbc::assemble_container(text)
        .expect("assembles")
        .to_bytes();
    let mut shader = Shader::parse(&bytes).expect("parses");
    let tags = dxbc::Container::parse(&bytes)
        .expect("parses")
        .chunks
        .iter()
        .map(|c| c.tag)
        .collect();
    (tags, std::mem::take(&mut shader.signatures))
}

fn row(e: &SignatureElement) -> (String, u32, u32, u32, u32, u8, u8) {
    (
        e.semantic_name.clone(),
        e.semantic_index,
        e.system_value,
        e.component_type,
        e.register,
        e.mask,
        e.rw_mask,
    )
}

fn rows(s: &Signature) -> Vec<(String, u32, u32, u32, u32, u8, u8)> {
    s.elements.iter().map(row).collect()
}

#[test]
fn compute_containers_have_empty_signatures() {
    let (tags, sigs) = chunks_of("cs_5_0\ndcl_thread_group 1, 1, 1\nret\n");
    assert_eq!(tags, vec![FourCC::ISGN, FourCC::OSGN, FourCC::SHEX]);
    assert!(sigs.iter().all(|s| s.elements.is_empty()));
}

#[test]
fn pixel_signatures_come_from_the_declarations() {
    let (tags, sigs) = chunks_of(
        "ps_5_0\n\
         dcl_input_ps_siv linear noperspective v0.xy, position\n\
         dcl_input_ps linear v1.xyzw\n\
         dcl_input_ps linear v2.xy\n\
         dcl_input_ps_sgv v3.x, is_front_face\n\
         dcl_output o0.xyzw\n\
         dcl_output o1.xy\n\
         dcl_output oDepth\n\
         mov o0.xyzw, v1.xyzw\n\
         mov o1.xy, v2.xyxx\n\
         mov oDepth, v0.x\n\
         ret\n",
    );
    assert_eq!(tags, vec![FourCC::ISGN, FourCC::OSGN, FourCC::SHEX]);
    let s = |n: &str| n.to_string();
    assert_eq!(
        rows(&sigs[0]),
        vec![
            (s("SV_Position"), 0, 1, 3, 0, 0x3, 0x3),
            (s("TEXCOORD"), 0, 0, 3, 1, 0xF, 0xF),
            (s("TEXCOORD"), 1, 0, 3, 2, 0x3, 0x3),
            (s("SV_IsFrontFace"), 0, 9, 1, 3, 0x1, 0x1),
        ]
    );
    assert_eq!(
        rows(&sigs[1]),
        vec![
            (s("SV_Target"), 0, 0, 3, 0, 0xF, 0x0),
            (s("SV_Target"), 1, 0, 3, 1, 0x3, 0xC),
            (s("SV_Depth"), 0, 0, 3, u32::MAX, 0x1, 0xE),
        ]
    );
}

#[test]
fn vertex_and_geometry_signatures() {
    let (_, sigs) = chunks_of(
        "vs_5_0\n\
         dcl_input v0.xyz\n\
         dcl_input_sgv v1.x, vertex_id\n\
         dcl_output_siv o0.xyzw, position\n\
         dcl_output o1.xy\n\
         mov o0.xyz, v0.xyzx\n\
         mov o0.w, l(1.0)\n\
         utof o1.xy, v1.xxxx\n\
         ret\n",
    );
    let s = |n: &str| n.to_string();
    assert_eq!(
        rows(&sigs[0]),
        vec![
            (s("TEXCOORD"), 0, 0, 3, 0, 0x7, 0x7),
            (s("SV_VertexID"), 0, 6, 1, 1, 0x1, 0x1),
        ]
    );
    assert_eq!(
        rows(&sigs[1]),
        vec![
            (s("SV_Position"), 0, 1, 3, 0, 0xF, 0x0),
            (s("TEXCOORD"), 0, 0, 3, 1, 0x3, 0xC),
        ]
    );
    let gs = "gs_5_0\ndcl_input v[3][0].xyzw\ndcl_inputprimitive triangle \n\
              dcl_outputtopology trianglestrip \ndcl_output_siv o0.xyzw, position\n\
              dcl_maxout 3\nmov o0.xyzw, v[0][0].xyzw\nemit_stream m0\nret\n";
    let program = dxbc::assemble(gs).expect("assembles").program;
    let [input, output] = derive_signatures(&program);
    assert_eq!(input.kind, FourCC::ISGN);
    assert_eq!(output.kind, FourCC::OSG5, "gs_5_* outputs are OSG5");
    assert_eq!(input.elements.len(), 1);
    assert_eq!(input.elements[0].register, 0);
}

#[test]
fn given_signature_tables_are_kept() {
    // An input table only: the output side is derived, the input side is the table's.
    let text = "//\n// Input signature:\n//\n\
// Name                 Index   Mask Register SysValue  Format   Used\n\
// -------------------- ----- ------ -------- -------- ------- ------\n\
// COLOR                    0   xyzw        0     NONE   float   xyzw\n\
//\nps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n";
    let (tags, sigs) = chunks_of(text);
    assert_eq!(tags, vec![FourCC::ISGN, FourCC::OSGN, FourCC::SHEX]);
    assert_eq!(sigs[0].elements[0].semantic_name, "COLOR");
    assert_eq!(sigs[1].elements[0].semantic_name, "SV_Target");
}

/// On the SDK corpus, every element derived for a vertex or pixel shader is in fxc's own chunk:
/// same register, a system value agreeing with fxc's, and a mask inside fxc's.
#[test]
fn derivation_agrees_with_fxc_on_the_corpus() {
    let Some(blobs) = common::all_blobs() else {
        return;
    };
    let (mut programs, mut elements, mut exact) = (0, 0, 0);
    for (name, bytes) in &blobs {
        let shader = Shader::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        if !matches!(shader.program.version.stage, Stage::Vertex | Stage::Pixel) {
            continue;
        }
        programs += 1;
        for derived in derive_signatures(&shader.program) {
            let real = shader
                .signatures
                .iter()
                .find(|s| s.kind == derived.kind)
                .unwrap_or_else(|| panic!("{name}: no {} chunk", derived.kind));
            for d in &derived.elements {
                elements += 1;
                let found = real.elements.iter().any(|r| {
                    r.register == d.register
                        && d.mask & !r.mask == 0
                        && (d.system_value == 0 || r.system_value == d.system_value)
                        && (d.register != u32::MAX
                            || r.semantic_name.eq_ignore_ascii_case(&d.semantic_name))
                });
                exact += usize::from(real.elements.iter().any(|r| {
                    (
                        r.register,
                        r.mask,
                        r.rw_mask,
                        r.component_type,
                        r.system_value,
                    ) == (
                        d.register,
                        d.mask,
                        d.rw_mask,
                        d.component_type,
                        d.system_value,
                    )
                }));
                assert!(
                    found,
                    "{name}: derived {} {:?} not in fxc's {}:\n{}",
                    derived.kind,
                    row(d),
                    real.kind,
                    real.to_fxc_comment()
                );
            }
        }
    }
    println!(
        "derived signatures: {elements} elements of {programs} vertex/pixel programs agree; \
         {exact} also match fxc's mask, used mask, format and system value exactly"
    );
    assert!(programs > 50, "{programs}");
}
