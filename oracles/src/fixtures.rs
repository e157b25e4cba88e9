//! Programs the tests of several crates share, so each is written once.

use crate::case::CaseFile;

/// A pixel program that loops `cb0[0].x` times and writes the count to `o0.x`: with a large
/// count it runs past any small instruction budget, so it makes an inconclusive run on purpose.
pub const COUNTING: &str = "ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.x\n\
dcl_temps 1\nmov r0.x, l(0)\nloop\nieq r0.y, r0.x, cb0[0].x\nbreakc_nz r0.y\n\
iadd r0.x, r0.x, l(1)\nendloop\nmov o0.x, r0.x\nret\n";

/// The text of a `dxdiff-case/1` file named `count` for [`COUNTING`] with `runs` (the JSON of
/// its run objects, comma-separated).
pub fn counting_case_json(runs: &str) -> String {
    let blob = dxbc::assemble_container(COUNTING)
        .expect("the counting program assembles")
        .to_bytes();
    let hex: String = blob.iter().map(|b| format!("{b:02x}")).collect();
    format!(r#"{{"format": "dxdiff-case/1", "name": "count", "dxbc": "{hex}", "runs": [{runs}]}}"#)
}

/// [`counting_case_json`], parsed.
pub fn counting_case(runs: &str) -> CaseFile {
    CaseFile::parse(&counting_case_json(runs)).expect("the counting case parses")
}
