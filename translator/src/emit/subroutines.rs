//! Subroutines and class linkage in the exact profile: every body (`label l#`, `label fb#`) is
//! a WGSL function over the shared register file, `call`/`callc` call it, and `fcall` is a
//! `switch` over the function tables its interface lists, on the table bound to the slot.
//!
//! The bound tables and the instances' "this" records are the class-instance buffer, constant
//! buffer [`dxbc::CLASS_INSTANCE_CB`] in the manifest, laid out by
//! [`dxbc::linkage::instance_row`]: what a D3D11 driver receives with `SetShader`'s class
//! instances, and what the harness binds. Temps are module variables (`var<private>`) in a
//! program with bodies, since the bodies share them with the caller.

use std::collections::{BTreeMap, BTreeSet};

use dxbc::linkage::{API_CB_SLOTS, Linkage};
use dxbc::{Index, Instruction, Opcode, Operand, OperandType};
use naga::{BinaryOperator, Block, Handle, Statement, SwitchCase, SwitchValue};

use super::Ctx;
use super::Rejection;
use super::build::{Body, H};
use super::flow::Structure;
use super::operand::Reg;
use crate::names as id;

fn not_lowered(what: impl Into<String>) -> Rejection {
    Rejection::new(id::NOT_LOWERED, what.into())
}

/// The label index of every body a body (or the main program) at `range` calls.
fn callees(linkage: &Linkage, insts: &[Instruction], range: std::ops::Range<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    for inst in &insts[range] {
        match inst.opcode {
            Opcode::Call | Opcode::Callc => out.extend(linkage.label_of_call(inst)),
            Opcode::Fcall => {
                let site = inst.leading.first().copied().unwrap_or(0);
                if let Some(Index::Imm32(fp)) =
                    inst.operands.first().and_then(|o| o.indices.first())
                    && let Some(decl) = linkage.interfaces.get(fp)
                {
                    for t in &decl.tables {
                        if let Some(fb) = linkage.body(*fp, *t, site) {
                            out.extend(linkage.bodies.get(&fb).copied());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Where the body at label `label` ends: the next label, or the end of the program.
fn body_end(insts: &[Instruction], label: usize) -> usize {
    insts[label + 1..]
        .iter()
        .position(|i| i.opcode == Opcode::Label)
        .map_or(insts.len(), |p| label + 1 + p)
}

/// The bodies the main program reaches, callees before their callers (WGSL functions are
/// declared before their calls). D3D forbids recursion; a cycle is refused.
pub fn order(linkage: &Linkage, insts: &[Instruction]) -> Result<Vec<usize>, Rejection> {
    fn visit(
        label: usize,
        linkage: &Linkage,
        insts: &[Instruction],
        on_path: &mut BTreeSet<usize>,
        done: &mut BTreeSet<usize>,
        out: &mut Vec<usize>,
    ) -> Result<(), Rejection> {
        if done.contains(&label) {
            return Ok(());
        }
        if !on_path.insert(label) {
            return Err(not_lowered(
                "a subroutine that calls itself (D3D forbids recursion)",
            ));
        }
        for c in callees(linkage, insts, label + 1..body_end(insts, label)) {
            visit(c, linkage, insts, on_path, done, out)?;
        }
        on_path.remove(&label);
        done.insert(label);
        out.push(label);
        Ok(())
    }
    let mut out = Vec::new();
    let (mut on_path, mut done) = (BTreeSet::new(), BTreeSet::new());
    for c in callees(linkage, insts, 0..Linkage::main_end(insts)) {
        visit(c, linkage, insts, &mut on_path, &mut done, &mut out)?;
    }
    Ok(out)
}

impl Ctx<'_> {
    /// Lower every body the main program reaches into its own function, callees first.
    pub fn lower_bodies(&mut self, s: &Structure) -> Result<(), Rejection> {
        let insts = &self.program.instructions;
        for label in order(&self.linkage, insts)? {
            let name = match insts[label]
                .operands
                .first()
                .and_then(|o| o.indices.first())
            {
                Some(Index::Imm32(n)) if insts[label].operands[0].ty == OperandType::Label => {
                    format!("l{n}")
                }
                Some(Index::Imm32(n)) => format!("fb{n}"),
                _ => return Err(not_lowered("a label without a number")),
            };
            let outer = std::mem::replace(&mut self.b, Body::new(&name));
            self.begin_function();
            // A body runs under its caller's `switch` or `if` on run-time data (a bound table,
            // a condition): its derivatives and implicit-LOD samples are under varying control
            // flow, which Tint rejects without the opt-out (found in Chrome with the SDK's
            // DynamicShaderLinkage11_PS).
            self.varying_depth = 1;
            let mut result = Ok(());
            let end = body_end(insts, label);
            for (i, inst) in insts.iter().enumerate().take(end).skip(label + 1) {
                if inst.info().is_declaration() || inst.opcode == Opcode::Customdata {
                    continue;
                }
                if let Err(r) = self.instruction(inst, i, s) {
                    result = Err(r.at(i, inst.opcode));
                    break;
                }
            }
            let body = std::mem::replace(&mut self.b, outer).finish();
            self.begin_function();
            result?;
            let f = self.module.functions.append(body, naga::Span::UNDEFINED);
            self.bodies.insert(label, f);
        }
        Ok(())
    }

    /// Forget the expressions of the function just built: each function has its own.
    pub fn begin_function(&mut self) {
        self.global_exprs.clear();
        for t in &mut self.temp_vars {
            *t = [None; 4];
        }
        self.regs.clear();
        self.fetched.clear();
        self.frames.clear();
        self.varying_depth = 0;
    }

    /// `call l#`, `callc_(n)z c, l#`, `fcall fp#[i][site]`.
    pub fn subroutine_call(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        match inst.opcode {
            Opcode::Call | Opcode::Callc => {
                let label = self
                    .linkage
                    .label_of_call(inst)
                    .ok_or_else(|| not_lowered("a call of a label the program does not have"))?;
                let f = *self
                    .bodies
                    .get(&label)
                    .ok_or_else(|| not_lowered("a call of a body not lowered"))?;
                let call = Statement::Call {
                    function: f,
                    arguments: Vec::new(),
                    result: None,
                };
                if inst.opcode == Opcode::Call {
                    self.b.stmt(call);
                } else {
                    let c = self.cond(inst)?;
                    self.b.when(c, |b| b.stmt(call));
                }
                Ok(())
            }
            _ => self.fcall(inst),
        }
    }

    fn fcall(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let op = inst
            .operands
            .first()
            .ok_or_else(|| not_lowered("fcall without an interface"))?;
        let Some(Index::Imm32(fp)) = op.indices.first() else {
            return Err(not_lowered("fcall of an interface without a number"));
        };
        let fp = *fp;
        let site = inst.leading.first().copied().unwrap_or(0);
        let decl = self
            .linkage
            .interfaces
            .get(&fp)
            .cloned()
            .ok_or_else(|| not_lowered("fcall of an undeclared interface"))?;
        let element = match op.indices.get(1) {
            Some(i) => self.index(i)?,
            None => self.b.u(0),
        };
        // The slot's table row: x holds the bound table's id.
        let first = self.b.u(fp);
        let slot = self.b.bin(BinaryOperator::Add, first, element);
        let table = self.instance_row(slot, true)?;
        let selector = self.b.expr(naga::Expression::AccessIndex {
            base: table,
            index: 0,
        });
        let mut cases = Vec::new();
        let mut seen = BTreeMap::new();
        for t in &decl.tables {
            let Some(fb) = self.linkage.body(fp, *t, site) else {
                continue;
            };
            let Some(label) = self.linkage.bodies.get(&fb) else {
                continue;
            };
            let f = *self
                .bodies
                .get(label)
                .ok_or_else(|| not_lowered("a call of a body not lowered"))?;
            if seen.insert(*t, f).is_some() {
                continue;
            }
            if crate::planted(crate::PlantedBug::FcallFirstTable) && !cases.is_empty() {
                continue;
            }
            let mut body = Block::new();
            body.push(
                Statement::Call {
                    function: f,
                    arguments: Vec::new(),
                    result: None,
                },
                naga::Span::UNDEFINED,
            );
            cases.push(SwitchCase {
                value: SwitchValue::U32(*t),
                body,
                fall_through: false,
            });
        }
        // Any other table is one D3D's runtime refuses to bind: undefined, and nothing runs.
        let default = match cases.first() {
            Some(first) if crate::planted(crate::PlantedBug::FcallFirstTable) => first.body.clone(),
            _ => Block::new(),
        };
        cases.push(SwitchCase {
            value: SwitchValue::Default,
            body: default,
            fall_through: false,
        });
        self.b.stmt(Statement::Switch { selector, cases });
        Ok(())
    }

    /// The "this" row (or, with `table`, the table row) of interface slot `slot` (a `u32`
    /// expression) in the class-instance buffer, as `vec4<u32>`: the rows of
    /// [`dxbc::linkage::instance_row`], computed at run time.
    fn instance_row(&mut self, slot: H, table: bool) -> Result<H, Rejection> {
        let (this0, table0) = dxbc::linkage::instance_row(0);
        let per = self.b.u(dxbc::linkage::ROWS_PER_SLOT);
        let first = self.b.bin(BinaryOperator::Multiply, slot, per);
        let at_row = self.b.u(if table { table0 } else { this0 });
        let row = self.b.bin(BinaryOperator::Add, first, at_row);
        let at = self
            .cb_at(dxbc::CLASS_INSTANCE_CB)
            .ok_or_else(|| not_lowered("the class-instance buffer is not declared"))?;
        Ok(self.b.call(at, vec![row]))
    }

    /// `this[slot]`: the "this" record of the instance bound to a slot.
    pub fn this_register(&mut self, op: &Operand) -> Result<Reg, Rejection> {
        let slot = op
            .indices
            .first()
            .ok_or_else(|| not_lowered("this without a slot"))?;
        let slot = self.index(slot)?;
        Ok(Reg::Val(self.instance_row(slot, false)?))
    }

    /// `cb[r1.w + 0][r0.w + 0]`: a row of the constant buffer a run-time index picks among the
    /// declared ones; any other slot reads 0 (an unbound slot's 0, or D3D's undefined read
    /// past slot 13).
    pub fn selected_cb(&mut self, op: &Operand) -> Result<Reg, Rejection> {
        let (Some(slot), Some(row)) = (op.indices.first(), op.indices.get(1)) else {
            return Err(not_lowered("cb# without a register"));
        };
        let slot = self.index(slot)?;
        let row = self.index(row)?;
        let mut acc = self.zero_vec4();
        let slots: Vec<u32> = self
            .cbs
            .copied()
            .map(|(s, _)| s)
            .filter(|s| *s < API_CB_SLOTS)
            .collect();
        for s in slots {
            let at = self
                .cb_at(s)
                .ok_or_else(|| not_lowered(format!("undeclared cb{s}")))?;
            let v = self.b.call(at, vec![row]);
            let k = self.b.u(s);
            let is = self.b.bin(BinaryOperator::Equal, slot, k);
            acc = self.b.select(acc, v, is);
        }
        Ok(Reg::Val(acc))
    }
}

/// The bodies lowered so far, by label index.
pub type Bodies = BTreeMap<usize, Handle<naga::Function>>;
