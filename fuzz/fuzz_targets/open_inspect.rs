//! `Ring::open` and `inspect` on arbitrary file contents: the file is the input, byte for byte.
#![no_main]

#[allow(dead_code)] // region_file is consumer_region's
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::open_and_use(data);
});
