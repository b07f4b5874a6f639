//! The start of the header page every sympathy mapped file shares, whatever its kind (the ring,
//! the map), and the words a kind's messages use ([`FileKind`]).
//!
//! ```text
//!  0                8            12           16                                      4096
//!  +----------------+------------+------------+---------------------------------------+
//!  | magic (u64)    | version    | ready      | the kind's own fields                  |
//!  | e.g. SYMPRING  | (u32)      | (u32, 0/1) | (sizes, counters, attachments)         |
//!  +----------------+------------+------------+---------------------------------------+
//! ```
//!
//! A creator writes every field of a zero-filled file and stores `ready` = [`READY`] last, with
//! release; an opener waits for it with acquire ([`crate::open`]). The Java twin is
//! `dev.sympathy.mapped.MappedHeader`.

use memmap2::{MmapOptions, MmapRaw};

/// Bytes in the header page; the kind's data (the ring's records, the map's slots) starts here.
pub const HEADER_LENGTH: usize = 4096;
/// u64 the kind's magic (8 ASCII bytes read as a little-endian u64).
pub const MAGIC_OFFSET: usize = 0;
/// u32 the kind's layout version.
pub const LAYOUT_VERSION_OFFSET: usize = 8;
/// u32 `ready`: 0 while the creator writes the header, [`READY`] once the file is complete
/// (stored last, with release).
pub const READY_OFFSET: usize = 12;
/// The `ready` value once the file is complete.
pub const READY: u32 = 1;

/// `[(NAME, NAME as i128), ...]` for each constant named: a kind's layout constants as its
/// `layout` command prints them and the Java descriptors' parity tests compare them.
///
/// ```
/// use sympathy_mapped::header::{HEADER_LENGTH, READY_OFFSET};
/// const CONSTANTS: &[(&str, i128)] = &sympathy_mapped::named_constants![HEADER_LENGTH, READY_OFFSET];
/// assert_eq!(CONSTANTS, &[("HEADER_LENGTH", 4096), ("READY_OFFSET", 12)]);
/// ```
#[macro_export]
macro_rules! named_constants {
    ($($name:ident),* $(,)?) => {
        [$((stringify!($name), $name as i128)),*]
    };
}

/// The end of the last field among the `*_OFFSET`s of `constants` (a layout's `CONSTANTS`): the
/// largest such offset plus 8, the widest field. The loom models give every aligned word below
/// it an atomic of each width rather than keep a list of the fields beside the layout's.
///
/// ```
/// use sympathy_mapped::header::{CONSTANTS, fields_end};
/// assert_eq!(fields_end(CONSTANTS), 12 + 8); // READY_OFFSET, the prefix's last field
/// ```
pub fn fields_end(constants: &[(&str, i128)]) -> usize {
    constants
        .iter()
        .filter(|(name, _)| name.ends_with("_OFFSET"))
        .map(|&(_, offset)| offset as usize + 8)
        .max()
        .unwrap_or(0)
}

/// The header prefix's constants as `(NAME, value)`, printed before a kind's own by its
/// `layout` command (`sympathy ring layout`, `sympathy map layout`).
pub const CONSTANTS: &[(&str, i128)] = &crate::named_constants![
    HEADER_LENGTH,
    MAGIC_OFFSET,
    LAYOUT_VERSION_OFFSET,
    READY_OFFSET,
    READY,
];

/// One kind of mapped file: its magic and version, and the words its error messages use, so
/// that every kind refuses a hostile file with the same checks and the same sentences.
///
/// ```
/// use sympathy_mapped::header::FileKind;
/// const RING: FileKind = FileKind {
///     noun: "ring",
///     not_this_kind: "not-a-ring-file",
///     magic: u64::from_le_bytes(*b"SYMPRING"),
///     oldest_layout_version: 1,
///     layout_version: 1,
///     create_command: "sympathy ring create",
///     remake: "recreate the ring",
///     access_needed: "both peers need read and write access",
///     make_smaller: "with a smaller capacity",
/// };
/// assert_eq!(RING.magic_text(), "SYMPRING");
/// assert!(RING.reads(1) && !RING.reads(2));
/// assert_eq!(RING.versions_text(), "version 1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileKind {
    /// What the file is called in messages: `ring`, `map`.
    pub noun: &'static str,
    /// The error kind of a file that is not of this kind: `not-a-ring-file`.
    pub not_this_kind: &'static str,
    /// The magic at [`MAGIC_OFFSET`].
    pub magic: u64,
    /// The oldest layout version this build reads (and writes as it is).
    pub oldest_layout_version: u32,
    /// The layout version this build creates, the newest it reads.
    pub layout_version: u32,
    /// The command that makes such a file: `sympathy ring create`.
    pub create_command: &'static str,
    /// What to do with a damaged file: `recreate the ring`, `rebuild the map`.
    pub remake: &'static str,
    /// Who needs which access, for a permission error.
    pub access_needed: &'static str,
    /// How to make the file smaller, for a full filesystem.
    pub make_smaller: &'static str,
}

impl FileKind {
    /// The magic as its 8 ASCII bytes.
    pub fn magic_text(&self) -> String {
        String::from_utf8_lossy(&self.magic.to_le_bytes()).into_owned()
    }

    /// Whether this build reads files of layout `version`.
    pub fn reads(&self, version: u32) -> bool {
        (self.oldest_layout_version..=self.layout_version).contains(&version)
    }

    /// The versions this build reads, for messages: `version 1`, `versions 1 to 2`.
    pub fn versions_text(&self) -> String {
        if self.oldest_layout_version == self.layout_version {
            format!("version {}", self.layout_version)
        } else {
            format!(
                "versions {} to {}",
                self.oldest_layout_version, self.layout_version
            )
        }
    }
}

/// The header page alone, mapped read-only before the rest of the file: its sizes are untrusted
/// until checked, and its words are read volatile, as a hostile process may change them at any
/// time.
pub struct HeaderPage {
    map: MmapRaw,
}

impl HeaderPage {
    /// Maps the first [`HEADER_LENGTH`] bytes of `file` (which must be at least that long).
    pub(crate) fn map(file: &std::fs::File) -> std::io::Result<HeaderPage> {
        let map = MmapOptions::new()
            .len(HEADER_LENGTH)
            .map_raw_read_only(file)?;
        Ok(HeaderPage { map })
    }

    /// The `n`-byte (4 or 8) little-endian word at `offset`, read volatile.
    ///
    /// # Panics
    /// If `offset` is not a multiple of `n` inside the page, or `n` is neither 4 nor 8.
    pub fn word(&self, offset: usize, n: usize) -> u64 {
        assert!((n == 4 || n == 8) && offset.is_multiple_of(n) && offset + n <= HEADER_LENGTH);
        let base = self.map.as_ptr();
        // SAFETY: offset + n <= HEADER_LENGTH, the mapped length (checked above); offsets are
        // n-aligned in a page-aligned mapping, which lives as long as `self`.
        unsafe {
            if n == 8 {
                std::ptr::read_volatile(base.add(offset).cast::<u64>())
            } else {
                u64::from(std::ptr::read_volatile(base.add(offset).cast::<u32>()))
            }
        }
    }

    /// The `ready` word, read with acquire.
    pub fn ready(&self) -> u32 {
        // SAFETY: READY_OFFSET is 4-aligned inside the mapped header page, which lives as long
        // as `self`; the word is only ever accessed atomically (an atomic load of read-only
        // memory is sound for a lock-free 4-byte atomic).
        let word = unsafe {
            std::sync::atomic::AtomicU32::from_ptr(self.map.as_mut_ptr().add(READY_OFFSET).cast())
        };
        // SYNC POINT: ready (acquire; pairs with the creator's release when it publishes)
        word.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// A kind for the crate's own tests.
#[cfg(test)]
pub(crate) static TEST_KIND: FileKind = FileKind {
    noun: "ring",
    not_this_kind: "not-a-ring-file",
    magic: u64::from_le_bytes(*b"SYMPRING"),
    oldest_layout_version: 1,
    layout_version: 1,
    create_command: "sympathy ring create",
    remake: "recreate the ring",
    access_needed: "both peers need read and write access",
    make_smaller: "with a smaller capacity",
};
