//! WGSL helper functions the lowering calls. Each is emitted once, only when used, and states one
//! D3D rule with integer operations on the raw bits, so no float latitude of WGSL applies to it.
//!
//! Each helper is a file of its own under `polyfills/`, so it can be read, diffed and checked
//! as WGSL; what a helper calls is read from its text, not kept by hand.

use std::collections::BTreeMap;
use std::sync::LazyLock;

/// (name, WGSL source), in the order they are emitted. Names are referenced by the lowering
/// through [`super::Ctx::helper`].
pub const HELPERS: &[(&str, &str)] = &[
    ("d3d_ftz", include_str!("polyfills/d3d_ftz.wgsl")),
    ("d3d_isnan", include_str!("polyfills/d3d_isnan.wgsl")),
    ("d3d_fin", include_str!("polyfills/d3d_fin.wgsl")),
    ("d3d_fout", include_str!("polyfills/d3d_fout.wgsl")),
    ("d3d_min", include_str!("polyfills/d3d_min.wgsl")),
    ("d3d_max", include_str!("polyfills/d3d_max.wgsl")),
    ("d3d_sat", include_str!("polyfills/d3d_sat.wgsl")),
    ("d3d_frc", include_str!("polyfills/d3d_frc.wgsl")),
    ("d3d_ftoi", include_str!("polyfills/d3d_ftoi.wgsl")),
    ("d3d_ftou", include_str!("polyfills/d3d_ftou.wgsl")),
    ("d3d_f32tof16", include_str!("polyfills/d3d_f32tof16.wgsl")),
    ("d3d_f16tof32", include_str!("polyfills/d3d_f16tof32.wgsl")),
    ("d3d_ubfe", include_str!("polyfills/d3d_ubfe.wgsl")),
    ("d3d_ibfe", include_str!("polyfills/d3d_ibfe.wgsl")),
    ("d3d_bfi", include_str!("polyfills/d3d_bfi.wgsl")),
    ("d3d_umul_hi", include_str!("polyfills/d3d_umul_hi.wgsl")),
    ("d3d_imul_hi", include_str!("polyfills/d3d_imul_hi.wgsl")),
    ("d3d_msad", include_str!("polyfills/d3d_msad.wgsl")),
];

/// For every helper, the other helpers its source calls.
static CALLS: LazyLock<BTreeMap<&'static str, Vec<&'static str>>> = LazyLock::new(|| {
    HELPERS
        .iter()
        .map(|(name, src)| {
            let calls = HELPERS
                .iter()
                .filter(|(other, _)| other != name && src.contains(&format!("{other}(")))
                .map(|(other, _)| *other)
                .collect();
            (*name, calls)
        })
        .collect()
});

/// Helpers a helper calls, so asking for one brings its dependencies.
pub fn dependencies(name: &str) -> &'static [&'static str] {
    CALLS.get(name).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_come_from_the_sources() {
        assert_eq!(dependencies("d3d_fin"), &["d3d_ftz"]);
        let mut fout = dependencies("d3d_fout").to_vec();
        fout.sort();
        assert_eq!(fout, vec!["d3d_ftz", "d3d_isnan"]);
        assert_eq!(dependencies("d3d_imul_hi"), &["d3d_umul_hi"]);
        assert!(dependencies("d3d_ftz").is_empty());
        assert!(dependencies("nonsense").is_empty());
    }

    #[test]
    fn every_helper_is_valid_wgsl_with_its_dependencies() {
        for (name, _) in HELPERS {
            // The helper and everything it brings, as the lowering would emit them.
            let mut want = std::collections::BTreeSet::new();
            let mut todo = vec![*name];
            while let Some(n) = todo.pop() {
                if want.insert(n) {
                    todo.extend(dependencies(n));
                }
            }
            let module: String = HELPERS
                .iter()
                .filter(|(n, _)| want.contains(n))
                .map(|(_, s)| *s)
                .collect();
            naga::front::wgsl::parse_str(&module)
                .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(&module)));
        }
    }
}
