//! Fair to every translator (docs/catalog.md, docs/interpreter.md): a program that relies on
//! what Direct3D leaves undefined is a finding about the program, printed on its own line,
//! and its lanes are `adapted(dxdiff/d3d-undefined)`, never mismatches; a translator that
//! differs from the interpreter only in NaN payloads gets no mismatch without claiming
//! anything.

use crate::support::*;

/// `v[r0.x + 1]` under `dcl_indexrange v1.xyzw 3`: the edge-biased inputs put `r0.x` far
/// outside the range in most lanes (a shipped game's vertex program did this).
const INPUT_INDEX: &str = "ps_5_0
dcl_input_ps constant v0.x
dcl_input_ps constant v1.xyzw
dcl_input_ps constant v2.xyzw
dcl_input_ps constant v3.xyzw
dcl_indexrange v1.xyzw 3
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, v0.x
mov o0.xyzw, v[r0.x + 1].xyzw
ret
";

/// A list compaction that relies on lockstep waves: store 0, `atomic_or` a bit, read back,
/// with `sync` between the steps or not.
fn compaction(sync: &str) -> String {
    format!(
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_tgsm_raw g0, 4
dcl_thread_group 32, 1, 1
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
fn undefined_behaviour_is_a_finding_about_the_program() {
    let _turn = gpu_turn();
    let dir = temp("fair", "undefined");
    let corpus = dir.join("corpus");
    assemble(&corpus, "input-index", INPUT_INDEX);
    assemble(&corpus, "compaction-racy", &compaction(""));
    assemble(&corpus, "compaction-synced", &compaction("sync_g_t"));
    let out = dir.join("out");
    let Some(o) = with_adapter(
        dxdiff()
            .args(["verify", "--corpus-only", "--profile", "exact"])
            .args(["--corpus-cases", "200", "--corpus"])
            .arg(&corpus)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("runs"),
    ) else {
        return;
    };
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let line = |program: &str, kind: &str| {
        text.lines().any(|l| {
            l.starts_with("corpus:")
                && l.contains(&format!(
                    "/{program}.o: program relies on undefined behaviour: {kind} at instruction"
                ))
        })
    };
    assert!(line("input-index", "index-out-of-range"), "{text}");
    assert!(line("compaction-racy", "tgsm-race"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.contains("compaction-synced.o: program relies")),
        "{text}"
    );
    let r = report(&out);
    assert_eq!(r["totals"]["mismatch"], 0, "{text}");
    assert!(
        r["adapted_by"]["dxdiff/d3d-undefined"]
            .as_u64()
            .unwrap_or(0)
            > 0,
        "{text}"
    );
    let synced = r["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .find(|p| {
            p["name"]
                .as_str()
                .is_some_and(|n| n.contains("compaction-synced"))
        })
        .expect("the synced program ran");
    let c = &synced["counts"];
    assert_eq!(c["mismatch"], 0, "{synced}");
    assert_eq!(c["adapted"], 0, "{synced}");
    assert!(c["matched"].as_u64().unwrap_or(0) > 0, "{synced}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The exact profile with every NaN it writes given another payload (`0xffc00000`, the sign
/// set; naga's writer spells them in decimal, 2143289344u and 4290772992u), claiming only what the exact profile claims (not `dxdiff/nan`): D3D defines that an
/// arithmetic result is a NaN, not which one, so nothing mismatches.
#[test]
fn a_translator_that_differs_only_in_nan_payloads_passes_without_claims() {
    let _turn = gpu_turn();
    let dir = temp("fair", "nan");
    let translator = "cmd:sh -c '\"$DXDIFF\" translate --json --profile exact /dev/stdin | sed s/2143289344u/4290772992u/g'";
    let Some(o) = with_adapter(
        dxdiff()
            .args(["verify", "--cases", "300", "--seed", "4"])
            .args(["--translator", translator])
            .arg("--out")
            .arg(&dir)
            .output()
            .expect("runs"),
    ) else {
        return;
    };
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let r = report(&dir);
    assert_eq!(r["totals"]["mismatch"], 0, "{text}");
    assert!(
        r["totals"]["lanes"].as_u64().unwrap_or(0) > 20_000,
        "{text}"
    );
    assert!(r["adapted_by"].get("dxdiff/nan").is_none(), "{text}");
    // The rewrite reached the WGSL: the translator really writes the other payload.
    let blob = assemble(
        &dir,
        "add",
        "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nadd o0.x, v0.x, v0.x\nret\n",
    );
    let t = dxdiff()
        .args(["translate", "--translator", translator])
        .arg(&blob)
        .output()
        .expect("translate");
    assert!(stdout(&t).contains("4290772992u"), "{}", stdout(&t));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The foldings that the exact-profile fuzz campaigns found on NVIDIA (docs/fuzz.md), and one
/// amplified `log` error: each case holds D3D's result, which the interpreter reproduces, and
/// each replays on the GPU as a match, `adapted(dxdiff/literal-folding)` or (the `log`)
/// `adapted(dxdiff/builtin-accuracy)`, never a mismatch.
#[test]
fn the_h200_foldings_replay_clean() {
    let dir = root().join("docs/h200-fuzz");
    let o = dxdiff().arg("replay").arg(&dir).output().expect("runs");
    let text = stdout(&o);
    assert!(text.ends_with("36 passed, 0 failed, 0 skipped\n"), "{text}");
    let _turn = gpu_turn();
    let Some(o) = with_adapter(
        replay_gpu(&dir, &["--profile", "exact"], None)
            .output()
            .expect("runs"),
    ) else {
        return;
    };
    let text = stdout(&o);
    assert!(text.ends_with("36 passed, 0 failed, 0 skipped\n"), "{text}");
    // lavapipe folds these as the H200 does; it found `input_zero_in_else` and `xor_of_itself`
    // itself (dxdiff fuzz, exact profile: `v0.x` tested zero in an `else`, then read directly
    // by `dp4`; `xor` of a constant-buffer word with itself into `dp2`), and folds the last
    // fourteen as the H100 did (a branch or a switch on a known value, an `icb` element at a
    // computed index, `imad` with a zero factor or of -1 and a value with itself, a write in a
    // branch never entered, a store forwarded to a load at an index of the same number, a dot
    // product with a zero vector, a comparison of a value with itself met with the literal it
    // equals, a known selector that takes no `case`, a thread id tested zero).
    for case in [
        "compare_mask_folded.json",
        "once_loop_folded.json",
        "input_zero_in_else_folded.json",
        "xor_of_itself_folded.json",
        "if_on_literal_folded.json",
        "dead_else_switch_folded.json",
        "icb_index_computed_folded.json",
        "imad_zero_factor_folded.json",
        "switch_on_constant_folded.json",
        "ibfe_selector_folded.json",
        "imad_minus_one_folded.json",
        "dead_branch_in_loop_folded.json",
        "indexable_forwarded_folded.json",
        "branch_decided_in_loop_folded.json",
        "zero_dot_product_folded.json",
        "identity_meets_literal_folded.json",
        "switch_selects_end_folded.json",
        "thread_id_zero_in_branch_folded.json",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with("ADAPTED ")
                && l.contains(case)
                && l.contains("adapted(dxdiff/literal-folding)")),
            "{case}: {text}"
        );
    }
    // lavapipe's `log2` of 0.99999237 differs from D3D's inside its 2^-21 absolute band, and
    // the `dp3` after it scales that by 66.
    assert!(
        text.lines().any(|l| l.starts_with("ADAPTED ")
            && l.contains("log_near_one_amplified.json")
            && l.contains("adapted(dxdiff/builtin-accuracy)")),
        "{text}"
    );
}
