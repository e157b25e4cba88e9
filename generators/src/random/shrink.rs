//! Simpler versions of a program, for shrinking a divergence.

use dxbc::{Opcode, Stage};

use super::tree::*;

/// Simpler versions of a source: an immediate zero or one, the first input, a plain temp,
/// without modifiers, with an identity swizzle.
fn src_variants(s: &Src) -> Vec<Src> {
    let mut out = Vec::new();
    let zero = Src::plain(Reg::Imm([0; 4]));
    if *s != zero {
        out.push(zero);
    }
    let one = Src::plain(Reg::Imm([0x3f80_0000; 4]));
    if !matches!(s.reg, Reg::Imm(_)) {
        out.push(one);
    }
    if !matches!(s.reg, Reg::Input(_) | Reg::Imm(_)) {
        out.push(Src {
            reg: Reg::Input(0),
            ..s.clone()
        });
    }
    match &s.reg {
        Reg::CbDyn(i) | Reg::IcbDyn(i) | Reg::IndexableDyn(i) => {
            out.push(Src {
                reg: Reg::Cb(0),
                ..s.clone()
            });
            for v in src_variants(i) {
                let reg = match &s.reg {
                    Reg::CbDyn(_) => Reg::CbDyn(Box::new(v)),
                    Reg::IcbDyn(_) => Reg::IcbDyn(Box::new(v)),
                    _ => Reg::IndexableDyn(Box::new(v)),
                };
                out.push(Src { reg, ..s.clone() });
            }
        }
        Reg::Temp(t) if *t > 0 => out.push(Src {
            reg: Reg::Temp(0),
            ..s.clone()
        }),
        Reg::Imm(w) => {
            for (c, x) in w.iter().enumerate() {
                if *x != 0 {
                    let mut w2 = *w;
                    w2[c] = 0;
                    out.push(Src {
                        reg: Reg::Imm(w2),
                        ..s.clone()
                    });
                }
            }
        }
        _ => {}
    }
    if s.neg || s.abs {
        out.push(Src {
            neg: false,
            abs: false,
            ..s.clone()
        });
    }
    if s.swizzle != [0, 1, 2, 3] && !matches!(s.reg, Reg::Imm(_)) {
        out.push(Src {
            swizzle: [0, 1, 2, 3],
            ..s.clone()
        });
    }
    out
}

/// Simpler versions of an instruction: fewer written components, no `_sat`, simpler sources.
fn op_variants(o: &Op) -> Vec<Op> {
    let mut out = Vec::new();
    // The instruction replaced by a move of its first source into its first destination:
    // what is left when the opcode itself does not matter.
    if o.opcode != Opcode::Mov
        && let (Some(Some(d)), Some(s)) = (o.dst.iter().find(|d| d.is_some()), o.src.first())
    {
        out.push(Op {
            opcode: Opcode::Mov,
            sat: false,
            dst: vec![Some(*d)],
            src: vec![s.clone()],
        });
    }
    if o.sat {
        out.push(Op {
            sat: false,
            ..o.clone()
        });
    }
    for (k, d) in o.dst.iter().enumerate() {
        if let Some((t, m)) = d {
            if m.count_ones() > 1 {
                let mut v = o.clone();
                v.dst[k] = Some((*t, 1 << m.trailing_zeros()));
                out.push(v);
            }
            if *t > 0 {
                let mut v = o.clone();
                v.dst[k] = Some((0, *m));
                if v.dst.iter().flatten().filter(|x| x.0 == 0).count() < 2 {
                    out.push(v);
                }
            }
            if o.dst.iter().flatten().count() == 2 {
                let mut v = o.clone();
                v.dst[k] = None;
                out.push(v);
            }
        }
    }
    for (k, s) in o.src.iter().enumerate() {
        for v in src_variants(s) {
            let mut n = o.clone();
            n.src[k] = v;
            out.push(n);
        }
    }
    out
}

/// Every simpler version of a block: a statement removed, a compound statement replaced by one
/// of its bodies, a loop with one trip, an instruction simplified, recursively.
fn block_variants(stmts: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    let with = |i: usize, replacement: Vec<Stmt>| {
        let mut v = stmts[..i].to_vec();
        v.extend(replacement);
        v.extend_from_slice(&stmts[i + 1..]);
        v
    };
    for i in 0..stmts.len() {
        out.push(with(i, Vec::new()));
    }
    for (i, s) in stmts.iter().enumerate() {
        match s {
            Stmt::If {
                nonzero,
                cond,
                then,
                otherwise,
            } => {
                out.push(with(i, then.clone()));
                if let Some(o) = otherwise {
                    out.push(with(i, o.clone()));
                    out.push(with(
                        i,
                        vec![Stmt::If {
                            nonzero: *nonzero,
                            cond: cond.clone(),
                            then: then.clone(),
                            otherwise: None,
                        }],
                    ));
                }
                for t in block_variants(then) {
                    out.push(with(
                        i,
                        vec![Stmt::If {
                            nonzero: *nonzero,
                            cond: cond.clone(),
                            then: t,
                            otherwise: otherwise.clone(),
                        }],
                    ));
                }
                if let Some(o) = otherwise {
                    for e in block_variants(o) {
                        out.push(with(
                            i,
                            vec![Stmt::If {
                                nonzero: *nonzero,
                                cond: cond.clone(),
                                then: then.clone(),
                                otherwise: Some(e),
                            }],
                        ));
                    }
                }
                for c in src_variants(cond) {
                    out.push(with(
                        i,
                        vec![Stmt::If {
                            nonzero: *nonzero,
                            cond: c,
                            then: then.clone(),
                            otherwise: otherwise.clone(),
                        }],
                    ));
                }
            }
            Stmt::Loop { trips, body } => {
                // A body without break/continue can stand alone.
                if !body
                    .iter()
                    .any(|s| matches!(s, Stmt::BreakC { .. } | Stmt::ContinueC { .. }))
                {
                    out.push(with(i, body.clone()));
                }
                if *trips > 1 {
                    out.push(with(
                        i,
                        vec![Stmt::Loop {
                            trips: 1,
                            body: body.clone(),
                        }],
                    ));
                }
                for b in block_variants(body) {
                    out.push(with(
                        i,
                        vec![Stmt::Loop {
                            trips: *trips,
                            body: b,
                        }],
                    ));
                }
            }
            Stmt::Switch {
                sel,
                cases,
                default,
            } => {
                for (_, body) in cases {
                    out.push(with(i, body.clone()));
                }
                if let Some(d) = default {
                    out.push(with(i, d.clone()));
                }
                for k in 0..cases.len() {
                    let mut cs = cases.clone();
                    cs.remove(k);
                    out.push(with(
                        i,
                        vec![Stmt::Switch {
                            sel: sel.clone(),
                            cases: cs,
                            default: default.clone(),
                        }],
                    ));
                    for b in block_variants(&cases[k].1) {
                        let mut cs = cases.clone();
                        cs[k].1 = b;
                        out.push(with(
                            i,
                            vec![Stmt::Switch {
                                sel: sel.clone(),
                                cases: cs,
                                default: default.clone(),
                            }],
                        ));
                    }
                }
                for c in src_variants(sel) {
                    out.push(with(
                        i,
                        vec![Stmt::Switch {
                            sel: c,
                            cases: cases.clone(),
                            default: default.clone(),
                        }],
                    ));
                }
            }
            Stmt::Op(o) => {
                for v in op_variants(o) {
                    out.push(with(i, vec![Stmt::Op(v)]));
                }
            }
            // Leaf statements: each of their sources simplified, in turn.
            _ => {}
        }
        for k in 0..own_sources(&mut s.clone()).len() {
            let mut base = s.clone();
            let Some(src) = own_sources(&mut base).get(k).map(|x| (**x).clone()) else {
                continue;
            };
            for v in src_variants(&src) {
                let mut n = base.clone();
                if let Some(slot) = own_sources(&mut n).into_iter().nth(k) {
                    *slot = v;
                }
                out.push(with(i, vec![n]));
            }
        }
        if let Stmt::UavStore {
            in_range,
            mask,
            value,
            texture: false,
        } = s
            && *mask > 1
        {
            out.push(with(
                i,
                vec![Stmt::UavStore {
                    in_range: *in_range,
                    // `.x` alone: the smallest store mask fxc writes.
                    mask: 1,
                    value: value.clone(),
                    texture: false,
                }],
            ));
        }
    }
    out
}

/// The sources of a leaf statement the shrinker may simplify (an `if`'s condition, a switch's
/// selector and an instruction's operands are simplified by their own rules).
fn own_sources(s: &mut Stmt) -> Vec<&mut Src> {
    match s {
        Stmt::BreakC { cond, .. } | Stmt::ContinueC { cond, .. } | Stmt::Discard { cond, .. } => {
            vec![cond]
        }
        Stmt::IndexableStore { value, .. }
        | Stmt::UavStore { value, .. }
        | Stmt::Exchange { value, .. } => vec![value],
        Stmt::SrvLoad { index, .. } => vec![index],
        Stmt::TextureRead { coords, lod, .. } => vec![coords, lod],
        Stmt::Evaluate { offset, .. } => vec![offset],
        Stmt::Atomic { address, value, .. } => vec![value, address],
        _ => Vec::new(),
    }
}

/// Whether a block mentions temp `t` (as a source or destination).
fn mentions(stmts: &[Stmt], t: u32) -> bool {
    let mut found = false;
    visit_srcs(stmts, &mut |s| {
        let mut r = Vec::new();
        reads(s, &mut r);
        found |= r.iter().any(|(x, _)| *x == t);
    });
    walk(stmts, &mut |s| found |= s.written_temps().contains(&t));
    found
}

/// Rename every temp `t` to `map(t)`, in sources and destinations.
fn remap(stmts: &mut [Stmt], map: &dyn Fn(u32) -> u32) {
    fn src(s: &mut Src, map: &dyn Fn(u32) -> u32) {
        match &mut s.reg {
            Reg::Temp(t) => *t = map(*t),
            Reg::CbDyn(i) | Reg::IcbDyn(i) | Reg::IndexableDyn(i) => src(i, map),
            _ => {}
        }
    }
    for s in stmts {
        match s {
            Stmt::Op(o) => {
                o.src.iter_mut().for_each(|x| src(x, map));
                for (t, _) in o.dst.iter_mut().flatten() {
                    *t = map(*t);
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                src(cond, map);
                remap(then, map);
                if let Some(o) = otherwise {
                    remap(o, map);
                }
            }
            Stmt::Loop { body, .. } => remap(body, map),
            Stmt::BreakC { cond, .. }
            | Stmt::ContinueC { cond, .. }
            | Stmt::Discard { cond, .. } => src(cond, map),
            Stmt::Switch {
                sel,
                cases,
                default,
            } => {
                src(sel, map);
                for c in cases {
                    remap(&mut c.1, map);
                }
                if let Some(d) = default {
                    remap(d, map);
                }
            }
            Stmt::IndexableStore { index, value, .. } => {
                src(index, map);
                src(value, map);
            }
            Stmt::SrvLoad { dst, index, .. } => {
                dst.0 = map(dst.0);
                src(index, map);
            }
            Stmt::UavStore { value, .. } => src(value, map),
            Stmt::TextureRead {
                dst, coords, lod, ..
            } => {
                dst.0 = map(dst.0);
                src(coords, map);
                src(lod, map);
            }
            Stmt::Evaluate { dst, offset, .. } => {
                dst.0 = map(dst.0);
                src(offset, map);
            }
            Stmt::Atomic { address, value, .. } => {
                src(address, map);
                src(value, map);
            }
            Stmt::Exchange { dst, value, sel } => {
                dst.0 = map(dst.0);
                src(value, map);
                src(sel, map);
            }
        }
    }
}

impl RandomProgram {
    /// Simpler programs, most aggressive first: a statement dropped, control flow flattened,
    /// operands, swizzles, masks and constants simplified, fewer temps (and so outputs),
    /// one thread.
    pub fn shrink_candidates(&self) -> Vec<RandomProgram> {
        let mut out: Vec<RandomProgram> = block_variants(&self.body)
            .into_iter()
            .map(|body| RandomProgram {
                body,
                ..self.clone()
            })
            .collect();
        // Renumber the temps the body mentions to 0.., dropping the rest (and their outputs).
        let used: Vec<u32> = (0..self.temps)
            .filter(|t| mentions(&self.body, *t))
            .collect();
        if (used.len() as u32) < self.temps {
            let mut body = self.body.clone();
            let map = |t: u32| used.iter().position(|u| *u == t).unwrap_or(0) as u32;
            remap(&mut body, &map);
            out.insert(
                0,
                RandomProgram {
                    temps: (used.len() as u32).max(1),
                    body,
                    ..self.clone()
                },
            );
        }
        if self.stage == Stage::Compute && self.threads != [1, 1, 1] {
            out.push(RandomProgram {
                threads: [1, 1, 1],
                ..self.clone()
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{Knobs, generate};

    /// Statements, nested ones included.
    fn size(p: &RandomProgram) -> usize {
        let mut n = 0;
        walk(&p.body, &mut |_| n += 1);
        n
    }

    #[test]
    fn a_shrink_step_never_grows_the_program_and_always_changes_it() {
        for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
            let k = Knobs {
                stages: vec![stage],
                ..Knobs::default()
            };
            for seed in 0..15 {
                let p = generate(&k, seed);
                let candidates = p.shrink_candidates();
                assert!(!candidates.is_empty(), "{stage:?} {seed}");
                for c in &candidates {
                    assert_ne!(c, &p, "{stage:?} {seed}: a candidate equal to its program");
                    assert!(size(c) <= size(&p), "{stage:?} {seed}: grew\n{c:?}");
                    assert!(c.temps <= p.temps && c.stage == p.stage);
                    assert!(c.threads.iter().product::<u32>() <= p.threads.iter().product());
                }
            }
        }
    }

    #[test]
    fn shrinking_to_a_fixed_point_keeps_the_predicate_and_ends_at_one_statement() {
        let k = Knobs::default();
        for seed in 0..6 {
            let mut p = generate(&k, seed);
            // What the divergence is about: the first instruction that is not a move.
            let mut target = None;
            walk(&p.body, &mut |s| {
                if let Stmt::Op(o) = s
                    && o.opcode != Opcode::Mov
                {
                    target.get_or_insert(o.opcode);
                }
            });
            let Some(target) = target else { continue };
            let keeps = |p: &RandomProgram| {
                let mut found = false;
                walk(&p.body, &mut |s| {
                    found |= matches!(s, Stmt::Op(o) if o.opcode == target);
                });
                found
            };
            let mut steps = 0;
            while let Some(next) = p.shrink_candidates().into_iter().find(|c| keeps(c)) {
                assert!(size(&next) <= size(&p));
                p = next;
                steps += 1;
                assert!(steps < 2000, "seed {seed}: shrinking does not converge");
            }
            assert!(keeps(&p), "seed {seed}");
            assert_eq!(size(&p), 1, "seed {seed}: left {:?}", p.body);
            p.blob().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}
