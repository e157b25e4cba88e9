//! The signature, RDEF, STAT and SFI0 parsers; the first byte picks which.
#![no_main]

#[path = "../../dxbc/tests/readers/mod.rs"]
mod readers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| readers::chunks(data));
