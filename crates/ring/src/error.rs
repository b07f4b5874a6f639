//! Every way a ring operation can fail. Each message says what was wrong and what to do.

use std::path::PathBuf;
use std::time::Duration;

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
    /// The file does not start with the ring magic.
    #[error(
        "{path}: not a sympathy ring file (magic {found:#018x}, expected \"SYMPRING\"); \
         check the path, or create the ring with `sympathy ring create`"
    )]
    NotARingFile {
        /// The file.
        path: PathBuf,
        /// The first 8 bytes as a little-endian u64.
        found: u64,
    },
    /// The layout version is not one this build reads.
    #[error(
        "{path}: ring layout version {found} is not supported (this build reads version \
         {supported}); use a matching sympathy build or recreate the ring"
    )]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The file length does not match the capacity in its header.
    #[error("{path}: {}; recreate the ring", file_length_problem(*.actual, *.expected, *.capacity))]
    FileLength {
        /// The file.
        path: PathBuf,
        /// Its length.
        actual: u64,
        /// The length the header implies.
        expected: u64,
        /// The capacity in the header.
        capacity: u64,
    },
    /// A header field other than magic/version/capacity disagrees with the layout.
    #[error("{path}: corrupt header: {what}; recreate the ring")]
    CorruptHeader {
        /// The file.
        path: PathBuf,
        /// Which field and what it held.
        what: String,
    },
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
    /// The operating system refused access to the file.
    #[error(
        "{path}: permission denied while trying to {operation}; the ring needs read and write \
         access for both peers (check the file's owner and mode)"
    )]
    PermissionDenied {
        /// The file.
        path: PathBuf,
        /// What was attempted.
        operation: &'static str,
    },
    /// The path names something other than a regular file (a directory, a FIFO, a device such
    /// as `/dev/zero`, a socket), perhaps through a symbolic link. Refused before it is opened
    /// for reading and writing: a FIFO would block the open and a device would map as endless
    /// zeros.
    #[error(
        "{path}: not a regular file ({what}); a ring is a regular file made by \
         `sympathy ring create`: check the path"
    )]
    NotARegularFile {
        /// The path as given.
        path: PathBuf,
        /// What it is, e.g. `a character device, through a symbolic link to /dev/zero`.
        what: String,
    },
    /// The filesystem cannot hold the ring file (kind `no-space`): found when the file's blocks
    /// are reserved, at create (or `reserve_space`), instead of as a `SIGBUS` at the first write.
    #[error(
        "{path}: not enough space for the ring file: it needs {needed} bytes and {filesystem} \
         has {available} bytes free; create the ring on a filesystem with room for it (`df` \
         lists them; a container's /dev/shm grows with `docker run --shm-size`) or with a \
         smaller capacity (the file is 4096 + capacity + 768 bytes)"
    )]
    NoSpace {
        /// The file.
        path: PathBuf,
        /// The filesystem: its mount point and type, or the directory.
        filesystem: String,
        /// Bytes free on it (for unprivileged users).
        available: u64,
        /// Bytes the file needs.
        needed: u64,
    },
    /// Another I/O error.
    #[error("{path}: could not {operation}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was attempted.
        operation: &'static str,
        /// The cause.
        source: std::io::Error,
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

/// What is wrong with a file's length: shorter than the header page (`capacity` 0, not yet
/// known), or not the length its capacity implies.
fn file_length_problem(actual: u64, expected: u64, capacity: u64) -> String {
    if capacity == 0 {
        format!(
            "the file is {actual} bytes, shorter than the {expected}-byte header page (its creator \
             never sized it, or it is not a ring file)"
        )
    } else {
        format!(
            "the file is {actual} bytes but a ring of capacity {capacity} must be exactly \
             {expected} bytes (truncated or resized)"
        )
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
            RingError::NotARingFile { .. } => "not-a-ring-file",
            RingError::UnsupportedVersion { .. } => "unsupported-version",
            RingError::FileLength { .. } => "file-length",
            RingError::CorruptHeader { .. } => "corrupt-header",
            RingError::BadCapacity { .. } => "bad-capacity",
            RingError::CorruptRecord { .. } => "corrupt-record",
            RingError::MessageTooLong { .. } => "message-too-long",
            RingError::InvalidTypeId { .. } => "invalid-type-id",
            RingError::PermissionDenied { .. } => "permission-denied",
            RingError::NotARegularFile { .. } => "not-a-regular-file",
            RingError::NoSpace { .. } => "no-space",
            RingError::Io { .. } => "io",
            RingError::AlreadyAttached { .. } => "already-attached",
            RingError::Full { .. } => "full",
            RingError::Timeout { .. } => "timeout",
            RingError::PeerDead { .. } => "peer-dead",
        }
    }

    /// Whether this is back pressure ([`RingError::Full`]) rather than a failure.
    pub fn is_full(&self) -> bool {
        matches!(self, RingError::Full { .. })
    }

    /// Maps an I/O error on `path`, turning permission errors into
    /// [`RingError::PermissionDenied`].
    pub(crate) fn io(path: &std::path::Path, operation: &'static str, e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::PermissionDenied {
            RingError::PermissionDenied {
                path: path.to_path_buf(),
                operation,
            }
        } else {
            RingError::Io {
                path: path.to_path_buf(),
                operation,
                source: e,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permission_errors_map_to_permission_denied() {
        let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let err = RingError::io(std::path::Path::new("/x"), "open the ring file", e);
        assert!(matches!(err, RingError::PermissionDenied { .. }));
        assert!(err.to_string().contains("read and write access"));
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        let err = RingError::io(std::path::Path::new("/x"), "open the ring file", e);
        assert!(matches!(err, RingError::Io { .. }));
    }

    #[test]
    fn kinds_are_distinct_lower_kebab_names() {
        let path = || PathBuf::from("/x");
        let all = [
            RingError::NotARingFile {
                path: path(),
                found: 0,
            },
            RingError::UnsupportedVersion {
                path: path(),
                found: 2,
                supported: 1,
            },
            RingError::FileLength {
                path: path(),
                actual: 0,
                expected: 0,
                capacity: 0,
            },
            RingError::CorruptHeader {
                path: path(),
                what: String::new(),
            },
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
            RingError::PermissionDenied {
                path: path(),
                operation: "",
            },
            RingError::NotARegularFile {
                path: path(),
                what: String::new(),
            },
            RingError::NoSpace {
                path: path(),
                filesystem: String::new(),
                available: 0,
                needed: 0,
            },
            RingError::Io {
                path: path(),
                operation: "",
                source: std::io::Error::other("x"),
            },
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
