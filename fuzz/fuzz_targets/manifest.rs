//! Binding manifests as external translators send them: deserializing and `Manifest::check`.
#![no_main]

include!("../checks/json_readers.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| manifest(data));
