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
//!   component is known only if both paths agree. An `if` on a value the pass knows enters
//!   only the branch that value selects. A branch that only runs when the tested
//!   component is 0 (`if_z`'s, `if_nz`'s `else`) knows it is 0, and so is every temp that
//!   holds a plain copy of it: compilers propagate the equality into the branch (lavapipe and
//!   the H200 fold `if_z v2.z` … `dp3 r3.y, r2.xxzw, v0` after `mov r2, v2`, dropping a `+0`).
//!   When the tested component is an input, a constant-buffer word (or a copy of one) or a
//!   thread id, the branch knows that register component itself is 0, read directly too (lavapipe folded
//!   `if_nz v0.x` … `else` … `dp4 r0.z, l(1,1,1,1), v0.xyxx` to −0 with −0 in `v0.y`, where
//!   D3D gives +0: `dxdiff fuzz`, exact profile). Such a register gets a row of its own after
//!   the temps', which nothing writes.
//! * `loop`: every temp component written anywhere inside is unknown on entry and after the
//!   end (another iteration may have written it). Straight-line code inside still propagates.
//!   A loop that can never start a second iteration (its body ends in an unconditional exit
//!   and no `continue` targets it) is straight-line code that runs at most once: its body
//!   starts from the state before it, and the code after it from the meet of its `break`s, as a
//!   `switch`'s end does (lavapipe and the H200 folded `mov r1.w, l(0)` written in such a loop
//!   into a `mul` after it, where `r1.w` held an input before: `dxdiff fuzz`, exact profile).
//! * `break`, `breakc`, `ret` on a condition the pass knows (a literal, or a temp component
//!   holding one) are taken or not as that value says: a compiler evaluates them, and a branch
//!   never taken leaves nothing behind.
//! * `switch`: a `case` is reached from the `switch` (and by falling through from the case
//!   before it), the end from every `break` out of it (and from the `switch` when there is no
//!   `default`); code after an unconditional `break`, `continue` or `ret` is not reached by
//!   falling through.
//! * `label` (a subroutine body) and after a `call`: everything is unknown.
//! * The elements of small indexable temps have rows of their own (see `indexable`), and bit
//!   and integer ops of known values are evaluated (see `evaluate`), so an index so computed
//!   names its element.
//!
//! This only ever claims less than a compiler can prove, never more.

mod evaluate;
mod indexable;
mod numbers;
mod regions;
mod small;
mod walk;

use std::collections::BTreeMap;

use dxbc::{Index, Opcode, Operand, OperandType, Program};

use evaluate::{absorbed, evaluate};
use indexable::Elements;
use numbers::{NONE, Number};
use small::small_result;

/// What is known of one temp component at one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    Unknown,
    /// The constant `v` (moved from a literal).
    Value(u32),
    /// A constant computed by an op, whose value the pass does not evaluate, named by where it
    /// was computed (instruction index × 4 + component): two paths meet equal only when both
    /// carry the one computed there, unchanged (a constant computed before an `if` or a `loop`
    /// that does not write it is still that constant after; the H200 folded `firstbit_shi` of
    /// a literal, computed before an empty `if`, into a `mad` with a NaN).
    Computed(u32),
    /// Not a constant, but provably below 2^23 as an integer (`countbits`, `and` with a small
    /// mask, a thread id): as float bits a denormal or zero, which a compiler that flushes
    /// denormals folds as it folds a zero (the H200 folded `countbits` of an input into a
    /// `dp4` with a NaN). Numbered as [`Known::Same`] is (or [`NONE`]).
    Small(Number),
    /// One of a few constants, chosen at run time: a comparison's mask, `movc` between
    /// constants, and ops of these. A compiler that
    /// knows the set folds each arm, so where the value is a zero it folds as a zero does
    /// (lavapipe and the H200 gave +0 for `ine r0.z, v0.z, v0.y` then `mul r0.x, r0.z, v0.x`
    /// with a negative denormal in `v0.x`, where D3D gives −0). Numbered as [`Known::Same`]
    /// is (or [`NONE`]).
    Choice(Number),
    /// Not a constant, but a plain copy of a register component that does not change during
    /// the invocation (an input, or a constant buffer word at a literal index): a branch on
    /// the one is a branch on the other.
    Copy(Alias),
    /// Not known, but the value numbered `n` ([`numbers`]): the same op of the same values,
    /// computed anywhere, which a compiler sees as one value (lavapipe and the H100 forwarded
    /// a store to `x0[r4.x]` to a load from `x0[r2.x]`, both indices `and` of one thread id
    /// with 3).
    Same(Number),
}

/// A register component whose value is fixed for the whole invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Alias {
    ty: OperandType,
    index: [u32; 2],
    comp: u8,
}

impl Alias {
    /// The fixed register component a plain `src` reads for destination component `c`.
    fn of(src: &Operand, c: usize) -> Option<Alias> {
        if src.modifier != dxbc::Modifier::None {
            return None;
        }
        Alias::under(src, c)
    }

    /// The fixed register component `src` reads for destination component `c`, whatever its
    /// modifier.
    fn under(src: &Operand, c: usize) -> Option<Alias> {
        let imm = |k: usize| match src.indices.get(k) {
            Some(Index::Imm32(r)) => Some(*r),
            _ => None,
        };
        let index = match (src.ty, src.indices.len()) {
            (OperandType::Input, 1) => [imm(0)?, 0],
            (OperandType::ConstantBuffer, 2) => [imm(0)?, imm(1)?],
            (ty, 0) if ty.is_thread_id() => [0, 0],
            _ => return None,
        };
        Some(Alias {
            ty: src.ty,
            index,
            comp: src.source_component(c) as u8,
        })
    }
}

impl Known {
    fn known(self) -> bool {
        !matches!(self, Known::Unknown | Known::Copy(_) | Known::Same(_))
    }

    /// The value, when the pass knows it. [`source`] gives a value only for a plain source (a
    /// modifier makes it a computed constant), so no caller checks the modifier again.
    fn value(self) -> Option<u32> {
        match self {
            Known::Value(v) => Some(v),
            _ => None,
        }
    }

    /// The value number a component carries, if any.
    fn number(self) -> Option<Number> {
        match self {
            Known::Small(n) | Known::Choice(n) | Known::Same(n) if n != NONE => Some(n),
            _ => None,
        }
    }

    /// The same knowledge numbered `n`, where this kind carries numbers and has none yet.
    fn numbered(self, n: Number) -> Known {
        match self {
            Known::Unknown | Known::Same(NONE) => Known::Same(n),
            Known::Small(NONE) => Known::Small(n),
            Known::Choice(NONE) => Known::Choice(n),
            other => other,
        }
    }

    /// A constant, or a choice among constants.
    fn constant(self) -> bool {
        matches!(
            self,
            Known::Value(_) | Known::Computed(_) | Known::Choice(_)
        )
    }

    /// Provably a denormal or zero as float bits.
    fn small(self) -> bool {
        match self {
            Known::Value(v) => v < 1 << 23,
            Known::Small(_) => true,
            _ => false,
        }
    }
}

/// The temp components each instruction reads that hold a compile-time constant there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constants {
    /// Per instruction: (row, the value of each component when known). Rows are the temps,
    /// then the fixed registers of `fixed`.
    at: Reads,
    /// The fixed registers (inputs, constant-buffer words at literal indices) a branch can
    /// know a component of: row `temps + k` is `fixed[k]`.
    fixed: Fixed,
    /// The elements of small indexable temps, with rows between the temps' and the fixed
    /// registers'.
    x: Elements,
}

/// The fixed registers a program reads, each with a row after the temps'.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Fixed {
    temps: usize,
    registers: Vec<(OperandType, [u32; 2])>,
}

impl Fixed {
    fn of(program: &Program, temps: usize) -> Fixed {
        let mut registers = Vec::new();
        for op in program.instructions.iter().flat_map(|i| &i.operands) {
            if let Some(a) = Alias::under(op, 0)
                && !registers.contains(&(a.ty, a.index))
            {
                registers.push((a.ty, a.index));
            }
        }
        Fixed { temps, registers }
    }

    /// The row of the register `a` names a component of.
    fn row(&self, a: Alias) -> Option<usize> {
        let k = self.registers.iter().position(|r| *r == (a.ty, a.index))?;
        Some(self.temps + k)
    }

    /// The row of a fixed register `op` reads, and the component it reads for `comp`.
    fn row_of(&self, op: &Operand, comp: usize) -> Option<(usize, usize)> {
        let a = Alias::under(op, comp)?;
        Some((self.row(a)?, usize::from(a.comp)))
    }
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

    /// Whether source `op` of instruction `inst` is a compile-time constant in destination
    /// component `comp`: a literal, `icb[n]`, `icb` at a constant register index (the H200
    /// folded `and r1.x, l(0x24), l(7)` then `mul r0.y, icb[r1.x].w, v0` with a −0 there),
    /// or a temp that holds a constant (or a provably small integer) here.
    pub fn operand_is_const(&self, inst: usize, op: &Operand, comp: usize, icb: &[u32]) -> bool {
        if literal_value(op, comp, icb).is_some() {
            return true;
        }
        if let Some((r, k)) = icb_index(op) {
            return self.is_const(inst, r as u32, k);
        }
        if let Some((row, k)) = self.fixed.row_of(op, comp) {
            return self.is_const(inst, row as u32, k);
        }
        if op.ty == OperandType::IndexableTemp {
            let reads = self.at.get(inst);
            let row = self.x.read_row(op, op.source_component(comp), |r| {
                Some(reads?.iter().find(|(x, _)| *x as usize == r)?.1)
            });
            return row
                .is_some_and(|row| self.is_const(inst, row as u32, op.source_component(comp)));
        }
        match op.indices.first() {
            Some(Index::Imm32(r)) if op.ty == OperandType::Temp => {
                self.is_const(inst, *r, op.source_component(comp))
            }
            _ => false,
        }
    }

    /// Whether sources `a` and `b` of instruction `inst` hold the same value in destination
    /// component `comp` (modifiers aside): one register component, or plain copies of one
    /// input or constant buffer word. A compiler sees one value there (the H200 folds
    /// `mov r1, v1; div r0.w, r1.w, v1.w` to 1 with a NaN in `v1.w`).
    pub fn same_value(&self, inst: usize, a: &Operand, b: &Operand, comp: usize) -> bool {
        one_value(a, b, comp, |r| {
            let reads = self.at.get(inst)?;
            Some(reads.iter().find(|(x, _)| *x as usize == r)?.1)
        })
    }
}

/// Whether `a` and `b` read one value in component `c` (modifiers aside): one register
/// component (one instruction reads both at once), or plain copies of one input or constant
/// buffer word. `temp` gives what the pass knows of a temp there.
fn one_value(
    a: &Operand,
    b: &Operand,
    c: usize,
    temp: impl Fn(usize) -> Option<[Known; 4]>,
) -> bool {
    if a.ty == b.ty
        && a.indices == b.indices
        && !matches!(a.ty, OperandType::Immediate32 | OperandType::Immediate64)
        && a.source_component(c) == b.source_component(c)
    {
        return true;
    }
    let held = |op: &Operand| {
        Alias::under(op, c).or_else(|| match temp(temp_index(op)?)?[op.source_component(c)] {
            Known::Copy(a) => Some(a),
            _ => None,
        })
    };
    if held(a).is_some_and(|x| held(b) == Some(x)) {
        return true;
    }
    // Two temps numbered alike: one op of one set of values.
    let number = |op: &Operand| temp(temp_index(op)?)?[op.source_component(c)].number();
    number(a).is_some_and(|x| number(b) == Some(x))
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

/// The temp component an `icb` read at a register index takes its index from
/// (`icb[r1.x + 4]`): a constant there makes the read a constant.
fn icb_index(op: &Operand) -> Option<(usize, usize)> {
    if op.ty != OperandType::ImmediateConstantBuffer || op.indices.len() != 1 {
        return None;
    }
    match &op.indices[0] {
        Index::Relative(r) | Index::Imm32Relative(_, r) => {
            Some((temp_index(r)?, r.source_component(0)))
        }
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
    dests(inst).map(|(_, r, m)| (r, m))
}

/// The temp components `inst` writes, as (destination operand, register, mask).
fn dests(inst: &dxbc::Instruction) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
    inst.split_operands()
        .0
        .iter()
        .enumerate()
        .filter_map(|(k, d)| temp_index(d).map(|r| (k, r, d.write_mask())))
}

/// Whether a conditional flow instruction (`breakc`, `continuec`, `retc`, `if`) with a test
/// on a value the pass knows is taken: `Some(true)` or `Some(false)`, `None` when the value is
/// not known. An unconditional `break` or `ret` is taken.
fn taken(inst: &dxbc::Instruction, cx: Cx<'_>, state: &[[Known; 4]]) -> Option<bool> {
    let Some(test) = inst.test else {
        return Some(true);
    };
    let v = source(inst.operands.first()?, 0, cx, state).value()?;
    Some((v == 0) == (test == dxbc::Test::Zero))
}

fn meet(a: &mut [[Known; 4]], b: &[[Known; 4]]) {
    for (x, y) in a.iter_mut().zip(b) {
        for (u, v) in x.iter_mut().zip(y) {
            // Equal only when both are the same known value; small on both paths stays small.
            *u = match (*u, *v) {
                (Known::Value(p), Known::Value(q)) if p == q => Known::Value(p),
                (Known::Copy(p), Known::Copy(q)) if p == q => Known::Copy(p),
                (Known::Computed(p), Known::Computed(q)) if p == q => Known::Computed(p),
                (Known::Same(p), Known::Same(q)) if p == q => Known::Same(p),
                (Known::Small(p), Known::Small(q)) => Known::Small(if p == q { p } else { NONE }),
                (a, b) if a.small() && b.small() => Known::Small(NONE),
                // Unchanged on both paths (a phi of two different constants is not a
                // choice a compiler folds per arm: none was seen to).
                (Known::Choice(p), Known::Choice(q)) => {
                    Known::Choice(if p == q { p } else { NONE })
                }
                _ => Known::Unknown,
            };
        }
    }
}

/// Ops a compiler evaluates when every source is a constant: ALU work with no memory, resource,
/// flow or double-precision operand.
fn foldable(inst: &dxbc::Instruction) -> bool {
    let info = inst.info();
    // A double op of constants is one too (a compiler folds `dmov r1.z, l(0, 0, 0, 0)` into a
    // later `dp4` as it folds a `mov`: lavapipe did, dxdiff fuzz with doubles).
    info.kind.is_alu()
        || info.has(dxbc::opcodes::Flags::MOVE)
        || info.kind == dxbc::opcodes::Kind::Double
}

/// The constant `inst` computes in component `c` because its two sources are one value,
/// whatever that value is: `xor x, x`, `x + -x`, `imad x, -1, x` and `usubb x, x` (difference
/// and borrow) are 0, `ine`/`ult`/`ilt` of x with itself false (0), `ieq`/`uge`/`ige` true
/// (0xffffffff). Integer identities, exact for every value, which any compiler folds (the
/// H200's and lavapipe's fold `xor r1.w, cb0[2].w, cb0[2].w` into a `dp2` with a NaN, to 0:
/// `dxdiff fuzz`, exact profile, lavapipe). The value itself is known, not only that it is
/// constant, so a path that writes the same literal meets it equal (the H100 folded
/// `ilt r1.x, v0, v0`, then an `if` that moves `l(0)` to `r1.x`, into a `mul` by `r1.x`).
fn of_itself(inst: &dxbc::Instruction, c: usize, cx: Cx<'_>, state: &[[Known; 4]]) -> Option<u32> {
    use dxbc::Modifier::{Neg, None as Plain};
    let (_, srcs) = inst.split_operands();
    let temp = |r: usize| state.get(r).copied();
    // `imad x, -1, x` and `imad -1, x, x` are `-x + x` (the H100 folded `imad r1.y, l(-1),
    // r1.y, r1.y` into a `dp4` with a NaN).
    if let (Opcode::Imad | Opcode::Umad, [p, q, add]) = (inst.opcode, srcs) {
        let minus_one = |o: &Operand| source(o, c, cx, state) == Known::Value(u32::MAX);
        let plain = |o: &Operand| o.modifier == Plain;
        return [(p, q), (q, p)]
            .iter()
            .any(|(k, x)| minus_one(k) && plain(x) && plain(add) && one_value(x, add, c, temp))
            .then_some(0);
    }
    let [a, b] = srcs else {
        return None;
    };
    let mods = (a.modifier, b.modifier);
    let value = match inst.opcode {
        Opcode::Xor | Opcode::Ine | Opcode::Ult | Opcode::Ilt | Opcode::Usubb
            if mods == (Plain, Plain) =>
        {
            0
        }
        Opcode::Ieq | Opcode::Uge | Opcode::Ige if mods == (Plain, Plain) => u32::MAX,
        Opcode::Iadd if mods == (Plain, Neg) || mods == (Neg, Plain) => 0,
        _ => return None,
    };
    one_value(a, b, c, temp).then_some(value)
}

/// The name a [`Known::Computed`] from a source read carries until the instruction that stores
/// it names it after itself.
const FRESH: u32 = u32::MAX;

/// What the pass reads besides registers: the immediate constant buffer, and the thread
/// group's size.
#[derive(Debug, Clone, Copy)]
struct Cx<'a> {
    icb: &'a [u32],
    group: [u32; 3],
    fixed: &'a Fixed,
    x: &'a Elements,
}

impl Cx<'_> {
    /// A thread id component that has one value in every invocation: `vThreadIDInGroup` in a
    /// dimension of size 1, and `vThreadIDInGroupFlattened` in a group of one thread, are 0.
    /// A compiler knows the workgroup size, so it knows them (the H200 folded `round_pi`,
    /// `min` and `ibfe` of `vThreadIDInGroupFlattened` in `dcl_thread_group 1, 1, 1` into a
    /// `mad` or `dp2` with a NaN: dxdiff fuzz, exact profile).
    fn fixed_thread_id(&self, src: &Operand, c: usize) -> Option<u32> {
        match src.ty {
            OperandType::InputThreadIdInGroup => {
                (self.group.get(src.source_component(c)) == Some(&1)).then_some(0)
            }
            OperandType::InputThreadIdInGroupFlattened => (self.group == [1, 1, 1]).then_some(0),
            _ => None,
        }
    }
}

/// What a source component is (a thread id is small, or 0 where it has one value).
fn source(src: &Operand, c: usize, cx: Cx<'_>, state: &[[Known; 4]]) -> Known {
    let plain = src.modifier == dxbc::Modifier::None;
    if let Some(v) = literal_value(src, c, cx.icb).or_else(|| cx.fixed_thread_id(src, c)) {
        return if plain {
            Known::Value(v)
        } else {
            Known::Computed(FRESH)
        };
    }
    // A fixed register a branch knows the value of (a thread id tested zero by `if_z`: the
    // H100 and lavapipe folded `mul r1.w, vThreadIDInGroupFlattened.x, l(1.0)` in such a
    // branch into a `mad` with a NaN).
    if let Some((row, k)) = cx.fixed.row_of(src, c)
        && let Some(Known::Value(v)) = state.get(row).map(|r| r[k])
    {
        return if plain {
            Known::Value(v)
        } else {
            Known::Computed(FRESH)
        };
    }
    // Otherwise a thread id is small (below 2^23), never a plain copy.
    if src.ty.is_thread_id() {
        return Known::Small(NONE);
    }
    if let Some((r, k)) = icb_index(src) {
        // At an index the pass knows the value of, the element itself (past the end reads 0,
        // as at run time): the H100 decided `if_z icb[r1.x + 0].x` with `r1.x` so computed.
        let base = src.indices.first().and_then(Index::immediate).unwrap_or(0);
        return match state.get(r).map(|v| v[k]) {
            Some(Known::Value(i)) if plain => {
                let row = base.saturating_add(u64::from(i));
                let at = usize::try_from(row).map_or(usize::MAX, |r| r.saturating_mul(4));
                Known::Value(
                    cx.icb
                        .get(at.saturating_add(src.source_component(c)))
                        .copied()
                        .unwrap_or(0),
                )
            }
            Some(v) if v.known() => Known::Computed(FRESH),
            _ => Known::Unknown,
        };
    }
    if let Some(a) = Alias::of(src, c) {
        return Known::Copy(a);
    }
    let row = temp_index(src).or_else(|| {
        cx.x.read_row(src, src.source_component(c), |r| state.get(r).copied())
    });
    let Some(k) = row.and_then(|r| state.get(r)) else {
        return Known::Unknown;
    };
    match k[src.source_component(c)] {
        Known::Value(_) | Known::Computed(_) if !plain => Known::Computed(FRESH),
        Known::Copy(_) | Known::Same(_) if !plain => Known::Unknown,
        // A float modifier keeps a denormal's exponent 0, and a choice a choice; neither is
        // the value its number names.
        Known::Small(_) if !plain => Known::Small(NONE),
        Known::Choice(_) if !plain => Known::Choice(NONE),
        other => other,
    }
}

type State = Vec<[Known; 4]>;

/// The compile-time constant temp components of every instruction of `program`, whose thread
/// group (compute programs; `[0; 3]` otherwise) is `group`.
pub fn constant_temps(program: &Program, temps: usize, icb: &[u32], group: [u32; 3]) -> Constants {
    let x = Elements::of(program, temps);
    let fixed = Fixed::of(program, temps + x.rows());
    let cx = Cx {
        icb,
        group,
        fixed: &fixed,
        x: &x,
    };
    // A first walk decides the `if`s on values it knows; when one of them is not on a
    // literal, a second walk knows the branches they never enter write nothing in the loops
    // around them (`region_writes` decides only `if`s on literals on its own).
    let (at, decided) = walk::walk(program, temps, cx, &BTreeMap::new());
    let at = if decided
        .keys()
        .any(|i| taken(&program.instructions[*i], cx, &[]).is_none())
    {
        walk::walk(program, temps, cx, &decided).0
    } else {
        at
    };
    Constants { at, fixed, x }
}

/// Per instruction, the rows it reads that the pass knows something of.
type Reads = Vec<Vec<(u32, [Known; 4])>>;
