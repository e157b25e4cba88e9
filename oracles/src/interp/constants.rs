//! Compile-time constants in registers. A GPU compiler propagates a constant through moves
//! before it simplifies arithmetic, so `mov r0.x, l(0)` then `mul r1.x, r0.x, v0.x` folds to 0
//! just as `mul r1.x, l(0), v0.x` does (see `folding`), even where `r0.x` held something else
//! before: the H200's driver folds `mov r0.xyzw, v0; mov r0.x, l(0); dp3 r0.w, r0, v0` with a
//! NaN in `v0.x` to 0 (`dxdiff fuzz`).
//!
//! The pass walks the program once, in order, the way a compiler's constant propagation sees
//! structured control flow, and records for every instruction the temp components it reads
//! that are compile-time constants there: written last by an ALU instruction (a move, with or
//! without modifiers, or any arithmetic, bit, comparison or conversion op) whose every source
//! component is a literal, `icb[n]` with a constant `n`, or another such component. A compiler
//! folds those (`round_ne r0.x, l(0)`, `countbits`, `sincos` of 0: the H200 folded each into a
//! following `dp*` with a NaN). Anything read from inputs, constant buffers, memory or thread
//! ids makes a component unknown. The folding check reads the constant's value at run time,
//! where every lane holds the same one.
//! * `if`/`else`/`endif`: each branch starts from the state before the `if`; after `endif` a
//!   component is known only if both paths agree.
//! * `loop` and `switch`: every temp component written anywhere inside is unknown on entry, at
//!   each `case`/`default` and after the end (another iteration, or another case, may have
//!   written it). Straight-line code inside still propagates.
//! * `label` (a subroutine body) and after a `call`: everything is unknown.
//!
//! This only ever claims less than a compiler can prove, never more.

use std::collections::BTreeMap;

use dxbc::{Index, Opcode, Operand, OperandType, Program};

/// What is known of one temp component at one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    Unknown,
    /// The constant `v` (moved from a literal).
    Value(u32),
    /// A constant computed by an op, whose value the pass does not evaluate (two such are
    /// never taken for equal where paths meet).
    Computed,
    /// Not a constant, but provably below 2^23 as an integer (`countbits`, `and` with a small
    /// mask, a thread id): as float bits a denormal or zero, which a compiler that flushes
    /// denormals folds as it folds a zero (the H200 folded `countbits` of an input into a
    /// `dp4` with a NaN).
    Small,
}

impl Known {
    fn known(self) -> bool {
        self != Known::Unknown
    }

    /// Provably a denormal or zero as float bits.
    fn small(self) -> bool {
        match self {
            Known::Value(v) => v < 1 << 23,
            Known::Small => true,
            _ => false,
        }
    }
}

/// The temp components each instruction reads that hold a compile-time constant there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constants {
    /// Per instruction: (temp register, the value of each component when known).
    at: Vec<Vec<(u32, [Known; 4])>>,
}

impl Constants {
    /// Whether component `comp` of temp `reg` is a compile-time constant (or provably a
    /// denormal or zero as float bits) when instruction `inst` reads it.
    pub fn is_const(&self, inst: usize, reg: u32, comp: usize) -> bool {
        self.at.get(inst).is_some_and(|v| {
            v.iter()
                .find(|(r, _)| *r == reg)
                .is_some_and(|(_, k)| k.get(comp).is_some_and(|k| k.known()))
        })
    }
}

/// The bits of a source component (for destination component `comp`, modifier not applied)
/// that do not depend on the invocation, if its operand is a literal or `icb[n]` with a
/// constant `n`.
pub fn literal_value(op: &Operand, comp: usize, icb: &[u32]) -> Option<u32> {
    let c = op.source_component(comp);
    match op.ty {
        OperandType::Immediate32 => {
            let n = op.imm.len().max(1);
            Some(op.imm.get(c % n).copied().unwrap_or(0))
        }
        OperandType::ImmediateConstantBuffer => match op.indices.first() {
            // Past the end reads 0, as `icb` reads do at run time.
            Some(Index::Imm32(r)) if op.indices.len() == 1 => {
                Some(icb.get(*r as usize * 4 + c).copied().unwrap_or(0))
            }
            _ => None,
        },
        _ => None,
    }
}

fn temp_index(op: &Operand) -> Option<usize> {
    match op.indices.first() {
        Some(Index::Imm32(r)) if op.ty == OperandType::Temp && op.indices.len() == 1 => {
            Some(*r as usize)
        }
        _ => None,
    }
}

/// The temp components `inst` writes, as (register, mask).
fn writes(inst: &dxbc::Instruction) -> impl Iterator<Item = (usize, u8)> + '_ {
    let ndst = (inst.info().dst as usize).min(inst.operands.len());
    inst.operands[..ndst]
        .iter()
        .filter_map(|d| temp_index(d).map(|r| (r, d.write_mask())))
}

/// How a region writes one temp component: not at all, only ever a plain move of one literal
/// value (a region that rewrites the value the component already holds keeps it constant, as
/// `mov r2.x, l(0)` before and inside a `switch` does), or otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Write {
    None,
    Literal(u32),
    Other,
}

impl Write {
    fn join(self, o: Write) -> Write {
        match (self, o) {
            (Write::None, x) | (x, Write::None) => x,
            (Write::Literal(a), Write::Literal(b)) if a == b => self,
            _ => Write::Other,
        }
    }
}

/// How `inst` writes each temp component it writes.
fn write_kinds(inst: &dxbc::Instruction, icb: &[u32]) -> Vec<(usize, usize, Write)> {
    let plain_mov = inst.opcode == Opcode::Mov && !inst.saturate;
    let src = inst
        .operands
        .get(1)
        .filter(|s| plain_mov && s.modifier == dxbc::Modifier::None);
    let mut out = Vec::new();
    for (r, mask) in writes(inst) {
        for c in (0..4).filter(|c| mask & (1 << c) != 0) {
            let w = src
                .and_then(|s| literal_value(s, c, icb))
                .map_or(Write::Other, Write::Literal);
            out.push((r, c, w));
        }
    }
    out
}

/// For every `loop` and `switch`, how it writes each temp component between it and its end.
fn region_writes(program: &Program, temps: usize, icb: &[u32]) -> BTreeMap<usize, Vec<[Write; 4]>> {
    let mut open: Vec<(usize, Vec<[Write; 4]>)> = Vec::new();
    let mut done = BTreeMap::new();
    for (i, inst) in program.instructions.iter().enumerate() {
        match inst.opcode {
            Opcode::Loop | Opcode::Switch => open.push((i, vec![[Write::None; 4]; temps])),
            Opcode::Endloop | Opcode::Endswitch => {
                if let Some((at, w)) = open.pop() {
                    if let Some((_, outer)) = open.last_mut() {
                        for (o, m) in outer.iter_mut().zip(&w) {
                            for (a, b) in o.iter_mut().zip(m) {
                                *a = a.join(*b);
                            }
                        }
                    }
                    done.insert(at, w);
                }
            }
            // A subroutine call inside may write anything.
            Opcode::Call | Opcode::Callc => {
                for (_, w) in open.iter_mut() {
                    w.iter_mut().for_each(|r| *r = [Write::Other; 4]);
                }
            }
            _ => {
                for (r, c, k) in write_kinds(inst, icb) {
                    for (_, w) in open.iter_mut() {
                        if let Some(x) = w.get_mut(r) {
                            x[c] = x[c].join(k);
                        }
                    }
                }
            }
        }
    }
    // An unclosed region (a malformed program) forgets what it writes everywhere after.
    for (at, w) in open {
        done.insert(at, w);
    }
    done
}

/// Forget what a region may have changed: a component it writes stays known only when every
/// write inside is a move of the very literal the component already holds.
fn forget(state: &mut [[Known; 4]], written: &[[Write; 4]]) {
    for (r, m) in state.iter_mut().zip(written) {
        for (v, w) in r.iter_mut().zip(m) {
            match (*w, *v) {
                (Write::None, _) => {}
                (Write::Literal(x), Known::Value(y)) if x == y => {}
                _ => *v = Known::Unknown,
            }
        }
    }
}

fn meet(a: &mut [[Known; 4]], b: &[[Known; 4]]) {
    for (x, y) in a.iter_mut().zip(b) {
        for (u, v) in x.iter_mut().zip(y) {
            // Equal only when both are the same known value; small on both paths stays small.
            *u = match (*u, *v) {
                (Known::Value(p), Known::Value(q)) if p == q => Known::Value(p),
                (a, b) if a.small() && b.small() => Known::Small,
                _ => Known::Unknown,
            };
        }
    }
}

/// Ops a compiler evaluates when every source is a constant: ALU work with no memory, resource,
/// flow or double-precision operand.
fn foldable(inst: &dxbc::Instruction) -> bool {
    use dxbc::opcodes::Kind;
    matches!(
        inst.info().kind,
        Kind::AluFloat
            | Kind::AluInt
            | Kind::AluUint
            | Kind::Bit
            | Kind::Compare
            | Kind::Conversion
    ) || matches!(inst.opcode, Opcode::Mov | Opcode::Movc | Opcode::Swapc)
}

/// What a source component is (a thread id is small).
fn source(src: &Operand, c: usize, icb: &[u32], state: &[[Known; 4]]) -> Known {
    let plain = src.modifier == dxbc::Modifier::None;
    if let Some(v) = literal_value(src, c, icb) {
        return if plain {
            Known::Value(v)
        } else {
            Known::Computed
        };
    }
    if src.ty.is_thread_id() {
        return Known::Small;
    }
    let Some(k) = temp_index(src).and_then(|r| state.get(r)) else {
        return Known::Unknown;
    };
    match k[src.source_component(c)] {
        Known::Value(_) if !plain => Known::Computed,
        // A float modifier keeps a denormal's exponent 0.
        other => other,
    }
}

/// Whether component `c` of `inst`'s result is provably below 2^23 though not a constant.
fn small_result(inst: &dxbc::Instruction, c: usize, icb: &[u32], state: &[[Known; 4]]) -> bool {
    let ndst = (inst.info().dst as usize).min(inst.operands.len());
    let srcs = &inst.operands[ndst..];
    let src = |k: usize| {
        srcs.get(k)
            .map_or(Known::Unknown, |s| source(s, c, icb, state))
    };
    match inst.opcode {
        Opcode::Countbits => true,
        Opcode::And | Opcode::Umin => (0..srcs.len()).any(|k| src(k).small()),
        Opcode::Ushr => matches!(src(1), Known::Value(n) if n & 31 >= 9),
        Opcode::Ubfe => matches!(src(0), Known::Value(w) if w & 31 <= 23 && w & 31 != 0),
        Opcode::Mov if !inst.saturate => src(0) == Known::Small,
        _ => false,
    }
}

/// One open construct while the pass walks the program.
enum Frame {
    /// An `if`: the state before it, and the state at the end of its first branch once an
    /// `else` is seen.
    If {
        entry: Vec<[Known; 4]>,
        then_end: Option<Vec<[Known; 4]>>,
    },
    /// A `loop` or `switch`: how it writes each component, and the state at its entry.
    Region(Vec<[Write; 4]>, Vec<[Known; 4]>),
}

/// The compile-time constant temp components of every instruction of `program`.
pub fn constant_temps(program: &Program, temps: usize, icb: &[u32]) -> Constants {
    let regions = region_writes(program, temps, icb);
    let mut state: Vec<[Known; 4]> = vec![[Known::Unknown; 4]; temps];
    let mut frames: Vec<Frame> = Vec::new();
    let mut at = Vec::with_capacity(program.instructions.len());
    for (i, inst) in program.instructions.iter().enumerate() {
        // What this instruction's temp sources hold, before its own writes.
        let ndst = (inst.info().dst as usize).min(inst.operands.len());
        let mut reads: Vec<(u32, [Known; 4])> = Vec::new();
        for src in &inst.operands[ndst..] {
            if let Some(r) = temp_index(src)
                && let Some(v) = state.get(r)
                && v.iter().any(|k| k.known())
                && !reads.iter().any(|(x, _)| *x as usize == r)
            {
                reads.push((r as u32, *v));
            }
        }
        at.push(reads);
        match inst.opcode {
            Opcode::If => frames.push(Frame::If {
                entry: state.clone(),
                then_end: None,
            }),
            Opcode::Else => {
                if let Some(Frame::If { entry, then_end }) = frames.last_mut() {
                    *then_end = Some(std::mem::replace(&mut state, entry.clone()));
                }
            }
            Opcode::Endif => {
                if let Some(Frame::If { entry, then_end }) = frames.pop() {
                    meet(&mut state, then_end.as_ref().unwrap_or(&entry));
                }
            }
            // A case, another iteration or the code after the end can be reached from the
            // region's entry or from anywhere inside it: what holds there is what holds at the
            // entry (less what the region may change) met with the path that falls through.
            Opcode::Loop | Opcode::Switch => {
                let w = regions.get(&i).cloned().unwrap_or_default();
                forget(&mut state, &w);
                frames.push(Frame::Region(w, state.clone()));
            }
            Opcode::Case | Opcode::Default => {
                if let Some(Frame::Region(w, entry)) = frames.last() {
                    meet(&mut state, entry);
                    forget(&mut state, w);
                }
            }
            Opcode::Endloop | Opcode::Endswitch => {
                if let Some(Frame::Region(w, entry)) = frames.pop() {
                    meet(&mut state, &entry);
                    forget(&mut state, &w);
                }
            }
            Opcode::Label | Opcode::Call | Opcode::Callc => {
                state.iter_mut().for_each(|r| *r = [Known::Unknown; 4]);
            }
            _ => {
                let before = state.clone();
                let ndst = (inst.info().dst as usize).min(inst.operands.len());
                let srcs = &inst.operands[ndst..];
                // Every component of every source (over its swizzle) is a constant.
                let all_const = foldable(inst)
                    && srcs.iter().all(|s| {
                        (0..4).all(|c| {
                            matches!(
                                source(s, c, icb, &before),
                                Known::Value(_) | Known::Computed
                            )
                        })
                    });
                let plain_mov = inst.opcode == Opcode::Mov && !inst.saturate;
                for (r, mask) in writes(inst) {
                    for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                        let v = if all_const && plain_mov {
                            srcs.first()
                                .map_or(Known::Unknown, |s| source(s, c, icb, &before))
                        } else if all_const {
                            Known::Computed
                        } else if small_result(inst, c, icb, &before) {
                            Known::Small
                        } else {
                            Known::Unknown
                        };
                        if let Some(slot) = state.get_mut(r) {
                            slot[c] = v;
                        }
                    }
                }
            }
        }
    }
    Constants { at }
}
