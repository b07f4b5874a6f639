//! `fastflow`: a bounded single-producer/single-consumer queue in which neither side reads the
//! other side's counter (after FastFlow, as JCTools' `SpscArrayQueue`): each slot says itself
//! whether it holds a value.
//!
//! - The consumer takes slot `head` when its flag says full, and clears the flag.
//! - The producer fills slot `tail` while `tail` is below a limit; at the limit it probes the
//!   slot `look_ahead` places ahead (`capacity / 4`, at most 4096, JCTools' `lookAheadStep`):
//!   the consumer empties slots in order, so when that slot is empty every slot before it is
//!   too, and the limit moves there. Otherwise it checks slot `tail` itself (full: back
//!   pressure).
//!
//! Why this beats P1C1 (`sympathy_queue`), which reads the other side's counter whenever its
//! cached copy says full or empty: the two threads share only the slots' cache lines, which
//! have to travel from producer to consumer anyway; no line that holds a counter moves between
//! the cores, and the producer's look-ahead reads one slot per `look_ahead` values. Near empty,
//! P1C1's consumer pulls the `tail` line on every poll and the producer pulls it back on its
//! next publish: two transfers per message on top of the slot's.
//!
//! # Examples
//! ```
//! use sympathy_lab::queue::fastflow;
//! let (mut producer, mut consumer) = fastflow::<u32>(4).unwrap();
//! assert!(producer.offer(7).is_ok());
//! assert_eq!(consumer.poll(), Some(7));
//! assert_eq!(consumer.poll(), None);
//! ```

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use sympathy_queue::{Element, Full, QueueError};

/// Bytes of unused slots at each end of the slot array, so that no other heap object shares a
/// cache line (or an adjacent-line pair) with a slot the threads write.
const PAD_BYTES: usize = 128;

/// One slot: the value and the flag that says whether it holds one.
#[repr(C)]
struct Slot<M> {
    full: AtomicU32,
    value: UnsafeCell<MaybeUninit<M>>,
}

/// The slots, shared by the two ends; read-only apart from the slots' contents.
struct Slots<M> {
    slots: Box<[Slot<M>]>,
    pad: usize,
    mask: u64,
    look_ahead: u64,
}

// SAFETY: a slot's value is written only by the producer while the slot's flag is clear, and
// read only by the consumer while it is set; the flag's release store and acquire load order
// each write before the other side's read (SYNC POINTs fastflow-slot-filled and
// fastflow-slot-emptied). `M: Element` is `Send`.
unsafe impl<M: Element> Sync for Slots<M> {}

impl<M: Element> Slots<M> {
    /// The slot of sequence number `index`.
    #[inline(always)]
    fn slot(&self, index: u64) -> &Slot<M> {
        let at = self.pad + (index & self.mask) as usize;
        debug_assert!(at < self.slots.len());
        // SAFETY: `index & mask < capacity` and the array holds `pad + capacity + pad` slots.
        unsafe { self.slots.get_unchecked(at) }
    }
}

/// The producing end of a [`fastflow`] queue.
pub struct FastFlowProducer<M: Element> {
    slots: Arc<Slots<M>>,
    tail: u64,
    limit: u64,
}

/// The consuming end of a [`fastflow`] queue.
pub struct FastFlowConsumer<M: Element> {
    slots: Arc<Slots<M>>,
    head: u64,
}

/// A queue of `capacity` slots (a power of two), split into its two ends.
///
/// # Errors
/// [`QueueError::CapacityNotPowerOfTwo`] for a capacity that is not a power of two, or is 0.
pub fn fastflow<M: Element>(
    capacity: usize,
) -> Result<(FastFlowProducer<M>, FastFlowConsumer<M>), QueueError> {
    if !capacity.is_power_of_two() {
        return Err(QueueError::CapacityNotPowerOfTwo { capacity });
    }
    let pad = PAD_BYTES.div_ceil(size_of::<Slot<M>>());
    let slots = (0..capacity + 2 * pad)
        .map(|_| Slot {
            full: AtomicU32::new(0),
            value: UnsafeCell::new(MaybeUninit::uninit()),
        })
        .collect();
    let slots = Arc::new(Slots {
        slots,
        pad,
        mask: capacity as u64 - 1,
        look_ahead: (capacity as u64 / 4).clamp(1, 4096),
    });
    Ok((
        FastFlowProducer {
            slots: slots.clone(),
            tail: 0,
            limit: 0,
        },
        FastFlowConsumer { slots, head: 0 },
    ))
}

impl<M: Element> FastFlowProducer<M> {
    /// Enqueues `value`, or hands it back in [`Full`] when slot `tail` still holds a value.
    ///
    /// # Errors
    /// [`Full`] with the value when the consumer has not yet emptied the slot.
    #[inline]
    pub fn offer(&mut self, value: M) -> Result<(), Full<M>> {
        if self.tail >= self.limit && !self.look_ahead() {
            return Err(Full(value));
        }
        let slot = self.slots.slot(self.tail);
        // SAFETY: the slot's flag read clear (acquire, in `look_ahead`, for this slot or one
        // `look_ahead` ahead of it, which the consumer empties later), so the consumer is done
        // with it and reads it again only after the release store below.
        unsafe { (*slot.value.get()).write(value) };
        // SYNC POINT: fastflow-slot-filled. The value's write is visible before the flag.
        slot.full.store(1, Ordering::Release);
        self.tail += 1;
        Ok(())
    }

    /// At the limit: probes the slot `look_ahead` ahead, then slot `tail` itself.
    #[inline(never)]
    fn look_ahead(&mut self) -> bool {
        let ahead = self.tail + self.slots.look_ahead;
        // SYNC POINT: fastflow-slot-emptied. The consumer's read of the slot came before.
        if self.slots.slot(ahead).full.load(Ordering::Acquire) == 0 {
            self.limit = ahead;
            return true;
        }
        // SYNC POINT: fastflow-slot-emptied. The consumer's read of the slot came before.
        self.slots.slot(self.tail).full.load(Ordering::Acquire) == 0
    }
}

impl<M: Element> FastFlowConsumer<M> {
    /// Takes the oldest value, or `None` when slot `head` is empty.
    #[inline]
    pub fn poll(&mut self) -> Option<M> {
        let slot = self.slots.slot(self.head);
        // SYNC POINT: fastflow-slot-filled. The producer's write of the value came before.
        if slot.full.load(Ordering::Acquire) == 0 {
            return None;
        }
        // SAFETY: the flag is set (acquire above), so the producer wrote the value and leaves
        // the slot alone until the release store below clears the flag.
        let value = unsafe { (*slot.value.get()).assume_init_read() };
        // SYNC POINT: fastflow-slot-emptied. This read is done before the producer reuses it.
        slot.full.store(0, Ordering::Release);
        self.head += 1;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    proptest! {
        /// Random offers and polls against a bounded `VecDeque`: same order, nothing lost,
        /// back pressure exactly when `capacity` values are queued, across many laps.
        #[test]
        fn behaves_as_a_bounded_fifo(
            log2 in 0u32..7,
            ops in proptest::collection::vec(any::<bool>(), 0..2_000),
        ) {
            let capacity = 1usize << log2;
            let (mut producer, mut consumer) = fastflow::<u64>(capacity).unwrap();
            let mut model = VecDeque::new();
            let mut next = 0u64;
            for offer in ops {
                if offer {
                    let accepted = producer.offer(next);
                    prop_assert_eq!(accepted.is_ok(), model.len() < capacity);
                    if accepted.is_ok() {
                        model.push_back(next);
                        next += 1;
                    } else {
                        prop_assert_eq!(accepted, Err(Full(next)));
                    }
                } else {
                    prop_assert_eq!(consumer.poll(), model.pop_front());
                }
            }
        }
    }

    #[test]
    fn a_full_queue_refuses_until_one_slot_is_polled_then_wraps_around() {
        let (mut producer, mut consumer) = fastflow::<u32>(8).unwrap();
        for v in 0..8 {
            assert_eq!(producer.offer(v), Ok(()));
        }
        assert_eq!(producer.offer(8), Err(Full(8)));
        assert_eq!(consumer.poll(), Some(0));
        assert_eq!(producer.offer(8), Ok(()), "the freed slot is reused");
        assert_eq!(producer.offer(9), Err(Full(9)));
        for v in 1..=8 {
            assert_eq!(consumer.poll(), Some(v));
        }
        assert_eq!(consumer.poll(), None);
    }

    #[test]
    fn a_capacity_that_is_not_a_power_of_two_is_an_error() {
        assert!(matches!(
            fastflow::<u32>(6),
            Err(QueueError::CapacityNotPowerOfTwo { capacity: 6 })
        ));
        assert!(fastflow::<u32>(0).is_err());
    }
}
