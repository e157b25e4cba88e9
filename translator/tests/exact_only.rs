//! Lowerings only the exact profile has: the contract profile refuses them, the exact one
//! emits WGSL that naga validates and claims the catalog entries the lowering relies on.

use translator::{Profile, TranslateError, translate_blob};

fn ps(decls: &str, body: &str) -> Vec<u8> {
    let text = format!(
        "ps_5_0\ndcl_globalFlags refactoringAllowed\n{decls}dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nret\n"
    );
    dxbc::assemble_container(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .to_bytes()
}

#[test]
fn lod_is_computed_from_coarse_derivatives_in_the_exact_profile_only() {
    for dim in ["texture2d", "texture2darray", "texture3d"] {
        let blob = ps(
            &format!(
                "dcl_sampler s0, mode_default\ndcl_resource_{dim} (float,float,float,float) t0\n"
            ),
            "lod r0.xyzw, v0.xyzx, t0.xyzw, s0\nmov o0.xyzw, r0.xyzw",
        );
        match translate_blob(&blob, Profile::Contract) {
            Err(TranslateError::Rejected(r)) => assert_eq!(r.catalog_id, "dxdiff/not-lowered"),
            other => panic!("{dim}: not refused: {other:?}"),
        }
        let t = translate_blob(&blob, Profile::Exact).unwrap_or_else(|e| panic!("{dim}: {e}"));
        assert!(t.wgsl.contains("dpdxCoarse"), "{dim}:\n{}", t.wgsl);
        assert!(t.wgsl.contains("textureNumLevels"), "{dim}:\n{}", t.wgsl);
        assert!(
            t.adaptations
                .iter()
                .any(|a| a == "dxdiff/lod-sampler-clamp"),
            "{dim}: {:?}",
            t.adaptations
        );
    }
    // A cube's LOD comes from its face coordinates' derivatives: refused in both profiles.
    let cube = ps(
        "dcl_sampler s0, mode_default\ndcl_resource_texturecube (float,float,float,float) t0\n",
        "lod r0.xyzw, v0.xyzx, t0.xyzw, s0\nmov o0.xyzw, r0.xyzw",
    );
    assert!(translate_blob(&cube, Profile::Exact).is_err());
}

#[test]
fn a_1d_texture_is_bound_as_a_2d_one_a_texel_high_in_the_exact_profile_only() {
    for (dim, layout) in [
        ("texture1d", "texture_2d<f32>"),
        ("texture1darray", "texture_2d_array<f32>"),
    ] {
        let blob = ps(
            &format!(
                "dcl_sampler s0, mode_default\ndcl_resource_{dim} (float,float,float,float) t0\n"
            ),
            "sample_l r0.xyzw, v0.xyzx, t0.xyzw, s0, v0.w\nftou r1.xyzw, v0.xyzw\nld r1.xyzw, r1.xyzw, t0.xyzw\nadd o0.xyzw, r0.xyzw, r1.xyzw",
        );
        match translate_blob(&blob, Profile::Contract) {
            Err(TranslateError::Rejected(r)) => {
                assert_eq!(r.catalog_id, "fail-closed/unknown-texture-dimension")
            }
            other => panic!("{dim}: not refused: {other:?}"),
        }
        let t = translate_blob(&blob, Profile::Exact).unwrap_or_else(|e| panic!("{dim}: {e}"));
        let b = t
            .manifest
            .bindings
            .iter()
            .find(|b| b.kind == translator::manifest::BindingKind::Srv)
            .expect("t0");
        assert!(b.texture1d, "{dim}");
        assert_eq!(b.layout.as_str(), layout);
        // v is the row's centre: the address's y is no coordinate (a 1D array's layer).
        assert!(t.wgsl.contains(", 0.5f)"), "{dim}:\n{}", t.wgsl);
    }
}

#[test]
fn pixel_system_values_are_builtins_in_the_exact_profile_only() {
    let blob = ps(
        "dcl_input_ps_sgv constant v1.x, primitive_id\ndcl_input_ps_siv constant v2.x, sampleIndex\ndcl_input vCoverage\ndcl_output oDepth\ndcl_output oMask\n",
        "iadd r0.x, v1.x, v2.x\nand oMask, r0.x, vCoverage.x\nmul oDepth, v0.x, l(0.5)\nmov o0.xyzw, v0.xyzw",
    );
    match translate_blob(&blob, Profile::Contract) {
        Err(TranslateError::Rejected(r)) => assert_eq!(r.catalog_id, "fail-closed/system-values"),
        other => panic!("not refused: {other:?}"),
    }
    let t = translate_blob(&blob, Profile::Exact).expect("lowered");
    for builtin in [
        "frag_depth",
        "sample_mask",
        "sample_index",
        "primitive_index",
    ] {
        assert!(
            t.wgsl.contains(&format!("@builtin({builtin})")),
            "{builtin}:\n{}",
            t.wgsl
        );
    }
    assert_eq!(t.manifest.enables, ["primitive_index"]);
    // The special registers have no `o#`/`v#` number: the manifest names them by builtin.
    let depth = t
        .manifest
        .outputs
        .iter()
        .find(|o| o.builtin.as_deref() == Some("frag_depth"))
        .expect("oDepth");
    assert_eq!(
        (depth.register, depth.semantic.as_ref()),
        (None, "SV_Depth")
    );
}

#[test]
fn minimum_precisions_run_at_32_bits_in_the_exact_profile_only() {
    for body in [
        "iadd r0.xyzw {min16i}, v0.xyzw {min16i}, v0.yzwx {min16i}\nmov o0.xyzw, r0.xyzw",
        "umax r0.xyzw {min16u}, v0.xyzw {min16u}, v0.yzwx {min16u}\nmov o0.xyzw, r0.xyzw",
        "add r0.xyzw {min2_8f}, v0.xyzw {min2_8f}, v0.yzwx {min2_8f}\nmov o0.xyzw, r0.xyzw",
    ] {
        let blob = ps("", body);
        match translate_blob(&blob, Profile::Contract) {
            Err(TranslateError::Rejected(r)) => {
                assert_eq!(r.catalog_id, "fail-closed/min-precision-kinds", "{body}")
            }
            other => panic!("not refused: {other:?}"),
        }
        let t = translate_blob(&blob, Profile::Exact).expect("lowered");
        // 32-bit arithmetic, and no claim: the result is D3D's at full precision.
        assert!(
            !t.wgsl.contains("i16") && !t.wgsl.contains("f16"),
            "{}",
            t.wgsl
        );
        assert!(
            !t.adaptations.iter().any(|a| a.contains("min-precision")),
            "{:?}",
            t.adaptations
        );
    }
}

#[test]
fn ld_aoffimmi_moves_the_address_in_the_exact_profile_only() {
    let blob = ps(
        "dcl_resource_texture3d (float,float,float,float) t0\n",
        "ftou r0.xyzw, v0.xyzw\nld_aoffimmi(-2,1,3) r1.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r1.xyzw",
    );
    match translate_blob(&blob, Profile::Contract) {
        Err(TranslateError::Rejected(r)) => assert_eq!(r.catalog_id, "fail-closed/texture-offsets"),
        other => panic!("not refused: {other:?}"),
    }
    let t = translate_blob(&blob, Profile::Exact).expect("lowered");
    // u, v and w each move by their offset, -2 as the wrapping add of 2^32 - 2.
    for moved in ["+ 4294967294u", "+ 1u", "+ 3u"] {
        assert!(t.wgsl.contains(moved), "{moved}\n{}", t.wgsl);
    }
}

#[test]
fn gather4_po_moves_the_coordinate_by_its_offset_in_the_exact_profile_only() {
    let blob = ps(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n",
        "gather4_po r0.xyzw, v0.xyxx, v0.zwzz, t0.xyzw, s0.y\nmov o0.xyzw, r0.xyzw",
    );
    match translate_blob(&blob, Profile::Contract) {
        Err(TranslateError::Rejected(r)) => assert_eq!(r.catalog_id, "fail-closed/texture-offsets"),
        other => panic!("not refused: {other:?}"),
    }
    let t = translate_blob(&blob, Profile::Exact).expect("lowered");
    // Six signed bits of each offset, over level 0's size, then WGSL's gather of channel 1.
    assert!(t.wgsl.contains("<< 26u)) >> 26u"), "{}", t.wgsl);
    // naga's writer suffixes a name that ends in a digit.
    assert!(t.wgsl.contains("textureGather(1, t0_, s0_"), "{}", t.wgsl);
}

/// D3D converts the integer 0 to +0, and WGSL lets a compiler ignore the sign of a zero: the
/// H100 gave 0x80000000 for `itof` of a comparison's 0 (../shared/findings/h100-2026-12-07,
/// `ge_itof_umax`). The exact profile writes +0 for a zero integer explicitly; the contract
/// profile claims `dxdiff/signed-zero` instead.
#[test]
fn an_integer_zero_converts_to_positive_zero_in_the_exact_profile() {
    for op in ["itof", "utof"] {
        let blob = ps("", &format!("{op} o0.xyzw, v0.xyzw"));
        let t = translate_blob(&blob, Profile::Exact).unwrap_or_else(|e| panic!("{op}: {e}"));
        assert_eq!(
            t.wgsl.matches(", 0u, (").count(),
            4,
            "{op}: one zero test per component:\n{}",
            t.wgsl
        );
        let c = translate_blob(&blob, Profile::Contract).unwrap_or_else(|e| panic!("{op}: {e}"));
        assert!(!c.wgsl.contains(", 0u, ("), "{op}:\n{}", c.wgsl);
        assert!(c.adaptations.iter().any(|a| a == "dxdiff/signed-zero"));
    }
}
