//! Generators for differential runs: edge-biased 32-bit input values (proptest strategies,
//! sampled deterministically from a seed) and single-instruction programs for every ALU opcode,
//! built with the `dxbc` builder.

pub mod programs;
pub mod random;
pub mod values;
