//! Model-based property test: random writes, claims (committed, aborted, dropped), batches,
//! `try_write_batch` runs and reads against a `VecDeque` model, across capacities small enough
//! to wrap constantly.

use std::collections::VecDeque;

use proptest::prelude::*;
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Consumer, Ring, RingError};

#[derive(Debug, Clone)]
enum Op {
    Write {
        type_id: i32,
        size: usize,
    },
    Claim {
        type_id: i32,
        size: usize,
        end: End,
    },
    Batch {
        sizes: Vec<usize>,
    },
    WriteBatch {
        type_id: i32,
        size: usize,
        max: usize,
    },
    Read {
        limit: usize,
    },
    ReadOne,
}

#[derive(Debug, Clone, Copy)]
enum End {
    Commit,
    Abort,
    Drop,
}

/// Sizes are drawn as a fraction of the ring's maximum so every capacity sees 0..=max.
fn op() -> impl Strategy<Value = Op> {
    let size = 0usize..=1000; // per-mille of max, mapped in `run`
    prop_oneof![
        4 => (1i32..=9, size.clone()).prop_map(|(type_id, size)| Op::Write { type_id, size }),
        2 => (1i32..=9, size.clone(), prop_oneof![Just(End::Commit), Just(End::Abort), Just(End::Drop)])
            .prop_map(|(type_id, size, end)| Op::Claim { type_id, size, end }),
        1 => prop::collection::vec(size.clone(), 1..12).prop_map(|sizes| Op::Batch { sizes }),
        1 => (1i32..=9, size, 0usize..40)
            .prop_map(|(type_id, size, max)| Op::WriteBatch { type_id, size, max }),
        3 => (1usize..=8).prop_map(|limit| Op::Read { limit }),
        1 => Just(Op::ReadOne),
    ]
}

struct Harness {
    model: VecDeque<(i32, u64, usize)>,
    next_seq: u64,
    max: usize,
}

impl Harness {
    fn size(&self, per_mille: usize) -> usize {
        // Favour tiny sizes half the time (many records per lap), otherwise spread to max.
        if per_mille.is_multiple_of(2) {
            (per_mille / 2) % 9 % (self.max + 1)
        } else {
            per_mille * self.max / 1000
        }
    }

    fn message(&mut self, size: usize) -> (u64, Vec<u8>) {
        let seq = self.next_seq;
        self.next_seq += 1;
        (seq, pattern_bytes(seq, size))
    }

    fn check_read(&mut self, consumer: &mut Consumer, limit: usize) -> usize {
        let mut got = Vec::new();
        let n = consumer
            .read(|t, b| got.push((t, b.to_vec())), limit)
            .expect("valid ring reads without error");
        assert_eq!(n, got.len());
        assert!(n <= limit);
        for (type_id, bytes) in got {
            let (want_type, seq, size) = self.model.pop_front().expect("read more than written");
            assert_eq!(type_id, want_type);
            assert_eq!(bytes, pattern_bytes(seq, size), "message {seq}");
        }
        n
    }
}

fn run(capacity: usize, ops: Vec<Op>) {
    let ring = Ring::anonymous(capacity).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    let mut h = Harness {
        model: VecDeque::new(),
        next_seq: 0,
        max: ring.max_message_length(),
    };
    for op in ops {
        match op {
            Op::Write { type_id, size } => {
                let size = h.size(size);
                let (seq, bytes) = h.message(size);
                match producer.try_write(type_id, &bytes) {
                    Ok(()) => h.model.push_back((type_id, seq, size)),
                    Err(RingError::Full { .. }) => assert!(
                        producer.position() != consumer.position(),
                        "an empty ring is never full"
                    ),
                    Err(e) => panic!("unexpected {e}"),
                }
            }
            Op::Claim { type_id, size, end } => {
                let size = h.size(size);
                let (seq, bytes) = h.message(size);
                let was_empty = producer.position() == consumer.position();
                match producer.try_claim(type_id, size) {
                    Ok(mut claim) => {
                        assert_eq!(claim.len(), size);
                        claim.copy_from_slice(&bytes);
                        match end {
                            End::Commit => {
                                claim.commit();
                                h.model.push_back((type_id, seq, size));
                            }
                            End::Abort => claim.abort(),
                            End::Drop => drop(claim),
                        }
                    }
                    Err(RingError::Full { .. }) => assert!(!was_empty),
                    Err(e) => panic!("unexpected {e}"),
                }
            }
            Op::Batch { sizes } => {
                let sizes: Vec<usize> = sizes.into_iter().map(|s| h.size(s)).collect();
                let messages: Vec<(u64, Vec<u8>)> = sizes.iter().map(|&s| h.message(s)).collect();
                let was_empty = producer.position() == consumer.position();
                let mut written = Vec::new();
                let mut batch = producer.batch();
                for (seq, bytes) in &messages {
                    match batch.try_write(1, bytes) {
                        Ok(()) => written.push((1, *seq, bytes.len())),
                        Err(RingError::Full { .. }) => break,
                        Err(e) => panic!("unexpected {e}"),
                    }
                }
                // Nothing is visible before the batch is finished.
                let mut peek = 0;
                if !written.is_empty() && h.model.is_empty() {
                    peek = consumer.read(|_, _| {}, usize::MAX).unwrap();
                }
                assert_eq!(peek, 0, "batch records visible before finish");
                assert_eq!(batch.finish(), written.len());
                if was_empty {
                    assert!(!written.is_empty(), "an empty ring is never full");
                }
                h.model.extend(written);
            }
            Op::WriteBatch { type_id, size, max } => {
                let size = h.size(size);
                let first = h.next_seq;
                let was_empty = producer.position() == consumer.position();
                let mut filled = 0;
                let n = producer
                    .try_write_batch(type_id, size, max, |k, payload| {
                        assert_eq!((k, payload.len()), (filled, size), "filled in order");
                        Pattern::new(size).fill(first + k as u64, payload);
                        filled += 1;
                    })
                    .expect("a valid batch writes or meets back pressure");
                assert_eq!(n, filled);
                assert!(n <= max);
                if was_empty && max > 0 {
                    assert!(n > 0, "an empty ring is never full");
                }
                for k in 0..n {
                    h.model.push_back((type_id, first + k as u64, size));
                }
                h.next_seq += n as u64;
            }
            Op::Read { limit } => {
                let n = h.check_read(&mut consumer, limit);
                if n == 0 && !h.model.is_empty() && n < limit {
                    // Only padding at the end of the area was consumed: the next read delivers.
                    assert!(
                        h.check_read(&mut consumer, limit) > 0,
                        "message stuck in the ring"
                    );
                }
            }
            Op::ReadOne => {
                let got = consumer.try_read_one(|t, b| (t, b.to_vec())).unwrap();
                match (got, h.model.pop_front()) {
                    (Some((t, bytes)), Some((want_t, seq, size))) => {
                        assert_eq!(t, want_t);
                        assert_eq!(bytes, pattern_bytes(seq, size), "message {seq}");
                    }
                    (None, None) => {}
                    (got, want) => panic!("read {got:?}, model had {want:?}"),
                }
            }
        }
        assert!(producer.position() - consumer.position() <= capacity as i64);
    }
    // Drain: everything written arrives, in order, exactly once.
    while !h.model.is_empty() {
        let before = h.model.len();
        h.check_read(&mut consumer, usize::MAX);
        if h.model.len() == before {
            assert!(
                h.check_read(&mut consumer, usize::MAX) > 0,
                "message stuck in the ring"
            );
        }
    }
    assert_eq!(
        consumer
            .read(|_, _| panic!("extra message"), usize::MAX)
            .unwrap(),
        0
    );
}

/// Cases per run: 256, or under Miri 4 (`SYMPATHY_MIRI_CASES` overrides it: `ci/miri --quick`
/// runs 1).
fn cases() -> u32 {
    if cfg!(miri) {
        std::env::var("SYMPATHY_MIRI_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(4)
    } else {
        256
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn ring_matches_a_fifo_model(
        capacity in prop::sample::select(vec![64usize, 128, 256, 1024, 4096]),
        ops in prop::collection::vec(op(), 1..if cfg!(miri) { 60 } else { 300 }),
    ) {
        run(capacity, ops);
    }
}

/// Message `seq` of `size` bytes, any size (the model sends messages under the pattern's 4-byte
/// minimum too, so they are compared whole rather than through `Pattern::check`).
fn pattern_bytes(seq: u64, size: usize) -> Vec<u8> {
    let mut bytes = vec![0; size];
    Pattern::new(size).fill(seq, &mut bytes);
    bytes
}
