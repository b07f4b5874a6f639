//! The memory one P1C1 queue's two ends share: [`Shared`] (the block laid out by
//! [`QueueLayout`], its header and role claims) and [`View`] (a handle's copy of where things
//! are), with [`attach`] for a handle joining a queue file.
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

use std::marker::PhantomData;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::element::Element;
use crate::error::QueueError;
use crate::layout::QueueLayout;
use crate::memory::Memory;

/// The memory of one queue and where its parts are.
pub(crate) struct Shared {
    memory: Memory,
    capacity: usize,
}

impl Shared {
    fn base(&self) -> *mut u8 {
        self.memory.base().as_ptr()
    }

    pub(crate) fn counter(&self, offset: usize) -> &AtomicU64 {
        // SAFETY: every counter offset is within the header lines, 8-byte aligned (the base is
        // line-aligned), and the u64 there is only ever accessed atomically or by its one owner.
        unsafe { AtomicU64::from_ptr(self.base().add(offset).cast()) }
    }

    pub(crate) fn roles(&self) -> &AtomicU32 {
        // SAFETY: ROLES_OFFSET is within line 0, 4-byte aligned, and only accessed atomically.
        unsafe { AtomicU32::from_ptr(self.base().add(QueueLayout::ROLES_OFFSET).cast()) }
    }

    /// Writes the header of fresh zeroed memory; the magic goes last.
    pub(crate) fn initialise(
        memory: Memory,
        capacity: usize,
        element_size: usize,
        roles: u32,
    ) -> Shared {
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
pub(crate) struct View<T> {
    pub(crate) shared: Arc<Shared>,
    base: NonNull<u8>,
    mask: u64,
    pub(crate) capacity: u64,
    _element: PhantomData<T>,
}

impl<T: Element> View<T> {
    pub(crate) fn new(shared: Arc<Shared>) -> View<T> {
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
    pub(crate) fn counter(&self, offset: usize) -> &AtomicU64 {
        // SAFETY: see `Shared::counter`; `base` is the same pointer.
        unsafe { AtomicU64::from_ptr(self.base.as_ptr().add(offset).cast()) }
    }

    /// The private cached counter at `offset`, only ever touched by the one handle that owns it.
    #[inline(always)]
    pub(crate) fn private(&self, offset: usize) -> *mut u64 {
        // SAFETY: the cached-counter offsets are within the header lines.
        unsafe { self.base.as_ptr().add(offset).cast() }
    }

    /// Pointer to the slot of `position`.
    #[inline(always)]
    pub(crate) fn slot(&self, position: u64) -> *mut T {
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

pub(crate) fn attach<T: Element>(
    path: &Path,
    role: u32,
    name: &'static str,
) -> Result<View<T>, QueueError> {
    let () = T::ASSERT_LAYOUT;
    let shared = Shared::validate(Memory::open_file(path)?, size_of::<T>())?;
    shared.claim(role, name)?;
    Ok(View::new(Arc::new(shared)))
}

/// Splits `n` positions from `start` into the run up to the end of the slot array and the run
/// that wraps to slot 0: `((position, len), (position, len))`.
#[inline(always)]
pub(crate) fn runs(start: u64, n: u64, capacity: u64) -> ((u64, u64), (u64, u64)) {
    let index = start & (capacity - 1);
    let first = n.min(capacity - index);
    ((start, first), (start + first, n - first))
}
