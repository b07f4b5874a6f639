//! Opening an existing ring file, which may be hostile: what [`crate::Ring::open`] and the
//! read-only `inspect::RingView` share, up to (not including) the positions. The rules
//! are those of docs/ring-layout.md ("Opening"), mirrored by the Java `RingFile.open`; each step
//! below is one of them, in the order they are checked, and the conformance suite
//! (`tests/conformance`) pins every refusal and its message.

use std::fs::File;
use std::path::Path;
use std::time::Duration;

use memmap2::MmapMut;
use sympathy_mapped::FileError;
use sympathy_mapped::header::HeaderPage;
use sympathy_mapped::open;

use crate::error::{FILE_KIND, RingError};
use crate::layout::*;
use crate::region::Region;

/// How an opener may touch the file (the shared [`open::Access`]): a peer opens and maps it for
/// reading and writing; a tool opens it read-only (`O_RDONLY`) and maps it copy-on-write
/// (`MAP_PRIVATE`), so it needs no write permission and nothing it does can reach the file.
/// Pages it never writes stay those of the file (Linux), so it sees the peers' stores as they
/// happen.
pub(crate) use sympathy_mapped::open::Access;

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

/// Opens and validates a ring file up to, not including, the positions: the steps every mapped
/// file shares ([`sympathy_mapped::open::open_header`]: a regular file, at least a header page
/// long and `ready` within `timeout`, magic and version), then capacity, file length,
/// `max_message_length` and `header_length`.
pub(crate) fn open_region(
    path: &Path,
    timeout: Duration,
    access: Access,
) -> Result<Region, RingError> {
    let opened = open::open_header(path, &FILE_KIND, timeout, access)?;
    let kind = header_kind(&opened.header, path)?;
    let capacity = check_capacity_and_length(&opened.header, path, opened.length, kind)?;
    drop(opened.header);
    if access == Access::ReadWrite {
        // A sparse ring (left by an older create) gets its blocks now, before anything below
        // touches the record area or the trailer: on tmpfs even a read of a hole allocates a
        // page, so a full filesystem would answer the position check with SIGBUS.
        open::reserve_holes(path, &FILE_KIND, kind.file_length(capacity) as u64)?;
    }
    let region = Region::new(
        map_whole(&opened.file, path, access, capacity, kind)?,
        capacity,
        kind,
        Some(path.to_path_buf()),
    );
    check_derived_fields(&region, path)?;
    Ok(region)
}

/// The kind of ring a header describes: one-to-one in a version 1 header (which has no `kind`
/// word), the `kind` word in a later one ([`RingError::CorruptHeader`] when it names none).
fn header_kind(header: &HeaderPage, path: &Path) -> Result<Kind, RingError> {
    if (header.word(LAYOUT_VERSION_OFFSET, 4) as u32) < KIND_LAYOUT_VERSION {
        return Ok(Kind::OneToOne);
    }
    let word = header.word(KIND_OFFSET, 4) as u32;
    Kind::from_word(word).ok_or_else(|| {
        RingError::corrupt_header(
            path,
            format!(
                "kind is {word}, expected {KIND_ONE_TO_ONE} (spsc), {KIND_MANY_TO_ONE} (mpsc) \
                 or {KIND_BROADCAST} (broadcast)"
            ),
        )
    })
}

/// Checks the header's capacity ([`check_capacity`]) and that the file is exactly
/// `kind.file_length(capacity)` bytes long (`len`, [`RingError::FileLength`]); returns the
/// capacity.
fn check_capacity_and_length(
    header: &HeaderPage,
    path: &Path,
    len: u64,
    kind: Kind,
) -> Result<usize, RingError> {
    let capacity = check_capacity(header.word(CAPACITY_OFFSET, 8))?;
    let expected = kind.file_length(capacity) as u64;
    if len != expected {
        return Err(wrong_length(path, len, capacity, kind));
    }
    Ok(capacity)
}

/// Maps the whole file, whose length was checked to be `kind.file_length(capacity)`, and checks the
/// mapping's length again ([`RingError::FileLength`]): a peer that truncates the file later
/// breaks the ring for everyone, as with any shared mapping.
fn map_whole(
    file: &File,
    path: &Path,
    access: Access,
    capacity: usize,
    kind: Kind,
) -> Result<MmapMut, RingError> {
    let whole = map(file, None, access).map_err(|e| RingError::io(path, "map the ring file", e))?;
    if whole.len() != kind.file_length(capacity) {
        return Err(wrong_length(path, whole.len() as u64, capacity, kind));
    }
    Ok(whole)
}

/// Checks the header fields derived from the capacity: `max_message_length` is `capacity / 8`
/// and `header_length` is [`HEADER_LENGTH`] ([`RingError::CorruptHeader`] otherwise).
fn check_derived_fields(region: &Region, path: &Path) -> Result<(), RingError> {
    let capacity = region.capacity();
    let corrupt = |what: String| RingError::corrupt_header(path, what);
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

/// A file whose length is not `kind.file_length(capacity)`.
fn wrong_length(path: &Path, actual: u64, capacity: usize, kind: Kind) -> RingError {
    RingError::File(FileError::FileLength {
        file: &FILE_KIND,
        path: path.to_path_buf(),
        actual,
        expected: kind.file_length(capacity) as u64,
        sizes: Some(format!("capacity {capacity}")),
    })
}
