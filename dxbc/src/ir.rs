//! The typed program: instructions, operands and registers as the token stream encodes them.
//!
//! The IR keeps every bit the encoding carries (including forms fxc never writes, such as an empty
//! extended operand token), so that decoding and re-encoding any accepted stream is word-exact.

use crate::limits::Limit;
use crate::opcodes::{OpInfo, Opcode};

/// Which pipeline stage a program runs in (version token bits 16..=31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    Pixel = 0,
    Vertex = 1,
    Geometry = 2,
    Hull = 3,
    Domain = 4,
    Compute = 5,
}

impl Stage {
    /// The output-register limit of the stage: 8 render targets for pixel shaders, 32
    /// elsewhere. (The stage knows its limit, so `limits` need not know stages.)
    pub const fn output_registers(self) -> Limit {
        match self {
            Stage::Pixel => Limit::PixelOutputRegisters,
            _ => Limit::OutputRegisters,
        }
    }

    pub fn from_number(n: u32) -> Option<Stage> {
        Some(match n {
            0 => Stage::Pixel,
            1 => Stage::Vertex,
            2 => Stage::Geometry,
            3 => Stage::Hull,
            4 => Stage::Domain,
            5 => Stage::Compute,
            _ => return None,
        })
    }

    /// The two-letter prefix of the profile name (`ps`, `vs`, ...).
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Pixel => "ps",
            Stage::Vertex => "vs",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
        }
    }

    pub fn from_prefix(p: &str) -> Option<Stage> {
        [
            Stage::Pixel,
            Stage::Vertex,
            Stage::Geometry,
            Stage::Hull,
            Stage::Domain,
            Stage::Compute,
        ]
        .into_iter()
        .find(|s| s.prefix().eq_ignore_ascii_case(p))
    }
}

/// Shader model and stage, e.g. `ps_5_0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    pub stage: Stage,
    pub major: u8,
    pub minor: u8,
}

impl Version {
    pub fn new(stage: Stage, major: u8, minor: u8) -> Version {
        Version {
            stage,
            major,
            minor,
        }
    }

    /// SM5.1 adds a range-id index to resource operands and extra declaration DWORDs.
    pub fn is_sm51(self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }

    pub fn at_least(self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}_{}_{}", self.stage.prefix(), self.major, self.minor)
    }
}

/// A decoded token stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub version: Version,
    pub instructions: Vec<Instruction>,
}

/// How many `r#`, `v#` and `o#` registers a program uses: the highest register any operand or
/// `dcl_indexrange` names, plus one (and at least `dcl_temps`), never more than D3D11's limits
/// ([`crate::limits`]): a validated program stays below them anyway, and a program built in code
/// cannot make a consumer allocate more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RegisterCounts {
    pub temps: u32,
    pub inputs: u32,
    pub outputs: u32,
}

impl Program {
    pub fn register_counts(&self) -> RegisterCounts {
        let mut c = RegisterCounts::default();
        let mut grow = |ty: OperandType, n: u32| match ty {
            OperandType::Temp => c.temps = c.temps.max(n),
            OperandType::Input => c.inputs = c.inputs.max(n),
            OperandType::Output => c.outputs = c.outputs.max(n),
            _ => {}
        };
        for inst in &self.instructions {
            let first = |op: &Operand| {
                op.indices
                    .first()
                    .and_then(Index::immediate)
                    .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
            };
            if inst.opcode == Opcode::DclTemps {
                grow(
                    OperandType::Temp,
                    inst.trailing.first().copied().unwrap_or(0),
                );
            }
            for op in &inst.operands {
                if let Some(r) = first(op) {
                    grow(op.ty, r.saturating_add(1));
                }
            }
            if inst.opcode == Opcode::DclIndexrange
                && let (Some(op), Some(count)) = (inst.operands.first(), inst.trailing.first())
            {
                grow(op.ty, first(op).unwrap_or(0).saturating_add(*count));
            }
        }
        RegisterCounts {
            temps: c.temps.min(Limit::TempRegisters.value()),
            inputs: c.inputs.min(Limit::InputRegisters.value()),
            outputs: c.outputs.min(self.version.stage.output_registers().value()),
        }
    }
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
    Zero,
    NonZero,
}

/// An extended opcode token (dxbc-format.md §4.3), kept in encoded order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtendedOpcode {
    Empty,
    /// `_aoffimmi(u,v,w)`: texel offsets, each -8..=7.
    SampleControls {
        offsets: [i8; 3],
    },
    /// `_indexable(dim)`; `stride` is the structure stride for structured buffers.
    ResourceDim {
        dim: u8,
        stride: u16,
    },
    /// `(t,t,t,t)` per-component return types.
    ReturnType {
        types: [u8; 4],
    },
}

/// A custom-data block (opcode 0x35): immediate constant buffer, comments, debug data...
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CustomData {
    /// Bits 11..=31 of the first DWORD: 3 = immediate constant buffer.
    pub class: u32,
    pub payload: Vec<u32>,
}

impl CustomData {
    pub const CLASS_COMMENT: u32 = 0;
    pub const CLASS_DEBUG: u32 = 1;
    pub const CLASS_OPAQUE: u32 = 2;
    pub const CLASS_ICB: u32 = 3;
    pub const CLASS_MESSAGE: u32 = 4;
    /// First payload word of a `printf` shader message (class 4).
    pub const MESSAGE_PRINTF: u32 = 0x0020_0102;
    /// First payload word of an `errorf` shader message (class 4).
    pub const MESSAGE_ERRORF: u32 = 0x0020_0103;
}

/// One instruction or declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instruction {
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
    pub extended: Vec<ExtendedOpcode>,
    /// Raw DWORDs before the operands (`fcall`'s call-site index).
    pub leading: Vec<u32>,
    pub operands: Vec<Operand>,
    /// Raw DWORDs after the operands: declaration payloads, or trailing words such as the zero
    /// fxc appends to `samplepos t#`.
    pub trailing: Vec<u32>,
    /// Set for opcode 0x35 only.
    pub custom: Option<CustomData>,
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

    pub fn info(&self) -> &'static OpInfo {
        self.opcode.info()
    }

    /// A control field: `width` bits starting at OpcodeToken0 bit `shift`. Prefer the named
    /// accessors (`resource_dimension()`, `interpolation_mode()`, ... in `decl`), which check the
    /// opcode.
    pub fn field(&self, shift: u32, width: u32) -> u32 {
        (self.controls >> shift) & ((1 << width) - 1)
    }

    pub fn sample_offsets(&self) -> Option<[i8; 3]> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::SampleControls { offsets } => Some(*offsets),
            _ => None,
        })
    }

    pub fn resource_dim(&self) -> Option<(u8, u16)> {
        self.extended.iter().find_map(|e| match e {
            ExtendedOpcode::ResourceDim { dim, stride } => Some((*dim, *stride)),
            _ => None,
        })
    }

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
    Temp = 0,
    Input = 1,
    Output = 2,
    IndexableTemp = 3,
    Immediate32 = 4,
    Immediate64 = 5,
    Sampler = 6,
    Resource = 7,
    ConstantBuffer = 8,
    ImmediateConstantBuffer = 9,
    Label = 10,
    InputPrimitiveId = 11,
    OutputDepth = 12,
    Null = 13,
    Rasterizer = 14,
    OutputCoverageMask = 15,
    Stream = 16,
    FunctionBody = 17,
    FunctionTable = 18,
    Interface = 19,
    FunctionInput = 20,
    FunctionOutput = 21,
    OutputControlPointId = 22,
    InputForkInstanceId = 23,
    InputJoinInstanceId = 24,
    InputControlPoint = 25,
    OutputControlPoint = 26,
    InputPatchConstant = 27,
    InputDomainPoint = 28,
    ThisPointer = 29,
    UnorderedAccessView = 30,
    ThreadGroupSharedMemory = 31,
    InputThreadId = 32,
    InputThreadGroupId = 33,
    InputThreadIdInGroup = 34,
    InputCoverageMask = 35,
    InputThreadIdInGroupFlattened = 36,
    InputGsInstanceId = 37,
    OutputDepthGreaterEqual = 38,
    OutputDepthLessEqual = 39,
    CycleCounter = 40,
    OutputStencilRef = 41,
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

    /// Special registers print as a bare name without a register number.
    pub fn is_special(self) -> bool {
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
    Zero,
    One,
    Four(Selection),
    /// The "N components" encoding (3): defined by the header, unused by fxc.
    N,
}

/// Source modifier from the extended operand token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Modifier {
    #[default]
    None,
    Neg,
    Abs,
    AbsNeg,
}

/// One index dimension of a register.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Index {
    Imm32(u32),
    Imm64(u64),
    Relative(Box<Operand>),
    Imm32Relative(u32, Box<Operand>),
    Imm64Relative(u64, Box<Operand>),
}

impl Index {
    /// The constant part, if this index has one.
    pub fn immediate(&self) -> Option<u64> {
        match self {
            Index::Imm32(v) | Index::Imm32Relative(v, _) => Some(u64::from(*v)),
            Index::Imm64(v) | Index::Imm64Relative(v, _) => Some(*v),
            Index::Relative(_) => None,
        }
    }

    pub fn relative(&self) -> Option<&Operand> {
        match self {
            Index::Relative(op) | Index::Imm32Relative(_, op) | Index::Imm64Relative(_, op) => {
                Some(op)
            }
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
    pub ty: OperandType,
    pub components: Components,
    /// Zero to three index dimensions.
    pub indices: Vec<Index>,
    pub modifier: Modifier,
    pub precision: MinPrecision,
    pub nonuniform: bool,
    /// Which extended operand token was present. fxc writes one only when it has a payload, but
    /// an empty token, or a modifier token with a zero payload, is legal and kept.
    pub extended: ExtendedOperand,
    /// Immediate values: 1 or 4 words for `l(...)`, 2 or 4 for `d(...)` (low word first).
    pub imm: Vec<u32>,
}

impl Operand {
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
            imm: Vec::new(),
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
            indices: Vec::new(),
            modifier: Modifier::None,
            precision: 0,
            nonuniform: false,
            extended: ExtendedOperand::None,
            imm: values.to_vec(),
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

    pub fn is_immediate(&self) -> bool {
        matches!(self.ty, OperandType::Immediate32 | OperandType::Immediate64)
    }
}
