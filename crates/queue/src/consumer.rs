//! The consuming end of a P1C1 queue.

use std::fmt;
use std::path::Path;
use std::sync::atomic::Ordering;

use crate::element::Element;
use crate::error::QueueError;
use crate::layout::QueueLayout;
use crate::shared::{View, attach, runs};

/// The consuming end of a P1C1 queue: the only writer of `head` and `cached_tail`.
pub struct Consumer<T: Element> {
    pub(crate) view: View<T>,
    /// Exact copy of the shared `head` (this handle is its only writer).
    pub(crate) head: u64,
    pub(crate) role: u32,
}

// SAFETY: as for `Producer`.
unsafe impl<T: Element> Send for Consumer<T> {}

impl<T: Element> Consumer<T> {
    /// Attaches to the queue file at `path` as its consumer.
    ///
    /// # Errors
    /// As [`crate::Producer::attach`], with [`QueueError::RoleTaken`] when a consumer is attached.
    pub fn attach(path: impl AsRef<Path>) -> Result<Consumer<T>, QueueError> {
        let view: View<T> = attach(path.as_ref(), QueueLayout::CONSUMER_ROLE, "consumer")?;
        // The role claim ordered this load after the previous consumer's last store.
        let head = view
            .counter(QueueLayout::HEAD_OFFSET)
            .load(Ordering::Relaxed);
        Ok(Consumer {
            view,
            head,
            role: QueueLayout::CONSUMER_ROLE,
        })
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.view.capacity as usize
    }

    /// Dequeues the oldest element, or `None` when the queue is empty.
    #[inline]
    pub fn poll(&mut self) -> Option<T> {
        let v = &self.view;
        let head = self.head;
        let cached_tail = v.private(QueueLayout::CACHED_TAIL_OFFSET);
        // SAFETY: only the consumer touches `cached_tail`, and this handle is the consumer.
        if head == unsafe { *cached_tail } {
            // Possibly empty: refresh the cached tail, then check whether it is really empty.
            // SYNC POINT: publish-slots. The producer's writes of these slots are visible.
            let tail = v.counter(QueueLayout::TAIL_OFFSET).load(Ordering::Acquire);
            // SAFETY: as above, the consumer owns `cached_tail`.
            unsafe { *cached_tail = tail };
            if head == tail {
                return None;
            }
        }
        // SAFETY: head < tail (published), so the slot holds a written `T`; the producer does
        // not overwrite it until `head` moves past it below.
        let value = unsafe { v.slot(head).read() };
        // SYNC POINT: release-slots. The slot read above happens-before the producer's rewrite.
        v.counter(QueueLayout::HEAD_OFFSET)
            .store(head + 1, Ordering::Release);
        self.head = head + 1;
        Some(value)
    }

    /// Hands up to `max` available elements to `each`, in order, then frees their slots with
    /// one store of `head`. Returns how many (0 when the queue is empty).
    #[inline]
    pub fn poll_batch(&mut self, max: usize, mut each: impl FnMut(T)) -> usize {
        let v = &self.view;
        let head = self.head;
        let cached_tail = v.private(QueueLayout::CACHED_TAIL_OFFSET);
        // SAFETY: only the consumer touches `cached_tail`.
        let mut available = unsafe { *cached_tail }.wrapping_sub(head);
        if available < max as u64 {
            // SYNC POINT: publish-slots. The producer's writes of these slots are visible.
            let tail = v.counter(QueueLayout::TAIL_OFFSET).load(Ordering::Acquire);
            // SAFETY: as above.
            unsafe { *cached_tail = tail };
            available = tail.wrapping_sub(head);
        }
        // A corrupt peer cannot make a batch longer than the ring.
        let n = available.min(max as u64).min(v.capacity);
        if n == 0 {
            return 0;
        }
        let (first, second) = runs(head, n, v.capacity);
        for run in [first, second] {
            let slot = v.slot(run.0);
            for i in 0..run.1 {
                // SAFETY: these n slots were published (head + n <= tail), the run does not
                // pass the end of the slot array, and the producer leaves them alone until
                // `head` is stored below.
                each(unsafe { slot.add(i as usize).read() });
            }
        }
        // SYNC POINT: release-slots. The slot reads above happen-before the producer's rewrite.
        v.counter(QueueLayout::HEAD_OFFSET)
            .store(head + n, Ordering::Release);
        self.head = head + n;
        n as usize
    }

    /// Copies up to `out.len()` elements into `out`, in order, with one release of their slots;
    /// returns how many.
    pub fn poll_slice(&mut self, out: &mut [T]) -> usize {
        let mut i = 0;
        self.poll_batch(out.len(), |value| {
            out[i] = value;
            i += 1;
        })
    }

    /// Whether a producer is attached (always true for an in-process queue).
    pub fn producer_attached(&self) -> bool {
        // SYNC POINT: role-claim. Pairs with the producer's claim.
        self.view.shared.roles().load(Ordering::Acquire) & QueueLayout::PRODUCER_ROLE != 0
    }
}

impl<T: Element> Drop for Consumer<T> {
    fn drop(&mut self) {
        // SYNC POINT: role-claim. Releases the role for the next claim.
        self.view
            .shared
            .roles()
            .fetch_and(!self.role, Ordering::AcqRel);
    }
}

impl<T: Element> fmt::Debug for Consumer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Consumer")
            .field("capacity", &self.view.capacity)
            .finish_non_exhaustive()
    }
}
