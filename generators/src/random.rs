//! Random programs, valid by construction, for fuzzing translators (`dxdiff fuzz`).
//!
//! A program is a small tree ([`Stmt`]) over a fixed register layout, lowered to assembly text
//! and assembled by the `dxbc` crate, so every generated program is a real container that
//! decodes to itself. The instruction rows come from the one opcode table ([`rows`]); what is
//! generated is set by one configuration struct ([`Knobs`]), which a translator narrows to what it
//! supports before a campaign.
//!
//! Nothing D3D leaves undefined is executed (docs/fuzz.md lists the rules; each is enforced
//! here, by construction or by the reconditioning done at lowering):
//! 1. a temp that may be read before it is written on every path is initialised at the start;
//! 2. a loop has its own counter register, set right before it, tested and decremented first
//!    in its body, so it runs at most `trips` times;
//! 3. dynamic indices into constant buffers, the immediate constant buffer and indexable temps
//!    are masked into range first (`and rI.x, sel, l(size-1)`), unless `oob_indices` asks;
//! 4. an indexable temp is written whole before any read;
//! 5. TGSM: every thread writes its own slot, then a barrier, then the reads, then a barrier;
//!    barriers only at the top level (uniform control flow);
//! 6. UAV stores go to the thread's own element or far out of range (D3D discards those), so no
//!    two threads store to one word; atomics use only order-independent operations, each on
//!    its own words;
//! 7. every output register is written at the end.

use std::fmt::Write as _;

use dxbc::container::FourCC;
use dxbc::opcodes::{Ctl, Kind, Num, TABLE};
use dxbc::{Opcode, Stage};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// The generator's configuration. Every field is a knob a campaign or a translator's narrowing
/// may change.
#[derive(Debug, Clone, PartialEq)]
pub struct Knobs {
    /// Stages to draw from.
    pub stages: Vec<Stage>,
    /// Statements at the top level (each may nest more).
    pub statements: usize,
    /// Deepest nesting of if/loop/switch.
    pub depth: usize,
    /// Working temps `r0..` (also the number of outputs); 1..=8.
    pub temps: u32,
    /// Relative weights of the statement kinds.
    pub mix: Mix,
    /// Opcodes never generated (what a translator rejects).
    pub excluded: Vec<Opcode>,
    /// Source modifiers (`-`, `|x|`) and `_sat`.
    pub modifiers: bool,
    /// Dynamically indexed constant-buffer reads (in range).
    pub cb_indexing: bool,
    /// The immediate constant buffer.
    pub icb: bool,
    /// Indexable temps (`x0`), read with dynamic indices.
    pub indexable_temps: bool,
    /// Dynamic indices that may be out of range (D3D returns 0 for cb/icb; undefined for
    /// indexable temps, so only cb/icb get them). Off by default.
    pub oob_indices: bool,
    /// For compute: TGSM exchanges with barriers.
    pub tgsm: bool,
    /// For compute: atomics on a raw UAV.
    pub atomics: bool,
    /// For compute: structured SRV loads and UAV stores, in and out of range.
    pub buffers: bool,
    /// For pixel programs: `discard`.
    pub discard: bool,
}

/// Relative weights of statement kinds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mix {
    pub float: u32,
    pub int: u32,
    pub bit: u32,
    pub conversion: u32,
    pub compare: u32,
    pub moves: u32,
    pub flow: u32,
    pub memory: u32,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            stages: vec![Stage::Pixel, Stage::Vertex, Stage::Compute],
            statements: 8,
            depth: 2,
            temps: 4,
            mix: Mix {
                float: 6,
                int: 4,
                bit: 3,
                conversion: 2,
                compare: 3,
                moves: 2,
                flow: 3,
                memory: 3,
            },
            excluded: Vec::new(),
            modifiers: true,
            cb_indexing: true,
            icb: true,
            indexable_temps: true,
            oob_indices: false,
            tgsm: true,
            atomics: true,
            buffers: true,
            discard: true,
        }
    }
}

/// The instruction class a row belongs to (its weight in [`Mix`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    Float,
    Int,
    Bit,
    Conversion,
    Compare,
    Move,
}

/// One generatable instruction: derived from the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub opcode: Opcode,
    pub class: Class,
    pub dst: u8,
    pub src: u8,
}

/// Every plain register instruction of Shader Model 5.0 and below (the rows single-instruction
/// programs use too), with its class.
pub fn rows() -> Vec<Row> {
    TABLE
        .iter()
        .filter(|i| i.model <= dxbc::opcodes::Model::Sm50D3d111 && i.kind != Kind::Double)
        .filter(|i| crate::programs::is_single_alu(i.opcode))
        .map(|i| Row {
            opcode: i.opcode,
            class: match (i.opcode, i.kind) {
                (Opcode::Mov | Opcode::Movc | Opcode::Swapc, _) => Class::Move,
                (_, Kind::AluFloat) => Class::Float,
                (_, Kind::AluInt | Kind::AluUint) => Class::Int,
                (_, Kind::Bit) => Class::Bit,
                (_, Kind::Conversion) => Class::Conversion,
                _ => Class::Compare,
            },
            dst: i.dst,
            src: i.src,
        })
        .collect()
}

/// Where a source reads from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Reg {
    Temp(u32),
    /// `v#` (pixel/vertex) or, in compute, `vThreadIDInGroupFlattened`.
    Input(u32),
    Cb(u32),
    /// `cb0[rI.x + 0]`, the index masked from a scalar source.
    CbDyn(Box<Src>),
    IcbDyn(Box<Src>),
    IndexableDyn(Box<Src>),
    Imm([u32; 4]),
}

/// A source operand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Src {
    pub reg: Reg,
    pub swizzle: [u8; 4],
    pub neg: bool,
    pub abs: bool,
}

impl Src {
    fn plain(reg: Reg) -> Src {
        Src {
            reg,
            swizzle: [0, 1, 2, 3],
            neg: false,
            abs: false,
        }
    }
}

/// One instruction: `opcode[_sat] dst..., src...`; a destination of `None` is `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Op {
    pub opcode: Opcode,
    pub sat: bool,
    /// (temp, write mask) per destination.
    pub dst: Vec<Option<(u32, u8)>>,
    pub src: Vec<Src>,
}

/// Atomic operations whose final memory does not depend on thread order.
pub const ATOMICS: [Opcode; 8] = [
    Opcode::AtomicIadd,
    Opcode::AtomicAnd,
    Opcode::AtomicOr,
    Opcode::AtomicXor,
    Opcode::AtomicUmax,
    Opcode::AtomicUmin,
    Opcode::AtomicImax,
    Opcode::AtomicImin,
];

/// A statement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Stmt {
    Op(Op),
    If {
        nonzero: bool,
        cond: Src,
        then: Vec<Stmt>,
        otherwise: Option<Vec<Stmt>>,
    },
    Loop {
        trips: u32,
        body: Vec<Stmt>,
    },
    /// Only inside a loop.
    BreakC {
        nonzero: bool,
        cond: Src,
    },
    /// Only inside a loop.
    ContinueC {
        nonzero: bool,
        cond: Src,
    },
    /// `switch` over a selector masked to 0..=3.
    Switch {
        sel: Src,
        cases: Vec<(u32, Vec<Stmt>)>,
        default: Option<Vec<Stmt>>,
    },
    Discard {
        nonzero: bool,
        cond: Src,
    },
    /// Write the indexable temp at a dynamic index (masked in range).
    IndexableStore {
        index: Src,
        mask: u8,
        value: Src,
    },
    /// Compute: a structured SRV load into a temp, in or out of range.
    SrvLoad {
        dst: (u32, u8),
        index: Src,
        in_range: bool,
        offset: u32,
    },
    /// Compute: a structured UAV store to the thread's own element, or out of range.
    UavStore {
        in_range: bool,
        mask: u8,
        value: Src,
    },
    /// Compute: an order-independent atomic on one of four words of a raw UAV.
    Atomic {
        opcode: Opcode,
        address: Src,
        value: Src,
    },
    /// Compute, top level only: each thread stores a word to its TGSM slot, barrier, reads the
    /// slot a source selects, barrier.
    Exchange {
        dst: (u32, u8),
        value: Src,
        sel: Src,
    },
}

/// A generated program.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RandomProgram {
    pub stage: Stage,
    /// Working temps, and outputs.
    pub temps: u32,
    /// Compute: threads per group.
    pub threads: [u32; 3],
    pub body: Vec<Stmt>,
    /// Out-of-range dynamic cb/icb indices allowed (the knob, kept for lowering).
    pub oob_indices: bool,
}

/// Constant-buffer registers (a power of two, so masking keeps indices in range).
pub const CB_REGS: u32 = 8;
/// Immediate constant buffer rows.
pub const ICB_ROWS: u32 = 8;
/// Indexable temp elements.
pub const INDEXABLE: u32 = 4;
/// Input registers of pixel and vertex programs.
pub const INPUTS: u32 = 4;
/// Reserved index temps (one per source slot of an instruction, plus a destination's).
const INDEX_TEMPS: u32 = 5;
/// The words of the immediate constant buffer: edge values.
fn icb_words() -> Vec<u32> {
    (0..ICB_ROWS * 4)
        .map(|i| crate::values::EDGES[(i as usize * 7) % crate::values::EDGES.len()])
        .collect()
}

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
        }
    }

    fn scalar(&mut self) -> Src {
        let mut s = self.source(false, 0);
        let c = self.dice.below(4) as u8;
        s.swizzle = [s.swizzle[c as usize]; 4];
        s.neg = false;
        s.abs = false;
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
        if let [Some(a), Some(b)] = dst.as_mut_slice() {
            if self.temps > 1 {
                if a.0 == b.0 {
                    b.0 = (a.0 + 1) % self.temps;
                }
            } else {
                dst[1] = None;
            }
        }
        let src = (0..row.src as usize)
            .map(|s| {
                let float = info.num(row.dst as usize + s) == Num::Float;
                self.source(float, 0)
            })
            .collect();
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
        let weights = [alu, flow, jumps, discard, indexable, memory];
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
            _ => Stmt::Op(self.op()),
        }
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
                mask: self.dice.mask(),
                value: self.source(false, 1),
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
    let body = g.block(n, 0, false, true);
    RandomProgram {
        stage,
        temps,
        threads: if stage == Stage::Compute {
            threads
        } else {
            [1, 1, 1]
        },
        body,
        oob_indices: k.oob_indices,
    }
}

/// A proptest strategy over random programs (each drawn from a seed the strategy picks).
pub fn program(knobs: Knobs) -> impl Strategy<Value = RandomProgram> {
    any::<u64>().prop_map(move |seed| generate(&knobs, seed))
}

/// Why a generated program did not become a container (a generator bug).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("generated program does not assemble: {why}\n{asm}")]
pub struct LowerError {
    pub why: String,
    pub asm: String,
}

/// Lowering state.
struct Lower<'a> {
    p: &'a RandomProgram,
    out: String,
    indent: usize,
    uses_indexable: bool,
    uses_icb: bool,
    uses_cb_dyn: bool,
    uses: Uses,
}

/// Which resources a compute program touches (only those are declared).
#[derive(Debug, Default, Clone, Copy)]
struct Uses {
    srv: bool,
    uav_store: bool,
    atomics: bool,
    tgsm: bool,
}

const COMP: [char; 4] = ['x', 'y', 'z', 'w'];

fn mask_text(mask: u8) -> String {
    (0..4)
        .filter(|c| mask & (1 << c) != 0)
        .map(|c| COMP[c])
        .collect()
}

impl RandomProgram {
    /// Loop nesting depth (one counter register per level).
    fn loop_depth(stmts: &[Stmt]) -> u32 {
        stmts
            .iter()
            .map(|s| {
                u32::from(matches!(s, Stmt::Loop { .. }))
                    + s.bodies()
                        .into_iter()
                        .map(Self::loop_depth)
                        .max()
                        .unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    }

    fn counter_base(&self) -> u32 {
        self.temps
    }

    fn index_base(&self) -> u32 {
        self.temps + Self::loop_depth(&self.body)
    }

    /// The assembly text.
    pub fn asm(&self) -> String {
        let mut l = Lower {
            p: self,
            out: String::new(),
            indent: 0,
            uses_indexable: false,
            uses_icb: false,
            uses_cb_dyn: false,
            uses: Uses::default(),
        };
        scan(&self.body, &mut l);
        let mut body = String::new();
        std::mem::swap(&mut l.out, &mut body);
        // Reconditioning: initialise every temp some read may reach before a write.
        let mut defined = vec![0u8; self.temps as usize];
        let mut need = vec![false; self.temps as usize];
        definite(&self.body, &mut defined, &mut need);
        // The outputs written at the end read every component of every working temp.
        for (r, d) in defined.iter().enumerate() {
            if *d != 0xf {
                need[r] = true;
            }
        }
        for r in 0..self.temps {
            if need[r as usize] {
                match self.stage {
                    Stage::Compute => {
                        l.uses.srv = true;
                        l.line(&format!(
                            "ld_structured r{r}.xyzw, vThreadIDInGroupFlattened.x, l({}), t0.xyzw",
                            16 * (r % 4)
                        ));
                    }
                    _ => l.line(&format!("mov r{r}.xyzw, v{}.xyzw", r % INPUTS)),
                }
            }
        }
        if l.uses_indexable {
            for e in 0..INDEXABLE {
                l.line(&format!(
                    "mov x0[{e}].xyzw, {}",
                    match self.stage {
                        Stage::Compute => format!("cb0[{e}].xyzw"),
                        _ => format!("v{}.xyzw", e % INPUTS),
                    }
                ));
            }
        }
        let inits = std::mem::take(&mut l.out);
        l.block(&self.body, 0);
        let code = std::mem::take(&mut l.out);
        // Outputs.
        let mut outs = String::new();
        for r in 0..self.temps {
            match self.stage {
                Stage::Compute => {
                    let _ = writeln!(
                        outs,
                        "store_structured u0.xyzw, vThreadIDInGroupFlattened.x, l({}), r{r}.xyzw",
                        16 * r
                    );
                }
                _ => {
                    let _ = writeln!(outs, "mov o{r}.xyzw, r{r}.xyzw");
                }
            }
        }
        let mut s = String::new();
        let ver = match self.stage {
            Stage::Compute => "cs_5_0",
            Stage::Vertex => "vs_5_0",
            _ => "ps_5_0",
        };
        let _ = writeln!(s, "{ver}\ndcl_globalFlags refactoringAllowed");
        if l.uses_icb {
            let w = icb_words();
            let rows: Vec<String> = w
                .chunks(4)
                .map(|c| {
                    format!(
                        "{{ 0x{:08x}, 0x{:08x}, 0x{:08x}, 0x{:08x} }}",
                        c[0], c[1], c[2], c[3]
                    )
                })
                .collect();
            let _ = writeln!(s, "dcl_immediateConstantBuffer {{ {} }}", rows.join(", "));
        }
        let _ = writeln!(
            s,
            "dcl_constantbuffer CB0[{CB_REGS}], {}",
            if l.uses_cb_dyn {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            }
        );
        let temps = self.index_base() + INDEX_TEMPS;
        // Inputs, outputs and resources per stage, then the temps, then compute's group.
        match self.stage {
            Stage::Compute => {
                if l.uses.srv {
                    let _ = writeln!(s, "dcl_resource_structured t0, 64");
                }
                let _ = writeln!(s, "dcl_uav_structured u0, {}", 16 * self.temps);
                if l.uses.uav_store {
                    let _ = writeln!(s, "dcl_uav_structured u1, 16");
                }
                if l.uses.atomics {
                    let _ = writeln!(s, "dcl_uav_raw u2");
                }
                let _ = writeln!(s, "dcl_input vThreadIDInGroupFlattened");
            }
            stage => {
                let input = if stage == Stage::Pixel {
                    "dcl_input_ps constant"
                } else {
                    "dcl_input"
                };
                for r in 0..INPUTS {
                    let _ = writeln!(s, "{input} v{r}.xyzw");
                }
                for r in 0..self.temps {
                    let _ = writeln!(s, "dcl_output o{r}.xyzw");
                }
            }
        }
        let _ = writeln!(s, "dcl_temps {temps}");
        if l.uses_indexable {
            let _ = writeln!(s, "dcl_indexableTemp x0[{INDEXABLE}], 4");
        }
        if self.stage == Stage::Compute {
            let t = self.threads;
            if l.uses.tgsm {
                let _ = writeln!(s, "dcl_tgsm_structured g0, 4, {}", t[0] * t[1] * t[2]);
            }
            let _ = writeln!(s, "dcl_thread_group {}, {}, {}", t[0], t[1], t[2]);
        }
        s.push_str(&inits);
        s.push_str(&code);
        s.push_str(&outs);
        s.push_str("ret\n");
        s
    }

    /// The DXBC container: the assembled program with `uint` signatures for pixel and vertex
    /// programs (words pass the interface untouched).
    pub fn blob(&self) -> Result<Vec<u8>, LowerError> {
        let asm = self.asm();
        let err = |why: String| LowerError {
            why,
            asm: asm.clone(),
        };
        let assembled = dxbc::assemble(&asm).map_err(|e| err(e.to_string()))?;
        let sigs = match self.stage {
            Stage::Compute => Vec::new(),
            Stage::Pixel => vec![
                crate::programs::signature(FourCC::ISGN, INPUTS as usize, "IN"),
                crate::programs::signature(FourCC::OSGN, self.temps as usize, "SV_Target"),
            ],
            _ => vec![
                crate::programs::signature(FourCC::ISGN, INPUTS as usize, "IN"),
                crate::programs::signature(FourCC::OSGN, self.temps as usize, "TEXCOORD"),
            ],
        };
        let c = dxbc::build_container(&sigs, &assembled.program).map_err(|e| err(e.to_string()))?;
        Ok(c.to_bytes())
    }
}

/// The instructions a container's code runs: everything but declarations and the final `ret`
/// (what "a program of five instructions" counts). Empty for a blob that does not decode.
pub fn code(blob: &[u8]) -> Vec<Opcode> {
    dxbc::Shader::parse(blob)
        .map(|s| {
            s.program
                .instructions
                .iter()
                .filter(|i| !i.opcode.info().is_declaration() && i.opcode != Opcode::Ret)
                .map(|i| i.opcode)
                .collect()
        })
        .unwrap_or_default()
}

/// The distinct opcodes of [`code`], sorted.
pub fn opcodes(blob: &[u8]) -> Vec<Opcode> {
    let mut ops = code(blob);
    ops.sort_by_key(|o| *o as u32);
    ops.dedup();
    ops
}

impl Stmt {
    /// The blocks nested directly in this statement.
    fn bodies(&self) -> Vec<&[Stmt]> {
        match self {
            Stmt::If {
                then, otherwise, ..
            } => std::iter::once(then.as_slice())
                .chain(otherwise.as_deref())
                .collect(),
            Stmt::Loop { body, .. } => vec![body],
            Stmt::Switch { cases, default, .. } => cases
                .iter()
                .map(|c| c.1.as_slice())
                .chain(default.as_deref())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// This statement's own sources (not those of its nested blocks).
    fn sources(&self) -> Vec<&Src> {
        match self {
            Stmt::Op(o) => o.src.iter().collect(),
            Stmt::If { cond, .. }
            | Stmt::BreakC { cond, .. }
            | Stmt::ContinueC { cond, .. }
            | Stmt::Discard { cond, .. } => vec![cond],
            Stmt::Loop { .. } => Vec::new(),
            Stmt::Switch { sel, .. } => vec![sel],
            Stmt::IndexableStore { index, value, .. } => vec![index, value],
            Stmt::SrvLoad { index, .. } => vec![index],
            Stmt::UavStore { value, .. } => vec![value],
            Stmt::Atomic { address, value, .. } => vec![address, value],
            Stmt::Exchange { value, sel, .. } => vec![value, sel],
        }
    }

    /// The temps this statement writes.
    fn written_temps(&self) -> Vec<u32> {
        match self {
            Stmt::Op(o) => o.dst.iter().flatten().map(|d| d.0).collect(),
            Stmt::SrvLoad { dst, .. } | Stmt::Exchange { dst, .. } => vec![dst.0],
            _ => Vec::new(),
        }
    }
}

/// Every statement of a block, nested ones included, in program order.
fn walk(stmts: &[Stmt], f: &mut dyn FnMut(&Stmt)) {
    for s in stmts {
        f(s);
        for b in s.bodies() {
            walk(b, f);
        }
    }
}

/// Every source in a block, with the index sources of dynamically indexed ones.
fn visit_srcs(stmts: &[Stmt], f: &mut dyn FnMut(&Src)) {
    fn each(s: &Src, f: &mut dyn FnMut(&Src)) {
        f(s);
        if let Reg::CbDyn(i) | Reg::IcbDyn(i) | Reg::IndexableDyn(i) = &s.reg {
            each(i, f);
        }
    }
    walk(stmts, &mut |s| {
        for x in s.sources() {
            each(x, f);
        }
    });
}

/// Record which optional declarations the body needs.
fn scan(stmts: &[Stmt], l: &mut Lower) {
    walk(stmts, &mut |s| match s {
        Stmt::IndexableStore { .. } => l.uses_indexable = true,
        Stmt::SrvLoad { .. } => l.uses.srv = true,
        Stmt::UavStore { .. } => l.uses.uav_store = true,
        Stmt::Atomic { .. } => l.uses.atomics = true,
        Stmt::Exchange { .. } => l.uses.tgsm = true,
        _ => {}
    });
    visit_srcs(stmts, &mut |s| match &s.reg {
        Reg::CbDyn(_) => l.uses_cb_dyn = true,
        Reg::IcbDyn(_) => l.uses_icb = true,
        Reg::IndexableDyn(_) => l.uses_indexable = true,
        _ => {}
    });
}

/// The temp components a source reads (its swizzle's targets), for the reconditioning pass.
fn reads(s: &Src, out: &mut Vec<(u32, u8)>) {
    match &s.reg {
        Reg::Temp(r) => {
            let m = s.swizzle.iter().fold(0u8, |m, c| m | (1 << c));
            out.push((*r, m));
        }
        Reg::CbDyn(i) | Reg::IcbDyn(i) | Reg::IndexableDyn(i) => reads(i, out),
        _ => {}
    }
}

/// Walk in program order: mark temps read where not every path wrote them. Writes inside a
/// branch or loop body count only within that body.
fn check(s: &Src, defined: &[u8], need: &mut [bool]) {
    let mut r = Vec::new();
    reads(s, &mut r);
    for (t, m) in r {
        if let Some(d) = defined.get(t as usize)
            && d & m != m
        {
            need[t as usize] = true;
        }
    }
}

fn definite(stmts: &[Stmt], defined: &mut [u8], need: &mut [bool]) {
    for s in stmts {
        match s {
            Stmt::Op(o) => {
                for x in &o.src {
                    check(x, defined, need);
                }
                for (t, m) in o.dst.iter().flatten() {
                    if let Some(d) = defined.get_mut(*t as usize) {
                        *d |= m;
                    }
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                check(cond, defined, need);
                definite(then, &mut defined.to_vec(), need);
                if let Some(o) = otherwise {
                    definite(o, &mut defined.to_vec(), need);
                }
            }
            Stmt::Loop { body, .. } => {
                // A later iteration reads what an earlier one wrote only if the write came
                // first in the body; the first iteration sees only what was defined before.
                definite(body, &mut defined.to_vec(), need);
            }
            Stmt::BreakC { cond, .. }
            | Stmt::ContinueC { cond, .. }
            | Stmt::Discard { cond, .. } => check(cond, defined, need),
            Stmt::Switch {
                sel,
                cases,
                default,
            } => {
                check(sel, defined, need);
                for c in cases {
                    definite(&c.1, &mut defined.to_vec(), need);
                }
                if let Some(d) = default {
                    definite(d, &mut defined.to_vec(), need);
                }
            }
            Stmt::IndexableStore { index, value, .. } => {
                check(index, defined, need);
                check(value, defined, need);
            }
            Stmt::SrvLoad { dst, index, .. } => {
                check(index, defined, need);
                if let Some(d) = defined.get_mut(dst.0 as usize) {
                    *d |= dst.1;
                }
            }
            Stmt::UavStore { value, .. } => check(value, defined, need),
            Stmt::Atomic { address, value, .. } => {
                check(address, defined, need);
                check(value, defined, need);
            }
            Stmt::Exchange { dst, value, sel } => {
                check(value, defined, need);
                check(sel, defined, need);
                if let Some(d) = defined.get_mut(dst.0 as usize) {
                    *d |= dst.1;
                }
            }
        }
    }
}

impl Lower<'_> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Emit the index computations a source needs (into index temp `slot`), and return its text.
    fn src(&mut self, s: &Src, slot: u32) -> String {
        let sw: String = s.swizzle.iter().map(|c| COMP[*c as usize]).collect();
        let index = |l: &mut Lower, inner: &Src, size: u32| -> String {
            let r = l.p.index_base() + slot;
            let inner_text = l.src(inner, slot);
            let mask = if l.p.oob_indices && size != INDEXABLE {
                // Out-of-range indices on purpose: twice the size.
                2 * size - 1
            } else {
                size - 1
            };
            l.line(&format!("and r{r}.x, {inner_text}, l({mask})"));
            format!("r{r}.x")
        };
        let body = match &s.reg {
            Reg::Temp(r) => format!("r{r}.{sw}"),
            Reg::Input(r) => match self.p.stage {
                Stage::Compute => "vThreadIDInGroupFlattened.xxxx".to_string(),
                _ => format!("v{r}.{sw}"),
            },
            Reg::Cb(r) => format!("cb0[{r}].{sw}"),
            Reg::CbDyn(i) => {
                let ix = index(self, i, CB_REGS);
                format!("cb0[{ix} + 0].{sw}")
            }
            Reg::IcbDyn(i) => {
                let ix = index(self, i, ICB_ROWS);
                format!("icb[{ix} + 0].{sw}")
            }
            Reg::IndexableDyn(i) => {
                let ix = index(self, i, INDEXABLE);
                format!("x0[{ix} + 0].{sw}")
            }
            Reg::Imm(w) => {
                let v: Vec<String> = s
                    .swizzle
                    .iter()
                    .map(|c| format!("0x{:08x}", w[*c as usize]))
                    .collect();
                format!("l({})", v.join(", "))
            }
        };
        let body = if s.abs { format!("|{body}|") } else { body };
        if s.neg { format!("-{body}") } else { body }
    }

    fn block(&mut self, stmts: &[Stmt], loops: u32) {
        for s in stmts {
            self.stmt(s, loops);
        }
    }

    fn test(nonzero: bool) -> &'static str {
        if nonzero { "nz" } else { "z" }
    }

    fn stmt(&mut self, s: &Stmt, loops: u32) {
        match s {
            Stmt::Op(o) => {
                let srcs: Vec<String> = o
                    .src
                    .iter()
                    .enumerate()
                    .map(|(k, x)| self.src(x, k as u32))
                    .collect();
                let dsts: Vec<String> = o
                    .dst
                    .iter()
                    .map(|d| match d {
                        Some((r, m)) => format!("r{r}.{}", mask_text(*m)),
                        None => "null".to_string(),
                    })
                    .collect();
                let sat = if o.sat { "_sat" } else { "" };
                let mut all = dsts;
                all.extend(srcs);
                self.line(&format!("{}{sat} {}", o.opcode.mnemonic(), all.join(", ")));
            }
            Stmt::If {
                nonzero,
                cond,
                then,
                otherwise,
            } => {
                let c = self.src(cond, 0);
                self.line(&format!("if_{} {c}", Self::test(*nonzero)));
                self.indent += 1;
                self.block(then, loops);
                self.indent -= 1;
                if let Some(o) = otherwise {
                    self.line("else");
                    self.indent += 1;
                    self.block(o, loops);
                    self.indent -= 1;
                }
                self.line("endif");
            }
            Stmt::Loop { trips, body } => {
                let c = self.p.counter_base() + loops;
                self.line(&format!("mov r{c}.x, l({trips})"));
                self.line("loop");
                self.indent += 1;
                self.line(&format!("breakc_z r{c}.x"));
                self.line(&format!("iadd r{c}.x, r{c}.x, l(-1)"));
                self.block(body, loops + 1);
                self.indent -= 1;
                self.line("endloop");
            }
            Stmt::BreakC { nonzero, cond } => {
                let c = self.src(cond, 0);
                self.line(&format!("breakc_{} {c}", Self::test(*nonzero)));
            }
            Stmt::ContinueC { nonzero, cond } => {
                let c = self.src(cond, 0);
                self.line(&format!("continuec_{} {c}", Self::test(*nonzero)));
            }
            Stmt::Discard { nonzero, cond } => {
                let c = self.src(cond, 0);
                self.line(&format!("discard_{} {c}", Self::test(*nonzero)));
            }
            Stmt::Switch {
                sel,
                cases,
                default,
            } => {
                let c = self.src(sel, 0);
                let r = self.p.index_base() + 4;
                self.line(&format!("and r{r}.x, {c}, l(3)"));
                self.line(&format!("switch r{r}.x"));
                self.indent += 1;
                for (k, body) in cases {
                    self.line(&format!("case l({k})"));
                    self.indent += 1;
                    self.block(body, loops);
                    self.line("break");
                    self.indent -= 1;
                }
                if let Some(d) = default {
                    self.line("default");
                    self.indent += 1;
                    self.block(d, loops);
                    self.line("break");
                    self.indent -= 1;
                }
                self.indent -= 1;
                self.line("endswitch");
            }
            Stmt::IndexableStore { index, mask, value } => {
                let v = self.src(value, 1);
                let i = self.src(index, 0);
                let r = self.p.index_base() + 3;
                self.line(&format!("and r{r}.x, {i}, l({})", INDEXABLE - 1));
                self.line(&format!("mov x0[r{r}.x + 0].{}, {v}", mask_text(*mask)));
            }
            Stmt::SrvLoad {
                dst,
                index,
                in_range,
                offset,
            } => {
                let i = self.src(index, 0);
                let r = self.p.index_base() + 3;
                let t = self.p.threads;
                let n = t[0] * t[1] * t[2];
                if *in_range {
                    self.line(&format!("and r{r}.x, {i}, l({})", n - 1));
                } else {
                    self.line(&format!("or r{r}.x, {i}, l(0x1000)"));
                }
                let m = mask_text(dst.1);
                // Destination component c takes the next loaded word (fxc's `r0.yz .. t0.xxyx`).
                let mut next = 0;
                let sw: String = (0..4)
                    .map(|c| {
                        if dst.1 & (1 << c) != 0 {
                            next += 1;
                            COMP[next - 1]
                        } else {
                            'x'
                        }
                    })
                    .collect();
                self.line(&format!(
                    "ld_structured r{}.{m}, r{r}.x, l({offset}), t0.{sw}",
                    dst.0
                ));
            }
            Stmt::UavStore {
                in_range,
                mask,
                value,
            } => {
                let v = self.src(value, 1);
                let r = self.p.index_base() + 3;
                if *in_range {
                    self.line(&format!("mov r{r}.x, vThreadIDInGroupFlattened.x"));
                } else {
                    self.line(&format!(
                        "iadd r{r}.x, vThreadIDInGroupFlattened.x, l(0x1000)"
                    ));
                }
                self.line(&format!(
                    "store_structured u1.{}, r{r}.x, l(0), {v}",
                    mask_text(*mask)
                ));
            }
            Stmt::Atomic {
                opcode,
                address,
                value,
            } => {
                let v = self.src(value, 1);
                let a = self.src(address, 0);
                let r = self.p.index_base() + 3;
                // Each operation has its own four words: one operation alone commutes, two
                // different ones on a word do not (iadd then imax is not imax then iadd).
                let region = 16 * ATOMICS.iter().position(|o| o == opcode).unwrap_or(0);
                self.line(&format!("and r{r}.x, {a}, l(12)"));
                self.line(&format!("iadd r{r}.x, r{r}.x, l({region})"));
                self.line(&format!("{} u2, r{r}.x, {v}", opcode.mnemonic()));
            }
            Stmt::Exchange { dst, value, sel } => {
                let v = self.src(value, 1);
                self.line(&format!(
                    "store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), {v}"
                ));
                self.line("sync_g_t");
                let i = self.src(sel, 0);
                let r = self.p.index_base() + 3;
                let t = self.p.threads;
                self.line(&format!("and r{r}.x, {i}, l({})", t[0] * t[1] * t[2] - 1));
                self.line(&format!(
                    "ld_structured r{}.{}, r{r}.x, l(0), g0.xxxx",
                    dst.0,
                    mask_text(dst.1)
                ));
                self.line("sync_g_t");
            }
        }
    }
}

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
        } = s
            && mask.count_ones() > 1
        {
            out.push(with(
                i,
                vec![Stmt::UavStore {
                    in_range: *in_range,
                    mask: 1 << mask.trailing_zeros(),
                    value: value.clone(),
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

    /// The statement kinds and instruction opcodes of the body (not the scaffolding lowering
    /// adds), sorted and distinct: what a divergence's signature names.
    pub fn body_opcodes(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk(&self.body, &mut |s| {
            out.push(match s {
                Stmt::Op(o) => o.opcode.mnemonic().to_string(),
                Stmt::If { .. } => "if".into(),
                Stmt::Loop { .. } => "loop".into(),
                Stmt::BreakC { .. } => "breakc".into(),
                Stmt::ContinueC { .. } => "continuec".into(),
                Stmt::Discard { .. } => "discard".into(),
                Stmt::Switch { .. } => "switch".into(),
                Stmt::IndexableStore { .. } => "mov-indexable".into(),
                Stmt::SrvLoad { .. } => "ld_structured".into(),
                Stmt::UavStore { .. } => "store_structured".into(),
                Stmt::Atomic { opcode, .. } => opcode.mnemonic().to_string(),
                Stmt::Exchange { .. } => "tgsm-exchange".into(),
            })
        });
        visit_srcs(&self.body, &mut |s| match &s.reg {
            Reg::CbDyn(_) => out.push("cb-indexed".into()),
            Reg::IcbDyn(_) => out.push("icb".into()),
            Reg::IndexableDyn(_) => out.push("x-indexed".into()),
            _ => {}
        });
        out.sort();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_programs_assemble_decode_and_reencode_to_themselves() {
        let k = Knobs::default();
        for seed in 0..1500 {
            let p = generate(&k, seed);
            let blob = p.blob().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let shader = dxbc::Shader::parse(&blob).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let words = dxbc::encode_words(&shader.program).expect("encodes");
            let again = dxbc::decode_words(&words).expect("decodes");
            assert_eq!(again, shader.program, "seed {seed}");
            assert_eq!(generate(&k, seed), p, "deterministic");
        }
    }

    /// FNV-1a, 64-bit: a hash fixed by its definition (std's hasher may change between
    /// releases), so the pinned value below means the same thing on every toolchain.
    fn fnv1a(h: &mut u64, bytes: &[u8]) {
        for b in bytes {
            *h ^= u64::from(*b);
            *h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The containers of 300 seeds per stage with default knobs, hashed together.
    fn blobs_hash() -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
            let k = Knobs {
                stages: vec![stage],
                ..Knobs::default()
            };
            for seed in 0..300 {
                let blob = generate(&k, seed)
                    .blob()
                    .unwrap_or_else(|e| panic!("{stage:?} seed {seed}: {e}"));
                fnv1a(&mut h, &(blob.len() as u64).to_le_bytes());
                fnv1a(&mut h, &blob);
            }
        }
        h
    }

    /// Campaigns resume from (seed, index): a program must not change for a seed unless the
    /// generator is changed on purpose. Update the value only in a commit that says why.
    #[test]
    fn generated_containers_are_pinned_per_seed() {
        assert_eq!(blobs_hash(), PINNED, "got {:#018x}", blobs_hash());
    }

    const PINNED: u64 = 0x6f7e_58e0_cc81_db1a;
}
