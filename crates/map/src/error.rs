//! Every way a map operation can fail. Each message says what was wrong and what to do; each
//! kind has a stable lower-kebab name ([`MapError::kind`]) that the Java `MapException.kind`
//! gives for the same failure.

use std::path::PathBuf;

use sympathy_mapped::FileError;
use thiserror::Error;

/// Which limit of a map a put ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FullOf {
    /// The slot table: three quarters of its slots are used by keys and tombstones.
    Slots,
    /// The data area: no room left after `data_end` for the record.
    Data,
}

impl std::fmt::Display for FullOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FullOf::Slots => "slots",
            FullOf::Data => "data",
        })
    }
}

/// An error from creating, opening, reading or writing a map.
#[derive(Debug, Error)]
pub enum MapError {
    /// A file-level error every kind of mapped file shares (not a map file, a version this
    /// build does not read, a wrong length, a corrupt header field, a creator that never set
    /// `ready`, no permission, not a regular file, no space, I/O), in the map's words.
    #[error(transparent)]
    File(#[from] FileError),
    /// A create or an open was asked for a size the layout cannot have.
    #[error("{what}")]
    BadConfig {
        /// What is wrong and what would do.
        what: String,
    },
    /// A slot or record of the map is impossible.
    #[error(
        "corrupt map{}: {what}; the file was modified by something other than a map writer: \
         rebuild the map",
        path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default()
    )]
    Corrupt {
        /// The file, if any.
        path: Option<PathBuf>,
        /// Which slot or record and what it held.
        what: String,
    },
    /// A record does not match its checksum (layout version 2 on): an OS crash or a power loss
    /// after the map's last flush left it part-written. Its kind is `corrupt-map`: a lookup of its
    /// key is refused, never served.
    #[error(
        "torn record in map{}: the record at offset {offset} (key {key}) does not match its \
         checksum (stored {stored:#010x}, computed {computed:#010x}): an OS crash or a power loss \
         after the map's last flush left it part-written; put the key again (its value is lost), \
         or restore the map from a copy",
        path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default()
    )]
    TornRecord {
        /// The file, if any.
        path: Option<PathBuf>,
        /// The record's offset in the data area.
        offset: u64,
        /// The key the record holds.
        key: u64,
        /// The checksum the record holds.
        stored: u32,
        /// The checksum its bytes give.
        computed: u32,
    },
    /// The value is longer than the map accepts.
    #[error(
        "value of {length} bytes exceeds this map's maximum of {max} bytes (max_value_length, \
         set at create); create a map with a larger --max-value-length"
    )]
    ValueTooLong {
        /// The value's length.
        length: usize,
        /// The maximum.
        max: u32,
    },
    /// The map has no room for the put (nothing was written).
    #[error(
        "map full ({of}): {}; nothing was written: copy the map into a larger one \
         (`sympathy map copy`)",
        full_detail(*of, *used, *limit)
    )]
    Full {
        /// Which limit.
        of: FullOf,
        /// Slots used, or data bytes used.
        used: u64,
        /// The most there may be.
        limit: u64,
    },
    /// Another live process is the writer.
    #[error(
        "a writer is already attached (pid {pid}); a map takes one writer at a time: stop that \
         process, or open the map to read only"
    )]
    AlreadyAttached {
        /// The pid of the writer.
        pid: i32,
    },
    /// A write was asked of a map opened to read only.
    #[error("{path}: opened read-only; open it with MapFile::open to write")]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// The values are not in the format the caller decodes.
    #[error(
        "the map's values are in format {found} ({}), not {expected} ({}); open a map built \
         for this use",
        format_name(*found),
        format_name(*expected)
    )]
    ValueFormat {
        /// The map's `value_format`.
        found: u32,
        /// The one the caller decodes.
        expected: u32,
    },
}

fn full_detail(of: FullOf, used: u64, limit: u64) -> String {
    match of {
        FullOf::Slots => {
            format!("{used} of {limit} usable slots hold keys or tombstones (3/4 of the table)")
        }
        FullOf::Data => format!("the record needs room past {used} of {limit} data bytes"),
    }
}

/// A value format's name, for messages.
pub fn format_name(format: u32) -> &'static str {
    use crate::layout::*;
    match format {
        VALUE_FORMAT_BYTES => "bytes",
        VALUE_FORMAT_USER_FLYWEIGHT => "user-flyweight",
        VALUE_FORMAT_USER_SBE => "user-sbe",
        VALUE_FORMAT_USER_JAVA_SERIALIZATION => "user-java-serialization",
        _ => "unknown",
    }
}

/// The map as a kind of mapped file: its magic, version and the words of its file errors.
pub static FILE_KIND: sympathy_mapped::FileKind = sympathy_mapped::FileKind {
    noun: "map",
    not_this_kind: "not-a-map-file",
    magic: crate::layout::MAGIC,
    oldest_layout_version: crate::layout::OLDEST_LAYOUT_VERSION,
    layout_version: crate::layout::LAYOUT_VERSION,
    create_command: "sympathy map create",
    remake: "rebuild the map",
    access_needed: "a reader needs read access, a writer read and write",
    make_smaller: "with fewer slots or a smaller data area",
};

impl MapError {
    /// The kind of error as a stable lower-kebab name, the same one the Java map's
    /// `MapException.kind()` gives for the same failure (the conformance suite,
    /// `crates/map/tests/conformance/manifest.json`, checks both).
    ///
    /// ```
    /// let e = sympathy_map::MapError::ValueTooLong { length: 9, max: 8 };
    /// assert_eq!(e.kind(), "value-too-long");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            MapError::File(e) => e.kind(),
            MapError::BadConfig { .. } => "bad-config",
            MapError::Corrupt { .. } | MapError::TornRecord { .. } => "corrupt-map",
            MapError::ValueTooLong { .. } => "value-too-long",
            MapError::Full { .. } => "full",
            MapError::AlreadyAttached { .. } => "already-attached",
            MapError::ReadOnly { .. } => "read-only",
            MapError::ValueFormat { .. } => "value-format",
        }
    }

    /// Whether this is [`MapError::Full`]: the put was refused, nothing was written.
    pub fn is_full(&self) -> bool {
        matches!(self, MapError::Full { .. })
    }

    /// An I/O error on `path`, as a permission error when that is what it is.
    pub(crate) fn io(path: &std::path::Path, operation: &'static str, e: std::io::Error) -> Self {
        MapError::File(FileError::io(&crate::error::FILE_KIND, path, operation, e))
    }

    /// A header field of `path` that disagrees with the layout.
    pub(crate) fn corrupt_header(path: &std::path::Path, what: String) -> Self {
        MapError::File(FileError::corrupt_header(
            &crate::error::FILE_KIND,
            path,
            what,
        ))
    }

    /// A corrupt slot or record.
    pub(crate) fn corrupt(path: Option<&std::path::Path>, what: String) -> Self {
        MapError::Corrupt {
            path: path.map(|p| p.to_path_buf()),
            what,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permission_errors_map_to_permission_denied() {
        let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let err = MapError::io(std::path::Path::new("/x"), "open the map file", e);
        assert_eq!(err.kind(), "permission-denied");
    }

    #[test]
    fn full_says_which_limit_and_what_to_do() {
        let e = MapError::Full {
            of: FullOf::Slots,
            used: 6,
            limit: 6,
        };
        let text = e.to_string();
        assert!(
            text.contains("map full (slots)") && text.contains("sympathy map copy"),
            "{text}"
        );
        assert!(e.is_full());
    }
}
