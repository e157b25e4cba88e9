//! Named views of declaration payloads and opcode control fields, so that callers read
//! `inst.resource_dimension()` instead of `inst.field(11, 5)`, and [`SystemValue`], the
//! `D3D10_SB_NAME` of `_sgv`/`_siv` declarations.
//!
//! Each accessor checks the opcode it belongs to and the payload's shape, and returns `None`
//! otherwise, so a malformed declaration reads as absent rather than as a wrong number.

use crate::ir::{Instruction, Operand, OperandType};
use crate::names;
use crate::opcodes::Opcode;

fn bits(inst: &Instruction, shift: u32, width: u32) -> u32 {
    inst.field(shift, width)
}

impl Instruction {
    /// Whether this is one of `ops`.
    fn is(&self, ops: &[Opcode]) -> bool {
        ops.contains(&self.opcode)
    }

    /// The single payload word of `dcl_temps`, `dcl_maxout`, `dcl_gsinstances`, ...
    fn single(&self, op: Opcode) -> Option<u32> {
        match self.trailing.as_slice() {
            [v] if self.opcode == op => Some(*v),
            _ => None,
        }
    }

    /// The declared operand of a one-operand declaration.
    pub fn declared_operand(&self) -> Option<&Operand> {
        if self.info().is_declaration() {
            self.operands.first()
        } else {
            None
        }
    }

    /// `dcl_temps N`: N.
    pub fn temps_count(&self) -> Option<u32> {
        self.single(Opcode::DclTemps)
    }

    /// `dcl_indexableTemp x#[n], c`: (#, n, c).
    pub fn indexable_temp(&self) -> Option<(u32, u32, u32)> {
        match self.trailing.as_slice() {
            [id, len, comps] if self.opcode == Opcode::DclIndexableTemp => {
                Some((*id, *len, *comps))
            }
            _ => None,
        }
    }

    /// `dcl_thread_group x, y, z`.
    pub fn thread_group(&self) -> Option<[u32; 3]> {
        match self.trailing.as_slice() {
            [x, y, z] if self.opcode == Opcode::DclThreadGroup => Some([*x, *y, *z]),
            _ => None,
        }
    }

    /// `dcl_maxout N`.
    pub fn max_output_vertices(&self) -> Option<u32> {
        self.single(Opcode::DclMaxout)
    }

    /// `dcl_gsinstances N`.
    pub fn gs_instances(&self) -> Option<u32> {
        self.single(Opcode::DclGsinstances)
    }

    /// `dcl_indexrange v#/o# N`: N.
    pub fn index_range_count(&self) -> Option<u32> {
        self.single(Opcode::DclIndexrange)
    }

    /// Bytes a `dcl_tgsm_raw` or `dcl_tgsm_structured` declares (stride * count), as u64 so a
    /// hostile product cannot wrap.
    pub fn tgsm_bytes(&self) -> Option<u64> {
        match (self.opcode, self.trailing.as_slice()) {
            (Opcode::DclTgsmRaw, [bytes]) => Some(u64::from(*bytes)),
            (Opcode::DclTgsmStructured, [stride, count]) => {
                Some(u64::from(*stride) * u64::from(*count))
            }
            _ => None,
        }
    }

    /// The structure stride of `dcl_resource_structured`, `dcl_uav_structured` and
    /// `dcl_tgsm_structured`.
    pub fn structure_stride(&self) -> Option<u32> {
        let structured = [
            Opcode::DclResourceStructured,
            Opcode::DclUavStructured,
            Opcode::DclTgsmStructured,
        ];
        if self.is(&structured) {
            self.trailing.first().copied()
        } else {
            None
        }
    }

    /// The system value of a `_sgv`/`_siv` input or output declaration; `None` also for a
    /// number past the table (see [`Instruction::system_value_name`] to keep it).
    pub fn system_value(&self) -> Option<SystemValue> {
        match self.system_value_name()? {
            SystemValueName::Known(sv) => Some(sv),
            SystemValueName::Other(_) => None,
        }
    }

    /// The `D3D10_SB_NAME` token of a `_sgv`/`_siv` declaration, unknown numbers included, so
    /// a caller can reject one by its number.
    pub fn system_value_name(&self) -> Option<SystemValueName> {
        let with_name = [
            Opcode::DclInputSgv,
            Opcode::DclInputSiv,
            Opcode::DclInputPsSgv,
            Opcode::DclInputPsSiv,
            Opcode::DclOutputSgv,
            Opcode::DclOutputSiv,
        ];
        match self.trailing.as_slice() {
            [v] if self.is(&with_name) => Some(SystemValueName::from_number(*v)),
            _ => None,
        }
    }

    /// The return-type token of `dcl_resource`/`dcl_uav_typed` (4 bits per component).
    pub fn return_type_token(&self) -> Option<u32> {
        if self.is(&[Opcode::DclResource, Opcode::DclUavTyped]) {
            self.trailing.first().copied()
        } else {
            None
        }
    }

    /// The return type of each component (x, y, z, w) of `dcl_resource`/`dcl_uav_typed` (the
    /// payload word; [`Instruction::return_types`] is the extended opcode of a load).
    pub fn declared_return_types(&self) -> Option<[ReturnType; 4]> {
        let token = self.return_type_token()?;
        Some([0, 4, 8, 12].map(|shift| ReturnType::from_number((token >> shift) & 0xF)))
    }

    /// The declared size of `dcl_constantbuffer` in vec4 rows (0 = not stated), SM5.0's second
    /// index; SM5.1 keeps it in the payload.
    pub fn constant_buffer_rows(&self, sm51: bool) -> Option<u64> {
        if self.opcode != Opcode::DclConstantbuffer {
            return None;
        }
        if sm51 {
            self.trailing.first().map(|v| u64::from(*v))
        } else {
            self.operands.first()?.indices.get(1)?.immediate()
        }
    }

    // ---- control fields (OpcodeToken0 bits 11..=23) ----

    /// `dcl_resource`/`dcl_uav_typed` dimension.
    pub fn resource_dimension(&self) -> Option<ResourceDimension> {
        self.is(&[Opcode::DclResource, Opcode::DclUavTyped])
            .then(|| ResourceDimension::from_number(bits(self, 11, 5)))
    }

    /// Sample count of a multisampled `dcl_resource`.
    pub fn sample_count(&self) -> Option<u32> {
        (self.opcode == Opcode::DclResource).then(|| bits(self, 16, 7))
    }

    /// Interpolation mode of `dcl_input_ps*`.
    pub fn interpolation_mode(&self) -> Option<InterpolationMode> {
        let ps = [
            Opcode::DclInputPs,
            Opcode::DclInputPsSgv,
            Opcode::DclInputPsSiv,
        ];
        self.is(&ps)
            .then(|| InterpolationMode::from_number(bits(self, 11, 4)))
    }

    /// `dcl_sampler` mode.
    pub fn sampler_mode(&self) -> Option<SamplerMode> {
        (self.opcode == Opcode::DclSampler).then(|| SamplerMode::from_number(bits(self, 11, 4)))
    }

    /// `dcl_constantbuffer ..., dynamicIndexed`.
    pub fn is_dynamically_indexed(&self) -> bool {
        self.is(&[Opcode::DclConstantbuffer, Opcode::DclInterface]) && bits(self, 11, 1) == 1
    }

    /// `resinfo`'s return type.
    pub fn resinfo_return_type(&self) -> Option<ResinfoReturnType> {
        (self.opcode == Opcode::Resinfo).then(|| ResinfoReturnType::from_number(bits(self, 11, 2)))
    }

    /// The results of a double-precision instruction and what each reads (FS §22.15): a
    /// double result fills `.xy` and/or `.zw` (the pairs its mask touches), the k-th reading
    /// the k-th of them of each double source; a 32-bit result (the comparisons, `dtof`,
    /// `dtoi`, `dtou`) fills each masked component in turn, the k-th reading words 2k and
    /// 2k + 1. A widening conversion's 32-bit source is its component k, `dmovc`'s condition
    /// the component beside its double. Empty for other instructions. One statement of the
    /// layout, for the reference and the translator alike.
    pub fn double_slots(&self) -> Vec<DoubleSlot> {
        use Opcode::*;
        if self.info().kind != crate::opcodes::Kind::Double {
            return Vec::new();
        }
        let mask = match self.operands.first().map(|o| o.components) {
            Some(crate::Components::Four(crate::Selection::Mask(m))) => m,
            _ => 0xf,
        };
        let widening = matches!(self.opcode, Ftod | Itod | Utod);
        if self.writes_double() {
            [[0usize, 1], [2, 3]]
                .into_iter()
                .filter(|p| mask & (1 << p[0] | 1 << p[1]) != 0)
                .enumerate()
                .map(|(k, [lo, hi])| DoubleSlot {
                    dst: vec![lo, hi],
                    lo,
                    hi,
                    word: if widening { k } else { lo },
                })
                .collect()
        } else {
            (0..4)
                .filter(|c| mask & (1 << c) != 0)
                .enumerate()
                .map(|(k, c)| DoubleSlot {
                    dst: vec![c],
                    lo: (2 * k).min(3),
                    hi: (2 * k + 1).min(3),
                    word: k,
                })
                .collect()
        }
    }

    /// Whether a double-precision instruction's result is a double (in register pairs), not a
    /// 32-bit value (the comparisons, `dtof`, `dtoi`, `dtou`).
    pub fn writes_double(&self) -> bool {
        use Opcode::*;
        self.info().kind == crate::opcodes::Kind::Double
            && !matches!(self.opcode, Deq | Dge | Dlt | Dne | Dtof | Dtoi | Dtou)
    }

    /// The source components (through each source's swizzle) a double-precision instruction
    /// reads, as a mask ([`Instruction::double_slots`]).
    pub fn double_source_mask(&self) -> u8 {
        let widening = matches!(self.opcode, Opcode::Ftod | Opcode::Itod | Opcode::Utod);
        self.double_slots().iter().fold(0, |m, s| {
            if widening {
                m | 1 << s.word
            } else {
                m | 1 << s.lo | 1 << s.hi
            }
        })
    }

    /// The `u#` whose hidden counter an `imm_atomic_alloc` or `imm_atomic_consume` steps (its
    /// second operand); `None` for any other instruction.
    pub fn counter_uav(&self) -> Option<u32> {
        if !matches!(
            self.opcode,
            Opcode::ImmAtomicAlloc | Opcode::ImmAtomicConsume
        ) {
            return None;
        }
        let op = self.operands.get(1)?;
        (op.ty == OperandType::UnorderedAccessView)
            .then(|| op.indices.first()?.immediate())
            .flatten()
            .map(|s| s as u32)
    }

    /// `sampleinfo_uint`.
    pub fn is_sampleinfo_uint(&self) -> bool {
        self.opcode == Opcode::Sampleinfo && bits(self, 11, 1) == 1
    }

    fn uav_flag(&self, bit: u32) -> bool {
        let uav = [
            Opcode::DclUavTyped,
            Opcode::DclUavRaw,
            Opcode::DclUavStructured,
        ];
        self.is(&uav) && bits(self, bit, 1) == 1
    }

    /// `_glc`: a globally coherent UAV.
    pub fn is_globally_coherent(&self) -> bool {
        self.uav_flag(16)
    }

    /// `_rov`: a rasterizer-ordered UAV.
    pub fn is_rasterizer_ordered(&self) -> bool {
        self.uav_flag(17)
    }

    /// `_opc`: a structured UAV with an order-preserving counter.
    pub fn has_order_preserving_counter(&self) -> bool {
        self.opcode == Opcode::DclUavStructured && bits(self, 23, 1) == 1
    }

    /// `dcl_globalFlags` bits, bit 0 = `refactoringAllowed` (names::GLOBAL_FLAGS).
    pub fn global_flags(&self) -> Option<u32> {
        (self.opcode == Opcode::DclGlobalFlags).then_some(self.controls >> 11)
    }

    /// `dcl_globalFlags refactoringAllowed`.
    pub fn is_refactoring_allowed(&self) -> bool {
        self.global_flags().is_some_and(|f| f & 1 != 0)
    }

    /// `dcl_outputtopology` (names::OUTPUT_TOPOLOGIES).
    pub fn output_topology(&self) -> Option<u32> {
        (self.opcode == Opcode::DclOutputtopology).then(|| bits(self, 11, 7))
    }

    /// `dcl_inputprimitive` (names::input_primitive).
    pub fn input_primitive(&self) -> Option<u32> {
        (self.opcode == Opcode::DclInputprimitive).then(|| bits(self, 11, 6))
    }

    /// `dcl_input_control_point_count` / `dcl_output_control_point_count`.
    pub fn control_point_count(&self) -> Option<u32> {
        let ops = [
            Opcode::DclInputControlPointCount,
            Opcode::DclOutputControlPointCount,
        ];
        self.is(&ops).then(|| bits(self, 11, 6))
    }

    /// `dcl_tessellator_domain` (names::TESS_DOMAINS).
    pub fn tess_domain(&self) -> Option<u32> {
        (self.opcode == Opcode::DclTessellatorDomain).then(|| bits(self, 11, 2))
    }

    /// `dcl_tessellator_partitioning` (names::TESS_PARTITIONINGS).
    pub fn tess_partitioning(&self) -> Option<u32> {
        (self.opcode == Opcode::DclTessellatorPartitioning).then(|| bits(self, 11, 3))
    }

    /// `dcl_tessellator_output_primitive` (names::TESS_OUTPUT_PRIMITIVES).
    pub fn tess_output_primitive(&self) -> Option<u32> {
        (self.opcode == Opcode::DclTessellatorOutputPrimitive).then(|| bits(self, 11, 3))
    }

    /// `sync` flags: bit 0 threads, 1 TGSM fence, 2 UAV group fence, 3 UAV global fence.
    pub fn sync_flags(&self) -> Option<u32> {
        (self.opcode == Opcode::Sync).then(|| bits(self, 11, 4))
    }
}

/// An enumeration of the token stream that stores any number the field can hold: a value the
/// format does not define decodes as `Other(n)`, so decoding never fails and `number` gives the
/// bits back exactly.
macro_rules! token_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $n:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
            /// A number the format does not define.
            Other(u32),
        }

        impl $name {
            /// The variant for a field value; a value the format does not define is `Other(n)`.
            pub const fn from_number(n: u32) -> $name {
                match n {
                    $($n => $name::$variant,)*
                    other => $name::Other(other),
                }
            }

            /// The field value this variant encodes as.
            pub const fn number(self) -> u32 {
                match self {
                    $($name::$variant => $n,)*
                    $name::Other(n) => n,
                }
            }
        }
    };
}

token_enum! {
    /// `D3D10_SB_RESOURCE_DIMENSION` of `dcl_resource`/`dcl_uav_typed` (spelled by
    /// [`names::RESOURCE_DIMENSIONS`]).
    ResourceDimension {
        /// 0: no dimension declared.
        Unknown = 0,
        /// 1: a typed buffer (`Buffer<T>`).
        Buffer = 1,
        /// 2: a 1D texture.
        Texture1d = 2,
        /// 3: a 2D texture.
        Texture2d = 3,
        /// 4: a multisampled 2D texture; the sample count is a separate field.
        Texture2dMs = 4,
        /// 5: a 3D (volume) texture.
        Texture3d = 5,
        /// 6: a cube texture.
        TextureCube = 6,
        /// 7: an array of 1D textures.
        Texture1dArray = 7,
        /// 8: an array of 2D textures.
        Texture2dArray = 8,
        /// 9: an array of multisampled 2D textures.
        Texture2dMsArray = 9,
        /// 10: an array of cube textures (SM4.1+).
        TextureCubeArray = 10,
        /// 11: a byte-addressed buffer (SM5).
        RawBuffer = 11,
        /// 12: a buffer of fixed-stride structures (SM5).
        StructuredBuffer = 12,
    }
}

token_enum! {
    /// `D3D10_SB_RESOURCE_RETURN_TYPE` of one component (spelled by [`names::RETURN_TYPES`]).
    ReturnType {
        /// 1: unsigned normalized, read as a float in 0..=1.
        Unorm = 1,
        /// 2: signed normalized, read as a float in -1..=1.
        Snorm = 2,
        /// 3: signed 32-bit integer.
        Sint = 3,
        /// 4: unsigned 32-bit integer.
        Uint = 4,
        /// 5: 32-bit float.
        Float = 5,
        /// 6: mixed, for resources whose components differ (raw or structured data).
        Mixed = 6,
        /// 7: 64-bit double, split over two components.
        Double = 7,
        /// 8: the second half of the preceding `Double` component.
        Continued = 8,
        /// 9: the component is not returned.
        Unused = 9,
    }
}

token_enum! {
    /// `resinfo`'s return type suffix.
    ResinfoReturnType {
        /// No suffix: sizes as floats.
        Float = 0,
        /// `_rcpFloat`: reciprocal sizes.
        RcpFloat = 1,
        /// `_uint`.
        Uint = 2,
    }
}

token_enum! {
    /// `D3D10_SB_INTERPOLATION_MODE` of `dcl_input_ps*` (spelled by
    /// [`names::INTERPOLATION_MODES`]).
    InterpolationMode {
        /// 0: no mode (inputs that are not interpolated, such as system values).
        Undefined = 0,
        /// 1: `constant`, no interpolation: the provoking vertex's value.
        Constant = 1,
        /// 2: `linear`, perspective-correct at the pixel centre.
        Linear = 2,
        /// 3: `linear centroid`, perspective-correct at the covered centroid.
        LinearCentroid = 3,
        /// 4: `linear noperspective`, screen-space linear at the pixel centre.
        LinearNoPerspective = 4,
        /// 5: `linear noperspective centroid`.
        LinearNoPerspectiveCentroid = 5,
        /// 6: `linear sample`, perspective-correct at each sample (SM4.1+).
        LinearSample = 6,
        /// 7: `linear noperspective sample` (SM4.1+).
        LinearNoPerspectiveSample = 7,
    }
}

token_enum! {
    /// `D3D10_SB_SAMPLER_MODE` of `dcl_sampler` (spelled by [`names::SAMPLER_MODES`]).
    SamplerMode {
        /// 0: `mode_default`, an ordinary filtering sampler.
        Default = 0,
        /// 1: `mode_comparison`, a comparison (shadow) sampler.
        Comparison = 1,
        /// 2: `mode_mono`, a monochrome sampler (D3D10 text filtering, unused by fxc).
        Mono = 2,
    }
}

/// The name token of a `_sgv`/`_siv` declaration: a [`SystemValue`], or a number past its
/// table, kept so that a consumer can reject it by number instead of mistaking it for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SystemValueName {
    /// A system value the format defines (0..=22).
    Known(SystemValue),
    /// A number past the defined system values, kept as is.
    Other(u32),
}

impl SystemValueName {
    /// The name for a name-token value: known if it is in the table, otherwise `Other(n)`.
    pub fn from_number(n: u32) -> SystemValueName {
        SystemValue::from_number(n).map_or(SystemValueName::Other(n), SystemValueName::Known)
    }

    /// The name-token value this encodes as.
    pub const fn number(self) -> u32 {
        match self {
            SystemValueName::Known(sv) => sv.number(),
            SystemValueName::Other(n) => n,
        }
    }
}

/// `D3D10_SB_NAME`: the system value an `_sgv`/`_siv` declaration names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SystemValue {
    /// 0: no system value (a plain user input or output).
    Undefined = 0,
    /// 1: `SV_Position`, clip-space or pixel position.
    Position = 1,
    /// 2: `SV_ClipDistance`, a clip-plane distance.
    ClipDistance = 2,
    /// 3: `SV_CullDistance`, a cull-plane distance.
    CullDistance = 3,
    /// 4: `SV_RenderTargetArrayIndex`, the render target array slice.
    RenderTargetArrayIndex = 4,
    /// 5: `SV_ViewportArrayIndex`, the viewport to rasterize to.
    ViewportArrayIndex = 5,
    /// 6: `SV_VertexID`, the vertex index.
    VertexId = 6,
    /// 7: `SV_PrimitiveID`, the primitive index.
    PrimitiveId = 7,
    /// 8: `SV_InstanceID`, the instance index.
    InstanceId = 8,
    /// 9: `SV_IsFrontFace`, whether the primitive faces the viewer.
    IsFrontFace = 9,
    /// 10: `SV_SampleIndex`, the sample being shaded.
    SampleIndex = 10,
    /// 11: quad patch tessellation factor for the u = 0 edge.
    FinalQuadUEq0EdgeTessFactor = 11,
    /// 12: quad patch tessellation factor for the v = 0 edge.
    FinalQuadVEq0EdgeTessFactor = 12,
    /// 13: quad patch tessellation factor for the u = 1 edge.
    FinalQuadUEq1EdgeTessFactor = 13,
    /// 14: quad patch tessellation factor for the v = 1 edge.
    FinalQuadVEq1EdgeTessFactor = 14,
    /// 15: quad patch inside tessellation factor along u.
    FinalQuadUInsideTessFactor = 15,
    /// 16: quad patch inside tessellation factor along v.
    FinalQuadVInsideTessFactor = 16,
    /// 17: triangle patch tessellation factor for the u = 0 edge.
    FinalTriUEq0EdgeTessFactor = 17,
    /// 18: triangle patch tessellation factor for the v = 0 edge.
    FinalTriVEq0EdgeTessFactor = 18,
    /// 19: triangle patch tessellation factor for the w = 0 edge.
    FinalTriWEq0EdgeTessFactor = 19,
    /// 20: triangle patch inside tessellation factor.
    FinalTriInsideTessFactor = 20,
    /// 21: isoline detail tessellation factor (segments per line).
    FinalLineDetailTessFactor = 21,
    /// 22: isoline density tessellation factor (number of lines).
    FinalLineDensityTessFactor = 22,
}

impl SystemValue {
    const ALL: [SystemValue; 23] = {
        use SystemValue::*;
        [
            Undefined,
            Position,
            ClipDistance,
            CullDistance,
            RenderTargetArrayIndex,
            ViewportArrayIndex,
            VertexId,
            PrimitiveId,
            InstanceId,
            IsFrontFace,
            SampleIndex,
            FinalQuadUEq0EdgeTessFactor,
            FinalQuadVEq0EdgeTessFactor,
            FinalQuadUEq1EdgeTessFactor,
            FinalQuadVEq1EdgeTessFactor,
            FinalQuadUInsideTessFactor,
            FinalQuadVInsideTessFactor,
            FinalTriUEq0EdgeTessFactor,
            FinalTriVEq0EdgeTessFactor,
            FinalTriWEq0EdgeTessFactor,
            FinalTriInsideTessFactor,
            FinalLineDetailTessFactor,
            FinalLineDensityTessFactor,
        ]
    };

    /// The system value for a name-token value, or `None` past 22.
    pub fn from_number(n: u32) -> Option<SystemValue> {
        Self::ALL.get(usize::try_from(n).ok()?).copied()
    }

    /// The name-token value (`D3D10_SB_NAME`) this encodes as.
    pub const fn number(self) -> u32 {
        self as u32
    }

    /// fxc's spelling in declarations (`position`, `vertex_id`, ...), from [`names::SYSTEM_VALUES`].
    pub fn name(self) -> &'static str {
        names::name(names::SYSTEM_VALUES, self.number()).unwrap_or("undefined")
    }

    /// The HLSL semantic fxc writes into a signature for this value, and its semantic index
    /// (the tessellation factors are elements of `SV_TessFactor`/`SV_InsideTessFactor` arrays;
    /// an isoline's density is element 0 and its detail element 1).
    pub fn semantic(self) -> (&'static str, u32) {
        use SystemValue::*;
        match self {
            Undefined => ("", 0),
            Position => ("SV_Position", 0),
            ClipDistance => ("SV_ClipDistance", 0),
            CullDistance => ("SV_CullDistance", 0),
            RenderTargetArrayIndex => ("SV_RenderTargetArrayIndex", 0),
            ViewportArrayIndex => ("SV_ViewportArrayIndex", 0),
            VertexId => ("SV_VertexID", 0),
            PrimitiveId => ("SV_PrimitiveID", 0),
            InstanceId => ("SV_InstanceID", 0),
            IsFrontFace => ("SV_IsFrontFace", 0),
            SampleIndex => ("SV_SampleIndex", 0),
            FinalQuadUEq0EdgeTessFactor => ("SV_TessFactor", 0),
            FinalQuadVEq0EdgeTessFactor => ("SV_TessFactor", 1),
            FinalQuadUEq1EdgeTessFactor => ("SV_TessFactor", 2),
            FinalQuadVEq1EdgeTessFactor => ("SV_TessFactor", 3),
            FinalQuadUInsideTessFactor => ("SV_InsideTessFactor", 0),
            FinalQuadVInsideTessFactor => ("SV_InsideTessFactor", 1),
            FinalTriUEq0EdgeTessFactor => ("SV_TessFactor", 0),
            FinalTriVEq0EdgeTessFactor => ("SV_TessFactor", 1),
            FinalTriWEq0EdgeTessFactor => ("SV_TessFactor", 2),
            FinalTriInsideTessFactor => ("SV_InsideTessFactor", 0),
            FinalLineDensityTessFactor => ("SV_TessFactor", 0),
            FinalLineDetailTessFactor => ("SV_TessFactor", 1),
        }
    }

    /// The `D3D_NAME` a signature element stores. It equals the token value up to
    /// `SV_SampleIndex`; the token stream names each tessellation factor separately while the
    /// signature has one code per kind (11 quad edge, 12 quad inside, 13 tri edge, 14 tri inside,
    /// 15 line detail, 16 line density).
    pub fn signature_code(self) -> u32 {
        use SystemValue::*;
        match self {
            FinalQuadUEq0EdgeTessFactor
            | FinalQuadVEq0EdgeTessFactor
            | FinalQuadUEq1EdgeTessFactor
            | FinalQuadVEq1EdgeTessFactor => 11,
            FinalQuadUInsideTessFactor | FinalQuadVInsideTessFactor => 12,
            FinalTriUEq0EdgeTessFactor
            | FinalTriVEq0EdgeTessFactor
            | FinalTriWEq0EdgeTessFactor => 13,
            FinalTriInsideTessFactor => 14,
            FinalLineDetailTessFactor => 15,
            FinalLineDensityTessFactor => 16,
            other => other.number(),
        }
    }

    /// `D3D_REGISTER_COMPONENT_TYPE` fxc gives this value's signature element: 1 uint for the
    /// ids, indices and the front-face mask, 3 float for positions, distances and factors.
    pub fn component_type(self) -> u32 {
        use SystemValue::*;
        match self {
            RenderTargetArrayIndex
            | ViewportArrayIndex
            | VertexId
            | PrimitiveId
            | InstanceId
            | IsFrontFace
            | SampleIndex => 1,
            _ => 3,
        }
    }
}

/// How a sampled (single-sample, non-array-of-cubes) texture is addressed: the six shapes of a
/// D3D's standard sample positions of a `count`-sample resource
/// (D3D11_STANDARD_MULTISAMPLE_PATTERN), in sixteenths of a pixel from its centre; WebGPU's
/// 4-sample textures use the 4-sample one. A single sample sits at the centre; counts without
/// a pattern here give none.
pub fn standard_sample_positions(count: u32) -> &'static [[i8; 2]] {
    const ONE: [[i8; 2]; 1] = [[0, 0]];
    const TWO: [[i8; 2]; 2] = [[4, 4], [-4, -4]];
    const FOUR: [[i8; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];
    const EIGHT: [[i8; 2]; 8] = [
        [1, -3],
        [-1, 3],
        [5, 1],
        [-3, -5],
        [-5, 5],
        [-7, -1],
        [3, 7],
        [7, -7],
    ];
    match count {
        1 => &ONE,
        2 => &TWO,
        4 => &FOUR,
        8 => &EIGHT,
        _ => &[],
    }
}

/// One result of a double-precision instruction ([`Instruction::double_slots`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubleSlot {
    /// The destination components it writes: a double's two (low word first), or one.
    pub dst: Vec<usize>,
    /// The source components (through the swizzle) holding the double it reads: low, high.
    pub lo: usize,
    /// See [`DoubleSlot::lo`].
    pub hi: usize,
    /// The 32-bit source component a widening conversion converts, or `dmovc`'s condition.
    pub word: usize,
}

/// `dcl_resource` that the interpreter runs and the translators lower. One enum for the fact:
/// the reference (`oracles`) and the built-in translator both read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextureShape {
    /// A `Texture2D`: addressed by (u, v).
    #[default]
    Plain,
    /// A `Texture2DArray`: the address carries a layer.
    Array,
    /// A `TextureCube`: six square faces, stored as layers in D3D's order (+X, −X, +Y, −Y,
    /// +Z, −Z), addressed by a direction.
    Cube,
    /// A `Texture3D`: depth slices stored as layers, their count halving per level like the
    /// width and height, addressed by (u, v, w).
    Volume,
    /// A `Texture1D`: one row of texels (height 1 at every level), addressed by u alone.
    Line,
    /// A `Texture1DArray`: rows as layers, addressed by u and a layer in the address's second
    /// component.
    LineArray,
    /// A `TextureCubeArray`: cubes of six faces each, stored as layers (cube k's faces at
    /// 6k..6k+6), addressed by a direction and the cube's index in w.
    CubeArray,
    /// A `Texture2DMS`: one level whose samples are stored as layers (sample s at layer s),
    /// read by `ldms` at (x, y) and a sample index.
    Multisampled,
}

impl TextureShape {
    /// The shape of a declared dimension; `None` for buffers, multisampled textures and unknown
    /// dimensions.
    pub fn of(d: ResourceDimension) -> Option<TextureShape> {
        Some(match d {
            ResourceDimension::Texture2d => TextureShape::Plain,
            ResourceDimension::Texture2dArray => TextureShape::Array,
            ResourceDimension::TextureCube => TextureShape::Cube,
            ResourceDimension::Texture3d => TextureShape::Volume,
            ResourceDimension::Texture1d => TextureShape::Line,
            ResourceDimension::Texture1dArray => TextureShape::LineArray,
            ResourceDimension::TextureCubeArray => TextureShape::CubeArray,
            ResourceDimension::Texture2dMs => TextureShape::Multisampled,
            _ => return None,
        })
    }

    /// Whether the shape is a 1D texture or 1D array (one texel high).
    pub fn line(self) -> bool {
        matches!(self, TextureShape::Line | TextureShape::LineArray)
    }

    /// Whether the shape has layers (an array).
    pub fn array(self) -> bool {
        matches!(
            self,
            TextureShape::Array | TextureShape::LineArray | TextureShape::CubeArray
        )
    }

    /// Whether the shape is addressed by a direction (a cube or an array of cubes).
    pub fn cube(self) -> bool {
        matches!(self, TextureShape::Cube | TextureShape::CubeArray)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_values_match_the_spelling_table() {
        assert_eq!(SystemValue::ALL.len(), names::SYSTEM_VALUES.len());
        for (i, sv) in SystemValue::ALL.iter().enumerate() {
            assert_eq!(sv.number() as usize, i);
            assert_eq!(SystemValue::from_number(i as u32), Some(*sv));
            assert_eq!(sv.name(), names::SYSTEM_VALUES[i]);
        }
        assert_eq!(SystemValue::from_number(23), None);
        assert_eq!(SystemValue::FinalTriInsideTessFactor.signature_code(), 14);
        assert_eq!(SystemValueName::from_number(23), SystemValueName::Other(23));
        assert_eq!(
            SystemValueName::from_number(1),
            SystemValueName::Known(SystemValue::Position)
        );
    }

    #[test]
    fn token_enums_keep_every_number() {
        for n in 0..64 {
            assert_eq!(ResourceDimension::from_number(n).number(), n);
            assert_eq!(ReturnType::from_number(n).number(), n);
            assert_eq!(ResinfoReturnType::from_number(n).number(), n);
            assert_eq!(InterpolationMode::from_number(n).number(), n);
            assert_eq!(SamplerMode::from_number(n).number(), n);
            assert_eq!(SystemValueName::from_number(n).number(), n);
        }
        assert_eq!(
            ResourceDimension::from_number(3),
            ResourceDimension::Texture2d
        );
        assert_eq!(
            ResourceDimension::from_number(13),
            ResourceDimension::Other(13)
        );
        assert_eq!(ReturnType::from_number(0), ReturnType::Other(0));
    }

    #[test]
    fn token_enums_follow_the_spelling_tables() {
        let spelled = |table: &[&'static str], n: u32| names::name(table, n).is_some();
        for n in 0..16 {
            use ResourceDimension as D;
            assert_eq!(
                spelled(names::RESOURCE_DIMENSIONS, n),
                !matches!(D::from_number(n), D::Other(_))
            );
            assert_eq!(
                spelled(names::RETURN_TYPES, n),
                !matches!(ReturnType::from_number(n), ReturnType::Other(_))
            );
            assert_eq!(
                spelled(names::SAMPLER_MODES, n),
                !matches!(SamplerMode::from_number(n), SamplerMode::Other(_))
            );
        }
        // Mode 0 is defined but unspelled: fxc prints nothing for it.
        for n in 1..16 {
            assert_eq!(
                spelled(names::INTERPOLATION_MODES, n),
                !matches!(
                    InterpolationMode::from_number(n),
                    InterpolationMode::Other(_)
                )
            );
        }
    }
}
