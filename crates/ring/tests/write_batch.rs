//! `Producer::try_write_batch` leaves the ring exactly as the same messages written one by one
//! through a `Batch`, and one by one with `try_write`, would: record area, tail, head and the
//! producer's head cache, byte for byte, after every step of random batches and reads on rings
//! small enough to wrap often, a ring full at the wrap included (padded, as Agrona pads it). (The
//! one-by-one writer is the Agrona-compatible path that `golden.rs` checks against fixtures.)
//! Also: a panic inside `fill` publishes nothing and leaves the ring usable.

mod common;

use common::TempPath;
use proptest::prelude::*;
use sympathy_ring::layout::*;
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Consumer, Ring, RingError};

#[derive(Debug, Clone)]
enum Step {
    /// Up to `max` messages of `size` payload bytes.
    Write { size: usize, max: usize },
    /// The consumer reads up to `limit` messages.
    Read { limit: usize },
}

fn step(max_message: usize) -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0..=max_message, 0usize..48).prop_map(|(size, max)| Step::Write { size, max }),
        2 => (1usize..64).prop_map(|limit| Step::Read { limit }),
    ]
}

/// The file bytes that must agree: the record area and the trailer up to the consumer's
/// heartbeat (a clock reading); the header page holds pids and times.
fn ring_bytes(path: &std::path::Path, capacity: usize) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    bytes[HEADER_LENGTH..HEADER_LENGTH + capacity + CONSUMER_HEARTBEAT_OFFSET].to_vec()
}

/// Reads up to `limit` messages, returning `(type, payload)` of each.
fn read(consumer: &mut Consumer, limit: usize) -> Vec<(i32, Vec<u8>)> {
    let mut got = Vec::new();
    consumer
        .read(|t, b| got.push((t, b.to_vec())), limit)
        .unwrap();
    got
}

fn run(capacity: usize, steps: Vec<Step>) {
    let (one_path, batch_path) = (TempPath::new("one-by-one"), TempPath::new("write-batch"));
    let single_path = TempPath::new("try-write");
    let one_ring = Ring::create(&one_path.0, capacity).unwrap();
    let batch_ring = Ring::create(&batch_path.0, capacity).unwrap();
    let single_ring = Ring::create(&single_path.0, capacity).unwrap();
    let (mut one, mut one_consumer) = (one_ring.producer().unwrap(), one_ring.consumer().unwrap());
    let (mut batch, mut batch_consumer) = (
        batch_ring.producer().unwrap(),
        batch_ring.consumer().unwrap(),
    );
    let (mut single, mut single_consumer) = (
        single_ring.producer().unwrap(),
        single_ring.consumer().unwrap(),
    );
    let mut seq = 0u64;
    for step in steps {
        match step {
            Step::Write { size, max } => {
                let pattern = Pattern::new(size);
                let mut expected = 0;
                {
                    let mut b = one.batch();
                    let mut buf = vec![0; size];
                    while expected < max {
                        pattern.fill(seq + expected as u64, &mut buf);
                        match b.try_write(3, &buf) {
                            Ok(()) => expected += 1,
                            Err(RingError::Full { .. }) => break,
                            Err(e) => panic!("unexpected {e}"),
                        }
                    }
                }
                let written = batch
                    .try_write_batch(3, size, max, |k, p| pattern.fill(seq + k as u64, p))
                    .unwrap();
                assert_eq!(written, expected, "messages written of {max}");
                let mut buf = vec![0; size];
                for k in 0..max {
                    pattern.fill(seq + k as u64, &mut buf);
                    match single.try_write(3, &buf) {
                        Ok(()) => assert!(k < written, "try_write wrote more"),
                        Err(RingError::Full { .. }) => {
                            assert_eq!(k, written, "try_write wrote fewer");
                            break;
                        }
                        Err(e) => panic!("unexpected {e}"),
                    }
                }
                seq += written as u64;
            }
            Step::Read { limit } => {
                let got = read(&mut one_consumer, limit);
                assert_eq!(got, read(&mut batch_consumer, limit));
                assert_eq!(got, read(&mut single_consumer, limit));
            }
        }
        assert_eq!(batch.position(), one.position());
        assert_eq!(single.position(), one.position());
        let one_bytes = ring_bytes(&one_path.0, capacity);
        assert!(
            ring_bytes(&batch_path.0, capacity) == one_bytes,
            "ring bytes differ"
        );
        assert!(
            ring_bytes(&single_path.0, capacity) == one_bytes,
            "ring bytes differ from try_write's"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    #[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
    fn write_batch_leaves_the_bytes_of_one_by_one_writes(
        (capacity, steps) in prop::sample::select(vec![64usize, 128, 512, 4096]).prop_flat_map(
            |capacity| (Just(capacity), prop::collection::vec(step(capacity / 8), 1..60))
        ),
    ) {
        run(capacity, steps);
    }
}

/// Full at the wrap: 8 bytes left before the end, 16 free before the head at index 0, and a
/// record that needs 24. All three ways pad the end and move the tail past it, then stop.
#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn a_ring_full_at_the_wrap_is_padded_the_same_by_all_writers() {
    run(
        64,
        vec![
            Step::Write { size: 8, max: 3 },
            Step::Write { size: 0, max: 1 },
            Step::Read { limit: 1 },
            Step::Write { size: 8, max: 2 },
            Step::Read { limit: 10 },
            Step::Read { limit: 10 },
            Step::Write { size: 8, max: 5 },
            Step::Read { limit: 10 },
        ],
    );
}

#[test]
fn a_panic_in_fill_publishes_nothing() {
    let ring = Ring::anonymous(1024).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    producer.try_write(1, b"before").unwrap();
    let start = producer.position();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        producer.try_write_batch(1, 4, 10, |k, p| {
            assert!(k < 5, "fill fails at message 5");
            p.copy_from_slice(&(k as u32).to_le_bytes());
        })
    }));
    assert!(outcome.is_err());
    assert_eq!(producer.position(), start, "the batch moved the producer");
    assert_eq!(read(&mut consumer, 100), [(1, b"before".to_vec())]);
    // The ring goes on from where the batch started.
    let n = producer
        .try_write_batch(2, 4, 3, |k, p| p.copy_from_slice(&(k as u32).to_le_bytes()))
        .unwrap();
    assert_eq!(n, 3);
    let got = read(&mut consumer, 100);
    assert_eq!(got.len(), 3);
    assert!(got.iter().all(|(t, _)| *t == 2));
}

#[test]
fn bad_arguments_are_typed_errors() {
    let ring = Ring::anonymous(64).unwrap();
    let mut producer = ring.producer().unwrap();
    let never = |_: usize, _: &mut [u8]| panic!("nothing is filled");
    assert!(matches!(
        producer.try_write_batch(0, 4, 1, never),
        Err(RingError::InvalidTypeId { type_id: 0 })
    ));
    assert!(matches!(
        producer.try_write_batch(1, 9, 1, never),
        Err(RingError::MessageTooLong { length: 9, .. })
    ));
    assert_eq!(producer.try_write_batch(1, 4, 0, never).unwrap(), 0);
}
