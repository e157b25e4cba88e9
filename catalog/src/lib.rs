//! The adaptation catalog as data: `catalog.json`, one record per entry (its id, category,
//! seed reference, ops, domains, tolerance, scope, and which of the built-in translator's
//! profiles claim it). It is the one place an entry's facts are written:
//! - `oracles::catalog` parses [`JSON`] into the judge's entries;
//! - the translator and every other crate name an entry through [`ids`], constants generated
//!   from the file, so an id cannot be misspelt or drift;
//! - the built-in profiles' claims are [`ids::CONTRACT_CLAIMS`] and [`ids::EXACT_CLAIMS`];
//! - `docs/catalog.md`'s table of entries is generated from the parsed entries
//!   (`dxdiff catalog --markdown`), and a test holds the file to it.
//!
//! It sits below `oracles` and `translator` because both name entries and neither depends on
//! the other.

/// The catalog's JSON text.
pub const JSON: &str = include_str!("../catalog.json");

/// One constant per entry, named from its id without the category (`adapted/rcp-division` is
/// [`ids::RCP_DIVISION`]; where two categories share a name, with it:
/// `BOUNDED_GATHER4`), and the built-in profiles' claims.
pub mod ids {
    include!(concat!(env!("OUT_DIR"), "/ids.rs"));
}
