//! The `outside_text` check of `fuzz/checks/json_readers.rs` (tests/tests/readers.rs runs its slice).
#![no_main]

include!("../checks/json_readers.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| outside_text(data));
