//! The atomics the map's protocol uses, in one place: in the crate's own tests under
//! `--cfg loom` these are loom's model-checked atomics, otherwise core's (the ring's seam,
//! `sympathy_ring`'s `primitive`). Shared memory is only ever read or written through
//! [`crate::region::Region`]'s accessors, which use these.

#[cfg(not(all(loom, test)))]
pub(crate) use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(loom, test))]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, Ordering};
