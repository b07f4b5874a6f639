//! Every way a ring operation can fail. Each message says what was wrong and what to do.

use std::time::Duration;

use sympathy_mapped::FileError;
use sympathy_mapped::liveness::PeerState;
use thiserror::Error;

/// Which side of the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The single writer.
    Producer,
    /// The single reader.
    Consumer,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Producer => "producer",
            Role::Consumer => "consumer",
        })
    }
}

/// What is wrong with a record found in the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corruption {
    /// A positive length shorter than the 8-byte record header.
    LengthTooShort {
        /// The length found.
        length: i32,
    },
    /// A length that runs past the end of the record area, or a payload longer than the
    /// maximum message length.
    LengthTooLong {
        /// The length found.
        length: i32,
        /// The most this record could have been.
        limit: usize,
    },
    /// A type id that is neither a message type (>= 1) nor padding (-1).
    UnknownType {
        /// The type id found.
        type_id: i32,
    },
    /// A head or tail position that is negative, not a multiple of 8 or past
    /// [`crate::layout::MAX_POSITION`], or a tail behind the head or more than a capacity ahead
    /// of it.
    BadPositions {
        /// The head position found.
        head: i64,
        /// The tail position found.
        tail: i64,
    },
}

impl std::fmt::Display for Corruption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Corruption::LengthTooShort { length } => {
                write!(
                    f,
                    "record length {length} is shorter than the 8-byte header"
                )
            }
            Corruption::LengthTooLong { length, limit } => {
                write!(
                    f,
                    "record length {length} exceeds the {limit} bytes it may span"
                )
            }
            Corruption::UnknownType { type_id } => write!(
                f,
                "type id {type_id} is neither a message type (>= 1) nor padding (-1)"
            ),
            Corruption::BadPositions { head, tail } => write!(
                f,
                "head {head} / tail {tail} are negative, misaligned (not multiples of 8), \
                 past 2^62, or further apart than the capacity allows"
            ),
        }
    }
}

/// An error from creating, opening, writing or reading a ring.
#[derive(Debug, Error)]
pub enum RingError {
    /// A file-level error every kind of mapped file shares (not a ring file, a version this
    /// build does not read, a wrong length, a corrupt header field, a creator that never set
    /// `ready`, no permission, not a regular file, no space, I/O), in the ring's words.
    #[error(transparent)]
    File(#[from] FileError),
    /// The capacity is not a power of two in the accepted range.
    #[error(
        "capacity {capacity} is not a power of two between {min} and {max} bytes; \
         pick one such as 65536"
    )]
    BadCapacity {
        /// The capacity given or found.
        capacity: u64,
        /// The smallest accepted.
        min: usize,
        /// The largest accepted.
        max: usize,
    },
    /// A record or position in the ring is corrupt.
    #[error(
        "corrupt ring at position {position} (index {index} in the record area): {corruption}; \
         the peer wrote an invalid record or the file was modified, recreate the ring"
    )]
    CorruptRecord {
        /// The stream position of the record (bytes since creation).
        position: i64,
        /// The record's index in the record area (`position & (capacity - 1)`).
        index: usize,
        /// What is wrong.
        corruption: Corruption,
    },
    /// The payload exceeds the ring's maximum message length.
    #[error(
        "message of {length} bytes exceeds this ring's maximum of {max} bytes (capacity / 8); \
         split the message or use a ring of at least {needed} bytes capacity"
    )]
    MessageTooLong {
        /// The payload length asked for.
        length: usize,
        /// The maximum.
        max: usize,
        /// A capacity that would fit it.
        needed: usize,
    },
    /// Message type ids must be >= 1 (-1 marks padding, 0 an empty header).
    #[error("message type id {type_id} is invalid; message type ids must be >= 1")]
    InvalidTypeId {
        /// The type id given.
        type_id: i32,
    },
    /// The role is held by a live process.
    #[error(
        "a {role} is already attached (pid {pid}); a ring takes one {role} at a time: stop \
         that process or use another ring"
    )]
    AlreadyAttached {
        /// The role asked for.
        role: Role,
        /// The pid holding it.
        pid: i32,
    },
    /// The ring has no room for the record now: back pressure, retry after the consumer reads.
    #[error(
        "ring full: {required} bytes needed, {available} free; retry once the consumer has \
         read (back pressure: the message was not written)"
    )]
    Full {
        /// Bytes the record needs (aligned record plus the next header).
        required: usize,
        /// Bytes free when it was refused.
        available: usize,
    },
    /// A wait ran out of time.
    #[error("timed out after {waited:?} waiting for {what}")]
    Timeout {
        /// How long it waited.
        waited: Duration,
        /// What it waited for.
        what: &'static str,
    },
    /// The file holds another kind of ring than the one asked for.
    #[error(
        "{path} is a {found} ring, not a {wanted} ring; open it as {found} (its kind is fixed \
         when it is created)",
        path = path.display(),
        found = found.description(),
        wanted = wanted.description()
    )]
    WrongKind {
        /// The ring file.
        path: std::path::PathBuf,
        /// The kind in its header.
        found: crate::layout::Kind,
        /// The kind asked for.
        wanted: crate::layout::Kind,
    },
    /// The peer process is gone.
    #[error("the {role} (pid {pid}) {how}; restart it, or recreate the ring")]
    PeerDead {
        /// The peer's role.
        role: Role,
        /// Its last pid (0 when it detached).
        pid: i32,
        /// `exited without detaching` or `detached`.
        how: &'static str,
    },
}

/// The ring as a kind of mapped file: its magic, version and the words of its file errors.
pub static FILE_KIND: sympathy_mapped::FileKind = sympathy_mapped::FileKind {
    noun: "ring",
    not_this_kind: "not-a-ring-file",
    magic: crate::layout::MAGIC,
    oldest_layout_version: crate::layout::LAYOUT_VERSION,
    layout_version: crate::layout::KIND_LAYOUT_VERSION,
    create_command: "sympathy ring create",
    remake: "recreate the ring",
    access_needed: "the ring needs read and write access for both peers",
    make_smaller: "with a smaller capacity (the file is 4096 + capacity + 768 bytes, 128 for a broadcast ring's trailer)",
};

/// Refuses a type id below 1 ([`RingError::InvalidTypeId`]) and a payload longer than `max`
/// ([`RingError::MessageTooLong`], naming a capacity that would fit it): the check every
/// writer of every kind makes before it claims room.
#[inline]
pub(crate) fn check_message(type_id: i32, len: usize, max: usize) -> Result<(), RingError> {
    if type_id < 1 {
        return Err(RingError::InvalidTypeId { type_id });
    }
    if len > max {
        return Err(too_long(len, max));
    }
    Ok(())
}

#[cold]
fn too_long(len: usize, max: usize) -> RingError {
    RingError::MessageTooLong {
        length: len,
        max,
        needed: (len * 8)
            .next_power_of_two()
            .max(crate::layout::MIN_CAPACITY),
    }
}

impl RingError {
    /// The kind of error as a stable lower-kebab name, the same one the Java ring's
    /// `RingException.kind()` gives for the same failure (the conformance suite in
    /// `crates/ring/tests/conformance/` checks both against one manifest).
    ///
    /// # Examples
    /// ```
    /// let err = sympathy_ring::Ring::anonymous(1000).unwrap_err();
    /// assert_eq!(err.kind(), "bad-capacity");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            RingError::File(e) => e.kind(),
            RingError::BadCapacity { .. } => "bad-capacity",
            RingError::CorruptRecord { .. } => "corrupt-record",
            RingError::MessageTooLong { .. } => "message-too-long",
            RingError::InvalidTypeId { .. } => "invalid-type-id",
            RingError::AlreadyAttached { .. } => "already-attached",
            RingError::Full { .. } => "full",
            RingError::Timeout { .. } => "timeout",
            RingError::PeerDead { .. } => "peer-dead",
            RingError::WrongKind { .. } => "wrong-kind",
        }
    }

    /// The error to report when a side needed its peer and `state` says it is gone (detached
    /// or dead); `None` while it is attached, stale or never attached.
    ///
    /// ```
    /// use sympathy_ring::{PeerState, RingError, Role};
    /// let dead = RingError::peer_gone(PeerState::Dead { pid: 7 }, Role::Producer).unwrap();
    /// assert_eq!(dead.kind(), "peer-dead");
    /// assert!(RingError::peer_gone(PeerState::NeverAttached, Role::Producer).is_none());
    /// ```
    pub fn peer_gone(state: PeerState, role: Role) -> Option<RingError> {
        match state {
            PeerState::Detached => Some(RingError::PeerDead {
                role,
                pid: 0,
                how: "detached",
            }),
            PeerState::Dead { pid } => Some(RingError::PeerDead {
                role,
                pid,
                how: "exited without detaching",
            }),
            _ => None,
        }
    }

    /// Whether this is back pressure ([`RingError::Full`]) rather than a failure.
    pub fn is_full(&self) -> bool {
        matches!(self, RingError::Full { .. })
    }

    /// An I/O error on `path`, as a permission error when that is what it is.
    pub(crate) fn io(path: &std::path::Path, operation: &'static str, e: std::io::Error) -> Self {
        RingError::File(FileError::io(&crate::error::FILE_KIND, path, operation, e))
    }

    /// A header field of `path` that disagrees with the layout.
    pub(crate) fn corrupt_header(path: &std::path::Path, what: String) -> Self {
        RingError::File(FileError::corrupt_header(
            &crate::error::FILE_KIND,
            path,
            what,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_distinct_lower_kebab_names() {
        let all = [
            RingError::corrupt_header(std::path::Path::new("/x"), String::new()),
            RingError::BadCapacity {
                capacity: 0,
                min: 0,
                max: 0,
            },
            RingError::CorruptRecord {
                position: 0,
                index: 0,
                corruption: Corruption::LengthTooShort { length: 0 },
            },
            RingError::MessageTooLong {
                length: 0,
                max: 0,
                needed: 0,
            },
            RingError::InvalidTypeId { type_id: 0 },
            RingError::AlreadyAttached {
                role: Role::Producer,
                pid: 1,
            },
            RingError::Full {
                required: 0,
                available: 0,
            },
            RingError::Timeout {
                waited: Duration::ZERO,
                what: "",
            },
            RingError::PeerDead {
                role: Role::Consumer,
                pid: 0,
                how: "",
            },
        ];
        let kinds: std::collections::BTreeSet<_> = all.iter().map(RingError::kind).collect();
        assert_eq!(kinds.len(), all.len(), "{kinds:?}");
        for kind in kinds {
            assert!(
                kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{kind}"
            );
        }
    }
}
