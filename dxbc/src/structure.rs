//! Program structures that the seed contract's structural entries are about: facts about a
//! program's shape, not about any value, so that a catalog entry without ops or a domain can
//! still be attributed to the programs it concerns. The catalog names them (`structure`), a
//! translator that relies on an entry checks the structure is there, and `dxdiff contract`
//! counts the programs that have it.

use std::collections::{BTreeMap, BTreeSet};

use crate::decl::SystemValue;
use crate::ir::{Instruction, Operand, OperandType, Program};
use crate::limits::Limit;
use crate::opcodes::{Kind, Num, Opcode};

/// One structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Structure {
    /// A temp component written by an instruction of one numeric class (float or integer) and
    /// read by an instruction of the other.
    RegisterReinterpreted,
    /// A temp component written inside an `if`, `loop` or `switch` and read after it closes.
    CrossScopeRead,
    /// A pixel input declared as `SV_IsFrontFace`.
    FrontFacingInput,
    /// A temp component written and never read before it is overwritten in the same straight
    /// run of instructions, or never read at all.
    DeadTempWrite,
    /// Two interface declarations sharing one register with different components.
    PackedVarying,
    /// An operand with `min16float` precision.
    Min16Float,
}

impl Structure {
    /// Every structure.
    pub const ALL: [Structure; 6] = [
        Structure::RegisterReinterpreted,
        Structure::CrossScopeRead,
        Structure::FrontFacingInput,
        Structure::DeadTempWrite,
        Structure::PackedVarying,
        Structure::Min16Float,
    ];

    /// The catalog's spelling.
    pub const fn id(self) -> &'static str {
        match self {
            Structure::RegisterReinterpreted => "register-reinterpreted",
            Structure::CrossScopeRead => "cross-scope-read",
            Structure::FrontFacingInput => "front-facing-input",
            Structure::DeadTempWrite => "dead-temp-write",
            Structure::PackedVarying => "packed-varying",
            Structure::Min16Float => "min16-float",
        }
    }

    /// The structure the catalog spells `id`.
    pub fn from_id(id: &str) -> Option<Structure> {
        Structure::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Whether `program` has this structure.
    pub fn present(self, program: &Program) -> bool {
        let body = &program.instructions;
        match self.finder() {
            Some(mut f) => {
                for inst in body {
                    f.step(inst);
                }
                f.found()
            }
            None => dead_write(body),
        }
    }

    /// A [`Finder`] of this structure, for a caller that walks the program anyway (the
    /// translator's declaration scan, where separate walks cost a few per cent); `None` for
    /// [`Structure::DeadTempWrite`], which needs the whole program's reads first.
    pub fn finder(self) -> Option<Finder> {
        Some(Finder(match self {
            Structure::RegisterReinterpreted => Find::Reinterpreted(BTreeMap::new()),
            Structure::CrossScopeRead => Find::CrossScope(CrossScope::default()),
            Structure::FrontFacingInput => Find::FrontFacing,
            Structure::DeadTempWrite => return None,
            Structure::PackedVarying => Find::Packed(smallvec::SmallVec::new()),
            Structure::Min16Float => Find::Min16Float,
        }))
    }
}

/// A structure looked for one instruction at a time, in program order: [`Finder::step`] over
/// every instruction, then [`Finder::found`] is what [`Structure::present`] answers.
#[derive(Debug, Clone)]
pub struct Finder(Find);

#[derive(Debug, Clone)]
enum Find {
    /// The numeric class each temp component was last written with.
    Reinterpreted(BTreeMap<(u64, usize), bool>),
    CrossScope(CrossScope),
    FrontFacing,
    /// The input and output registers declared so far: inline for the ten most programs
    /// declare at most (the translator asks this of every program), on the heap past them.
    Packed(smallvec::SmallVec<[(OperandType, u64); 10]>),
    Min16Float,
    /// Found: the rest of the program cannot change the answer.
    Found,
}

impl Finder {
    /// Look at the next instruction.
    pub fn step(&mut self, inst: &Instruction) {
        let found = match &mut self.0 {
            Find::Found => return,
            Find::Reinterpreted(last) => reinterpreted_at(last, inst),
            Find::CrossScope(c) => c.step(inst),
            Find::FrontFacing => inst.system_value() == Some(SystemValue::IsFrontFace),
            Find::Packed(declared) => {
                if let Some(r) = declared_register(inst) {
                    declared.push(r);
                }
                false
            }
            Find::Min16Float => inst.operands.iter().any(Operand::is_min16_float),
        };
        if found {
            self.0 = Find::Found;
        }
    }

    /// Whether the instructions seen so far have the structure.
    pub fn found(self) -> bool {
        match self.0 {
            Find::Found => true,
            Find::Packed(mut declared) => {
                declared.sort_unstable();
                declared.windows(2).any(|w| w[0] == w[1])
            }
            _ => false,
        }
    }
}

/// The register of a temp operand (`r3`); `None` for any other operand.
fn temp_register(op: &Operand) -> Option<u64> {
    if op.ty != OperandType::Temp {
        return None;
    }
    op.indices.first().and_then(|i| i.immediate())
}

/// Temp components an instruction reads: (register, component) of every temp source, through
/// its swizzle, for the components the destination mask needs (all four for instructions
/// without a vector destination). An iterator: the translator asks this of every instruction.
fn temp_reads(inst: &Instruction) -> impl Iterator<Item = (u64, usize)> + '_ {
    let dst = inst.info().dst as usize;
    let mask = inst
        .operands
        .first()
        .filter(|_| dst > 0)
        .map_or(0xF, |d| d.write_mask());
    let mask = if mask == 0 { 0xF } else { mask };
    inst.operands
        .iter()
        .skip(dst)
        .filter_map(|op| Some((temp_register(op)?, op)))
        .flat_map(move |(r, op)| {
            (0..4)
                .filter(move |c| mask & (1 << c) != 0)
                .map(move |c| (r, op.source_component(c)))
        })
}

/// Temp components an instruction writes.
fn temp_writes(inst: &Instruction) -> impl Iterator<Item = (u64, usize)> + '_ {
    let dst = inst.info().dst as usize;
    inst.operands
        .iter()
        .take(dst)
        .filter_map(|op| Some((temp_register(op)?, op.write_mask())))
        .flat_map(|(r, mask)| {
            (0..4)
                .filter(move |c| mask & (1 << c) != 0)
                .map(move |c| (r, c))
        })
}

/// The numeric class of an instruction's operand `slot`: `Some(true)` float, `Some(false)`
/// integer, `None` for typeless movers and the rest.
fn class(inst: &Instruction, slot: usize) -> Option<bool> {
    match inst.info().num(slot) {
        Num::Float => Some(true),
        Num::Int | Num::Uint => Some(false),
        _ => None,
    }
}

/// Whether `inst` reads a temp component as the other numeric class than it was last written
/// with; then records what it writes.
fn reinterpreted_at(last: &mut BTreeMap<(u64, usize), bool>, inst: &Instruction) -> bool {
    let dst = inst.info().dst as usize;
    for (k, op) in inst.operands.iter().enumerate().skip(dst) {
        let Some(reader) = class(inst, k) else {
            continue;
        };
        let Some(r) = temp_register(op) else {
            continue;
        };
        if (0..4).any(|c| last.get(&(r, op.source_component(c))) == Some(&!reader)) {
            return true;
        }
    }
    let writer = class(inst, 0);
    for w in temp_writes(inst) {
        match writer {
            Some(f) => last.insert(w, f),
            None => last.remove(&w),
        };
    }
    false
}

fn opens(op: Opcode) -> bool {
    matches!(op, Opcode::If | Opcode::Loop | Opcode::Switch)
}

fn closes(op: Opcode) -> bool {
    matches!(op, Opcode::Endif | Opcode::Endloop | Opcode::Endswitch)
}

/// [`Structure::CrossScopeRead`] so far: the nesting depth, and the depth each temp component
/// was last written at. Nothing is recorded before the first scope opens: a component written at
/// depth 0 is never read shallower.
#[derive(Debug, Clone, Default)]
struct CrossScope {
    scoped: bool,
    depth: usize,
    /// The deepest depth any component was recorded at.
    deepest: usize,
    /// D3D's temps in a flat table (grown to the registers used); any register past that limit
    /// (a program built in memory) in a map. The translator asks this of every program.
    flat: Vec<Option<usize>>,
    rest: BTreeMap<(u64, usize), usize>,
}

impl CrossScope {
    /// Whether `inst` reads a component written deeper than it sits; then records its writes.
    fn step(&mut self, inst: &Instruction) -> bool {
        if !self.scoped {
            if !opens(inst.opcode) {
                return false;
            }
            self.scoped = true;
        }
        let limit = u64::from(Limit::TempRegisters.value());
        let slot = |(r, c): (u64, usize)| (r < limit).then(|| r as usize * 4 + c);
        let depth = self.depth;
        // Nothing recorded deeper than here: no read can be a cross-scope one (the common
        // case inside a scope, and the whole of a program's first scope).
        if self.deepest > depth {
            let deeper = |rc| {
                match slot(rc) {
                    Some(k) => self.flat.get(k).copied().flatten(),
                    None => self.rest.get(&rc).copied(),
                }
                .is_some_and(|d| d > depth)
            };
            if temp_reads(inst).any(deeper) {
                return true;
            }
        }
        for w in temp_writes(inst) {
            self.deepest = self.deepest.max(depth);
            match slot(w) {
                Some(k) => {
                    if k >= self.flat.len() {
                        self.flat.resize(k + 1, None);
                    }
                    self.flat[k] = Some(depth);
                }
                None => {
                    self.rest.insert(w, depth);
                }
            }
        }
        if opens(inst.opcode) {
            self.depth += 1;
        } else if closes(inst.opcode) {
            self.depth = self.depth.saturating_sub(1);
        }
        false
    }
}

fn dead_write(body: &[Instruction]) -> bool {
    let read_anywhere: BTreeSet<(u64, usize)> = body.iter().flat_map(temp_reads).collect();
    // Writes since the last flow instruction that nothing has read yet.
    let mut pending: BTreeSet<(u64, usize)> = BTreeSet::new();
    for inst in body {
        if inst.info().kind == Kind::Flow {
            pending.clear();
            continue;
        }
        for rc in temp_reads(inst) {
            pending.remove(&rc);
        }
        for w in temp_writes(inst) {
            if !read_anywhere.contains(&w) || !pending.insert(w) {
                return true;
            }
        }
    }
    false
}

/// The input or output register `inst` declares, if it is such a declaration: one declared
/// twice is packed (each declaration names its own components).
fn declared_register(inst: &Instruction) -> Option<(OperandType, u64)> {
    if !inst.info().is_declaration() {
        return None;
    }
    let op = inst.operands.first()?;
    if !matches!(op.ty, OperandType::Input | OperandType::Output) {
        return None;
    }
    Some((op.ty, op.indices.first().and_then(|i| i.immediate())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pixel program of `body` with one input, one output and two temps declared.
    fn program(body: &str) -> Program {
        let text = format!(
            "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nret\n"
        );
        crate::assemble(&text).expect("assembles").program
    }

    fn has(s: Structure, body: &str) -> bool {
        s.present(&program(body))
    }

    #[test]
    fn ids_round_trip() {
        for s in Structure::ALL {
            assert_eq!(Structure::from_id(s.id()), Some(s));
        }
    }

    #[test]
    fn each_structure_is_found_and_its_twin_is_not() {
        use Structure::*;
        let cases = [
            (
                RegisterReinterpreted,
                "add r0.x, v0.x, v0.y\niadd o0.x, r0.x, l(1)",
                "add r0.x, v0.x, v0.y\nmul o0.x, r0.x, l(2.0)",
            ),
            (
                CrossScopeRead,
                "if_nz v0.x\n  mov r0.x, v0.y\nendif\nmov o0.x, r0.x",
                "mov r0.x, v0.y\nif_nz v0.x\n  mov o0.x, r0.x\nendif",
            ),
            (
                DeadTempWrite,
                "mov r0.x, v0.x\nmov r0.x, v0.y\nmov o0.x, r0.x",
                "mov r0.x, v0.x\nadd r0.x, r0.x, v0.y\nmov o0.x, r0.x",
            ),
            (
                Min16Float,
                "add r0.x {min16f}, v0.x {min16f}, v0.y {min16f}\nmov o0.x, r0.x",
                "add r0.x, v0.x, v0.y\nmov o0.x, r0.x",
            ),
        ];
        for (s, yes, no) in cases {
            assert!(has(s, yes), "{s:?}: {yes}");
            assert!(!has(s, no), "{s:?}: {no}");
        }
    }

    /// A cross-scope read is found past writes made before any scope opened (which the finder
    /// does not record) and after a scope closed; a scope that opens late changes nothing
    /// before it.
    #[test]
    fn cross_scope_reads_are_found_around_the_first_scope() {
        let yes = [
            "mov r0.x, v0.x\nif_nz v0.y\n  mov r0.x, v0.z\nendif\nmov o0.x, r0.x",
            "mov r1.x, v0.x\nloop\n  mov r0.y, r1.x\n  break\nendloop\nadd o0.x, r0.y, r1.x",
            // Written two deep, read one deep: found inside the outer scope.
            "if_nz v0.y\n  if_nz v0.z\n    mov r0.x, v0.w\n  endif\n  mov o0.x, r0.x\nendif",
        ];
        let no = [
            "mov r0.x, v0.x\nmov o0.x, r0.x\nif_nz v0.y\n  mov o0.y, r0.x\nendif",
            "if_nz v0.y\n  mov r0.x, v0.z\n  mov o0.x, r0.x\nendif\nmov r0.x, v0.x\nmov o0.y, r0.x",
        ];
        for body in yes {
            assert!(has(Structure::CrossScopeRead, body), "{body}");
        }
        for body in no {
            assert!(!has(Structure::CrossScopeRead, body), "{body}");
        }
        // A finder stepped by hand past the read, to the program's end, keeps its answer.
        let mut f = Structure::CrossScopeRead.finder().expect("streams");
        for inst in &program(yes[0]).instructions {
            f.step(inst);
        }
        assert!(f.found());
        assert!(Structure::DeadTempWrite.finder().is_none());
    }

    #[test]
    fn declarations_give_packed_varyings_and_front_facing() {
        let program = |decls: &str| {
            crate::assemble(&format!(
                "ps_5_0\n{decls}\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n"
            ))
            .expect("assembles")
            .program
        };
        let packed = program("dcl_input_ps linear v0.xy\ndcl_input_ps linear v0.zw");
        assert!(Structure::PackedVarying.present(&packed));
        assert!(!Structure::PackedVarying.present(&program("dcl_input_ps linear v0.xyzw")));
        let ff =
            program("dcl_input_ps linear v0.xyzw\ndcl_input_ps_sgv constant v1.x, is_front_face");
        assert!(Structure::FrontFacingInput.present(&ff));
        assert!(!Structure::FrontFacingInput.present(&packed));
    }
}
