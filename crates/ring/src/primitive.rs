//! The atomics the ring protocol uses, in one place (crossbeam's `primitive` seam): in the
//! library's own tests under `--cfg loom` (loom is a dev-dependency) these are loom's
//! model-checked atomics, otherwise core's. Shared memory is only
//! ever read or written through [`crate::region::Region`]'s accessors, which use these; under
//! loom the region keeps its shared words in a heap-backed table of loom atomics behind the same
//! accessors (loom cannot build an atomic over raw memory), so the protocol code that loom
//! checks is the code that runs.

#[cfg(not(all(loom, test)))]
pub(crate) use core::sync::atomic::{AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering, fence};
#[cfg(all(loom, test))]
pub(crate) use loom::sync::atomic::{AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering, fence};
