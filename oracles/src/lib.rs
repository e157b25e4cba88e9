#![deny(missing_docs)]

//! The reference side of every comparison: what Direct3D 11 says a DXBC program computes, and
//! what a difference from it means.
//!
//! # Modules
//!
//! * [`rules`]: the D3D semantics, one function per rule on raw register bits (`u32`, or `u64`
//!   for a double), each citing the D3D11.3 Functional Specification (FS §…) and
//!   `docs/d3d11-vs-wgsl-semantics.md`; a rule that can enter a domain takes `ev: &mut Events`.
//! * [`interp`]: the batch interpreter. It runs one instruction across every lane of a batch
//!   (an invocation per lane; a thread group per batch for compute) on a `Machine` whose
//!   register files are component-major; `flow` narrows the active [`interp::mask::Mask`]
//!   through structured control flow, `memory` and `textures` apply D3D's bounds rules to
//!   buffers, TGSM and textures ([`interp::resources`]), and each ALU opcode calls its rule.
//!   Beside the values it keeps the trackers of `interp::tracked`, which `taint` (approximate
//!   values), `nan` (NaNs with a free payload), `race` (unordered memory accesses) and
//!   `ranges` (dynamic `v#`/`o#` indices) update as instructions run; `constants` finds temps
//!   that hold compile-time constants once per program, and `folding` uses it to spot ops a
//!   GPU compiler folds. Undefined behaviour is recorded as an [`interp::Finding`].
//! * [`domain`]: the events a rule or the interpreter raises in a lane: one [`domain::Domain`]
//!   per input class where a translation may differ, a bit each in [`domain::Events`].
//! * [`catalog`]: the adaptation catalog as data (`catalog.json`, embedded): one entry per
//!   documented divergence, with its domains and tolerance, and a [`catalog::Scope`]:
//!   `translator` (applies where the translation claims it), `executor` (what a device does
//!   on its own) or `d3d` (what Direct3D leaves undefined).
//! * [`band`]: error bands, the one type for D3D's per-op accuracy and a catalog tolerance.
//! * [`verdict`]: the one [`verdict::Judge`] per program, its [`verdict::Verdict`] per word or
//!   lane, and the [`verdict::Skip`] of a program that did not run.
//! * [`case`], [`replay`]: the `dxdiff-case/1` format, and its runs checked on the interpreter.
//!
//! # How a lane is judged
//!
//! Rules and the interpreter raise domain events into the lane's [`domain::Events`]; a catalog
//! entry that applies covers a difference in that lane only if one of its domains is among
//! them. [`verdict::Judge::word`] decides: equal bits match; within D3D's band for the
//! program's ops is within; else the applicable entries whose domain the lane entered adapt
//! it; else the tolerances of applicable entries may widen the band; else it is a mismatch.
//!
//! Opcode facts live in the flags of `dxbc::opcodes::TABLE`, not here: `APPROXIMATE`, `POLE`,
//! `CONTINUOUS`, `KEEPS_ABSOLUTE` drive taint; `FREES_NAN`, `MOVE` free NaNs (`MOVE` also
//! constants); `FOLDS_ZERO` folding; `FUSED` the judge's term magnitude of mad and dp2-4.

pub mod band;
pub mod case;
pub mod catalog;
pub mod domain;
#[doc(hidden)]
pub mod fixtures;
pub mod interp;
pub mod replay;
pub mod rules;
pub mod verdict;
