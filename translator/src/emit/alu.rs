//! ALU lowering: one function per opcode family, each following the seed contract's rule in the
//! `contract` profile and a D3D-exact polyfill in the `exact` profile.

use dxbc::opcodes::{Flags, Kind, Num};
use dxbc::{Instruction, Opcode};

use naga::{BinaryOperator as B, MathFunction as M, ScalarKind as Sk};

use super::Ctx;
use super::Rejection;
use super::build::{self, H};
use super::flow::Structure;
use super::operand::{Values, write_mask};
use crate::names as id;

impl Ctx<'_> {
    /// A float view of a source word: exact flushes denormals as D3D does.
    fn f(&mut self, e: H) -> H {
        if self.exact() {
            self.helper("d3d_fin", vec![e])
        } else {
            self.relies(id::DENORMALS);
            self.b.bitcast(Sk::Float, e)
        }
    }

    /// A float result as a register word: exact flushes it and makes NaN canonical.
    pub(super) fn r(&mut self, e: H) -> H {
        if self.exact() {
            self.helper("d3d_fout", vec![e])
        } else {
            self.relies(id::NAN);
            self.relies(id::SIGNED_ZERO);
            self.b.bitcast(Sk::Uint, e)
        }
    }

    pub(super) fn saturate(&mut self, e: H) -> H {
        if self.exact() {
            self.helper("d3d_sat", vec![e])
        } else {
            // WGSL's saturate may keep a denormal and says nothing of NaN.
            self.relies(id::DENORMALS);
            self.relies(id::NAN);
            let x = self.b.bitcast(Sk::Float, e);
            let s = self.b.math(M::Saturate, &[x]);
            self.b.bitcast(Sk::Uint, s)
        }
    }

    /// `a op b` of two float views, as a register word.
    fn float_bin(&mut self, op: B, a: H, b: H) -> H {
        let (x, y) = (self.f(a), self.f(b));
        let e = self.b.bin(op, x, y);
        self.r(e)
    }

    /// A one-argument float builtin of a source word, as a register word.
    fn float_math(&mut self, fun: M, a: H) -> H {
        let x = self.f(a);
        let e = self.b.math(fun, &[x]);
        self.r(e)
    }

    /// `bitcast<u32>(fun(bitcast<i32>(a), ...))`.
    fn signed(&mut self, fun: M, args: &[H]) -> H {
        let xs: Vec<H> = args.iter().map(|a| self.b.bitcast(Sk::Sint, *a)).collect();
        let e = self.b.math(fun, &xs);
        self.b.bitcast(Sk::Uint, e)
    }

    /// `(a << (b & 31u))` and the other shifts: D3D masks shift amounts to 5 bits.
    fn shift_amount(&mut self, b: H) -> H {
        let k = self.b.u(31);
        self.b.bin(B::And, b, k)
    }

    /// Source `k` of an instruction's per-component sources, `0u` where it has none (the
    /// literal is made only then).
    fn source(&mut self, s: &[H], k: usize) -> H {
        match s.get(k) {
            Some(h) => *h,
            None => self.b.u(0),
        }
    }

    /// The lowering of a one-result opcode over its sources (already `u32` expressions).
    fn lower(&mut self, op: Opcode, s: &[H]) -> Result<H, Rejection> {
        use Opcode::*;
        let exact = self.exact();
        let (a, b, c) = (self.source(s, 0), self.source(s, 1), self.source(s, 2));
        Ok(match op {
            Add | Mul | Div => {
                let sym = match op {
                    Add => B::Add,
                    Mul => B::Multiply,
                    _ => B::Divide,
                };
                if op == Div {
                    self.relies(id::BUILTIN_ACCURACY);
                }
                self.relies(id::NON_FINITE);
                self.float_bin(sym, a, b)
            }
            Mad => {
                self.relies(id::NON_FINITE);
                if exact {
                    // Unfused, each step rounded and flushed: the serial ordering D3D measures by.
                    let p = self.float_bin(B::Multiply, a, b);
                    self.float_bin(B::Add, p, c)
                } else {
                    let (x, y, z) = (self.f(a), self.f(b), self.f(c));
                    let p = self.b.bin(B::Multiply, x, y);
                    let e = self.b.bin(B::Add, p, z);
                    self.r(e)
                }
            }
            Min | Max => {
                if exact {
                    self.helper(if op == Min { "d3d_min" } else { "d3d_max" }, vec![a, b])
                } else {
                    self.relies(id::MIN_MAX_NAN);
                    let (x, y) = (self.f(a), self.f(b));
                    let e = self
                        .b
                        .math(if op == Min { M::Min } else { M::Max }, &[x, y]);
                    self.r(e)
                }
            }
            Frc => {
                if exact {
                    self.helper("d3d_frc", vec![a])
                } else {
                    // WGSL's fract may return 1.0 for a tiny negative input; D3D's frc stays
                    // below 1 (found by `dxdiff verify`).
                    let x = self.f(a);
                    let fr = self.b.math(M::Fract, &[x]);
                    let below = self.b.fl(f32::from_bits(0x3f7f_ffff));
                    let e = self.b.math(M::Min, &[fr, below]);
                    self.r(e)
                }
            }
            RoundNe | RoundNi | RoundPi | RoundZ => {
                let fun = match op {
                    RoundNe => M::Round,
                    RoundNi => M::Floor,
                    RoundPi => M::Ceil,
                    _ => M::Trunc,
                };
                self.float_math(fun, a)
            }
            Exp | Log | Rsq | Sqrt => {
                let fun = match op {
                    Exp => M::Exp2,
                    Log => M::Log2,
                    Rsq => M::InverseSqrt,
                    _ => M::Sqrt,
                };
                self.relies(id::BUILTIN_ACCURACY);
                self.relies(id::NON_FINITE);
                if op == Exp {
                    self.relies(id::EXP_RANGE);
                }
                self.float_math(fun, a)
            }
            Rcp => {
                // The seed lowers rcp to an ordinary division.
                if !exact {
                    self.relies(id::RCP_DIVISION);
                }
                self.relies(id::BUILTIN_ACCURACY);
                self.relies(id::NON_FINITE);
                let x = self.f(a);
                let one = self.b.fl(1.0);
                let e = self.b.bin(B::Divide, one, x);
                self.r(e)
            }
            Eq | Ne | Lt | Ge => {
                self.relies(id::COMPARISON_MASKS);
                let (x, y) = (self.f(a), self.f(b));
                let cond = match op {
                    Eq => self.b.bin(B::Equal, x, y),
                    // `!=` is an ordered compare in SPIR-V, false for NaN; D3D's `ne` is true.
                    Ne if crate::planted(crate::PlantedBug::NeOrdered) => {
                        self.b.bin(B::NotEqual, x, y)
                    }
                    Ne => {
                        let eq = self.b.bin(B::Equal, x, y);
                        self.b.un(naga::UnaryOperator::LogicalNot, eq)
                    }
                    Lt => self.b.bin(B::Less, x, y),
                    _ => self.b.bin(B::GreaterEqual, x, y),
                };
                self.b.mask(cond)
            }
            Ftoi if exact && crate::planted(crate::PlantedBug::FtoiWithoutNanSelect) => {
                let nan = self.helper("d3d_isnan", vec![a]);
                let good = self.helper("d3d_ftoi", vec![a]);
                let x = self.b.bitcast(Sk::Float, a);
                let i = self.b.convert(Sk::Sint, x);
                let bad = self.b.bitcast(Sk::Uint, i);
                self.b.select(good, bad, nan)
            }
            Ftoi | Ftou => {
                if exact {
                    self.helper(if op == Ftoi { "d3d_ftoi" } else { "d3d_ftou" }, vec![a])
                } else {
                    self.relies(id::NUMERIC_CONVERSION_EDGES);
                    let x = self.b.bitcast(Sk::Float, a);
                    if op == Ftoi {
                        let i = self.b.convert(Sk::Sint, x);
                        self.b.bitcast(Sk::Uint, i)
                    } else {
                        self.b.convert(Sk::Uint, x)
                    }
                }
            }
            Itof | Utof => {
                let e = if op == Itof {
                    let i = self.b.bitcast(Sk::Sint, a);
                    self.b.convert(Sk::Float, i)
                } else {
                    self.b.convert(Sk::Float, a)
                };
                let w = self.r(e);
                if exact {
                    // D3D converts the integer 0 to +0; WGSL lets a compiler ignore a zero's
                    // sign, and the H100 gave 0x80000000 for `itof` of a comparison's 0
                    // (../shared/findings/h100-2026-12-07, ge_itof_umax).
                    let zero = self.b.u(0);
                    let is_zero = self.b.bin(B::Equal, a, zero);
                    self.b.select(w, zero, is_zero)
                } else {
                    w
                }
            }
            F32tof16 => {
                if exact {
                    self.helper("d3d_f32tof16", vec![a])
                } else {
                    self.relies(id::F16_CONVERSIONS);
                    let x = self.b.bitcast(Sk::Float, a);
                    let z = self.b.fl(0.0);
                    let ty = self.vector_ty(naga::VectorSize::Bi, build::F32);
                    let v = self.b.expr(naga::Expression::Compose {
                        ty,
                        components: vec![x, z],
                    });
                    let p = self.b.math(M::Pack2x16float, &[v]);
                    let m = self.b.u(0xffff);
                    self.b.bin(B::And, p, m)
                }
            }
            F16tof32 => {
                let m = self.b.u(0xffff);
                let low = self.b.bin(B::And, a, m);
                if exact {
                    self.helper("d3d_f16tof32", vec![low])
                } else {
                    self.relies(id::F16_CONVERSIONS);
                    let v = self.b.math(M::Unpack2x16float, &[low]);
                    let x = self.b.at(v, 0);
                    self.b.bitcast(Sk::Uint, x)
                }
            }
            Iadd => self.b.bin(B::Add, a, b),
            Imad | Umad => {
                let p = self.b.bin(B::Multiply, a, b);
                self.b.bin(B::Add, p, c)
            }
            Imin => self.signed(M::Min, &[a, b]),
            Imax => self.signed(M::Max, &[a, b]),
            Umin => self.b.math(M::Min, &[a, b]),
            Umax => self.b.math(M::Max, &[a, b]),
            Ineg => {
                let z = self.b.u(0);
                self.b.bin(B::Subtract, z, a)
            }
            Ishl => {
                let k = self.shift_amount(b);
                self.b.bin(B::ShiftLeft, a, k)
            }
            Ushr => {
                let k = self.shift_amount(b);
                self.b.bin(B::ShiftRight, a, k)
            }
            Ishr if crate::planted(crate::PlantedBug::IshrAsUshr) => {
                let k = self.shift_amount(b);
                self.b.bin(B::ShiftRight, a, k)
            }
            Ishr => {
                let k = self.shift_amount(b);
                let i = self.b.bitcast(Sk::Sint, a);
                let e = self.b.bin(B::ShiftRight, i, k);
                self.b.bitcast(Sk::Uint, e)
            }
            And => self.b.bin(B::And, a, b),
            Or => self.b.bin(B::InclusiveOr, a, b),
            Xor => self.b.bin(B::ExclusiveOr, a, b),
            Not => self.b.un(naga::UnaryOperator::BitwiseNot, a),
            Ieq | Ine | Ilt | Ige => {
                self.relies(id::COMPARISON_MASKS);
                let sym = match op {
                    Ieq => B::Equal,
                    Ine => B::NotEqual,
                    Ilt => B::Less,
                    _ => B::GreaterEqual,
                };
                let (x, y) = (self.b.bitcast(Sk::Sint, a), self.b.bitcast(Sk::Sint, b));
                let cond = self.b.bin(sym, x, y);
                self.b.mask(cond)
            }
            Ult | Uge => {
                self.relies(id::COMPARISON_MASKS);
                let sym = if op == Ult { B::Less } else { B::GreaterEqual };
                let cond = self.b.bin(sym, a, b);
                self.b.mask(cond)
            }
            Countbits => self.b.math(M::CountOneBits, &[a]),
            // D3D counts the first set bit from the most significant end.
            FirstbitHi => {
                let k = self.b.u(31);
                let lead = self.b.math(M::FirstLeadingBit, &[a]);
                let from_top = self.b.bin(B::Subtract, k, lead);
                let ones = self.b.u(0xffff_ffff);
                let z = self.b.u(0);
                let none = self.b.bin(B::Equal, a, z);
                self.b.select(from_top, ones, none)
            }
            FirstbitLo => self.b.math(M::FirstTrailingBit, &[a]),
            FirstbitShi => {
                let i = self.b.bitcast(Sk::Sint, a);
                let lead = self.b.math(M::FirstLeadingBit, &[i]);
                let k = self.b.u(31);
                let lu = self.b.bitcast(Sk::Uint, lead);
                let from_top = self.b.bin(B::Subtract, k, lu);
                let ones = self.b.u(0xffff_ffff);
                let m1 = self.b.i(-1);
                let none = self.b.bin(B::Equal, lead, m1);
                self.b.select(from_top, ones, none)
            }
            Bfrev => self.b.math(M::ReverseBits, &[a]),
            // WGSL's extractBits/insertBits clamp counts where D3D masks them to 5 bits.
            Ubfe => self.helper("d3d_ubfe", vec![a, b, c]),
            Ibfe => self.helper("d3d_ibfe", vec![a, b, c]),
            Bfi => {
                let d = self.source(s, 3);
                self.helper("d3d_bfi", vec![a, b, c, d])
            }
            Msad => self.helper("d3d_msad", vec![a, b, c]),
            Movc => {
                let z = self.b.u(0);
                let cond = self.b.bin(B::NotEqual, a, z);
                self.b.select(c, b, cond)
            }
            other => {
                return Err(Rejection::new(
                    id::NOT_LOWERED,
                    format!("`{}` is not lowered", other.mnemonic()),
                ));
            }
        })
    }

    /// One destination, per-component sources.
    fn alu(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let info = inst.info();
        let dst = &inst.operands[0];
        let m = write_mask(dst);
        let mut values = Values::new();
        let mut srcs: smallvec::SmallVec<[H; 4]> = smallvec::SmallVec::new();
        for comp in 0..4 {
            if m & (1 << comp) == 0 {
                continue;
            }
            srcs.clear();
            for (k, op) in inst.operands[1..].iter().enumerate() {
                srcs.push(self.src(op, comp, info.num(1 + k))?);
            }
            let mut e = self.lower(inst.opcode, &srcs)?;
            if inst.saturate {
                e = self.saturate(e);
            }
            values.push((comp, e));
        }
        self.assign(dst, &values)
    }

    /// `mov`: a copy of bits, unless a modifier or `_sat` makes it a float operation.
    fn mov(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let (dst, src) = (&inst.operands[0], &inst.operands[1]);
        let m = write_mask(dst);
        let mut values = Values::new();
        for comp in 0..4 {
            if m & (1 << comp) == 0 {
                continue;
            }
            let mut e = self.src(src, comp, Num::Float)?;
            // A modifier makes a move a float operation (FS §22.9.1): D3D flushes a denormal
            // result to zero of its sign.
            if self.exact() && src.modifier != dxbc::Modifier::None && !inst.saturate {
                e = self.helper("d3d_ftz", vec![e]);
            }
            if inst.saturate {
                if !self.exact() {
                    self.relies(id::SATURATE_MOVERS);
                }
                e = self.saturate(e);
            }
            values.push((comp, e));
        }
        self.assign(dst, &values)
    }

    /// `select(0u, 1u, cond)`: a carry or borrow.
    fn bit(&mut self, cond: H) -> H {
        let (z, one) = (self.b.u(0), self.b.u(1));
        self.b.select(z, one, cond)
    }

    /// Two destinations: compute both for every component, then write both.
    fn alu_pair(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        let info = inst.info();
        let (d0, d1) = (&inst.operands[0], &inst.operands[1]);
        let (m0, m1) = (write_mask(d0), write_mask(d1));
        let (mut v0, mut v1) = (Values::new(), Values::new());
        for comp in 0..4 {
            if (m0 | m1) & (1 << comp) == 0 {
                continue;
            }
            let mut s: smallvec::SmallVec<[H; 4]> = smallvec::SmallVec::new();
            for (k, op) in inst.operands[2..].iter().enumerate() {
                s.push(self.src(op, comp, info.num(2 + k))?);
            }
            let (a, b) = (s[0], self.source(&s, 1));
            let (x, y) = match inst.opcode {
                Sincos => {
                    self.relies(id::BUILTIN_ACCURACY);
                    self.relies(id::SINCOS_RANGE);
                    let f = self.f(a);
                    let (sn, cs) = (self.b.math(M::Sin, &[f]), self.b.math(M::Cos, &[f]));
                    (self.r(sn), self.r(cs))
                }
                Udiv if crate::planted(crate::PlantedBug::UdivWithoutZeroGuard) => {
                    (self.b.bin(B::Divide, a, b), self.b.bin(B::Modulo, a, b))
                }
                Udiv => {
                    self.relies(id::UDIV);
                    // Division by zero gives 0xFFFFFFFF for both results; the divisor is
                    // replaced first so no division by zero is ever evaluated.
                    let z = self.b.u(0);
                    let by_zero = self.b.bin(B::Equal, b, z);
                    let one = self.b.u(1);
                    let safe = self.b.select(b, one, by_zero);
                    let ones = self.b.u(0xffff_ffff);
                    let q = self.b.bin(B::Divide, a, safe);
                    let r = self.b.bin(B::Modulo, a, safe);
                    (
                        self.b.select(q, ones, by_zero),
                        self.b.select(r, ones, by_zero),
                    )
                }
                Imul => (
                    self.helper("d3d_imul_hi", vec![a, b]),
                    self.b.bin(B::Multiply, a, b),
                ),
                Umul => (
                    self.helper("d3d_umul_hi", vec![a, b]),
                    self.b.bin(B::Multiply, a, b),
                ),
                Uaddc => {
                    let sum = self.b.bin(B::Add, a, b);
                    let wrapped = self.b.bin(B::Less, sum, a);
                    (sum, self.bit(wrapped))
                }
                Usubb => {
                    let diff = self.b.bin(B::Subtract, a, b);
                    let borrow = self.b.bin(B::Less, a, b);
                    (diff, self.bit(borrow))
                }
                Swapc => {
                    let c = self.source(&s, 2);
                    let z = self.b.u(0);
                    let cond = self.b.bin(B::NotEqual, a, z);
                    (self.b.select(b, c, cond), self.b.select(c, b, cond))
                }
                other => {
                    return Err(Rejection::new(
                        id::NOT_LOWERED,
                        format!("`{}` is not lowered", other.mnemonic()),
                    ));
                }
            };
            let (x, y) = if inst.saturate {
                (self.saturate(x), self.saturate(y))
            } else {
                (x, y)
            };
            if m0 & (1 << comp) != 0 {
                v0.push((comp, x));
            }
            if m1 & (1 << comp) != 0 {
                v1.push((comp, y));
            }
        }
        // Every value is evaluated before either destination changes.
        let mut writes = Vec::new();
        for (d, vals) in [(d0, v0), (d1, v1)] {
            for (comp, e) in vals {
                if let Some(p) = self.dst(d, comp)? {
                    writes.push((p, e));
                }
            }
        }
        for (p, e) in writes {
            self.b.store(p, e);
        }
        Ok(())
    }

    /// `dp2`/`dp3`/`dp4`.
    fn dot(&mut self, inst: &Instruction, n: usize) -> Result<(), Rejection> {
        let (dst, a, b) = (&inst.operands[0], &inst.operands[1], &inst.operands[2]);
        let mut terms: smallvec::SmallVec<[(H, H); 4]> = smallvec::SmallVec::new();
        for comp in 0..n {
            let x = self.src(a, comp, Num::Float)?;
            let y = self.src(b, comp, Num::Float)?;
            terms.push((x, y));
        }
        self.relies(id::NON_FINITE);
        let mut e = if self.exact() {
            // Left to right, each product and sum rounded and flushed.
            let mut acc: Option<H> = None;
            for (x, y) in terms {
                let p = self.float_bin(B::Multiply, x, y);
                acc = Some(match acc {
                    None => p,
                    Some(s) => self.float_bin(B::Add, s, p),
                });
            }
            match acc {
                Some(a) => a,
                None => self.b.u(0),
            }
        } else {
            let mut sum: Option<H> = None;
            for (x, y) in terms {
                let (fx, fy) = (self.f(x), self.f(y));
                let p = self.b.bin(B::Multiply, fx, fy);
                sum = Some(match sum {
                    None => p,
                    Some(s) => self.b.bin(B::Add, s, p),
                });
            }
            match sum {
                Some(s) => self.r(s),
                None => self.b.u(0),
            }
        };
        if inst.saturate {
            e = self.saturate(e);
        }
        let m = write_mask(dst);
        let values: Values = (0..4)
            .filter(|c| m & (1 << c) != 0)
            .map(|c| (c, e))
            .collect();
        self.assign(dst, &values)
    }

    /// Screen-space derivatives (pixel programs only).
    fn derivative(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        use naga::{DerivativeAxis as Axis, DerivativeControl as Ctl};
        if self.stage != dxbc::Stage::Pixel {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "derivatives outside pixel programs",
            ));
        }
        self.note_derivative();
        let fine_for_coarse = crate::planted(crate::PlantedBug::CoarseAsFine);
        let (axis, ctl) = match inst.opcode {
            DerivRtx => (Axis::X, Ctl::None),
            DerivRty => (Axis::Y, Ctl::None),
            DerivRtxCoarse if fine_for_coarse => (Axis::X, Ctl::Fine),
            DerivRtyCoarse if fine_for_coarse => (Axis::Y, Ctl::Fine),
            DerivRtxCoarse => (Axis::X, Ctl::Coarse),
            DerivRtxFine => (Axis::X, Ctl::Fine),
            DerivRtyCoarse => (Axis::Y, Ctl::Coarse),
            _ => (Axis::Y, Ctl::Fine),
        };
        let (dst, src) = (&inst.operands[0], &inst.operands[1]);
        let m = write_mask(dst);
        let mut values = Values::new();
        for comp in 0..4 {
            if m & (1 << comp) == 0 {
                continue;
            }
            let s = self.src(src, comp, Num::Float)?;
            let x = self.f(s);
            let d = self.b.expr(naga::Expression::Derivative {
                axis,
                ctrl: ctl,
                expr: x,
            });
            let mut e = self.r(d);
            if inst.saturate {
                e = self.saturate(e);
            }
            values.push((comp, e));
        }
        self.assign(dst, &values)
    }

    /// Lower one non-declaration instruction.
    pub fn instruction(
        &mut self,
        inst: &Instruction,
        index: usize,
        s: &Structure,
    ) -> Result<(), Rejection> {
        use Opcode::*;
        let info = inst.info();
        self.fetched.clear();
        let (_, sources) = inst.split_operands();
        let alu = inst.opcode != Mov
            && matches!(
                info.kind,
                Kind::AluFloat
                    | Kind::AluInt
                    | Kind::AluUint
                    | Kind::Bit
                    | Kind::Conversion
                    | Kind::Compare
            );
        self.opaque_non_finite = alu;
        self.opaque_literals = alu
            && !sources.is_empty()
            && sources
                .iter()
                .all(|o| o.ty == dxbc::OperandType::Immediate32);
        match inst.opcode {
            If | Else | Endif | Loop | Endloop | Break | Breakc | Continue | Continuec | Switch
            | Case | Default | Endswitch | Ret | Retc | Discard | Nop => self.flow(inst, index, s),
            Sync => self.sync(inst),
            Call | Callc | Fcall => self.subroutine_call(inst),
            Mov => self.mov(inst),
            Dp2 => self.dot(inst, 2),
            Dp3 => self.dot(inst, 3),
            Dp4 => self.dot(inst, 4),
            // Two results: `sincos`, `udiv`, the wide multiplies, carries and `swapc`.
            _ if info.dst == 2 && !matches!(info.kind, Kind::Atomic | Kind::Resource) => {
                self.alu_pair(inst)
            }
            op if op.info().has(Flags::DERIVATIVE) => self.derivative(inst),
            EvalSnapped | EvalSampleIndex | EvalCentroid => self.evaluation(inst),
            op if op.info().has(Flags::BUFFER) || op.info().has(Flags::TYPED) => self.memory(inst),
            _ if info.kind == Kind::Double => self.double(inst),
            _ if (info.kind.is_alu() || info.kind == Kind::Double) && info.dst == 1
                || inst.opcode == Movc =>
            {
                self.alu(inst)
            }
            other => Err(Rejection::new(
                id::NOT_LOWERED,
                format!("`{}` is not lowered", other.mnemonic()),
            )),
        }
    }
}
