//! The consumer (and a producer taking over) reading an arbitrary ring region behind a valid
//! header: input = 1 byte capacity choice, 8 bytes head, 8 bytes tail, then the record area
//! (zero-filled or cut to the capacity). Positions are arbitrary, so head/tail checks, record
//! header checks, padding and the producer's resume walk all see hostile values.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some(file) = common::region_file(data) {
        common::open_and_use(&file);
    }
});
