//! What dxdiff reports, as versioned data and its renderings.
//!
//! The harness runs programs and fills these models in; this crate owns their shape and how
//! they are written, so every command writes the same way and every format lives in one place:
//!
//! | module | model | renderings |
//! | --- | --- | --- |
//! | [`counts`] | verdict counts per lane ([`counts::Counts`], [`counts::Tally`]) | |
//! | [`verify`] | `dxdiff verify`'s run report (`dxdiff-report/1`) | JSON, Markdown, HTML, JUnit, closing line |
//! | [`corpus`] | corpus qualification records (`dxdiff-corpus/1`) | JSON, Markdown, HTML, JUnit |
//! | [`transition`] | a record against its baseline | text, regressions |
//! | [`fuzz`] | a fuzz campaign's state (`dxdiff-fuzz/2`) | JSON, HTML, progress and closing lines, JUnit |
//! | [`sweep`] | an exhaustive sweep's state (`dxdiff-sweep/1`) | JSON, Markdown, HTML, closing line |
//! | [`bench`] | translation throughput | Markdown |
//! | [`cases`] | `dxdiff-case/1` files | one writer that returns its IO errors |
//! | [`junit`] | the JUnit document shape | |
//! | [`shard`] | `--shard K/N` and merging shards' reports | |
//! | [`html`] | the self-contained HTML page (`report.html`) | |

#![deny(missing_docs)]

pub mod bench;
pub mod cases;
pub mod corpus;
pub mod counts;
pub mod fuzz;
pub mod html;
pub mod junit;
pub mod shard;
pub mod sweep;
pub mod transition;
pub mod verify;
