//! The consumer (and a producer taking over) reading an arbitrary ring region behind a valid
//! header: input = 1 byte capacity choice, 8 bytes head, 8 bytes tail, then the record area
//! (zero-filled or cut to the capacity). Positions are arbitrary, so head/tail checks, record
//! header checks, padding and the producer's resume walk all see hostile values.
#![no_main]

#[path = "common.rs"]
mod common;

use sympathy_ring::layout::*;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if data.len() < 17 {
        return;
    }
    let capacity = MIN_CAPACITY << (data[0] % 5); // 64..=1024
    let head = i64::from_le_bytes(data[1..9].try_into().unwrap());
    let tail = i64::from_le_bytes(data[9..17].try_into().unwrap());
    let area = &data[17..];
    let mut file = vec![0u8; file_length(capacity)];
    file[MAGIC_OFFSET..MAGIC_OFFSET + 8].copy_from_slice(&MAGIC.to_le_bytes());
    file[LAYOUT_VERSION_OFFSET..LAYOUT_VERSION_OFFSET + 4]
        .copy_from_slice(&LAYOUT_VERSION.to_le_bytes());
    file[READY_OFFSET..READY_OFFSET + 4].copy_from_slice(&READY.to_le_bytes());
    file[CAPACITY_OFFSET..CAPACITY_OFFSET + 8].copy_from_slice(&(capacity as u64).to_le_bytes());
    file[MAX_MESSAGE_LENGTH_OFFSET..MAX_MESSAGE_LENGTH_OFFSET + 4]
        .copy_from_slice(&(max_message_length(capacity) as i32).to_le_bytes());
    file[HEADER_LENGTH_OFFSET..HEADER_LENGTH_OFFSET + 4]
        .copy_from_slice(&(HEADER_LENGTH as u32).to_le_bytes());
    let n = area.len().min(capacity);
    file[HEADER_LENGTH..HEADER_LENGTH + n].copy_from_slice(&area[..n]);
    let trailer = HEADER_LENGTH + capacity;
    file[trailer + HEAD_POSITION_OFFSET..trailer + HEAD_POSITION_OFFSET + 8]
        .copy_from_slice(&head.to_le_bytes());
    file[trailer + TAIL_POSITION_OFFSET..trailer + TAIL_POSITION_OFFSET + 8]
        .copy_from_slice(&tail.to_le_bytes());
    common::open_and_use(&file);
});
