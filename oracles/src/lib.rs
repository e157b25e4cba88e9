//! Reference semantics for the differential verifier: D3D11 rule functions and the domain
//! events they raise (see docs/architecture.md).

pub mod domain;
pub mod rules;
