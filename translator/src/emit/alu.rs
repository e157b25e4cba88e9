//! ALU lowering: one function per opcode family, each following the seed contract's rule in the
//! `contract` profile and a D3D-exact polyfill in the `exact` profile.

use dxbc::opcodes::{Flags, Kind, Num};
use dxbc::{Instruction, Opcode};

use super::Ctx;
use super::flow::Structure;
use super::operand::write_mask;
use crate::Rejection;
use crate::names as id;

/// Comparison results are 0xFFFFFFFF/0 masks (the seed's `select` rule).
fn mask(cond: String) -> String {
    format!("select(0u, 0xffffffffu, {cond})")
}

impl Ctx<'_> {
    /// A float view of a source word: exact flushes denormals as D3D does.
    fn f(&mut self, e: &str) -> String {
        if self.exact() {
            format!("{}({e})", self.helper("d3d_fin"))
        } else {
            self.relies(id::DENORMALS);
            format!("bitcast<f32>({e})")
        }
    }

    /// A float result as a register word: exact flushes it and makes NaN canonical.
    fn r(&mut self, e: &str) -> String {
        if self.exact() {
            format!("{}({e})", self.helper("d3d_fout"))
        } else {
            self.relies(id::NAN);
            self.relies(id::SIGNED_ZERO);
            format!("bitcast<u32>({e})")
        }
    }

    fn saturate(&mut self, e: String) -> String {
        if self.exact() {
            format!("{}({e})", self.helper("d3d_sat"))
        } else {
            // WGSL's saturate may keep a denormal and says nothing of NaN.
            self.relies(id::DENORMALS);
            self.relies(id::NAN);
            format!("bitcast<u32>(saturate(bitcast<f32>({e})))")
        }
    }

    /// The lowering of a one-result opcode over its sources (already `u32` expressions).
    fn lower(&mut self, op: Opcode, s: &[String]) -> Result<String, Rejection> {
        use Opcode::*;
        let exact = self.exact();
        let a = s.first().cloned().unwrap_or_default();
        let b = s.get(1).cloned().unwrap_or_default();
        let c = s.get(2).cloned().unwrap_or_default();
        Ok(match op {
            Add | Mul | Div => {
                let sym = match op {
                    Add => "+",
                    Mul => "*",
                    _ => "/",
                };
                if op == Div {
                    self.relies(id::BUILTIN_ACCURACY);
                }
                self.relies(id::NON_FINITE);
                let (x, y) = (self.f(&a), self.f(&b));
                self.r(&format!("{x} {sym} {y}"))
            }
            Mad => {
                self.relies(id::NON_FINITE);
                if exact {
                    // Unfused, each step rounded and flushed: the serial ordering D3D measures by.
                    let (x, y, z) = (self.f(&a), self.f(&b), self.f(&c));
                    let p = self.r(&format!("{x} * {y}"));
                    let p = self.f(&p);
                    self.r(&format!("{p} + {z}"))
                } else {
                    let (x, y, z) = (self.f(&a), self.f(&b), self.f(&c));
                    self.r(&format!("{x} * {y} + {z}"))
                }
            }
            Min | Max => {
                let name = if op == Min { "min" } else { "max" };
                if exact {
                    format!(
                        "{}({a}, {b})",
                        self.helper(if op == Min { "d3d_min" } else { "d3d_max" })
                    )
                } else {
                    self.relies(id::MIN_MAX_NAN);
                    let (x, y) = (self.f(&a), self.f(&b));
                    self.r(&format!("{name}({x}, {y})"))
                }
            }
            Frc => {
                if exact {
                    format!("{}({a})", self.helper("d3d_frc"))
                } else {
                    // WGSL's fract may return 1.0 for a tiny negative input; D3D's frc stays
                    // below 1 (found by `dxdiff verify`).
                    let x = self.f(&a);
                    self.r(&format!("min(fract({x}), bitcast<f32>(0x3f7fffffu))"))
                }
            }
            RoundNe | RoundNi | RoundPi | RoundZ => {
                let name = match op {
                    RoundNe => "round",
                    RoundNi => "floor",
                    RoundPi => "ceil",
                    _ => "trunc",
                };
                let x = self.f(&a);
                self.r(&format!("{name}({x})"))
            }
            Exp | Log | Rsq | Sqrt => {
                let name = match op {
                    Exp => "exp2",
                    Log => "log2",
                    Rsq => "inverseSqrt",
                    _ => "sqrt",
                };
                self.relies(id::BUILTIN_ACCURACY);
                self.relies(id::NON_FINITE);
                if op == Exp {
                    self.relies(id::EXP_RANGE);
                }
                let x = self.f(&a);
                self.r(&format!("{name}({x})"))
            }
            Rcp => {
                // The seed lowers rcp to an ordinary division.
                if !exact {
                    self.relies(id::RCP_DIVISION);
                }
                self.relies(id::BUILTIN_ACCURACY);
                self.relies(id::NON_FINITE);
                let x = self.f(&a);
                self.r(&format!("1.0 / {x}"))
            }
            Eq | Ne | Lt | Ge => {
                self.relies(id::COMPARISON_MASKS);
                let (x, y) = (self.f(&a), self.f(&b));
                mask(match op {
                    Eq => format!("{x} == {y}"),
                    // `!=` is an ordered compare in SPIR-V, false for NaN; D3D's `ne` is true.
                    Ne if crate::planted(crate::PlantedBug::NeOrdered) => format!("{x} != {y}"),
                    Ne => format!("!({x} == {y})"),
                    Lt => format!("{x} < {y}"),
                    _ => format!("{x} >= {y}"),
                })
            }
            Ftoi if exact && crate::planted(crate::PlantedBug::FtoiWithoutNanSelect) => {
                let isnan = self.helper("d3d_isnan");
                let ftoi = self.helper("d3d_ftoi");
                format!("select({ftoi}({a}), bitcast<u32>(i32(bitcast<f32>({a}))), {isnan}({a}))")
            }
            Ftoi | Ftou => {
                if exact {
                    format!(
                        "{}({a})",
                        self.helper(if op == Ftoi { "d3d_ftoi" } else { "d3d_ftou" })
                    )
                } else {
                    self.relies(id::NUMERIC_CONVERSION_EDGES);
                    if op == Ftoi {
                        format!("bitcast<u32>(i32(bitcast<f32>({a})))")
                    } else {
                        format!("u32(bitcast<f32>({a}))")
                    }
                }
            }
            Itof => self.r(&format!("f32(bitcast<i32>({a}))")),
            Utof => self.r(&format!("f32({a})")),
            F32tof16 => {
                if exact {
                    format!("{}({a})", self.helper("d3d_f32tof16"))
                } else {
                    self.relies(id::F16_CONVERSIONS);
                    format!("(pack2x16float(vec2<f32>(bitcast<f32>({a}), 0.0)) & 0xffffu)")
                }
            }
            F16tof32 => {
                if exact {
                    format!("{}({a} & 0xffffu)", self.helper("d3d_f16tof32"))
                } else {
                    self.relies(id::F16_CONVERSIONS);
                    format!("bitcast<u32>(unpack2x16float({a} & 0xffffu).x)")
                }
            }
            Iadd => format!("({a} + {b})"),
            Imad | Umad => format!("({a} * {b} + {c})"),
            Imin | Imax => {
                let name = if op == Imin { "min" } else { "max" };
                format!("bitcast<u32>({name}(bitcast<i32>({a}), bitcast<i32>({b})))")
            }
            Umin => format!("min({a}, {b})"),
            Umax => format!("max({a}, {b})"),
            Ineg => format!("(0u - {a})"),
            // Shift amounts are masked to 5 bits in D3D.
            Ishl => format!("({a} << ({b} & 31u))"),
            Ushr => format!("({a} >> ({b} & 31u))"),
            Ishr if crate::planted(crate::PlantedBug::IshrAsUshr) => {
                format!("({a} >> ({b} & 31u))")
            }
            Ishr => format!("bitcast<u32>(bitcast<i32>({a}) >> ({b} & 31u))"),
            And => format!("({a} & {b})"),
            Or => format!("({a} | {b})"),
            Xor => format!("({a} ^ {b})"),
            Not => format!("(~{a})"),
            Ieq | Ine | Ilt | Ige => {
                self.relies(id::COMPARISON_MASKS);
                let sym = match op {
                    Ieq => "==",
                    Ine => "!=",
                    Ilt => "<",
                    _ => ">=",
                };
                mask(format!("bitcast<i32>({a}) {sym} bitcast<i32>({b})"))
            }
            Ult | Uge => {
                self.relies(id::COMPARISON_MASKS);
                mask(format!("{a} {} {b}", if op == Ult { "<" } else { ">=" }))
            }
            Countbits => format!("countOneBits({a})"),
            // D3D counts the first set bit from the most significant end.
            FirstbitHi => format!("select(31u - firstLeadingBit({a}), 0xffffffffu, {a} == 0u)"),
            FirstbitLo => format!("firstTrailingBit({a})"),
            FirstbitShi => format!(
                "select(31u - bitcast<u32>(firstLeadingBit(bitcast<i32>({a}))), 0xffffffffu, firstLeadingBit(bitcast<i32>({a})) == -1)"
            ),
            Bfrev => format!("reverseBits({a})"),
            // WGSL's extractBits/insertBits clamp counts where D3D masks them to 5 bits.
            Ubfe => format!("{}({a}, {b}, {c})", self.helper("d3d_ubfe")),
            Ibfe => format!("{}({a}, {b}, {c})", self.helper("d3d_ibfe")),
            Bfi => {
                let d = s.get(3).cloned().unwrap_or_default();
                format!("{}({a}, {b}, {c}, {d})", self.helper("d3d_bfi"))
            }
            Msad => format!("{}({a}, {b}, {c})", self.helper("d3d_msad")),
            Movc => format!("select({c}, {b}, {a} != 0u)"),
            other => {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
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
        let mut values = Vec::new();
        for comp in 0..4 {
            if m & (1 << comp) == 0 {
                continue;
            }
            let mut srcs = Vec::new();
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
        let mut values = Vec::new();
        for comp in 0..4 {
            if m & (1 << comp) == 0 {
                continue;
            }
            let mut e = self.src(src, comp, Num::Float)?;
            // A modifier makes a move a float operation (FS §22.9.1): D3D flushes a denormal
            // result to zero of its sign.
            if self.exact() && src.modifier != dxbc::Modifier::None && !inst.saturate {
                e = format!("{}({e})", self.helper("d3d_ftz"));
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

    /// Two destinations: compute both for every component, then write both.
    fn alu_pair(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        let info = inst.info();
        let (d0, d1) = (&inst.operands[0], &inst.operands[1]);
        let (m0, m1) = (write_mask(d0), write_mask(d1));
        let (mut v0, mut v1) = (Vec::new(), Vec::new());
        for comp in 0..4 {
            if (m0 | m1) & (1 << comp) == 0 {
                continue;
            }
            let mut s = Vec::new();
            for (k, op) in inst.operands[2..].iter().enumerate() {
                s.push(self.src(op, comp, info.num(2 + k))?);
            }
            let (a, b) = (s[0].clone(), s.get(1).cloned().unwrap_or_default());
            let (x, y) = match inst.opcode {
                Sincos => {
                    self.relies(id::BUILTIN_ACCURACY);
                    self.relies(id::SINCOS_RANGE);
                    let f = self.f(&a);
                    (self.r(&format!("sin({f})")), self.r(&format!("cos({f})")))
                }
                Udiv if crate::planted(crate::PlantedBug::UdivWithoutZeroGuard) => {
                    (format!("({a} / {b})"), format!("({a} % {b})"))
                }
                Udiv => {
                    self.relies(id::UDIV);
                    // Division by zero gives 0xFFFFFFFF for both results; the divisor is
                    // replaced first so no division by zero is ever evaluated.
                    let safe = format!("select({b}, 1u, {b} == 0u)");
                    (
                        format!("select({a} / {safe}, 0xffffffffu, {b} == 0u)"),
                        format!("select({a} % {safe}, 0xffffffffu, {b} == 0u)"),
                    )
                }
                Imul => (
                    format!("{}({a}, {b})", self.helper("d3d_imul_hi")),
                    format!("({a} * {b})"),
                ),
                Umul => (
                    format!("{}({a}, {b})", self.helper("d3d_umul_hi")),
                    format!("({a} * {b})"),
                ),
                Uaddc => (
                    format!("({a} + {b})"),
                    format!("select(0u, 1u, ({a} + {b}) < {a})"),
                ),
                Usubb => (format!("({a} - {b})"), format!("select(0u, 1u, {a} < {b})")),
                Swapc => {
                    let c = s.get(2).cloned().unwrap_or_default();
                    (
                        format!("select({b}, {c}, {a} != 0u)"),
                        format!("select({c}, {b}, {a} != 0u)"),
                    )
                }
                other => {
                    return Err(Rejection::new(
                        id::UNSUPPORTED,
                        format!("`{}` is not lowered", other.mnemonic()),
                    ));
                }
            };
            let sat = |c: &mut Self, e: String| if inst.saturate { c.saturate(e) } else { e };
            if m0 & (1 << comp) != 0 {
                v0.push((comp, sat(self, x)));
            }
            if m1 & (1 << comp) != 0 {
                v1.push((comp, sat(self, y)));
            }
        }
        // Bind every value before either destination changes.
        let mut writes = Vec::new();
        for (d, vals) in [(d0, v0), (d1, v1)] {
            for (comp, e) in vals {
                if let Some(lv) = self.dst(d, comp)? {
                    let t = self.fresh();
                    self.line(&format!("let {t} = {e};"));
                    writes.push(format!("{lv} = {t};"));
                }
            }
        }
        for w in writes {
            self.line(&w);
        }
        Ok(())
    }

    /// `dp2`/`dp3`/`dp4`.
    fn dot(&mut self, inst: &Instruction, n: usize) -> Result<(), Rejection> {
        let (dst, a, b) = (&inst.operands[0], &inst.operands[1], &inst.operands[2]);
        let mut terms = Vec::new();
        for comp in 0..n {
            let x = self.src(a, comp, Num::Float)?;
            let y = self.src(b, comp, Num::Float)?;
            terms.push((x, y));
        }
        self.relies(id::NON_FINITE);
        let mut e = if self.exact() {
            // Left to right, each product and sum rounded and flushed.
            let mut acc: Option<String> = None;
            for (x, y) in terms {
                let (fx, fy) = (self.f(&x), self.f(&y));
                let p = self.r(&format!("{fx} * {fy}"));
                acc = Some(match acc {
                    None => p,
                    Some(s) => {
                        let (fs, fp) = (self.f(&s), self.f(&p));
                        self.r(&format!("{fs} + {fp}"))
                    }
                });
            }
            acc.unwrap_or_else(|| "0u".into())
        } else {
            let parts: Vec<String> = terms
                .into_iter()
                .map(|(x, y)| {
                    let (fx, fy) = (self.f(&x), self.f(&y));
                    format!("{fx} * {fy}")
                })
                .collect();
            self.r(&parts.join(" + "))
        };
        if inst.saturate {
            e = self.saturate(e);
        }
        let t = self.fresh();
        self.line(&format!("let {t} = {e};"));
        let m = write_mask(dst);
        let values: Vec<(usize, String)> = (0..4)
            .filter(|c| m & (1 << c) != 0)
            .map(|c| (c, t.clone()))
            .collect();
        self.assign(dst, &values)
    }

    /// Screen-space derivatives (pixel programs only).
    fn derivative(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        if self.stage != dxbc::Stage::Pixel {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "derivatives outside pixel programs",
            ));
        }
        self.note_derivative();
        let fine_for_coarse = crate::planted(crate::PlantedBug::CoarseAsFine);
        let name = match inst.opcode {
            DerivRtx => "dpdx",
            DerivRty => "dpdy",
            DerivRtxCoarse if fine_for_coarse => "dpdxFine",
            DerivRtyCoarse if fine_for_coarse => "dpdyFine",
            DerivRtxCoarse => "dpdxCoarse",
            DerivRtxFine => "dpdxFine",
            DerivRtyCoarse => "dpdyCoarse",
            _ => "dpdyFine",
        };
        let (dst, src) = (&inst.operands[0], &inst.operands[1]);
        let m = write_mask(dst);
        let mut values = Vec::new();
        for comp in 0..4 {
            if m & (1 << comp) == 0 {
                continue;
            }
            let s = self.src(src, comp, Num::Float)?;
            let x = self.f(&s);
            let mut e = self.r(&format!("{name}({x})"));
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
        let sources = &inst.operands[(info.dst as usize).min(inst.operands.len())..];
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
            Mov => self.mov(inst),
            Dp2 => self.dot(inst, 2),
            Dp3 => self.dot(inst, 3),
            Dp4 => self.dot(inst, 4),
            // Two results: `sincos`, `udiv`, the wide multiplies, carries and `swapc`.
            _ if info.dst == 2 && !matches!(info.kind, Kind::Atomic | Kind::Resource) => {
                self.alu_pair(inst)
            }
            op if op.info().has(Flags::DERIVATIVE) => self.derivative(inst),
            op if op.info().has(Flags::BUFFER) || op.info().has(Flags::TYPED) => self.memory(inst),
            _ if (info.kind.is_alu() || info.kind == Kind::Double) && info.dst == 1
                || inst.opcode == Movc =>
            {
                self.alu(inst)
            }
            other => Err(Rejection::new(
                id::UNSUPPORTED,
                format!("`{}` is not lowered", other.mnemonic()),
            )),
        }
    }
}
