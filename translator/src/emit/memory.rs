//! The lowering of buffer, TGSM and atomic instructions, through the guarded accessors
//! `super::declare` makes (reads past the end give 0, writes and atomics there are dropped),
//! and the dispatch of texture instructions to `super::textures`.

use dxbc::opcodes::Num;
use dxbc::{Instruction, Opcode, Operand, OperandType};
use naga::{BinaryOperator, Block, Expression, Statement};

use super::Rejection;
use super::build::{self, H};
use super::operand::{swizzled, write_mask};
use super::{Ctx, View};
use crate::names as id;

/// Which memory an operand names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Mem {
    Srv(u32),
    Uav(u32),
    Tgsm(u32),
}

impl Ctx<'_> {
    pub(super) fn mem(&self, op: &Operand) -> Result<Mem, Rejection> {
        let slot = match op.indices.first() {
            Some(dxbc::Index::Imm32(v)) => *v,
            _ => {
                return Err(Rejection::new(
                    id::NOT_LOWERED,
                    "dynamically indexed resource",
                ));
            }
        };
        match op.ty {
            OperandType::Resource if self.srvs.contains_key(&slot) => Ok(Mem::Srv(slot)),
            OperandType::UnorderedAccessView if self.uavs.contains_key(&slot) => Ok(Mem::Uav(slot)),
            OperandType::ThreadGroupSharedMemory if self.tgsm.contains_key(&slot) => {
                Ok(Mem::Tgsm(slot))
            }
            other => Err(Rejection::new(
                id::NOT_LOWERED,
                format!("undeclared {other:?} {slot}"),
            )),
        }
    }

    fn view(&self, m: Mem) -> View {
        match m {
            Mem::Srv(s) => self.srvs.get(&s).copied().unwrap_or(View::Raw),
            Mem::Uav(s) => self.uavs.get(&s).copied().unwrap_or(View::Raw),
            Mem::Tgsm(s) => match self.tgsm.get(&s) {
                Some((_, Some(stride))) => View::Structured(*stride),
                _ => View::Raw,
            },
        }
    }

    /// Words in a buffer, as a `u32` expression.
    fn words(&mut self, m: Mem) -> Result<H, Rejection> {
        Ok(match m {
            Mem::Tgsm(s) => {
                let n = self.tgsm.get(&s).map_or(1, |t| t.0.max(1));
                self.b.u(n)
            }
            _ => {
                let g = self.buffer(m)?.var;
                let p = self.global(g);
                self.b.expr(Expression::ArrayLength(p))
            }
        })
    }

    /// The first word of an access, and for a structured view a condition that the element
    /// is in range (structured accesses past the element count are dropped whole).
    fn address(&mut self, m: Mem, a0: H, a1: Option<H>) -> Result<(H, Option<H>), Rejection> {
        use BinaryOperator as B;
        let two = self.b.u(2);
        Ok(match (self.view(m), a1) {
            (View::Structured(stride), Some(off)) => {
                let words = self.words(m)?;
                let four = self.b.u(4);
                let bytes = self.b.bin(B::Multiply, words, four);
                let k = self.b.u(stride);
                let count = self.b.bin(B::Divide, bytes, k);
                let at = self.b.bin(B::Multiply, a0, k);
                let at = self.b.bin(B::Add, at, off);
                let w = self.b.bin(B::ShiftRight, at, two);
                let ok = self.b.bin(B::Less, a0, count);
                (w, Some(ok))
            }
            _ => (self.b.bin(B::ShiftRight, a0, two), None),
        })
    }

    /// Refuse a structured access whose immediate byte offset is not a whole word, or whose
    /// `words` (indices relative to the offset) run past the structure: D3D leaves the load
    /// undefined and the store makes the whole view undefined (FS §22.4.12-13), which no
    /// WGSL lowering can reproduce.
    fn check_offset(
        &self,
        m: Mem,
        offset: &Operand,
        words: impl Iterator<Item = usize>,
    ) -> Result<(), Rejection> {
        let View::Structured(stride) = self.view(m) else {
            return Ok(());
        };
        let (OperandType::Immediate32, Some(&off)) = (offset.ty, offset.imm.first()) else {
            return Ok(());
        };
        let end = 4 * (words.max().unwrap_or(0) as u64 + 1);
        if off % 4 != 0 || u64::from(off) + end > u64::from(stride) {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!("structured byte offset {off} overruns its {stride}-byte structure"),
            ));
        }
        Ok(())
    }

    /// `w + k`.
    fn word(&mut self, w: H, k: usize) -> H {
        let k = self.b.u(k as u32);
        self.b.bin(BinaryOperator::Add, w, k)
    }

    pub fn memory(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        let ops = &inst.operands;
        match inst.opcode {
            LdRaw | LdStructured => {
                let structured = inst.opcode == LdStructured;
                let res = &ops[if structured { 3 } else { 2 }];
                let m = self.mem(res)?;
                if structured {
                    let mask = write_mask(&ops[0]);
                    let words = (0..4).filter(|c| mask & (1 << c) != 0);
                    self.check_offset(m, &ops[2], words.map(|c| swizzled(res, c)))?;
                }
                let a0 = self.src(&ops[1], 0, Num::Uint)?;
                let a1 = if structured {
                    Some(self.src(&ops[2], 0, Num::Uint)?)
                } else {
                    None
                };
                let (w, ok) = self.address(m, a0, a1)?;
                let load = self.buffer_load(m)?;
                let dst = &ops[0];
                let mut values = super::operand::Values::new();
                for c in (0..4).filter(|c| write_mask(dst) & (1 << c) != 0) {
                    let at = self.word(w, swizzled(res, c));
                    let v = self.b.call(load, vec![at]);
                    let v = match ok {
                        Some(ok) => {
                            let z = self.b.u(0);
                            self.b.select(z, v, ok)
                        }
                        None => v,
                    };
                    values.push((c, v));
                }
                self.assign(dst, &values)
            }
            StoreRaw | StoreStructured => {
                let structured = inst.opcode == StoreStructured;
                let m = self.mem(&ops[0])?;
                if matches!(m, Mem::Srv(_)) {
                    return Err(Rejection::new(id::NOT_LOWERED, "store to an SRV"));
                }
                if structured {
                    let mask = write_mask(&ops[0]);
                    self.check_offset(m, &ops[2], (0..4).filter(|c| mask & (1 << c) != 0))?;
                }
                let a0 = self.src(&ops[1], 0, Num::Uint)?;
                let a1 = if structured {
                    Some(self.src(&ops[2], 0, Num::Uint)?)
                } else {
                    None
                };
                let value = &ops[if structured { 3 } else { 2 }];
                let mut vals = Vec::with_capacity(4);
                for c in 0..4 {
                    if write_mask(&ops[0]) & (1 << c) != 0 {
                        vals.push((c, self.src(value, c, Num::Typeless)?));
                    }
                }
                let (w, ok) = self.address(m, a0, a1)?;
                let store = self.buffer_store(m)?;
                if ok.is_some() {
                    self.b.open();
                }
                for (c, v) in vals {
                    let at = self.word(w, c);
                    self.b.stmt(Statement::Call {
                        function: store,
                        arguments: vec![at, v],
                        result: None,
                    });
                }
                if let Some(ok) = ok {
                    let accept = self.b.close();
                    self.b.stmt(Statement::If {
                        condition: ok,
                        accept,
                        reject: Block::new(),
                    });
                }
                Ok(())
            }
            Bufinfo => {
                use BinaryOperator as B;
                let m = self.mem(&ops[1])?;
                if let View::UavTexture(..) = self.view(m) {
                    return Err(Rejection::new(
                        id::NOT_LOWERED,
                        "bufinfo of a typed UAV texture: D3D has none",
                    ));
                }
                let words = self.words(m)?;
                let e = match self.view(m) {
                    View::Structured(stride) => {
                        let four = self.b.u(4);
                        let bytes = self.b.bin(B::Multiply, words, four);
                        let k = self.b.u(stride);
                        self.b.bin(B::Divide, bytes, k)
                    }
                    View::TypedBuffer => words,
                    _ => {
                        let four = self.b.u(4);
                        self.b.bin(B::Multiply, words, four)
                    }
                };
                let dst = &ops[0];
                let values: super::operand::Values = (0..4)
                    .filter(|c| write_mask(dst) & (1 << c) != 0)
                    .map(|c| (c, e))
                    .collect();
                self.assign(dst, &values)
            }
            LdUavTyped if self.uav_texture(&ops[2]).is_some() => self.uav_texture_load(inst),
            StoreUavTyped if self.uav_texture(&ops[0]).is_some() => self.uav_texture_store(inst),
            Resinfo if self.uav_texture(&ops[2]).is_some() => self.uav_texture_resinfo(inst),
            LdUavTyped | StoreUavTyped | Ld
                if !matches!(self.view_of(inst)?, View::Texture(..)) =>
            {
                self.typed(inst)
            }
            Ld => self.texture_load(inst),
            Ldms => self.ms_load(inst),
            Sampleinfo => self.sampleinfo(inst),
            Samplepos => self.samplepos(inst),
            Sample | SampleL | SampleB | SampleD | Gather4 | SampleC | SampleCLz | Gather4C => {
                self.sample(inst)
            }
            Gather4Po | Gather4PoC => self.gather_po(inst),
            Resinfo => self.resinfo(inst),
            Lod => self.lod(inst),
            op if op.info().kind == dxbc::opcodes::Kind::Atomic => self.atomic(inst),
            other => Err(Rejection::new(
                id::NOT_LOWERED,
                format!("`{}` is not lowered", other.mnemonic()),
            )),
        }
    }

    fn view_of(&self, inst: &Instruction) -> Result<View, Rejection> {
        let res = match inst.opcode {
            Opcode::StoreUavTyped => &inst.operands[0],
            _ => &inst.operands[2],
        };
        Ok(self.view(self.mem(res)?))
    }

    /// Typed buffers hold one 32-bit word per element here.
    fn typed(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        if inst.opcode == Opcode::StoreUavTyped {
            let m = self.mem(&ops[0])?;
            let e = self.src(&ops[1], 0, Num::Uint)?;
            let v = self.src(&ops[2], 0, Num::Typeless)?;
            let store = self.buffer_store(m)?;
            self.b.stmt(Statement::Call {
                function: store,
                arguments: vec![e, v],
                result: None,
            });
            return Ok(());
        }
        let m = self.mem(&ops[2])?;
        let e = self.src(&ops[1], 0, Num::Uint)?;
        let load = self.buffer_load(m)?;
        let x = self.b.call(load, vec![e]);
        let z = self.b.u(0);
        let one = self.b.u(1);
        let texel = [x, z, z, one];
        let dst = &ops[0];
        let values: Vec<(usize, H)> = (0..4)
            .filter(|c| write_mask(dst) & (1 << c) != 0)
            .map(|c| (c, texel[swizzled(&ops[2], c)]))
            .collect();
        self.assign(dst, &values)
    }

    /// Atomics, with D3D's drop on out-of-range addresses. Signed min/max and compare-exchange
    /// use a compare-exchange loop (the weak form may fail spuriously, so it retries).
    fn atomic(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use BinaryOperator as B;
        use Opcode::*;
        use naga::AtomicFunction as F;
        let ops = &inst.operands;
        let imm = inst.info().dst == 2;
        if matches!(inst.opcode, ImmAtomicAlloc | ImmAtomicConsume) {
            return self.counter(inst);
        }
        let (mem_op, rest) = if imm {
            (&ops[1], &ops[2..])
        } else {
            (&ops[0], &ops[1..])
        };
        let m = self.mem(mem_op)?;
        let structured = matches!(self.view(m), View::Structured(_));
        let a0 = self.src(&rest[0], 0, Num::Uint)?;
        let a1 = if structured {
            Some(self.src(&rest[0], 1, Num::Uint)?)
        } else {
            None
        };
        let v0 = self.src(&rest[1], 0, Num::Uint)?;
        let v1 = if rest.len() > 2 {
            self.src(&rest[2], 0, Num::Uint)?
        } else {
            self.b.u(0)
        };
        let (w, ok) = self.address(m, a0, a1)?;
        let words = self.words(m)?;
        let inside = self.b.bin(B::Less, w, words);
        let cond = match ok {
            Some(ok) => self.b.bin(B::LogicalAnd, ok, inside),
            None => inside,
        };
        let u = self.u32_ty();
        let name = self.fresh();
        let zero = self.b.u(0);
        let old = self.b.local(name, u, Some(zero));
        let var = self.buffer(m)?.var;
        let base = self.global(var);
        self.b.open();
        let p = self.b.access(base, w);
        let simple = match inst.opcode {
            AtomicAnd | ImmAtomicAnd => Some(F::And),
            AtomicOr | ImmAtomicOr => Some(F::InclusiveOr),
            AtomicXor | ImmAtomicXor => Some(F::ExclusiveOr),
            AtomicIadd | ImmAtomicIadd => Some(F::Add),
            AtomicUmax | ImmAtomicUmax => Some(F::Max),
            AtomicUmin | ImmAtomicUmin => Some(F::Min),
            ImmAtomicExch => Some(F::Exchange { compare: None }),
            _ => None,
        };
        let cmpxchg = self.module.generate_predeclared_type(
            naga::PredeclaredType::AtomicCompareExchangeWeakResult(build::U32),
        );
        // `atomicCompareExchangeWeak(p, compare, value)`: (old value, exchanged).
        let exchange = |c: &mut Self, compare: H, value: H| {
            let compare = Some(compare);
            let r = c.b.atomic(p, F::Exchange { compare }, value, cmpxchg, true);
            (c.b.at(r, 0), c.b.at(r, 1))
        };
        match (simple, inst.opcode) {
            (Some(fun), _) => {
                let r = self.b.atomic(p, fun, v0, u, false);
                self.b.store(old, r);
            }
            (None, AtomicImax | ImmAtomicImax | AtomicImin | ImmAtomicImin) => {
                let f = if matches!(inst.opcode, AtomicImax | ImmAtomicImax) {
                    naga::MathFunction::Max
                } else {
                    naga::MathFunction::Min
                };
                let first = self.b.load(p);
                self.b.store(old, first);
                self.b.open();
                let cur = self.b.load(old);
                let (x, y) = (
                    self.b.bitcast(naga::ScalarKind::Sint, cur),
                    self.b.bitcast(naga::ScalarKind::Sint, v0),
                );
                let n = self.b.math(f, &[x, y]);
                let n = self.b.bitcast(naga::ScalarKind::Uint, n);
                let (was, exchanged) = exchange(self, cur, n);
                self.b.when(exchanged, |b| b.stmt(Statement::Break));
                self.b.store(old, was);
                let body = self.b.close();
                self.b.stmt(Statement::Loop {
                    body,
                    continuing: Block::new(),
                    break_if: None,
                });
            }
            (None, AtomicCmpStore | ImmAtomicCmpExch) => {
                self.b.open();
                let (was, exchanged) = exchange(self, v0, v1);
                let differs = self.b.bin(B::NotEqual, was, v0);
                let settled = self.b.bin(B::LogicalOr, exchanged, differs);
                self.b.when(settled, |b| {
                    b.store(old, was);
                    b.stmt(Statement::Break);
                });
                let body = self.b.close();
                self.b.stmt(Statement::Loop {
                    body,
                    continuing: Block::new(),
                    break_if: None,
                });
            }
            (_, other) => {
                self.b.close();
                return Err(Rejection::new(
                    id::NOT_LOWERED,
                    format!("`{}` is not lowered", other.mnemonic()),
                ));
            }
        }
        let accept = self.b.close();
        self.b.stmt(Statement::If {
            condition: cond,
            accept,
            reject: Block::new(),
        });
        if imm {
            let result = self.b.load(old);
            let dst = &ops[0];
            let values: Vec<(usize, H)> = (0..4)
                .filter(|c| write_mask(dst) & (1 << c) != 0)
                .map(|c| (c, result))
                .collect();
            self.assign(dst, &values)?;
        }
        Ok(())
    }
}

impl Ctx<'_> {
    /// `imm_atomic_alloc` (the count before an add of one) and `imm_atomic_consume` (the count
    /// after a subtraction of one) on the UAV's hidden counter, a `uav-counter` binding (the
    /// exact profile's; the contract profile refuses them). The rule is
    /// `oracles::rules::counter::step`.
    fn counter(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let Some(g) = inst
            .counter_uav()
            .and_then(|slot| self.g.counters.get(&slot).copied())
            .filter(|_| self.exact())
        else {
            return Err(Rejection::new(id::NOT_LOWERED, "append/consume counters"));
        };
        let base = self.global(g);
        let p = self.b.at(base, 0);
        let u = self.u32_ty();
        let one = self.b.u(1);
        let alloc = inst.opcode == Opcode::ImmAtomicAlloc;
        let fun = if alloc || crate::planted(crate::PlantedBug::CounterNeverMoves) {
            naga::AtomicFunction::Add
        } else {
            naga::AtomicFunction::Subtract
        };
        let by = if crate::planted(crate::PlantedBug::CounterNeverMoves) {
            self.b.u(0)
        } else {
            one
        };
        let was = self.b.atomic(p, fun, by, u, false);
        let v = if alloc {
            was
        } else {
            self.b.bin(BinaryOperator::Subtract, was, one)
        };
        let dst = &inst.operands[0];
        let values: Vec<(usize, H)> = (0..4)
            .filter(|c| write_mask(dst) & (1 << c) != 0)
            .map(|c| (c, v))
            .collect();
        self.assign(dst, &values)
    }
}
