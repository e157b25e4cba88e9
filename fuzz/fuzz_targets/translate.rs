//! The built-in translator on whatever decodes: in both profiles it never panics, and a
//! module it lowers is one naga validates and writes (a module naga refuses is a program the
//! translator should have refused by name). The check lives once, in
//! `translator/examples/common/mutate.rs`, with the campaign's mutations.
#![no_main]

#[allow(dead_code)]
#[path = "../../translator/examples/common/mutate.rs"]
mod mutate;

libfuzzer_sys::fuzz_target!(|data: &[u8]| mutate::assert_sound(data));
