//! What a `loop` or `switch` does to the constants pass's state, found before the walk: how it
//! writes each temp component, and whether a loop can ever start a second iteration.

use std::collections::{BTreeMap, BTreeSet};

use dxbc::{Opcode, Program};

use super::{Cx, Elements, Known, literal_value, taken, writes};

/// How a region writes one temp component: not at all, only ever a plain move of one literal
/// value (a region that rewrites the value the component already holds keeps it constant, as
/// `mov r2.x, l(0)` before and inside a `switch` does), or otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Write {
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

/// How `inst` writes each temp component it writes (an element of an indexable temp counts
/// as every element of its array, written otherwise).
fn write_kinds(inst: &dxbc::Instruction, icb: &[u32], x: &Elements) -> Vec<(usize, usize, Write)> {
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
    for d in inst.split_operands().0 {
        let mask = d.write_mask();
        for r in x.all(d).into_iter().flatten() {
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                out.push((r, c, Write::Other));
            }
        }
    }
    out
}

/// For every `loop` and `switch`, how it writes each temp component (and each element of
/// `x`'s arrays: `rows` counts both) between it and its end.
///
/// The branch an `if` on a literal (or one `decided` says goes one way) never enters writes
/// nothing: a compiler drops it (the H100
/// kept `mov r1.x, l(0)` before a loop whose only other write to `r1.x` was in such a branch,
/// and folded it into a `dp3`).
pub(super) fn region_writes(
    program: &Program,
    rows: usize,
    cx: Cx<'_>,
    decided: &BTreeMap<usize, bool>,
) -> BTreeMap<usize, Vec<[Write; 4]>> {
    let mut open: Vec<(usize, Vec<[Write; 4]>)> = Vec::new();
    let mut done = BTreeMap::new();
    // Per open `if`: whether its test is decided (and how), and whether its `else` was seen.
    let mut ifs: Vec<(Option<bool>, bool)> = Vec::new();
    let no_temps: [[Known; 4]; 0] = [];
    for (i, inst) in program.instructions.iter().enumerate() {
        let dead = ifs.iter().any(|&(taken, in_else)| taken == Some(in_else));
        match inst.opcode {
            Opcode::If => ifs.push((
                decided
                    .get(&i)
                    .copied()
                    .or_else(|| taken(inst, cx, &no_temps)),
                false,
            )),
            Opcode::Else => {
                if let Some(top) = ifs.last_mut() {
                    top.1 = true;
                }
            }
            Opcode::Endif => {
                ifs.pop();
            }
            Opcode::Label => ifs.clear(),
            _ => {}
        }
        match inst.opcode {
            Opcode::Loop | Opcode::Switch => open.push((i, vec![[Write::None; 4]; rows])),
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
            _ if dead => {}
            // A subroutine call inside may write anything.
            Opcode::Call | Opcode::Callc | Opcode::Fcall => {
                for (_, w) in open.iter_mut() {
                    w.iter_mut().for_each(|r| *r = [Write::Other; 4]);
                }
            }
            _ => {
                for (r, c, k) in write_kinds(inst, cx.icb, cx.x) {
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

/// The `loop`s that can never start a second iteration: an always-taken `break` or `ret`
/// (unconditional, or on a literal) at the loop's own depth leaves nothing after it reachable
/// by falling through, so the `endloop` is never reached that way, and no `continue` or
/// `continuec` targets the loop.
pub(super) fn once_loops(program: &Program, cx: Cx<'_>) -> BTreeSet<usize> {
    /// An open construct: a loop (where it starts, whether a continue targets it, whether its
    /// own depth has an unconditional exit), a switch or an if.
    enum Open {
        Loop(usize, bool, bool),
        Other,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut once = BTreeSet::new();
    let no_temps: [[Known; 4]; 0] = [];
    for (i, inst) in program.instructions.iter().enumerate() {
        match inst.opcode {
            Opcode::Loop => open.push(Open::Loop(i, false, false)),
            Opcode::Switch | Opcode::If => open.push(Open::Other),
            Opcode::Endswitch | Opcode::Endif => {
                open.pop();
            }
            Opcode::Continue | Opcode::Continuec => {
                if let Some(Open::Loop(_, continued, _)) =
                    open.iter_mut().rev().find(|o| matches!(o, Open::Loop(..)))
                {
                    *continued = true;
                }
            }
            Opcode::Break | Opcode::Breakc | Opcode::Ret | Opcode::Retc => {
                if let Some(Open::Loop(_, _, exited)) = open.last_mut()
                    && taken(inst, cx, &no_temps) == Some(true)
                {
                    *exited = true;
                }
            }
            Opcode::Endloop => {
                if let Some(Open::Loop(at, false, true)) = open.pop() {
                    once.insert(at);
                }
            }
            // A subroutine body ends every construct the program left open.
            Opcode::Label => open.clear(),
            _ => {}
        }
    }
    once
}

/// For every `switch`, the instruction a known selector jumps to: the `case` of that value,
/// else the `default`, else none (the end). `None` for a selector value when a `case` is not a
/// literal, as a malformed program's may be.
#[derive(Debug, Clone, Default)]
pub(super) struct Entries {
    /// (instruction, its literal value) per `case`; `None` once one is not a literal.
    cases: Option<Vec<(usize, u32)>>,
    default: Option<usize>,
}

impl Entries {
    /// Where the switch goes with the selector `s`: `Some(instruction)`, or `None` for the end.
    pub(super) fn target(&self, s: u32) -> Option<Option<usize>> {
        let cases = self.cases.as_ref()?;
        Some(
            cases
                .iter()
                .find(|c| c.1 == s)
                .map(|c| c.0)
                .or(self.default),
        )
    }
}

/// Every `switch`'s [`Entries`], by the `switch`'s instruction.
pub(super) fn switch_entries(program: &Program, icb: &[u32]) -> BTreeMap<usize, Entries> {
    let mut open: Vec<(usize, Entries)> = Vec::new();
    let mut done = BTreeMap::new();
    for (i, inst) in program.instructions.iter().enumerate() {
        match inst.opcode {
            Opcode::Switch => open.push((
                i,
                Entries {
                    cases: Some(Vec::new()),
                    default: None,
                },
            )),
            Opcode::Case => {
                if let Some((_, e)) = open.last_mut() {
                    let value = inst.operands.first().and_then(|o| literal_value(o, 0, icb));
                    match (e.cases.as_mut(), value) {
                        (Some(list), Some(v)) => list.push((i, v)),
                        _ => e.cases = None,
                    }
                }
            }
            Opcode::Default => {
                if let Some((_, e)) = open.last_mut() {
                    e.default = Some(i);
                }
            }
            Opcode::Endswitch => {
                if let Some((at, e)) = open.pop() {
                    done.insert(at, e);
                }
            }
            Opcode::Label => open.clear(),
            _ => {}
        }
    }
    done
}

/// Forget what a region may have changed: a component it writes stays known only when every
/// write inside is a move of the very literal the component already holds.
pub(super) fn forget(state: &mut [[Known; 4]], written: &[[Write; 4]]) {
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
