//! Structured control flow for a batch of lanes. A pre-pass matches `if`/`else`/`endif`,
//! `loop`/`endloop` and `switch`/`case`/`endswitch`; at run time a stack of frames narrows the
//! active mask the way a GPU does, so every lane follows its own path through the same program.

use dxbc::{Instruction, Opcode};

use super::InterpError;
use super::mask::Mask;

/// Where each structured instruction's partners are (indices into the instruction list).
#[derive(Debug, Clone, Default)]
pub struct Structure {
    /// For `if`: its `else` (if any) and `endif`. For `else`: its `endif`.
    pub if_targets: Vec<(Option<usize>, usize)>,
    /// For `switch`: the values of all its `case`s.
    pub switch_cases: Vec<Vec<u32>>,
    /// Subroutine bodies, function tables and interfaces, for `call` and `fcall`.
    pub linkage: dxbc::Linkage,
}

impl Structure {
    pub fn analyze(insts: &[Instruction]) -> Result<Structure, InterpError> {
        let n = insts.len();
        let mut s = Structure {
            if_targets: vec![(None, 0); n],
            switch_cases: vec![Vec::new(); n],
            linkage: dxbc::Linkage::of(insts),
        };
        let mut stack: Vec<(Opcode, usize, Option<usize>)> = Vec::new();
        for (i, inst) in insts.iter().enumerate() {
            let bad = |what: &str| InterpError::Malformed {
                index: i,
                what: what.to_string(),
            };
            match inst.opcode {
                Opcode::If | Opcode::Loop | Opcode::Switch => stack.push((inst.opcode, i, None)),
                Opcode::Else => match stack.last_mut() {
                    Some((Opcode::If, _, e @ None)) => *e = Some(i),
                    _ => return Err(bad("else without if")),
                },
                Opcode::Endif => match stack.pop() {
                    Some((Opcode::If, start, e)) => {
                        s.if_targets[start] = (e, i);
                        if let Some(e) = e {
                            s.if_targets[e] = (None, i);
                        }
                    }
                    _ => return Err(bad("endif without if")),
                },
                Opcode::Endloop => match stack.pop() {
                    Some((Opcode::Loop, ..)) => {}
                    _ => return Err(bad("endloop without loop")),
                },
                Opcode::Endswitch => match stack.pop() {
                    Some((Opcode::Switch, ..)) => {}
                    _ => return Err(bad("endswitch without switch")),
                },
                Opcode::Case => {
                    let sw = stack.iter().rev().find(|f| f.0 == Opcode::Switch);
                    let Some(&(_, start, _)) = sw else {
                        return Err(bad("case outside switch"));
                    };
                    let v = inst
                        .operands
                        .first()
                        .and_then(|o| o.imm.first().copied())
                        .ok_or_else(|| bad("case without an immediate"))?;
                    s.switch_cases[start].push(v);
                }
                Opcode::Default if !stack.iter().any(|f| f.0 == Opcode::Switch) => {
                    return Err(bad("default outside switch"));
                }
                Opcode::Break | Opcode::Breakc
                    if !stack
                        .iter()
                        .any(|f| matches!(f.0, Opcode::Loop | Opcode::Switch)) =>
                {
                    return Err(bad("break outside loop or switch"));
                }
                Opcode::Continue | Opcode::Continuec
                    if !stack.iter().any(|f| f.0 == Opcode::Loop) =>
                {
                    return Err(bad("continue outside loop"));
                }
                _ => {}
            }
        }
        if let Some((op, i, _)) = stack.last() {
            return Err(InterpError::Malformed {
                index: *i,
                what: format!("{} is never closed", op.mnemonic()),
            });
        }
        Ok(s)
    }
}

/// One open construct.
#[derive(Debug, Clone)]
pub enum Frame {
    If {
        entry: Mask,
        cond: Mask,
    },
    Loop {
        /// Lanes that entered the loop; they continue after `endloop`.
        outer: Mask,
        /// Lanes that have not broken out.
        running: Mask,
        start: usize,
        /// Times the loop went back to its start.
        trips: u32,
    },
    Switch {
        outer: Mask,
        matched: Mask,
        broken: Mask,
        selector: Vec<u32>,
        start: usize,
    },
    /// A subroutine call (`call`, `callc`, `fcall`) whose body runs.
    Call {
        /// The lanes active at the call: they go on after it.
        entry: Mask,
        /// `alive` at the call: a `ret` in the body ends the body for a lane, not the lane,
        /// so `alive` is put back (less any lane the body discarded) when the body ends.
        alive: Mask,
        /// Where the caller goes on.
        back: usize,
        /// Bodies still to run, with their lanes: an `fcall` whose lanes bound different
        /// tables runs each body for its own lanes, one after another.
        pending: Vec<(usize, Mask)>,
    },
}

/// Remove `lanes` from every frame up to the construct a `break` (or `continue`) leaves.
pub fn leave(frames: &mut [Frame], lanes: &Mask, is_continue: bool) {
    for f in frames.iter_mut().rev() {
        match f {
            // A body's `break` leaves a construct of the body (the validator sees to it).
            Frame::Call { .. } => return,
            Frame::If { entry, cond } => {
                *entry = entry.and_not(lanes);
                *cond = cond.and_not(lanes);
            }
            Frame::Loop { running, .. } => {
                if !is_continue {
                    *running = running.and_not(lanes);
                }
                return;
            }
            Frame::Switch {
                outer,
                matched,
                broken,
                ..
            } => {
                if is_continue {
                    *outer = outer.and_not(lanes);
                    *matched = matched.and_not(lanes);
                } else {
                    *broken = broken.or(lanes);
                    return;
                }
            }
        }
    }
}
