//! The token decoder on a bare token stream: a decoded program re-encodes to the same bytes and
//! its exact listing reassembles; validation never panics and bounds what it accepts.
#![no_main]

#[path = "../../dxbc/tests/readers/mod.rs"]
mod readers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| readers::tokens(data));
