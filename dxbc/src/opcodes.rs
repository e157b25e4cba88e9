//! The one opcode table. Decoding, encoding, the disassembler, the assembler (and later the
//! interpreter's dispatch and the generators) all read their per-opcode facts from [`TABLE`], so a
//! fact about an opcode is written down exactly once.

use std::collections::HashMap;
use std::sync::LazyLock;

/// The lowest shader model (and D3D runtime) an opcode needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Model {
    /// Shader Model 4.0 (D3D10).
    Sm40,
    /// Shader Model 4.1 (D3D10.1): `lod`, `gather4`, `sampleinfo`, `samplepos`...
    Sm41,
    /// Shader Model 5.0 (D3D11): tessellation, compute, UAVs, doubles, interfaces.
    Sm50,
    /// 5.0 with the D3D11.1 double/shader extensions (SFI0 0x20/0x40).
    Sm50D3d111,
    /// 5.0 with D3D11.2 tiled-resource feedback.
    Sm50D3d112,
}

/// A coarse class of opcode, for tooling and generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Float arithmetic (`add`, `mad`, `sqrt`...).
    AluFloat,
    /// Signed integer arithmetic (`iadd`, `imul`, `ishr`...).
    AluInt,
    /// Unsigned integer arithmetic (`udiv`, `umax`, `ushr`...).
    AluUint,
    /// Bitwise logic and bit-field operations (`and`, `bfi`, `countbits`...).
    Bit,
    /// Comparisons producing an all-ones or zero mask (`lt`, `ieq`, `uge`...).
    Compare,
    /// Conversions between float, integer and half (`ftoi`, `utof`, `f32tof16`...).
    Conversion,
    /// Double-precision arithmetic and conversions (`dadd`, `dtof`...).
    Double,
    /// Control flow (`if`, `loop`, `call`, `ret`, `discard`...).
    Flow,
    /// Texture and buffer access (`sample`, `ld`, `store_raw`, `resinfo`...).
    Resource,
    /// Atomic memory operations on UAVs and TGSM (`atomic_*`, `imm_atomic_*`).
    Atomic,
    /// Barriers and fences (`sync`).
    Sync,
    /// Declarations (`dcl_*`).
    Declaration,
    /// Everything else: moves (`mov`, `movc`, `swapc`), `nop`, custom data, `emit`/`cut`, hull
    /// shader phase markers.
    Other,
}

impl Kind {
    /// 32-bit value work on registers: float, integer, bit, comparison and conversion ops (no
    /// doubles, flow, memory or declarations). Derivatives are `AluFloat` too; see
    /// [`Flags::DERIVATIVE`].
    pub const fn is_alu(self) -> bool {
        matches!(
            self,
            Kind::AluFloat
                | Kind::AluInt
                | Kind::AluUint
                | Kind::Bit
                | Kind::Compare
                | Kind::Conversion
        )
    }
}

/// Which opcode-specific control bits (OpcodeToken0 bits 11..=23) an opcode may carry.
///
/// Decoding is strict: a bit outside [`Ctl::allowed_mask`] is an error, never ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ctl {
    /// No control bits.
    Plain,
    /// A value-producing instruction: `_sat` (bit 13) and the `precise` mask (bits 19..=22).
    Value,
    /// `_z`/`_nz` test (bit 18).
    Test,
    /// `resinfo`: return type in bits 11..=12, plus the value bits.
    ResInfo,
    /// `sampleinfo`: `_uint` in bit 11, plus the value bits.
    SampleInfo,
    /// `sync`: bits 11..=14 (threads, TGSM fence, UAV group fence, UAV global fence).
    Sync,
    /// `dcl_resource`: dimension in bits 11..=15, sample count in bits 16..=22.
    DclResource,
    /// `dcl_constantbuffer`: bit 11 selects dynamic indexing over immediate.
    DclConstantBuffer,
    /// `dcl_sampler`: sampler mode in bits 11..=14.
    DclSampler,
    /// `dcl_outputtopology`: primitive topology in bits 11..=17.
    DclTopology,
    /// `dcl_inputprimitive`: input primitive in bits 11..=16.
    DclPrimitive,
    /// `dcl_input_ps` and friends: interpolation mode in bits 11..=14.
    DclInterpolation,
    /// `dcl_globalFlags`: the global flags in bits 11..=19.
    DclGlobalFlags,
    /// `dcl_interface`: bit 11 marks a dynamically indexed interface.
    DclInterface,
    /// `dcl_input_control_point_count`/`dcl_output_control_point_count`: count in bits 11..=16.
    DclControlPointCount,
    /// `dcl_tessellator_domain`: domain in bits 11..=12.
    DclTessDomain,
    /// `dcl_tessellator_partitioning`: partitioning in bits 11..=13.
    DclTessPartitioning,
    /// `dcl_tessellator_output_primitive`: output primitive in bits 11..=13.
    DclTessOutputPrimitive,
    /// `dcl_uav_typed`: dimension in bits 11..=15, `_glc` bit 16, rasterizer-ordered bit 17.
    DclUavTyped,
    /// `dcl_uav_raw`: `_glc` bit 16, rasterizer-ordered bit 17.
    DclUavRaw,
    /// `dcl_uav_structured`: `_glc` bit 16, rasterizer-ordered bit 17, `_opc` counter bit 23.
    DclUavStructured,
}

/// `_sat`: OpcodeToken0 bit 13, clamp the result to 0..=1.
pub const SATURATE_BIT: u32 = 1 << 13;
/// `_nz`: OpcodeToken0 bit 18; clear means `_z`.
pub const TEST_NZ_BIT: u32 = 1 << 18;
/// Lowest bit of the 4-bit `precise` component mask in OpcodeToken0.
pub const PRECISE_SHIFT: u32 = 19;
/// The `precise` component mask in OpcodeToken0 (bits 19..=22, x = bit 19).
pub const PRECISE_MASK: u32 = 0xF << PRECISE_SHIFT;

impl Ctl {
    /// The control bits (in their OpcodeToken0 positions) this class may set.
    pub const fn allowed_mask(self) -> u32 {
        const VALUE: u32 = SATURATE_BIT | PRECISE_MASK;
        match self {
            Ctl::Plain => 0,
            Ctl::Value => VALUE,
            Ctl::Test => TEST_NZ_BIT,
            Ctl::ResInfo => VALUE | (0x3 << 11),
            Ctl::SampleInfo => VALUE | (0x1 << 11),
            Ctl::Sync => 0xF << 11,
            Ctl::DclResource => (0x1F << 11) | (0x7F << 16),
            Ctl::DclConstantBuffer => 1 << 11,
            Ctl::DclSampler => 0xF << 11,
            Ctl::DclTopology => 0x7F << 11,
            Ctl::DclPrimitive => 0x3F << 11,
            Ctl::DclInterpolation => 0xF << 11,
            Ctl::DclGlobalFlags => 0x1FF << 11,
            Ctl::DclInterface => 1 << 11,
            Ctl::DclControlPointCount => 0x3F << 11,
            Ctl::DclTessDomain => 0x3 << 11,
            Ctl::DclTessPartitioning => 0x7 << 11,
            Ctl::DclTessOutputPrimitive => 0x7 << 11,
            Ctl::DclUavTyped => (0x1F << 11) | (1 << 16) | (1 << 17),
            Ctl::DclUavRaw => (1 << 16) | (1 << 17),
            Ctl::DclUavStructured => (1 << 16) | (1 << 17) | (1 << 23),
        }
    }

    /// Whether `_sat` and `precise` are split out of the raw control bits into their own fields.
    pub const fn has_value_bits(self) -> bool {
        matches!(self, Ctl::Value | Ctl::ResInfo | Ctl::SampleInfo)
    }
}

/// What an opcode computes, as far as the tools above the decoder care: the interpreter's
/// dispatch and its taint and NaN rules, the judge, the translator and the generators all read
/// these instead of keeping lists of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Flags(u16);

impl Flags {
    /// No flags.
    pub const NONE: Flags = Flags(0);
    /// Reads or writes memory by address: raw and structured buffers and TGSM, `bufinfo`,
    /// atomics.
    pub const BUFFER: Flags = Flags(1);
    /// Reads or writes through a typed view or a texture: `ld*`, `sample*`, `gather4*`,
    /// `resinfo`, `lod`, typed UAV loads and stores.
    pub const TYPED: Flags = Flags(1 << 1);
    /// The result is within a band of the exact value, in D3D and in WGSL alike.
    pub const APPROXIMATE: Flags = Flags(1 << 2);
    /// Unbounded near 0 in its last source (a reciprocal, a logarithm, a divisor): a small
    /// difference there can become any difference.
    pub const POLE: Flags = Flags(1 << 3);
    /// Continuous in its values: a small difference in a source stays a small difference.
    pub const CONTINUOUS: Flags = Flags(1 << 4);
    /// Carries an absolute error on without scaling it (moves, selections, sums, min/max).
    pub const KEEPS_ABSOLUTE: Flags = Flags(1 << 5);
    /// A NaN result's payload is the implementation's choice (float arithmetic, not a copy).
    pub const FREES_NAN: Flags = Flags(1 << 6);
    /// Float arithmetic that compilers simplify when an operand is a constant zero.
    pub const FOLDS_ZERO: Flags = Flags(1 << 7);
    /// A sum of products, which a GPU may fuse or reassociate.
    pub const FUSED: Flags = Flags(1 << 8);
    /// Copies bits from a source selected per component.
    pub const MOVE: Flags = Flags(1 << 9);
    /// A screen-space derivative (needs a pixel quad).
    pub const DERIVATIVE: Flags = Flags(1 << 10);
    /// An atomic whose final memory does not depend on the order of the invocations.
    pub const COMMUTATIVE: Flags = Flags(1 << 11);
    /// Samples at a level of detail the device derives from the pixel quad's screen-space
    /// derivatives (`sample`, `sample_b`, `sample_c`, `lod`): in a pixel program it needs a
    /// quad, as a derivative does.
    pub const IMPLICIT_LOD: Flags = Flags(1 << 12);

    /// Both sets of flags.
    pub const fn with(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }

    /// Whether every flag of `other` is set.
    pub const fn has(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
}

/// How an immediate in one operand slot is read and printed (fxc's rules, dxbc-format.md §6.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Num {
    /// Read and printed as a 32-bit float.
    Float,
    /// Read and printed as a signed 32-bit integer.
    Int,
    /// Read and printed as an unsigned 32-bit integer.
    Uint,
    /// Moves and stores: fxc guesses from the bits.
    Typeless,
    /// Read and printed as a 64-bit double (two words, low first).
    Double,
    /// Registers that never hold an immediate (resources, declarations).
    Reg,
}

/// What Direct3D 11 requires of an op's result (FS §22.10, §3.1.3), the table's accuracy
/// column. `oracles::rules::transcendental::error_band` turns each into its band with a match
/// that has no default arm, so a new inexact opcode is one cell here, never a list elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accuracy {
    /// Correctly rounded, or bit-exact (integer, bit, move and comparison ops).
    Exact,
    /// Within this many ULP (`div` 2.5, taken up to 3 against the correctly rounded result;
    /// `sqrt`; `itof`, `utof` and `drcp`, whose rounding D3D leaves open).
    Ulp(u8),
    /// Relative error 2^-21 (`rcp`, `rsq`, `exp`).
    Rel21,
    /// `log`: relative error 2^-21, or absolute 2^-21 near 1.
    Log,
    /// `sincos`: absolute error 0.0008 within ±100π, none outside.
    SinCos,
    /// A fused or reassociated sum of products, bounded by this many rounding steps scaled by
    /// its terms (`mad`, `dp2`, `dp3`, `dp4`).
    Fused(u8),
    /// The level of detail, which devices approximate (`lod`).
    Lod,
}

/// A row's accuracy cell: `Exact` where the row has none.
macro_rules! accuracy {
    () => {
        Accuracy::Exact
    };
    ($($acc:tt)+) => {
        Accuracy::$($acc)+
    };
}

impl Num {
    const fn from_char(c: u8) -> Num {
        match c {
            b'f' => Num::Float,
            b'i' => Num::Int,
            b'u' => Num::Uint,
            b't' => Num::Typeless,
            b'd' => Num::Double,
            _ => Num::Reg,
        }
    }
}

/// Everything the crate knows about one opcode.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// The opcode this row describes.
    pub opcode: Opcode,
    /// fxc's stem (without `_z`/`_nz`, `_sat` or suffixes).
    pub mnemonic: &'static str,
    /// Leading operands that are written (memory objects of stores and atomics included).
    pub dst: u8,
    /// Remaining operands.
    pub src: u8,
    /// The lowest shader model that defines the opcode.
    pub model: Model,
    /// Coarse class of the operation.
    pub kind: Kind,
    /// Which control bits of OpcodeToken0 the opcode may set.
    pub ctl: Ctl,
    /// Semantic flags the interpreter and generators read.
    pub flags: Flags,
    /// What D3D11 requires of the result's accuracy (the judge's error band).
    pub accuracy: Accuracy,
    /// One letter per operand: f float, i int, u uint, t typeless, d double, r register only.
    types: &'static str,
}

impl OpInfo {
    /// Total operand count: destinations plus sources.
    pub const fn operand_count(&self) -> usize {
        self.dst as usize + self.src as usize
    }

    /// How immediates in operand `slot` (destinations first) are typed.
    pub fn num(&self, slot: usize) -> Num {
        self.types
            .as_bytes()
            .get(slot)
            .map_or(Num::Reg, |&c| Num::from_char(c))
    }

    /// Whether the opcode has every flag of `flags`.
    pub const fn has(&self, flags: Flags) -> bool {
        self.flags.has(flags)
    }

    /// Whether the opcode is a `dcl_*` declaration.
    pub const fn is_declaration(&self) -> bool {
        matches!(self.kind, Kind::Declaration)
    }

    /// Opcodes whose length may live in a second DWORD (tables longer than 127 words).
    pub const fn may_have_long_length(&self) -> bool {
        matches!(
            self.opcode,
            Opcode::DclFunctionBody
                | Opcode::DclFunctionTable
                | Opcode::DclInterface
                | Opcode::Fcall
                | Opcode::DclThreadGroup
        )
    }

    /// Raw DWORDs that precede the operands (the call-site index of `fcall`).
    pub const fn leading_dwords(&self) -> usize {
        if matches!(self.opcode, Opcode::Fcall) {
            1
        } else {
            0
        }
    }
}

macro_rules! opcodes {
    ($($num:literal $var:ident $mn:literal, $dst:literal, $src:literal, $model:ident, $kind:ident, $ctl:ident, $types:literal $([$($flag:ident)*])? $({$($acc:tt)*})?;)*) => {
        /// Every defined SM4.0–5.0 opcode (dxbc-format.md §5).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        pub enum Opcode {
            $(#[doc = concat!("`", $mn, "`, opcode ", stringify!($num), ".")] $var = $num,)*
        }

        /// The table, in opcode order.
        pub const TABLE: &[OpInfo] = &[
            $(OpInfo {
                opcode: Opcode::$var,
                mnemonic: $mn,
                dst: $dst,
                src: $src,
                model: Model::$model,
                kind: Kind::$kind,
                ctl: Ctl::$ctl,
                flags: Flags::NONE $($(.with(Flags::$flag))*)?,
                accuracy: accuracy!($($($acc)*)?),
                types: $types,
            },)*
        ];
    };
}

// Columns: number, variant, fxc stem, destinations, sources, model, kind, control bits, one
// type letter per operand, the op's [`Flags`], and its [`Accuracy`] where it is not exact.
opcodes! {
      0 Add                              "add", 1, 2, Sm40, AluFloat, Value, "fff" [CONTINUOUS KEEPS_ABSOLUTE FREES_NAN FOLDS_ZERO];
      1 And                              "and", 1, 2, Sm40, Bit, Value, "uuu";
      2 Break                            "break", 0, 0, Sm40, Flow, Plain, "";
      3 Breakc                           "breakc", 0, 1, Sm40, Flow, Test, "u";
      4 Call                             "call", 0, 1, Sm40, Flow, Plain, "u";
      5 Callc                            "callc", 0, 2, Sm40, Flow, Test, "uu";
      6 Case                             "case", 0, 1, Sm40, Flow, Plain, "u";
      7 Continue                         "continue", 0, 0, Sm40, Flow, Plain, "";
      8 Continuec                        "continuec", 0, 1, Sm40, Flow, Test, "u";
      9 Cut                              "cut", 0, 0, Sm40, Other, Plain, "";
     10 Default                          "default", 0, 0, Sm40, Flow, Plain, "";
     11 DerivRtx                         "deriv_rtx", 1, 1, Sm40, AluFloat, Value, "ff" [DERIVATIVE FREES_NAN];
     12 DerivRty                         "deriv_rty", 1, 1, Sm40, AluFloat, Value, "ff" [DERIVATIVE FREES_NAN];
     13 Discard                          "discard", 0, 1, Sm40, Flow, Test, "u";
     14 Div                              "div", 1, 2, Sm40, AluFloat, Value, "fff" [APPROXIMATE POLE CONTINUOUS FREES_NAN FOLDS_ZERO] {Ulp(3)};
     15 Dp2                              "dp2", 1, 2, Sm40, AluFloat, Value, "fff" [CONTINUOUS FREES_NAN FOLDS_ZERO FUSED] {Fused(3)};
     16 Dp3                              "dp3", 1, 2, Sm40, AluFloat, Value, "fff" [CONTINUOUS FREES_NAN FOLDS_ZERO FUSED] {Fused(4)};
     17 Dp4                              "dp4", 1, 2, Sm40, AluFloat, Value, "fff" [CONTINUOUS FREES_NAN FOLDS_ZERO FUSED] {Fused(5)};
     18 Else                             "else", 0, 0, Sm40, Flow, Plain, "";
     19 Emit                             "emit", 0, 0, Sm40, Other, Plain, "";
     20 EmitThenCut                      "emit_then_cut", 0, 0, Sm40, Other, Plain, "";
     21 Endif                            "endif", 0, 0, Sm40, Flow, Plain, "";
     22 Endloop                          "endloop", 0, 0, Sm40, Flow, Plain, "";
     23 Endswitch                        "endswitch", 0, 0, Sm40, Flow, Plain, "";
     24 Eq                               "eq", 1, 2, Sm40, Compare, Value, "uff";
     25 Exp                              "exp", 1, 1, Sm40, AluFloat, Value, "ff" [APPROXIMATE CONTINUOUS FREES_NAN] {Rel21};
     26 Frc                              "frc", 1, 1, Sm40, AluFloat, Value, "ff" [FREES_NAN];
     27 Ftoi                             "ftoi", 1, 1, Sm40, Conversion, Value, "if";
     28 Ftou                             "ftou", 1, 1, Sm40, Conversion, Value, "uf";
     29 Ge                               "ge", 1, 2, Sm40, Compare, Value, "uff";
     30 Iadd                             "iadd", 1, 2, Sm40, AluInt, Value, "iii";
     31 If                               "if", 0, 1, Sm40, Flow, Test, "u";
     32 Ieq                              "ieq", 1, 2, Sm40, Compare, Value, "uii";
     33 Ige                              "ige", 1, 2, Sm40, Compare, Value, "uii";
     34 Ilt                              "ilt", 1, 2, Sm40, Compare, Value, "uii";
     35 Imad                             "imad", 1, 3, Sm40, AluInt, Value, "iiii";
     36 Imax                             "imax", 1, 2, Sm40, AluInt, Value, "iii";
     37 Imin                             "imin", 1, 2, Sm40, AluInt, Value, "iii";
     38 Imul                             "imul", 2, 2, Sm40, AluInt, Value, "iiii";
     39 Ine                              "ine", 1, 2, Sm40, Compare, Value, "uii";
     40 Ineg                             "ineg", 1, 1, Sm40, AluInt, Value, "ii";
     41 Ishl                             "ishl", 1, 2, Sm40, Bit, Value, "iii";
     42 Ishr                             "ishr", 1, 2, Sm40, Bit, Value, "iii";
     43 Itof                             "itof", 1, 1, Sm40, Conversion, Value, "fi" {Ulp(1)};
     44 Label                            "label", 0, 1, Sm40, Flow, Plain, "u";
     45 Ld                               "ld", 1, 2, Sm40, Resource, Value, "tuu" [TYPED];
     46 Ldms                             "ldms", 1, 3, Sm40, Resource, Value, "tuuu" [TYPED];
     47 Log                              "log", 1, 1, Sm40, AluFloat, Value, "ff" [APPROXIMATE POLE CONTINUOUS FREES_NAN] {Log};
     48 Loop                             "loop", 0, 0, Sm40, Flow, Plain, "";
     49 Lt                               "lt", 1, 2, Sm40, Compare, Value, "uff";
     50 Mad                              "mad", 1, 3, Sm40, AluFloat, Value, "ffff" [CONTINUOUS FREES_NAN FOLDS_ZERO FUSED] {Fused(2)};
     51 Min                              "min", 1, 2, Sm40, AluFloat, Value, "fff" [CONTINUOUS KEEPS_ABSOLUTE FREES_NAN];
     52 Max                              "max", 1, 2, Sm40, AluFloat, Value, "fff" [CONTINUOUS KEEPS_ABSOLUTE FREES_NAN];
     53 Customdata                       "customdata", 0, 0, Sm40, Other, Plain, "";
     54 Mov                              "mov", 1, 1, Sm40, Other, Value, "tt" [CONTINUOUS KEEPS_ABSOLUTE MOVE];
     55 Movc                             "movc", 1, 3, Sm40, Other, Value, "tutt" [KEEPS_ABSOLUTE MOVE];
     56 Mul                              "mul", 1, 2, Sm40, AluFloat, Value, "fff" [CONTINUOUS FREES_NAN FOLDS_ZERO];
     57 Ne                               "ne", 1, 2, Sm40, Compare, Value, "uff";
     58 Nop                              "nop", 0, 0, Sm40, Other, Plain, "";
     59 Not                              "not", 1, 1, Sm40, Bit, Value, "uu";
     60 Or                               "or", 1, 2, Sm40, Bit, Value, "uuu";
     61 Resinfo                          "resinfo", 1, 2, Sm40, Resource, ResInfo, "fuu" [TYPED];
     62 Ret                              "ret", 0, 0, Sm40, Flow, Plain, "";
     63 Retc                             "retc", 0, 1, Sm40, Flow, Test, "u";
     64 RoundNe                          "round_ne", 1, 1, Sm40, AluFloat, Value, "ff" [FREES_NAN];
     65 RoundNi                          "round_ni", 1, 1, Sm40, AluFloat, Value, "ff" [FREES_NAN];
     66 RoundPi                          "round_pi", 1, 1, Sm40, AluFloat, Value, "ff" [FREES_NAN];
     67 RoundZ                           "round_z", 1, 1, Sm40, AluFloat, Value, "ff" [FREES_NAN];
     68 Rsq                              "rsq", 1, 1, Sm40, AluFloat, Value, "ff" [APPROXIMATE POLE CONTINUOUS FREES_NAN] {Rel21};
     69 Sample                           "sample", 1, 3, Sm40, Resource, Value, "ffuu" [TYPED FREES_NAN IMPLICIT_LOD];
     70 SampleC                          "sample_c", 1, 4, Sm40, Resource, Value, "ffuuf" [TYPED FREES_NAN IMPLICIT_LOD];
     71 SampleCLz                        "sample_c_lz", 1, 4, Sm40, Resource, Value, "ffuuf" [TYPED FREES_NAN];
     72 SampleL                          "sample_l", 1, 4, Sm40, Resource, Value, "ffuuf" [TYPED FREES_NAN];
     73 SampleD                          "sample_d", 1, 5, Sm40, Resource, Value, "ffuuff" [TYPED FREES_NAN];
     74 SampleB                          "sample_b", 1, 4, Sm40, Resource, Value, "ffuuf" [TYPED FREES_NAN IMPLICIT_LOD];
     75 Sqrt                             "sqrt", 1, 1, Sm40, AluFloat, Value, "ff" [APPROXIMATE CONTINUOUS FREES_NAN] {Ulp(1)};
     76 Switch                           "switch", 0, 1, Sm40, Flow, Plain, "u";
     77 Sincos                           "sincos", 2, 1, Sm40, AluFloat, Value, "fff" [APPROXIMATE CONTINUOUS FREES_NAN] {SinCos};
     78 Udiv                             "udiv", 2, 2, Sm40, AluUint, Value, "uuuu";
     79 Ult                              "ult", 1, 2, Sm40, Compare, Value, "uuu";
     80 Uge                              "uge", 1, 2, Sm40, Compare, Value, "uuu";
     81 Umul                             "umul", 2, 2, Sm40, AluUint, Value, "uuuu";
     82 Umad                             "umad", 1, 3, Sm40, AluUint, Value, "uuuu";
     83 Umax                             "umax", 1, 2, Sm40, AluUint, Value, "uuu";
     84 Umin                             "umin", 1, 2, Sm40, AluUint, Value, "uuu";
     85 Ushr                             "ushr", 1, 2, Sm40, Bit, Value, "uuu";
     86 Utof                             "utof", 1, 1, Sm40, Conversion, Value, "fu" {Ulp(1)};
     87 Xor                              "xor", 1, 2, Sm40, Bit, Value, "uuu";
     88 DclResource                      "dcl_resource", 1, 0, Sm40, Declaration, DclResource, "r";
     89 DclConstantbuffer                "dcl_constantbuffer", 1, 0, Sm40, Declaration, DclConstantBuffer, "r";
     90 DclSampler                       "dcl_sampler", 1, 0, Sm40, Declaration, DclSampler, "r";
     91 DclIndexrange                    "dcl_indexrange", 1, 0, Sm40, Declaration, Plain, "r";
     92 DclOutputtopology                "dcl_outputtopology", 0, 0, Sm40, Declaration, DclTopology, "";
     93 DclInputprimitive                "dcl_inputprimitive", 0, 0, Sm40, Declaration, DclPrimitive, "";
     94 DclMaxout                        "dcl_maxout", 0, 0, Sm40, Declaration, Plain, "";
     95 DclInput                         "dcl_input", 1, 0, Sm40, Declaration, Plain, "r";
     96 DclInputSgv                      "dcl_input_sgv", 1, 0, Sm40, Declaration, Plain, "r";
     97 DclInputSiv                      "dcl_input_siv", 1, 0, Sm40, Declaration, Plain, "r";
     98 DclInputPs                       "dcl_input_ps", 1, 0, Sm40, Declaration, DclInterpolation, "r";
     99 DclInputPsSgv                    "dcl_input_ps_sgv", 1, 0, Sm40, Declaration, DclInterpolation, "r";
    100 DclInputPsSiv                    "dcl_input_ps_siv", 1, 0, Sm40, Declaration, DclInterpolation, "r";
    101 DclOutput                        "dcl_output", 1, 0, Sm40, Declaration, Plain, "r";
    102 DclOutputSgv                     "dcl_output_sgv", 1, 0, Sm40, Declaration, Plain, "r";
    103 DclOutputSiv                     "dcl_output_siv", 1, 0, Sm40, Declaration, Plain, "r";
    104 DclTemps                         "dcl_temps", 0, 0, Sm40, Declaration, Plain, "";
    105 DclIndexableTemp                 "dcl_indexableTemp", 0, 0, Sm40, Declaration, Plain, "";
    106 DclGlobalFlags                   "dcl_globalFlags", 0, 0, Sm40, Declaration, DclGlobalFlags, "";
    108 Lod                              "lod", 1, 3, Sm41, Resource, Value, "ffuu" [TYPED IMPLICIT_LOD] {Lod};
    109 Gather4                          "gather4", 1, 3, Sm41, Resource, Value, "ffuu" [TYPED FREES_NAN];
    110 Samplepos                        "samplepos", 1, 2, Sm41, Resource, Value, "fuu" [TYPED];
    111 Sampleinfo                       "sampleinfo", 1, 1, Sm41, Resource, SampleInfo, "fu" [TYPED];
    113 HsDecls                          "hs_decls", 0, 0, Sm50, Other, Plain, "";
    114 HsControlPointPhase              "hs_control_point_phase", 0, 0, Sm50, Other, Plain, "";
    115 HsForkPhase                      "hs_fork_phase", 0, 0, Sm50, Other, Plain, "";
    116 HsJoinPhase                      "hs_join_phase", 0, 0, Sm50, Other, Plain, "";
    117 EmitStream                       "emit_stream", 0, 1, Sm50, Other, Plain, "u";
    118 CutStream                        "cut_stream", 0, 1, Sm50, Other, Plain, "u";
    119 EmitThenCutStream                "emit_then_cut_stream", 0, 1, Sm50, Other, Plain, "u";
    120 Fcall                            "fcall", 0, 1, Sm50, Flow, Plain, "u";
    121 Bufinfo                          "bufinfo", 1, 1, Sm50, Resource, Value, "uu" [BUFFER];
    122 DerivRtxCoarse                   "deriv_rtx_coarse", 1, 1, Sm50, AluFloat, Value, "ff" [DERIVATIVE FREES_NAN];
    123 DerivRtxFine                     "deriv_rtx_fine", 1, 1, Sm50, AluFloat, Value, "ff" [DERIVATIVE FREES_NAN];
    124 DerivRtyCoarse                   "deriv_rty_coarse", 1, 1, Sm50, AluFloat, Value, "ff" [DERIVATIVE FREES_NAN];
    125 DerivRtyFine                     "deriv_rty_fine", 1, 1, Sm50, AluFloat, Value, "ff" [DERIVATIVE FREES_NAN];
    126 Gather4C                         "gather4_c", 1, 4, Sm50, Resource, Value, "ffuuf" [TYPED FREES_NAN];
    127 Gather4Po                        "gather4_po", 1, 4, Sm50, Resource, Value, "ffiuu" [TYPED FREES_NAN];
    128 Gather4PoC                       "gather4_po_c", 1, 5, Sm50, Resource, Value, "ffiuuf" [TYPED FREES_NAN];
    129 Rcp                              "rcp", 1, 1, Sm50, AluFloat, Value, "ff" [APPROXIMATE POLE CONTINUOUS FREES_NAN] {Rel21};
    130 F32tof16                         "f32tof16", 1, 1, Sm50, Conversion, Value, "uf";
    131 F16tof32                         "f16tof32", 1, 1, Sm50, Conversion, Value, "fu" [FREES_NAN];
    132 Uaddc                            "uaddc", 2, 2, Sm50, AluUint, Value, "uuuu";
    133 Usubb                            "usubb", 2, 2, Sm50, AluUint, Value, "uuuu";
    134 Countbits                        "countbits", 1, 1, Sm50, Bit, Value, "uu";
    135 FirstbitHi                       "firstbit_hi", 1, 1, Sm50, Bit, Value, "uu";
    136 FirstbitLo                       "firstbit_lo", 1, 1, Sm50, Bit, Value, "uu";
    137 FirstbitShi                      "firstbit_shi", 1, 1, Sm50, Bit, Value, "ui";
    138 Ubfe                             "ubfe", 1, 3, Sm50, Bit, Value, "uuuu";
    139 Ibfe                             "ibfe", 1, 3, Sm50, Bit, Value, "iiii";
    140 Bfi                              "bfi", 1, 4, Sm50, Bit, Value, "uuuuu";
    141 Bfrev                            "bfrev", 1, 1, Sm50, Bit, Value, "uu";
    142 Swapc                            "swapc", 2, 3, Sm50, Other, Value, "ttutt" [KEEPS_ABSOLUTE MOVE];
    143 DclStream                        "dcl_stream", 1, 0, Sm50, Declaration, Plain, "r";
    144 DclFunctionBody                  "dcl_function_body", 0, 0, Sm50, Declaration, Plain, "";
    145 DclFunctionTable                 "dcl_function_table", 0, 0, Sm50, Declaration, Plain, "";
    146 DclInterface                     "dcl_interface", 0, 0, Sm50, Declaration, DclInterface, "";
    147 DclInputControlPointCount        "dcl_input_control_point_count", 0, 0, Sm50, Declaration, DclControlPointCount, "";
    148 DclOutputControlPointCount       "dcl_output_control_point_count", 0, 0, Sm50, Declaration, DclControlPointCount, "";
    149 DclTessellatorDomain             "dcl_tessellator_domain", 0, 0, Sm50, Declaration, DclTessDomain, "";
    150 DclTessellatorPartitioning       "dcl_tessellator_partitioning", 0, 0, Sm50, Declaration, DclTessPartitioning, "";
    151 DclTessellatorOutputPrimitive    "dcl_tessellator_output_primitive", 0, 0, Sm50, Declaration, DclTessOutputPrimitive, "";
    152 DclHsMaxTessfactor               "dcl_hs_max_tessfactor", 0, 0, Sm50, Declaration, Plain, "";
    153 DclHsForkPhaseInstanceCount      "dcl_hs_fork_phase_instance_count", 0, 0, Sm50, Declaration, Plain, "";
    154 DclHsJoinPhaseInstanceCount      "dcl_hs_join_phase_instance_count", 0, 0, Sm50, Declaration, Plain, "";
    155 DclThreadGroup                   "dcl_thread_group", 0, 0, Sm50, Declaration, Plain, "";
    156 DclUavTyped                      "dcl_uav_typed", 1, 0, Sm50, Declaration, DclUavTyped, "r";
    157 DclUavRaw                        "dcl_uav_raw", 1, 0, Sm50, Declaration, DclUavRaw, "r";
    158 DclUavStructured                 "dcl_uav_structured", 1, 0, Sm50, Declaration, DclUavStructured, "r";
    159 DclTgsmRaw                       "dcl_tgsm_raw", 1, 0, Sm50, Declaration, Plain, "r";
    160 DclTgsmStructured                "dcl_tgsm_structured", 1, 0, Sm50, Declaration, Plain, "r";
    161 DclResourceRaw                   "dcl_resource_raw", 1, 0, Sm50, Declaration, Plain, "r";
    162 DclResourceStructured            "dcl_resource_structured", 1, 0, Sm50, Declaration, Plain, "r";
    163 LdUavTyped                       "ld_uav_typed", 1, 2, Sm50, Resource, Value, "tuu" [TYPED];
    164 StoreUavTyped                    "store_uav_typed", 1, 2, Sm50, Resource, Plain, "uut" [TYPED];
    165 LdRaw                            "ld_raw", 1, 2, Sm50, Resource, Value, "tuu" [BUFFER];
    166 StoreRaw                         "store_raw", 1, 2, Sm50, Resource, Plain, "uut" [BUFFER];
    167 LdStructured                     "ld_structured", 1, 3, Sm50, Resource, Value, "tuuu" [BUFFER];
    168 StoreStructured                  "store_structured", 1, 3, Sm50, Resource, Plain, "uuut" [BUFFER];
    169 AtomicAnd                        "atomic_and", 1, 2, Sm50, Atomic, Plain, "uuu" [BUFFER COMMUTATIVE];
    170 AtomicOr                         "atomic_or", 1, 2, Sm50, Atomic, Plain, "uuu" [BUFFER COMMUTATIVE];
    171 AtomicXor                        "atomic_xor", 1, 2, Sm50, Atomic, Plain, "uuu" [BUFFER COMMUTATIVE];
    172 AtomicCmpStore                   "atomic_cmp_store", 1, 3, Sm50, Atomic, Plain, "uuuu" [BUFFER];
    173 AtomicIadd                       "atomic_iadd", 1, 2, Sm50, Atomic, Plain, "uui" [BUFFER COMMUTATIVE];
    174 AtomicImax                       "atomic_imax", 1, 2, Sm50, Atomic, Plain, "uui" [BUFFER COMMUTATIVE];
    175 AtomicImin                       "atomic_imin", 1, 2, Sm50, Atomic, Plain, "uui" [BUFFER COMMUTATIVE];
    176 AtomicUmax                       "atomic_umax", 1, 2, Sm50, Atomic, Plain, "uuu" [BUFFER COMMUTATIVE];
    177 AtomicUmin                       "atomic_umin", 1, 2, Sm50, Atomic, Plain, "uuu" [BUFFER COMMUTATIVE];
    178 ImmAtomicAlloc                   "imm_atomic_alloc", 2, 0, Sm50, Atomic, Value, "uu" [BUFFER];
    179 ImmAtomicConsume                 "imm_atomic_consume", 2, 0, Sm50, Atomic, Value, "uu" [BUFFER];
    180 ImmAtomicIadd                    "imm_atomic_iadd", 2, 2, Sm50, Atomic, Value, "iuui" [BUFFER COMMUTATIVE];
    181 ImmAtomicAnd                     "imm_atomic_and", 2, 2, Sm50, Atomic, Value, "uuuu" [BUFFER COMMUTATIVE];
    182 ImmAtomicOr                      "imm_atomic_or", 2, 2, Sm50, Atomic, Value, "uuuu" [BUFFER COMMUTATIVE];
    183 ImmAtomicXor                     "imm_atomic_xor", 2, 2, Sm50, Atomic, Value, "uuuu" [BUFFER COMMUTATIVE];
    184 ImmAtomicExch                    "imm_atomic_exch", 2, 2, Sm50, Atomic, Value, "uuuu" [BUFFER];
    185 ImmAtomicCmpExch                 "imm_atomic_cmp_exch", 2, 3, Sm50, Atomic, Value, "uuuuu" [BUFFER];
    186 ImmAtomicImax                    "imm_atomic_imax", 2, 2, Sm50, Atomic, Value, "iuui" [BUFFER COMMUTATIVE];
    187 ImmAtomicImin                    "imm_atomic_imin", 2, 2, Sm50, Atomic, Value, "iuui" [BUFFER COMMUTATIVE];
    188 ImmAtomicUmax                    "imm_atomic_umax", 2, 2, Sm50, Atomic, Value, "uuuu" [BUFFER COMMUTATIVE];
    189 ImmAtomicUmin                    "imm_atomic_umin", 2, 2, Sm50, Atomic, Value, "uuuu" [BUFFER COMMUTATIVE];
    190 Sync                             "sync", 0, 0, Sm50, Sync, Sync, "";
    191 Dadd                             "dadd", 1, 2, Sm50, Double, Value, "ddd" [FREES_NAN];
    192 Dmax                             "dmax", 1, 2, Sm50, Double, Value, "ddd" [FREES_NAN];
    193 Dmin                             "dmin", 1, 2, Sm50, Double, Value, "ddd" [FREES_NAN];
    194 Dmul                             "dmul", 1, 2, Sm50, Double, Value, "ddd" [FREES_NAN];
    195 Deq                              "deq", 1, 2, Sm50, Double, Value, "udd";
    196 Dge                              "dge", 1, 2, Sm50, Double, Value, "udd";
    197 Dlt                              "dlt", 1, 2, Sm50, Double, Value, "udd";
    198 Dne                              "dne", 1, 2, Sm50, Double, Value, "udd";
    199 Dmov                             "dmov", 1, 1, Sm50, Double, Value, "dd";
    200 Dmovc                            "dmovc", 1, 3, Sm50, Double, Value, "dudd";
    201 Dtof                             "dtof", 1, 1, Sm50, Double, Value, "fd" [FREES_NAN];
    202 Ftod                             "ftod", 1, 1, Sm50, Double, Value, "df" [FREES_NAN];
    203 EvalSnapped                      "eval_snapped", 1, 2, Sm50, Other, Value, "ffi";
    204 EvalSampleIndex                  "eval_sample_index", 1, 2, Sm50, Other, Value, "ffu";
    205 EvalCentroid                     "eval_centroid", 1, 1, Sm50, Other, Value, "ff";
    206 DclGsinstances                   "dcl_gsinstances", 0, 0, Sm50, Declaration, Plain, "";
    207 Abort                            "abort", 0, 0, Sm50, Other, Plain, "";
    208 DebugBreak                       "debug_break", 0, 0, Sm50, Other, Plain, "";
    210 Ddiv                             "ddiv", 1, 2, Sm50D3d111, Double, Value, "ddd" [FREES_NAN];
    211 Dfma                             "dfma", 1, 3, Sm50D3d111, Double, Value, "dddd" [FREES_NAN];
    212 Drcp                             "drcp", 1, 1, Sm50D3d111, Double, Value, "dd" [FREES_NAN] {Ulp(1)};
    213 Msad                             "msad", 1, 3, Sm50D3d111, AluUint, Value, "uuuu";
    214 Dtoi                             "dtoi", 1, 1, Sm50D3d111, Double, Value, "id";
    215 Dtou                             "dtou", 1, 1, Sm50D3d111, Double, Value, "ud";
    216 Itod                             "itod", 1, 1, Sm50D3d111, Double, Value, "di";
    217 Utod                             "utod", 1, 1, Sm50D3d111, Double, Value, "du";
    219 Gather4S                         "gather4_s", 2, 3, Sm50D3d112, Resource, Value, "fufuu" [TYPED];
    220 Gather4CS                        "gather4_c_s", 2, 4, Sm50D3d112, Resource, Value, "fufuuf" [TYPED];
    221 Gather4PoS                       "gather4_po_s", 2, 4, Sm50D3d112, Resource, Value, "fufiuu" [TYPED];
    222 Gather4PoCS                      "gather4_po_c_s", 2, 5, Sm50D3d112, Resource, Value, "fufiuuf" [TYPED];
    223 LdS                              "ld_s", 2, 2, Sm50D3d112, Resource, Value, "tuuu" [TYPED];
    224 LdmsS                            "ldms_s", 2, 3, Sm50D3d112, Resource, Value, "tuuuu" [TYPED];
    225 LdUavTypedS                      "ld_uav_typed_s", 2, 2, Sm50D3d112, Resource, Value, "tuuu" [TYPED];
    226 LdRawS                           "ld_raw_s", 2, 2, Sm50D3d112, Resource, Value, "tuuu" [BUFFER];
    227 LdStructuredS                    "ld_structured_s", 2, 3, Sm50D3d112, Resource, Value, "tuuuu" [BUFFER];
    228 SampleLS                         "sample_l_s", 2, 4, Sm50D3d112, Resource, Value, "fufuuf" [TYPED];
    229 SampleCLzS                       "sample_c_lz_s", 2, 4, Sm50D3d112, Resource, Value, "fufuuf" [TYPED];
    230 SampleClS                        "sample_cl_s", 2, 4, Sm50D3d112, Resource, Value, "fufuuf" [TYPED];
    231 SampleBClS                       "sample_b_cl_s", 2, 5, Sm50D3d112, Resource, Value, "fufuuff" [TYPED];
    232 SampleDClS                       "sample_d_cl_s", 2, 6, Sm50D3d112, Resource, Value, "fufuufff" [TYPED];
    233 SampleCClS                       "sample_c_cl_s", 2, 5, Sm50D3d112, Resource, Value, "fufuuff" [TYPED];
    234 CheckAccessFullyMapped           "check_access_fully_mapped", 1, 1, Sm50D3d112, Resource, Value, "uu" [TYPED];
}

const INDEX_LEN: usize = 256;
const NO_ENTRY: u8 = u8::MAX;

/// Opcode number -> position in [`TABLE`], built at compile time.
const INDEX: [u8; INDEX_LEN] = {
    let mut index = [NO_ENTRY; INDEX_LEN];
    let mut i = 0;
    while i < TABLE.len() {
        index[TABLE[i].opcode as usize] = i as u8;
        i += 1;
    }
    index
};

static BY_MNEMONIC: LazyLock<HashMap<&'static str, Opcode>> = LazyLock::new(|| {
    TABLE
        .iter()
        .map(|info| (info.mnemonic, info.opcode))
        .collect()
});

impl Opcode {
    /// The opcode with this number, if one is defined.
    pub fn from_number(number: u32) -> Option<Opcode> {
        let slot = *INDEX.get(usize::try_from(number).ok()?)?;
        (slot != NO_ENTRY).then(|| TABLE[slot as usize].opcode)
    }

    /// The opcode whose fxc stem is `mnemonic` (exact, lower-case forms as in the table).
    pub fn from_mnemonic(mnemonic: &str) -> Option<Opcode> {
        BY_MNEMONIC.get(mnemonic).copied()
    }

    /// Case-insensitive lookup of an fxc stem (listings vary in case).
    pub fn from_mnemonic_ci(mnemonic: &str) -> Option<Opcode> {
        TABLE
            .iter()
            .find(|i| i.mnemonic.eq_ignore_ascii_case(mnemonic))
            .map(|i| i.opcode)
    }

    /// The opcode's row in [`TABLE`].
    pub fn info(self) -> &'static OpInfo {
        &TABLE[INDEX[self as usize] as usize]
    }

    /// fxc's mnemonic stem, e.g. `add` or `dcl_temps`.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }

    /// The opcode number as encoded in OpcodeToken0 bits 0..=10.
    pub const fn number(self) -> u32 {
        self as u32
    }

    /// `dcl_input`, `dcl_input_ps` and their `_sgv`/`_siv` forms: declarations of a stage input.
    pub const fn declares_input(self) -> bool {
        matches!(
            self,
            Opcode::DclInput
                | Opcode::DclInputSgv
                | Opcode::DclInputSiv
                | Opcode::DclInputPs
                | Opcode::DclInputPsSgv
                | Opcode::DclInputPsSiv
        )
    }

    /// `dcl_output` and its `_sgv`/`_siv` forms: declarations of a stage output.
    pub const fn declares_output(self) -> bool {
        matches!(
            self,
            Opcode::DclOutput | Opcode::DclOutputSgv | Opcode::DclOutputSiv
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_ordered_and_complete() {
        assert_eq!(TABLE.len(), 231);
        for pair in TABLE.windows(2) {
            assert!(pair[0].opcode < pair[1].opcode);
        }
        for info in TABLE {
            assert_eq!(Opcode::from_number(info.opcode as u32), Some(info.opcode));
            assert_eq!(Opcode::from_mnemonic(info.mnemonic), Some(info.opcode));
            assert_eq!(info.types.len(), info.operand_count(), "{}", info.mnemonic);
        }
        for reserved in [107, 112, 209, 218, 235, 2047] {
            assert_eq!(Opcode::from_number(reserved), None);
        }
    }

    /// The flag columns agree with each other and with the kinds.
    #[test]
    fn flags_are_consistent() {
        for i in TABLE {
            let f = i.flags;
            let m = i.mnemonic;
            assert!(!(f.has(Flags::BUFFER) && f.has(Flags::TYPED)), "{m}");
            assert_eq!(
                f.has(Flags::BUFFER) || f.has(Flags::TYPED),
                matches!(i.kind, Kind::Resource | Kind::Atomic),
                "{m}"
            );
            if f.has(Flags::APPROXIMATE) {
                assert!(f.has(Flags::CONTINUOUS) && f.has(Flags::FREES_NAN), "{m}");
            }
            if f.has(Flags::POLE) {
                assert!(f.has(Flags::APPROXIMATE), "{m}");
            }
            if f.has(Flags::FUSED) || f.has(Flags::FOLDS_ZERO) {
                assert!(i.kind == Kind::AluFloat && f.has(Flags::CONTINUOUS), "{m}");
            }
            if f.has(Flags::MOVE) {
                assert!(!f.has(Flags::FREES_NAN), "{m}: a copy keeps its bits");
            }
            if f.has(Flags::COMMUTATIVE) {
                assert_eq!(i.kind, Kind::Atomic, "{m}");
            }
        }
        let count = |f: Flags| TABLE.iter().filter(|i| i.has(f)).count();
        assert_eq!(count(Flags::APPROXIMATE), 7);
        assert_eq!(count(Flags::FUSED), 4);
        assert_eq!(count(Flags::DERIVATIVE), 6);
    }
}
