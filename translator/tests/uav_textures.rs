//! Typed UAV textures (`RWTexture1D` … `RWTexture3D`): the exact profile binds them as
//! `texture_storage_*` textures of a format it chooses and states in the manifest; the contract
//! profile fails closed on them (the seed: non-buffer UAV shapes fail closed).

use translator::manifest::{Binding, BindingKind};
use translator::{Profile, TranslateError, Translation, translate_blob};

/// The five shapes: the declaration's dimension, the WGSL dimension of the storage texture, an
/// address of the thread id that covers the shape's coordinates, and whether it is 1D.
const SHAPES: [(&str, &str, &str, bool); 5] = [
    ("texture1d", "2d", "vThreadID.xxxx", true),
    ("texture1darray", "2d_array", "vThreadID.xyxx", true),
    ("texture2d", "2d", "vThreadID.xyxx", false),
    ("texture2darray", "2d_array", "vThreadID.xyzx", false),
    ("texture3d", "3d", "vThreadID.xyzx", false),
];

/// The return types: the declaration's, the format of a texture only stored to, and of one
/// loaded (`None`: a normalized texture cannot be loaded).
const KINDS: [(&str, &str, Option<&str>); 5] = [
    ("float", "rgba32float", Some("r32float")),
    ("unorm", "rgba8unorm", None),
    ("snorm", "rgba8snorm", None),
    ("uint", "rgba32uint", Some("r32uint")),
    ("sint", "rgba32sint", Some("r32sint")),
];

fn cs(decls: &str, body: &str) -> Vec<u8> {
    let text = format!(
        "cs_5_0\ndcl_globalFlags refactoringAllowed\n{decls}dcl_input vThreadID.xyz\ndcl_temps 3\ndcl_thread_group 4, 4, 1\n{body}\nret\n"
    );
    dxbc::assemble_container(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .to_bytes()
}

fn uav(dim: &str, kind: &str) -> String {
    format!("dcl_uav_typed_{dim} ({kind},{kind},{kind},{kind}) u0\n")
}

fn exact(blob: &[u8], what: &str) -> Translation {
    translate_blob(blob, Profile::Exact).unwrap_or_else(|e| panic!("{what}: {e}"))
}

fn refused(blob: &[u8], profile: Profile) -> translator::Rejection {
    match translate_blob(blob, profile) {
        Err(TranslateError::Rejected(r)) => r,
        other => panic!("not refused: {other:?}"),
    }
}

fn u0(t: &Translation) -> &Binding {
    t.manifest
        .bindings
        .iter()
        .find(|b| b.kind == BindingKind::Uav && b.register == 0)
        .expect("u0 in the manifest")
}

#[test]
fn stores_declare_a_write_only_four_channel_storage_texture() {
    for (dim, wgsl_dim, addr, line) in SHAPES {
        for (kind, format, _) in KINDS {
            let what = format!("{dim} {kind}");
            let blob = cs(
                &uav(dim, kind),
                &format!("utof r0.xyzw, vThreadID.xyzx\nstore_uav_typed u0.xyzw, {addr}, r0.xyzw"),
            );
            let t = exact(&blob, &what);
            let layout = format!("texture_storage_{wgsl_dim}<{format}, write>");
            let b = u0(&t);
            assert_eq!(b.layout.as_str(), layout, "{what}");
            assert_eq!(b.texture1d, line, "{what}");
            assert_eq!(
                b.layout.storage_texture_parts(),
                Some((wgsl_dim, format, "write")),
                "{what}"
            );
            // naga's writer spells the type without the space after the comma.
            assert!(
                t.wgsl.contains(&layout.replace(", ", ",")),
                "{what}:\n{}",
                t.wgsl
            );
            assert!(t.wgsl.contains("textureStore("), "{what}:\n{}", t.wgsl);
            // Stored only inside the texture, tested explicitly.
            assert!(t.wgsl.contains("textureDimensions("), "{what}:\n{}", t.wgsl);
            if dim.ends_with("array") {
                assert!(t.wgsl.contains("textureNumLayers("), "{what}:\n{}", t.wgsl);
            }
            if matches!(kind, "unorm" | "snorm") {
                // NaN by a bit test, then clamped into the format's range.
                assert!(t.wgsl.contains("2139095040u"), "{what}:\n{}", t.wgsl);
                assert!(t.wgsl.contains("clamp("), "{what}:\n{}", t.wgsl);
            }
            let r = refused(&blob, Profile::Contract);
            assert_eq!(
                r.catalog_id, "fail-closed/unknown-texture-dimension",
                "{what}"
            );
            assert_eq!(r.instruction, Some(1), "{what}: the declaration");
        }
    }
}

#[test]
fn loads_declare_a_read_write_r32_storage_texture() {
    for (dim, wgsl_dim, addr, line) in SHAPES {
        for (kind, _, loaded) in KINDS {
            let what = format!("{dim} {kind}");
            let blob = cs(
                &uav(dim, kind),
                &format!(
                    "ld_uav_typed r0.xyzw, {addr}, u0.xyzw\niadd r0.x, r0.x, l(1)\nstore_uav_typed u0.xyzw, {addr}, r0.xxxx"
                ),
            );
            let Some(format) = loaded else {
                let r = refused(&blob, Profile::Exact);
                assert_eq!(r.catalog_id, "dxdiff/not-lowered", "{what}");
                assert!(r.reason.contains("r32"), "{what}: {}", r.reason);
                assert!(r.reason.contains("unorm"), "{what}: {}", r.reason);
                assert_eq!(r.opcode.as_deref(), Some("ld_uav_typed"), "{what}");
                continue;
            };
            let t = exact(&blob, &what);
            let layout = format!("texture_storage_{wgsl_dim}<{format}, read_write>");
            let b = u0(&t);
            assert_eq!(b.layout.as_str(), layout, "{what}");
            assert_eq!(b.texture1d, line, "{what}");
            // naga's writer spells the type without the space after the comma.
            assert!(
                t.wgsl.contains(&layout.replace(", ", ",")),
                "{what}:\n{}",
                t.wgsl
            );
            assert!(t.wgsl.contains("textureLoad("), "{what}:\n{}", t.wgsl);
            assert!(t.wgsl.contains("textureStore("), "{what}:\n{}", t.wgsl);
            // Out of range: (0, 0, 0, 1), with 1 as 1.0 for float texels.
            let one = if kind == "float" { "1065353216u" } else { "1u" };
            assert!(
                t.wgsl.contains(&format!("vec4<u32>(0u, 0u, 0u, {one})")),
                "{what}:\n{}",
                t.wgsl
            );
            let r = refused(&blob, Profile::Contract);
            assert_eq!(
                r.catalog_id, "fail-closed/unknown-texture-dimension",
                "{what}"
            );
        }
    }
}

#[test]
fn resinfo_of_a_uav_texture_gives_its_one_level() {
    for (dim, _, addr, _) in SHAPES {
        for (kind, _, _) in KINDS {
            for (op, mip) in [
                ("resinfo_uint", "l(0)"),
                ("resinfo", "l(1)"),
                ("resinfo_rcpFloat", "vThreadID.z"),
            ] {
                let what = format!("{dim} {kind} {op} {mip}");
                let blob = cs(
                    &uav(dim, kind),
                    &format!(
                        "{op} r0.xyzw, {mip}, u0.xyzw\nstore_uav_typed u0.xyzw, {addr}, r0.xyzw"
                    ),
                );
                let t = exact(&blob, &what);
                assert!(t.wgsl.contains("textureDimensions("), "{what}:\n{}", t.wgsl);
                // No level is queried: a UAV views one.
                assert!(!t.wgsl.contains("textureNumLevels"), "{what}:\n{}", t.wgsl);
                let r = refused(&blob, Profile::Contract);
                assert_eq!(
                    r.catalog_id, "fail-closed/unknown-texture-dimension",
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn a_pixel_program_writes_an_rwtexture2d() {
    let text = "ps_5_0\ndcl_globalFlags refactoringAllowed\n\
                dcl_uav_typed_texture2d (float,float,float,float) u1\n\
                dcl_input_ps_siv linear noperspective v0.xy, position\n\
                dcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n\
                ftou r0.xy, v0.xyxx\nstore_uav_typed u1.xyzw, r0.xyxx, v1.xyzw\n\
                mov o0.xyzw, v1.xyzw\nret\n";
    let blob = dxbc::assemble_container(text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .to_bytes();
    let t = exact(&blob, "ps");
    let b = t
        .manifest
        .bindings
        .iter()
        .find(|b| b.kind == BindingKind::Uav && b.register == 1)
        .expect("u1");
    assert_eq!(b.layout.as_str(), "texture_storage_2d<rgba32float, write>");
    assert!(!b.texture1d);
    assert!(t.wgsl.contains("@fragment"), "{}", t.wgsl);
    assert!(t.wgsl.contains("textureStore("), "{}", t.wgsl);
    assert_eq!(
        refused(&blob, Profile::Contract).catalog_id,
        "fail-closed/unknown-texture-dimension"
    );
}

#[test]
fn what_wgsl_has_no_storage_texture_for_is_refused() {
    // Atomics: WGSL has no atomic storage textures.
    for op in [
        "atomic_iadd u0, vThreadID.xyxx, l(1)",
        "imm_atomic_or r0.x, u0, vThreadID.xyxx, l(1)",
    ] {
        let blob = cs(&uav("texture2d", "uint"), op);
        let r = refused(&blob, Profile::Exact);
        assert_eq!(r.catalog_id, "dxdiff/not-lowered", "{op}");
        assert!(r.reason.contains("atomic"), "{op}: {}", r.reason);
        assert_eq!(r.instruction, Some(5), "{op}: the atomic");
    }
    // Components of different return types have no one format.
    let mixed = cs(
        "dcl_uav_typed_texture2d (float,float,uint,uint) u0\n",
        "store_uav_typed u0.xyzw, vThreadID.xyxx, l(0,0,0,0)",
    );
    assert_eq!(
        refused(&mixed, Profile::Exact).catalog_id,
        "dxdiff/not-lowered"
    );
    // D3D has no bufinfo of a texture.
    let bufinfo = cs(
        &uav("texture2d", "uint"),
        "bufinfo r0.x, u0\nstore_uav_typed u0.xyzw, vThreadID.xyxx, r0.xxxx",
    );
    let r = refused(&bufinfo, Profile::Exact);
    assert_eq!(r.catalog_id, "dxdiff/not-lowered");
    assert_eq!(r.opcode.as_deref(), Some("bufinfo"));
}

#[test]
fn other_uav_dimensions_still_fail_closed_in_the_exact_profile() {
    for dim in [
        "texture2dms",
        "texturecube",
        "texturecubearray",
        "texture2dmsarray",
    ] {
        let text = format!(
            "cs_5_0\ndcl_uav_typed_{dim} (float,float,float,float) u0\ndcl_thread_group 1, 1, 1\nret\n"
        );
        let c = dxbc::assemble_container(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let r = refused(&c.to_bytes(), Profile::Exact);
        assert_eq!(
            r.catalog_id, "fail-closed/unknown-texture-dimension",
            "{dim}"
        );
    }
}

#[test]
fn an_immediate_non_finite_float_store_is_not_a_constant_bitcast() {
    let blob = cs(
        &uav("texture2d", "unorm"),
        "store_uav_typed u0.xyzw, vThreadID.xyxx, l(0x7fc00000, 0x7f800000, 0.5, 2.0)",
    );
    let t = exact(&blob, "NaN");
    assert!(t.wgsl.contains("var tmp"), "{}", t.wgsl);
    assert!(
        !t.wgsl.contains("vec4<u32>(2143289344u"),
        "a constant bitcast of a NaN:\n{}",
        t.wgsl
    );
}

/// The WGSL of one program of each kind, for review: `cargo test -p translator --test
/// uav_textures -- --nocapture print`.
#[test]
fn print_one_translation() {
    let blob = cs(
        &uav("texture2darray", "float"),
        "ld_uav_typed r0.xyzw, vThreadID.xyzx, u0.xyzw\nresinfo_uint r1.xyzw, l(0), u0.xyzw\nadd r0.x, r0.x, l(1.0)\nstore_uav_typed u0.xyzw, vThreadID.xyzx, r0.xxxx",
    );
    let t = exact(&blob, "print");
    println!("{}", t.wgsl);
    println!(
        "{}",
        serde_json::to_string_pretty(&t.manifest.bindings).expect("json")
    );
}
