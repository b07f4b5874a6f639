//! loom model checks of the producer/consumer protocol (`ci/loom`): every interleaving (within
//! loom's preemption bound) of one producer thread and one consumer thread over the smallest
//! ring, through the real [`Producer`]/[`Consumer`] code; only the atomics differ (see
//! [`crate::primitive`]). Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p sympathy-ring --lib --profile verify loom_model`.
//!
//! What is checked: claims (negative then positive length), copying writes, padding at the wrap,
//! head release once per batch, the producer's cached head refreshed only when the ring looks
//! full, batch visibility, and `try_write_batch` runs across the wrap. Every delivered message is
//! checked against the pattern and the sequence; the consumer never sees a claim in progress, an
//! aborted claim, or part of a batch. And the attach/detach protocol of the header page: a peer
//! that attaches is never seen as detached, one that detaches is seen as detached exactly (never
//! as a foreign peer), on a fresh ring and on one reused after an earlier detach.
//!
//! The futex wait (`Wait::futex`, [`crate::wake`]) runs against a model of the kernel's futex
//! ([`crate::futex`]'s `model`) in which a sleep lasts until a wake-up: a wake-up the protocol
//! loses leaves a thread asleep for ever, which loom reports as a deadlock.

use loom::thread;
use sympathy_mapped::loom_check::model;

use crate::pattern::Pattern;
use crate::{Consumer, Producer, Ring, RingError, Strategy, Wait};

/// The smallest ring: 64 bytes, 8-byte messages (16-byte records + the pre-zeroed header).
const CAPACITY: usize = 64;

/// Message `seq`'s size: full-size records force wraps after three of them.
fn size_of(seq: u64) -> usize {
    [8usize, 3, 8, 0, 8, 8][seq as usize % 6]
}

fn payload(seq: u64) -> Vec<u8> {
    let mut bytes = vec![0; size_of(seq)];
    Pattern::new(bytes.len()).fill(seq, &mut bytes);
    bytes
}

/// Checks message `seq` byte by byte against [`payload`] (the pattern's own check refuses the
/// 0- and 3-byte messages these models send on purpose).
fn check(seq: u64, bytes: &[u8]) {
    assert_eq!(bytes, payload(seq), "message {seq}");
}

/// Retries `attempt` while the ring is full, yielding to the consumer (loom needs the yield to
/// bound spin loops).
fn until_room(mut attempt: impl FnMut() -> Result<(), RingError>) {
    loop {
        match attempt() {
            Ok(()) => return,
            Err(RingError::Full { .. }) => thread::yield_now(),
            Err(e) => panic!("producer: {e}"),
        }
    }
}

/// Reads until `count` messages arrived, `limit` per batch, checking each one.
fn consume(mut consumer: Consumer, count: u64, limit: usize) {
    let mut next = 0u64;
    while next < count {
        let n = consumer
            .read(
                |type_id, bytes| {
                    assert_eq!(type_id, 1 + (next % 3) as i32, "type of message {next}");
                    assert_eq!(bytes.len(), size_of(next), "length of message {next}");
                    check(next, bytes);
                    next += 1;
                },
                limit,
            )
            .expect("a well-formed ring reads without error");
        if n == 0 {
            thread::yield_now();
        }
    }
    assert_eq!(consumer.read(|_, _| panic!("extra message"), 8).unwrap(), 0);
}

fn ring() -> (Ring, Producer, Consumer) {
    let ring = Ring::anonymous(CAPACITY).unwrap();
    let producer = ring.producer().unwrap();
    let consumer = ring.consumer().unwrap();
    (ring, producer, consumer)
}

/// Copying writes and claims across two wraps, the consumer releasing the head per message.
#[test]
fn loom_model_writes_and_claims_wrap() {
    model("writes_and_claims_wrap", || {
        const COUNT: u64 = 6;
        let (_ring, mut producer, consumer) = ring();
        let writer = thread::spawn(move || {
            for seq in 0..COUNT {
                let type_id = 1 + (seq % 3) as i32;
                let bytes = payload(seq);
                if seq % 2 == 0 {
                    until_room(|| producer.try_write(type_id, &bytes));
                } else {
                    until_room(|| {
                        let mut claim = producer.try_claim(type_id, bytes.len())?;
                        claim.copy_from_slice(&bytes);
                        claim.commit();
                        Ok(())
                    });
                }
            }
        });
        consume(consumer, COUNT, 1);
        writer.join().unwrap();
    });
}

/// An aborted claim between two messages is skipped as padding; the head is released once per
/// batch of up to 4 records.
#[test]
fn loom_model_aborted_claim_is_skipped() {
    model("aborted_claim_is_skipped", || {
        let (_ring, mut producer, consumer) = ring();
        let writer = thread::spawn(move || {
            until_room(|| producer.try_write(1, &payload(0)));
            until_room(|| {
                let mut claim = producer.try_claim(7, 8)?;
                claim.fill(0xee);
                claim.abort();
                Ok(())
            });
            until_room(|| producer.try_write(2, &payload(1)));
            until_room(|| producer.try_write(3, &payload(2)));
        });
        consume(consumer, 3, 4);
        writer.join().unwrap();
    });
}

/// A batch becomes visible all at once: the first read that delivers anything delivers the
/// whole batch.
#[test]
fn loom_model_batch_is_all_or_nothing() {
    model("batch_is_all_or_nothing", || {
        let (_ring, mut producer, mut consumer) = ring();
        let writer = thread::spawn(move || {
            let mut batch = producer.batch();
            for seq in 0..3 {
                batch
                    .try_write(1 + (seq % 3) as i32, &payload(seq))
                    .unwrap();
            }
            assert_eq!(batch.finish(), 3);
        });
        let mut next = 0u64;
        loop {
            let n = consumer
                .read(
                    |_, bytes| {
                        check(next, bytes);
                        next += 1;
                    },
                    8,
                )
                .unwrap();
            match n {
                0 => thread::yield_now(),
                3 => break,
                n => panic!("read {n} messages of a batch of 3"),
            }
        }
        writer.join().unwrap();
    });
}

/// `try_write_batch` runs of 4-byte messages across wraps while the consumer reads: each run is
/// all or nothing, in order, with no stale or partial record delivered (its later headers are
/// stored before the first one is released, the header after it is pre-zeroed).
#[test]
fn loom_model_write_batch_runs_wrap() {
    model("write_batch_runs_wrap", || {
        const COUNT: u64 = 5;
        let (_ring, mut producer, mut consumer) = ring();
        let writer = thread::spawn(move || {
            let mut next = 0u64;
            while next < COUNT {
                let max = (COUNT - next).min(2) as usize;
                let first = next;
                let fill =
                    |k: usize, bytes: &mut [u8]| Pattern::new(4).fill(first + k as u64, bytes);
                match producer.try_write_batch(1, 4, max, fill).unwrap() {
                    0 => thread::yield_now(),
                    n => next += n as u64,
                }
            }
        });
        let mut next = 0u64;
        while next < COUNT {
            let n = consumer
                .read(
                    |type_id, bytes| {
                        assert_eq!(type_id, 1);
                        Pattern::new(4).check(next, bytes).unwrap();
                        next += 1;
                    },
                    8,
                )
                .unwrap();
            if n == 0 {
                thread::yield_now();
            }
        }
        assert_eq!(consumer.read(|_, _| panic!("extra message"), 8).unwrap(), 0);
        writer.join().unwrap();
    });
}

/// A consumer watching the producer attach and detach never reads it as detached before its
/// detach began, nor as stale or dead while it is attached: the heartbeat (stored after the pid)
/// is loaded before the pid. Loading the pid first lets a pid of 0 from before the attach meet
/// the attach's heartbeat, which reads as "detached": a consumer started first gave up with
/// nothing received (the `ci/java-test` flake this model was written for).
#[test]
fn loom_model_attach_is_never_seen_as_detached() {
    use crate::attach::PeerState;
    use crate::error::Role;
    use loom::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    model("attach_is_never_seen_as_detached", || {
        let ring = Ring::anonymous(CAPACITY).unwrap();
        let detaching = Arc::new(AtomicBool::new(false));
        let producer_ring = ring.clone();
        let producer_detaching = detaching.clone();
        let producer = thread::spawn(move || {
            let producer = producer_ring.producer().unwrap();
            producer_detaching.store(true, Ordering::SeqCst);
            drop(producer);
        });
        for _ in 0..2 {
            let state = ring.peer(Role::Producer);
            if state == PeerState::Detached {
                assert!(
                    detaching.load(Ordering::SeqCst),
                    "a producer that was attaching read as detached"
                );
            }
            assert!(
                !matches!(state, PeerState::Stale { .. } | PeerState::Dead { .. }),
                "a live producer read as {state:?}"
            );
            thread::yield_now();
        }
        producer.join().unwrap();
        assert_eq!(ring.peer(Role::Producer), PeerState::Detached);
    });
}

/// A ring reused after a clean detach: a look at a second producer that attaches and detaches
/// never reads it as detached while it is attached, nor ever as a foreign peer (pid 0 and a
/// heartbeat newer than the last detach record), nor stale or dead; once it detached it reads as
/// detached exactly. The detach stores its heartbeat and the same value as `detached_ms`, then
/// gives the pid back; the look loads the heartbeat, the pid, then `detached_ms`. Loading
/// `detached_ms` before the pid lets a pid of 0 from the detach meet the previous detach's
/// record, and the detaching producer reads as a foreign one. (The logical clock of `now_ms`
/// under loom gives every heartbeat its own time.)
#[test]
fn loom_model_reattach_and_detach_are_seen_exactly() {
    use crate::attach::PeerState;
    use crate::error::Role;
    use loom::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    model("reattach_and_detach_are_seen_exactly", || {
        let ring = Ring::anonymous(CAPACITY).unwrap();
        drop(ring.producer().unwrap()); // an earlier producer came and went
        let attached = Arc::new(AtomicBool::new(false));
        let detaching = Arc::new(AtomicBool::new(false));
        let (producer_ring, producer_attached, producer_detaching) =
            (ring.clone(), attached.clone(), detaching.clone());
        let producer = thread::spawn(move || {
            let producer = producer_ring.producer().unwrap();
            producer_attached.store(true, Ordering::SeqCst);
            producer_detaching.store(true, Ordering::SeqCst);
            drop(producer);
        });
        for _ in 0..2 {
            let was_attached = attached.load(Ordering::SeqCst);
            let state = ring.peer(Role::Producer);
            let now_detaching = detaching.load(Ordering::SeqCst);
            match state {
                PeerState::Alive { pid, .. } => {
                    assert_ne!(pid, 0, "a detach read as a foreign peer")
                }
                PeerState::Detached => assert!(
                    !was_attached || now_detaching,
                    "an attached producer read as detached"
                ),
                other => panic!("the producer read as {other:?}"),
            }
            thread::yield_now();
        }
        producer.join().unwrap();
        assert_eq!(ring.peer(Role::Producer), PeerState::Detached);
    });
}

/// A futex wait that only a wake-up ends (but for the first, bounded sleep after arming), with
/// no spinning first: every empty poll goes to sleep.
fn sleep_until_woken() -> Wait {
    Wait {
        strategy: Strategy::Futex {
            spins: 0,
            slice: std::time::Duration::from_secs(3600),
        },
        timeout: None,
    }
}

/// Marks `role`'s wake-up block as armed and acknowledged, as a previous exchange would have
/// left it: every sleep is then the unbounded one, woken only through the fence pair.
fn acknowledged(ring: &Ring, role: crate::Role) {
    use crate::layout::{CONSUMER_WAKE_ARMED_OFFSET, PRODUCER_WAKE_ARMED_OFFSET};
    use crate::primitive::Ordering;
    let offset = match role {
        crate::Role::Consumer => CONSUMER_WAKE_ARMED_OFFSET,
        crate::Role::Producer => PRODUCER_WAKE_ARMED_OFFSET,
    };
    ring.region().wake_word(offset).store(2, Ordering::Relaxed);
}

/// A consumer asleep on the empty ring is woken by each of the producer's writes: whatever the
/// interleaving of its announcement (`waiting`, fence, re-check) with the producer's publish,
/// fence and look at `waiting`, it never sleeps through a message. The consumer arms its block
/// while the producer writes (its sleeps are bounded until the producer acknowledges).
#[test]
fn loom_model_sleeping_consumer_is_woken() {
    model("sleeping_consumer_is_woken", || sleeping_consumer(false));
}

/// As [`loom_model_sleeping_consumer_is_woken`], armed and acknowledged from the start: only
/// the fence pair and the futex word stand between the consumer and a lost wake-up.
#[test]
fn loom_model_acknowledged_consumer_is_woken() {
    model("acknowledged_consumer_is_woken", || sleeping_consumer(true));
}

fn sleeping_consumer(start_acknowledged: bool) {
    {
        const COUNT: u64 = 2;
        let (ring, mut producer, mut consumer) = ring();
        if start_acknowledged {
            acknowledged(&ring, crate::Role::Consumer);
        }
        let writer = thread::spawn(move || {
            for seq in 0..COUNT {
                until_room(|| producer.try_write(1 + (seq % 3) as i32, &payload(seq)));
            }
        });
        let mut next = 0u64;
        while next < COUNT {
            consumer
                .read_wait(
                    |type_id, bytes| {
                        assert_eq!(type_id, 1 + (next % 3) as i32);
                        check(next, bytes);
                        next += 1;
                    },
                    8,
                    &sleep_until_woken(),
                )
                .unwrap();
        }
        writer.join().unwrap();
    }
}

/// A producer asleep on a full ring is woken by the consumer's release of the head: five
/// messages do not fit the 64-byte ring at once, so the producer sleeps at least once.
#[test]
fn loom_model_producer_asleep_on_a_full_ring_is_woken() {
    model("producer_asleep_on_a_full_ring_is_woken", || {
        producer_asleep(false)
    });
}

/// As [`loom_model_producer_asleep_on_a_full_ring_is_woken`], armed and acknowledged from the
/// start.
#[test]
fn loom_model_acknowledged_producer_is_woken() {
    model("acknowledged_producer_is_woken", || producer_asleep(true));
}

fn producer_asleep(start_acknowledged: bool) {
    {
        const COUNT: u64 = 5;
        let (ring, mut producer, consumer) = ring();
        if start_acknowledged {
            acknowledged(&ring, crate::Role::Producer);
        }
        let writer = thread::spawn(move || {
            for seq in 0..COUNT {
                producer
                    .write(1 + (seq % 3) as i32, &payload(seq), &sleep_until_woken())
                    .unwrap();
            }
        });
        consume(consumer, COUNT, 2);
        writer.join().unwrap();
    }
}
