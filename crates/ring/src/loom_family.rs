//! loom model checks of the many-to-one and broadcast protocols (`ci/loom`, beside
//! [`crate::loom_model`]'s of the one-to-one ring), through the real code; only the atomics
//! differ (see [`crate::primitive`]).
//!
//! - Many-to-one: two producers claiming with the compare-and-swap (a claim filled in place and a
//!   copy each) into one consumer, over the smallest ring, through the wrap; every message
//!   verified, each producer's in order; the consumer never hands out a claim in progress.
//! - The unblock of a claim left by a dead producer (its header in progress, or never written)
//!   while a live producer writes behind it and the consumer reads: the consumer gets exactly the
//!   live producer's message, never the dead one's.
//! - Broadcast: a receiver racing a transmitter that laps it: every record it hands out is
//!   intact (the tail-intent check after the copy), in increasing order.
//!
//! Under loom every 8-byte word of the record area is a loom atomic, so the broadcast payload
//! (written and copied word by word) is in the model too; a many-to-one payload is copied
//! outside it (Miri and the process tests check those bytes).

use loom::thread;
use sympathy_mapped::loom_check::model;

use crate::pattern::Pattern;
use crate::{BroadcastRing, ManyToOneProducer, ManyToOneRing};

/// 64 bytes: four 16-byte records of 8-byte messages.
const CAPACITY: usize = 64;

/// The 8-byte message `seq` of producer `type_id`: its key `type_id << 32 | seq` in the
/// pattern.
fn message(type_id: i32, seq: u64) -> [u8; 8] {
    let mut bytes = [0; 8];
    Pattern::new(8).fill(key(type_id, seq), &mut bytes);
    bytes
}

fn key(type_id: i32, seq: u64) -> u64 {
    ((type_id as u64) << 32) | seq
}

/// Writes `count` messages of producer `type_id`, even ones through a claim filled in place,
/// retrying (with a yield, so loom bounds the spin) while the ring is full.
fn produce(mut producer: ManyToOneProducer, type_id: i32, count: u64) {
    for seq in 0..count {
        let bytes = message(type_id, seq);
        loop {
            let outcome = if seq % 2 == 0 {
                producer.try_claim(type_id, 8).map(|mut claim| {
                    claim.copy_from_slice(&bytes);
                    claim.commit();
                })
            } else {
                producer.try_write(type_id, &bytes)
            };
            match outcome {
                Ok(()) => break,
                Err(e) if e.is_full() => thread::yield_now(),
                Err(e) => panic!("producer {type_id}: {e}"),
            }
        }
    }
}

#[test]
fn loom_model_two_producers_into_one_consumer() {
    model("two_producers_into_one_consumer", || {
        const EACH: u64 = 2;
        let ring = ManyToOneRing::anonymous(CAPACITY).unwrap();
        let mut consumer = ring.consumer().unwrap();
        consumer.set_unblock_after(None);
        let writers: Vec<_> = [1, 2]
            .map(|type_id| {
                let producer = ring.producer();
                thread::spawn(move || produce(producer, type_id, EACH))
            })
            .into_iter()
            .collect();
        let mut next = [0u64; 2];
        while next != [EACH; 2] {
            let n = consumer
                .read(
                    |type_id, bytes| {
                        let slot = &mut next[type_id as usize - 1];
                        assert_eq!(bytes, message(type_id, *slot), "out of order or torn");
                        *slot += 1;
                    },
                    8,
                )
                .unwrap();
            if n == 0 {
                thread::yield_now();
            }
        }
        for w in writers {
            w.join().unwrap();
        }
        assert_eq!(consumer.read(|_, _| panic!("extra message"), 8).unwrap(), 0);
    });
}

/// A producer died holding a claim: `written` says whether it had stored its in-progress header
/// (else it died between its compare-and-swap and that store). A live producer writes one
/// message behind it while the consumer reads and, finding the head held up, unblocks until
/// the dead claim is padded (once: the live producer's claim is never unblocked, as the
/// unblock time ensures in real use). With a zero header the unblock pads only once the live
/// producer's header is there to find.
fn dead_claim_is_unblocked(written: bool) {
    let ring = ManyToOneRing::anonymous(CAPACITY).unwrap();
    if written {
        std::mem::forget(ring.producer().try_claim(9, 8).unwrap());
    } else {
        // SYNC POINT: tail-claim (the dead producer's claim of a 16-byte record)
        assert!(ring.region.cas_tail(0, 16));
    }
    let live = ring.producer();
    let writer = thread::spawn(move || produce(live, 1, 1));
    let mut consumer = ring.consumer().unwrap();
    consumer.set_unblock_after(None);
    let mut got = Vec::new();
    while got.is_empty() {
        let n = consumer
            .read(|type_id, bytes| got.push((type_id, bytes.to_vec())), 8)
            .unwrap();
        // Only the dead claim is ever unblocked: a live producer's claim in progress is not
        // (the consumer's unblock time stands for that rule in real use).
        if n == 0 && consumer.unblocked() == 0 {
            consumer.unblock();
        }
        if n == 0 {
            thread::yield_now();
        }
    }
    writer.join().unwrap();
    assert_eq!(got, [(1, message(1, 0).to_vec())]);
    assert_eq!(consumer.unblocked(), 1);
}

#[test]
fn loom_model_unblock_of_a_claim_in_progress() {
    model("unblock_of_a_claim_in_progress", || {
        dead_claim_is_unblocked(true)
    });
}

#[test]
fn loom_model_unblock_of_a_claim_never_written() {
    model("unblock_of_a_claim_never_written", || {
        dead_claim_is_unblocked(false)
    });
}

/// The type id of broadcast message `seq`: it differs between neighbouring records, so a copy
/// torn between two records (one's header, the other's payload) shows.
fn type_of(seq: u64) -> i32 {
    1 + (seq % 3) as i32
}

#[test]
fn loom_model_a_lapped_receiver_hands_out_only_intact_records() {
    model("a_lapped_receiver_hands_out_only_intact_records", || {
        // Five 16-byte records through a 64-byte ring: the fifth overwrites the first, lapping
        // a receiver that has not taken it yet, or is copying it.
        const COUNT: u64 = 5;
        let ring = BroadcastRing::anonymous(CAPACITY).unwrap();
        let mut receiver = ring.receiver().unwrap();
        let mut transmitter = ring.transmitter().unwrap();
        let sender = thread::spawn(move || {
            for seq in 0..COUNT {
                transmitter
                    .transmit(type_of(seq), &message(1, seq))
                    .unwrap();
            }
        });
        let mut last = None;
        while last != Some(COUNT - 1) {
            let got = receiver
                .receive(|type_id, bytes| {
                    let seq = crate::pattern::index_of(bytes).unwrap() & 0xffff_ffff;
                    assert_eq!(bytes, message(1, seq), "a torn record was handed out");
                    assert_eq!(
                        type_id,
                        type_of(seq),
                        "a header and a payload of two records"
                    );
                    seq
                })
                .unwrap();
            match got {
                Some(seq) => {
                    assert!(last.is_none_or(|l| seq > l), "{seq} after {last:?}");
                    last = Some(seq);
                }
                None => thread::yield_now(),
            }
        }
        sender.join().unwrap();
    });
}
