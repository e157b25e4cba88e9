//! What dxdiff reports, as versioned data and its renderings.
//!
//! The harness runs programs and fills these models in; this crate owns their shape and how
//! they are written, so every command writes the same way and every format lives in one place:
//!
//! | module | model | renderings |
//! | --- | --- | --- |
//! | [`counts`] | verdict counts per lane ([`counts::Counts`], [`counts::Tally`]) | |
//! | [`verify`] | `dxdiff verify`'s run report (`dxdiff-report/1`) | JSON, Markdown, HTML, JUnit, closing line |
//! | [`contract`] | `dxdiff contract`'s per-entry rows (`dxdiff-contract/1`) | table, JSON, Markdown, JUnit, closing line |
//! | [`corpus`] | corpus qualification records (`dxdiff-corpus/1`) | JSON, Markdown, HTML, JUnit |
//! | [`transition`] | a record against its baseline | text, regressions |
//! | [`diff`] | two builds' `verify` runs compared (`dxdiff-diff/1`) | JSON, Markdown, closing line |
//! | [`fuzz`] | a fuzz campaign's state (`dxdiff-fuzz/2`) | JSON, HTML, progress and closing lines, JUnit |
//! | [`sweep`] | an exhaustive sweep's state (`dxdiff-sweep/1`) | JSON, Markdown, HTML, closing line |
//! | [`bench`] | translation throughput | Markdown |
//! | [`cases`] | `dxdiff-case/1` files | one writer that returns its IO errors |
//! | [`junit`] | the JUnit document shape | |
//! | [`shard`] | `--shard K/N` and merging shards' reports | |
//! | [`html`] | the self-contained HTML page (`report.html`) | |

#![deny(missing_docs)]

pub mod answers;
pub mod bench;
pub mod cases;
pub mod contract;
pub mod corpus;
pub mod counts;
pub mod coverage;
pub mod diff;
pub mod folder;
pub mod fuzz;
pub mod html;
pub mod junit;
pub mod outcome;
pub mod part;
pub mod shard;
pub mod sweep;
pub mod text;
pub mod transition;
pub mod verify;

/// Read a versioned JSON document: its `format` tag first, so a document of another format or
/// version is named as such (`other`) rather than failing on a field it lacks; then the whole.
pub(crate) fn parse_tagged<T, E>(text: &str, format: &str, other: fn(String) -> E) -> Result<T, E>
where
    T: serde::de::DeserializeOwned,
    E: From<serde_json::Error>,
{
    #[derive(serde::Deserialize)]
    struct Tag {
        format: String,
    }
    let tag: Tag = serde_json::from_str(text)?;
    if tag.format != format {
        return Err(other(tag.format));
    }
    Ok(serde_json::from_str(text)?)
}
