//! Model test: random sequences of offers, polls and batches against a `VecDeque` of the same
//! capacity, for every memory kind.

mod common;

use std::collections::VecDeque;

use common::{KINDS, Kind, make};
use proptest::prelude::*;
use sympathy_queue::Full;

#[derive(Debug, Clone)]
enum Op {
    Offer,
    Poll,
    OfferBatch(usize),
    PollBatch(usize),
    OfferSlice(usize),
    PollSlice(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => Just(Op::Offer),
        3 => Just(Op::Poll),
        1 => (0usize..20).prop_map(Op::OfferBatch),
        1 => (0usize..20).prop_map(Op::PollBatch),
        1 => (0usize..20).prop_map(Op::OfferSlice),
        1 => (0usize..20).prop_map(Op::PollSlice),
    ]
}

fn check(kind: Kind, capacity_log2: u32, ops: &[Op]) {
    let capacity = 1usize << capacity_log2;
    let (mut producer, mut consumer, _dir) = make::<u64>(kind, capacity);
    let mut model = VecDeque::new();
    let mut next = 0u64;
    for op in ops {
        match *op {
            Op::Offer => {
                let result = producer.offer(next);
                if model.len() < capacity {
                    assert_eq!(result, Ok(()));
                    model.push_back(next);
                } else {
                    assert_eq!(result, Err(Full(next)));
                }
                next += 1;
            }
            Op::Poll => assert_eq!(consumer.poll(), model.pop_front()),
            Op::OfferBatch(max) => {
                let expected = max.min(capacity - model.len());
                let first = next;
                let n = producer.offer_batch(max, || {
                    next += 1;
                    next - 1
                });
                assert_eq!(n, expected);
                model.extend(first..first + n as u64);
            }
            Op::PollBatch(max) => {
                let mut seen = Vec::new();
                let n = consumer.poll_batch(max, |v| seen.push(v));
                let expected: Vec<u64> = model.drain(..max.min(model.len())).collect();
                assert_eq!(n, expected.len());
                assert_eq!(seen, expected);
            }
            Op::OfferSlice(len) => {
                let values: Vec<u64> = (next..next + len as u64).collect();
                let n = producer.offer_slice(&values);
                assert_eq!(n, len.min(capacity - model.len()));
                model.extend(&values[..n]);
                next += n as u64;
            }
            Op::PollSlice(len) => {
                let mut out = vec![u64::MAX; len];
                let n = consumer.poll_slice(&mut out);
                let expected: Vec<u64> = model.drain(..len.min(model.len())).collect();
                assert_eq!(&out[..n], &expected[..]);
            }
        }
        assert_eq!(producer.pending(), model.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    #[test]
    fn heap_queue_behaves_like_a_bounded_vec_deque(cap in 0u32..5, ops in prop::collection::vec(op(), 0..200)) {
        check(KINDS[0], cap, &ops);
    }

    #[test]
    #[cfg_attr(miri, ignore)] // Miri cannot mmap
    fn anonymous_queue_behaves_like_a_bounded_vec_deque(cap in 0u32..5, ops in prop::collection::vec(op(), 0..200)) {
        check(KINDS[1], cap, &ops);
    }

    #[test]
    #[cfg_attr(miri, ignore)] // Miri cannot mmap
    fn file_queue_behaves_like_a_bounded_vec_deque(cap in 0u32..5, ops in prop::collection::vec(op(), 0..200)) {
        check(KINDS[2], cap, &ops);
    }
}
