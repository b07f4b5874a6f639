//! One small function per variant: build the queue, then hand a producer loop and a consumer
//! loop to [`timed_pair`]. Every consumer checks each value against its position in the
//! sequence and that nothing arrives after the last one.
//!
//! A new variant (the Agrona-compatible `ring`, say) is one more function here and one more
//! arm in [`super::Variant`].

use std::sync::Arc;
use std::time::Duration;

use sympathy_queue::{Full, MemoryKind, queue};

use super::message::Message;
use super::pair::{Waiter, timed_pair};
use super::{Cores, Placement, QueueRunError};

/// Elements a batch variant moves per publish at most.
pub const BATCH: usize = 256;

/// Sends `0..count` through `offer`, waiting while it hands the value back.
#[inline(always)]
pub(super) fn produce_each<M: Message>(
    count: u64,
    wait: impl Fn() -> bool,
    mut offer: impl FnMut(M) -> Result<(), M>,
) {
    for seq in 0..count {
        let mut value = M::from_seq(seq);
        while let Err(back) = offer(value) {
            value = back;
            if wait() {
                return;
            }
        }
    }
}

/// Receives `count` values through `poll`, checking each against its position, then checks
/// that nothing follows.
#[inline(always)]
pub(super) fn consume_each<M: Message>(
    count: u64,
    wait: impl Fn() -> bool,
    mut poll: impl FnMut() -> Option<M>,
) -> Result<(), QueueRunError> {
    let mut expected = 0u64;
    while expected < count {
        match poll() {
            Some(value) => {
                if value != M::from_seq(expected) {
                    return Err(out_of_order(expected, value));
                }
                expected += 1;
            }
            None => {
                if wait() {
                    return Err(QueueRunError::Aborted { received: expected });
                }
            }
        }
    }
    match poll() {
        None => Ok(()),
        Some(value) => Err(QueueRunError::ExtraValue {
            count,
            found: format!("{value:?}"),
        }),
    }
}

fn out_of_order<M: Message>(expected: u64, value: M) -> QueueRunError {
    QueueRunError::OutOfOrder {
        expected: format!("{:?}", M::from_seq(expected)),
        position: expected,
        found: format!("{value:?}"),
    }
}

/// `p1c1` (heap) and `p1c1-offheap` (anonymous mapping): single offer and poll.
pub fn p1c1<M: Message>(
    kind: MemoryKind,
    placement: Placement,
    cores: Cores,
    count: u64,
    capacity: usize,
) -> Result<Duration, QueueRunError> {
    let (producer, consumer) = queue::<M>(capacity, kind)?;
    timed_pair(
        placement,
        cores,
        move |w: &Waiter| {
            let mut producer = producer; // a local: its fields can live in registers
            produce_each(
                count,
                || w.wait(),
                |v| producer.offer(v).map_err(|Full(v)| v),
            )
        },
        move |w: &Waiter| {
            let mut consumer = consumer;
            consume_each(count, || w.wait(), || consumer.poll())
        },
    )
}

/// `p1c1-batch`: runs of up to [`BATCH`] slots filled and drained with one publish each.
pub fn p1c1_batch<M: Message>(
    placement: Placement,
    cores: Cores,
    count: u64,
    capacity: usize,
) -> Result<Duration, QueueRunError> {
    let (producer, consumer) = queue::<M>(capacity, MemoryKind::Heap)?;
    timed_pair(
        placement,
        cores,
        move |w: &Waiter| {
            let mut producer = producer; // a local: its fields can live in registers
            let mut next = 0u64;
            while next < count {
                let max = (count - next).min(BATCH as u64) as usize;
                let sent = producer.offer_batch(max, || {
                    next += 1;
                    M::from_seq(next - 1)
                });
                if sent == 0 && w.wait() {
                    return;
                }
            }
        },
        move |w: &Waiter| {
            let mut consumer = consumer;
            consume_batches(count, || w.wait(), &mut consumer)
        },
    )
}

/// Drains `count` values in batches, checking each (branch-free inside the batch).
#[inline(always)]
pub(super) fn consume_batches<M: Message>(
    count: u64,
    wait: impl Fn() -> bool,
    consumer: &mut sympathy_queue::Consumer<M>,
) -> Result<(), QueueRunError> {
    let mut expected = 0u64;
    while expected < count {
        let first = expected;
        let mut in_order = true;
        let max = (count - expected).min(BATCH as u64) as usize;
        let got = consumer.poll_batch(max, |v| {
            in_order &= v == M::from_seq(expected);
            expected += 1;
        });
        if !in_order {
            return Err(QueueRunError::OutOfOrderInBatch {
                first,
                len: got as u64,
            });
        }
        if got == 0 && wait() {
            return Err(QueueRunError::Aborted { received: expected });
        }
    }
    match consumer.poll() {
        None => Ok(()),
        Some(value) => Err(QueueRunError::ExtraValue {
            count,
            found: format!("{value:?}"),
        }),
    }
}

/// Baseline `rtrb`: `RingBuffer::push` / `pop`.
pub fn rtrb<M: Message>(
    placement: Placement,
    cores: Cores,
    count: u64,
    capacity: usize,
) -> Result<Duration, QueueRunError> {
    let (producer, consumer) = rtrb::RingBuffer::<M>::new(capacity);
    timed_pair(
        placement,
        cores,
        move |w: &Waiter| {
            let mut producer = producer; // a local: its fields can live in registers
            produce_each(
                count,
                || w.wait(),
                |v| producer.push(v).map_err(|rtrb::PushError::Full(v)| v),
            )
        },
        move |w: &Waiter| {
            let mut consumer = consumer;
            consume_each(count, || w.wait(), || consumer.pop().ok())
        },
    )
}

/// Baseline `crossbeam-array-queue`: `ArrayQueue::push` / `pop` (an MPMC queue used SPSC).
pub fn crossbeam_array_queue<M: Message>(
    placement: Placement,
    cores: Cores,
    count: u64,
    capacity: usize,
) -> Result<Duration, QueueRunError> {
    let queue = Arc::new(crossbeam_queue::ArrayQueue::<M>::new(capacity));
    let (producer, consumer) = (queue.clone(), queue);
    timed_pair(
        placement,
        cores,
        move |w: &Waiter| produce_each(count, || w.wait(), |v| producer.push(v)),
        move |w: &Waiter| consume_each(count, || w.wait(), || consumer.pop()),
    )
}

/// Baseline `std-sync-channel`: `std::sync::mpsc::sync_channel` with `try_send` / `try_recv`
/// (the same busy-wait discipline as every other variant, no parking).
pub fn std_sync_channel<M: Message>(
    placement: Placement,
    cores: Cores,
    count: u64,
    capacity: usize,
) -> Result<Duration, QueueRunError> {
    use std::sync::mpsc::TrySendError;
    let (sender, receiver) = std::sync::mpsc::sync_channel::<M>(capacity);
    timed_pair(
        placement,
        cores,
        move |w: &Waiter| {
            produce_each(
                count,
                || w.wait(),
                |v| match sender.try_send(v) {
                    Ok(()) => Ok(()),
                    Err(TrySendError::Full(v) | TrySendError::Disconnected(v)) => Err(v),
                },
            )
        },
        move |w: &Waiter| consume_each(count, || w.wait(), || receiver.try_recv().ok()),
    )
}
