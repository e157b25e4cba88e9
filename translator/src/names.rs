//! The catalog ids the translator relies on or rejects under, in one place. Each must exist in
//! `oracles::catalog` (a test checks), so a renamed entry cannot silently drift.

pub const PRECISE: &str = "adapted/precise";
pub const COMPARISON_MASKS: &str = "adapted/comparison-masks";
pub const TYPELESS_REGISTERS: &str = "adapted/typeless-registers";
pub const HOISTED_VARS: &str = "adapted/hoisted-vars";
pub const PACKED_VARYINGS: &str = "supported/packed-varyings";
pub const SWITCH_DEFAULT: &str = "adapted/switch-default";
pub const FRONT_FACING: &str = "adapted/front-facing";
pub const SOURCE_MODIFIERS: &str = "adapted/source-modifiers";
pub const CONTINUE_CONTINUING: &str = "adapted/continue-continuing";
pub const ICB_CONST_ARRAY: &str = "adapted/icb-const-array";
pub const RCP_DIVISION: &str = "adapted/rcp-division";
pub const SATURATE_MOVERS: &str = "adapted/saturate-movers";
pub const MIN_PRECISION_F16: &str = "adapted/min-precision-f16";
pub const NUMERIC_CONVERSION_EDGES: &str = "adapted/numeric-conversion-edges";
pub const DERIVATIVE_UNIFORMITY: &str = "adapted/derivative-uniformity";
pub const F16_CONVERSIONS: &str = "bounded/f16-conversions";
pub const UDIV: &str = "bounded/udiv";
pub const VERTEX_SAMPLING: &str = "bounded/vertex-sampling";
pub const SAMPLE_OFFSETS_2D: &str = "bounded/sample-offsets-2d";
pub const ARRAY_LAYER_ROUNDING: &str = "supported/array-layer-rounding";

pub const GEOMETRY_HULL_DOMAIN: &str = "fail-closed/geometry-hull-domain";
pub const SUBROUTINES: &str = "fail-closed/subroutines";
pub const SYSTEM_CRASH: &str = "fail-closed/system-crash";
pub const TEXTURE_OFFSETS: &str = "fail-closed/texture-offsets";
pub const SAMPLER_MODES: &str = "fail-closed/sampler-modes";
pub const MIN_PRECISION_KINDS: &str = "fail-closed/min-precision-kinds";
pub const SYSTEM_VALUES: &str = "fail-closed/system-values";
pub const INTERPOLATION_MODES: &str = "fail-closed/interpolation-modes";
pub const BINDLESS_RANGES: &str = "fail-closed/bindless-ranges";
/// A texture, sampler or UAV handle chosen at run time.
pub const RELATIVE_RESOURCE_IDENTITIES: &str = "fail-closed/relative-resource-identities";
pub const RESINFO_DYNAMIC_MIP: &str = "fail-closed/resinfo-dynamic-mip";
pub const DYNAMIC_CB_SELECTION: &str = "fail-closed/dynamic-cb-selection";
pub const TYPED_BUFFER_SRV_FORMAT: &str = "fail-closed/typed-buffer-srv-format";
pub const UNKNOWN_TEXTURE_DIMENSION: &str = "fail-closed/unknown-texture-dimension";

pub const DENORMALS: &str = "dxdiff/denormals";
pub const NAN: &str = "dxdiff/nan";
pub const NON_FINITE: &str = "dxdiff/non-finite";
pub const SIGNED_ZERO: &str = "dxdiff/signed-zero";
pub const BUILTIN_ACCURACY: &str = "dxdiff/builtin-accuracy";
pub const SINCOS_RANGE: &str = "dxdiff/sincos-range";
pub const EXP_RANGE: &str = "dxdiff/exp-range";
pub const DOUBLES: &str = "dxdiff/doubles";
pub const MIN_MAX_NAN: &str = "dxdiff/min-max-nan";
pub const CANCELLATION: &str = "dxdiff/cancellation";
pub const LOD_SAMPLER_CLAMP: &str = "dxdiff/lod-sampler-clamp";
/// Outside the translator's lowering for a reason the seed does not name.
pub const UNSUPPORTED: &str = "dxdiff/not-lowered";
