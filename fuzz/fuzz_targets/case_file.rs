//! Case files (`dxdiff-case/1`): `CaseFile::parse`, its round trip, and the program it holds.
#![no_main]

include!("../checks/json_readers.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| case_file(data));
