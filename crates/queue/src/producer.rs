//! The producing end of a P1C1 queue, and [`Full`], the back pressure it hands back.

use std::fmt;
use std::path::Path;
use std::sync::atomic::Ordering;

use crate::element::Element;
use crate::error::QueueError;
use crate::layout::QueueLayout;
use crate::shared::{View, attach, runs};

/// The element was not enqueued because the queue is full: back pressure, handed back to the
/// caller with the value, never a drop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Full<T>(pub T);

impl<T> fmt::Debug for Full<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Full(..)")
    }
}

impl<T> fmt::Display for Full<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the queue is full; retry after the consumer has polled")
    }
}

impl<T> std::error::Error for Full<T> {}

/// The producing end of a P1C1 queue: the only writer of `tail` and `cached_head`.
pub struct Producer<T: Element> {
    pub(crate) view: View<T>,
    /// Exact copy of the shared `tail` (this handle is its only writer), so that the hot path
    /// never reloads its own counter from memory.
    pub(crate) tail: u64,
    pub(crate) role: u32,
}

// SAFETY: a handle is the one owner of its side's counters; moving it to another thread moves
// that ownership. `T: Element` is plain data (`Send`).
unsafe impl<T: Element> Send for Producer<T> {}

impl<T: Element> Producer<T> {
    /// Attaches to the queue file at `path` as its producer.
    ///
    /// # Errors
    /// A [`QueueError`] naming what is wrong with the file (missing, too short, bad magic or
    /// version, another element size, a length that does not match the header), or
    /// [`QueueError::RoleTaken`] when a producer is already attached.
    pub fn attach(path: impl AsRef<Path>) -> Result<Producer<T>, QueueError> {
        let view: View<T> = attach(path.as_ref(), QueueLayout::PRODUCER_ROLE, "producer")?;
        // The role claim ordered this load after the previous producer's last store.
        let tail = view
            .counter(QueueLayout::TAIL_OFFSET)
            .load(Ordering::Relaxed);
        Ok(Producer {
            view,
            tail,
            role: QueueLayout::PRODUCER_ROLE,
        })
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.view.capacity as usize
    }

    /// Enqueues `value`, or hands it back in [`Full`] when every slot is taken.
    ///
    /// # Errors
    /// [`Full`] with the value when the consumer has not yet freed a slot.
    ///
    /// # Examples
    /// ```
    /// use sympathy_queue::{Full, MemoryKind, queue};
    /// let (mut producer, _consumer) = queue::<u32>(1, MemoryKind::Heap).unwrap();
    /// assert_eq!(producer.offer(1), Ok(()));
    /// assert_eq!(producer.offer(2), Err(Full(2)));
    /// ```
    #[inline]
    pub fn offer(&mut self, value: T) -> Result<(), Full<T>> {
        let v = &self.view;
        let tail = self.tail;
        let cached_head = v.private(QueueLayout::CACHED_HEAD_OFFSET);
        // SAFETY: only the producer touches `cached_head`, and this handle is the producer.
        if tail.wrapping_sub(unsafe { *cached_head }) >= v.capacity {
            // Possibly full: refresh the cached head, then check whether it is really full.
            // SYNC POINT: release-slots. The consumer's reads of these slots are done.
            let head = v.counter(QueueLayout::HEAD_OFFSET).load(Ordering::Acquire);
            // SAFETY: as above, the producer owns `cached_head`.
            unsafe { *cached_head = head };
            if tail.wrapping_sub(head) >= v.capacity {
                return Err(Full(value));
            }
        }
        // SAFETY: tail - head < capacity, so the consumer does not read this slot until `tail`
        // is published below; the producer is the only writer.
        unsafe { v.slot(tail).write(value) };
        // SYNC POINT: publish-slots. The slot write above happens-before the consumer's read.
        v.counter(QueueLayout::TAIL_OFFSET)
            .store(tail + 1, Ordering::Release);
        self.tail = tail + 1;
        Ok(())
    }

    /// Fills up to `max` free slots with values from `next`, in order, and publishes them with
    /// one store of `tail`. Returns how many were enqueued (0 when the queue is full).
    ///
    /// # Examples
    /// ```
    /// use sympathy_queue::{MemoryKind, queue};
    /// let (mut producer, mut consumer) = queue::<u32>(4, MemoryKind::Heap).unwrap();
    /// let mut n = 0;
    /// assert_eq!(producer.offer_batch(10, || { n += 1; n }), 4);
    /// let mut seen = Vec::new();
    /// assert_eq!(consumer.poll_batch(10, |v| seen.push(v)), 4);
    /// assert_eq!(seen, [1, 2, 3, 4]);
    /// ```
    #[inline]
    pub fn offer_batch(&mut self, max: usize, mut next: impl FnMut() -> T) -> usize {
        let n = self.claim_free(max);
        if n == 0 {
            return 0;
        }
        let v = &self.view;
        let tail = self.tail;
        let (first, second) = runs(tail, n as u64, v.capacity);
        for run in [first, second] {
            let slot = v.slot(run.0);
            for i in 0..run.1 {
                // SAFETY: `claim_free` saw these n slots free (tail - head + n <= capacity),
                // the run does not pass the end of the slot array, and the producer is the
                // only writer until `tail` is published.
                unsafe { slot.add(i as usize).write(next()) };
            }
        }
        // SYNC POINT: publish-slots. The slot writes above happen-before the consumer's reads.
        v.counter(QueueLayout::TAIL_OFFSET)
            .store(tail + n as u64, Ordering::Release);
        self.tail = tail + n as u64;
        n
    }

    /// Copies as many of `values` as fit, in order, with one publish; returns how many.
    ///
    /// # Examples
    /// ```
    /// use sympathy_queue::{MemoryKind, queue};
    /// let (mut producer, mut consumer) = queue::<u64>(2, MemoryKind::Anonymous).unwrap();
    /// assert_eq!(producer.offer_slice(&[1, 2, 3]), 2);
    /// let mut out = [0; 4];
    /// assert_eq!(consumer.poll_slice(&mut out), 2);
    /// assert_eq!(out[..2], [1, 2]);
    /// ```
    pub fn offer_slice(&mut self, values: &[T]) -> usize {
        let mut iter = values.iter();
        // `claim_free` bounds the count by values.len(), so `next` never runs dry.
        self.offer_batch(values.len(), || *iter.next().expect("bounded by len"))
    }

    /// How many slots are free for a batch of up to `max`, refreshing the cached head only
    /// when the cached view cannot grant all of them.
    #[inline]
    fn claim_free(&mut self, max: usize) -> usize {
        let v = &self.view;
        let tail = self.tail;
        let cached_head = v.private(QueueLayout::CACHED_HEAD_OFFSET);
        // SAFETY: only the producer touches `cached_head`.
        let mut free = v
            .capacity
            .saturating_sub(tail.wrapping_sub(unsafe { *cached_head }));
        if free < max as u64 {
            // SYNC POINT: release-slots. The consumer's reads of these slots are done.
            let head = v.counter(QueueLayout::HEAD_OFFSET).load(Ordering::Acquire);
            // SAFETY: as above.
            unsafe { *cached_head = head };
            free = v.capacity.saturating_sub(tail.wrapping_sub(head));
        }
        free.min(max as u64) as usize
    }

    /// Whether a consumer is attached (always true for an in-process queue); lets a producer
    /// process wait for its peer.
    pub fn consumer_attached(&self) -> bool {
        // SYNC POINT: role-claim. Pairs with the consumer's claim.
        self.view.shared.roles().load(Ordering::Acquire) & QueueLayout::CONSUMER_ROLE != 0
    }

    /// Number of elements offered but not yet polled, read fresh from `head`.
    pub fn pending(&self) -> usize {
        let v = &self.view;
        let tail = self.tail;
        // SYNC POINT: release-slots.
        let head = v.counter(QueueLayout::HEAD_OFFSET).load(Ordering::Acquire);
        tail.wrapping_sub(head).min(v.capacity) as usize
    }
}

impl<T: Element> Drop for Producer<T> {
    fn drop(&mut self) {
        // SYNC POINT: role-claim. Releases the role for the next claim.
        self.view
            .shared
            .roles()
            .fetch_and(!self.role, Ordering::AcqRel);
    }
}

impl<T: Element> fmt::Debug for Producer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Producer")
            .field("capacity", &self.view.capacity)
            .finish_non_exhaustive()
    }
}
