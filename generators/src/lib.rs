#![deny(missing_docs)]

//! Inputs and programs for differential runs of DXBC->WGSL translators.
//!
//! # What the crate produces
//!
//! - [`values`]: edge-biased 32-bit words (NaN payloads, ±0, denormals, integer and f16
//!   limits, mixed with ordinary values), as raw bits so no host float rewrites them;
//!   [`values::sample`] draws them deterministically from a seed.
//! - [`programs`]: one pixel program per plain ALU opcode of Shader Model 5.0 and below, a
//!   single instruction between flat `uint` inputs and outputs, so each opcode is compared alone.
//! - [`random`]: random multi-statement programs, valid by construction, for `dxdiff fuzz`.
//!
//! # Data flow of `random`
//!
//! [`random::Knobs`] (what may be generated, narrowed per translator) -> `draw` rolls a
//! [`random::RandomProgram`], a tree of [`random::Stmt`] over a fixed register layout ->
//! `lower` writes it as assembly text, adding the scaffolding that keeps it defined (loop
//! counters, masked indices, outputs), with `recondition` deciding which temps must be
//! initialised first -> `dxbc` assembles it and `container` wraps it with the signature chunks
//! fxc writes ([`random::RandomProgram::blob`]). When a program diverges, `shrink` offers
//! simpler trees ([`random::RandomProgram::shrink_candidates`]); they go through the same
//! lowering, so a shrunk program keeps every rule too.
//!
//! # Determinism
//!
//! Program `i` of a campaign is [`random::generate`] of the knobs and a seed the harness
//! derives from (campaign seed, `i`): nothing depends on time, thread count or hash order, so a
//! campaign resumes and a finding replays from (seed, index) alone. Tests pin a hash of the
//! containers of the first seeds per stage; a change that moves it changes every recorded
//! finding, and must say so in its commit.
//!
//! # The opcode table
//!
//! What to generate is read from [`dxbc::opcodes::TABLE`], not from lists kept here: its `MOVE`
//! flag makes a row a move ([`random::Class::Move`]) and admits moves into the
//! single-instruction set; `DERIVATIVE` keeps derivatives out of it (their value depends on
//! neighbouring pixels); and [`random::ATOMICS`] are held by a test to the table's
//! `COMMUTATIVE` atomics, the ones whose result does not depend on thread order.

pub mod programs;
pub mod random;
pub mod values;
