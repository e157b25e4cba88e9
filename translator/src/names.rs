//! The catalog ids the translator relies on or rejects under: the constants the `catalog`
//! crate generates from `catalog.json`, so a renamed or misspelt entry fails the build.

pub use catalog::ids::*;
