//! The errors every kind of mapped file shares: opening a hostile file, sizing it, reaching it.
//! Each message says what was wrong and what to do, in the kind's words ([`FileKind`]); each has
//! a stable lower-kebab name ([`FileError::kind`]) that the Java `MappedFileException.kind()`
//! gives for the same failure. A kind's own errors (a full ring, a corrupt slot) stay with it
//! and wrap these (`RingError::File`, `MapError::File`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use crate::header::{FileKind, HEADER_LENGTH};
use crate::space::SpaceError;

/// An error of a mapped file of kind `file` (the ring, the map).
#[derive(Debug, Error)]
pub enum FileError {
    /// The file does not start with the kind's magic.
    #[error(
        "{path}: not a sympathy {noun} file (magic {found:#018x}, expected \"{magic}\"); check \
         the path, or create the {noun} with `{create}`",
        noun = file.noun, magic = file.magic_text(), create = file.create_command
    )]
    NotThisKind {
        /// The kind expected.
        file: &'static FileKind,
        /// The file.
        path: PathBuf,
        /// The first 8 bytes as a little-endian u64.
        found: u64,
    },
    /// The layout version is not one this build reads.
    #[error(
        "{path}: {noun} layout version {found} is not supported (this build reads {supported}); \
         use a matching sympathy build or {remake}",
        noun = file.noun, supported = file.versions_text(), remake = file.remake
    )]
    UnsupportedVersion {
        /// The kind expected.
        file: &'static FileKind,
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
    },
    /// The file's length is not the one its header implies, or it is shorter than the header
    /// page (`sizes` is `None`: its creator never sized it).
    #[error("{path}: {}", length_problem(file, *actual, *expected, sizes.as_deref()))]
    FileLength {
        /// The kind expected.
        file: &'static FileKind,
        /// The file.
        path: PathBuf,
        /// Its length.
        actual: u64,
        /// The length its header implies ([`HEADER_LENGTH`] while the header is missing).
        expected: u64,
        /// The header's sizes that imply `expected`, e.g. `capacity 65536`.
        sizes: Option<String>,
    },
    /// The file is shorter than its header implies, in a layout whose files may be longer (one
    /// that grows: its writer extends the file before it stores the larger size).
    #[error(
        "{path}: the file is {actual} bytes but a {noun} of {sizes} must be at least {expected} \
         bytes (the file was cut); {remake}",
        noun = file.noun,
        remake = file.remake
    )]
    FileShort {
        /// The kind expected.
        file: &'static FileKind,
        /// The file.
        path: PathBuf,
        /// Its length.
        actual: u64,
        /// The least length its header implies.
        expected: u64,
        /// The header's sizes that imply `expected`.
        sizes: String,
    },
    /// A header field disagrees with the layout.
    #[error("{path}: corrupt header: {what}; {remake}", remake = file.remake)]
    CorruptHeader {
        /// The kind expected.
        file: &'static FileKind,
        /// The file.
        path: PathBuf,
        /// Which field and what it held.
        what: String,
    },
    /// The file's creator never set `ready`.
    #[error(
        "timed out after {waited:?} waiting for the {noun}'s creator to set the ready word (an \
         all-zero header means its creator died or is still writing; {remake})",
        noun = file.noun, remake = file.remake
    )]
    NotReady {
        /// The kind expected.
        file: &'static FileKind,
        /// How long it waited.
        waited: Duration,
    },
    /// The operating system refused access to the file.
    #[error(
        "{path}: permission denied while trying to {operation}; {needed}: check the file's \
         owner and mode",
        needed = file.access_needed
    )]
    PermissionDenied {
        /// The kind expected.
        file: &'static FileKind,
        /// The file.
        path: PathBuf,
        /// What was attempted.
        operation: &'static str,
    },
    /// The path names something other than a regular file (a directory, a FIFO, a device such
    /// as `/dev/zero`, a socket), perhaps through a symbolic link. Refused before it is opened:
    /// a FIFO would block the open and a device would map as endless zeros.
    #[error(
        "{path}: not a regular file ({what}); a {noun} is a regular file made by `{create}`: \
         check the path",
        noun = file.noun, create = file.create_command
    )]
    NotARegularFile {
        /// The kind expected.
        file: &'static FileKind,
        /// The path as given.
        path: PathBuf,
        /// What it is, e.g. `a character device, through a symbolic link to /dev/zero`.
        what: String,
    },
    /// The filesystem cannot hold the file: found when its blocks are reserved (at create, or
    /// when a sparse file is opened), instead of as a `SIGBUS` at the first write.
    #[error(
        "{path}: not enough space for the {noun} file: it needs {needed} bytes and {filesystem} \
         has {available} bytes free, of which {kept} stay free for other programs; create the \
         {noun} on a filesystem with room for it (`df` lists them; a container's /dev/shm grows \
         with `docker run --shm-size`) or {smaller}",
        noun = file.noun, smaller = file.make_smaller
    )]
    NoSpace {
        /// The kind expected.
        file: &'static FileKind,
        /// The file.
        path: PathBuf,
        /// The filesystem: its mount point and type, or the directory.
        filesystem: String,
        /// Bytes free on it (for unprivileged users).
        available: u64,
        /// Bytes of it left free for other programs ([`crate::space::kept_free`]).
        kept: u64,
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
}

fn length_problem(file: &FileKind, actual: u64, expected: u64, sizes: Option<&str>) -> String {
    let (noun, remake) = (file.noun, file.remake);
    match sizes {
        None => format!(
            "the file is {actual} bytes, shorter than the {HEADER_LENGTH}-byte header page (its \
             creator never sized it, or it is not a {noun} file); {remake}"
        ),
        Some(sizes) => format!(
            "the file is {actual} bytes but a {noun} of {sizes} must be exactly {expected} bytes \
             (the file was cut or extended); {remake}"
        ),
    }
}

impl FileError {
    /// The kind of error as a stable lower-kebab name (`not-a-ring-file`, `file-length`,
    /// `no-space`, ...), the one the Java `MappedFileException.kind()` gives.
    ///
    /// ```
    /// use sympathy_mapped::FileError;
    /// let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    /// # static KIND: sympathy_mapped::header::FileKind = sympathy_mapped::header::FileKind {
    /// #     noun: "map", not_this_kind: "not-a-map-file", magic: 0,
    /// #     oldest_layout_version: 1, layout_version: 1,
    /// #     create_command: "", remake: "", access_needed: "", make_smaller: "" };
    /// assert_eq!(FileError::io(&KIND, "/x".as_ref(), "open", e).kind(), "permission-denied");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            FileError::NotThisKind { file, .. } => file.not_this_kind,
            FileError::UnsupportedVersion { .. } => "unsupported-version",
            FileError::FileLength { .. } | FileError::FileShort { .. } => "file-length",
            FileError::CorruptHeader { .. } => "corrupt-header",
            FileError::NotReady { .. } => "timeout",
            FileError::PermissionDenied { .. } => "permission-denied",
            FileError::NotARegularFile { .. } => "not-a-regular-file",
            FileError::NoSpace { .. } => "no-space",
            FileError::Io { .. } => "io",
        }
    }

    /// An I/O error on `path`, as [`FileError::PermissionDenied`] when that is what it is.
    pub fn io(
        file: &'static FileKind,
        path: &Path,
        operation: &'static str,
        e: std::io::Error,
    ) -> Self {
        if e.kind() == std::io::ErrorKind::PermissionDenied {
            FileError::PermissionDenied {
                file,
                path: path.to_path_buf(),
                operation,
            }
        } else {
            FileError::Io {
                path: path.to_path_buf(),
                operation,
                source: e,
            }
        }
    }

    /// A failed reservation of `needed` bytes for `path`, in the kind's words.
    pub fn from_space(file: &'static FileKind, path: &Path, needed: u64, e: SpaceError) -> Self {
        match e {
            SpaceError::NoSpace {
                filesystem,
                available,
                kept,
            } => FileError::NoSpace {
                file,
                path: path.to_path_buf(),
                filesystem,
                available,
                kept,
                needed,
            },
            SpaceError::Open(e) => {
                FileError::io(file, path, "open the file to reserve its space", e)
            }
            SpaceError::Reserve(e) => FileError::io(file, path, "reserve the file's space", e),
        }
    }

    /// A corrupt header field of `path`.
    pub fn corrupt_header(file: &'static FileKind, path: &Path, what: String) -> Self {
        FileError::CorruptHeader {
            file,
            path: path.to_path_buf(),
            what,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::header::TEST_KIND as KIND;

    #[test]
    fn messages_use_the_kinds_words() {
        let e = FileError::NotThisKind {
            file: &KIND,
            path: "/x".into(),
            found: 0x4141_4141_4141_4141,
        };
        let text = e.to_string();
        assert!(
            text.contains("not a sympathy ring file")
                && text.contains("\"SYMPRING\"")
                && text.contains("`sympathy ring create`"),
            "{text}"
        );
        assert_eq!(e.kind(), "not-a-ring-file");
        let short = FileError::FileLength {
            file: &KIND,
            path: "/x".into(),
            actual: 10,
            expected: HEADER_LENGTH as u64,
            sizes: None,
        };
        assert!(
            short
                .to_string()
                .contains("shorter than the 4096-byte header page")
        );
        let cut = FileError::FileLength {
            file: &KIND,
            path: "/x".into(),
            actual: 10,
            expected: 4928,
            sizes: Some("capacity 64".into()),
        };
        assert!(
            cut.to_string()
                .contains("a ring of capacity 64 must be exactly 4928 bytes")
        );
    }

    #[test]
    fn permission_errors_map_to_permission_denied() {
        let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let err = FileError::io(&KIND, Path::new("/x"), "open the ring file", e);
        assert!(matches!(err, FileError::PermissionDenied { .. }));
        assert!(err.to_string().contains("read and write access"), "{err}");
        let e = std::io::Error::from(std::io::ErrorKind::NotFound);
        let err = FileError::io(&KIND, Path::new("/x"), "open the ring file", e);
        assert_eq!(err.kind(), "io");
    }

    #[test]
    fn a_full_filesystem_names_itself_and_the_remedy() {
        let space = SpaceError::NoSpace {
            filesystem: "/mnt (ext4)".into(),
            available: 5 << 20,
            kept: 4 << 20,
        };
        let err = FileError::from_space(&KIND, Path::new("/mnt/r"), 1 << 20, space);
        let text = err.to_string();
        assert_eq!(err.kind(), "no-space");
        assert!(
            text.contains(
                "it needs 1048576 bytes and /mnt (ext4) has 5242880 bytes free, of which 4194304 \
                 stay free for other programs;"
            ) && text.contains("smaller capacity"),
            "{text}"
        );
    }
}
