//! Structured control flow. D3D's `if`/`loop`/`switch` map onto WGSL's; `switch` gains an
//! empty `default` when it has none, consecutive case labels merge into one clause, and a
//! clause that falls through into code is rejected (WGSL has no fall-through).

use std::collections::BTreeMap;

use dxbc::{Instruction, Opcode, Program, Test};

use super::Ctx;
use crate::Rejection;
use crate::names as id;

/// What the pre-pass found about each switch.
#[derive(Debug, Default)]
pub struct Structure {
    /// For the first label of each clause: its WGSL selector list. Later labels of the same
    /// clause map to `None`.
    pub labels: BTreeMap<usize, Option<String>>,
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

/// Check nesting and work out switch clauses.
pub fn check_structure(program: &Program) -> Result<Structure, Rejection> {
    let insts = &program.instructions;
    let ifs = match_ifs(insts);
    let mut s = Structure::default();
    let mut stack: Vec<(Opcode, usize)> = Vec::new();
    // Loops (by their `loop` index) that some `break`, `breakc`, `ret` or `retc` leaves.
    let mut left: std::collections::BTreeSet<usize> = Default::default();
    let bad = |i: usize, op: Opcode, what: &str| {
        Rejection::new(id::UNSUPPORTED, what.to_string()).at(i, op)
    };
    for (i, inst) in insts.iter().enumerate() {
        match inst.opcode {
            Opcode::If | Opcode::Loop => stack.push((inst.opcode, i)),
            Opcode::Switch => {
                stack.push((inst.opcode, i));
                s.has_default.insert(i, false);
            }
            Opcode::Else if matches!(stack.last(), Some((Opcode::If, _))) => {}
            Opcode::Endif if matches!(stack.last(), Some((Opcode::If, _))) => {
                stack.pop();
            }
            Opcode::Break | Opcode::Breakc => {
                // A break leaves the innermost loop or switch.
                if let Some(&(Opcode::Loop, l)) = stack
                    .iter()
                    .rev()
                    .find(|(op, _)| matches!(op, Opcode::Loop | Opcode::Switch))
                {
                    left.insert(l);
                }
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
                if inst.opcode == Opcode::Default {
                    s.has_default.insert(sw, true);
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
                            Opcode::Case => {
                                let v = later
                                    .operands
                                    .first()
                                    .and_then(|o| o.imm.first().copied())
                                    .unwrap_or(0);
                                sel.push(format!("{v}u"));
                            }
                            Opcode::Default => sel.push("default".into()),
                            _ => break,
                        }
                    }
                    s.labels.insert(i, Some(sel.join(", ")));
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

impl Ctx<'_> {
    fn cond(&mut self, inst: &Instruction) -> Result<String, Rejection> {
        let op = inst
            .operands
            .first()
            .ok_or_else(|| Rejection::new(id::UNSUPPORTED, "missing condition"))?;
        let e = self.src(op, 0, dxbc::opcodes::Num::Uint)?;
        Ok(match inst.test {
            Some(Test::Zero) => format!("{e} == 0u"),
            _ => format!("{e} != 0u"),
        })
    }

    /// A derivative or implicit-LOD sample: WGSL requires uniform control flow for it.
    pub fn note_derivative(&mut self) {
        if self.varying_depth > 0 {
            self.needs_derivative_opt_out = true;
        }
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
                let c = self.cond(inst)?;
                self.line(&format!("if ({c}) {{"));
                self.indent += 1;
                self.varying_depth += 1;
            }
            Else => {
                self.indent -= 1;
                self.line("} else {");
                self.indent += 1;
            }
            Endif | Endloop => {
                self.indent -= 1;
                self.line("}");
                self.varying_depth = self.varying_depth.saturating_sub(1);
            }
            Loop => {
                self.line("loop {");
                self.indent += 1;
                self.varying_depth += 1;
            }
            Break => self.line("break;"),
            Continue => {
                self.relies(id::CONTINUE_CONTINUING);
                self.line("continue;");
            }
            Breakc | Continuec | Retc => {
                let c = self.cond(inst)?;
                let what = match inst.opcode {
                    Breakc => "break;",
                    Continuec => {
                        self.relies(id::CONTINUE_CONTINUING);
                        "continue;"
                    }
                    _ => "return;",
                };
                self.line(&format!("if ({c}) {{ {what} }}"));
            }
            Discard => {
                if self.stage != dxbc::Stage::Pixel {
                    return Err(Rejection::new(
                        id::UNSUPPORTED,
                        "discard outside a pixel program",
                    ));
                }
                let c = self.cond(inst)?;
                self.line(&format!("if ({c}) {{ discard; }}"));
            }
            Ret => self.line("return;"),
            Switch => {
                let op = inst
                    .operands
                    .first()
                    .ok_or_else(|| Rejection::new(id::UNSUPPORTED, "switch without selector"))?;
                let e = self.src(op, 0, dxbc::opcodes::Num::Uint)?;
                self.line(&format!("switch ({e}) {{"));
                self.indent += 1;
                self.varying_depth += 1;
                self.switch_open.push((index, false));
            }
            Case | Default => {
                if let Some(Some(sel)) = s.labels.get(&index) {
                    let was_open = self.switch_open.last().is_some_and(|o| o.1);
                    if was_open {
                        self.indent -= 1;
                        self.line("}");
                    }
                    if let Some(open) = self.switch_open.last_mut() {
                        open.1 = true;
                    }
                    self.line(&format!("case {sel}: {{"));
                    self.indent += 1;
                }
            }
            Endswitch => {
                let (sw, open) = self.switch_open.pop().unwrap_or((0, false));
                if open {
                    self.indent -= 1;
                    self.line("}");
                }
                if !s.has_default.get(&sw).copied().unwrap_or(false) {
                    self.relies(id::SWITCH_DEFAULT);
                    self.line("default: {}");
                }
                self.indent -= 1;
                self.line("}");
                self.varying_depth = self.varying_depth.saturating_sub(1);
            }
            Nop => {}
            other => {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
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
                id::UNSUPPORTED,
                "sync outside a compute program",
            ));
        }
        let bits = inst.controls >> 11;
        if bits & 0b1100 != 0 {
            self.line("storageBarrier();");
        }
        if bits & 0b0011 != 0 || bits == 0 {
            self.line("workgroupBarrier();");
        }
        Ok(())
    }
}
