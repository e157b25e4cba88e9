//! The walk itself: the program once, in order, as a compiler's constant propagation sees
//! structured control flow (the rules are in the parent module's documentation).

use std::collections::BTreeMap;

use dxbc::{Opcode, Operand, Program};

use super::numbers::{NONE, Numbers};
use super::regions::{Entries, Write, forget, once_loops, region_writes, switch_entries};
use super::{
    Alias, Cx, Fixed, Known, Reads, State, absorbed, dests, evaluate, foldable, icb_index,
    indexable, meet, of_itself, small_result, source, taken, temp_index,
};

/// One open construct while the pass walks the program.
enum Frame {
    /// An `if`: whether its `else` branch (or, with none, the way past it) is reached, the
    /// state each branch starts from, and the state at the end of the first branch (and
    /// whether that end is reached) once an `else` is seen.
    If {
        live: bool,
        else_entry: State,
        then_end: Option<(State, bool)>,
    },
    /// A `loop`: how it writes each component, the state at its entry, and whether it is
    /// reached.
    Loop(Vec<[Write; 4]>, State, bool),
    /// A `loop` that runs at most once ([`once_loops`]): the meet of the states at its
    /// `break`s.
    Once { exits: Option<State> },
    /// A `switch`: the state at its entry, the meet of the states at its `break`s, whether it
    /// has a `default`, whether it is reached, and which of its entries the switch jumps to.
    Switch {
        entry: State,
        exits: Option<State>,
        default: bool,
        live: bool,
        jumps: Jumps,
    },
}

/// Where a `switch` jumps: `None` when the pass does not know (any entry may be taken), else
/// the instruction it jumps to (`Some(None)`: the end).
#[derive(Debug, Clone, Copy)]
struct Jumps(Option<Option<usize>>);

impl Jumps {
    fn of(inst: &dxbc::Instruction, entries: Option<&Entries>, cx: Cx<'_>, state: &State) -> Jumps {
        let selector = inst
            .operands
            .first()
            .and_then(|op| source(op, 0, cx, state).value());
        Jumps(selector.and_then(|s| entries?.target(s)))
    }

    /// Whether the switch may jump to the entry at instruction `at` (`None`: the end).
    fn to(self, at: Option<usize>) -> bool {
        self.0.is_none_or(|t| t == at)
    }
}

/// The state after joining a path into another, where either may be unreachable.
fn join(state: &mut State, live: &mut bool, other: &State, other_live: bool) {
    match (*live, other_live) {
        (true, true) => meet(state, other),
        (false, true) => state.clone_from(other),
        _ => {}
    }
    *live |= other_live;
}

/// Whether an op reads every source as a float, flushing a denormal to zero (D3D's float
/// arithmetic, comparisons and conversions from float; not moves, which copy bits, nor
/// derivatives, which read other lanes).
fn flushes_sources(inst: &dxbc::Instruction) -> bool {
    let info = inst.info();
    foldable(inst)
        && !info.has(dxbc::opcodes::Flags::MOVE)
        && !info.has(dxbc::opcodes::Flags::DERIVATIVE)
        && (0..usize::from(info.src))
            .all(|k| info.num(usize::from(info.dst) + k) == dxbc::opcodes::Num::Float)
}

/// In a branch taken only when `test` (a single component) is 0: it is the constant 0 there,
/// and so is every temp that holds a plain copy of it, or the same value by number (the other
/// components a `dp4` wrote: the H100 folded `if_nz r3.z` … `else` … `dp4 r0.y, v1, r3.yywx`
/// with `r3.xzw` one `dp4`'s result and a NaN in `v1.z`).
fn assume_zero(state: &mut State, test: &Operand, fixed: &Fixed) {
    if test.modifier != dxbc::Modifier::None {
        return;
    }
    let c = test.source_component(0);
    let number = temp_index(test)
        .and_then(|r| state.get(r))
        .and_then(|reg| reg[c].number());
    if let Some(n) = number {
        for k in state.iter_mut().flatten() {
            if k.number() == Some(n) {
                *k = Known::Value(0);
            }
        }
    }
    let alias = match temp_index(test).and_then(|r| state.get_mut(r)) {
        Some(reg) => match std::mem::replace(&mut reg[c], Known::Value(0)) {
            Known::Copy(a) => Some(a),
            _ => None,
        },
        None => Alias::of(test, 0),
    };
    if let Some(a) = alias {
        for k in state.iter_mut().flatten() {
            if *k == Known::Copy(a) {
                *k = Known::Value(0);
            }
        }
        if let Some(row) = fixed.row(a).and_then(|r| state.get_mut(r)) {
            row[usize::from(a.comp)] = Known::Value(0);
        }
    }
}

/// After a conditional exit taken when its component is not zero (`breakc_nz`, `retc_nz`,
/// `continuec_nz`, `discard_nz`), the path that goes on knows it is 0, as after `if_nz`'s
/// `else` (the H200 folded `mov r1, v1; discard_nz v1.x; mul r0.w, v0, r1.x` to +0 with −1 in
/// `v0.w`).
fn go_on_knowing_zero(inst: &dxbc::Instruction, state: &mut State, fixed: &Fixed) {
    if inst.test == Some(dxbc::Test::NonZero)
        && let Some(test) = inst.operands.first()
    {
        assume_zero(state, test, fixed);
    }
}

/// What each instruction reads, with `decided` (`if`s known to go one way) applied to the
/// writes of loops and switches; and the `if`s this walk decided where it reached them.
pub(super) fn walk(
    program: &Program,
    temps: usize,
    cx: Cx<'_>,
    decided: &BTreeMap<usize, bool>,
) -> (Reads, BTreeMap<usize, bool>) {
    let (x, fixed, icb) = (cx.x, cx.fixed, cx.icb);
    let regions = region_writes(program, temps + x.rows(), cx, decided);
    let entries = switch_entries(program, icb);
    let mut found = BTreeMap::new();
    let mut numbers = Numbers::default();
    let once = once_loops(program, cx);
    let mut state: State = vec![[Known::Unknown; 4]; temps + x.rows() + fixed.registers.len()];
    // Whether the current point is reached by falling through from the instruction before.
    let mut live = true;
    let mut frames: Vec<Frame> = Vec::new();
    let mut at = Vec::with_capacity(program.instructions.len());
    for (i, inst) in program.instructions.iter().enumerate() {
        // What this instruction's temp sources hold, before its own writes.
        let (_, srcs) = inst.split_operands();
        let mut reads: Vec<(u32, [Known; 4])> = Vec::new();
        let index_temps = srcs.iter().filter_map(|s| icb_index(s).map(|(r, _)| r));
        let fixed_rows = srcs
            .iter()
            .filter_map(|s| fixed.row_of(s, 0).map(|(r, _)| r));
        let elements = srcs
            .iter()
            .filter_map(|s| x.row(s, |r| state.get(r).copied()));
        let forwarded = srcs
            .iter()
            .filter_map(|s| x.forward(s))
            .flat_map(|(v, i)| [v, i]);
        let element_indices = inst.operands.iter().filter_map(indexable::index_temp);
        for r in srcs
            .iter()
            .filter_map(temp_index)
            .chain(index_temps)
            .chain(fixed_rows)
            .chain(element_indices)
            .chain(elements)
            .chain(forwarded)
        {
            if let Some(v) = state.get(r)
                && v.iter().any(|k| *k != Known::Unknown)
                && !reads.iter().any(|(x, _)| *x as usize == r)
            {
                reads.push((r as u32, *v));
            }
        }
        at.push(reads);
        match inst.opcode {
            // An `if` on a value the pass knows enters one branch only (the H100 dropped
            // `if_z l(1.0)`'s branch, so a zero written before it reached a `mul`).
            Opcode::If => {
                let taken = taken(inst, cx, &state);
                if let (true, Some(t)) = (live, taken) {
                    found.insert(i, t);
                }
                let mut zero = state.clone();
                if let Some(test) = inst.operands.first() {
                    assume_zero(&mut zero, test, fixed);
                }
                let else_entry = if inst.test == Some(dxbc::Test::NonZero) {
                    zero
                } else {
                    std::mem::replace(&mut state, zero)
                };
                frames.push(Frame::If {
                    live: live && taken != Some(true),
                    else_entry,
                    then_end: None,
                });
                live &= taken != Some(false);
            }
            Opcode::Else => {
                if let Some(Frame::If {
                    live: at_if,
                    else_entry,
                    then_end,
                }) = frames.last_mut()
                {
                    *then_end = Some((std::mem::replace(&mut state, else_entry.clone()), live));
                    live = *at_if;
                }
            }
            Opcode::Endif => {
                if let Some(Frame::If {
                    live: at_if,
                    else_entry,
                    then_end,
                }) = frames.pop()
                {
                    let (other, other_live) = then_end.unwrap_or((else_entry, at_if));
                    join(&mut state, &mut live, &other, other_live);
                }
            }
            // Another iteration, or the code after the end, can be reached from anywhere
            // inside: what holds there is what holds at the entry (less what the loop may
            // change) met with the path that falls through.
            Opcode::Loop if once.contains(&i) => frames.push(Frame::Once { exits: None }),
            Opcode::Loop => {
                let w = regions.get(&i).cloned().unwrap_or_default();
                forget(&mut state, &w);
                frames.push(Frame::Loop(w, state.clone(), live));
            }
            Opcode::Endloop => match frames.pop() {
                Some(Frame::Loop(w, entry, at_loop)) => {
                    meet(&mut state, &entry);
                    forget(&mut state, &w);
                    live = at_loop;
                }
                // After a loop that runs once: where its breaks leave, if any is reached.
                Some(Frame::Once { exits }) => match exits {
                    Some(e) => {
                        state = e;
                        live = true;
                    }
                    None => live = false,
                },
                _ => {}
            },
            // The switch's entries are reached only when it is, and with a known selector only
            // the one it selects (the H100 folded the zero `case l(0)` writes into a `dp3`
            // after `switch` on `and l(0), l(3)`).
            // Nothing falls from the `switch` into its body: each `case` is entered from the
            // jump alone (with a known selector that picks no `case`, only the end is reached:
            // the H100 folded `mad` of a NaN by a temp that only such a `case` wrote).
            Opcode::Switch => {
                frames.push(Frame::Switch {
                    entry: state.clone(),
                    exits: None,
                    default: false,
                    live,
                    jumps: Jumps::of(inst, entries.get(&i), cx, &state),
                });
                live = false;
            }
            Opcode::Case | Opcode::Default => {
                if let Some(Frame::Switch {
                    entry,
                    default,
                    live: at_switch,
                    jumps,
                    ..
                }) = frames.last_mut()
                {
                    *default |= inst.opcode == Opcode::Default;
                    let jumped = *at_switch && jumps.to(Some(i));
                    join(&mut state, &mut live, entry, jumped);
                }
            }
            Opcode::Endswitch => {
                if let Some(Frame::Switch {
                    entry,
                    exits,
                    default,
                    live: at_switch,
                    jumps,
                }) = frames.pop()
                {
                    if !default {
                        join(&mut state, &mut live, &entry, at_switch && jumps.to(None));
                    }
                    if let Some(e) = exits {
                        join(&mut state, &mut live, &e, true);
                    }
                }
            }
            Opcode::Break | Opcode::Breakc => {
                let taken = taken(inst, cx, &state);
                let out = frames
                    .iter_mut()
                    .rev()
                    .find(|f| !matches!(f, Frame::If { .. }));
                if let Some(Frame::Switch { exits, .. } | Frame::Once { exits }) = out
                    && live
                    && taken != Some(false)
                {
                    match exits {
                        Some(e) => meet(e, &state),
                        None => *exits = Some(state.clone()),
                    }
                }
                live &= taken != Some(true);
                go_on_knowing_zero(inst, &mut state, fixed);
            }
            Opcode::Retc | Opcode::Continuec | Opcode::Discard => {
                live &= taken(inst, cx, &state) != Some(true);
                go_on_knowing_zero(inst, &mut state, fixed);
            }
            Opcode::Continue | Opcode::Ret => live = false,
            Opcode::Label | Opcode::Call | Opcode::Callc | Opcode::Fcall => {
                state.iter_mut().for_each(|r| *r = [Known::Unknown; 4]);
                live |= inst.opcode == Opcode::Label;
            }
            _ => {
                let before = state.clone();
                let (dsts, srcs) = inst.split_operands();
                // Every source component the destination component reads (over the swizzle)
                // is a constant, or a choice among constants (then so is the result). An op of
                // components reads the same component of each source; a dot product or a
                // double-precision op reads several, and all four are asked for.
                let per_component = !matches!(inst.opcode, Opcode::Dp2 | Opcode::Dp3 | Opcode::Dp4)
                    && inst.info().kind != dxbc::opcodes::Kind::Double;
                // Per destination component: whether every source component it reads is a
                // constant, whether one is a choice, and (for `movc`) whether both picks are
                // constants. Fixed arrays: the pass runs at every program load.
                let mut all_const = [foldable(inst); 4];
                // Every source a constant or a small integer, which a float op flushes to +0.
                let mut all_fixed = [flushes_sources(inst); 4];
                let mut any_choice = [false; 4];
                let mut picks_const = [inst.opcode == Opcode::Movc; 4];
                for c in 0..4 {
                    for (k, s) in srcs.iter().enumerate() {
                        let mut note = |x: Known| {
                            all_const[c] &= x.constant();
                            all_fixed[c] &= x.constant() || matches!(x, Known::Small(_));
                            any_choice[c] |= matches!(x, Known::Choice(_));
                            if k > 0 {
                                picks_const[c] &= x.constant();
                            }
                        };
                        if per_component {
                            note(source(s, c, cx, &before));
                        } else {
                            (0..4).for_each(|j| note(source(s, j, cx, &before)));
                        }
                    }
                }
                // A comparison's mask is 0 or 0xffffffff; `movc` picks one of two constants.
                let choice = |c: usize| {
                    foldable(inst)
                        && (inst.info().kind == dxbc::opcodes::Kind::Compare || picks_const[c])
                };
                let plain_mov = inst.opcode == Opcode::Mov && !inst.saturate;
                // A plain move of a temp carries the constant's name; anything else computes
                // a new one, named after this instruction.
                let copies_temp = plain_mov
                    && srcs.first().is_some_and(|s| {
                        temp_index(s).is_some() && s.modifier == dxbc::Modifier::None
                    });
                let value = |dst: usize, c: usize| {
                    let here = Known::Computed(((i as u32) << 2) | c as u32);
                    if all_const[c] && plain_mov {
                        match srcs.first().map(|s| source(s, c, cx, &before)) {
                            Some(Known::Computed(_)) if !copies_temp => here,
                            Some(k) => k,
                            None => Known::Unknown,
                        }
                    } else if all_const[c] && !any_choice[c] {
                        evaluate(inst, dst, c, cx, &before).map_or(here, Known::Value)
                    } else if all_const[c] {
                        Known::Choice(NONE)
                    } else if all_fixed[c] {
                        // A small integer is a denormal or +0 as a float, which the op flushes
                        // to +0 in every lane: the result is the one constant (a choice, if a
                        // source is). The H100 folded `usubb`'s borrow times 1.0 into a `mul`
                        // with −80 (+0 where D3D gives −0), and `max` of a thread id and −0
                        // into a `dp4` with a NaN.
                        if any_choice[c] {
                            Known::Choice(NONE)
                        } else {
                            here
                        }
                    } else if plain_mov
                        && let Some(Known::Copy(a)) =
                            srcs.first().map(|s| source(s, c, cx, &before))
                    {
                        Known::Copy(a)
                    } else if let Some(k) = absorbed(inst, c, cx, &before, here) {
                        k
                    } else if let Some(v) = of_itself(inst, c, cx, &before) {
                        Known::Value(v)
                    } else if choice(c) {
                        Known::Choice(NONE)
                    } else if small_result(inst, dst, c, cx, &before) {
                        Known::Small(NONE)
                    } else {
                        Known::Unknown
                    }
                };
                let components = |mask: u8| (0..4).filter(move |c| mask & (1 << c) != 0);
                let mut numbered = |dst: usize, c: usize| {
                    let v = value(dst, c);
                    match numbers.of_result(inst, dst, c, per_component, cx, &before) {
                        Some(n) => v.numbered(n),
                        None if !foldable(inst) && v == Known::Unknown => {
                            v.numbered(numbers.written(i, dst, c))
                        }
                        None => v,
                    }
                };
                for (dst, r, mask) in dests(inst) {
                    for c in components(mask) {
                        if let Some(slot) = state.get_mut(r) {
                            slot[c] = numbered(dst, c);
                        }
                    }
                }
                // An element of an indexable temp at a known index is written as a temp is
                // (and the last write at an unknown index may have been to it); at an index the
                // pass does not know, any element of the array may be, and the write is
                // remembered with its index's number.
                for (dst, d) in dsts.iter().enumerate() {
                    let (Some(rows), Some((fwd_value, fwd_index))) = (x.all(d), x.forward(d))
                    else {
                        continue;
                    };
                    let temp = |r: usize| before.get(r).copied();
                    let element = x.row(d, temp);
                    let index = x.index_number(d, temp);
                    for c in components(d.write_mask()) {
                        let v = numbered(dst, c);
                        let forgotten = if element.is_some() {
                            fwd_index..fwd_index + 1
                        } else {
                            rows.clone()
                        };
                        for e in state.get_mut(forgotten).into_iter().flatten() {
                            e[c] = Known::Unknown;
                        }
                        let mut put = |row: usize, k: Known| {
                            if let Some(e) = state.get_mut(row) {
                                e[c] = k;
                            }
                        };
                        match (element, index) {
                            (Some(row), _) => put(row, v),
                            (None, Some(n)) => {
                                put(fwd_value, v);
                                put(fwd_index, Known::Same(n));
                            }
                            (None, None) => {}
                        }
                    }
                }
            }
        }
    }
    (at, found)
}
