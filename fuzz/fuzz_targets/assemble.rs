//! The assembler (and the signature-table parser) on arbitrary text.
#![no_main]

#[path = "../../dxbc/tests/readers/mod.rs"]
mod readers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| readers::text(data));
