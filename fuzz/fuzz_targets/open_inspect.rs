//! `Ring::open` and `inspect` on arbitrary file contents: the file is the input, byte for byte.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::open_and_use(data);
});
