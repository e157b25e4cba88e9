//! The typed program: instructions, operands and registers as the token stream encodes them.
//!
//! The IR keeps every bit the encoding carries (including forms fxc never writes, such as an empty
//! extended operand token), so that decoding and re-encoding any accepted stream is word-exact.

use crate::opcodes::{OpInfo, Opcode};

/// An operand's index dimensions (at most three), held inline.
pub type Indices = smallvec::SmallVec<[Index; 3]>;

/// An operand's immediate words (one, two or four), held inline.
pub type ImmWords = smallvec::SmallVec<[u32; 4]>;

pub use crate::version::{Stage, Version};

/// A decoded token stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Stage and shader model, from the version token (word 0).
    pub version: Version,
    /// Every instruction and declaration after the length token, in stream order.
    pub instructions: Vec<Instruction>,
}

/// How an instruction's length was written (only the long-table opcodes have a choice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LengthForm {
    /// Bits 24..=30 of OpcodeToken0.
    #[default]
    Short,
    /// Bit 31 set and the length in the next DWORD (the header's form).
    Bit31,
    /// A 7-bit length of 0 and the length in the next DWORD (vkd3d's reading).
    Zero,
}

/// `_z` or `_nz` on a conditional instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Test {
    /// `_z`: the condition holds when the tested value is all zero bits.
    Zero,
    /// `_nz`: the condition holds when the tested value has any bit set.
    NonZero,
}

/// An extended opcode token (dxbc-format.md §4.3), kept in encoded order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtendedOpcode {
    /// Type 0: an extended opcode token with no payload (legal, never written by fxc).
    Empty,
    /// `_aoffimmi(u,v,w)`: texel offsets, each -8..=7.
    SampleControls {
        /// Texel offsets u, v, w, each a signed 4-bit value in -8..=7.
        offsets: [i8; 3],
    },
    /// `_indexable(dim)`; `stride` is the structure stride for structured buffers.
    ResourceDim {
        /// Resource dimension code (the same numbering as `dcl_resource`'s).
        dim: u8,
        /// Structure stride in bytes; 0 unless the resource is a structured buffer.
        stride: u16,
    },
    /// `(t,t,t,t)` per-component return types.
    ReturnType {
        /// Return-type code per component x, y, z, w (the `dcl_resource` return-type numbering).
        types: [u8; 4],
    },
}

/// A custom-data block (opcode 0x35): immediate constant buffer, comments, debug data...
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CustomData {
    /// Bits 11..=31 of the first DWORD: 3 = immediate constant buffer.
    pub class: u32,
    /// The block's data words after its class and length DWORDs.
    pub payload: Vec<u32>,
}

impl CustomData {
    /// Class 0: a comment block, ignored by the runtime.
    pub const CLASS_COMMENT: u32 = 0;
    /// Class 1: debug information.
    pub const CLASS_DEBUG: u32 = 1;
    /// Class 2: opaque data (reserved, unused by fxc).
    pub const CLASS_OPAQUE: u32 = 2;
    /// Class 3: an immediate constant buffer (`dcl_immediateConstantBuffer`), 4 words per entry.
    pub const CLASS_ICB: u32 = 3;
    /// Class 4: a shader message (`printf`/`errorf`), see `MESSAGE_*`.
    pub const CLASS_MESSAGE: u32 = 4;
    /// First payload word of a `printf` shader message (class 4).
    pub const MESSAGE_PRINTF: u32 = 0x0020_0102;
    /// First payload word of an `errorf` shader message (class 4).
    pub const MESSAGE_ERRORF: u32 = 0x0020_0103;
}

/// One instruction or declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// Which operation this is (OpcodeToken0 bits 0..=10).
    pub opcode: Opcode,
    /// `_sat` (only on value-producing opcodes).
    pub saturate: bool,
    /// `precise` component mask, x = bit 0.
    pub precise: u8,
    /// `_z`/`_nz` for conditional opcodes, `None` otherwise.
    pub test: Option<Test>,
    /// The remaining opcode-specific control bits, in their OpcodeToken0 positions (declaration
    /// fields, `resinfo` return type, `sync` flags). Accessors below give them names.
    pub controls: u32,
    /// Extended opcode tokens following OpcodeToken0, in encoded order.
    pub extended: Vec<ExtendedOpcode>,
    /// Raw DWORDs before the operands (`fcall`'s call-site index).
    pub leading: Vec<u32>,
    /// Register and immediate operands, destinations first.
    pub operands: Vec<Operand>,
    /// Raw DWORDs after the operands: declaration payloads, or trailing words such as the zero
    /// fxc appends to `samplepos t#`.
    pub trailing: Vec<u32>,
    /// Set for opcode 0x35 only.
    pub custom: Option<CustomData>,
    /// How the instruction length was encoded, kept so re-encoding is word-exact.
    pub length_form: LengthForm,
}

impl Instruction {
    /// A bare instruction with no operands and no flags.
    pub fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            saturate: false,
            precise: 0,
            test: None,
            controls: 0,
            extended: Vec::new(),
            leading: Vec::new(),
            operands: Vec::new(),
            trailing: Vec::new(),
            custom: None,
            length_form: LengthForm::Short,
        }
    }

    /// Make this a blank instruction (as [`Instruction::new`] of `nop`) that keeps its lists'
    /// storage: the decoder overwrites a dropped program's instructions in place.
    pub fn clear(&mut self) {
        self.opcode = Opcode::Nop;
        self.saturate = false;
        self.precise = 0;
        self.test = None;
        self.controls = 0;
        self.extended.clear();
        self.leading.clear();
        self.operands.clear();
        self.trailing.clear();
        self.custom = None;
        self.length_form = LengthForm::Short;
    }

    /// The opcode's table row: mnemonic, operand counts, model, kind.
    pub fn info(&self) -> &'static OpInfo {
        self.opcode.info()
    }

    /// The destination operands and the source operands, split where the opcode table puts
    /// the destinations (an instruction with fewer operands than that has no sources).
    pub fn split_operands(&self) -> (&[Operand], &[Operand]) {
        let ndst = usize::from(self.info().dst).min(self.operands.len());
        self.operands.split_at(ndst)
    }

    /// Whether each written component `c` of every destination is a function of component `c`
    /// of each input-register source alone: a 32-bit ALU op or a copy that works component by
    /// component (not `dp2`-`dp4`, which sum across components, nor a derivative, which reads
    /// the quad), whose `v#` sources read component `c` for destination component `c`. Such an
    /// instruction over four independent inputs in a lane is four independent runs, which is
    /// how `dxdiff verify` judges a differing component on its own input's domains.
    pub fn per_component(&self) -> bool {
        let info = self.info();
        let alu = info.kind.is_alu() || info.has(crate::opcodes::Flags::MOVE);
        if !alu
            || info.has(crate::opcodes::Flags::DERIVATIVE)
            || matches!(self.opcode, Opcode::Dp2 | Opcode::Dp3 | Opcode::Dp4)
        {
            return false;
        }
        let (dsts, srcs) = self.split_operands();
        let written = dsts.iter().fold(0u8, |m, d| m | d.write_mask());
        srcs.iter().filter(|s| s.ty == OperandType::Input).all(|s| {
            (0..4)
                .filter(|c| written & (1 << c) != 0)
                .all(|c| s.source_component(c) == c)
        })
    }

    /// A control field: `width` bits starting at OpcodeToken0 bit `shift`. Prefer the named
    /// accessors (`resource_dimension()`, `interpolation_mode()`, ... in `decl`), which check the
    /// opcode.
    pub fn field(&self, shift: u32, width: u32) -> u32 {
        (self.controls >> shift) & ((1 << width) - 1)
    }

    /// `gather4_po` and `gather4_po_c` as the `gather4`/`gather4_c` they are, their offset
    /// operand (the third) taken out and returned beside it; `None` for another opcode.
    pub fn without_programmable_offset(&self) -> Option<(Instruction, Operand)> {
        let opcode = match self.opcode {
            Opcode::Gather4Po => Opcode::Gather4,
            Opcode::Gather4PoC => Opcode::Gather4C,
            _ => return None,
        };
        if self.operands.len() < self.info().operand_count() {
            return None;
        }
        let mut plain = self.clone();
        let offset = plain.operands.remove(2);
        plain.opcode = opcode;
        Some((plain, offset))
    }

    /// The `_aoffimmi(u,v,w)` texel offsets, if a sample-controls token is present.
    pub fn sample_offsets(&self) -> Option<[i8; 3]> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::SampleControls { offsets } => Some(*offsets),
            _ => None,
        })
    }

    /// The `_indexable` resource dimension and structure stride, if that token is present.
    pub fn resource_dim(&self) -> Option<(u8, u16)> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::ResourceDim { dim, stride } => Some((*dim, *stride)),
            _ => None,
        })
    }

    /// The per-component return types of a return-type extended token, if present.
    pub fn return_types(&self) -> Option<[u8; 4]> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::ReturnType { types } => Some(*types),
            _ => None,
        })
    }

    /// The immediate constant buffer's words, if this is one.
    pub fn icb(&self) -> Option<&[u32]> {
        match &self.custom {
            Some(c) if c.class == CustomData::CLASS_ICB => Some(&c.payload),
            _ => None,
        }
    }
}

/// Operand (register) types, table 4.6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum OperandType {
    /// `r#`: a 32-bit temporary register.
    Temp = 0,
    /// `v#`: an input register (`v[vertex][reg]` in geometry and hull inputs).
    Input = 1,
    /// `o#`: an output register.
    Output = 2,
    /// `x#[i]`: an indexable temporary array (`dcl_indexableTemp`).
    IndexableTemp = 3,
    /// `l(...)`: 32-bit immediate values carried in the operand.
    Immediate32 = 4,
    /// `d(...)`: 64-bit immediate values carried in the operand.
    Immediate64 = 5,
    /// `s#`: a sampler.
    Sampler = 6,
    /// `t#`: a shader resource view (texture or buffer).
    Resource = 7,
    /// `cb#[i]`: a constant buffer, indexed by slot and element.
    ConstantBuffer = 8,
    /// `icb[i]`: the immediate constant buffer embedded in the program.
    ImmediateConstantBuffer = 9,
    /// `l#`: an SM4 subroutine label, the target of `call`.
    Label = 10,
    /// `vPrim`: the primitive id input.
    InputPrimitiveId = 11,
    /// `oDepth`: the pixel shader's depth output.
    OutputDepth = 12,
    /// `null`: a discarded destination.
    Null = 13,
    /// `rasterizer`: the render target's sample pattern, operand of SM4.1 `samplepos`/`sampleinfo`.
    Rasterizer = 14,
    /// `oMask`: the pixel shader's sample coverage output.
    OutputCoverageMask = 15,
    /// `m#`: a geometry shader output stream (SM5 `emit_stream`/`cut_stream`).
    Stream = 16,
    /// `fb#`: a function body for interface dispatch; also the operand of SM5 `label`.
    FunctionBody = 17,
    /// `ft#`: a function table for interface dispatch.
    FunctionTable = 18,
    /// `fp#`: an interface pointer, the operand of `fcall`.
    Interface = 19,
    /// `fi#`: a function input of SM5 dynamic linkage (rare; fxc's spelling uncertain).
    FunctionInput = 20,
    /// `fo#`: a function output of SM5 dynamic linkage (rare; fxc's spelling uncertain).
    FunctionOutput = 21,
    /// `vOutputControlPointID`: the hull shader's output control point index.
    OutputControlPointId = 22,
    /// `vForkInstanceID`: the instance index of a hull shader fork phase.
    InputForkInstanceId = 23,
    /// `vJoinInstanceID`: the instance index of a hull shader join phase.
    InputJoinInstanceId = 24,
    /// `vicp`: input control points of a hull or domain shader patch.
    InputControlPoint = 25,
    /// `vocp`: output control points, read in hull shader patch-constant phases.
    OutputControlPoint = 26,
    /// `vpc`: patch constants read by a domain shader or hull join phase.
    InputPatchConstant = 27,
    /// `vDomain`: the domain shader's tessellated point coordinates.
    InputDomainPoint = 28,
    /// `this`: the class instance pointer of an interface call.
    ThisPointer = 29,
    /// `u#`: an unordered access view (SM5).
    UnorderedAccessView = 30,
    /// `g#`: thread group shared memory (`groupshared`).
    ThreadGroupSharedMemory = 31,
    /// `vThreadID`: the compute thread's global id (SV_DispatchThreadID).
    InputThreadId = 32,
    /// `vThreadGroupID`: the compute thread group's id (SV_GroupID).
    InputThreadGroupId = 33,
    /// `vThreadIDInGroup`: the thread's id within its group (SV_GroupThreadID).
    InputThreadIdInGroup = 34,
    /// `vCoverage`: the pixel shader's input sample coverage mask.
    InputCoverageMask = 35,
    /// `vThreadIDInGroupFlattened`: the thread's flat index within its group (SV_GroupIndex).
    InputThreadIdInGroupFlattened = 36,
    /// `vGSInstanceID`: the geometry shader instance index.
    InputGsInstanceId = 37,
    /// `oDepthGE`: conservative depth output, no less than the rasterized depth.
    OutputDepthGreaterEqual = 38,
    /// `oDepthLE`: conservative depth output, no greater than the rasterized depth.
    OutputDepthLessEqual = 39,
    /// `vCycleCounter`: a 64-bit cycle counter for shader profiling.
    CycleCounter = 40,
    /// `oStencilRef`: the pixel shader's stencil reference output (D3D11.3).
    OutputStencilRef = 41,
    /// `vInnerCoverage`: whether the pixel is fully covered by the primitive (D3D11.3).
    InnerCoverage = 42,
}

/// fxc's spelling of each operand type, indexed by its number. Names of numbered registers are
/// the prefix; special registers are printed whole.
const OPERAND_NAMES: [&str; 43] = [
    "r",
    "v",
    "o",
    "x",
    "l",
    "d",
    "s",
    "t",
    "cb",
    "icb",
    "l",
    "vPrim",
    "oDepth",
    "null",
    "rasterizer",
    "oMask",
    "m",
    "fb",
    "ft",
    "fp",
    "fi",
    "fo",
    "vOutputControlPointID",
    "vForkInstanceID",
    "vJoinInstanceID",
    "vicp",
    "vocp",
    "vpc",
    "vDomain",
    "this",
    "u",
    "g",
    "vThreadID",
    "vThreadGroupID",
    "vThreadIDInGroup",
    "vCoverage",
    "vThreadIDInGroupFlattened",
    "vGSInstanceID",
    "oDepthGE",
    "oDepthLE",
    "vCycleCounter",
    "oStencilRef",
    "vInnerCoverage",
];

impl OperandType {
    /// The compute thread-id registers (`vThreadID`, `vThreadGroupID`, `vThreadIDInGroup`,
    /// `vThreadIDInGroupFlattened`): their values are below 2^23, so as float bits always a
    /// denormal or zero, which a compiler that knows the range folds like a zero.
    pub const fn is_thread_id(self) -> bool {
        matches!(
            self,
            OperandType::InputThreadId
                | OperandType::InputThreadGroupId
                | OperandType::InputThreadIdInGroup
                | OperandType::InputThreadIdInGroupFlattened
        )
    }

    /// A register a stage reads from outside: `v#`, `vicp`, `vocp`, `vpc` and the special
    /// registers that are not outputs (`vPrim`, `vThreadID`, `vCoverage`, ...). What
    /// `dcl_input*` declares.
    pub const fn is_input_register(self) -> bool {
        use OperandType::*;
        matches!(
            self,
            Input | InputControlPoint | OutputControlPoint | InputPatchConstant
        ) || (self.is_special() && !self.is_output_register() && !matches!(self, Null | Rasterizer))
    }

    /// A register a stage writes for the next one: `o#` and the `o`-named special registers.
    /// What `dcl_output*` declares.
    pub const fn is_output_register(self) -> bool {
        use OperandType::*;
        matches!(
            self,
            Output
                | OutputDepth
                | OutputDepthGreaterEqual
                | OutputDepthLessEqual
                | OutputCoverageMask
                | OutputStencilRef
        )
    }

    /// The operand type for an OperandToken0 type field (bits 12..=19), or `None` above 42.
    pub fn from_number(n: u32) -> Option<OperandType> {
        use OperandType::*;
        const ALL: [OperandType; 43] = [
            Temp,
            Input,
            Output,
            IndexableTemp,
            Immediate32,
            Immediate64,
            Sampler,
            Resource,
            ConstantBuffer,
            ImmediateConstantBuffer,
            Label,
            InputPrimitiveId,
            OutputDepth,
            Null,
            Rasterizer,
            OutputCoverageMask,
            Stream,
            FunctionBody,
            FunctionTable,
            Interface,
            FunctionInput,
            FunctionOutput,
            OutputControlPointId,
            InputForkInstanceId,
            InputJoinInstanceId,
            InputControlPoint,
            OutputControlPoint,
            InputPatchConstant,
            InputDomainPoint,
            ThisPointer,
            UnorderedAccessView,
            ThreadGroupSharedMemory,
            InputThreadId,
            InputThreadGroupId,
            InputThreadIdInGroup,
            InputCoverageMask,
            InputThreadIdInGroupFlattened,
            InputGsInstanceId,
            OutputDepthGreaterEqual,
            OutputDepthLessEqual,
            CycleCounter,
            OutputStencilRef,
            InnerCoverage,
        ];
        ALL.get(usize::try_from(n).ok()?).copied()
    }

    /// fxc's register prefix or special-register name.
    pub fn name(self) -> &'static str {
        OPERAND_NAMES[self as usize]
    }

    /// Look up a name as printed (case-insensitive); numbered prefixes must be split off first.
    pub fn from_name(name: &str) -> Option<OperandType> {
        // `l` and `d` also spell immediates, which the parser recognises by their parenthesis.
        OPERAND_NAMES
            .iter()
            .enumerate()
            .position(|(i, n)| i != 4 && i != 5 && n.eq_ignore_ascii_case(name))
            .and_then(|i| OperandType::from_number(i as u32))
    }

    /// Special registers print as a bare name without a register number; they carry no index,
    /// and validation refuses one that does (no consumer would know how to read it).
    pub const fn is_special(self) -> bool {
        use OperandType::*;
        matches!(
            self,
            InputPrimitiveId
                | OutputDepth
                | Null
                | Rasterizer
                | OutputCoverageMask
                | OutputControlPointId
                | InputForkInstanceId
                | InputJoinInstanceId
                | InputDomainPoint
                | InputThreadId
                | InputThreadGroupId
                | InputThreadIdInGroup
                | InputCoverageMask
                | InputThreadIdInGroupFlattened
                | InputGsInstanceId
                | OutputDepthGreaterEqual
                | OutputDepthLessEqual
                | CycleCounter
                | OutputStencilRef
                | InnerCoverage
        )
    }
}

/// Component selection of a four-component operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selection {
    /// Write mask, x = bit 0.
    Mask(u8),
    /// Source component for x, y, z, w (0..=3 each).
    Swizzle([u8; 4]),
    /// One component (0..=3).
    Select1(u8),
}

/// Component count field and, for four components, the selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Components {
    /// No components: the operand is not a vector (samplers, labels, `null`...).
    Zero,
    /// One component: a scalar register or immediate.
    One,
    /// Four components with their mask, swizzle or single-component selection.
    Four(Selection),
    /// The "N components" encoding (3): defined by the header, unused by fxc.
    N,
}

/// Source modifier from the extended operand token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Modifier {
    #[default]
    /// No modifier.
    None,
    /// `-x`: negate the source.
    Neg,
    /// `|x|`: take the absolute value.
    Abs,
    /// `-|x|`: absolute value, then negate.
    AbsNeg,
}

/// One index dimension of a register.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Index {
    /// A 32-bit constant index, as in `r[3]`.
    Imm32(u32),
    /// A 64-bit constant index (legal in the format, never written by fxc).
    Imm64(u64),
    /// An index taken from a register, as in `x0[r1.x]`.
    Relative(Box<Operand>),
    /// A register plus a 32-bit constant, as in `cb0[r1.x + 4]`.
    Imm32Relative(u32, Box<Operand>),
    /// A register plus a 64-bit constant (never written by fxc). Boxed with its register, so
    /// an index is 16 bytes, not 24: every operand holds three inline, and decoding,
    /// validation and lowering all walk them.
    Imm64Relative(Box<(u64, Operand)>),
}

impl Index {
    /// The constant part, if this index has one.
    pub fn immediate(&self) -> Option<u64> {
        match self {
            Index::Imm32(v) | Index::Imm32Relative(v, _) => Some(u64::from(*v)),
            Index::Imm64(v) => Some(*v),
            Index::Imm64Relative(b) => Some(b.0),
            Index::Relative(_) => None,
        }
    }

    /// The register part of a relative index, if it has one.
    pub fn relative(&self) -> Option<&Operand> {
        match self {
            Index::Relative(op) | Index::Imm32Relative(_, op) => Some(op),
            Index::Imm64Relative(b) => Some(&b.1),
            _ => None,
        }
    }

    /// Representation code (OperandToken0 bits 22+3k).
    pub fn representation(&self) -> u32 {
        match self {
            Index::Imm32(_) => 0,
            Index::Imm64(_) => 1,
            Index::Relative(_) => 2,
            Index::Imm32Relative(..) => 3,
            Index::Imm64Relative(..) => 4,
        }
    }
}

/// The extended operand token an operand was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ExtendedOperand {
    /// None, unless a modifier, precision or non-uniform flag needs one.
    #[default]
    None,
    /// Type 0: present and empty.
    Empty,
    /// Type 1 (modifier), even when its payload is zero.
    Modifier,
}

/// Min-precision tag of an operand (extended operand token bits 14..=16).
pub type MinPrecision = u8;

/// One operand: a register with its indices, or an immediate.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operand {
    /// The register file or immediate kind (OperandToken0 bits 12..=19).
    pub ty: OperandType,
    /// Component count and mask/swizzle/select (OperandToken0 bits 0..=11).
    pub components: Components,
    /// Zero to three index dimensions.
    pub indices: Indices,
    /// Source modifier (negate/absolute) from the extended operand token.
    pub modifier: Modifier,
    /// Min-precision tag from the extended operand token; 0 means default precision.
    pub precision: MinPrecision,
    /// SM5.1 `nonuniform` flag on a resource index, from the extended operand token.
    pub nonuniform: bool,
    /// Which extended operand token was present. fxc writes one only when it has a payload, but
    /// an empty token, or a modifier token with a zero payload, is legal and kept.
    pub extended: ExtendedOperand,
    /// Immediate values: 1 or 4 words for `l(...)`, 2 or 4 for `d(...)` (low word first).
    pub imm: ImmWords,
}

impl Operand {
    /// A `null` operand with nothing set: what the decoder fills in place.
    pub fn blank() -> Operand {
        Operand {
            ty: OperandType::Null,
            components: Components::Zero,
            indices: Indices::new(),
            modifier: Modifier::None,
            precision: 0,
            nonuniform: false,
            extended: ExtendedOperand::None,
            imm: ImmWords::new(),
        }
    }

    /// A register operand with immediate indices.
    pub fn reg(ty: OperandType, components: Components, indices: &[u32]) -> Operand {
        Operand {
            ty,
            components,
            indices: indices.iter().map(|&i| Index::Imm32(i)).collect(),
            modifier: Modifier::None,
            precision: 0,
            nonuniform: false,
            extended: ExtendedOperand::None,
            imm: ImmWords::new(),
        }
    }

    /// `l(v)` or `l(a, b, c, d)`.
    pub fn imm32(values: &[u32]) -> Operand {
        let components = if values.len() == 1 {
            Components::One
        } else {
            Components::Four(Selection::Mask(0))
        };
        Operand {
            ty: OperandType::Immediate32,
            components,
            indices: Indices::new(),
            modifier: Modifier::None,
            precision: 0,
            nonuniform: false,
            extended: ExtendedOperand::None,
            imm: ImmWords::from_slice(values),
        }
    }

    /// Which source component feeds destination component `comp` (the swizzle, or the one
    /// selected component; a mask reads its own component).
    pub fn source_component(&self, comp: usize) -> usize {
        match self.components {
            Components::Four(Selection::Swizzle(s)) => s[comp & 3] as usize,
            Components::Four(Selection::Select1(c)) => c as usize,
            Components::Four(Selection::Mask(_)) => comp,
            _ => 0,
        }
    }

    /// The components a destination writes (none for `null`).
    pub fn write_mask(&self) -> u8 {
        if self.ty == OperandType::Null {
            return 0;
        }
        match self.components {
            Components::Four(Selection::Mask(m)) => m,
            Components::One => 1,
            _ => 0,
        }
    }

    /// Whether the operand carries a modifier-token payload.
    pub fn has_modifier_payload(&self) -> bool {
        self.modifier != Modifier::None || self.precision != 0 || self.nonuniform
    }

    /// Whether the operand is an `l(...)` or `d(...)` immediate.
    pub fn is_immediate(&self) -> bool {
        matches!(self.ty, OperandType::Immediate32 | OperandType::Immediate64)
    }

    /// Whether the operand is tagged `min16float` (min-precision 1): the one minimum precision
    /// the translator lowers (to `f16`) and the `min16-float` structure names.
    pub fn is_min16_float(&self) -> bool {
        self.precision == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout decoding, validation and lowering walk: three indices and four immediate
    /// words inline in an operand of 96 bytes (a 64-bit index boxed with its register, and
    /// smallvec's union layout). A field that grows them shows here, not as a slower bench.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn an_operand_stays_96_bytes() {
        assert_eq!(std::mem::size_of::<Index>(), 16);
        assert_eq!(std::mem::size_of::<Indices>(), 56);
        assert_eq!(std::mem::size_of::<Operand>(), 96);
    }

    #[test]
    fn per_component_instructions() {
        let body = |line: &str| -> Instruction {
            let text = format!(
                "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_input_ps constant v1.xyzw\ndcl_output o0.xyzw\ndcl_output o1.xyzw\n{line}\nret\n"
            );
            let p = crate::assemble(&text).expect("assembles").program;
            p.instructions
                .iter()
                .find(|i| i.info().kind != crate::opcodes::Kind::Declaration)
                .expect("one instruction")
                .clone()
        };
        for yes in [
            "frc o0.xyzw, v0.xyzw",
            "add o0.xy, v0.xyxx, -v1.xyzw",
            "mad o0.xyzw, v0.xyzw, v1.xyzw, l(1.0, 2.0, 3.0, 4.0)",
            "movc o0.xyzw, v0.xyzw, v1.xyzw, l(0, 0, 0, 0)",
            "sincos o0.xyzw, o1.xyzw, v0.xyzw",
            "ubfe o0.xyzw, l(4), v0.xyzw, v1.xyzw",
        ] {
            assert!(body(yes).per_component(), "{yes}");
        }
        for no in [
            "dp4 o0.xyzw, v0.xyzw, v1.xyzw",
            "frc o0.xyzw, v0.xxxx",
            "add o0.xy, v0.yxzw, v1.xyzw",
            "deriv_rtx o0.xyzw, v0.xyzw",
        ] {
            assert!(!body(no).per_component(), "{no}");
        }
    }
}
