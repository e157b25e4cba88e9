//! Random programs, valid by construction, for fuzzing translators (`dxdiff fuzz`).
//!
//! A program is a small tree ([`Stmt`]) over a fixed register layout, lowered to assembly text
//! and assembled by the `dxbc` crate, so every generated program is a real container that
//! decodes to itself. The instruction rows come from the one opcode table ([`rows`]); what is
//! generated is set by one configuration struct ([`Knobs`]), which a translator narrows to what it
//! supports before a campaign.
//!
//! Nothing D3D leaves undefined is executed (docs/fuzz.md lists the rules; each is enforced
//! here, by construction or by the reconditioning done at lowering):
//! 1. a temp that may be read before it is written on every path is initialised at the start;
//! 2. a loop has its own counter register, set right before it, tested and decremented first
//!    in its body, so it runs at most `trips` times;
//! 3. dynamic indices into constant buffers, the immediate constant buffer and indexable temps
//!    are masked into range first (`and rI.x, sel, l(size-1)`), unless `oob_indices` asks;
//! 4. an indexable temp is written whole before any read;
//! 5. TGSM: every thread writes its own slot, then a barrier, then the reads, then a barrier;
//!    barriers only at the top level (uniform control flow);
//! 6. UAV stores go to the thread's own element or far out of range (D3D discards those), so no
//!    two threads store to one word; atomics use only order-independent operations, each on
//!    its own words;
//! 7. every output register is written at the end.
//!
//! Modules: `knobs` (what may be generated), `tree` (the program), `draw` (drawing one from a
//! seed), `lower` and `recondition` (assembly text and the rules above), `container` (the
//! assembled container), `shrink` (simpler variants of a program).

mod container;
mod draw;
#[cfg(test)]
mod fxc_like;
mod knobs;
mod lower;
mod recondition;
mod shrink;
#[cfg(test)]
mod tests;
mod tree;

pub use container::{LowerError, code, opcodes};
pub use draw::{generate, nth, program};
pub use knobs::{AIMED_SHARE, Class, Knobs, Mix, Row, rows};
pub use tree::{
    ATOMICS, CB_REGS, ICB_ROWS, INDEXABLE, INPUTS, Op, POSITION_OUTPUT, RandomProgram, Reg, Src,
    Stmt,
};
