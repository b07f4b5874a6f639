//! The P1C1 queue itself: a shared block of memory laid out by [`QueueLayout`], and the two
//! handles that use it.
//!
//! Positions (`head`, `tail`) are u64 counts of elements ever read and written; a position
//! maps to slot `position & (capacity - 1)`. They never wrap in practice (2^64 elements).
//!
//! Two release/acquire pairs carry all the synchronisation:
//! - `publish-slots`: the producer writes slots, then stores `tail` (Release); the consumer
//!   loads `tail` (Acquire) before reading those slots.
//! - `release-slots`: the consumer reads slots, then stores `head` (Release); the producer
//!   loads `head` (Acquire) before overwriting those slots.
//!
//! A third pair, `header-published`, orders the header fields of a queue file before its magic.

use std::fmt;
use std::marker::PhantomData;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::element::Element;
use crate::error::QueueError;
use crate::layout::QueueLayout;
use crate::memory::{Memory, MemoryKind};

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

/// The memory of one queue and where its parts are.
struct Shared {
    memory: Memory,
    capacity: usize,
}

impl Shared {
    fn base(&self) -> *mut u8 {
        self.memory.base().as_ptr()
    }

    fn counter(&self, offset: usize) -> &AtomicU64 {
        // SAFETY: every counter offset is within the header lines, 8-byte aligned (the base is
        // line-aligned), and the u64 there is only ever accessed atomically or by its one owner.
        unsafe { AtomicU64::from_ptr(self.base().add(offset).cast()) }
    }

    fn roles(&self) -> &AtomicU32 {
        // SAFETY: ROLES_OFFSET is within line 0, 4-byte aligned, and only accessed atomically.
        unsafe { AtomicU32::from_ptr(self.base().add(QueueLayout::ROLES_OFFSET).cast()) }
    }

    /// Writes the header of fresh zeroed memory; the magic goes last.
    fn initialise(memory: Memory, capacity: usize, element_size: usize, roles: u32) -> Shared {
        let shared = Shared { memory, capacity };
        let base = shared.base();
        // SAFETY: the memory is fresh, at least SLOTS_OFFSET long and line-aligned, and not
        // yet visible to any other handle; each field is naturally aligned at its offset.
        unsafe {
            base.add(QueueLayout::VERSION_OFFSET)
                .cast::<u32>()
                .write(QueueLayout::VERSION);
            base.add(QueueLayout::ELEMENT_SIZE_OFFSET)
                .cast::<u32>()
                .write(element_size as u32);
            base.add(QueueLayout::CAPACITY_OFFSET)
                .cast::<u64>()
                .write(capacity as u64);
        }
        shared.roles().store(roles, Ordering::Relaxed);
        // SYNC POINT: header-published. The header fields above happen-before any attach that
        // sees the magic.
        shared
            .counter(QueueLayout::MAGIC_OFFSET)
            .store(QueueLayout::MAGIC, Ordering::Release);
        shared
    }

    /// Checks the header of mapped memory against the element type attaching to it.
    fn validate(memory: Memory, element_size: usize) -> Result<Shared, QueueError> {
        let len = memory.len();
        if len < QueueLayout::SLOTS_OFFSET {
            return Err(QueueError::TooShort {
                len,
                min: QueueLayout::SLOTS_OFFSET,
            });
        }
        let shared = Shared {
            memory,
            capacity: 0,
        };
        // SYNC POINT: header-published. Seeing the magic makes the header fields visible.
        let magic = shared
            .counter(QueueLayout::MAGIC_OFFSET)
            .load(Ordering::Acquire);
        if magic != QueueLayout::MAGIC {
            return Err(QueueError::BadMagic {
                found: magic,
                expected: QueueLayout::MAGIC,
            });
        }
        let base = shared.base();
        // SAFETY: the length was checked to cover the header; fields are naturally aligned and
        // written once, before the magic, by `initialise`.
        let (version, found_size, capacity) = unsafe {
            (
                base.add(QueueLayout::VERSION_OFFSET).cast::<u32>().read(),
                base.add(QueueLayout::ELEMENT_SIZE_OFFSET)
                    .cast::<u32>()
                    .read(),
                base.add(QueueLayout::CAPACITY_OFFSET).cast::<u64>().read(),
            )
        };
        if version != QueueLayout::VERSION {
            return Err(QueueError::BadVersion {
                found: version,
                expected: QueueLayout::VERSION,
            });
        }
        if found_size as usize != element_size {
            return Err(QueueError::ElementSizeMismatch {
                found: found_size,
                expected: element_size as u32,
            });
        }
        let cap = usize::try_from(capacity).unwrap_or(usize::MAX);
        if QueueLayout::check_capacity(cap).is_err() {
            return Err(QueueError::CorruptCapacity { capacity });
        }
        let expected = QueueLayout::total_len(cap, element_size);
        if len != expected {
            return Err(QueueError::WrongLength {
                len,
                expected,
                capacity,
                element_size: found_size,
            });
        }
        Ok(Shared {
            capacity: cap,
            ..shared
        })
    }

    /// Claims `role` (a bit of `roles`) for this handle.
    fn claim(&self, role: u32, name: &'static str) -> Result<(), QueueError> {
        // SYNC POINT: role-claim. Pairs with the release in `Drop` of the previous holder.
        let before = self.roles().fetch_or(role, Ordering::AcqRel);
        if before & role != 0 {
            return Err(QueueError::RoleTaken { role: name });
        }
        Ok(())
    }
}

/// A queue handle's view of the shared memory: the base pointer and capacity copied out of
/// [`Shared`] so that the hot paths read them from the handle.
struct View<T> {
    shared: Arc<Shared>,
    base: NonNull<u8>,
    mask: u64,
    capacity: u64,
    _element: PhantomData<T>,
}

impl<T: Element> View<T> {
    fn new(shared: Arc<Shared>) -> View<T> {
        let capacity = shared.capacity as u64;
        View {
            base: shared.memory.base(),
            shared,
            mask: capacity - 1,
            capacity,
            _element: PhantomData,
        }
    }

    #[inline(always)]
    fn counter(&self, offset: usize) -> &AtomicU64 {
        // SAFETY: see `Shared::counter`; `base` is the same pointer.
        unsafe { AtomicU64::from_ptr(self.base.as_ptr().add(offset).cast()) }
    }

    /// The private cached counter at `offset`, only ever touched by the one handle that owns it.
    #[inline(always)]
    fn private(&self, offset: usize) -> *mut u64 {
        // SAFETY: the cached-counter offsets are within the header lines.
        unsafe { self.base.as_ptr().add(offset).cast() }
    }

    /// Pointer to the slot of `position`.
    #[inline(always)]
    fn slot(&self, position: u64) -> *mut T {
        let index = (position & self.mask) as usize;
        // SAFETY: index < capacity, and the memory holds `capacity` slots of `T` from
        // SLOTS_OFFSET (checked at creation or attach); SLOTS_OFFSET is line-aligned and
        // `Element` types are at most line-aligned.
        unsafe {
            self.base
                .as_ptr()
                .add(QueueLayout::SLOTS_OFFSET)
                .cast::<T>()
                .add(index)
        }
    }
}

/// The producing end of a P1C1 queue: the only writer of `tail` and `cached_head`.
pub struct Producer<T: Element> {
    view: View<T>,
    /// Exact copy of the shared `tail` (this handle is its only writer), so that the hot path
    /// never reloads its own counter from memory.
    tail: u64,
    role: u32,
}

/// The consuming end of a P1C1 queue: the only writer of `head` and `cached_tail`.
pub struct Consumer<T: Element> {
    view: View<T>,
    /// Exact copy of the shared `head` (this handle is its only writer).
    head: u64,
    role: u32,
}

// SAFETY: a handle is the one owner of its side's counters; moving it to another thread moves
// that ownership. `T: Element` is plain data (`Send`).
unsafe impl<T: Element> Send for Producer<T> {}
// SAFETY: as for `Producer`.
unsafe impl<T: Element> Send for Consumer<T> {}

/// Creates a queue of `capacity` slots in memory of `kind`, split into its two ends.
///
/// # Errors
/// [`QueueError::CapacityNotPowerOfTwo`] for a bad capacity, [`QueueError::Memory`] when the
/// memory cannot be had.
///
/// # Examples
/// ```
/// use sympathy_queue::{MemoryKind, queue};
/// let (mut producer, mut consumer) = queue::<u64>(4, MemoryKind::Heap).unwrap();
/// assert!(producer.offer(7).is_ok());
/// assert_eq!(consumer.poll(), Some(7));
/// assert_eq!(consumer.poll(), None);
/// assert!(queue::<u64>(3, MemoryKind::Anonymous).is_err());
/// ```
pub fn queue<T: Element>(
    capacity: usize,
    kind: MemoryKind,
) -> Result<(Producer<T>, Consumer<T>), QueueError> {
    let () = T::ASSERT_LAYOUT;
    QueueLayout::check_capacity(capacity)?;
    let len = QueueLayout::total_len(capacity, size_of::<T>());
    let memory = Memory::zeroed(kind, len)?;
    let both = QueueLayout::PRODUCER_ROLE | QueueLayout::CONSUMER_ROLE;
    let shared = Arc::new(Shared::initialise(memory, capacity, size_of::<T>(), both));
    Ok((
        Producer {
            view: View::new(shared.clone()),
            tail: 0,
            role: QueueLayout::PRODUCER_ROLE,
        },
        Consumer {
            view: View::new(shared),
            head: 0,
            role: QueueLayout::CONSUMER_ROLE,
        },
    ))
}

/// Creates (or truncates) the queue file `path` for `capacity` elements of `T`; a producer and a
/// consumer then attach to it, from this process or others
/// ([`Producer::attach`], [`Consumer::attach`]).
///
/// Truncating a file that another process still has mapped makes that process fault: use a
/// fresh path per queue.
///
/// # Errors
/// [`QueueError::CapacityNotPowerOfTwo`], or [`QueueError::File`] when the file cannot be
/// created, sized or mapped.
///
/// # Examples
/// ```
/// use sympathy_queue::{Consumer, Producer, create_file};
/// let path = std::env::temp_dir().join(format!("doc-queue-{}", std::process::id()));
/// create_file::<u32>(&path, 8).unwrap();
/// let mut producer = Producer::<u32>::attach(&path).unwrap();
/// let mut consumer = Consumer::<u32>::attach(&path).unwrap();
/// producer.offer(42).unwrap();
/// assert_eq!(consumer.poll(), Some(42));
/// assert!(Consumer::<u64>::attach(&path).is_err()); // wrong element size
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn create_file<T: Element>(path: impl AsRef<Path>, capacity: usize) -> Result<(), QueueError> {
    let () = T::ASSERT_LAYOUT;
    QueueLayout::check_capacity(capacity)?;
    let len = QueueLayout::total_len(capacity, size_of::<T>());
    let memory = Memory::create_file(path.as_ref(), len)?;
    drop(Shared::initialise(memory, capacity, size_of::<T>(), 0));
    Ok(())
}

fn attach<T: Element>(path: &Path, role: u32, name: &'static str) -> Result<View<T>, QueueError> {
    let () = T::ASSERT_LAYOUT;
    let shared = Shared::validate(Memory::open_file(path)?, size_of::<T>())?;
    shared.claim(role, name)?;
    Ok(View::new(Arc::new(shared)))
}

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

impl<T: Element> Consumer<T> {
    /// Attaches to the queue file at `path` as its consumer.
    ///
    /// # Errors
    /// As [`Producer::attach`], with [`QueueError::RoleTaken`] when a consumer is attached.
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

/// Splits `n` positions from `start` into the run up to the end of the slot array and the run
/// that wraps to slot 0: `((position, len), (position, len))`.
#[inline(always)]
fn runs(start: u64, n: u64, capacity: u64) -> ((u64, u64), (u64, u64)) {
    let index = start & (capacity - 1);
    let first = n.min(capacity - index);
    ((start, first), (start + first, n - first))
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

impl<T: Element> Drop for Consumer<T> {
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

impl<T: Element> fmt::Debug for Consumer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Consumer")
            .field("capacity", &self.view.capacity)
            .finish_non_exhaustive()
    }
}
