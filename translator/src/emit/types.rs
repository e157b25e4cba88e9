//! The types the lowering names most, inserted into the module once and then kept by
//! handle.

use naga::Handle;

use super::Ctx;
use super::build;

/// Type handles [`Ctx`] keeps after their first insertion: the scalars and vectors of `u32`,
/// `i32`, `f32` and `bool`, by shape. The first request inserts the type (at the moment it
/// would without the cache, so the module is the same); a later one skips the type set's hash
/// and probe (type inserts were 3 % of lowering, most of them repeats).
#[derive(Debug, Default)]
pub struct Types([Option<Handle<naga::Type>>; 16]);

impl Types {
    /// The entry of a shape, if the cache keeps it.
    fn entry(size: Option<naga::VectorSize>, s: naga::Scalar) -> Option<usize> {
        let kind = [build::U32, build::I32, build::F32, naga::Scalar::BOOL]
            .iter()
            .position(|k| *k == s)?;
        let lanes = match size {
            None => 0,
            Some(naga::VectorSize::Bi) => 1,
            Some(naga::VectorSize::Tri) => 2,
            Some(naga::VectorSize::Quad) => 3,
        };
        Some(lanes * 4 + kind)
    }
}

impl Ctx<'_> {
    /// The scalar type `s`, inserted once ([`Types`]).
    pub fn scalar_ty(&mut self, s: naga::Scalar) -> Handle<naga::Type> {
        self.shaped(None, s)
    }

    /// The vector type of `size` `s`s, inserted once ([`Types`]).
    pub fn vector_ty(&mut self, size: naga::VectorSize, s: naga::Scalar) -> Handle<naga::Type> {
        self.shaped(Some(size), s)
    }

    fn shaped(&mut self, size: Option<naga::VectorSize>, s: naga::Scalar) -> Handle<naga::Type> {
        let entry = Types::entry(size, s);
        if let Some(h) = entry.and_then(|k| self.types.0[k]) {
            return h;
        }
        let h = match size {
            None => build::scalar(&mut self.module, s),
            Some(n) => build::vector(&mut self.module, n, s),
        };
        if let Some(k) = entry {
            self.types.0[k] = Some(h);
        }
        h
    }

    /// `vec4<u32>`.
    pub fn vec4u(&mut self) -> Handle<naga::Type> {
        self.vector_ty(naga::VectorSize::Quad, build::U32)
    }

    /// `u32`.
    pub fn u32_ty(&mut self) -> Handle<naga::Type> {
        self.scalar_ty(build::U32)
    }

    /// `f32`.
    pub fn f32_ty(&mut self) -> Handle<naga::Type> {
        self.scalar_ty(build::F32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape the cache keeps has an entry of its own; a shape it does not keep (a
    /// 16-bit float) has none, so it is inserted as it was without the cache.
    #[test]
    fn each_kept_shape_has_its_own_entry() {
        use naga::VectorSize::{Bi, Quad, Tri};
        let mut seen = std::collections::BTreeSet::new();
        for size in [None, Some(Bi), Some(Tri), Some(Quad)] {
            for s in [build::U32, build::I32, build::F32, naga::Scalar::BOOL] {
                let e = Types::entry(size, s).expect("kept");
                assert!(e < 16 && seen.insert(e), "{size:?} {s:?}");
            }
        }
        assert_eq!(Types::entry(None, naga::Scalar::F16), None);
        assert_eq!(Types::entry(Some(Quad), naga::Scalar::F64), None);
    }
}
