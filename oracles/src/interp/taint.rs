//! Where approximate results go. `exp`, `log`, `rsq`, `sqrt`, `rcp`, `div` and `sincos` are
//! judged within a band (D3D and WGSL both allow their error), and float arithmetic carries that
//! difference on continuously, where the program's band still applies. An integer, bit,
//! comparison, rounding or conversion op, a branch condition, an address, or a reciprocal,
//! logarithm or divisor (unbounded near 0) that reads such a value can turn a difference inside
//! the band into any difference at all (`rsq` one ULP off,
//! then `msad` over its bytes). The interpreter follows approximate values through registers,
//! indexable temps and memory, and raises `approximate-amplified` in a lane where one reaches
//! such an op; `dxdiff/builtin-accuracy` allows the lane's differences (found by `dxdiff fuzz`).
//!
//! Tracking is per lane and register component; indexable temps count per lane, and memory
//! (TGSM and UAVs) as a whole, which can only over-approximate.

use dxbc::opcodes::Flags;
use dxbc::{Instruction, Opcode, Operand, OperandType};

use super::machine::{Machine, source_component, write_mask};
use super::tracked::imm_index;
use crate::domain::Domain;

/// Ops whose result is within a band rather than exact.
pub fn approximate(op: Opcode) -> bool {
    op.info().has(Flags::APPROXIMATE)
}

/// Source `k` of `op` turns any difference into an unbounded one near 0: a reciprocal, a
/// reciprocal square root, a logarithm, a divisor. `sincos` near 0 is off by an absolute
/// amount (D3D 0.0008, WGSL 2^-11), so `rcp` of it can be off by any factor (the H200 on
/// `sincos r0.y, null, v0; rcp r0.y, r0.y` with 2^-14 in `v0.y`, dxdiff fuzz).
fn unbounded(op: Opcode, k: usize) -> bool {
    let info = op.info();
    info.has(Flags::POLE) && k + 1 == info.src as usize
}

/// Ops that carry a difference on continuously (the program's band covers what they do).
fn continuous(op: Opcode) -> bool {
    op.info().has(Flags::CONTINUOUS)
}

/// The components an instruction reads of each source for its result.
fn read_comps(op: Opcode, mask: u8) -> Vec<usize> {
    match op {
        Opcode::Dp2 => vec![0, 1],
        Opcode::Dp3 => vec![0, 1, 2],
        Opcode::Dp4 => vec![0, 1, 2, 3],
        _ if mask == 0 => vec![0, 1, 2, 3],
        _ => (0..4).filter(|c| mask & (1 << c) != 0).collect(),
    }
}

/// Ops whose result keeps an absolute error absolute (they do not scale their values).
fn keeps_absolute(op: Opcode) -> bool {
    op.info().has(Flags::KEEPS_ABSOLUTE)
}

/// Ops that compound a relative error each time they run on an approximate value: the
/// approximate ones, and the continuous ones that scale (`mul`, `mad`, `dp*`).
fn compounding(op: Opcode) -> bool {
    approximate(op) || (continuous(op) && !keeps_absolute(op))
}

impl Machine<'_> {
    /// Whether source `op` of lane `lane` carries an absolute error in component `c` (after
    /// its swizzle).
    fn abs_of(&self, op: &Operand, c: usize, lane: usize) -> bool {
        imm_index(op).is_some_and(|r| self.taint.abs(op.ty, r, source_component(op, c), lane))
    }

    /// Before an instruction runs: a value whose error is absolute (`sincos`: D3D 0.0008, WGSL
    /// 2^-11) multiplied by a factor above 1 in magnitude, or divided by one below, leaves the
    /// program's band, which adds absolute errors without scaling them (the H200 on `sincos`
    /// of 4e-4 times 2^31 in a `dp2`, dxdiff fuzz). The lane gets `approximate-amplified`.
    pub(super) fn taint_scaled(&mut self, inst: &Instruction, at: usize) {
        use Opcode::*;
        if !self.taint.on {
            return;
        }
        if matches!(inst.opcode, Add | Mad | Dp2 | Dp3 | Dp4) {
            self.taint_cancelled(inst, at);
        }
        // (scaled source, factor source, whether the factor divides)
        let pairs: &[(usize, usize, bool)] = match inst.opcode {
            Mul | Mad | Dp2 | Dp3 | Dp4 => &[(0, 1, false), (1, 0, false)],
            Div => &[(0, 1, true)],
            Sqrt => return self.taint_sqrt(inst, at),
            _ => return,
        };
        let (_, srcs) = inst.split_operands();
        let mask = inst.operands.first().map_or(0xf, write_mask);
        let lanes: Vec<usize> = self.active.lanes().collect();
        let mut vals = vec![0u32; self.lanes];
        for &(k, f, divides) in pairs {
            let (Some(scaled), Some(factor)) = (srcs.get(k), srcs.get(f)) else {
                continue;
            };
            for c in read_comps(inst.opcode, mask) {
                if !lanes.iter().any(|l| self.abs_of(scaled, c, *l)) {
                    continue;
                }
                if self
                    .read(factor, c, super::machine::Consumer::Float, at, &mut vals)
                    .is_err()
                {
                    return;
                }
                for &l in &lanes {
                    let m = f32::from_bits(vals[l]).abs();
                    let grows = if divides { m < 1.0 } else { m > 1.0 };
                    if grows && self.abs_of(scaled, c, l) {
                        self.events[l] |= Domain::ApproximateAmplified.bit();
                    }
                }
            }
        }
    }

    /// A sum that loses a leading bit or more (its magnitude below half its largest term's)
    /// where a term carries an approximate value: the term's error, inside its band relative
    /// to the term, grows by that factor relative to the sum, past the program's band. The
    /// H100's `rsq` of 0.5, one ULP off, then `add` of −1.5 gave a result 16 ULPs off (dxdiff
    /// fuzz, exact profile, 2026-12-07). Ten bits or more is `cancellation` whatever the
    /// terms; this is the case where the terms say the band cannot hold.
    fn taint_cancelled(&mut self, inst: &Instruction, at: usize) {
        use Opcode::*;
        let (dsts, srcs) = inst.split_operands();
        let Some(dst) = dsts.first() else {
            return;
        };
        let lanes: Vec<usize> = self.active.lanes().collect();
        let comps = read_comps(inst.opcode, write_mask(dst));
        let tainted: Vec<usize> = lanes
            .iter()
            .copied()
            .filter(|l| srcs.iter().any(|s| self.operand_taint(s, &comps, *l).0))
            .collect();
        if tainted.is_empty() {
            return;
        }
        // The terms of each result component: `a + b`, `a * b + c`, or a dot product's products.
        let results: Vec<Vec<usize>> = match inst.opcode {
            Dp2 | Dp3 | Dp4 => vec![comps.clone()],
            _ => comps.iter().map(|c| vec![*c]).collect(),
        };
        let mut vals = vec![vec![0u32; self.lanes]; srcs.len()];
        for terms in results {
            let mut largest = vec![0.0f64; self.lanes];
            let mut sum = vec![0.0f64; self.lanes];
            for c in terms {
                for (k, s) in srcs.iter().enumerate() {
                    if self
                        .read(s, c, super::machine::Consumer::Float, at, &mut vals[k])
                        .is_err()
                    {
                        return;
                    }
                }
                let v = |k: usize, l: usize| f64::from(f32::from_bits(vals[k][l]));
                for &l in &tainted {
                    let parts: &[f64] = match inst.opcode {
                        Add => &[v(0, l), v(1, l)],
                        Mad => &[v(0, l) * v(1, l), v(2, l)],
                        _ => &[v(0, l) * v(1, l)],
                    };
                    for p in parts {
                        largest[l] = largest[l].max(p.abs());
                        sum[l] += p;
                    }
                }
            }
            for &l in &tainted {
                if largest[l].is_finite() && sum[l].abs() * 2.0 < largest[l] {
                    self.events[l] |= Domain::ApproximateAmplified.bit();
                }
            }
        }
    }

    /// `sqrt` of a value whose error is absolute: √(x + e) − √x ≈ e / (2√x), which is more
    /// than e where x < 1/4, so the program's band (absolute errors added unscaled) no longer
    /// holds. The H100's `log` of 0x3f800002, 0.225 × 2^-21 off (inside the band) and then
    /// `sqrt`, came out 14.5 % off (`../shared/findings/h100-2026-12-07`, `log_sqrt`).
    fn taint_sqrt(&mut self, inst: &Instruction, at: usize) {
        let (dsts, srcs) = inst.split_operands();
        let (Some(src), Some(dst)) = (srcs.first(), dsts.first()) else {
            return;
        };
        let lanes: Vec<usize> = self.active.lanes().collect();
        let mut vals = vec![0u32; self.lanes];
        for c in read_comps(inst.opcode, write_mask(dst)) {
            if !lanes.iter().any(|l| self.abs_of(src, c, *l)) {
                continue;
            }
            if self
                .read(src, c, super::machine::Consumer::Float, at, &mut vals)
                .is_err()
            {
                return;
            }
            for &l in &lanes {
                if self.abs_of(src, c, l) && f32::from_bits(vals[l]).abs() < 0.25 {
                    self.events[l] |= Domain::ApproximateAmplified.bit();
                }
            }
        }
    }

    /// Per lane: whether operand `op`, read for destination components `comps`, carries an
    /// approximate value; and whether an index of it does (an address).
    fn operand_taint(&self, op: &Operand, comps: &[usize], lane: usize) -> (bool, bool) {
        let t = &self.taint;
        let mut address = false;
        for idx in &op.indices {
            if let Some(rel) = idx.relative()
                && let Some(r) = imm_index(rel)
                && matches!(rel.ty, OperandType::Temp | OperandType::Output)
            {
                address |= t.reg(rel.ty, r, source_component(rel, 0), lane);
            } else if idx
                .relative()
                .is_some_and(|r| r.ty == OperandType::IndexableTemp)
            {
                address |= t.indexable[lane];
            }
        }
        let value = match op.ty {
            ty if ty == OperandType::Temp || super::tracked::is_output(ty) => imm_index(op)
                .is_some_and(|r| {
                    comps
                        .iter()
                        .any(|c| t.reg(op.ty, r, source_component(op, *c), lane))
                }),
            OperandType::IndexableTemp => t.indexable[lane],
            OperandType::ThreadGroupSharedMemory
            | OperandType::UnorderedAccessView
            | OperandType::Resource => t.memory,
            _ => false,
        };
        (value, address)
    }

    /// Before a flow instruction with a condition or selector: a tainted one amplifies.
    pub(super) fn taint_condition(&mut self, inst: &Instruction) {
        // Every flow instruction with an operand: a condition, a selector (a `case` literal
        // or a label is never tainted).
        let info = inst.info();
        if !self.taint.on || info.kind != dxbc::opcodes::Kind::Flow || info.src == 0 {
            return;
        }
        let Some(op) = inst.operands.first() else {
            return;
        };
        for l in self.active.lanes().collect::<Vec<_>>() {
            let (v, a) = self.operand_taint(op, &[0], l);
            if v || a {
                self.events[l] |= Domain::ApproximateAmplified.bit();
            }
        }
    }

    /// After an instruction ran: its destinations carry its sources' taint (or fresh taint from
    /// an approximate op), and a discontinuous op, an address or a selection that read a
    /// tainted value raises the event.
    pub(super) fn taint_after(&mut self, inst: &Instruction, at: usize) {
        let op = inst.opcode;
        if approximate(op) {
            self.taint.on = true;
        }
        if !self.taint.on {
            return;
        }
        let info = inst.info();
        let (dsts, srcs) = inst.split_operands();
        // Every destination's components: `umul r1.x, r0.y, …` reads `.y` of its sources for
        // its second destination (the H200's `sqrt` one ULP off, then `umul`'s low word, dxdiff
        // fuzz).
        let mask = dsts.iter().fold(0, |m, d| m | write_mask(d));
        // A double op reads whole pairs (a widening one the k-th word), not its mask's
        // components: `itod r0.z, r0.xyzw` of a `log` result in r0.x (the H200, dxdiff fuzz).
        let comps = if info.kind == dxbc::opcodes::Kind::Double {
            let m = inst.double_source_mask();
            (0..4).filter(|c| m & (1 << c) != 0).collect()
        } else {
            read_comps(op, mask)
        };
        // Movc and swapc select: continuous in the values, not in the condition.
        let selector = match op {
            Opcode::Movc => Some(0),
            Opcode::Swapc => Some(0),
            _ => None,
        };
        let fresh = approximate(op);
        // Memory ops copy values; only their addresses amplify (atomics combine as integers).
        let store = matches!(
            op,
            Opcode::StoreRaw | Opcode::StoreStructured | Opcode::StoreUavTyped
        );
        let load = matches!(
            info.kind,
            dxbc::opcodes::Kind::Resource | dxbc::opcodes::Kind::Atomic
        ) && !store
            && !matches!(info.kind, dxbc::opcodes::Kind::Atomic);
        let lanes: Vec<usize> = self.active.lanes().collect();
        let mut carried = vec![false; self.lanes];
        for &l in &lanes {
            let mut value = false;
            let mut amplified = false;
            for (k, s) in srcs.iter().enumerate() {
                let (v, a) = self.operand_taint(s, &comps, l);
                value |= v;
                let memory_value = matches!(
                    s.ty,
                    OperandType::ThreadGroupSharedMemory
                        | OperandType::UnorderedAccessView
                        | OperandType::Resource
                );
                let copied = (store && k + 1 == srcs.len()) || (load && memory_value);
                let address = (store || load) && !copied;
                amplified |= a || (v && (selector == Some(k) || address || unbounded(op, k)));
            }
            if value && !continuous(op) && selector.is_none() && !store && !load {
                amplified = true;
            }
            // Run again on an approximate value: `div r0.z, r0.z, v0.z` three times in a loop
            // was 4 ULPs off on the H100, past one `div`'s band (dxdiff fuzz, exact profile).
            if value
                && compounding(op)
                && self
                    .taint
                    .ran
                    .iter()
                    .any(|(i, ran)| *i == at && ran.get(l) == Some(&true))
            {
                amplified = true;
            }
            if amplified {
                self.events[l] |= Domain::ApproximateAmplified.bit();
            }
            carried[l] = value || fresh;
        }
        if compounding(op) {
            let k = match self.taint.ran.iter().position(|(i, _)| *i == at) {
                Some(k) => k,
                None => {
                    self.taint.ran.push((at, vec![false; self.lanes]));
                    self.taint.ran.len() - 1
                }
            };
            for &l in &lanes {
                if let Some(r) = self.taint.ran[k].1.get_mut(l) {
                    *r = true;
                }
            }
        }
        // Absolute errors stay absolute through moves, adds and selections; an op whose band is
        // absolute at its result makes one: `sincos` (D3D 0.0008) anywhere, `log` where its
        // result is below 1 in magnitude (2^-21; the H100's `log` of 0.99999237 times 66 in a
        // `dp3`, dxdiff fuzz).
        let band = fresh
            .then(|| crate::rules::transcendental::error_band(op, 0))
            .filter(|b| *b != crate::band::Band::Any);
        let value_srcs: Vec<&Operand> = srcs
            .iter()
            .enumerate()
            .filter(|(k, _)| selector != Some(*k))
            .map(|(_, s)| s)
            .collect();
        let mut results = vec![0u32; self.lanes];
        for d in dsts {
            let m = write_mask(d);
            match d.ty {
                ty if ty == OperandType::Temp || super::tracked::is_output(ty) => {
                    if let Some(r) = imm_index(d) {
                        for c in (0..4).filter(|c| m & (1 << c) != 0) {
                            if band.is_some() && self.read_raw(d, c, at, &mut results).is_err() {
                                results.fill(0);
                            }
                            for &l in &lanes {
                                self.taint.set(d.ty, r, c, l, carried[l]);
                                let abs = band.is_some_and(|b| b.absolute_at(results[l]))
                                    || (keeps_absolute(op)
                                        && value_srcs.iter().any(|s| self.abs_of(s, c, l)));
                                self.taint.set_abs(d.ty, r, c, l, abs);
                            }
                        }
                    }
                }
                OperandType::IndexableTemp => {
                    for &l in &lanes {
                        self.taint.indexable[l] |= carried[l];
                    }
                }
                OperandType::ThreadGroupSharedMemory | OperandType::UnorderedAccessView => {
                    self.taint.memory |= lanes.iter().any(|l| carried[*l]);
                }
                _ => {}
            }
        }
    }
}
