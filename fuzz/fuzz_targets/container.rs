//! `Container::parse`, the chunk parsers on its chunks, and `Shader::parse` with its listing.
#![no_main]

#[path = "../../dxbc/tests/readers/mod.rs"]
mod readers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| readers::container(data));
