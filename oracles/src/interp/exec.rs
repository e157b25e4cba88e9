//! Executing instructions over a batch: the flow instructions move the lane masks, everything
//! else computes per component over all lanes and writes the active ones. Each ALU opcode maps to
//! one rule function in `crate::rules`, which states the D3D semantics.

use dxbc::opcodes::Flags;
use dxbc::{Instruction, Opcode};

use super::InterpError;
use super::flow::{Frame, leave};
use super::machine::{Consumer, Machine, Pool, Slot, apply_modifier, write_mask};
use super::mask::Mask;
use crate::domain::{Domain, Events};
use crate::rules::{convert as cv, double as dbl, float as fl, int, transcendental as tr};

/// Back-edges after which a lane is in the `long-loop` domain: llvmpipe ends a loop after
/// 65,535 iterations (measured; docs/harness.md).
const LONG_LOOP_TRIPS: u32 = 65_535;

impl Machine<'_> {
    /// Run from the first instruction until every lane has returned or the program ends.
    pub fn run(&mut self, budget: u64) -> Result<(), InterpError> {
        let n = self.program.instructions.len();
        let mut pc = 0;
        loop {
            if pc >= n {
                // A body that runs to the end of the program returns there.
                match self.end_body() {
                    Some(back) => pc = back,
                    None => break,
                }
                continue;
            }
            self.executed += 1;
            if self.executed > budget {
                return Err(InterpError::BudgetExceeded {
                    executed: self.executed - 1,
                });
            }
            pc = self.step(pc)?;
            if !self.alive.any() && !self.in_call() {
                break;
            }
        }
        Ok(())
    }

    /// Whether a subroutine body is running.
    fn in_call(&self) -> bool {
        self.frames.iter().any(|f| matches!(f, Frame::Call { .. }))
    }

    /// Start a call: run the first body of `bodies` (label index, lanes) and keep the rest.
    /// With no lanes to run, the call does nothing.
    fn enter_call(&mut self, bodies: Vec<(usize, Mask)>, back: usize) -> usize {
        let mut bodies: Vec<(usize, Mask)> = bodies.into_iter().filter(|(_, m)| m.any()).collect();
        if bodies.is_empty() {
            return back;
        }
        // Run in label order, the last one popped first.
        bodies.sort_by_key(|b| std::cmp::Reverse(b.0));
        let Some((label, lanes)) = bodies.pop() else {
            return back;
        };
        self.frames.push(Frame::Call {
            entry: self.active.clone(),
            alive: self.alive.clone(),
            back,
            pending: bodies,
        });
        self.active = lanes;
        label + 1
    }

    /// A body ended (control reached the next `label` or the end of the program): run the
    /// call's next body, or go back to the caller. `None` when no call is open: the main
    /// program has ended.
    fn end_body(&mut self) -> Option<usize> {
        let at = self
            .frames
            .iter()
            .rposition(|f| matches!(f, Frame::Call { .. }))?;
        // A body leaves no construct open (the validator sees to it); drop any it did.
        self.frames.truncate(at + 1);
        let Some(Frame::Call {
            entry,
            alive,
            back,
            mut pending,
        }) = self.frames.pop()
        else {
            return None;
        };
        self.alive = alive.and_not(&self.discarded);
        if let Some((label, lanes)) = pending.pop() {
            self.frames.push(Frame::Call {
                entry,
                alive: self.alive.clone(),
                back,
                pending,
            });
            self.active = lanes.and(&self.alive);
            return Some(label + 1);
        }
        self.active = entry.and(&self.alive);
        Some(back)
    }

    fn step(&mut self, pc: usize) -> Result<usize, InterpError> {
        let program = self.program;
        let inst = &program.instructions[pc];
        let next = pc + 1;
        self.taint_condition(inst);
        // A flow instruction's operand reads raise events for the lanes active before it
        // changes the mask; commit them for those lanes, not for the next instruction's.
        let before = (inst.info().kind == dxbc::opcodes::Kind::Flow).then(|| self.active.clone());
        if inst.opcode == Opcode::Switch {
            self.nan_bits_read(inst);
        }
        if let Some(n) = self.flow(inst, pc)? {
            if let Some(lanes) = before {
                for l in lanes.lanes() {
                    self.events[l] |= self.scratch_ev[l];
                }
            }
            self.scratch_ev.fill(0);
            return Ok(n);
        }
        if inst.info().is_declaration() || inst.opcode == Opcode::Customdata {
            return Ok(next);
        }
        if !self.active.any() {
            return Ok(next);
        }
        self.literal_zero_folding(inst, pc);
        self.taint_scaled(inst, pc);
        if inst.opcode == Opcode::Add {
            self.contraction_check(inst, pc);
        }
        let carried = self.nan_before(inst, pc);
        let signs = self.zero_sign_before(inst, pc);
        self.nan_bits_read(inst);
        self.nan_check = 0xf;
        self.execute(inst, pc)?;
        self.nan_after(inst, carried);
        self.zero_sign_after(inst, signs);
        self.taint_after(inst, pc);
        self.commit_events();
        Ok(next)
    }

    /// Flow instructions; `None` for everything else.
    fn flow(&mut self, inst: &Instruction, pc: usize) -> Result<Option<usize>, InterpError> {
        let next = pc + 1;
        let lanes = self.lanes;
        Ok(Some(match inst.opcode {
            Opcode::If => {
                let cond = self.condition(inst, pc)?;
                self.frames.push(Frame::If {
                    entry: self.active.clone(),
                    cond: cond.clone(),
                });
                self.active = cond;
                let (else_at, endif) = self.structure.if_targets[pc];
                if self.active.any() {
                    next
                } else {
                    else_at.unwrap_or(endif)
                }
            }
            Opcode::Else => {
                let Some(Frame::If { entry, cond }) = self.frames.last() else {
                    return Err(InterpError::Malformed {
                        index: pc,
                        what: "else without if".into(),
                    });
                };
                self.active = entry.and_not(cond).and(&self.alive);
                if self.active.any() {
                    next
                } else {
                    self.structure.if_targets[pc].1
                }
            }
            Opcode::Endif => {
                let Some(Frame::If { entry, .. }) = self.frames.pop() else {
                    return Err(InterpError::Malformed {
                        index: pc,
                        what: "endif without if".into(),
                    });
                };
                self.active = entry.and(&self.alive);
                next
            }
            Opcode::Loop => {
                self.frames.push(Frame::Loop {
                    outer: self.active.clone(),
                    running: self.active.clone(),
                    start: pc,
                    trips: 0,
                });
                next
            }
            Opcode::Endloop => {
                let Some(Frame::Loop {
                    outer,
                    running,
                    start,
                    trips,
                }) = self.frames.last_mut()
                else {
                    return Err(InterpError::Malformed {
                        index: pc,
                        what: "endloop without loop".into(),
                    });
                };
                let again = running.and(&self.alive);
                if again.any() {
                    *trips = trips.saturating_add(1);
                    let start = *start;
                    if *trips >= LONG_LOOP_TRIPS {
                        for l in again.lanes() {
                            self.events[l] |= Domain::LongLoop.bit();
                        }
                    }
                    self.active = again;
                    start + 1
                } else {
                    self.active = outer.and(&self.alive);
                    self.frames.pop();
                    next
                }
            }
            Opcode::Break | Opcode::Breakc | Opcode::Continue | Opcode::Continuec => {
                let lanes_out = match inst.opcode {
                    Opcode::Break | Opcode::Continue => self.active.clone(),
                    _ => self.condition(inst, pc)?,
                };
                let is_continue = matches!(inst.opcode, Opcode::Continue | Opcode::Continuec);
                leave(&mut self.frames, &lanes_out, is_continue);
                self.active = self.active.and_not(&lanes_out);
                next
            }
            Opcode::Switch => {
                let op = inst.operands.first().ok_or(InterpError::Malformed {
                    index: pc,
                    what: "switch without a selector".into(),
                })?;
                let mut selector = vec![0u32; lanes];
                self.read(op, 0, Consumer::Int, pc, &mut selector)?;
                self.frames.push(Frame::Switch {
                    outer: self.active.clone(),
                    matched: Mask::none(lanes),
                    broken: Mask::none(lanes),
                    selector,
                    start: pc,
                });
                self.active = Mask::none(lanes);
                next
            }
            Opcode::Case | Opcode::Default => {
                let value = inst.operands.first().and_then(|o| o.imm.first().copied());
                let Some(Frame::Switch {
                    outer,
                    matched,
                    broken,
                    selector,
                    start,
                }) = self.frames.last_mut()
                else {
                    return Err(InterpError::Malformed {
                        index: pc,
                        what: "case outside switch".into(),
                    });
                };
                let cases = &self.structure.switch_cases[*start];
                let newly = Mask::from_fn(lanes, |l| match value {
                    Some(v) => selector[l] == v,
                    None => !cases.contains(&selector[l]),
                })
                .and(outer)
                .and_not(broken);
                *matched = matched.or(&newly);
                self.active = matched.and_not(broken).and(&self.alive);
                next
            }
            Opcode::Endswitch => {
                let Some(Frame::Switch { outer, .. }) = self.frames.pop() else {
                    return Err(InterpError::Malformed {
                        index: pc,
                        what: "endswitch without switch".into(),
                    });
                };
                self.active = outer.and(&self.alive);
                next
            }
            Opcode::Call | Opcode::Callc => {
                let lanes_in = if inst.opcode == Opcode::Call {
                    self.active.clone()
                } else {
                    self.condition(inst, pc)?
                };
                let label = self.structure.linkage.label_of_call(inst).ok_or_else(|| {
                    InterpError::Malformed {
                        index: pc,
                        what: "a call of a label the program does not have".into(),
                    }
                })?;
                self.enter_call(vec![(label, lanes_in)], next)
            }
            Opcode::Fcall => {
                let bodies = self.fcall_bodies(inst, pc)?;
                self.enter_call(bodies, next)
            }
            // Reached in sequence, a label ends the body before it: the call returns, or the
            // main program ends.
            Opcode::Label => match self.end_body() {
                Some(back) => back,
                None => {
                    self.alive = Mask::none(lanes);
                    self.active = Mask::none(lanes);
                    next
                }
            },
            Opcode::Ret | Opcode::Retc => {
                let leaving = if inst.opcode == Opcode::Ret {
                    self.active.clone()
                } else {
                    self.condition(inst, pc)?
                };
                self.alive = self.alive.and_not(&leaving);
                self.active = self.active.and_not(&leaving);
                next
            }
            Opcode::Discard => {
                let leaving = self.condition(inst, pc)?;
                self.discarded = self.discarded.or(&leaving);
                self.alive = self.alive.and_not(&leaving);
                self.active = self.active.and_not(&leaving);
                next
            }
            // All lanes of a group run in lockstep, so a barrier is already satisfied; it only
            // ends a race-tracking epoch.
            Opcode::Sync => {
                self.races.barrier(inst.sync_flags().unwrap_or(0));
                next
            }
            Opcode::Nop => next,
            _ => return Ok(None),
        }))
    }

    /// Resolve the source components the destination mask needs, before anything is written
    /// (so a destination that is also a source reads its old value). A plain `r#`/`v#` source
    /// is read in place; anything else is copied, with its modifier applied, into `pool.src`.
    fn gather_into(
        &mut self,
        pool: &mut Pool,
        inst: &Instruction,
        first_src: usize,
        mask: u8,
        at: usize,
        modifiers: bool,
    ) -> Result<(), InterpError> {
        let info = inst.info();
        let srcs = &inst.operands[first_src..];
        if srcs.len() > pool.src.len() {
            return Err(InterpError::Unsupported {
                index: at,
                what: "more than four sources".into(),
            });
        }
        for (k, src) in srcs.iter().enumerate() {
            let consumer = Consumer::of(info.num(first_src + k));
            for c in 0..4 {
                pool.slots[k][c] = Slot::Pool;
                if mask & (1 << c) == 0 {
                    continue;
                }
                if let Some(slot) = self.in_place(src, c, modifiers) {
                    pool.slots[k][c] = slot;
                    continue;
                }
                let buf = &mut pool.src[k][c];
                if modifiers {
                    self.read(src, c, consumer, at, buf)?;
                } else {
                    self.read_raw(src, super::machine::source_component(src, c), at, buf)?;
                }
            }
        }
        Ok(())
    }

    /// Where a source component already sits, if it can be read without a copy.
    fn in_place(&self, src: &dxbc::Operand, c: usize, modifiers: bool) -> Option<Slot> {
        if modifiers && src.modifier != dxbc::Modifier::None || src.indices.len() != 1 {
            return None;
        }
        let dxbc::Index::Imm32(r) = src.indices[0] else {
            return None;
        };
        let comp = super::machine::source_component(src, c);
        let offset = (r as usize * 4 + comp) * self.lanes;
        match src.ty {
            dxbc::OperandType::Temp if offset + self.lanes <= self.temps.data.len() => {
                Some(Slot::Temps(offset))
            }
            dxbc::OperandType::Input if offset + self.lanes <= self.inputs.data.len() => {
                Some(Slot::Inputs(offset))
            }
            _ => None,
        }
    }

    /// Run `body` with the scratch pool taken out of the machine, putting it back afterwards.
    fn with_pool<T>(&mut self, body: impl FnOnce(&mut Self, &mut Pool) -> T) -> T {
        let mut pool = self.take_pool();
        let r = body(self, &mut pool);
        self.pool = Some(pool);
        r
    }

    /// The pool, lent out; a fresh one where an earlier body panicked with it.
    fn take_pool(&mut self) -> Pool {
        self.pool.take().unwrap_or_else(|| Pool::new(self.lanes))
    }

    /// An N-source, one-destination ALU op over the destination mask. `f` is the rule
    /// function; it is monomorphised into the lane loop.
    fn alu<const N: usize>(
        &mut self,
        inst: &Instruction,
        at: usize,
        f: impl Fn([u32; N], &mut Events) -> u32,
    ) -> Result<(), InterpError> {
        self.alu_fast(inst, at, f, None::<fn([u32; N]) -> (u32, bool)>)
    }

    /// [`Self::alu`] with a batch-wide fast path for float ops: `fast` computes the host IEEE
    /// result (and whether its intermediates stayed normal). When every input, intermediate
    /// and result of a component is normal (`fl::is_normal`), D3D's rule and the host operation
    /// agree bit for bit and raise no event, so the rule function runs only for batches that
    /// contain an edge value.
    fn alu_fast<const N: usize>(
        &mut self,
        inst: &Instruction,
        at: usize,
        f: impl Fn([u32; N], &mut Events) -> u32,
        fast: Option<impl Fn([u32; N]) -> (u32, bool)>,
    ) -> Result<(), InterpError> {
        let dst = &inst.operands[0];
        let mask = write_mask(dst);
        let lanes = self.lanes;
        self.with_pool(|m, pool| {
            m.gather_into(pool, inst, 1, mask, at, true)?;
            for c in 0..4 {
                if mask & (1 << c) == 0 {
                    continue;
                }
                let files = (&m.temps.data[..], &m.inputs.data[..]);
                let src: [&[u32]; N] = Pool::sources(&pool.slots, &pool.src, files, c, lanes);
                let out = &mut pool.out[0][c][..lanes];
                let mut done = false;
                if let Some(fast) = &fast {
                    let mut ok = true;
                    for l in 0..lanes {
                        let a: [u32; N] = std::array::from_fn(|k| src[k][l]);
                        let (r, mid) = fast(a);
                        out[l] = r;
                        ok &= a.iter().fold(mid, |acc, &x| acc & fl::is_normal(x)) & fast_result(r);
                    }
                    done = ok;
                    if ok {
                        m.nan_check &= !(1 << c);
                    }
                }
                if !done {
                    let ev = &mut m.scratch_ev[..lanes];
                    for l in 0..lanes {
                        out[l] = f(std::array::from_fn(|k| src[k][l]), &mut ev[l]);
                    }
                }
                if inst.saturate {
                    let ev = &mut m.scratch_ev[..lanes];
                    for (v, e) in out.iter_mut().zip(ev.iter_mut()) {
                        *v = fl::saturate_ev(*v, e);
                    }
                }
            }
            for c in 0..4 {
                if mask & (1 << c) != 0 {
                    m.write(dst, c, &pool.out[0][c], at)?;
                }
            }
            Ok(())
        })
    }

    /// Two destinations (`udiv`, `imul`, `sincos`, `swapc`...); `f` gives both results.
    fn alu_pair<const N: usize>(
        &mut self,
        inst: &Instruction,
        at: usize,
        f: impl Fn([u32; N], &mut Events) -> (u32, u32),
    ) -> Result<(), InterpError> {
        let (d0, d1) = (&inst.operands[0], &inst.operands[1]);
        let (m0, m1) = (write_mask(d0), write_mask(d1));
        let mask = m0 | m1;
        let lanes = self.lanes;
        self.with_pool(|m, pool| {
            m.gather_into(pool, inst, 2, mask, at, true)?;
            for c in 0..4 {
                if mask & (1 << c) == 0 {
                    continue;
                }
                let files = (&m.temps.data[..], &m.inputs.data[..]);
                let src: [&[u32]; N] = Pool::sources(&pool.slots, &pool.src, files, c, lanes);
                let [o0, o1] = &mut pool.out;
                let (o0, o1) = (&mut o0[c][..lanes], &mut o1[c][..lanes]);
                for l in 0..lanes {
                    let ev = &mut m.scratch_ev[l];
                    let (x, y) = f(std::array::from_fn(|k| src[k][l]), ev);
                    (o0[l], o1[l]) = if inst.saturate {
                        (fl::saturate_ev(x, ev), fl::saturate_ev(y, ev))
                    } else {
                        (x, y)
                    };
                }
            }
            for c in 0..4 {
                if m0 & (1 << c) != 0 {
                    m.write(d0, c, &pool.out[0][c], at)?;
                }
                if m1 & (1 << c) != 0 {
                    m.write(d1, c, &pool.out[1][c], at)?;
                }
            }
            Ok(())
        })
    }

    /// `dp2`/`dp3`/`dp4`: a scalar over the first `n` source components, broadcast to the mask.
    fn dot(&mut self, inst: &Instruction, at: usize, n: usize) -> Result<(), InterpError> {
        let dst = &inst.operands[0];
        let mask = write_mask(dst);
        let lanes = self.lanes;
        let comps = (1u8 << n) - 1;
        self.with_pool(|m, pool| {
            m.gather_into(pool, inst, 1, comps, at, true)?;
            pool.materialize(&m.temps.data, &m.inputs.data, 2, lanes);
            let [a, b, ..] = &pool.src;
            let out = &mut pool.out[0][0][..lanes];
            for l in 0..lanes {
                let ev = &mut m.scratch_ev[l];
                let mut v = match n {
                    2 => fl::dp2([a[0][l], a[1][l]], [b[0][l], b[1][l]], ev),
                    3 => fl::dp3([a[0][l], a[1][l], a[2][l]], [b[0][l], b[1][l], b[2][l]], ev),
                    _ => fl::dp4(
                        [a[0][l], a[1][l], a[2][l], a[3][l]],
                        [b[0][l], b[1][l], b[2][l], b[3][l]],
                        ev,
                    ),
                };
                if inst.saturate {
                    v = fl::saturate_ev(v, ev);
                }
                out[l] = v;
            }
            for c in 0..4 {
                if mask & (1 << c) != 0 {
                    m.write(dst, c, &pool.out[0][0], at)?;
                }
            }
            Ok(())
        })
    }

    fn execute(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        use Opcode::*;
        match inst.opcode {
            Add => self.alu_fast(
                inst,
                at,
                |[a, b], ev| fl::fadd(a, b, ev),
                Some(|[a, b]: [u32; 2]| {
                    let f = f32::from_bits;
                    (host(a, b, |x, y| x + y), !fl::cancels(f(a), f(b)))
                }),
            ),
            Mul => self.alu_fast(
                inst,
                at,
                |[a, b], ev| fl::fmul(a, b, ev),
                Some(|[a, b]: [u32; 2]| (host(a, b, |x, y| x * y), true)),
            ),
            Div => self.alu(inst, at, |[a, b], ev| fl::fdiv(a, b, ev)),
            Min => self.alu_fast(
                inst,
                at,
                |[a, b], ev| fl::fmin(a, b, ev),
                Some(|[a, b]: [u32; 2]| (host(a, b, f32::min), true)),
            ),
            Max => self.alu_fast(
                inst,
                at,
                |[a, b], ev| fl::fmax(a, b, ev),
                Some(|[a, b]: [u32; 2]| (host(a, b, f32::max), true)),
            ),
            Mad => self.alu_fast(
                inst,
                at,
                |[a, b, c], ev| fl::fmad(a, b, c, ev),
                Some(|[a, b, c]: [u32; 3]| {
                    let p = host(a, b, |x, y| x * y);
                    let r = host(p, c, |x, y| x + y);
                    // A lane where fusing changes the result takes the rules, which say so.
                    let f = |w: u32| f64::from(f32::from_bits(w));
                    let fused = (f(a) * f(b) + f(c)) as f32;
                    let cancel = fl::cancels(f32::from_bits(p), f32::from_bits(c));
                    (r, fast_result(p) && fused.to_bits() == r && !cancel)
                }),
            ),
            Frc => self.alu(inst, at, |[a], ev| fl::frc(a, ev)),
            RoundNe => self.alu(inst, at, |[a], ev| fl::round_ne(a, ev)),
            RoundNi => self.alu(inst, at, |[a], ev| fl::round_ni(a, ev)),
            RoundPi => self.alu(inst, at, |[a], ev| fl::round_pi(a, ev)),
            RoundZ => self.alu(inst, at, |[a], ev| fl::round_z(a, ev)),
            Eq => self.alu(inst, at, |[a, b], ev| fl::feq(a, b, ev)),
            Ne => self.alu(inst, at, |[a, b], ev| fl::fne(a, b, ev)),
            Lt => self.alu(inst, at, |[a, b], ev| fl::flt(a, b, ev)),
            Ge => self.alu(inst, at, |[a, b], ev| fl::fge(a, b, ev)),
            Dp2 => self.dot(inst, at, 2),
            Dp3 => self.dot(inst, at, 3),
            Dp4 => self.dot(inst, at, 4),
            Exp => self.alu(inst, at, |[a], ev| tr::exp2(a, ev)),
            Log => self.alu(inst, at, |[a], ev| tr::log2(a, ev)),
            Rsq => self.alu(inst, at, |[a], ev| tr::rsq(a, ev)),
            Sqrt => self.alu(inst, at, |[a], ev| tr::sqrt(a, ev)),
            Rcp => self.alu(inst, at, |[a], ev| tr::rcp(a, ev)),
            Sincos => self.alu_pair(inst, at, |[a], ev| (tr::sin(a, ev), tr::cos(a, ev))),
            Mov => {
                // A move copies bits; a modifier or `_sat` makes it a float op (FS §22.9.1).
                let float = inst.saturate || inst.operands[1].modifier != dxbc::Modifier::None;
                if float {
                    self.alu(inst, at, |[a], ev| fl::fadd(a, 0x8000_0000, ev))
                } else {
                    self.alu(inst, at, |[a], _| a)
                }
            }
            Movc => self.alu(inst, at, |[c, a, b], _| if c != 0 { a } else { b }),
            Swapc => self.alu_pair(
                inst,
                at,
                |[c, a, b], _| if c != 0 { (b, a) } else { (a, b) },
            ),
            Itof => self.alu(inst, at, |[a], ev| cv::itof(a, ev)),
            Utof => self.alu(inst, at, |[a], ev| cv::utof(a, ev)),
            Ftoi => self.alu(inst, at, |[a], ev| cv::ftoi(a, ev)),
            Ftou => self.alu(inst, at, |[a], ev| cv::ftou(a, ev)),
            F32tof16 => self.alu(inst, at, |[a], ev| cv::f32tof16(a, ev)),
            F16tof32 => self.alu(inst, at, |[a], ev| cv::f16tof32(a, ev)),
            Iadd => self.alu(inst, at, |[a, b], _| int::iadd(a, b)),
            Imad => self.alu(inst, at, |[a, b, c], _| int::imad(a, b, c)),
            Umad => self.alu(inst, at, |[a, b, c], _| int::umad(a, b, c)),
            Imul | Umul => {
                let high = if inst.opcode == Imul {
                    int::imul
                } else {
                    int::umul
                };
                self.alu_pair(inst, at, |[a, b], _| high(a, b))?;
                // Only here is it known whether the high word is used: WGSL has no 64-bit
                // product, so a translator must build it by hand.
                if write_mask(&inst.operands[0]) != 0 {
                    for l in self.active.lanes().collect::<Vec<_>>() {
                        crate::domain::raise(
                            &mut self.scratch_ev[l],
                            crate::domain::Domain::ImulHighWord,
                        );
                    }
                }
                Ok(())
            }
            Udiv => self.alu_pair(inst, at, |[a, b], ev| int::udiv(a, b, ev)),
            Uaddc => self.alu_pair(inst, at, |[a, b], _| int::uaddc(a, b)),
            Usubb => self.alu_pair(inst, at, |[a, b], _| int::usubb(a, b)),
            Imin => self.alu(inst, at, |[a, b], _| int::imin(a, b)),
            Imax => self.alu(inst, at, |[a, b], _| int::imax(a, b)),
            Umin => self.alu(inst, at, |[a, b], _| int::umin(a, b)),
            Umax => self.alu(inst, at, |[a, b], _| int::umax(a, b)),
            Ineg => self.alu(inst, at, |[a], _| int::ineg(a)),
            Ishl => self.alu(inst, at, |[a, b], ev| int::ishl(a, b, ev)),
            Ishr => self.alu(inst, at, |[a, b], ev| int::ishr(a, b, ev)),
            Ushr => self.alu(inst, at, |[a, b], ev| int::ushr(a, b, ev)),
            And => self.alu(inst, at, |[a, b], _| a & b),
            Or => self.alu(inst, at, |[a, b], _| a | b),
            Xor => self.alu(inst, at, |[a, b], _| a ^ b),
            Not => self.alu(inst, at, |[a], _| !a),
            Ieq => self.alu(inst, at, |[a, b], _| int::ieq(a, b)),
            Ine => self.alu(inst, at, |[a, b], _| int::ine(a, b)),
            Ilt => self.alu(inst, at, |[a, b], _| int::ilt(a, b)),
            Ige => self.alu(inst, at, |[a, b], _| int::ige(a, b)),
            Ult => self.alu(inst, at, |[a, b], _| int::ult(a, b)),
            Uge => self.alu(inst, at, |[a, b], _| int::uge(a, b)),
            Countbits => self.alu(inst, at, |[a], _| int::countbits(a)),
            FirstbitHi => self.alu(inst, at, |[a], _| int::firstbit_hi(a)),
            FirstbitLo => self.alu(inst, at, |[a], _| int::firstbit_lo(a)),
            FirstbitShi => self.alu(inst, at, |[a], _| int::firstbit_shi(a)),
            Bfrev => self.alu(inst, at, |[a], _| int::bfrev(a)),
            Ubfe => self.alu(inst, at, |[w, o, v], ev| int::ubfe(w, o, v, ev)),
            Ibfe => self.alu(inst, at, |[w, o, v], ev| int::ibfe(w, o, v, ev)),
            Bfi => self.alu(inst, at, |[w, o, i, b], ev| int::bfi(w, o, i, b, ev)),
            Msad => self.alu(inst, at, |[r, s, a], _| int::msad(r, s, a)),
            Dadd | Dmul | Dmin | Dmax | Ddiv | Dfma | Drcp | Dmov | Dmovc | Deq | Dge | Dlt
            | Dne | Dtof | Ftod | Dtoi | Dtou | Itod | Utod => self.double_op(inst, at),
            op if op.info().has(Flags::BUFFER) => self.memory_op(inst, at),
            op if op.info().has(Flags::DERIVATIVE) => self.derivative(inst, at),
            EvalSnapped | EvalSampleIndex | EvalCentroid => self.evaluate(inst, at),
            op if op.info().has(Flags::TYPED) => self.texture_op(inst, at),
            op => Err(InterpError::Unsupported {
                index: at,
                what: format!("instruction `{}`", op.mnemonic()),
            }),
        }
    }

    /// Double-precision ops: a destination `.xy`/`.zw` pair holds one double (low word first);
    /// sources select 32-bit components in pairs (FS §22.15).
    fn double_op(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        use Opcode::*;
        let dst = &inst.operands[0];
        let mask = write_mask(dst);
        // Modifiers act on the 64-bit value (its high word's sign bit), so sources are read raw.
        let mut pool = self.take_pool();
        let gathered = self.gather_into(&mut pool, inst, 1, 0xF, at, false);
        pool.materialize(&self.temps.data, &self.inputs.data, 4, self.lanes);
        let srcs = pool.src.clone();
        self.pool = Some(pool);
        gathered?;
        let mods: Vec<dxbc::Modifier> = inst.operands[1..].iter().map(|o| o.modifier).collect();
        let info = inst.info();
        let consumers: Vec<Consumer> = (1..inst.operands.len())
            .map(|k| Consumer::of(info.num(k)))
            .collect();
        let lanes = self.lanes;
        let dst_double = inst.writes_double();
        let mut results: [Vec<u32>; 4] = std::array::from_fn(|_| vec![0u32; lanes]);
        for slot in inst.double_slots() {
            // The double each source holds at the slot's words, and its 32-bit word.
            let src_d = |s: &[Vec<u32>; 4], l: usize| -> u64 {
                u64::from(s[slot.lo][l]) | u64::from(s[slot.hi][l]) << 32
            };
            let src_w = |s: &[Vec<u32>; 4], l: usize| -> u32 { s[slot.word.min(3)][l] };
            #[allow(clippy::needless_range_loop)] // `l` indexes sources, results and events alike
            for l in 0..lanes {
                let ev = &mut self.scratch_ev[l];
                let d = |i: usize| double_modifier(src_d(&srcs[i], l), mods[i]);
                // A 32-bit source takes its modifier as its own type reads it: `ftod` of `-x` is
                // a float negate, `itod` of `-i` two's complement (this used to be lost).
                let w = |i: usize| apply_modifier(src_w(&srcs[i], l), mods[i], consumers[i]);
                let r: u64 = match inst.opcode {
                    Dadd => dbl::dadd(d(0), d(1), ev),
                    Dmul => dbl::dmul(d(0), d(1), ev),
                    Dmin => dbl::dmin(d(0), d(1), ev),
                    Dmax => dbl::dmax(d(0), d(1), ev),
                    Ddiv => dbl::ddiv(d(0), d(1), ev),
                    Dfma => dbl::dfma(d(0), d(1), d(2), ev),
                    Drcp => dbl::drcp(d(0), ev),
                    Dmov => d(0),
                    Dmovc => {
                        if w(0) != 0 {
                            d(1)
                        } else {
                            d(2)
                        }
                    }
                    Deq => u64::from(dbl::deq(d(0), d(1), ev)),
                    Dge => u64::from(dbl::dge(d(0), d(1), ev)),
                    Dlt => u64::from(dbl::dlt(d(0), d(1), ev)),
                    Dne => u64::from(dbl::dne(d(0), d(1), ev)),
                    Dtof => u64::from(dbl::dtof(d(0), ev)),
                    Dtoi => u64::from(dbl::dtoi(d(0), ev)),
                    Dtou => u64::from(dbl::dtou(d(0), ev)),
                    Ftod => dbl::ftod(w(0), ev),
                    Itod => dbl::itod(w(0), ev),
                    Utod => dbl::utod(w(0), ev),
                    _ => 0,
                };
                let r = if inst.saturate && dst_double {
                    dbl::dsaturate(r)
                } else {
                    r
                };
                if let [lo, hi] = slot.dst[..] {
                    results[lo][l] = r as u32;
                    results[hi][l] = (r >> 32) as u32;
                } else {
                    results[slot.dst[0]][l] = r as u32;
                }
            }
        }
        for (c, r) in results.iter().enumerate() {
            if mask & (1 << c) != 0 {
                self.write(dst, c, r, at)?;
            }
        }
        Ok(())
    }
}

/// A result the fast path may keep: normal and above the smallest normal exponent, so that no
/// rule (flush, or tininess before rounding at ±2^-126) could have raised an event.
#[inline]
fn fast_result(r: u32) -> bool {
    ((r >> 23) & 0xFF).wrapping_sub(2) < 253
}

/// A host f32 operation on register bits.
#[inline]
fn host(a: u32, b: u32, op: impl Fn(f32, f32) -> f32) -> u32 {
    op(f32::from_bits(a), f32::from_bits(b)).to_bits()
}

/// A source modifier on a double: the sign bit of the 64-bit value.
fn double_modifier(v: u64, m: dxbc::Modifier) -> u64 {
    match m {
        dxbc::Modifier::None => v,
        dxbc::Modifier::Neg => dbl::dneg_modifier(v),
        dxbc::Modifier::Abs => dbl::dabs_modifier(v),
        dxbc::Modifier::AbsNeg => dbl::dneg_modifier(dbl::dabs_modifier(v)),
    }
}
