//! The assembler refuses text it used to read silently as something else, with the line and
//! column of the offending text; and its work and the disassembler's output stay linear in the
//! input on hostile nesting.

use std::time::{Duration, Instant};

use dxbc::{DxbcError, Syntax};

/// The (line, column) of an assembly error, or a panic naming the text that was accepted.
fn error_at(text: &str) -> (usize, usize, String) {
    match dxbc::assemble(text) {
        Ok(a) => panic!("accepted:\n{text}\nas {:?}", a.program.instructions.last()),
        Err(DxbcError::Syntax { line, column, what }) => (line, column, what),
        Err(other) => panic!("not a syntax error: {other}"),
    }
}

fn body(lines: &str) -> String {
    format!("ps_5_0\ndcl_output o0.xyzw\ndcl_temps 2\n{lines}\nret\n")
}

#[test]
fn destination_masks_are_distinct_and_ordered() {
    // `.xxyz` used to assemble as `.xyz`.
    let (line, column, what) = error_at(&body("mov r0.xxyz, l(1, 2, 3, 4)"));
    assert_eq!((line, column), (4, 9), "{what}");
    assert!(what.contains("order x, y, z, w"), "{what}");
    for bad in [
        "mov r0.yx, l(1, 2, 3, 4)",
        "mov r0.xyzwx, l(1, 2, 3, 4)",
        "mov r0.xg, l(1, 2, 3, 4)",
        "mov r0.rg, l(1, 2, 3, 4)",
        "mov r0., l(1, 2, 3, 4)",
        "mov [precise(yx)] r0.xy, l(1, 2, 3, 4)",
        "mov [precise(xx)] r0.xy, l(1, 2, 3, 4)",
    ] {
        let (line, _, _) = error_at(&body(bad));
        assert_eq!(line, 4, "{bad}");
    }
    let (line, column, _) = error_at("ps_5_0\ndcl_output o0.wzyx\nret\n");
    assert_eq!((line, column), (2, 16));
    // What fxc writes still assembles.
    dxbc::assemble(&body("mov [precise(xz)] r0.xzw, l(1, 2, 3, 4)")).expect("ordered mask");
}

#[test]
fn other_silent_acceptances_are_errors() {
    for bad in [
        // Swizzles mixing xyzw and rgba letters.
        "mov r0.xy, r1.xg",
        // Repeated or contradictory suffixes.
        "add_sat_sat r0.x, r1.x, r1.x",
        "if_z_nz r0.x\nendif",
        // _sat on an instruction that has no saturate bit (it failed only when encoding).
        "store_raw_sat u0.x, l(0), l(1)",
        // Texel offsets outside -8..=7 (they failed only when encoding).
        "sample_aoffimmi(9,0,0) r0.xyzw, r0.xyxx, t0.xyzw, s0",
        // A numbered register without its number.
        "mov r.x, l(1)",
        // More tags than an operand has.
        "mov r0.x, r1.x {min16f} {min16f} {min16f}",
        // Relative indices nested deeper than the encoder allows.
        "mov r0.x, cb0[cb0[cb0[cb0[cb0[cb0[cb0[r0.x + 0].x + 0].x + 0].x + 0].x + 0].x + 0].x + 0].x",
        // An immediate constant buffer row without four values.
        "dcl_immediateConstantBuffer { { 1, 2, 3} }",
    ] {
        let (line, _, what) = error_at(&body(bad));
        assert_eq!(line, 4, "{bad}: {what}");
    }
}

#[test]
fn unclosed_brace_stays_linear() {
    // An unclosed `{` followed by many lines: the assembler used to rescan the joined text for
    // every line (quadratic); now it keeps the brace depth as it goes.
    let mut text = String::from("ps_5_0\ndcl_immediateConstantBuffer {\n");
    for _ in 0..100_000 {
        text.push_str("{ 1, 2, 3, 4},\n");
    }
    let start = Instant::now();
    let (line, _, what) = error_at(&text);
    assert_eq!(line, 2, "{what}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn listing_of_deep_nesting_stays_linear() {
    // 5,000 nested loops, decoded without validation (as `disasm` of a malformed stream is):
    // the listing's indentation is capped at the nesting limit, so it grows linearly.
    let levels = 5_000;
    let mut src = String::from("ps_5_0\ndcl_output o0.xyzw\n");
    src.push_str(&"loop\n".repeat(levels));
    src.push_str(&"endloop\n".repeat(levels));
    src.push_str("ret\n");
    let program = dxbc::assemble(&src).expect("assembles").program;
    let words = dxbc::encode_words(&program).expect("encodes");
    let decoded = dxbc::decode_words(&words).expect("decodes without validation");
    for syntax in [Syntax::Exact, Syntax::Fxc] {
        let listing = dxbc::disassemble(&decoded, syntax);
        let lines = listing.lines().count();
        assert_eq!(lines, 2 * levels + 3);
        let widest = listing.lines().map(str::len).max().unwrap_or(0);
        assert!(widest <= 2 * 64 + 16, "a line is {widest} bytes wide");
        assert!(
            listing.len() < lines * (2 * 64 + 16),
            "{} bytes",
            listing.len()
        );
        // The capped listing still reassembles to the same program.
        assert_eq!(
            dxbc::assemble(&listing).expect("reassembles").program,
            decoded
        );
    }
}
