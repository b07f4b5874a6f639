//! One small function per variant: build the queue, then hand a producer loop and a consumer
//! loop to [`timed_pair`]. Every consumer checks each value against its position in the
//! sequence and that nothing arrives after the last one.
//!
//! A new variant is one more function here and one more arm in [`super::Variant`].

use std::sync::Arc;
use std::time::Duration;

use sympathy_queue::{Full, MemoryKind, queue};

use super::QueueRunError;
use super::message::Message;
use super::pair::{Transfer, Waiter, timed_pair};

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
    poll: impl FnMut() -> Option<M>,
) -> Result<(), QueueRunError> {
    consume_each_as(count, wait, poll, M::from_seq)
}

/// [`consume_each`] with the value expected at each position given by `expect`.
#[inline(always)]
pub(super) fn consume_each_as<M: Message>(
    count: u64,
    wait: impl Fn() -> bool,
    mut poll: impl FnMut() -> Option<M>,
    expect: impl Fn(u64) -> M,
) -> Result<(), QueueRunError> {
    let mut expected = 0u64;
    while expected < count {
        match poll() {
            Some(value) => {
                if value != expect(expected) {
                    return Err(out_of_order(expected, expect(expected), value));
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

fn out_of_order<M: Message>(position: u64, expected: M, value: M) -> QueueRunError {
    QueueRunError::OutOfOrder {
        expected: format!("{expected:?}"),
        position,
        found: format!("{value:?}"),
    }
}

/// `p1c1` (heap) and `p1c1-offheap` (anonymous mapping): single offer and poll.
pub fn p1c1<M: Message>(kind: MemoryKind, transfer: Transfer) -> Result<Duration, QueueRunError> {
    one_at_a_time(
        transfer,
        queue::<M>(transfer.capacity, kind)?,
        |producer, v| producer.offer(v).map_err(|Full(v)| v),
        |consumer| consumer.poll(),
    )
}

/// Moves `count` values from the `producer` to the `consumer` end of one queue, one `offer` and
/// one `poll` at a time; each end is moved into its thread (a local: its fields can live in
/// registers).
#[inline(always)]
fn one_at_a_time<M: Message, P: Send, C: Send>(
    transfer: Transfer,
    (producer, consumer): (P, C),
    offer: impl Fn(&mut P, M) -> Result<(), M> + Send,
    poll: impl Fn(&mut C) -> Option<M> + Send,
) -> Result<Duration, QueueRunError> {
    let count = transfer.count;
    timed_pair(
        transfer,
        move |w: &Waiter| {
            let mut producer = producer;
            produce_each(count, || w.wait(), |v| offer(&mut producer, v))
        },
        move |w: &Waiter| {
            let mut consumer = consumer;
            consume_each(count, || w.wait(), || poll(&mut consumer))
        },
    )
}

/// Boxes in the pool of `p1c1-boxed` at most: values cycle through `0..BOX_POOL`.
pub const BOX_POOL: u64 = 1 << 20;

/// `p1c1-boxed`: the P1C1 queue on the heap carrying a pointer to a boxed value per message
/// (the seed's `Object[]` of `Integer`s; Java's boxes come from a pool too). The boxes are
/// allocated before the run, one `Box<M>` per value of a pool of up to [`BOX_POOL`] (values
/// cycle through the pool, as Java's `Queues.BOXES`), so no message allocates; the producer
/// sends a box's address (8 bytes; a slot holds a `u64` because a queue element must be plain
/// data), and the consumer follows it to read the value: the seed's pointer chase.
pub fn p1c1_boxed<M: Message>(transfer: Transfer) -> Result<Duration, QueueRunError> {
    let Transfer {
        count, capacity, ..
    } = transfer;
    let pool_size = BOX_POOL.min(count.max(2 * capacity as u64).next_power_of_two());
    let pool: Vec<Box<M>> = (0..pool_size).map(|i| Box::new(M::from_seq(i))).collect();
    let (pool, mask) = (&pool, pool_size - 1);
    let (producer, consumer) = queue::<u64>(capacity, MemoryKind::Heap)?;
    timed_pair(
        transfer,
        move |w: &Waiter| {
            let mut producer = producer; // a local: its fields can live in registers
            produce_each::<u64>(
                count,
                || w.wait(),
                |seq| {
                    let boxed: &M = &pool[(seq & mask) as usize];
                    let address = std::ptr::from_ref(boxed).expose_provenance() as u64;
                    producer.offer(address).map_err(|_| seq)
                },
            )
        },
        move |w: &Waiter| {
            let mut consumer = consumer;
            let unbox = |address: u64| {
                let boxed = std::ptr::with_exposed_provenance::<M>(address as usize);
                // SAFETY: every address sent is that of a box in `pool`, which outlives both
                // threads (they end inside `timed_pair`) and is not written while they run.
                unsafe { boxed.read() }
            };
            let expect = |seq: u64| M::from_seq(seq & mask);
            consume_each_as(count, || w.wait(), || consumer.poll().map(unbox), expect)
        },
    )
}

/// `fastflow`: the queue of [`super::fastflow`], which checks the slot instead of the other
/// side's counter, single offer and poll.
pub fn fastflow<M: Message>(transfer: Transfer) -> Result<Duration, QueueRunError> {
    let ends = super::fastflow::fastflow::<M>(transfer.capacity)?;
    let offer =
        |producer: &mut super::FastFlowProducer<M>, v| producer.offer(v).map_err(|Full(v)| v);
    one_at_a_time(transfer, ends, offer, |c| c.poll())
}

/// `p1c1-batch`: runs of up to [`BATCH`] slots filled and drained with one publish each.
pub fn p1c1_batch<M: Message>(transfer: Transfer) -> Result<Duration, QueueRunError> {
    let Transfer {
        count, capacity, ..
    } = transfer;
    let (producer, consumer) = queue::<M>(capacity, MemoryKind::Heap)?;
    timed_pair(
        transfer,
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
    drain_in_batches(count, wait, |max, expected, in_order| {
        Ok(consumer.poll_batch(max, |v| {
            *in_order &= v == M::from_seq(*expected);
            *expected += 1;
        }))
    })?;
    match consumer.poll() {
        None => Ok(()),
        Some(value) => Err(QueueRunError::ExtraValue {
            count,
            found: format!("{value:?}"),
        }),
    }
}

/// The consumer loop of the batch-reading variants: `read(max, expected, in_order)` reads up
/// to `max` values, adding one to `expected` per value and clearing `in_order` at a value
/// that is not sequence number `expected`; a batch out of order ends the run, as does an
/// empty read after which `wait` says the producer is gone.
#[inline(always)]
fn drain_in_batches(
    count: u64,
    wait: impl Fn() -> bool,
    mut read: impl FnMut(usize, &mut u64, &mut bool) -> Result<usize, QueueRunError>,
) -> Result<(), QueueRunError> {
    let mut expected = 0u64;
    while expected < count {
        let first = expected;
        let mut in_order = true;
        let max = (count - expected).min(BATCH as u64) as usize;
        let got = read(max, &mut expected, &mut in_order)?;
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
    Ok(())
}

/// Baseline `rtrb`: `RingBuffer::push` / `pop`.
pub fn rtrb<M: Message>(transfer: Transfer) -> Result<Duration, QueueRunError> {
    one_at_a_time(
        transfer,
        rtrb::RingBuffer::<M>::new(transfer.capacity),
        |producer, v| producer.push(v).map_err(|rtrb::PushError::Full(v)| v),
        |consumer| consumer.pop().ok(),
    )
}

/// Baseline `crossbeam-array-queue`: `ArrayQueue::push` / `pop` (an MPMC queue used SPSC).
pub fn crossbeam_array_queue<M: Message>(transfer: Transfer) -> Result<Duration, QueueRunError> {
    let Transfer {
        count, capacity, ..
    } = transfer;
    let queue = Arc::new(crossbeam_queue::ArrayQueue::<M>::new(capacity));
    let (producer, consumer) = (queue.clone(), queue);
    timed_pair(
        transfer,
        move |w: &Waiter| produce_each(count, || w.wait(), |v| producer.push(v)),
        move |w: &Waiter| consume_each(count, || w.wait(), || consumer.pop()),
    )
}

/// Baseline `std-sync-channel`: `std::sync::mpsc::sync_channel` with `try_send` / `try_recv`
/// (the same busy-wait discipline as every other variant, no parking).
pub fn std_sync_channel<M: Message>(transfer: Transfer) -> Result<Duration, QueueRunError> {
    let Transfer {
        count, capacity, ..
    } = transfer;
    use std::sync::mpsc::TrySendError;
    let (sender, receiver) = std::sync::mpsc::sync_channel::<M>(capacity);
    timed_pair(
        transfer,
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

/// `ring`: the Agrona-compatible record ring (`sympathy-ring`) over anonymous memory. Each
/// element is one record of type 1 (8-byte header + the element, aligned to 8 bytes); the
/// producer writes one record at a time, the consumer reads batches of up to [`BATCH`] records
/// and releases the head once per batch, as an Agrona consumer does. The ring is sized to hold
/// `capacity` such records.
pub fn ring<M: Message>(transfer: Transfer) -> Result<Duration, QueueRunError> {
    let Transfer {
        count, capacity, ..
    } = transfer;
    let record = (sympathy_ring::layout::RECORD_HEADER_LENGTH + size_of::<M>())
        .next_multiple_of(sympathy_ring::layout::RECORD_ALIGNMENT);
    let ring = sympathy_ring::Ring::anonymous((capacity * record).next_power_of_two())?;
    let (producer, consumer) = (ring.producer()?, ring.consumer()?);
    timed_pair(
        transfer,
        move |w: &Waiter| {
            let mut producer = producer; // a local: its fields can live in registers
            produce_each(
                count,
                || w.wait(),
                |v: M| {
                    // A full ring is the only error a well-formed payload of this size can meet.
                    producer.try_write(1, element_bytes(&v)).map_err(|_| v)
                },
            )
        },
        move |w: &Waiter| {
            let mut consumer = consumer;
            consume_records::<M>(count, || w.wait(), &mut consumer)
        },
    )
}

/// The bytes of a plain-data element.
#[inline(always)]
fn element_bytes<M: Message>(value: &M) -> &[u8] {
    // SAFETY: `M: Element` is plain data without padding (the trait's contract), so all
    // `size_of::<M>()` bytes behind the reference are initialised, and they live as long as it.
    unsafe { std::slice::from_raw_parts((value as *const M).cast::<u8>(), size_of::<M>()) }
}

/// Drains `count` elements from the ring in batches, checking each record's length and value.
fn consume_records<M: Message>(
    count: u64,
    wait: impl Fn() -> bool,
    consumer: &mut sympathy_ring::Consumer,
) -> Result<(), QueueRunError> {
    drain_in_batches(count, wait, |max, expected, in_order| {
        let read = consumer.read(
            |_, bytes| {
                *in_order &= bytes.len() == size_of::<M>() && {
                    // SAFETY: the length is exactly size_of::<M>() (checked just before), and
                    // every bit pattern is a valid `M` (the `Element` contract); the read is
                    // unaligned because records are only 8-byte aligned.
                    let value = unsafe { bytes.as_ptr().cast::<M>().read_unaligned() };
                    value == M::from_seq(*expected)
                };
                *expected += 1;
            },
            max,
        )?;
        Ok(read)
    })?;
    match consumer.read(|_, _| {}, 1)? {
        0 => Ok(()),
        _ => Err(QueueRunError::ExtraValue {
            count,
            found: "another record".to_string(),
        }),
    }
}
