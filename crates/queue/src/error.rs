//! Why a queue could not be created or attached.

use std::path::PathBuf;

use thiserror::Error;

/// Why a queue could not be created or attached. Every message says what was wrong and what to
/// do about it.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum QueueError {
    /// The capacity is zero, not a power of two, or too large.
    #[error(
        "capacity {capacity} is not a power of two between 1 and 2^40; pick one such as 1024 or 65536"
    )]
    CapacityNotPowerOfTwo {
        /// The requested capacity.
        capacity: usize,
    },
    /// Memory for the queue could not be allocated or mapped.
    #[error("could not allocate or map {bytes} bytes for the queue: {reason}")]
    Memory {
        /// Bytes requested.
        bytes: usize,
        /// What the allocator or the kernel said.
        reason: String,
    },
    /// The queue file could not be created, opened or mapped.
    #[error("queue file {path}: {reason}")]
    File {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        reason: String,
    },
    /// The file is too short to hold even the header and counters.
    #[error(
        "{len} bytes is too short for a queue (at least {min} bytes of header and counters); \
         is this a queue file made by `create_file`?"
    )]
    TooShort {
        /// The file's length.
        len: usize,
        /// The smallest possible queue.
        min: usize,
    },
    /// The first 8 bytes are not the queue magic.
    #[error(
        "bad magic {found:#018x} (expected {expected:#018x}): not a P1C1 queue file, or not yet initialised"
    )]
    BadMagic {
        /// What the file holds.
        found: u64,
        /// [`crate::QueueLayout::MAGIC`].
        expected: u64,
    },
    /// The file was written by another layout version.
    #[error("layout version {found}, this code reads version {expected}; recreate the file")]
    BadVersion {
        /// What the file holds.
        found: u32,
        /// [`crate::QueueLayout::VERSION`].
        expected: u32,
    },
    /// The file's element size differs from the element type attaching to it.
    #[error(
        "the queue holds {found}-byte elements but this side uses {expected}-byte elements; \
         both processes must use the same element type"
    )]
    ElementSizeMismatch {
        /// What the file holds.
        found: u32,
        /// `size_of::<T>()` of the attaching side.
        expected: u32,
    },
    /// The capacity in the header is not a power of two.
    #[error("the header's capacity {capacity} is not a power of two: the file is corrupt")]
    CorruptCapacity {
        /// What the header holds.
        capacity: u64,
    },
    /// The file's length does not match what the header describes.
    #[error(
        "the file is {len} bytes but its header describes {expected} bytes \
         ({capacity} slots of {element_size} bytes); the file is truncated or corrupt"
    )]
    WrongLength {
        /// The file's length.
        len: usize,
        /// [`crate::QueueLayout::total_len`] of the header's capacity and element size.
        expected: usize,
        /// The header's capacity.
        capacity: u64,
        /// The header's element size.
        element_size: u32,
    },
    /// Another producer or consumer already attached to this queue.
    #[error("a {role} is already attached to this queue; a P1C1 queue has exactly one of each")]
    RoleTaken {
        /// `producer` or `consumer`.
        role: &'static str,
    },
}
