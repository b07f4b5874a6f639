//! Opening a mapped file that may be hostile, up to the kind's own fields: the steps every kind
//! takes in the same order (docs/ring-layout.md and docs/map-layout.md, "Opening"); the Java twin
//! is `dev.sympathy.mapped.MappedOpen`, which the Java ring and map use. A kind then checks its
//! sizes against the file's length, maps the whole file its own way and checks its own fields.
//!
//! 1. a regular file, checked before it is opened (a FIFO would block the open, a device such as
//!    `/dev/zero` would map as endless zeros), then opened without blocking;
//! 2. at least a header page long within the timeout (its creator may still be sizing it);
//! 3. the magic 0 (not yet written) or the kind's, and `ready` 0 or 1, until `ready` is 1 within
//!    the timeout;
//! 4. the kind's magic and layout version.
//!
//! ```
//! use sympathy_mapped::header::FileKind;
//! use sympathy_mapped::open::{Access, open_header};
//! # const KIND: FileKind = FileKind { noun: "ring", not_this_kind: "not-a-ring-file",
//! #     magic: u64::from_le_bytes(*b"SYMPRING"),
//! #     oldest_layout_version: 1, layout_version: 1, create_command: "sympathy ring create", remake: "recreate the ring",
//! #     access_needed: "", make_smaller: "" };
//! let dir = std::env::temp_dir().join(format!("mapped-open-doc-{}", std::process::id()));
//! std::fs::write(&dir, vec![0x41u8; 8192]).unwrap();
//! let timeout = std::time::Duration::from_millis(10);
//! let err = open_header(&dir, &KIND, timeout, Access::ReadOnly).err().unwrap();
//! assert_eq!(err.kind(), "not-a-ring-file");
//! std::fs::remove_file(&dir).unwrap();
//! ```

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::FileError;
use crate::header::{
    FileKind, HEADER_LENGTH, HeaderPage, LAYOUT_VERSION_OFFSET, MAGIC_OFFSET, READY,
};

/// How an opener may touch the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A writer or a peer: opened for reading and writing.
    ReadWrite,
    /// A reader or a tool: opened read-only (`O_RDONLY`), needing no write permission.
    ReadOnly,
}

/// A file whose header page passed the shared checks; the kind checks the rest.
pub struct OpenedFile {
    /// The open file.
    pub file: File,
    /// Its length once `ready` was set (at least [`HEADER_LENGTH`]): a creator reserves the
    /// file's blocks, which extends it step by step, before it stores `ready`.
    pub length: u64,
    /// Its header page, mapped read-only.
    pub header: HeaderPage,
}

/// Runs the shared steps of an open (the module's list) on `path` for a file of kind `file`.
///
/// # Errors
/// [`FileError::NotARegularFile`], [`FileError::FileLength`] (shorter than the header page once
/// `timeout` has passed), [`FileError::NotThisKind`], [`FileError::CorruptHeader`] (`ready`
/// neither 0 nor 1), [`FileError::NotReady`], [`FileError::UnsupportedVersion`],
/// [`FileError::PermissionDenied`], [`FileError::Io`].
pub fn open_header(
    path: &Path,
    file: &'static FileKind,
    timeout: Duration,
    access: Access,
) -> Result<OpenedFile, FileError> {
    let start = Instant::now();
    let opened = open_regular_file(path, file, access)?;
    wait_for_header_page(&opened, path, file, start, timeout)?;
    let header = HeaderPage::map(&opened)
        .map_err(|e| FileError::io(file, path, "map the header page", e))?;
    wait_for_ready(&header, path, file, start, timeout)?;
    check_magic_and_version(&header, path, file)?;
    // Read again: the length the header page had may be a creator's part-way through sizing.
    let length = opened
        .metadata()
        .map_err(|e| FileError::io(file, path, "read the file's length", e))?
        .len();
    Ok(OpenedFile {
        file: opened,
        length,
        header,
    })
}

/// Creates `path` (which must not exist) for reading and writing and reserves its `length`
/// bytes; on any failure removes it again (without `ready` every opener would wait on it).
///
/// # Errors
/// [`FileError::NoSpace`] naming the filesystem and its free space,
/// [`FileError::PermissionDenied`], [`FileError::Io`] (also when the file exists).
pub fn create_new(path: &Path, file: &'static FileKind, length: u64) -> Result<File, FileError> {
    let created = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| FileError::io(file, path, "create the file", e))?;
    match crate::space::allocate_new(&created, path, length) {
        Ok(()) => Ok(created),
        Err(e) => {
            drop(created);
            let _ = std::fs::remove_file(path);
            Err(FileError::from_space(file, path, length, e))
        }
    }
}

/// Reserves the blocks of an existing file's holes (a sparse file left by a creator that did
/// not reserve), before anything touches them: on tmpfs even a read of a hole allocates a page,
/// so a full filesystem would answer it with `SIGBUS`. Never writes (see
/// [`crate::space::allocate_holes`]).
///
/// # Errors
/// [`FileError::NoSpace`], [`FileError::PermissionDenied`], [`FileError::Io`].
pub fn reserve_holes(path: &Path, file: &'static FileKind, length: u64) -> Result<(), FileError> {
    crate::space::allocate_holes(path, length)
        .map_err(|e| FileError::from_space(file, path, length, e))
}

/// Refuses anything but a regular file before opening it, then opens it without blocking, for
/// writing only with [`Access::ReadWrite`].
fn open_regular_file(
    path: &Path,
    file: &'static FileKind,
    access: Access,
) -> Result<File, FileError> {
    use std::os::unix::fs::OpenOptionsExt;
    let operation = "open the file";
    let metadata = std::fs::metadata(path).map_err(|e| FileError::io(file, path, operation, e))?;
    check_regular_file(path, file, &metadata)?;
    OpenOptions::new()
        .read(true)
        .write(access == Access::ReadWrite)
        // Never blocks, should the path have become a FIFO since the check; no effect on a file.
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| FileError::io(file, path, operation, e))
}

/// Waits until the opened file is at least a header page long and returns its length; checks on
/// each look that what was opened is a regular file (not what the path named before).
fn wait_for_header_page(
    opened: &File,
    path: &Path,
    file: &'static FileKind,
    start: Instant,
    timeout: Duration,
) -> Result<u64, FileError> {
    loop {
        let metadata = opened
            .metadata()
            .map_err(|e| FileError::io(file, path, "read the file's length", e))?;
        check_regular_file(path, file, &metadata)?;
        let length = metadata.len();
        if length >= HEADER_LENGTH as u64 {
            return Ok(length);
        }
        if start.elapsed() >= timeout || untouched_for(&metadata, timeout) {
            return Err(FileError::FileLength {
                file,
                path: path.to_path_buf(),
                actual: length,
                expected: HEADER_LENGTH as u64,
                sizes: None,
            });
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether the file was last changed `timeout` or longer ago: then no creator is sizing it (a
/// create sizes its file at once), and a short file is refused without a wait.
fn untouched_for(metadata: &std::fs::Metadata, timeout: Duration) -> bool {
    metadata
        .modified()
        .ok()
        .and_then(|changed| std::time::SystemTime::now().duration_since(changed).ok())
        .is_some_and(|age| age >= timeout)
}

/// Waits for the creator's `ready` word (stored last, so the header is complete once it is 1);
/// meanwhile the magic must be 0 (not yet written) or the kind's, and `ready` 0 or 1.
fn wait_for_ready(
    header: &HeaderPage,
    path: &Path,
    file: &'static FileKind,
    start: Instant,
    timeout: Duration,
) -> Result<(), FileError> {
    loop {
        // A creator writes the magic before `ready`; anything else there is another kind.
        let magic = header.word(MAGIC_OFFSET, 8);
        if magic != 0 && magic != file.magic {
            return Err(FileError::NotThisKind {
                file,
                path: path.to_path_buf(),
                found: magic,
            });
        }
        match header.ready() {
            READY => return Ok(()),
            0 => {}
            // A creator only ever stores 0 (the zero-filled file) or 1.
            ready => {
                let what = format!("ready is {ready}, expected 0 (being created) or 1");
                return Err(FileError::corrupt_header(file, path, what));
            }
        }
        if start.elapsed() >= timeout {
            return Err(FileError::NotReady {
                file,
                waited: start.elapsed(),
            });
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Checks that a ready header is of the kind: its magic and its layout version.
fn check_magic_and_version(
    header: &HeaderPage,
    path: &Path,
    file: &'static FileKind,
) -> Result<(), FileError> {
    let magic = header.word(MAGIC_OFFSET, 8);
    if magic != file.magic {
        return Err(FileError::NotThisKind {
            file,
            path: path.to_path_buf(),
            found: magic,
        });
    }
    let found = header.word(LAYOUT_VERSION_OFFSET, 4) as u32;
    if !file.reads(found) {
        return Err(FileError::UnsupportedVersion {
            file,
            path: path.to_path_buf(),
            found,
        });
    }
    Ok(())
}

/// Refuses anything but a regular file, naming what it is (and the link it was reached by).
fn check_regular_file(
    path: &Path,
    file: &'static FileKind,
    metadata: &std::fs::Metadata,
) -> Result<(), FileError> {
    match crate::file::not_a_regular_file(path, metadata) {
        None => Ok(()),
        Some(what) => Err(FileError::NotARegularFile {
            file,
            path: path.to_path_buf(),
            what,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::header::TEST_KIND as KIND;

    fn scratch(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("mapped-open-{name}-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn header(magic: u64, version: u32, ready: u32) -> Vec<u8> {
        let mut bytes = vec![0u8; HEADER_LENGTH];
        bytes[0..8].copy_from_slice(&magic.to_le_bytes());
        bytes[8..12].copy_from_slice(&version.to_le_bytes());
        bytes[12..16].copy_from_slice(&ready.to_le_bytes());
        bytes
    }

    fn open_kind(path: &Path) -> &'static str {
        let timeout = Duration::from_millis(20);
        match open_header(path, &KIND, timeout, Access::ReadOnly) {
            Ok(_) => "ok",
            Err(e) => e.kind(),
        }
    }

    #[test]
    fn each_step_refuses_with_its_kind() {
        let cases: [(&str, Vec<u8>, &str); 6] = [
            ("ok", header(KIND.magic, 1, READY), "ok"),
            ("short", vec![0; 100], "file-length"),
            ("magic", header(7, 1, READY), "not-a-ring-file"),
            (
                "version",
                header(KIND.magic, 2, READY),
                "unsupported-version",
            ),
            ("ready", header(KIND.magic, 1, 5), "corrupt-header"),
            ("zero", vec![0; HEADER_LENGTH], "timeout"),
        ];
        for (name, bytes, expected) in cases {
            let path = scratch(name, &bytes);
            assert_eq!(open_kind(&path), expected, "{name}");
            std::fs::remove_file(&path).unwrap();
        }
        assert_eq!(open_kind(Path::new("/dev/zero")), "not-a-regular-file");
        assert_eq!(open_kind(Path::new("/no/such/file")), "io");
    }

    /// An opener that finds the header page while the creator still sizes the file (a create
    /// reserves it step by step before `ready`) gets the length the file has once ready.
    #[test]
    fn the_length_is_the_one_the_file_has_once_ready() {
        let mut bytes = header(KIND.magic, 1, 0);
        let path = scratch("sizing", &bytes);
        let opener = {
            let path = path.clone();
            std::thread::spawn(move || {
                open_header(&path, &KIND, Duration::from_secs(5), Access::ReadOnly)
                    .map(|o| o.length)
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        bytes.resize(3 * HEADER_LENGTH, 0);
        std::fs::write(&path, &bytes).unwrap();
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        use std::os::unix::fs::FileExt;
        file.write_all_at(&READY.to_le_bytes(), 12).unwrap();
        assert_eq!(opener.join().unwrap().unwrap(), 3 * HEADER_LENGTH as u64);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn create_new_refuses_an_existing_file_and_leaves_it() {
        let path = scratch("exists", b"keep");
        let err = create_new(&path, &KIND, 8192).err().unwrap();
        assert_eq!(err.kind(), "io", "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"keep");
        std::fs::remove_file(&path).unwrap();
    }
}
