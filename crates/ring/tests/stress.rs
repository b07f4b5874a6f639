//! Two threads, one ring: every byte of every message arrives, in order, across many wraps,
//! with writes, claims and batches mixed.

use std::thread;

use sympathy_ring::pattern::{MIN_MESSAGE_SIZE, Pattern, pattern_byte};
use sympathy_ring::{Ring, Wait};

const MESSAGES: u64 = if cfg!(miri) {
    1_000
} else if cfg!(debug_assertions) {
    50_000
} else {
    300_000
};

/// Message `i`'s size: varied, never above the ring's maximum.
fn size_of(i: u64, max: usize) -> usize {
    [4usize, 0, 17, 8, 64, 1, 33, max][(i % 8) as usize].min(max)
}

#[test]
fn two_threads_deliver_every_byte_in_order() {
    let ring = Ring::anonymous(4096).unwrap();
    let max = ring.max_message_length();
    let mut producer = ring.producer().unwrap();
    let mut consumer = ring.consumer().unwrap();
    let patterns: Vec<Pattern> = (0..=max).map(Pattern::new).collect();

    let writer = {
        let patterns = patterns.clone();
        thread::spawn(move || {
            let wait = Wait::spin_then_yield();
            let mut buf = vec![0u8; max];
            let mut i = 0;
            while i < MESSAGES {
                let size = size_of(i, max);
                match i % 3 {
                    0 => {
                        patterns[size].fill(i, &mut buf[..size]);
                        producer
                            .write(1 + (i % 5) as i32, &buf[..size], &wait)
                            .unwrap();
                        i += 1;
                    }
                    1 => {
                        if let Ok(mut claim) = producer.try_claim(1 + (i % 5) as i32, size) {
                            patterns[size].fill(i, &mut claim);
                            claim.commit();
                            i += 1;
                        } else {
                            std::thread::yield_now();
                        }
                    }
                    _ => {
                        let mut batch = producer.batch();
                        while i < MESSAGES && batch.len() < 16 {
                            let size = size_of(i, max);
                            patterns[size].fill(i, &mut buf[..size]);
                            if batch.try_write(1 + (i % 5) as i32, &buf[..size]).is_err() {
                                break;
                            }
                            i += 1;
                        }
                        if batch.finish() == 0 {
                            std::thread::yield_now();
                        }
                    }
                }
            }
        })
    };

    let mut next = 0u64;
    let wait = Wait::spin_then_yield();
    while next < MESSAGES {
        consumer
            .read_wait(
                |type_id, bytes| {
                    assert_eq!(type_id, 1 + (next % 5) as i32, "type of message {next}");
                    let size = size_of(next, max);
                    if size < MIN_MESSAGE_SIZE {
                        // Under the pattern's minimum: compared byte by byte.
                        let want: Vec<u8> = (0..size).map(|k| pattern_byte(next, k)).collect();
                        assert_eq!(bytes, want, "message {next}");
                    } else if let Err(m) = patterns[size].check(next, bytes) {
                        panic!("message {next}: {m}");
                    }
                    next += 1;
                },
                64,
                &wait,
            )
            .unwrap();
    }
    writer.join().unwrap();
    assert_eq!(
        consumer.read(|_, _| panic!("extra message"), 64).unwrap(),
        0
    );
}
