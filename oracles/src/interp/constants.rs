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

/// What is known of one temp component at one point: `None` unknown; `Some(Some(v))` the
/// constant `v` (moved from a literal); `Some(None)` a constant computed by an op, whose value
/// the pass does not evaluate (two such are never taken for equal where paths meet).
type Known = Option<Option<u32>>;

/// The temp components each instruction reads that hold a compile-time constant there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constants {
    /// Per instruction: (temp register, the value of each component when known).
    at: Vec<Vec<(u32, [Known; 4])>>,
}

impl Constants {
    /// Whether component `comp` of temp `reg` is a compile-time constant when instruction
    /// `inst` reads it.
    pub fn is_const(&self, inst: usize, reg: u32, comp: usize) -> bool {
        self.at.get(inst).is_some_and(|v| {
            v.iter()
                .find(|(r, _)| *r == reg)
                .is_some_and(|(_, k)| k.get(comp).is_some_and(Option::is_some))
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

/// For every `loop` and `switch`, the temp components written between it and its end.
fn region_writes(program: &Program, temps: usize) -> BTreeMap<usize, Vec<u8>> {
    let mut open: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut done = BTreeMap::new();
    for (i, inst) in program.instructions.iter().enumerate() {
        match inst.opcode {
            Opcode::Loop | Opcode::Switch => open.push((i, vec![0; temps])),
            Opcode::Endloop | Opcode::Endswitch => {
                if let Some((at, w)) = open.pop() {
                    if let Some((_, outer)) = open.last_mut() {
                        for (o, m) in outer.iter_mut().zip(&w) {
                            *o |= m;
                        }
                    }
                    done.insert(at, w);
                }
            }
            _ => {
                for (r, m) in writes(inst) {
                    for (_, w) in open.iter_mut() {
                        if let Some(x) = w.get_mut(r) {
                            *x |= m;
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

fn forget(state: &mut [[Known; 4]], written: &[u8]) {
    for (r, m) in state.iter_mut().zip(written) {
        for (c, v) in r.iter_mut().enumerate() {
            if m & (1 << c) != 0 {
                *v = None;
            }
        }
    }
}

fn meet(a: &mut [[Known; 4]], b: &[[Known; 4]]) {
    for (x, y) in a.iter_mut().zip(b) {
        for (u, v) in x.iter_mut().zip(y) {
            // Equal only when both are the same known value.
            if !matches!((*u, *v), (Some(Some(p)), Some(Some(q))) if p == q) {
                *u = None;
            }
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

/// What a source component is: a constant (`Some`, with its value when it is a literal or a
/// known move) or not.
fn source(src: &Operand, c: usize, icb: &[u32], state: &[[Known; 4]]) -> Known {
    if let Some(v) = literal_value(src, c, icb) {
        return Some((src.modifier == dxbc::Modifier::None).then_some(v));
    }
    let k = state.get(temp_index(src)?)?[src.source_component(c)]?;
    Some(k.filter(|_| src.modifier == dxbc::Modifier::None))
}

/// One open construct while the pass walks the program.
enum Frame {
    /// An `if`: the state before it, and the state at the end of its first branch once an
    /// `else` is seen.
    If {
        entry: Vec<[Known; 4]>,
        then_end: Option<Vec<[Known; 4]>>,
    },
    /// A `loop` or `switch`: the components written inside.
    Region(Vec<u8>),
}

/// The compile-time constant temp components of every instruction of `program`.
pub fn constant_temps(program: &Program, temps: usize, icb: &[u32]) -> Constants {
    let regions = region_writes(program, temps);
    let mut state: Vec<[Known; 4]> = vec![[None; 4]; temps];
    let mut frames: Vec<Frame> = Vec::new();
    let mut at = Vec::with_capacity(program.instructions.len());
    for (i, inst) in program.instructions.iter().enumerate() {
        // What this instruction's temp sources hold, before its own writes.
        let ndst = (inst.info().dst as usize).min(inst.operands.len());
        let mut reads: Vec<(u32, [Known; 4])> = Vec::new();
        for src in &inst.operands[ndst..] {
            if let Some(r) = temp_index(src)
                && let Some(v) = state.get(r)
                && v.iter().any(Option::is_some)
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
            Opcode::Loop | Opcode::Switch => {
                let w = regions.get(&i).cloned().unwrap_or_default();
                forget(&mut state, &w);
                frames.push(Frame::Region(w));
            }
            Opcode::Case | Opcode::Default => {
                if let Some(Frame::Region(w)) = frames.last() {
                    forget(&mut state, w);
                }
            }
            Opcode::Endloop | Opcode::Endswitch => {
                if let Some(Frame::Region(w)) = frames.pop() {
                    forget(&mut state, &w);
                }
            }
            Opcode::Label | Opcode::Call | Opcode::Callc => {
                state.iter_mut().for_each(|r| *r = [None; 4]);
            }
            _ => {
                let before = state.clone();
                let ndst = (inst.info().dst as usize).min(inst.operands.len());
                let srcs = &inst.operands[ndst..];
                // Every component of every source (over its swizzle) is a constant.
                let all_const = foldable(inst)
                    && srcs
                        .iter()
                        .all(|s| (0..4).all(|c| source(s, c, icb, &before).is_some()));
                let plain_mov = inst.opcode == Opcode::Mov && !inst.saturate;
                for (r, mask) in writes(inst) {
                    for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                        let v = if !all_const {
                            None
                        } else if plain_mov {
                            srcs.first().and_then(|s| source(s, c, icb, &before))
                        } else {
                            Some(None)
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
