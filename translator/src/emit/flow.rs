//! Structured control flow. D3D's `if`/`loop`/`switch` map onto WGSL's; `switch` gains an
//! empty `default` when it has none, consecutive case labels merge into one clause, and a
//! clause that falls through into code is rejected (WGSL has no fall-through).

use std::collections::BTreeMap;

use dxbc::{Instruction, Opcode, Program, Test};
use naga::{Barrier, BinaryOperator, Block, Statement, SwitchCase, SwitchValue};

use super::Ctx;
use super::Rejection;
use super::build::H;
use crate::names as id;

/// What the pre-pass found about each switch.
#[derive(Debug, Default)]
pub struct Structure {
    /// For the first label of each clause: its selectors (`None` for `default`). Later labels
    /// of the same clause map to `None`.
    pub labels: BTreeMap<usize, Option<Vec<Option<u32>>>>,
    /// Switch index → whether it has a `default`.
    pub has_default: BTreeMap<usize, bool>,
}

/// Whether control can never run past instruction `i` into the next one: it is an
/// unconditional jump, or an `endif` both of whose branches end that way.
fn terminates(
    insts: &[Instruction],
    ifs: &BTreeMap<usize, (usize, Option<usize>)>,
    i: usize,
) -> bool {
    match insts[i].opcode {
        Opcode::Break | Opcode::Ret | Opcode::Continue => true,
        Opcode::Endif => match ifs.get(&i) {
            Some(&(_, Some(else_at))) => {
                else_at > 0
                    && i > 0
                    && terminates(insts, ifs, else_at - 1)
                    && terminates(insts, ifs, i - 1)
            }
            _ => false,
        },
        _ => false,
    }
}

/// `endif` index → (`if` index, `else` index).
fn match_ifs(insts: &[Instruction]) -> BTreeMap<usize, (usize, Option<usize>)> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, inst) in insts.iter().enumerate() {
        match inst.opcode {
            Opcode::If => stack.push((i, None)),
            Opcode::Else => {
                if let Some(top) = stack.last_mut() {
                    top.1 = Some(i);
                }
            }
            Opcode::Endif => {
                if let Some(top) = stack.pop() {
                    out.insert(i, top);
                }
            }
            _ => {}
        }
    }
    out
}

/// A `case` label's selector.
fn case_value(inst: &Instruction) -> u32 {
    inst.operands
        .first()
        .and_then(|o| o.imm.first().copied())
        .unwrap_or(0)
}

/// Check nesting and work out switch clauses.
pub fn check_structure(program: &Program) -> Result<Structure, Rejection> {
    let insts = &program.instructions;
    let ifs = match_ifs(insts);
    let mut s = Structure::default();
    let mut stack: Vec<(Opcode, usize)> = Vec::new();
    // Loops (by their `loop` index) that some `break`, `breakc`, `ret` or `retc` leaves.
    let mut left: std::collections::BTreeSet<usize> = Default::default();
    // Case selectors seen, by switch index.
    let mut selectors: std::collections::BTreeSet<(usize, u32)> = Default::default();
    let bad = |i: usize, op: Opcode, what: &str| {
        Rejection::new(id::NOT_LOWERED, what.to_string()).at(i, op)
    };
    for (i, inst) in insts.iter().enumerate() {
        match inst.opcode {
            Opcode::If | Opcode::Loop => stack.push((inst.opcode, i)),
            Opcode::Switch => {
                // A switch's body starts with a label: code before it belongs to no clause.
                if let Some(next) = insts.get(i + 1)
                    && !matches!(
                        next.opcode,
                        Opcode::Case | Opcode::Default | Opcode::Endswitch
                    )
                {
                    return Err(bad(
                        i + 1,
                        next.opcode,
                        "code between a switch and its first case",
                    ));
                }
                stack.push((inst.opcode, i));
                s.has_default.insert(i, false);
            }
            Opcode::Else if matches!(stack.last(), Some((Opcode::If, _))) => {}
            Opcode::Endif if matches!(stack.last(), Some((Opcode::If, _))) => {
                stack.pop();
            }
            Opcode::Break | Opcode::Breakc => {
                // A break leaves the innermost loop or switch.
                match stack
                    .iter()
                    .rev()
                    .find(|(op, _)| matches!(op, Opcode::Loop | Opcode::Switch))
                {
                    Some(&(Opcode::Loop, l)) => {
                        left.insert(l);
                    }
                    Some(_) => {}
                    None => return Err(bad(i, inst.opcode, "break outside a loop or switch")),
                }
            }
            Opcode::Continue | Opcode::Continuec
                if !stack.iter().any(|(op, _)| *op == Opcode::Loop) =>
            {
                return Err(bad(i, inst.opcode, "continue outside a loop"));
            }
            Opcode::Ret | Opcode::Retc => {
                left.extend(
                    stack
                        .iter()
                        .filter(|(op, _)| *op == Opcode::Loop)
                        .map(|s| s.1),
                );
            }
            Opcode::Endloop if matches!(stack.last(), Some((Opcode::Loop, _))) => {
                let (_, l) = stack.pop().unwrap_or((Opcode::Loop, i));
                // Nothing leaves it: the program never ends, on purpose or not, and a WGSL
                // loop cannot promise D3D's behaviour there (a hang, a lost device).
                if !left.contains(&l) {
                    return Err(Rejection::new(
                        id::SYSTEM_CRASH,
                        "a loop that no break or return leaves never terminates",
                    )
                    .at(l, Opcode::Loop));
                }
            }
            Opcode::Endswitch if matches!(stack.last(), Some((Opcode::Switch, _))) => {
                stack.pop();
            }
            Opcode::Case | Opcode::Default => {
                let Some(&(Opcode::Switch, sw)) = stack.last() else {
                    return Err(bad(i, inst.opcode, "case label outside a switch"));
                };
                // WGSL, like D3D's validator, takes each selector once per switch.
                if inst.opcode == Opcode::Default {
                    if s.has_default.insert(sw, true) == Some(true) {
                        return Err(bad(i, inst.opcode, "a second default in one switch"));
                    }
                } else if !selectors.insert((sw, case_value(inst))) {
                    return Err(bad(i, inst.opcode, "a case label repeated in one switch"));
                }
                let prev = &insts[i - 1];
                let continues_clause = matches!(prev.opcode, Opcode::Case | Opcode::Default);
                if !continues_clause
                    && prev.opcode != Opcode::Switch
                    && !terminates(insts, &ifs, i - 1)
                {
                    return Err(bad(i, inst.opcode, "switch case falls through into code"));
                }
                if !continues_clause {
                    let mut sel = Vec::new();
                    for later in &insts[i..] {
                        match later.opcode {
                            Opcode::Case => sel.push(Some(case_value(later))),
                            Opcode::Default => sel.push(None),
                            _ => break,
                        }
                    }
                    s.labels.insert(i, Some(sel));
                } else {
                    s.labels.insert(i, None);
                }
            }
            Opcode::Else | Opcode::Endif | Opcode::Endloop | Opcode::Endswitch => {
                return Err(bad(i, inst.opcode, "unbalanced control flow"));
            }
            _ => {}
        }
    }
    if let Some(&(op, i)) = stack.last() {
        return Err(bad(i, op, "control flow is never closed"));
    }
    Ok(s)
}

/// An open construct of the body.
#[derive(Debug)]
pub enum Frame {
    /// An `if`: its condition, and its `accept` block once `else` has closed it.
    If {
        condition: H,
        accept: Option<Block>,
    },
    Loop,
    /// A `switch`: its selector, the clauses closed so far, and the labels of the open one.
    Switch {
        selector: H,
        index: usize,
        cases: Vec<SwitchCase>,
        open: Option<Vec<Option<u32>>>,
    },
}

/// The cases of one clause: every label but the last falls through, empty, into the last,
/// which holds the body.
fn clause(labels: &[Option<u32>], body: Block, out: &mut Vec<SwitchCase>) {
    let value = |l: &Option<u32>| l.map_or(SwitchValue::Default, SwitchValue::U32);
    let Some((last, first)) = labels.split_last() else {
        return;
    };
    for l in first {
        out.push(SwitchCase {
            value: value(l),
            body: Block::new(),
            fall_through: true,
        });
    }
    out.push(SwitchCase {
        value: value(last),
        body,
        fall_through: false,
    });
}

impl Ctx<'_> {
    pub(super) fn cond(&mut self, inst: &Instruction) -> Result<H, Rejection> {
        let op = inst
            .operands
            .first()
            .ok_or_else(|| Rejection::new(id::NOT_LOWERED, "missing condition"))?;
        let e = self.src(op, 0, dxbc::opcodes::Num::Uint)?;
        let z = self.b.u(0);
        Ok(match inst.test {
            Some(Test::Zero) => self.b.bin(BinaryOperator::Equal, e, z),
            _ => self.b.bin(BinaryOperator::NotEqual, e, z),
        })
    }

    /// A derivative or implicit-LOD sample: WGSL requires uniform control flow for it.
    pub fn note_derivative(&mut self) {
        if self.varying_depth > 0 {
            self.needs_derivative_opt_out = true;
        }
    }

    /// `if (condition) { what }`.
    fn guarded(&mut self, condition: H, what: Statement) {
        self.b.when(condition, |b| b.stmt(what));
    }

    fn unbalanced(what: &str) -> Rejection {
        Rejection::new(
            id::NOT_LOWERED,
            format!("unbalanced control flow at {what}"),
        )
    }

    pub fn flow(
        &mut self,
        inst: &Instruction,
        index: usize,
        s: &Structure,
    ) -> Result<(), Rejection> {
        use Opcode::*;
        match inst.opcode {
            If => {
                let condition = self.cond(inst)?;
                self.b.open();
                self.frames.push(Frame::If {
                    condition,
                    accept: None,
                });
                self.varying_depth += 1;
            }
            Else => {
                let block = self.b.close();
                match self.frames.last_mut() {
                    Some(Frame::If { accept, .. }) if accept.is_none() => *accept = Some(block),
                    _ => return Err(Self::unbalanced("else")),
                }
                self.b.open();
            }
            Endif => {
                let block = self.b.close();
                let Some(Frame::If { condition, accept }) = self.frames.pop() else {
                    return Err(Self::unbalanced("endif"));
                };
                let (accept, reject) = match accept {
                    Some(a) => (a, block),
                    None => (block, Block::new()),
                };
                self.b.stmt(Statement::If {
                    condition,
                    accept,
                    reject,
                });
                self.varying_depth = self.varying_depth.saturating_sub(1);
            }
            Loop => {
                self.b.open();
                self.frames.push(Frame::Loop);
                self.varying_depth += 1;
            }
            Endloop => {
                let body = self.b.close();
                let Some(Frame::Loop) = self.frames.pop() else {
                    return Err(Self::unbalanced("endloop"));
                };
                self.b.stmt(Statement::Loop {
                    body,
                    continuing: Block::new(),
                    break_if: None,
                });
                self.varying_depth = self.varying_depth.saturating_sub(1);
            }
            Break => self.b.stmt(Statement::Break),
            Continue => {
                self.relies(id::CONTINUE_CONTINUING);
                self.b.stmt(Statement::Continue);
            }
            Breakc | Continuec | Retc => {
                let c = self.cond(inst)?;
                let what = match inst.opcode {
                    Breakc => Statement::Break,
                    Continuec => {
                        self.relies(id::CONTINUE_CONTINUING);
                        Statement::Continue
                    }
                    _ => Statement::Return { value: None },
                };
                self.guarded(c, what);
            }
            Discard => {
                if self.stage != dxbc::Stage::Pixel {
                    return Err(Rejection::new(
                        id::NOT_LOWERED,
                        "discard outside a pixel program",
                    ));
                }
                let c = self.cond(inst)?;
                self.guarded(c, Statement::Kill);
            }
            Ret => self.b.stmt(Statement::Return { value: None }),
            Switch => {
                let op = inst
                    .operands
                    .first()
                    .ok_or_else(|| Rejection::new(id::NOT_LOWERED, "switch without selector"))?;
                let selector = self.src(op, 0, dxbc::opcodes::Num::Uint)?;
                self.b.flush();
                self.frames.push(Frame::Switch {
                    selector,
                    index,
                    cases: Vec::new(),
                    open: None,
                });
                self.varying_depth += 1;
            }
            Case | Default => {
                if let Some(Some(sel)) = s.labels.get(&index) {
                    let closing = matches!(
                        self.frames.last(),
                        Some(Frame::Switch { open: Some(_), .. })
                    );
                    let body = if closing { Some(self.b.close()) } else { None };
                    let Some(Frame::Switch { cases, open, .. }) = self.frames.last_mut() else {
                        return Err(Self::unbalanced("case"));
                    };
                    if let (Some(labels), Some(body)) = (open.take(), body) {
                        clause(&labels, body, cases);
                    }
                    *open = Some(sel.clone());
                    self.b.open();
                }
            }
            Endswitch => {
                let closing = matches!(
                    self.frames.last(),
                    Some(Frame::Switch { open: Some(_), .. })
                );
                let body = if closing { Some(self.b.close()) } else { None };
                let Some(Frame::Switch {
                    selector,
                    index: sw,
                    mut cases,
                    open,
                }) = self.frames.pop()
                else {
                    return Err(Self::unbalanced("endswitch"));
                };
                if let (Some(labels), Some(body)) = (open, body) {
                    clause(&labels, body, &mut cases);
                }
                if !s.has_default.get(&sw).copied().unwrap_or(false) {
                    self.relies(id::SWITCH_DEFAULT);
                    cases.push(SwitchCase {
                        value: SwitchValue::Default,
                        body: Block::new(),
                        fall_through: false,
                    });
                }
                self.b.stmt(Statement::Switch { selector, cases });
                self.varying_depth = self.varying_depth.saturating_sub(1);
            }
            Nop => {}
            other => {
                return Err(Rejection::new(
                    id::NOT_LOWERED,
                    format!("`{}` is not lowered", other.mnemonic()),
                ));
            }
        }
        Ok(())
    }

    /// `sync`: a workgroup barrier for TGSM or thread synchronisation, a storage barrier for UAV
    /// fences. WGSL barriers always synchronise the group, which over-synchronises a bare fence.
    pub fn sync(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        if self.stage != dxbc::Stage::Compute {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "sync outside a compute program",
            ));
        }
        let bits = inst.controls >> 11;
        if bits & 0b1100 != 0 {
            self.b.stmt(Statement::ControlBarrier(Barrier::STORAGE));
        }
        if bits & 0b0011 != 0 || bits == 0 {
            self.b.stmt(Statement::ControlBarrier(Barrier::WORK_GROUP));
        }
        Ok(())
    }
}
