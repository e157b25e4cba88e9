//! The program tree: statements, instructions and sources over a fixed register layout, and
//! the walks over it that lowering and shrinking share.

use dxbc::{Opcode, Stage};

/// Where a source reads from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Reg {
    /// A working temp `r#`, below [`RandomProgram::temps`].
    Temp(u32),
    /// `v#` (pixel/vertex) or, in compute, `vThreadIDInGroupFlattened`.
    Input(u32),
    /// `cb0[#]`, below [`CB_REGS`].
    Cb(u32),
    /// `cb0[rI.x + 0]`, the index masked from a scalar source.
    CbDyn(Box<Src>),
    /// `icb[rI.x + 0]`, the index masked to [`ICB_ROWS`] (or twice that under `oob_indices`).
    IcbDyn(Box<Src>),
    /// `x0[rI.x + 0]`, the index always masked to [`INDEXABLE`] (out of range is undefined).
    IndexableDyn(Box<Src>),
    /// `l(a, b, c, d)`: raw words, so edge values reach the code bit-exact.
    Imm([u32; 4]),
}

/// A source operand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Src {
    /// What is read.
    pub reg: Reg,
    /// Component selected per lane, x = 0.
    pub swizzle: [u8; 4],
    /// The `-` modifier (float sources only).
    pub neg: bool,
    /// The `|x|` modifier (float sources only).
    pub abs: bool,
}

impl Src {
    pub(super) fn plain(reg: Reg) -> Src {
        Src {
            reg,
            swizzle: [0, 1, 2, 3],
            neg: false,
            abs: false,
        }
    }
}

/// One instruction: `opcode[_sat] dst..., src...`; a destination of `None` is `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Op {
    /// One of the [`rows`](super::rows).
    pub opcode: Opcode,
    /// `_sat` (float value ops only).
    pub sat: bool,
    /// (temp, write mask) per destination.
    pub dst: Vec<Option<(u32, u8)>>,
    /// The sources, as many as the table states.
    pub src: Vec<Src>,
}

/// Atomic operations whose final memory does not depend on thread order: the table's
/// `COMMUTATIVE` atomics without a returned value, in the order seeds were recorded with (a test
/// holds the two together).
pub const ATOMICS: [Opcode; 8] = [
    Opcode::AtomicIadd,
    Opcode::AtomicAnd,
    Opcode::AtomicOr,
    Opcode::AtomicXor,
    Opcode::AtomicUmax,
    Opcode::AtomicUmin,
    Opcode::AtomicImax,
    Opcode::AtomicImin,
];

/// A statement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// A register instruction.
    Op(Op),
    /// `if_z`/`if_nz` on a scalar condition.
    If {
        /// Test for nonzero (`_nz`) rather than zero (`_z`).
        nonzero: bool,
        /// The scalar tested.
        cond: Src,
        /// Run when the test passes.
        then: Vec<Stmt>,
        /// Run otherwise (`else`), if present.
        otherwise: Option<Vec<Stmt>>,
    },
    /// A loop bounded by a counter lowering adds (rule 2).
    Loop {
        /// Most iterations, 1..=4.
        trips: u32,
        /// The statements after the counter's test and decrement.
        body: Vec<Stmt>,
    },
    /// Only inside a loop.
    BreakC {
        /// Test for nonzero (`_nz`) rather than zero (`_z`).
        nonzero: bool,
        /// The scalar tested.
        cond: Src,
    },
    /// Only inside a loop.
    ContinueC {
        /// Test for nonzero (`_nz`) rather than zero (`_z`).
        nonzero: bool,
        /// The scalar tested.
        cond: Src,
    },
    /// `switch` over a selector masked to 0..=3.
    Switch {
        /// The scalar selector, before masking.
        sel: Src,
        /// (case label, body), each body ending in `break`.
        cases: Vec<(u32, Vec<Stmt>)>,
        /// The `default` body, if present.
        default: Option<Vec<Stmt>>,
    },
    /// Pixel only: `discard_z`/`discard_nz`.
    Discard {
        /// Test for nonzero (`_nz`) rather than zero (`_z`).
        nonzero: bool,
        /// The scalar tested.
        cond: Src,
    },
    /// Write the indexable temp at a dynamic index (masked in range).
    IndexableStore {
        /// The scalar element index, before masking.
        index: Src,
        /// Components written.
        mask: u8,
        /// What is written.
        value: Src,
    },
    /// Compute: a structured SRV load into a temp, in or out of range.
    SrvLoad {
        /// (temp, write mask) loaded into.
        dst: (u32, u8),
        /// The scalar element index, masked to the group's threads or pushed out of range.
        index: Src,
        /// Whether the element exists (out of range reads 0 in D3D).
        in_range: bool,
        /// Byte offset into the element, a multiple of 16.
        offset: u32,
    },
    /// Compute: a structured UAV store to the thread's own element, or out of range.
    UavStore {
        /// The thread's own element, or one far past the end (a discarded store).
        in_range: bool,
        /// Components written, widened by lowering to a mask fxc writes.
        mask: u8,
        /// What is stored.
        value: Src,
        /// To the thread's own texel of a typed `RWTexture1D<float4>` (`u3`, every component)
        /// instead of the structured `u1`.
        texture: bool,
    },
    /// Any stage: a read of the 2D float texture `t4` (`sample_l` and `gather4` through `s4`,
    /// or `ld` at an address masked to a few texels past its edges and mips past its last).
    TextureRead {
        /// `Ld`, `SampleL` or `Gather4`.
        opcode: dxbc::Opcode,
        /// (temp, write mask) read into.
        dst: (u32, u8),
        /// The coordinates (float for a sample or gather; the masked address for `ld`).
        coords: Src,
        /// `sample_l`'s level of detail (read by no other).
        lod: Src,
    },
    /// Pixel: an input attribute evaluated at an offset, a sample or the centroid.
    Evaluate {
        /// One of [`EVALUATIONS`].
        opcode: dxbc::Opcode,
        /// (temp, write mask) written.
        dst: (u32, u8),
        /// The attribute: an input register `v#` (read through its swizzle and modifiers).
        /// Not among [`Stmt::sources`]: an evaluation reads a `v#` only, so no shrinking step
        /// replaces it.
        attribute: Src,
        /// `eval_snapped`'s offset (its x and y) or `eval_sample_index`'s sample (x); unused by
        /// `eval_centroid`.
        offset: Src,
    },
    /// Compute: an order-independent atomic on one of four words of a raw UAV.
    Atomic {
        /// One of [`ATOMICS`].
        opcode: Opcode,
        /// The scalar byte address, masked to the operation's own four words.
        address: Src,
        /// The operand.
        value: Src,
    },
    /// Compute, top level only: each thread stores a word to its TGSM slot, barrier, reads the
    /// slot a source selects, barrier.
    Exchange {
        /// (temp, one-component mask) the read word lands in.
        dst: (u32, u8),
        /// The word this thread stores.
        value: Src,
        /// The scalar choosing whose slot to read, masked to the group.
        sel: Src,
    },
}

/// A generated program.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RandomProgram {
    /// Pixel, vertex or compute: sets the inputs, outputs and allowed statements.
    pub stage: Stage,
    /// Working temps, and outputs.
    pub temps: u32,
    /// Compute: threads per group.
    pub threads: [u32; 3],
    /// The statements, without the scaffolding lowering adds.
    pub body: Vec<Stmt>,
    /// Out-of-range dynamic cb/icb indices allowed (the knob, kept for lowering).
    pub oob_indices: bool,
    /// Moves one component at a time ([`crate::random::Knobs::split_moves`], kept for
    /// lowering).
    pub split_moves: bool,
    /// The Shader Model of a pixel or vertex program's version token (the knob).
    pub shader_model: dxbc::TargetModel,
}

/// Constant-buffer registers (a power of two, so masking keeps indices in range).
pub const CB_REGS: u32 = 8;
/// Immediate constant buffer rows.
pub const ICB_ROWS: u32 = 8;
/// Indexable temp elements.
pub const INDEXABLE: u32 = 4;
/// Input registers of pixel and vertex programs.
pub const INPUTS: u32 = 4;
/// The output register a vertex program writes `SV_Position` to (whole, with the rest of the
/// outputs at the end): every vertex program fxc compiles has one, and WGSL requires it. `o0`,
/// where fxc puts it when it comes first in the output struct, as it usually does.
pub const POSITION_OUTPUT: u32 = 0;

/// The mask a structured or raw store is written with: fxc's stores write `.x`, `.xy`, `.xyz`
/// or `.xyzw` only, so a mask with a gap (a tree built by hand or by shrinking) is widened to
/// the smallest of those that covers it.
pub(super) fn store_mask(mask: u8) -> u8 {
    let top = 8 - (mask & 0xF).leading_zeros();
    ((1u16 << top.max(1)) - 1) as u8
}
/// The opcodes of [`Stmt::TextureRead`].
pub(super) const TEXTURE_READS: [dxbc::Opcode; 3] = [
    dxbc::Opcode::Ld,
    dxbc::Opcode::SampleL,
    dxbc::Opcode::Gather4,
];

/// The opcodes of [`Stmt::Evaluate`].
pub(super) const EVALUATIONS: [dxbc::Opcode; 3] = [
    dxbc::Opcode::EvalSnapped,
    dxbc::Opcode::EvalSampleIndex,
    dxbc::Opcode::EvalCentroid,
];

/// Reserved index temps (one per source slot of an instruction, plus a destination's).
pub(super) const INDEX_TEMPS: u32 = 5;
/// The words of the immediate constant buffer: edge values.
pub(super) fn icb_words() -> Vec<u32> {
    (0..ICB_ROWS * 4)
        .map(|i| crate::values::EDGES[(i as usize * 7) % crate::values::EDGES.len()])
        .collect()
}

impl Stmt {
    /// The blocks nested directly in this statement.
    pub(super) fn bodies(&self) -> Vec<&[Stmt]> {
        match self {
            Stmt::If {
                then, otherwise, ..
            } => std::iter::once(then.as_slice())
                .chain(otherwise.as_deref())
                .collect(),
            Stmt::Loop { body, .. } => vec![body],
            Stmt::Switch { cases, default, .. } => cases
                .iter()
                .map(|c| c.1.as_slice())
                .chain(default.as_deref())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// This statement's own sources (not those of its nested blocks).
    pub(super) fn sources(&self) -> Vec<&Src> {
        match self {
            Stmt::Op(o) => o.src.iter().collect(),
            Stmt::If { cond, .. }
            | Stmt::BreakC { cond, .. }
            | Stmt::ContinueC { cond, .. }
            | Stmt::Discard { cond, .. } => vec![cond],
            Stmt::Loop { .. } => Vec::new(),
            Stmt::Switch { sel, .. } => vec![sel],
            Stmt::IndexableStore { index, value, .. } => vec![index, value],
            Stmt::SrvLoad { index, .. } => vec![index],
            Stmt::UavStore { value, .. } => vec![value],
            Stmt::TextureRead { coords, lod, .. } => vec![coords, lod],
            Stmt::Evaluate { offset, .. } => vec![offset],
            Stmt::Atomic { address, value, .. } => vec![address, value],
            Stmt::Exchange { value, sel, .. } => vec![value, sel],
        }
    }

    /// The temps this statement writes.
    pub(super) fn written_temps(&self) -> Vec<u32> {
        match self {
            Stmt::Op(o) => o.dst.iter().flatten().map(|d| d.0).collect(),
            Stmt::SrvLoad { dst, .. }
            | Stmt::Exchange { dst, .. }
            | Stmt::TextureRead { dst, .. }
            | Stmt::Evaluate { dst, .. } => vec![dst.0],
            _ => Vec::new(),
        }
    }
}

/// Every statement of a block, nested ones included, in program order.
pub(super) fn walk(stmts: &[Stmt], f: &mut dyn FnMut(&Stmt)) {
    for s in stmts {
        f(s);
        for b in s.bodies() {
            walk(b, f);
        }
    }
}

/// Every source in a block, with the index sources of dynamically indexed ones.
pub(super) fn visit_srcs(stmts: &[Stmt], f: &mut dyn FnMut(&Src)) {
    fn each(s: &Src, f: &mut dyn FnMut(&Src)) {
        f(s);
        if let Reg::CbDyn(i) | Reg::IcbDyn(i) | Reg::IndexableDyn(i) = &s.reg {
            each(i, f);
        }
    }
    walk(stmts, &mut |s| {
        for x in s.sources() {
            each(x, f);
        }
    });
}

/// The temp components a source reads (its swizzle's targets), for the reconditioning pass.
pub(super) fn reads(s: &Src, out: &mut Vec<(u32, u8)>) {
    match &s.reg {
        Reg::Temp(r) => {
            let m = s.swizzle.iter().fold(0u8, |m, c| m | (1 << c));
            out.push((*r, m));
        }
        Reg::CbDyn(i) | Reg::IcbDyn(i) | Reg::IndexableDyn(i) => reads(i, out),
        _ => {}
    }
}

impl RandomProgram {
    /// The statement kinds and instruction opcodes of the body (not the scaffolding lowering
    /// adds), sorted and distinct: what a divergence's signature names.
    pub fn body_opcodes(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk(&self.body, &mut |s| {
            out.push(match s {
                Stmt::Op(o) => o.opcode.mnemonic().to_string(),
                Stmt::If { .. } => "if".into(),
                Stmt::Loop { .. } => "loop".into(),
                Stmt::BreakC { .. } => "breakc".into(),
                Stmt::ContinueC { .. } => "continuec".into(),
                Stmt::Discard { .. } => "discard".into(),
                Stmt::Switch { .. } => "switch".into(),
                Stmt::IndexableStore { .. } => "mov-indexable".into(),
                Stmt::SrvLoad { .. } => "ld_structured".into(),
                Stmt::UavStore { texture: true, .. } => "store_uav_typed".into(),
                Stmt::UavStore { .. } => "store_structured".into(),
                Stmt::Atomic { opcode, .. }
                | Stmt::TextureRead { opcode, .. }
                | Stmt::Evaluate { opcode, .. } => opcode.mnemonic().to_string(),
                Stmt::Exchange { .. } => "tgsm-exchange".into(),
            })
        });
        visit_srcs(&self.body, &mut |s| match &s.reg {
            Reg::CbDyn(_) => out.push("cb-indexed".into()),
            Reg::IcbDyn(_) => out.push("icb".into()),
            Reg::IndexableDyn(_) => out.push("x-indexed".into()),
            _ => {}
        });
        out.sort();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(t: u32, swizzle: [u8; 4]) -> Src {
        Src {
            swizzle,
            ..Src::plain(Reg::Temp(t))
        }
    }

    #[test]
    fn store_masks_widen_to_the_smallest_prefix_that_covers_them() {
        for m in 0u8..16 {
            let w = store_mask(m);
            assert!([0x1, 0x3, 0x7, 0xF].contains(&w), "{m:#x} -> {w:#x}");
            assert_eq!(w & m, m, "{m:#x} -> {w:#x} drops a component");
            assert!(
                w == 1 || (w >> 1) & m != m,
                "{m:#x} -> {w:#x} is not the smallest"
            );
        }
        assert_eq!(icb_words().len() as u32, ICB_ROWS * 4);
        assert!(icb_words().iter().all(|w| crate::values::EDGES.contains(w)));
    }

    #[test]
    fn walks_see_every_nested_statement_source_and_write() {
        let op = |d: u32, s: Src| {
            Stmt::Op(Op {
                opcode: Opcode::Mov,
                sat: false,
                dst: vec![Some((d, 0xF))],
                src: vec![s],
            })
        };
        let body = vec![
            Stmt::If {
                nonzero: true,
                cond: temp(0, [1; 4]),
                then: vec![op(1, temp(2, [0, 0, 3, 3]))],
                otherwise: Some(vec![Stmt::Loop {
                    trips: 2,
                    body: vec![op(3, Src::plain(Reg::CbDyn(Box::new(temp(1, [2; 4])))))],
                }]),
            },
            Stmt::Exchange {
                dst: (2, 1),
                value: Src::plain(Reg::Input(0)),
                sel: Src::plain(Reg::Imm([0; 4])),
            },
        ];
        let mut kinds = Vec::new();
        walk(&body, &mut |s| kinds.push(std::mem::discriminant(s)));
        assert_eq!(kinds.len(), 5, "if, mov, loop, mov, exchange");
        let mut writes = Vec::new();
        walk(&body, &mut |s| writes.extend(s.written_temps()));
        assert_eq!(writes, [1, 3, 2]);
        let mut read = Vec::new();
        visit_srcs(&body, &mut |s| reads(s, &mut read));
        // The cb index's temp is read twice: once through the indexed source, once itself.
        assert_eq!(read, [(0, 0b10), (2, 0b1001), (1, 0b100), (1, 0b100)]);
        let p = RandomProgram {
            stage: Stage::Compute,
            temps: 4,
            threads: [4, 1, 1],
            body,
            oob_indices: false,
            split_moves: false,
            shader_model: dxbc::TargetModel::Sm50,
        };
        assert_eq!(
            p.body_opcodes(),
            ["cb-indexed", "if", "loop", "mov", "tgsm-exchange"]
        );
    }
}
