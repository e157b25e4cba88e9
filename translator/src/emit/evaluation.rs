//! Pull-model attribute evaluation (exact profile): `eval_snapped`, `eval_sample_index` and
//! `eval_centroid`.
//!
//! WGSL reads a fragment input only where the rasterizer fed it. An attribute is a plane over
//! the primitive, so its value a step away is the fed value plus the step times the plane's
//! slopes, and the slopes are the fine derivatives of the fed value. They are taken once, at
//! the top of `run`, where control flow is uniform, into private variables that every body
//! reads: an evaluation under a branch then needs no derivative there.
//!
//! Decisions (docs/translator.md, "Attribute evaluation"):
//! - `eval_sample_index` reads D3D's standard pattern of a 4-sample target
//!   ([`dxbc::evaluation::TARGET_SAMPLES`], WebGPU's only multisample count), which WGSL
//!   cannot query; a sample past it is the centre (D3D gives no position);
//! - `eval_centroid` is the centre, the centroid of a fully covered pixel, and so is any
//!   evaluation of a `constant` attribute;
//! - an evaluation whose offset is 0 gives the fed word itself.

use naga::{
    BinaryOperator as B, DerivativeAxis as Axis, DerivativeControl as Ctl, GlobalVariable, Handle,
    ScalarKind as Sk,
};

use dxbc::{Components, Instruction, Modifier, Opcode, Operand, OperandType, Selection, Stage};

use super::build::{self, H};
use super::operand::{Values, write_mask};
use super::{Ctx, Rejection};
use crate::names as id;

/// The fine x and y derivatives of each attribute component a program evaluates off the
/// centre, by (register, component): private variables set at the top of `run`.
pub type Planes = Vec<((u32, usize), [Handle<GlobalVariable>; 2])>;

fn not_lowered(what: impl Into<String>) -> Rejection {
    Rejection::new(id::NOT_LOWERED, what)
}

impl Ctx<'_> {
    /// Declare the slopes of the attributes the program evaluates off the centre and set them
    /// in `run`'s body (current when called, before any instruction or body is lowered).
    pub fn attribute_planes(&mut self) {
        if self.stage != Stage::Pixel || !self.exact() {
            return;
        }
        let insts = &self.program.instructions;
        for (reg, mask) in dxbc::evaluation::planes(insts) {
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                let ty = self.f32_ty();
                let names = ["ddx", "ddy"].map(|axis| {
                    build::numbered("v", reg, &format!("{}_{axis}", ["x", "y", "z", "w"][c]))
                });
                let vars = names.map(|name| self.private_global(name, ty));
                let op = Operand::reg(
                    OperandType::Input,
                    Components::Four(Selection::Select1(c as u8)),
                    &[reg],
                );
                // Undeclared registers are refused where the evaluation reads them.
                let Ok(word) = self.src_raw(&op, 0) else {
                    continue;
                };
                let value = self.b.bitcast(Sk::Float, word);
                for (axis, var) in [Axis::X, Axis::Y].into_iter().zip(vars) {
                    let d = self.b.expr(naga::Expression::Derivative {
                        axis,
                        ctrl: Ctl::Fine,
                        expr: value,
                    });
                    let p = self.global(var);
                    self.b.store(p, d);
                }
                self.planes.push(((reg, c), vars));
            }
        }
    }

    /// `eval_snapped`, `eval_sample_index`, `eval_centroid`.
    pub(super) fn evaluation(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        if !self.exact() {
            return Err(not_lowered(
                "pull-model attribute evaluation (`eval_*`): the contract lists no lowering",
            ));
        }
        if self.stage != Stage::Pixel {
            return Err(not_lowered(
                "an attribute evaluation outside a pixel program",
            ));
        }
        let reg = dxbc::evaluation::evaluated_register(inst).ok_or_else(|| {
            not_lowered("an attribute evaluation of a source other than a directly indexed `v#`")
        })?;
        let constant = dxbc::evaluation::is_constant(&self.program.instructions, reg);
        let offset = match inst.opcode {
            _ if constant => None,
            Opcode::EvalSnapped => Some(self.snapped_offset(&inst.operands[2])?),
            Opcode::EvalSampleIndex => Some(self.sample_offset(&inst.operands[2])?),
            _ => None,
        };
        let src = &inst.operands[1];
        let raw = Operand {
            modifier: Modifier::None,
            ..src.clone()
        };
        let dst = &inst.operands[0];
        let m = write_mask(dst);
        let mut values = Values::new();
        for comp in (0..4).filter(|c| m & (1 << c) != 0) {
            let word = self.src_raw(&raw, comp)?;
            let mut e = match offset {
                None => word,
                Some([ox, oy]) => {
                    let c = src.source_component(comp);
                    let [gx, gy] = self
                        .planes
                        .iter()
                        .find(|(k, _)| *k == (reg, c))
                        .map(|(_, g)| *g)
                        .ok_or_else(|| not_lowered(format!("v{reg} has no plane")))?;
                    let (gx, gy) = (self.global(gx), self.global(gy));
                    let (sx, sy) = (self.b.load(gx), self.b.load(gy));
                    let v = self.b.bitcast(Sk::Float, word);
                    let px = self.b.bin(B::Multiply, sx, ox);
                    let py = self.b.bin(B::Multiply, sy, oy);
                    let s = self.b.bin(B::Add, v, px);
                    let s = self.b.bin(B::Add, s, py);
                    let moved = self.r(s);
                    let zero = self.b.fl(0.0);
                    let cx = self.b.bin(B::Equal, ox, zero);
                    let cy = self.b.bin(B::Equal, oy, zero);
                    let centre = self.b.bin(B::LogicalAnd, cx, cy);
                    self.b.select(moved, word, centre)
                }
            };
            e = self.float_modifier(e, src.modifier);
            if inst.saturate {
                e = self.saturate(e);
            }
            values.push((comp, e));
        }
        self.assign(dst, &values)
    }

    /// `eval_snapped`'s offset in pixels, (x, y): each axis's low 4 bits, signed, in
    /// sixteenths.
    fn snapped_offset(&mut self, op: &Operand) -> Result<[H; 2], Rejection> {
        let unsigned = crate::planted(crate::PlantedBug::EvalOffsetUnsigned);
        let mut out = [self.b.fl(0.0); 2];
        for (c, o) in out.iter_mut().enumerate() {
            let w = self.src(op, c, dxbc::opcodes::Num::Int)?;
            // `extractBits` of an i32 sign-extends; shifting the bits up and back would
            // overflow WGSL's constant evaluation of an immediate offset.
            let w = if unsigned {
                w
            } else {
                self.b.bitcast(Sk::Sint, w)
            };
            let (zero, four) = (self.b.u(0), self.b.u(4));
            let low = self
                .b
                .math(naga::MathFunction::ExtractBits, &[w, zero, four]);
            let n = self.b.convert(Sk::Float, low);
            let sixteenth = self.b.fl(1.0 / 16.0);
            *o = self.b.bin(B::Multiply, n, sixteenth);
        }
        Ok(out)
    }

    /// `eval_sample_index`'s offset in pixels: the sample's position in the 4-sample pattern,
    /// the centre past it.
    fn sample_offset(&mut self, op: &Operand) -> Result<[H; 2], Rejection> {
        let index = self.src(op, 0, dxbc::opcodes::Num::Uint)?;
        let target = dxbc::evaluation::TARGET_SAMPLES;
        Ok(self.pattern_position(target, index, |b, v| b.fl(v)))
    }
}
