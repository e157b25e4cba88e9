//! D3D11 semantic rules, one public function per rule, on raw register bits.
//!
//! Every function takes and returns the bits a DXBC register holds (`u32`, or `u64` for a
//! double held in a register pair), so that denormals, NaN payloads and signed zeros are
//! never touched by a host float round trip the rule does not ask for. Rules that can enter
//! a [`Domain`](crate::domain::Domain) take `ev: &mut Events` as their last parameter.
//!
//! Section references (FS §…, doc §…) are to `docs/d3d11-vs-wgsl-semantics.md` and the
//! Direct3D 11.3 Functional Specification it cites.

pub mod bits;
pub mod convert;
pub mod counter;
pub mod double;
pub mod float;
pub mod fusion;
pub mod int;
pub mod interpolation;
pub mod texel;
pub mod transcendental;
