//! Opening an existing ring file, which may be hostile: what [`crate::Ring::open`] and the
//! read-only `inspect::RingView` share, up to (not including) the positions. The rules
//! are those of docs/ring-layout.md ("Opening"), mirrored by the Java `RingFile.open`; each step
//! below is one of them, in the order they are checked, and the conformance suite
//! (`tests/conformance`) pins every refusal and its message.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::time::{Duration, Instant};

use memmap2::MmapMut;

use crate::error::RingError;
use crate::layout::*;
use crate::region::Region;
use crate::space;

/// How an opener may touch the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// A peer: opened and mapped for reading and writing.
    ReadWrite,
    /// A tool: opened read-only (`O_RDONLY`) and mapped copy-on-write (`MAP_PRIVATE`), so it
    /// needs no write permission and nothing it does can reach the file. Pages it never writes
    /// stay those of the file (Linux), so it sees the peers' stores as they happen.
    ReadOnly,
}

/// Checks a capacity, from a caller ([`crate::Ring::create`]) or from a file's header: a power
/// of two within [`MIN_CAPACITY`]..=[`MAX_CAPACITY`], else [`RingError::BadCapacity`].
pub(crate) fn check_capacity(capacity: u64) -> Result<usize, RingError> {
    let c = usize::try_from(capacity).unwrap_or(usize::MAX);
    if is_valid_capacity(c) {
        Ok(c)
    } else {
        Err(RingError::BadCapacity {
            capacity,
            min: MIN_CAPACITY,
            max: MAX_CAPACITY,
        })
    }
}

/// Opens and validates a ring file up to, not including, the positions: a regular file, at
/// least a header page long within `timeout`, `ready` within `timeout`, then magic, version,
/// capacity, file length, `max_message_length` and `header_length`.
pub(crate) fn open_region(
    path: &Path,
    timeout: Duration,
    access: Access,
) -> Result<Region, RingError> {
    let start = Instant::now();
    let file = open_regular_file(path, access)?;
    let len = wait_for_header_page(&file, path, start, timeout)?;
    // Map only the header page first: the capacity in it is untrusted until checked.
    let header = HeaderPage::map(&file, path, access)?;
    wait_for_ready(&header, path, start, timeout)?;
    check_magic_and_version(&header, path)?;
    let capacity = check_capacity_and_length(&header, path, len)?;
    drop(header);
    if access == Access::ReadWrite {
        // A sparse ring (left by an older create) gets its blocks now, before anything below
        // touches the record area or the trailer: on tmpfs even a read of a hole allocates a
        // page, so a full filesystem would answer the position check with SIGBUS.
        space::allocate_holes(path, file_length(capacity) as u64)?;
    }
    let region = Region::new(
        map_whole(&file, path, access, capacity)?,
        capacity,
        Some(path.to_path_buf()),
    );
    check_derived_fields(&region, path)?;
    Ok(region)
}

/// Refuses anything but a regular file, before opening it (opening a FIFO for reading waits
/// for a writer, and a device such as /dev/zero would pass for a file of endless zeros), then
/// opens it without blocking, for writing only as a peer.
fn open_regular_file(path: &Path, access: Access) -> Result<File, RingError> {
    use std::os::unix::fs::OpenOptionsExt;
    let metadata =
        std::fs::metadata(path).map_err(|e| RingError::io(path, "open the ring file", e))?;
    check_regular_file(path, &metadata)?;
    OpenOptions::new()
        .read(true)
        .write(access == Access::ReadWrite)
        // Never blocks, should the path have become a FIFO since the check; no effect on a file.
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| RingError::io(path, "open the ring file", e))
}

/// Waits until the opened file is at least a header page long (its creator may still be
/// sizing it) and returns its length; checks on each look that what was opened is a regular
/// file (not what the path named before). [`RingError::FileLength`] once `timeout` has passed.
fn wait_for_header_page(
    file: &File,
    path: &Path,
    start: Instant,
    timeout: Duration,
) -> Result<u64, RingError> {
    loop {
        let metadata = file
            .metadata()
            .map_err(|e| RingError::io(path, "read the file's length", e))?;
        check_regular_file(path, &metadata)?; // what was opened, not what the path named before
        let len = metadata.len();
        if len >= HEADER_LENGTH as u64 {
            return Ok(len);
        }
        if start.elapsed() >= timeout {
            return Err(RingError::FileLength {
                path: path.to_path_buf(),
                actual: len,
                expected: HEADER_LENGTH as u64,
                capacity: 0,
            });
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The header page alone, mapped before the rest: its words are read volatile, as a hostile
/// writer may change them at any time.
struct HeaderPage {
    map: MmapMut,
}

impl HeaderPage {
    /// Maps the first [`HEADER_LENGTH`] bytes of `file`.
    fn map(file: &File, path: &Path, access: Access) -> Result<HeaderPage, RingError> {
        let map = map(file, Some(HEADER_LENGTH), access)
            .map_err(|e| RingError::io(path, "map the ring header", e))?;
        Ok(HeaderPage { map })
    }

    /// The `n`-byte (4 or 8) little-endian word at `offset`, read volatile.
    fn word(&self, offset: usize, n: usize) -> u64 {
        debug_assert!(offset.is_multiple_of(n) && offset + n <= HEADER_LENGTH);
        let base = self.map.as_ptr();
        // SAFETY: offset + n <= HEADER_LENGTH, the mapped length; offsets are n-aligned
        // in a page-aligned mapping.
        unsafe {
            if n == 8 {
                std::ptr::read_volatile(base.add(offset).cast::<u64>())
            } else {
                u64::from(std::ptr::read_volatile(base.add(offset).cast::<u32>()))
            }
        }
    }

    /// The `ready` word, read with acquire.
    fn ready(&self) -> u32 {
        // SYNC POINT: ready (acquire; pairs with the creator's release in Ring::publish)
        // SAFETY: READY_OFFSET is 4-aligned inside the mapped header page (writable memory:
        // shared, or a private copy), which lives as long as `self`; the word is only accessed
        // atomically.
        unsafe { crate::primitive::load_acquire_u32(self.map.as_ptr().add(READY_OFFSET).cast()) }
    }
}

/// Waits for the creator's `ready` word (stored last, so the header is complete once it is 1).
/// Meanwhile the magic must be 0 (not yet written) or [`MAGIC`] ([`RingError::NotARingFile`]),
/// and `ready` 0 or 1 ([`RingError::CorruptHeader`]); [`RingError::Timeout`] once `timeout`
/// has passed.
fn wait_for_ready(
    header: &HeaderPage,
    path: &Path,
    start: Instant,
    timeout: Duration,
) -> Result<(), RingError> {
    loop {
        // A creator writes the magic before `ready`; anything else there is not a ring.
        let magic = header.word(MAGIC_OFFSET, 8);
        if magic != 0 && magic != MAGIC {
            return Err(RingError::NotARingFile {
                path: path.to_path_buf(),
                found: magic,
            });
        }
        let ready = header.ready();
        if ready == READY {
            return Ok(());
        }
        if ready != 0 {
            // A creator only ever stores 0 (the zero-filled file) or 1.
            return Err(RingError::CorruptHeader {
                path: path.to_path_buf(),
                what: format!("ready is {ready}, expected 0 (being created) or 1"),
            });
        }
        if start.elapsed() >= timeout {
            return Err(RingError::Timeout {
                waited: start.elapsed(),
                what: "the ring's creator to set the ready word (an all-zero header means \
                       its creator died or is still writing; recreate the ring)",
            });
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Checks that a ready header is a ring of this layout: the magic is [`MAGIC`]
/// ([`RingError::NotARingFile`]) and the version [`LAYOUT_VERSION`]
/// ([`RingError::UnsupportedVersion`]).
fn check_magic_and_version(header: &HeaderPage, path: &Path) -> Result<(), RingError> {
    let magic = header.word(MAGIC_OFFSET, 8);
    if magic != MAGIC {
        return Err(RingError::NotARingFile {
            path: path.to_path_buf(),
            found: magic,
        });
    }
    let version = header.word(LAYOUT_VERSION_OFFSET, 4) as u32;
    if version != LAYOUT_VERSION {
        return Err(RingError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version,
            supported: LAYOUT_VERSION,
        });
    }
    Ok(())
}

/// Checks the header's capacity ([`check_capacity`]) and that the file is exactly
/// `file_length(capacity)` bytes long (`len`, [`RingError::FileLength`]); returns the capacity.
fn check_capacity_and_length(
    header: &HeaderPage,
    path: &Path,
    len: u64,
) -> Result<usize, RingError> {
    let capacity = check_capacity(header.word(CAPACITY_OFFSET, 8))?;
    let expected = file_length(capacity) as u64;
    if len != expected {
        return Err(RingError::FileLength {
            path: path.to_path_buf(),
            actual: len,
            expected,
            capacity: capacity as u64,
        });
    }
    Ok(capacity)
}

/// Maps the whole file, whose length was checked to be `file_length(capacity)`, and checks the
/// mapping's length again ([`RingError::FileLength`]): a peer that truncates the file later
/// breaks the ring for everyone, as with any shared mapping.
fn map_whole(
    file: &File,
    path: &Path,
    access: Access,
    capacity: usize,
) -> Result<MmapMut, RingError> {
    let whole = map(file, None, access).map_err(|e| RingError::io(path, "map the ring file", e))?;
    if whole.len() != file_length(capacity) {
        return Err(RingError::FileLength {
            path: path.to_path_buf(),
            actual: whole.len() as u64,
            expected: file_length(capacity) as u64,
            capacity: capacity as u64,
        });
    }
    Ok(whole)
}

/// Checks the header fields derived from the capacity: `max_message_length` is `capacity / 8`
/// and `header_length` is [`HEADER_LENGTH`] ([`RingError::CorruptHeader`] otherwise).
fn check_derived_fields(region: &Region, path: &Path) -> Result<(), RingError> {
    let capacity = region.capacity();
    let corrupt = |what: String| RingError::CorruptHeader {
        path: path.to_path_buf(),
        what,
    };
    let max = region.lp_max_message_length();
    if max as i64 != max_message_length(capacity) as i64 {
        return Err(corrupt(format!(
            "max_message_length is {max}, expected capacity / 8 = {}",
            max_message_length(capacity)
        )));
    }
    let header_length = region.lp_header_length();
    if header_length as usize != HEADER_LENGTH {
        return Err(corrupt(format!(
            "header_length is {header_length}, expected {HEADER_LENGTH}"
        )));
    }
    Ok(())
}

/// Maps `len` bytes (the whole file when `None`): shared and writable for a peer, a private
/// copy-on-write mapping of a read-only descriptor for a tool.
fn map(file: &File, len: Option<usize>, access: Access) -> std::io::Result<MmapMut> {
    let mut options = memmap2::MmapOptions::new();
    if let Some(len) = len {
        options.len(len);
    }
    match access {
        // SAFETY: a shared file mapping; peers only write it through the ring protocol and
        // every shared word is accessed atomically (the length is checked by the caller).
        Access::ReadWrite => unsafe { options.map_mut(file) },
        // SAFETY: as above; being private, this mapping's own stores never reach the file.
        Access::ReadOnly => unsafe { options.map_copy(file) },
    }
}

/// Refuses anything but a regular file, naming what it is (and the link it was reached by).
fn check_regular_file(path: &Path, metadata: &std::fs::Metadata) -> Result<(), RingError> {
    match sympathy_mapped::file::not_a_regular_file(path, metadata) {
        None => Ok(()),
        Some(what) => Err(RingError::NotARegularFile {
            path: path.to_path_buf(),
            what,
        }),
    }
}
