//! What an external translator's manifest may say, run end to end: resources in the bind
//! groups the WGSL declares them in (the harness takes a group the module leaves free for its
//! own buffers), one interface entry per signature element, and `enables`.

use crate::support::*;

use std::path::{Path, PathBuf};
use std::process::Output;

/// `verify --corpus-only` over `corpus` with `translator`; `None` without a GPU adapter.
fn verify(translator: &str, corpus: &Path, dir: &Path) -> Option<Output> {
    let out = dxdiff()
        .args(["verify", "--corpus-only", "--corpus"])
        .arg(corpus)
        .args(["--translator", translator, "--translator-timeout", "20"])
        .arg("--out")
        .arg(dir)
        .output()
        .expect("runs");
    with_adapter(out)
}

/// A pixel program, assembled here, whose `v0` and `o0` the fixed answers below split into
/// two signature elements each.
fn split_program(dir: &Path) -> PathBuf {
    assemble(
        dir,
        "split",
        "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\n\
         xor o0.x, v0.x, v0.z\nmov o0.yz, v0.yyw\nmov o0.w, l(1.0)\nret\n",
    )
}

/// WGSL that reads `v0` as two `vec2<u32>` elements at locations 0 and 1 and writes `o0` the
/// same way; `swap` declares the input elements' masks the wrong way round.
fn split_answer(swap: bool) -> serde_json::Value {
    let wgsl = "struct Out {\n    @location(0) xy: vec2<u32>,\n    @location(1) zw: vec2<u32>,\n}\n\
                @fragment\nfn main(@location(0) @interpolate(flat) a: vec2<u32>, @location(1) @interpolate(flat) b: vec2<u32>) -> Out {\n\
                \x20   return Out(vec2<u32>(a.x ^ b.x, a.y), vec2<u32>(b.y, 1065353216u));\n}\n";
    let (first, second) = if swap { (12, 3) } else { (3, 12) };
    let element = |mask: u32, location: u32| {
        serde_json::json!({ "register": 0, "mask": mask, "location": location,
            "wgsl_type": "vec2<u32>", "semantic": "ELEMENT" })
    };
    serde_json::json!({
        "status": "ok",
        "wgsl": wgsl,
        "manifest": {
            "stage": "fragment",
            "entry_point": "main",
            "bindings": [],
            "inputs": [element(first, 0), element(second, 1)],
            "outputs": [element(3, 0), element(12, 1)],
        },
        "adaptations": [],
    })
}

/// Resources moved to group 3 (constant buffers, buffers, UAVs: every binding the built-in
/// translator declares) give exactly the built-in verdicts: the harness binds them where the
/// manifest says, and puts its own records for pixel and vertex programs in group 0, which
/// the module then leaves free.
#[test]
fn resources_bind_in_the_groups_the_manifest_declares() {
    let _turn = gpu_turn();
    let cases = root().join("examples/cases");
    let moved = "cmd:f=$(mktemp); cat >\"$f\"; \"$DXDIFF\" translate --json \"$f\" \
                 | sed 's/@group(0)/@group(3)/g; s/\"group\":0/\"group\":3/g'; rm -f \"$f\"";
    let (a, b) = (temp("groups", "moved"), temp("groups", "builtin"));
    let Some(out) = verify(moved, &cases, &a) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    verify("builtin", &cases, &b).expect("adapter");
    let (ra, rb) = (report(&a), report(&b));
    assert_eq!(ra["totals"], rb["totals"]);
    assert!(
        ra["totals"]["lanes"].as_u64().unwrap_or(0) > 1000,
        "{}",
        ra["totals"]
    );
    assert!(
        ra["skips"].as_object().is_none_or(|s| s.is_empty()),
        "{}",
        ra["skips"]
    );
    let translated = dxdiff()
        .args(["translate", "--translator", moved])
        .arg(cases.join("constants_and_indexing.json"))
        .output()
        .expect("runs");
    assert!(stdout(&translated).contains("@group(3)"));
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// One interface entry per signature element: `v0.xy` and `v0.zw` at two locations, each its
/// own entry with its own mask, feed and read back the right lanes. Declaring the masks the
/// wrong way round gives mismatches, so the masks are what decides.
#[test]
fn interface_entries_may_be_signature_elements() {
    let _turn = gpu_turn();
    let dir = temp("manifest", "elements");
    let blob = split_program(&dir);
    let right = fixed_answer(&dir.join("right"), &split_answer(false));
    let Some(out) = verify(&right, &blob, &dir.join("right/out")) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let r = report(&dir.join("right/out"));
    assert!(
        r["totals"]["matched"].as_u64().unwrap_or(0) > 0,
        "{}",
        r["totals"]
    );
    let wrong = fixed_answer(&dir.join("wrong"), &split_answer(true));
    let out = verify(&wrong, &blob, &dir.join("wrong/out")).expect("adapter");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `enables`: WGSL that uses an extension validates when the manifest declares it, and is a
/// translator crash (with naga's message) when it does not. Where the device lacks the
/// feature the program is skipped as `feature`, never run or blamed on the translator.
#[test]
fn declared_enables_validate_and_undeclared_ones_do_not() {
    let _turn = gpu_turn();
    let dir = temp("manifest", "enables");
    let case = root().join("examples/cases/compute_atomics.json");
    let mut answer = translated(&case);
    // A helper function in f16 that the kernel never calls: the module needs the extension,
    // the results do not change.
    let wgsl = answer["wgsl"].as_str().expect("wgsl");
    answer["wgsl"] =
        format!("enable f16;\nfn dxdiff_half(x: f16) -> f16 {{ return x * 2.0h; }}\n{wgsl}").into();
    let undeclared = fixed_answer(&dir.join("undeclared"), &answer);
    let Some(out) = verify(&undeclared, &case, &dir.join("undeclared/out")) else {
        return;
    };
    assert_eq!(out.status.code(), Some(5), "{}", stdout(&out));
    let r = report(&dir.join("undeclared/out"));
    let why = r["programs"][0]["skipped"].as_str().unwrap_or("");
    assert!(
        why.contains("does not validate") && why.contains("f16"),
        "{why}"
    );

    answer["manifest"]["enables"] = serde_json::json!(["f16"]);
    let declared = fixed_answer(&dir.join("declared"), &answer);
    let out = verify(&declared, &case, &dir.join("declared/out")).expect("adapter");
    let r = report(&dir.join("declared/out"));
    match out.status.code() {
        Some(0) => assert!(r["totals"]["matched"].as_u64().unwrap_or(0) > 0),
        Some(5) => assert_eq!(r["skips"]["feature"], 1, "{}", r["skips"]),
        other => panic!("{other:?}: {}", stdout(&out)),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
