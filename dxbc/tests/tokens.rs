//! Every corpus token stream decodes and re-encodes word for word.
mod common;

fn code_chunk(blob: &[u8]) -> Option<Vec<u8>> {
    let container = dxbc::Container::parse(blob).ok()?;
    Some(container.code_chunk()?.data.clone())
}

#[test]
fn corpus_code_chunks_round_trip() {
    let blobs = common::blobs();
    let mut ok = 0;
    let mut failures = Vec::new();
    for (name, blob) in &blobs {
        let Some(code) = code_chunk(blob) else {
            continue;
        };
        match dxbc::decode_program(&code) {
            Ok(p) => match dxbc::encode_program(&p) {
                Ok(bytes) if bytes == code => ok += 1,
                Ok(_) => failures.push(format!("{name}: re-encoding differs")),
                Err(e) => failures.push(format!("{name}: encode: {e}")),
            },
            Err(e) => failures.push(format!("{name}: decode: {e}")),
        }
    }
    eprintln!("{ok} code chunks round-tripped");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn programs() -> Vec<(String, dxbc::Program)> {
    common::blobs()
        .into_iter()
        .filter_map(|(name, blob)| {
            let code = code_chunk(&blob)?;
            Some((name, dxbc::decode_program(&code).expect("decodes")))
        })
        .collect()
}

#[test]
fn exact_disassembly_reassembles() {
    let mut failures = Vec::new();
    let mut raw_lines = 0;
    let progs = programs();
    for (name, program) in &progs {
        let text = dxbc::disassemble(program, dxbc::Syntax::Exact);
        raw_lines += text.lines().filter(|l| l.starts_with(".raw")).count();
        for l in text.lines().filter(|l| l.starts_with(".raw")) {
            eprintln!("{name}: {l}");
        }
        match dxbc::assemble(&text) {
            Ok(a) if a.program == *program => {}
            Ok(_) => failures.push(format!("{name}: reassembled program differs")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!("{} programs, {raw_lines} .raw lines", progs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Instruction and declaration lines of a listing, whitespace-normalised; the ICB's continuation
/// lines are joined to their declaration.
fn code_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut started = false;
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        let norm = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if !started {
            started = true; // the version line
            continue;
        }
        if norm.starts_with('{')
            && let Some(last) = out.last_mut()
        {
            last.push(' ');
            last.push_str(&norm);
            continue;
        }
        out.push(norm);
    }
    out
}

#[test]
fn fxc_mode_matches_fxc_listings() {
    let mut total = 0;
    let mut same = 0;
    let mut report = Vec::new();
    for path in common::files("sdk", "o") {
        let Some(listing) = common::listing_for(&path) else {
            continue;
        };
        let blob = std::fs::read(&path).expect("blob");
        let program = dxbc::decode_program(&code_chunk(&blob).expect("code")).expect("decodes");
        let ours = code_lines(&dxbc::disassemble(&program, dxbc::Syntax::Fxc));
        let theirs = code_lines(&listing);
        if ours.len() != theirs.len() {
            report.push(format!(
                "{}: {} lines vs fxc's {}",
                path.display(),
                ours.len(),
                theirs.len()
            ));
        }
        for (a, b) in ours.iter().zip(&theirs) {
            total += 1;
            if a == b {
                same += 1;
            } else if report.len() < 40 {
                report.push(format!("{}:\n  ours: {a}\n  fxc:  {b}", path.display()));
            }
        }
    }
    eprintln!("{same}/{total} lines identical to fxc's listings");
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// fxc prints some float immediates lossily (`%f`); the listing's value then rounds to the
/// nearest f32 and may differ from the blob's bits by exactly that rounding.
fn lossy_equal(orig: &dxbc::Program, listing: &dxbc::Program) -> bool {
    use dxbc::numfmt::{NumberType, fxc_imm, parse_imm};
    let rounded = |bits: u32, ty| parse_imm(&fxc_imm(bits, ty));
    let imm_ok = |a: u32, b: u32| {
        a == b
            || [NumberType::Float, NumberType::Typeless]
                .into_iter()
                .any(|ty| rounded(a, ty) == Some(b))
    };
    fn ops_eq(a: &dxbc::Operand, b: &dxbc::Operand, imm_ok: &dyn Fn(u32, u32) -> bool) -> bool {
        let mut a2 = a.clone();
        a2.imm.clone_from(&b.imm);
        a2 == *b
            && a.imm.len() == b.imm.len()
            && a.imm.iter().zip(&b.imm).all(|(x, y)| imm_ok(*x, *y))
    }
    orig.version == listing.version
        && orig.instructions.len() == listing.instructions.len()
        && orig
            .instructions
            .iter()
            .zip(&listing.instructions)
            .all(|(a, b)| {
                let mut a2 = a.clone();
                a2.operands.clone_from(&b.operands);
                a2.custom.clone_from(&b.custom);
                a2.trailing.clone_from(&b.trailing);
                a2 == *b
                    && a.operands.len() == b.operands.len()
                    && a.operands
                        .iter()
                        .zip(&b.operands)
                        .all(|(x, y)| ops_eq(x, y, &imm_ok))
                    && a.trailing.len() == b.trailing.len()
                    && a.trailing
                        .iter()
                        .zip(&b.trailing)
                        .all(|(x, y)| imm_ok(*x, *y))
                    && match (&a.custom, &b.custom) {
                        (Some(x), Some(y)) => {
                            x.class == y.class
                                && x.payload.len() == y.payload.len()
                                && x.payload
                                    .iter()
                                    .zip(&y.payload)
                                    .all(|(p, q)| imm_ok(*p, *q))
                        }
                        (x, y) => x == y,
                    }
            })
}

#[test]
fn fxc_listings_reassemble() {
    let (mut exact, mut lossy) = (0, 0);
    let mut failures = Vec::new();
    for path in common::files("sdk", "o") {
        let Some(listing) = common::listing_for(&path) else {
            continue;
        };
        let blob = std::fs::read(&path).expect("blob");
        let code = code_chunk(&blob).expect("code");
        let program = dxbc::decode_program(&code).expect("decodes");
        let container = match dxbc::assemble_container(&listing) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let rebuilt = container.code_chunk().expect("code chunk").data.clone();
        let ours = dxbc::decode_program(&rebuilt).expect("own output decodes");
        assert!(dxbc::checksum_matches(&container.to_bytes()));
        if rebuilt == code {
            exact += 1;
        } else if lossy_equal(&program, &ours) {
            lossy += 1;
        } else {
            failures.push(format!(
                "{}: code differs beyond lossy immediates",
                path.display()
            ));
        }
    }
    eprintln!("{exact} listings reassemble exactly, {lossy} differ only in lossy float immediates");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(exact + lossy > 0 || common::shared().is_none());
}
