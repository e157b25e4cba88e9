//! Drawing a program from a seed (the dice, and what each draw may produce).

use dxbc::opcodes::{Ctl, Num};
use dxbc::{Opcode, Stage};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng};

use super::knobs::{Class, Knobs, Row, rows};
use super::tree::*;

/// A seeded source of choices.
struct Dice(TestRng);

impl Dice {
    fn new(seed: u64) -> Dice {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        bytes[8..16].copy_from_slice(&0x6a09_e667_f3bc_c908u64.to_le_bytes());
        Dice(TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
    }
    fn below(&mut self, n: u32) -> u32 {
        if n <= 1 { 0 } else { self.0.next_u32() % n }
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }
    fn mask(&mut self) -> u8 {
        (self.below(15) + 1) as u8
    }
    /// A store's mask: only those fxc writes, `.x`, `.xy`, `.xyz` or `.xyzw` (one draw, as
    /// [`Dice::mask`], so the choices after it stay where they were).
    fn store_mask(&mut self) -> u8 {
        (1u8 << (self.below(4) + 1)) - 1
    }
    fn swizzle(&mut self) -> [u8; 4] {
        match self.below(4) {
            0 => [0, 1, 2, 3],
            1 => {
                let c = self.below(4) as u8;
                [c; 4]
            }
            _ => [0, 1, 2, 3].map(|_| self.below(4) as u8),
        }
    }
    fn word(&mut self) -> u32 {
        let edges = crate::values::EDGES;
        match self.below(4) {
            0 | 1 => edges[self.below(edges.len() as u32) as usize],
            2 => self.below(40),
            _ => self.0.next_u32(),
        }
    }
}

/// What the generator is drawing for.
struct Gen<'a> {
    k: &'a Knobs,
    rows: Vec<(Row, u32)>,
    stage: Stage,
    temps: u32,
    dice: Dice,
}

impl Gen<'_> {
    fn weight(&self, c: Class) -> u32 {
        let m = &self.k.mix;
        match c {
            Class::Float => m.float,
            Class::Int => m.int,
            Class::Bit => m.bit,
            Class::Conversion => m.conversion,
            Class::Compare => m.compare,
            Class::Move => m.moves,
            Class::Double => m.doubles,
        }
    }

    fn scalar(&mut self) -> Src {
        let mut s = self.source(false, 0);
        let c = self.dice.below(4) as u8;
        s.swizzle = [s.swizzle[c as usize]; 4];
        s.neg = false;
        s.abs = false;
        // fxc folds a constant condition or selector away; it reads a register.
        if matches!(s.reg, Reg::Imm(_)) {
            s.reg = Reg::Temp(0);
        }
        s
    }

    /// A source; `float` allows modifiers; `depth` limits nested index sources.
    fn source(&mut self, float: bool, depth: u32) -> Src {
        let compute = self.stage == Stage::Compute;
        let mut choices: Vec<(u32, u32)> = vec![(0, 8), (1, 3), (2, 3), (6, 2)];
        if depth == 0 {
            if self.k.cb_indexing {
                choices.push((3, 2));
            }
            if self.k.icb {
                choices.push((4, 1));
            }
            if self.k.indexable_temps {
                choices.push((5, 1));
            }
        }
        let total: u32 = choices.iter().map(|c| c.1).sum();
        let mut pick = self.dice.below(total);
        let mut kind = 0;
        for (k, w) in &choices {
            if pick < *w {
                kind = *k;
                break;
            }
            pick -= w;
        }
        let reg = match kind {
            0 => Reg::Temp(self.dice.below(self.temps)),
            1 if compute => Reg::Input(0),
            1 => Reg::Input(self.dice.below(INPUTS)),
            2 => Reg::Cb(self.dice.below(CB_REGS)),
            3 => Reg::CbDyn(Box::new(self.index_source(depth))),
            4 => Reg::IcbDyn(Box::new(self.index_source(depth))),
            5 => Reg::IndexableDyn(Box::new(self.index_source(depth))),
            _ => {
                let w = [0; 4].map(|_| self.dice.word());
                Reg::Imm(if self.dice.chance(50) { [w[0]; 4] } else { w })
            }
        };
        // Immediates carry no modifiers (fxc never writes them; the value says it all).
        let modifiers = float && self.k.modifiers && !matches!(reg, Reg::Imm(_));
        Src {
            reg,
            swizzle: self.dice.swizzle(),
            neg: modifiers && self.dice.chance(15),
            abs: modifiers && self.dice.chance(10),
        }
    }

    fn index_source(&mut self, depth: u32) -> Src {
        let mut s = self.source(false, depth + 1);
        let c = self.dice.below(4) as u8;
        s.swizzle = [s.swizzle[c as usize]; 4];
        s
    }

    fn op(&mut self) -> Op {
        let total: u32 = self.rows.iter().map(|r| r.1).sum();
        let mut pick = self.dice.below(total.max(1));
        let mut row = self.rows[0].0;
        for (r, w) in &self.rows {
            if pick < *w {
                row = *r;
                break;
            }
            pick -= w;
        }
        let info = row.opcode.info();
        if row.class == Class::Double {
            return self.double_op(row);
        }
        let dsts = (0..row.dst as usize)
            .map(|d| {
                // Two-destination ops may drop one (`null`), never both.
                if row.dst == 2 && self.dice.chance(30) && d == self.dice.below(2) as usize {
                    None
                } else {
                    Some((self.dice.below(self.temps), self.dice.mask()))
                }
            })
            .collect::<Vec<_>>();
        let mut dst = dsts;
        if dst.iter().all(Option::is_none) {
            dst[0] = Some((self.dice.below(self.temps), 0xf));
        }
        // Two destinations never share a temp: which write lands last is not D3D's to say.
        // They share a mask, as fxc writes them (`sincos r0.xy, r1.xy, …`).
        if let [Some(a), Some(b)] = dst.as_mut_slice() {
            if self.temps > 1 {
                if a.0 == b.0 {
                    b.0 = (a.0 + 1) % self.temps;
                }
                b.1 = a.1;
            } else {
                dst[1] = None;
            }
        }
        let mut src: Vec<Src> = (0..row.src as usize)
            .map(|s| {
                let float = info.num(row.dst as usize + s) == Num::Float;
                self.source(float, 0)
            })
            .collect();
        // fxc folds an instruction whose sources are all constants: one reads a register.
        if src.iter().all(|s| matches!(s.reg, Reg::Imm(_)))
            && let Some(first) = src.first_mut()
        {
            first.reg = Reg::Temp(0);
        }
        let sat = self.k.modifiers
            && info.ctl == Ctl::Value
            && matches!(row.class, Class::Float)
            && self.dice.chance(10);
        Op {
            opcode: row.opcode,
            sat,
            dst,
            src,
        }
    }

    /// A double-precision instruction as fxc writes one: a double result in `.xy`, `.zw` or
    /// both, a 32-bit result (comparisons, `dtof`, `dtoi`, `dtou`) in one or two components, the
    /// k-th reading the k-th double of each source; double sources swizzle whole pairs, a
    /// widening conversion's and `dmovc`'s condition read 32-bit components. No immediates
    /// (fxc writes `d(…)` for those).
    fn double_op(&mut self, row: Row) -> Op {
        use dxbc::Opcode::*;
        let narrow_result = matches!(row.opcode, Deq | Dge | Dlt | Dne | Dtof | Dtoi | Dtou);
        let mask = if narrow_result {
            [0b0001, 0b0010, 0b0011, 0b0100, 0b1000, 0b1100][self.dice.below(6) as usize]
        } else {
            [0b0011, 0b1100, 0b1111][self.dice.below(3) as usize]
        };
        let dst = vec![Some((self.dice.below(self.temps), mask))];
        let info = row.opcode.info();
        let src = (0..row.src as usize)
            .map(|s| {
                let mut src = self.source(false, 0);
                if matches!(src.reg, Reg::Imm(_)) {
                    src.reg = Reg::Temp(self.dice.below(self.temps));
                }
                let double = info.num(row.dst as usize + s) == Num::Double;
                if double {
                    const PAIRS: [[u8; 4]; 4] =
                        [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 2, 3], [2, 3, 0, 1]];
                    src.swizzle = PAIRS[self.dice.below(4) as usize];
                    let modifiers = self.k.modifiers;
                    src.neg = modifiers && self.dice.chance(15);
                    src.abs = modifiers && self.dice.chance(10);
                }
                src
            })
            .collect();
        Op {
            opcode: row.opcode,
            sat: false,
            dst,
            src,
        }
    }

    fn block(&mut self, n: usize, depth: usize, in_loop: bool, top: bool) -> Vec<Stmt> {
        (0..n).map(|_| self.stmt(depth, in_loop, top)).collect()
    }

    fn stmt(&mut self, depth: usize, in_loop: bool, top: bool) -> Stmt {
        let m = self.k.mix;
        let compute = self.stage == Stage::Compute;
        let alu: u32 = self.rows.iter().map(|r| r.1).sum::<u32>().min(1) * 10;
        let flow = if depth < self.k.depth { m.flow } else { 0 };
        let jumps = if in_loop { 1 } else { 0 };
        let discard = u32::from(self.k.discard && self.stage == Stage::Pixel);
        let indexable = u32::from(self.k.indexable_temps);
        let memory = if compute {
            m.memory * u32::from(self.k.buffers || self.k.atomics || (self.k.tgsm && top))
        } else {
            0
        };
        let reads = self.texture_reads();
        let textures = if reads.is_empty() { 0 } else { m.textures };
        let weights = [alu, flow, jumps, discard, indexable, memory, textures];
        let total: u32 = weights.iter().sum();
        let mut pick = self.dice.below(total.max(1));
        let mut kind = 0;
        for (k, w) in weights.iter().enumerate() {
            if pick < *w {
                kind = k;
                break;
            }
            pick -= w;
        }
        match kind {
            1 => {
                let inner = 1 + self.dice.below(3) as usize;
                match self.dice.below(3) {
                    0 => Stmt::If {
                        nonzero: self.dice.chance(50),
                        cond: self.scalar(),
                        then: self.block(inner, depth + 1, in_loop, false),
                        otherwise: if self.dice.chance(50) {
                            Some(self.block(inner, depth + 1, in_loop, false))
                        } else {
                            None
                        },
                    },
                    1 => Stmt::Loop {
                        trips: 1 + self.dice.below(4),
                        body: self.block(inner, depth + 1, true, false),
                    },
                    _ => {
                        let n = 1 + self.dice.below(3);
                        Stmt::Switch {
                            sel: self.scalar(),
                            cases: (0..n)
                                .map(|c| (c, self.block(inner, depth + 1, in_loop, false)))
                                .collect(),
                            default: if self.dice.chance(50) {
                                Some(self.block(1, depth + 1, in_loop, false))
                            } else if self.k.switch_defaults {
                                Some(Vec::new())
                            } else {
                                None
                            },
                        }
                    }
                }
            }
            2 => {
                let nonzero = self.dice.chance(50);
                let cond = self.scalar();
                if self.dice.chance(50) {
                    Stmt::BreakC { nonzero, cond }
                } else {
                    Stmt::ContinueC { nonzero, cond }
                }
            }
            3 => Stmt::Discard {
                nonzero: self.dice.chance(50),
                cond: self.scalar(),
            },
            4 => Stmt::IndexableStore {
                index: self.index_source(1),
                mask: self.dice.mask(),
                value: self.source(false, 1),
            },
            5 => self.memory(top),
            6 => {
                let opcode = reads[self.dice.below(reads.len() as u32) as usize];
                Stmt::TextureRead {
                    opcode,
                    dst: (self.dice.below(self.temps), self.dice.mask()),
                    coords: self.source(opcode != dxbc::Opcode::Ld, 0),
                    lod: self.scalar(),
                }
            }
            _ => Stmt::Op(self.op()),
        }
    }

    /// The texture reads the knobs allow: none with [`Knobs::textures`] off, and none a
    /// translator refused as an opcode.
    fn texture_reads(&self) -> Vec<dxbc::Opcode> {
        if !self.k.textures {
            return Vec::new();
        }
        TEXTURE_READS
            .into_iter()
            .filter(|o| !self.k.excluded.contains(o))
            .collect()
    }

    fn memory(&mut self, top: bool) -> Stmt {
        let mut kinds = Vec::new();
        if self.k.buffers {
            kinds.extend([0, 1]);
        }
        if self.k.atomics {
            kinds.push(2);
        }
        if self.k.tgsm && top {
            kinds.push(3);
        }
        match kinds[self.dice.below(kinds.len() as u32) as usize] {
            0 => Stmt::SrvLoad {
                dst: (self.dice.below(self.temps), self.dice.mask()),
                index: self.scalar(),
                in_range: self.dice.chance(75),
                offset: 16 * self.dice.below(4),
            },
            1 => Stmt::UavStore {
                in_range: self.dice.chance(75),
                mask: self.dice.store_mask(),
                value: self.source(false, 1),
                texture: self.k.uav_textures && self.dice.chance(25),
            },
            2 => Stmt::Atomic {
                opcode: ATOMICS[self.dice.below(ATOMICS.len() as u32) as usize],
                address: self.scalar(),
                value: self.scalar(),
            },
            _ => Stmt::Exchange {
                dst: (self.dice.below(self.temps), 1 << self.dice.below(4)),
                value: self.scalar(),
                sel: self.scalar(),
            },
        }
    }
}

/// The seed of program `index`: independent of how many programs ran before.
fn program_seed(seed: u64, index: u64) -> u64 {
    let mut x = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

/// Program `index` of a campaign with `seed`, and its name: the one place that says how a
/// campaign draws a program (`fuzz`, and `verify`'s and `bench --generated`'s generated
/// programs, draw the same ones).
pub fn nth(knobs: &Knobs, seed: u64, index: u64) -> (String, RandomProgram) {
    (
        format!("fuzz-{seed}-{index}.dxbc"),
        generate(knobs, program_seed(seed, index)),
    )
}

/// Generate one program from a seed.
pub fn generate(k: &Knobs, seed: u64) -> RandomProgram {
    let mut dice = Dice::new(seed);
    let stages = if k.stages.is_empty() {
        vec![Stage::Pixel]
    } else {
        k.stages.clone()
    };
    let stage = stages[dice.below(stages.len() as u32) as usize];
    let rows: Vec<(Row, u32)> = rows()
        .into_iter()
        .filter(|r| !k.excluded.contains(&r.opcode))
        .map(|r| (r, 0))
        .collect();
    let temps = k.temps.clamp(1, 8);
    let mut g = Gen {
        k,
        rows,
        stage,
        temps,
        dice,
    };
    for i in 0..g.rows.len() {
        g.rows[i].1 = g.weight(g.rows[i].0.class);
    }
    // Aimed rows take AIMED_SHARE % of the draws between them, whatever their class's weight
    // (an aimed row of a class weighted 0 is drawn too); the others keep their proportions.
    let aimed = |r: &Row| k.aimed.contains(&r.opcode);
    let n_aimed = g.rows.iter().filter(|(r, _)| aimed(r)).count() as u32;
    if n_aimed > 0 {
        let rest: u32 = g.rows.iter().filter(|(r, _)| !aimed(r)).map(|r| r.1).sum();
        let share = k.aimed_share.clamp(1, 99);
        let each = (rest.max(1) * share / (100 - share))
            .div_ceil(n_aimed)
            .max(1);
        for (r, w) in g.rows.iter_mut() {
            if aimed(r) {
                *w = each;
            }
        }
    }
    g.rows.retain(|r| r.1 > 0);
    if g.rows.is_empty() {
        g.rows.push((
            Row {
                opcode: Opcode::Mov,
                class: Class::Move,
                dst: 1,
                src: 1,
            },
            1,
        ));
    }
    let threads = [[8, 1, 1], [4, 4, 1], [16, 1, 1], [2, 2, 2]][g.dice.below(4) as usize];
    let n = k.statements.max(1);
    let mut body = g.block(n, 0, false, true);
    if stage == Stage::Pixel {
        evaluation(&mut body, k, seed, temps);
    }
    RandomProgram {
        stage,
        temps,
        threads: if stage == Stage::Compute {
            threads
        } else {
            [1, 1, 1]
        },
        body,
        split_moves: k.split_moves,
        shader_model: k.shader_model,
        oob_indices: k.oob_indices,
    }
}

/// An attribute evaluation put into a quarter of the pixel programs, at a top-level place of
/// `body`, with dice of its own: the draws of everything else stay what they were, so the
/// programs of a seed are those of before with one statement more.
fn evaluation(body: &mut Vec<Stmt>, k: &Knobs, seed: u64, temps: u32) {
    let ops: Vec<Opcode> = EVALUATIONS
        .into_iter()
        .filter(|o| !k.excluded.contains(o))
        .collect();
    if !k.evaluations || k.shader_model != dxbc::TargetModel::Sm50 || ops.is_empty() {
        return;
    }
    let mut d = Dice::new(seed ^ 0x6576_616c_7561_7465);
    if !d.chance(25) {
        return;
    }
    let opcode = ops[d.below(ops.len() as u32) as usize];
    let attribute = Src {
        swizzle: d.swizzle(),
        neg: k.modifiers && d.chance(20),
        abs: k.modifiers && d.chance(10),
        ..Src::plain(Reg::Input(d.below(INPUTS)))
    };
    // Offsets of every 4-bit value, and now and then the words of an input (their low bits);
    // the target's samples 0 to 3 (one past them is D3D's undefined case, which generated
    // programs never rely on).
    let offset = if opcode == Opcode::EvalSampleIndex {
        Src::plain(Reg::Imm([d.below(4), 0, 0, 0]))
    } else if d.chance(25) {
        Src::plain(Reg::Input(d.below(INPUTS)))
    } else {
        Src::plain(Reg::Imm([d.below(16), d.below(16), 0, 0]))
    };
    let stmt = Stmt::Evaluate {
        opcode,
        dst: (d.below(temps), d.mask()),
        attribute,
        offset,
    };
    let at = d.below(body.len() as u32 + 1) as usize;
    body.insert(at, stmt);
}

/// A proptest strategy over random programs (each drawn from a seed the strategy picks).
pub fn program(knobs: Knobs) -> impl Strategy<Value = RandomProgram> {
    any::<u64>().prop_map(move |seed| generate(&knobs, seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Mix;

    /// What a drawn statement may be, given where it sits; the registers it names are in range.
    fn check(p: &RandomProgram, k: &Knobs, stmts: &[Stmt], depth: usize, in_loop: bool) {
        let src_ok = |s: &Src| {
            let mut ok = true;
            visit_srcs(
                &[Stmt::Discard {
                    nonzero: true,
                    cond: s.clone(),
                }],
                &mut |s| {
                    ok &= match &s.reg {
                        Reg::Temp(t) => *t < p.temps,
                        Reg::Input(r) => *r < INPUTS,
                        Reg::Cb(r) => *r < CB_REGS,
                        _ => true,
                    } && s.swizzle.iter().all(|c| *c < 4);
                },
            );
            ok
        };
        for s in stmts {
            let what = format!("{s:?} at depth {depth}");
            assert!(s.sources().into_iter().all(src_ok), "{what}");
            assert!(s.written_temps().iter().all(|t| *t < p.temps), "{what}");
            if !s.bodies().is_empty() {
                assert!(depth < k.depth, "{what}: nested too deep");
            }
            match s {
                Stmt::Op(o) => {
                    assert!(o.dst.iter().any(Option::is_some), "{what}");
                    if let [Some(a), Some(b)] = o.dst.as_slice() {
                        assert_ne!(a.0, b.0, "{what}: two destinations share a temp");
                    }
                    assert!(!k.excluded.contains(&o.opcode), "{what}: excluded");
                }
                Stmt::Loop { trips, body } => {
                    assert!((1..=4).contains(trips), "{what}");
                    check(p, k, body, depth + 1, true);
                    continue;
                }
                Stmt::BreakC { .. } | Stmt::ContinueC { .. } => assert!(in_loop, "{what}"),
                Stmt::Switch { cases, .. } => {
                    let labels: Vec<u32> = cases.iter().map(|c| c.0).collect();
                    assert_eq!(
                        labels,
                        (0..labels.len() as u32).collect::<Vec<_>>(),
                        "{what}"
                    );
                    assert!(labels.len() <= 4, "{what}");
                }
                Stmt::Discard { .. } => assert_eq!(p.stage, Stage::Pixel, "{what}"),
                Stmt::Exchange { .. } => assert_eq!(depth, 0, "{what}: barrier in flow"),
                Stmt::Atomic { opcode, .. } => assert!(ATOMICS.contains(opcode), "{what}"),
                _ => {}
            }
            if matches!(
                s,
                Stmt::SrvLoad { .. }
                    | Stmt::UavStore { .. }
                    | Stmt::Atomic { .. }
                    | Stmt::Exchange { .. }
            ) {
                assert_eq!(p.stage, Stage::Compute, "{what}");
            }
            if let Stmt::Evaluate {
                opcode, attribute, ..
            } = s
            {
                assert_eq!(p.stage, Stage::Pixel, "{what}");
                assert!(EVALUATIONS.contains(opcode), "{what}");
                assert!(matches!(attribute.reg, Reg::Input(_)), "{what}");
            }
            for b in s.bodies() {
                check(p, k, b, depth + 1, in_loop);
            }
        }
    }

    #[test]
    fn drawing_is_deterministic_per_seed_and_keeps_the_tree_rules() {
        let k = Knobs::default();
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..300 {
            let p = generate(&k, seed);
            assert_eq!(generate(&k, seed), p, "seed {seed}");
            assert!(k.stages.contains(&p.stage));
            // One statement more where an evaluation was put in (pixel programs).
            let evaluations = p
                .body
                .iter()
                .filter(|s| matches!(s, Stmt::Evaluate { .. }))
                .count();
            assert!(
                evaluations <= usize::from(p.stage == Stage::Pixel),
                "seed {seed}"
            );
            assert_eq!(p.body.len(), k.statements + evaluations);
            if p.stage != Stage::Compute {
                assert_eq!(p.threads, [1, 1, 1]);
            }
            check(&p, &k, &p.body, 0, false);
            distinct.insert(p);
        }
        assert!(distinct.len() > 290, "{} distinct programs", distinct.len());
    }

    #[test]
    fn feature_knobs_are_honoured() {
        let floats: Vec<Opcode> = rows()
            .into_iter()
            .filter(|r| r.class == Class::Float)
            .map(|r| r.opcode)
            .collect();
        let k = Knobs {
            stages: vec![Stage::Compute, Stage::Pixel],
            temps: 40,
            excluded: floats,
            modifiers: false,
            ..Knobs::default()
        }
        .registers_only();
        for seed in 0..300 {
            let p = generate(&k, seed);
            assert_eq!(p.temps, 8, "temps are clamped to 1..=8");
            check(&p, &k, &p.body, 0, false);
            walk(&p.body, &mut |s| {
                assert!(
                    matches!(
                        s,
                        Stmt::Op(_)
                            | Stmt::If { .. }
                            | Stmt::Loop { .. }
                            | Stmt::Switch { .. }
                            | Stmt::BreakC { .. }
                            | Stmt::ContinueC { .. }
                    ),
                    "seed {seed}: {s:?} with its feature off"
                );
                if let Stmt::Op(o) = s {
                    assert!(!o.sat, "seed {seed}: _sat without modifiers");
                }
            });
            visit_srcs(&p.body, &mut |s| {
                assert!(!s.neg && !s.abs, "seed {seed}: modifier on {s:?}");
                assert!(
                    !matches!(s.reg, Reg::CbDyn(_) | Reg::IcbDyn(_) | Reg::IndexableDyn(_)),
                    "seed {seed}: dynamic index {s:?}"
                );
            });
        }
        // Flat, move-only programs of one temp: no flow at depth 0, only the weighted class.
        let moves = Knobs {
            stages: vec![Stage::Vertex],
            depth: 0,
            temps: 0,
            mix: Mix {
                float: 0,
                int: 0,
                bit: 0,
                conversion: 0,
                compare: 0,
                doubles: 0,
                textures: 0,
                ..Knobs::default().mix
            },
            ..Knobs::default()
        };
        for seed in 0..100 {
            let p = generate(&moves, seed);
            assert_eq!((p.stage, p.temps), (Stage::Vertex, 1));
            for s in &p.body {
                match s {
                    Stmt::Op(o) => assert!(o.opcode.info().has(dxbc::opcodes::Flags::MOVE)),
                    Stmt::IndexableStore { .. } => {}
                    other => panic!("seed {seed}: {other:?} in a flat move-only program"),
                }
            }
        }
    }

    #[test]
    fn texture_reads_are_drawn_in_every_stage_unless_excluded() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..600 {
            let p = generate(&Knobs::default(), seed);
            walk(&p.body, &mut |s| {
                if let Stmt::TextureRead { opcode, .. } = s {
                    seen.insert((p.stage as u32, *opcode as u32));
                }
            });
        }
        for op in TEXTURE_READS {
            for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
                assert!(
                    seen.contains(&(stage as u32, op as u32)),
                    "{op:?} in {stage:?}"
                );
            }
        }
        let k = Knobs {
            excluded: vec![dxbc::Opcode::Gather4],
            ..Knobs::default()
        };
        for seed in 0..300 {
            walk(&generate(&k, seed).body, &mut |s| {
                assert!(
                    !matches!(
                        s,
                        Stmt::TextureRead {
                            opcode: dxbc::Opcode::Gather4,
                            ..
                        }
                    ),
                    "seed {seed}"
                );
            });
        }
    }
}
