//! The atomics the ring protocol uses, in one place (crossbeam's `primitive` seam): a later
//! loom model check swaps these re-exports without touching the algorithm. Shared memory is
//! only ever read or written through [`crate::region::Region`]'s accessors, which use these.

pub(crate) use core::sync::atomic::{AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering};
