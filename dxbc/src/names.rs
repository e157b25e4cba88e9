//! fxc's spellings of the token stream's enumerations (dxbc-format.md §4.8, §6.5). The
//! disassembler prints from these tables and the assembler parses with them, so each spelling is
//! written once. Index = encoded value; an empty string is an unused value.

/// Resource dimension (dcl_resource, dcl_uav_typed, `_indexable(...)`).
pub const RESOURCE_DIMENSIONS: &[&str] = &[
    "unknown",
    "buffer",
    "texture1d",
    "texture2d",
    "texture2dms",
    "texture3d",
    "texturecube",
    "texture1darray",
    "texture2darray",
    "texture2dmsarray",
    "texturecubearray",
    "raw_buffer",
    "structured_buffer",
];

/// Per-component resource return type.
pub const RETURN_TYPES: &[&str] = &[
    "",
    "unorm",
    "snorm",
    "sint",
    "uint",
    "float",
    "mixed",
    "double",
    "continued",
    "unused",
];

/// `D3D10_SB_NAME` system values in `*_sgv`/`*_siv` declarations.
pub const SYSTEM_VALUES: &[&str] = &[
    "undefined",
    "position",
    "clip_distance",
    "cull_distance",
    "rendertarget_array_index",
    "viewport_array_index",
    "vertex_id",
    "primitive_id",
    "instance_id",
    "is_front_face",
    "sampleIndex",
    "finalQuadUeq0EdgeTessFactor",
    "finalQuadVeq0EdgeTessFactor",
    "finalQuadUeq1EdgeTessFactor",
    "finalQuadVeq1EdgeTessFactor",
    "finalQuadUInsideTessFactor",
    "finalQuadVInsideTessFactor",
    "finalTriUeq0EdgeTessFactor",
    "finalTriVeq0EdgeTessFactor",
    "finalTriWeq0EdgeTessFactor",
    "finalTriInsideTessFactor",
    "finalLineDetailTessFactor",
    "finalLineDensityTessFactor",
];

/// Pixel-shader input interpolation modes.
pub const INTERPOLATION_MODES: &[&str] = &[
    "",
    "constant",
    "linear",
    "linear centroid",
    "linear noperspective",
    "linear noperspective centroid",
    "linear sample",
    "linear noperspective sample",
];

/// `dcl_globalFlags` bits, from bit 11 upward.
pub const GLOBAL_FLAGS: &[&str] = &[
    "refactoringAllowed",
    "enableDoublePrecisionFloatOps",
    "forceEarlyDepthStencil",
    "enableRawAndStructuredBuffers",
    "skipOptimization",
    "enableMinimumPrecision",
    "enable11_1DoubleExtensions",
    "enable11_1ShaderExtensions",
    "allResourcesBound",
];

/// fxc's spelling of each `dcl_sampler` mode, indexed by its number.
pub const SAMPLER_MODES: &[&str] = &["mode_default", "mode_comparison", "mode_mono"];

/// fxc's spelling of each `dcl_outputtopology` topology, indexed by number ("" where undefined).
pub const OUTPUT_TOPOLOGIES: &[&str] = &[
    "undefined",
    "pointlist",
    "linelist",
    "linestrip",
    "trianglelist",
    "trianglestrip",
    "",
    "",
    "",
    "",
    "linelist_adj",
    "linestrip_adj",
    "trianglelist_adj",
    "trianglestrip_adj",
];

/// Input primitives 0..=7; 8..=39 are `patchN` with N = value - 7.
pub const INPUT_PRIMITIVES: &[&str] = &[
    "undefined",
    "point",
    "line",
    "triangle",
    "",
    "",
    "lineadj",
    "triangleadj",
];

/// fxc's spelling of each `dcl_tessellator_domain` domain, indexed by its number.
pub const TESS_DOMAINS: &[&str] = &["undefined", "domain_isoline", "domain_tri", "domain_quad"];

/// fxc's spelling of each `dcl_tessellator_partitioning` mode, indexed by its number.
pub const TESS_PARTITIONINGS: &[&str] = &[
    "undefined",
    "partitioning_integer",
    "partitioning_pow2",
    "partitioning_fractional_odd",
    "partitioning_fractional_even",
];

/// fxc's spelling of each `dcl_tessellator_output_primitive` primitive, indexed by its number.
pub const TESS_OUTPUT_PRIMITIVES: &[&str] = &[
    "undefined",
    "output_point",
    "output_line",
    "output_triangle_cw",
    "output_triangle_ccw",
];

/// Min-precision tags (extended operand token), index = encoded value.
pub const MIN_PRECISIONS: &[&str] = &["", "min16f", "min2_8f", "", "min16i", "min16u"];

/// The name at `value`, or `None` when the value has no spelling.
pub fn name(table: &[&'static str], value: u32) -> Option<&'static str> {
    table
        .get(usize::try_from(value).ok()?)
        .copied()
        .filter(|s| !s.is_empty())
}

/// The value whose spelling is `text` (case-insensitive).
pub fn value(table: &[&str], text: &str) -> Option<u32> {
    table
        .iter()
        .position(|s| !s.is_empty() && s.eq_ignore_ascii_case(text))
        .map(|i| i as u32)
}

/// `dcl_inputprimitive` spelling, including `patchN`.
pub fn input_primitive(value: u32) -> Option<String> {
    match value {
        8..=39 => Some(format!("patch{}", value - 7)),
        v => name(INPUT_PRIMITIVES, v).map(str::to_owned),
    }
}
