//! The many-to-one ring: producers on several threads into one consumer, every message
//! verified in per-producer order; claims, aborts and wraps; the unblock of a claim a dead
//! producer left; the kind checks; and a seeded model of claims, commits, aborts and reads.

mod common;

use std::collections::VecDeque;
use std::time::Duration;

use common::TempPath;
use proptest::prelude::*;
use sympathy_ring::layout::{self, Kind};
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{BroadcastRing, ManyToOneRing, Ring, RingError};

/// Producers on threads, each its own type id and pattern stream of varied sizes (claims,
/// copies and aborted claims mixed), into one consumer that checks every message in order per
/// producer: nothing lost, nothing repeated, in a ring small enough to wrap thousands of times.
#[test]
fn producers_on_threads_deliver_every_message_in_order() {
    const PRODUCERS: i32 = 3;
    const PER_PRODUCER: u64 = 20_000;
    let ring = ManyToOneRing::anonymous(1024).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let writers: Vec<_> = (1..=PRODUCERS)
        .map(|type_id| {
            let mut producer = ring.producer();
            std::thread::spawn(move || {
                let pattern = Pattern::new(64);
                let mut buf = [0u8; 64];
                let mut i = 0u64;
                let mut attempt = 0u64;
                while i < PER_PRODUCER {
                    attempt += 1;
                    let size = 4 + (i as usize * 7 + type_id as usize) % 60;
                    let outcome = match attempt % 3 {
                        0 => producer.try_claim(type_id, size).map(|mut claim| {
                            pattern.fill_len(i, &mut claim);
                            claim.commit();
                        }),
                        // An aborted claim becomes padding: the consumer never sees it.
                        1 if attempt % 5 == 1 => {
                            if let Ok(claim) = producer.try_claim(type_id, size) {
                                claim.abort();
                            }
                            continue;
                        }
                        _ => {
                            pattern.fill_len(i, &mut buf[..size]);
                            producer.try_write(type_id, &buf[..size])
                        }
                    };
                    match outcome {
                        Ok(()) => i += 1,
                        Err(RingError::Full { .. }) => std::thread::yield_now(),
                        Err(e) => return Err(e),
                    }
                }
                Ok(())
            })
        })
        .collect();
    let pattern = Pattern::new(64);
    let mut next = [0u64; PRODUCERS as usize];
    let mut failures = Vec::new();
    let mut writers: Vec<_> = writers.into_iter().map(Some).collect();
    while next.iter().any(|&n| n < PER_PRODUCER) {
        // A producer that failed would leave this loop waiting for ever: report it.
        for w in writers.iter_mut() {
            if w.as_ref().is_some_and(|w| w.is_finished()) {
                w.take().unwrap().join().unwrap().unwrap();
            }
        }
        consumer
            .read(
                |type_id, bytes| {
                    let slot = &mut next[type_id as usize - 1];
                    if let Err(m) = pattern.check_len(*slot, bytes) {
                        failures.push(format!("type {type_id} message {}: {m}", *slot));
                    }
                    *slot += 1;
                },
                256,
            )
            .unwrap();
        assert!(failures.is_empty(), "{failures:?}");
    }
    for w in writers.into_iter().flatten() {
        w.join().unwrap().unwrap();
    }
    assert_eq!(next, [PER_PRODUCER; PRODUCERS as usize]);
    assert_eq!(consumer.read(|_, _| panic!("nothing more"), 10).unwrap(), 0);
}

/// The consumer zeroes what it read before releasing it: after a full lap of reads the record
/// area is zero again (no producer pre-zeroes headers in a many-to-one ring).
#[test]
fn consumer_zeroes_what_it_read() {
    let path = TempPath::new("mpsc-zero");
    let ring = ManyToOneRing::create(&path.0, 256).unwrap();
    let mut producer = ring.producer();
    let mut consumer = ring.consumer().unwrap();
    for round in 0..10u8 {
        while producer.try_write(1, &[round; 20]).is_ok() {}
        while consumer.read(|_, _| {}, 100).unwrap() > 0 {}
    }
    let bytes = std::fs::read(&path.0).unwrap();
    let area = &bytes[layout::HEADER_LENGTH..layout::HEADER_LENGTH + 256];
    assert!(area.iter().all(|&b| b == 0), "{area:?}");
}

/// A claim left in progress (its producer died: here the claim is forgotten, never committed
/// nor aborted) holds the consumer up until the unblock turns it into padding; the messages
/// other producers wrote after it are then read.
#[test]
fn unblock_turns_an_abandoned_claim_into_padding() {
    let ring = ManyToOneRing::anonymous(1024).unwrap();
    let mut dead = ring.producer();
    let mut live = ring.producer();
    let mut consumer = ring.consumer().unwrap();
    consumer.set_unblock_after(None);
    std::mem::forget(dead.try_claim(1, 12).unwrap());
    live.try_write(2, b"after").unwrap();
    assert_eq!(consumer.read(|_, _| {}, 10).unwrap(), 0, "held up");
    assert!(consumer.unblock());
    let mut got = Vec::new();
    consumer.read(|t, b| got.push((t, b.to_vec())), 10).unwrap();
    assert_eq!(got, [(2, b"after".to_vec())]);
    assert!(!consumer.unblock(), "nothing left to unblock");
}

/// The reads unblock by themselves once the head has been stuck for the unblock time.
#[test]
fn reads_unblock_a_claim_stuck_past_the_unblock_time() {
    let ring = ManyToOneRing::anonymous(1024).unwrap();
    let mut consumer = ring.consumer().unwrap();
    consumer.set_unblock_after(Some(Duration::from_millis(20)));
    let mut dead = ring.producer();
    std::mem::forget(dead.try_claim(1, 12).unwrap());
    ring.producer().try_write(2, b"after").unwrap();
    let start = std::time::Instant::now();
    let mut got = Vec::new();
    while got.is_empty() {
        consumer.read(|t, _| got.push(t), 10).unwrap();
        assert!(start.elapsed() < Duration::from_secs(30), "never unblocked");
    }
    assert!(start.elapsed() >= Duration::from_millis(20));
    assert_eq!((got, consumer.unblocked()), (vec![2], 1));
}

/// A producer that died between its compare-and-swap on the tail and its first store leaves a
/// zero header at the head: the unblock pads up to the next record's header.
#[test]
fn unblock_pads_a_claim_whose_header_was_never_written() {
    let path = TempPath::new("mpsc-zero-claim");
    let ring = ManyToOneRing::create(&path.0, 1024).unwrap();
    // A dead producer's claim of 24 bytes: the tail moved, nothing written.
    let trailer = layout::HEADER_LENGTH + 1024;
    poke_i64(&path.0, trailer + layout::TAIL_POSITION_OFFSET, 24);
    let reopened = ManyToOneRing::open(&path.0).unwrap();
    reopened.producer().try_write(5, b"later").unwrap();
    let mut consumer = ring.consumer().unwrap();
    consumer.set_unblock_after(None);
    assert_eq!(consumer.read(|_, _| {}, 10).unwrap(), 0);
    assert!(consumer.unblock());
    let mut got = Vec::new();
    consumer.read(|t, b| got.push((t, b.to_vec())), 10).unwrap();
    assert_eq!(got, [(5, b"later".to_vec())]);
    assert_eq!(consumer.position(), 24 + 16);
}

/// A record that fits neither before the end of the area nor before the head at 0 still pads
/// the end (the tail moves past it), as Agrona's `claimCapacity`, and the ring reports full.
#[test]
fn full_at_the_wrap_pads_the_end_first() {
    let ring = ManyToOneRing::anonymous(256).unwrap();
    let mut producer = ring.producer();
    let mut consumer = ring.consumer().unwrap();
    for _ in 0..7 {
        producer.try_write(1, &[1; 24]).unwrap(); // 32 bytes each: tail 224
    }
    consumer.read(|_, _| {}, 1).unwrap(); // head 32: 32 bytes free at 0, 32 at the end
    let err = producer.try_write(1, &[2; 28]).unwrap_err(); // 40 bytes: fits neither
    assert!(err.is_full(), "{err}");
    // The end of the area is padding now, and the reads skip it.
    assert_eq!(consumer.read(|_, _| {}, 100).unwrap(), 6);
    assert_eq!(consumer.position(), 256);
    producer.try_write(1, &[3; 28]).unwrap();
    assert_eq!(consumer.read(|_, b| assert_eq!(b, [3; 28]), 10).unwrap(), 1);
}

/// Each kind's open refuses the others' files, naming what the file is.
#[test]
fn each_kind_refuses_the_others_files() {
    let dir = TempPath::new("kinds");
    std::fs::create_dir_all(&dir.0).unwrap();
    let spsc = dir.0.join("spsc");
    let mpsc = dir.0.join("mpsc");
    let broadcast = dir.0.join("broadcast");
    Ring::create(&spsc, 1024).unwrap();
    ManyToOneRing::create(&mpsc, 1024).unwrap();
    BroadcastRing::create(&broadcast, 1024).unwrap();
    let wrong = |e: RingError, found: Kind, wanted: Kind| match e {
        RingError::WrongKind {
            found: f,
            wanted: w,
            ..
        } => {
            assert_eq!((f, w), (found, wanted));
            assert_eq!(e.kind(), "wrong-kind");
        }
        e => panic!("expected wrong-kind, got {e}"),
    };
    wrong(
        Ring::open(&mpsc).unwrap_err(),
        Kind::ManyToOne,
        Kind::OneToOne,
    );
    wrong(
        Ring::open(&broadcast).unwrap_err(),
        Kind::Broadcast,
        Kind::OneToOne,
    );
    wrong(
        ManyToOneRing::open(&spsc).unwrap_err(),
        Kind::OneToOne,
        Kind::ManyToOne,
    );
    wrong(
        BroadcastRing::open(&mpsc).unwrap_err(),
        Kind::ManyToOne,
        Kind::Broadcast,
    );
    let message = Ring::open(&mpsc).unwrap_err().to_string();
    assert!(
        message.contains("is a many-to-one (mpsc) ring, not a one-to-one (spsc) ring"),
        "{message}"
    );
    // One-to-one rings keep layout version 1 (older builds read them); the others are 2.
    let version = |p: &std::path::Path| std::fs::read(p).unwrap()[8];
    assert_eq!(
        [version(&spsc), version(&mpsc), version(&broadcast)],
        [1, 2, 2]
    );
    assert_eq!(
        std::fs::metadata(&broadcast).unwrap().len(),
        Kind::Broadcast.file_length(1024) as u64
    );
    std::fs::remove_dir_all(&dir.0).unwrap();
}

/// A version 2 header whose kind word names no kind is a corrupt header.
#[test]
fn an_unknown_kind_is_a_corrupt_header() {
    let path = TempPath::new("kind-7");
    ManyToOneRing::create(&path.0, 1024).unwrap();
    let mut bytes = std::fs::read(&path.0).unwrap();
    bytes[layout::KIND_OFFSET] = 7;
    std::fs::write(&path.0, bytes).unwrap();
    let e = ManyToOneRing::open(&path.0).unwrap_err();
    assert_eq!(e.kind(), "corrupt-header");
    assert!(e.to_string().contains("kind is 7"), "{e}");
}

fn poke_i64(path: &std::path::Path, offset: usize, value: i64) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[offset..offset + 8].copy_from_slice(&value.to_le_bytes());
    std::fs::write(path, bytes).unwrap();
}

/// One step of the model test.
#[derive(Debug, Clone)]
enum Op {
    /// The writing producer (one for all copies) writes a message of `size` bytes.
    Write { size: usize },
    /// Producer `p` claims `size` bytes and keeps the claim open.
    Claim { p: usize, size: usize },
    /// Producer `p` commits (or aborts) its open claim, if any.
    Finish { p: usize, commit: bool },
    /// The consumer reads up to `limit` messages.
    Read { limit: usize },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (4..40usize).prop_map(|size| Op::Write { size }),
        (0..3usize, 4..40usize).prop_map(|(p, size)| Op::Claim { p, size }),
        (0..3usize, any::<bool>()).prop_map(|(p, commit)| Op::Finish { p, commit }),
        (1..8usize).prop_map(|limit| Op::Read { limit }),
    ]
}

/// A record as the model sees it: its sequence number and whether it is still being written.
#[derive(Clone, Copy, PartialEq, Debug)]
enum State {
    Pending,
    Committed,
    Aborted,
}

proptest! {
    /// Against a model (the records in claim order, each pending until committed or
    /// aborted): every read hands out exactly the committed records at the front, in claim
    /// order, skipping aborted ones and stopping at the first pending one; a write into an
    /// empty ring never fails.
    #[test]
    fn matches_a_model_of_claims_commits_and_reads(ops in proptest::collection::vec(op(), 1..200)) {
        const CAPACITY: usize = 512;
        let ring = ManyToOneRing::anonymous(CAPACITY).unwrap();
        let mut writer = ring.producer();
        // One producer per claim, so open claims (each borrowing its producer) can be held.
        let mut pool: Vec<_> = (0..ops.len()).map(|_| ring.producer()).collect();
        let mut pool = pool.iter_mut();
        let mut consumer = ring.consumer().unwrap();
        consumer.set_unblock_after(None);
        let mut model: VecDeque<(u64, State)> = VecDeque::new();
        let mut open: Vec<Option<(u64, sympathy_ring::ManyToOneClaim<'_>)>> = vec![None, None, None];
        let mut seq = 0u64;
        for op in ops {
            match op {
                Op::Write { size } => {
                    let mut payload = vec![0u8; size.max(8)];
                    payload[..8].copy_from_slice(&seq.to_le_bytes());
                    let empty = model.is_empty();
                    match writer.try_write(1, &payload) {
                        Ok(()) => {
                            model.push_back((seq, State::Committed));
                            seq += 1;
                        }
                        Err(e) => {
                            prop_assert!(e.is_full(), "{}", e);
                            prop_assert!(!empty, "a write into an empty ring failed: {}", e);
                        }
                    }
                }
                Op::Claim { p, size } => {
                    if open[p].is_some() {
                        continue;
                    }
                    let producer = pool.next().unwrap();
                    match producer.try_claim(2, size.max(8)) {
                        Ok(mut claim) => {
                            claim[..8].copy_from_slice(&seq.to_le_bytes());
                            open[p] = Some((seq, claim));
                            model.push_back((seq, State::Pending));
                            seq += 1;
                        }
                        Err(e) => prop_assert!(e.is_full(), "{}", e),
                    }
                }
                Op::Finish { p, commit } => {
                    if let Some((s, claim)) = open[p].take() {
                        let state = if commit { claim.commit(); State::Committed } else { claim.abort(); State::Aborted };
                        let entry = model.iter_mut().find(|(n, _)| *n == s).unwrap();
                        entry.1 = state;
                    }
                }
                Op::Read { limit } => {
                    let mut got = Vec::new();
                    // A read stops at the end of the area: a second one goes on from index 0.
                    for _ in 0..2 {
                        let left = limit - got.len();
                        consumer.read(|_, b| got.push(u64::from_le_bytes(b[..8].try_into().unwrap())), left).unwrap();
                    }
                    let mut expected = Vec::new();
                    while expected.len() < limit {
                        match model.front() {
                            Some((_, State::Aborted)) => { model.pop_front(); }
                            Some((n, State::Committed)) => { expected.push(*n); model.pop_front(); }
                            _ => break,
                        }
                    }
                    prop_assert_eq!(got, expected);
                }
            }
        }
    }
}
