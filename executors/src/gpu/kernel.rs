//! What a wrapped pixel or vertex module's entry point is: a compute kernel of one invocation
//! per vector, or a fragment kernel drawn over quads, with the grid that lays vectors out.

/// Quads per row of the grid a [`Kernel::Quads`] module is drawn over: the grid is twice this
/// many pixels wide, and vector `4q + i` is pixel (`i & 1`, `i >> 1`) of quad `q`, quads row
/// after row (the interpreter's quad layout, `oracles::interp` quads).
pub const QUADS_PER_ROW: u32 = 64;

/// What the wrapped module's entry point is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// `dxdiff_kernel`, a compute entry point of one invocation per vector.
    Compute,
    /// `dxdiff_fragment`, a fragment entry point drawn over a grid of 2×2 quads (see
    /// [`QUADS_PER_ROW`]), so that derivatives and implicit LOD come from hardware quads.
    Quads,
}

impl Kernel {
    /// The entry point's name.
    pub fn entry_point(self) -> &'static str {
        match self {
            Kernel::Compute => "dxdiff_kernel",
            Kernel::Quads => "dxdiff_fragment",
        }
    }

    /// The grid (width, height in pixels) that draws `vectors` vectors as quads.
    pub fn grid(vectors: usize) -> [u32; 2] {
        let quads = vectors.div_ceil(4).max(1) as u32;
        [2 * QUADS_PER_ROW, 2 * quads.div_ceil(QUADS_PER_ROW)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pixel_program_with_derivatives_wraps_into_a_fragment_kernel_over_quads() {
        let w = super::super::wrap::wrap_as(
            "@fragment fn main(@location(0) x: vec4<f32>) -> @location(0) vec4<f32> {\n    return dpdxFine(x) + dpdyCoarse(x);\n}\n",
            false,
            Kernel::Quads,
        )
        .expect("wraps");
        assert!(
            w.wgsl.contains("@fragment\nfn dxdiff_fragment("),
            "{}",
            w.wgsl
        );
        assert!(!w.wgsl.contains("@compute"), "{}", w.wgsl);
        translator::validate(&w.wgsl).expect("the fragment kernel validates");
        // 10 vectors are 3 quads: one row of the grid, two pixels high.
        assert_eq!(Kernel::grid(10), [2 * QUADS_PER_ROW, 2]);
        assert_eq!(
            Kernel::grid(4 * QUADS_PER_ROW as usize + 1),
            [2 * QUADS_PER_ROW, 4]
        );
    }
}
