//! Subroutines and class linkage through the case-file path: `call`/`callc` of labels, `fcall`
//! through the class-instance buffer (`cb14`: per slot a "this" row and a table row), `this[]`
//! reads, a buffer chosen at run time, `ret` inside a body, and undefined calls.

use oracles::case::CaseFile;
use oracles::interp::DEFAULT_BUDGET;
use oracles::replay::{RunOutcome, replay_interp};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn outcomes(asm: &str, runs: &str) -> Vec<RunOutcome> {
    let blob = dxbc::assemble_container(asm).expect("assembles").to_bytes();
    let json = format!(
        r#"{{"format": "dxdiff-case/1", "name": "t", "dxbc": "{}", "runs": {runs}}}"#,
        hex(&blob)
    );
    let case = CaseFile::parse(&json).expect("case parses");
    replay_interp(&case, DEFAULT_BUDGET)
        .into_iter()
        .map(|(_, o)| o)
        .collect()
}

/// Three interfaces as fxc writes them (HlslCrossCompiler's `interfaces`), the second one's
/// body reading the first one's result.
const INTERFACES: &str = "ps_5_0
dcl_constantbuffer cb1[4], dynamicIndexed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_body fb3
dcl_function_body fb4
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_function_table ft2 = {fb2}
dcl_function_table ft3 = {fb3}
dcl_function_table ft4 = {fb4}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_interface_dynamicindexed fp1[2][1] = {ft2, ft3, ft4}
dcl_input_ps constant v0.xy
dcl_output o0.xyzw
dcl_temps 3
mov r0.xyzw, l(0, 0, 0, 0)
fcall fp0[0][0]
mov o0.x, r0.x
fcall fp1[v0.x + 0][0]
mov o0.y, r0.y
mov o0.zw, r0.zzzw
ret
label fb0
mov r0.x, l(7)
ret
label fb1
iadd r0.x, v0.y, l(100)
retc_nz v0.y
mov r0.x, l(5)
ret
label fb2
mov r0.y, l(20)
ret
label fb3
mov r1.x, this[1].x
mov r1.y, this[1].y
mov r0.y, cb[r1.x + 0][r1.y + 0].z
ret
label fb4
mov r1.x, this[v0.x + 1].y
mov r0.z, r1.x
mov r0.w, this[2].w
ret
";

fn run(v0: [u32; 2], instances: &[(u32, [u32; 4])], expect: [u32; 4]) -> String {
    let mut cb14 = Vec::new();
    for (table, this) in instances {
        cb14.extend(this.iter().map(|w| format!("\"0x{w:x}\"")));
        cb14.extend([
            format!("\"0x{table:x}\""),
            "\"0x0\"".into(),
            "\"0x0\"".into(),
            "\"0x0\"".into(),
        ]);
    }
    let words: Vec<String> = expect.iter().map(|w| format!("\"0x{w:x}\"")).collect();
    format!(
        r#"{{"id": "r", "inputs": {{"v0": ["0x{:x}", "0x{:x}", "0x0", "0x0"],
             "cb1": ["0x0", "0x0", "0x0", "0x0", "0x0", "0x0", "0x0", "0x0", "0x0", "0x0", "0x2a", "0x0"],
             "cb14": [{}]}},
          "expect": {{"o0": {{"words": [{}], "compare": "bits"}}}}}}"#,
        v0[0],
        v0[1],
        cb14.join(", "),
        words.join(", ")
    )
}

#[test]
fn fcall_runs_the_bound_tables_bodies() {
    // Slot 0 binds ft0; slot 1 binds ft3 (reads cb1[2].z through its this record); slot 2 ft4.
    let instances = [(0, [0, 0, 0, 0]), (3, [1, 2, 0, 0]), (4, [0, 9, 0, 0x33])];
    let runs = format!(
        "[{}, {}, {}]",
        run([0, 0], &instances, [7, 42, 0, 0]),
        // The dynamic index picks slot 2: ft4 reads this[1 + 1].y and this[2].w.
        run([1, 0], &instances, [7, 0, 9, 0x33]),
        // Slot 0 binds ft1 now: a `retc` leaves the body early for a nonzero v0.y.
        run(
            [0, 3],
            &[(1, [0; 4]), instances[1], instances[2]],
            [103, 42, 0, 0]
        ),
    );
    let got = outcomes(INTERFACES, &runs);
    assert!(got.iter().all(|o| *o == RunOutcome::Passed), "{got:?}");
    let runs = format!(
        "[{}]",
        run(
            [0, 0],
            &[(1, [0; 4]), instances[1], instances[2]],
            [5, 42, 0, 0]
        )
    );
    assert_eq!(outcomes(INTERFACES, &runs), vec![RunOutcome::Passed]);
}

#[test]
fn a_table_the_interface_does_not_list_is_undefined() {
    // Slot 0 binds ft3, which fp0 does not list: the call is undefined, so any output passes
    // (the run's lanes are don't-cares), where a defined run with wrong words fails.
    let bad = [(3, [0; 4]), (2, [0; 4]), (2, [0; 4])];
    let runs = format!("[{}]", run([0, 0], &bad, [0xdead, 0xbeef, 1, 2]));
    let got = outcomes(INTERFACES, &runs);
    assert!(!matches!(got[0], RunOutcome::Failed { .. }), "{got:?}");
    let good = [(0, [0; 4]), (2, [0; 4]), (2, [0; 4])];
    let runs = format!("[{}]", run([0, 0], &good, [0xdead, 20, 0, 0]));
    assert!(matches!(
        outcomes(INTERFACES, &runs)[0],
        RunOutcome::Failed { .. }
    ));
}

#[test]
fn call_and_callc_run_labels() {
    let asm = "ps_5_0
dcl_input_ps constant v0.x
dcl_output o0.xy
dcl_temps 1
mov r0.xy, l(1, 0, 0, 0)
call l0
callc_nz v0.x, l1
mov o0.xy, r0.xyxx
ret
label l0
imul null, r0.x, r0.x, l(3)
ret
label l1
iadd r0.y, r0.y, l(5)
call l0
ret
";
    let one = |v: u32, x: u32, y: u32| {
        format!(
            r#"{{"id": "r{v}", "inputs": {{"v0": ["0x{v:x}", "0x0", "0x0", "0x0"]}},
               "expect": {{"o0": {{"words": ["0x{x:x}", "0x{y:x}"], "compare": "bits"}}}}}}"#
        )
    };
    let runs = format!("[{}, {}]", one(0, 3, 0), one(1, 9, 5));
    let got = outcomes(asm, &runs);
    assert!(got.iter().all(|o| *o == RunOutcome::Passed), "{got:?}");
}
