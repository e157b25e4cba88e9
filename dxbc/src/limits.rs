//! Direct3D 11's limits on what a program may declare or name: the one table ([`TABLE`]) that
//! the decoder's validation pass ([`crate::validate`]), the harness and the case files read.
//!
//! Every number a blob carries (a register index, a declared count, a thread-group size) is
//! checked against a row of this table before anything downstream sizes an allocation by it, so a
//! row's value is the largest allocation any downstream table can be asked for. Values are the
//! D3D11 headers' (`d3d11.h`, `d3d11_1.h`); each row names the constant and, where the functional
//! spec states the rule more precisely than the constant's name, the section.

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitInfo {
    /// The limit this row describes.
    pub limit: Limit,
    /// The limit's number, from the D3D11 headers.
    pub value: u32,
    /// What the value bounds, in a phrase ("r# registers plus x# elements").
    pub bounds: &'static str,
    /// The header constant and/or functional-spec section the value comes from.
    pub source: &'static str,
}

macro_rules! limits {
    ($($var:ident = $value:literal, $bounds:literal, $source:literal;)*) => {
        /// A named limit; [`Limit::value`] and [`Limit::info`] read its row.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Limit {
            $(#[doc = concat!("A limit of ", stringify!($value), " on ", $bounds, ".")] $var,)*
        }

        /// Every limit, in [`Limit`] order.
        pub const TABLE: &[LimitInfo] = &[
            $(LimitInfo {
                limit: Limit::$var,
                value: $value,
                bounds: $bounds,
                source: $source,
            },)*
        ];
    };
}

limits! {
    TempRegisters = 4096,
        "r# registers (dcl_temps) plus the elements of every x# array, together, per program or hull-shader phase",
        "D3D11_COMMONSHADER_TEMP_REGISTER_COUNT; FS 'Temp registers' (r# + x#[n] share the 4096)";
    IndexableTempArrays = 4096,
        "x# array numbers (each array holds at least one element, so no more arrays can exist)",
        "D3D11_COMMONSHADER_TEMP_REGISTER_COUNT (dxdiff's reading, docs/reliability.md)";
    InputRegisters = 32,
        "v# registers of vertex, pixel, geometry, hull and domain shaders (and vertices of a GS input)",
        "D3D11_VS_INPUT_REGISTER_COUNT, D3D11_PS_INPUT_REGISTER_COUNT, D3D11_GS_INPUT_REGISTER_COUNT, D3D11_HS_CONTROL_POINT_PHASE_INPUT_REGISTER_COUNT, D3D11_DS_INPUT_CONTROL_POINT_REGISTER_COUNT";
    OutputRegisters = 32,
        "o# registers of vertex, geometry, hull and domain shaders",
        "D3D11_VS_OUTPUT_REGISTER_COUNT, D3D11_GS_OUTPUT_REGISTER_COUNT, D3D11_HS_OUTPUT_PATCH_CONSTANT_REGISTER_COUNT, D3D11_DS_OUTPUT_REGISTER_COUNT";
    PixelOutputRegisters = 8,
        "o# registers of a pixel shader (render targets)",
        "D3D11_PS_OUTPUT_REGISTER_COUNT (= D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT)";
    ControlPoints = 32,
        "control points of a patch (dcl_*_control_point_count, vicp/vocp first index)",
        "D3D11_IA_PATCH_MAX_CONTROL_POINT_COUNT";
    ConstantBuffers = 14,
        "constant-buffer slots cb0-cb13",
        "D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT";
    ConstantBufferRows = 4096,
        "vec4 rows of one constant buffer",
        "D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT";
    ImmediateConstantBufferRows = 4096,
        "vec4 rows of the immediate constant buffer",
        "D3D11_REQ_IMMEDIATE_CONSTANT_BUFFER_ELEMENT_COUNT";
    ShaderResources = 128,
        "shader-resource slots t0-t127",
        "D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT";
    Samplers = 16,
        "sampler slots s0-s15",
        "D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT";
    UnorderedAccessViews = 64,
        "UAV slots u0-u63 (D3D11.1; D3D11.0 had 8, D3D11_PS_CS_UAV_REGISTER_COUNT)",
        "D3D11_1_UAV_SLOT_COUNT";
    ThreadGroupInvocations = 1024,
        "threads of one compute thread group (x * y * z)",
        "D3D11_CS_THREAD_GROUP_MAX_THREADS_PER_GROUP";
    ThreadGroupX = 1024,
        "thread-group size in x",
        "D3D11_CS_THREAD_GROUP_MAX_X";
    ThreadGroupY = 1024,
        "thread-group size in y",
        "D3D11_CS_THREAD_GROUP_MAX_Y";
    ThreadGroupZ = 64,
        "thread-group size in z",
        "D3D11_CS_THREAD_GROUP_MAX_Z";
    Cs4xThreadGroupInvocations = 768,
        "threads of one cs_4_x thread group, and its x and y sizes",
        "D3D11_CS_4_X_THREAD_GROUP_MAX_THREADS_PER_GROUP, D3D11_CS_4_X_THREAD_GROUP_MAX_X/_Y";
    GroupSharedBytes = 32768,
        "bytes of thread-group shared memory, all g# declarations together",
        "D3D11_CS_TGSM_REGISTER_COUNT (8192 32-bit registers)";
    StructureStrideBytes = 2048,
        "stride of a structured buffer or structured g# in bytes",
        "D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES";
    FlowControlNesting = 64,
        "nesting depth of if/loop/switch",
        "D3D11_COMMONSHADER_FLOWCONTROL_NESTING_LIMIT";
    GsMaxOutputVertices = 1024,
        "dcl_maxout vertices of a geometry shader",
        "D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES";
    GsInstances = 32,
        "dcl_gsinstances",
        "D3D11_GS_MAX_INSTANCE_COUNT";
    Streams = 4,
        "geometry-shader output streams m0-m3",
        "D3D11_SO_STREAM_COUNT";
    DispatchGroupsPerDimension = 65535,
        "thread groups of one dispatch in each dimension (a dispatch limit, not a program's)",
        "D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION";
    BufferBytes = 134217728,
        "bytes of one buffer resource (a case file's `size_bytes`)",
        "D3D11_REQ_RESOURCE_SIZE_IN_MEGABYTES_EXPRESSION_A_TERM (128 MiB, the floor every device guarantees)";
    Texture2dDimension = 16384,
        "width or height of a 2D texture",
        "D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION";
    Texture2dArrayLayers = 2048,
        "layers of a 2D texture array",
        "D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION";
    Texture3dDimension = 2048,
        "width, height or depth of a 3D texture",
        "D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION";
}

impl Limit {
    /// This limit's row.
    pub const fn info(self) -> &'static LimitInfo {
        &TABLE[self as usize]
    }

    /// The limit's number (the largest count, or one past the largest index, allowed).
    pub const fn value(self) -> u32 {
        self.info().value
    }
}

impl std::fmt::Display for Limit {
    /// The row's name, value and what it bounds: `TempRegisters limit of 4096 (r# registers ...)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let info = self.info();
        write!(f, "{self:?} limit of {} ({})", info.value, info.bounds)
    }
}

/// Thread groups one dispatch may launch per dimension; the harness and case files use it to
/// reject a dispatch before sizing anything by it.
pub const DISPATCH_GROUPS_PER_DIMENSION: u32 = Limit::DispatchGroupsPerDimension.value();

/// The table as Markdown rows (`| limit | value | bounds | source |`), for docs/reliability.md.
pub fn markdown_table() -> String {
    let mut s = String::from("| limit | value | bounds | source |\n| --- | ---: | --- | --- |\n");
    for row in TABLE {
        s.push_str(&format!(
            "| `{:?}` | {} | {} | {} |\n",
            row.limit, row.value, row.bounds, row.source
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_enum_order() {
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!(row.limit as usize, i, "{:?}", row.limit);
            assert!(row.value > 0);
            assert!(
                row.source.contains("D3D11"),
                "{:?} names a header",
                row.limit
            );
        }
        assert_eq!(DISPATCH_GROUPS_PER_DIMENSION, 65535);
        assert_eq!(Limit::GroupSharedBytes.value(), 32 * 1024);
    }
}
