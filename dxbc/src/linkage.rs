//! Subroutines and class linkage (SM 5.0 interfaces): where each body starts, which bodies a
//! function table lists, which tables an interface may dispatch to, and where a program's class
//! instances are bound.
//!
//! One reading of the declarations for everything that runs or lowers them: the interpreter's
//! `call`/`fcall`, the translator's functions and the harness's instance data all take their
//! bodies and tables from [`Linkage`], and the instance data's layout from
//! [`CLASS_INSTANCE_CB`] and [`instance_row`].
//!
//! `fcall fp#[i][site]` runs, for interface slot `s = fp# + i`, body `site` of the function
//! table the application bound to slot `s` (D3D11's `SetShader` with class instances; the
//! driver receives one table id and one "this" record per slot). `this[s]` is that record:
//! x the constant buffer of the instance's data, y its first row, z its first texture, w its
//! first sampler (the columns fxc lists under "Available Class Instances").

use std::collections::BTreeMap;

use crate::ir::{Index, Instruction, OperandType};
use crate::opcodes::Opcode;

/// The constant-buffer slot that holds the class instances' state. D3D11 programs use slots 0
/// to 13 (`D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT`); the hardware has 16, and the
/// driver keeps the rest for itself, as this harness does: no program can name slot 14, and
/// a run-time index that reaches it is undefined in D3D.
pub const CLASS_INSTANCE_CB: u32 = 14;

/// The constant-buffer slots a program may name (0 to 13).
pub const API_CB_SLOTS: u32 = 14;

/// Interface slots a program may have (D3D11 allows 253); [`instance_row`] takes only these.
pub const MAX_SLOTS: u32 = 253;

/// The rows of the class-instance buffer for interface slot `slot`: row `2·slot` is its
/// "this" record (x, y, z, w as above) and row `2·slot + 1` holds, in x, the id of the
/// function table bound to it.
pub const fn instance_row(slot: u32) -> (u32, u32) {
    (slot * ROWS_PER_SLOT, slot * ROWS_PER_SLOT + 1)
}

/// Rows of the class-instance buffer per interface slot ([`instance_row`]): for a translation
/// that computes a slot's row at run time.
pub const ROWS_PER_SLOT: u32 = 2;

/// A `dcl_interface`: the slots `fp#` to `fp# + slots − 1`, the call sites each table has, and
/// the tables (one per class type that implements it) an instance may bind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceDecl {
    /// How many slots (the array length; 1 for a plain interface).
    pub slots: u32,
    /// Call sites: bodies per table.
    pub call_sites: u32,
    /// The function tables an instance of this interface may bind.
    pub tables: Vec<u32>,
    /// Whether `fcall` may index the array with a register (`_dynamicindexed`).
    pub dynamic: bool,
}

/// A program's subroutines and interfaces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Linkage {
    /// `label l#` → the instruction index of the label.
    pub labels: BTreeMap<u32, usize>,
    /// `label fb#` → the instruction index of the label.
    pub bodies: BTreeMap<u32, usize>,
    /// `ft#` → the body of each call site.
    pub tables: BTreeMap<u32, Vec<u32>>,
    /// `fp#` → its declaration.
    pub interfaces: BTreeMap<u32, InterfaceDecl>,
}

impl Linkage {
    /// Read the declarations and labels of a program's instructions. Malformed declarations
    /// are skipped (the validator reports them); a call whose target is missing finds nothing.
    pub fn of(instructions: &[Instruction]) -> Linkage {
        let mut l = Linkage::default();
        for (i, inst) in instructions.iter().enumerate() {
            let t = &inst.trailing;
            match inst.opcode {
                Opcode::Label => {
                    if let Some(op) = inst.operands.first()
                        && let Some(Index::Imm32(n)) = op.indices.first()
                    {
                        match op.ty {
                            OperandType::FunctionBody => l.bodies.insert(*n, i),
                            _ => l.labels.insert(*n, i),
                        };
                    }
                }
                Opcode::DclFunctionTable if t.len() >= 2 && t.len() == 2 + t[1] as usize => {
                    l.tables.insert(t[0], t[2..].to_vec());
                }
                Opcode::DclInterface if t.len() >= 3 && t.len() == 3 + (t[2] & 0xFFFF) as usize => {
                    l.interfaces.insert(
                        t[0],
                        InterfaceDecl {
                            slots: t[2] >> 16,
                            call_sites: t[1],
                            tables: t[3..].to_vec(),
                            dynamic: inst.is_dynamically_indexed(),
                        },
                    );
                }
                _ => {}
            }
        }
        l
    }

    /// Whether the program has any subroutine or interface.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.bodies.is_empty() && self.interfaces.is_empty()
    }

    /// The interface slots the program declares: one past the last.
    pub fn slot_count(&self) -> u32 {
        self.interfaces
            .iter()
            .map(|(fp, d)| fp.saturating_add(d.slots))
            .max()
            .unwrap_or(0)
    }

    /// The interface whose slots hold `slot`.
    pub fn interface_of(&self, slot: u32) -> Option<(u32, &InterfaceDecl)> {
        self.interfaces
            .iter()
            .find(|(fp, d)| slot >= **fp && slot - **fp < d.slots)
            .map(|(fp, d)| (*fp, d))
    }

    /// The body `fcall` runs at call site `site` of interface `fp` when table `table` is bound:
    /// `None` where the interface may not bind that table or the table has no such site (D3D
    /// leaves that undefined: the runtime refuses such an instance).
    pub fn body(&self, fp: u32, table: u32, site: u32) -> Option<u32> {
        let decl = self.interfaces.get(&fp)?;
        if !decl.tables.contains(&table) {
            return None;
        }
        self.tables.get(&table)?.get(site as usize).copied()
    }

    /// Where the instructions of the subroutine called by `inst` (`call`, `callc`) start.
    pub fn label_of_call(&self, inst: &Instruction) -> Option<usize> {
        let op = inst.operands.last()?;
        match (op.ty, op.indices.first()) {
            (OperandType::Label, Some(Index::Imm32(n))) => self.labels.get(n).copied(),
            _ => None,
        }
    }

    /// The instruction index where the main program ends: its first label, or the end.
    pub fn main_end(instructions: &[Instruction]) -> usize {
        instructions
            .iter()
            .position(|i| i.opcode == Opcode::Label)
            .unwrap_or(instructions.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_interfaces_tables_and_bodies() {
        let text = "ps_5_0
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface_dynamicindexed fp2[3][1] = {ft0, ft1}
dcl_temps 1
fcall fp2[r0.x + 0][0]
ret
label fb0
mov r0.x, l(1)
ret
label fb1
ret
";
        let p = crate::asm::assemble(text).expect("assembles").program;
        let l = Linkage::of(&p.instructions);
        assert_eq!(l.slot_count(), 5);
        assert_eq!(l.interface_of(4).map(|(fp, _)| fp), Some(2));
        assert_eq!(l.interface_of(1), None);
        assert!(l.interfaces[&2].dynamic);
        assert_eq!(l.body(2, 1, 0), Some(1));
        assert_eq!(l.body(2, 7, 0), None, "a table the interface does not list");
        assert_eq!(l.body(2, 0, 1), None, "past the call sites");
        assert_eq!(l.bodies[&1], 11);
        assert_eq!(Linkage::main_end(&p.instructions), 8);
        assert_eq!(instance_row(3), (6, 7));
    }
}
