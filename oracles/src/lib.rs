//! Placeholder: this crate is built by a later issue (see docs/architecture.md).
