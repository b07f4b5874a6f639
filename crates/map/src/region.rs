//! The mapped bytes of one map and the only code that touches them.
//!
//! Accessor names say the memory ordering, as the ring's do: `lv_` load-acquire, `lp_` relaxed
//! load, `so_` store-release, `sp_` relaxed store, `cas_` compare-and-swap. Every shared word
//! (header fields, slots, record headers) is accessed atomically, so a process writing at any
//! time, even a hostile one, cannot make a word read a data race. Value bytes are the exception:
//! a record is written before it is published (its slot's release store) and never after, so
//! readers read them plainly.

use std::path::{Path, PathBuf};

use memmap2::MmapRaw;

use crate::layout::*;
use crate::primitive::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(loom, test))]
use sympathy_mapped::header::fields_end;

#[cfg(not(target_endian = "little"))]
compile_error!("the map file is little-endian and this crate reads it natively");

/// One mapped map file (or anonymous mapping): header page, slot table, data area.
pub(crate) struct Region {
    /// Keeps the mapping alive; never borrowed after construction.
    map: MmapRaw,
    /// Start of the mapping (page aligned).
    #[cfg_attr(all(loom, test), allow(dead_code))]
    base: *mut u8,
    /// Start of the slot table, `base + HEADER_LENGTH`.
    #[cfg_attr(all(loom, test), allow(dead_code))]
    slots_ptr: *mut u8,
    /// Start of the data area, `slots_ptr + 8 * slots`.
    data: *mut u8,
    /// Slots in the table (a valid count, checked before construction).
    slots: u64,
    /// `slots - 1`.
    mask: u64,
    /// Bytes in the data area (valid, checked before construction).
    data_capacity: u64,
    /// Whether the mapping may be written (a writer needs it).
    writable: bool,
    /// Whether records carry a checksum (layout version [`FIRST_CHECKSUMMED_VERSION`] on).
    checksummed: bool,
    /// Lookups check the checksum of records at or past this data-area offset: `verified_end`
    /// when the map was opened in another boot than its records past it were written in, else
    /// `u64::MAX` (none). This process's own word, not the file's.
    verify_from: std::sync::atomic::AtomicU64,
    /// The file, or `None` for anonymous memory.
    path: Option<PathBuf>,
    /// Under loom: the shared words, as loom atomics on the heap (see [`LoomWords`]).
    #[cfg(all(loom, test))]
    loom_words: LoomWords,
}

/// Under `--cfg loom`, every shared word of the region (header fields, slots, record header
/// words) lives in this table of loom atomics instead of the mapping, because loom cannot make
/// an atomic over raw memory; the accessors below look them up, so the protocol code above them
/// is unchanged. Value bytes stay in the mapping (loom does not track them).
#[cfg(all(loom, test))]
struct LoomWords {
    /// Every 4-aligned header word read as a u32: the one at `offset` is `[offset / 4]`.
    header_u32: Vec<AtomicU32>,
    /// Every 8-aligned header word read as a u64: the one at `offset` is `[offset / 8]`.
    header_u64: Vec<AtomicU64>,
    slots: Vec<AtomicU64>,
    /// One word per 8 bytes of the data area (a record header may start at any of them).
    data: Vec<AtomicU64>,
}

#[cfg(all(loom, test))]
impl LoomWords {
    /// Every aligned header word below the end of the layout's last field, at each width (so
    /// no list of the fields is kept here beside `layout::CONSTANTS`), the slots and the data.
    fn new(slots: u64, data_capacity: u64) -> LoomWords {
        let end = fields_end(CONSTANTS).max(fields_end(HEADER_CONSTANTS));
        LoomWords {
            header_u32: (0..end / 4).map(|_| AtomicU32::new(0)).collect(),
            header_u64: (0..end.div_ceil(8)).map(|_| AtomicU64::new(0)).collect(),
            slots: (0..slots).map(|_| AtomicU64::new(0)).collect(),
            data: (0..data_capacity / 8).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The word at header `offset` of a table of `width`-byte words from offset 0.
    fn find<T>(table: &[T], offset: usize, width: usize) -> &T {
        assert!(
            offset.is_multiple_of(width),
            "header offset {offset} is not {width}-aligned"
        );
        table.get(offset / width).unwrap_or_else(|| {
            panic!("no loom word at header offset {offset}: past the layout's last field")
        })
    }
}

// SAFETY: the raw pointers point into `map`, which lives as long as the Region; every shared
// word is accessed through atomics, and value bytes only under the append-only protocol.
unsafe impl Send for Region {}
// SAFETY: as for Send: `&Region` only allows atomic accesses and protocol-owned value access.
unsafe impl Sync for Region {}

impl Region {
    /// Wraps a mapping of exactly `file_length(slots, data_capacity)` bytes of a map of layout
    /// `version`; the caller has checked the values and the mapping's length.
    pub(crate) fn new(
        map: MmapRaw,
        slots: u64,
        data_capacity: u64,
        version: u32,
        writable: bool,
        path: Option<PathBuf>,
    ) -> Region {
        assert_eq!(
            map.len() as u64,
            file_length(slots, data_capacity),
            "length checked by the caller"
        );
        let base = map.as_mut_ptr();
        // SAFETY: both offsets are within the mapping of file_length(slots, data_capacity)
        // bytes (asserted above).
        let (slots_ptr, data) = unsafe {
            (
                base.add(HEADER_LENGTH),
                base.add(data_area_offset(slots) as usize),
            )
        };
        Region {
            map,
            base,
            slots_ptr,
            data,
            slots,
            mask: slots - 1,
            data_capacity,
            writable,
            checksummed: version >= FIRST_CHECKSUMMED_VERSION,
            verify_from: std::sync::atomic::AtomicU64::new(u64::MAX),
            path,
            #[cfg(all(loom, test))]
            loom_words: LoomWords::new(slots, data_capacity),
        }
    }

    /// Slots in the table.
    #[inline]
    pub(crate) fn slots(&self) -> u64 {
        self.slots
    }

    /// `slots - 1`: masks a hash into a slot index.
    #[inline]
    pub(crate) fn mask(&self) -> u64 {
        self.mask
    }

    /// Bytes in the data area.
    #[inline]
    pub(crate) fn data_capacity(&self) -> u64 {
        self.data_capacity
    }

    /// Whether the mapping may be written.
    pub(crate) fn writable(&self) -> bool {
        self.writable
    }

    /// Whether records carry a checksum (a version 1 map's do not).
    #[inline]
    pub(crate) fn checksummed(&self) -> bool {
        self.checksummed
    }

    /// Records at or past this data-area offset are checked against their checksum
    /// (`u64::MAX`: none).
    #[inline(always)]
    pub(crate) fn verify_from(&self) -> u64 {
        self.verify_from.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Sets [`Region::verify_from`]: at open, from the header; after a writer's attach checked
    /// the suspect records, `u64::MAX`.
    pub(crate) fn set_verify_from(&self, offset: u64) {
        self.verify_from
            .store(offset, std::sync::atomic::Ordering::Relaxed);
    }

    /// The file, if any.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The whole mapping, for `msync`.
    pub(crate) fn mapping(&self) -> &MmapRaw {
        &self.map
    }

    // ---- header words -------------------------------------------------------------------------

    #[cfg(not(all(loom, test)))]
    fn header_u32(&self, offset: usize) -> &AtomicU32 {
        debug_assert!(offset.is_multiple_of(4) && offset < HEADER_LENGTH);
        // SAFETY: header offsets are layout constants, 4-aligned, inside the header page of a
        // page-aligned mapping that outlives &self; all accesses to them are atomic.
        unsafe { AtomicU32::from_ptr(self.base.add(offset).cast()) }
    }

    #[cfg(not(all(loom, test)))]
    fn header_u64(&self, offset: usize) -> &AtomicU64 {
        debug_assert!(offset.is_multiple_of(8) && offset < HEADER_LENGTH);
        // SAFETY: as in header_u32, 8-aligned.
        unsafe { AtomicU64::from_ptr(self.base.add(offset).cast()) }
    }

    #[cfg(all(loom, test))]
    fn header_u32(&self, offset: usize) -> &AtomicU32 {
        LoomWords::find(&self.loom_words.header_u32, offset, 4)
    }

    #[cfg(all(loom, test))]
    fn header_u64(&self, offset: usize) -> &AtomicU64 {
        LoomWords::find(&self.loom_words.header_u64, offset, 8)
    }

    /// A u32 header field, relaxed.
    pub(crate) fn lp_u32(&self, offset: usize) -> u32 {
        self.header_u32(offset).load(Ordering::Relaxed)
    }

    /// A u64 header field, relaxed.
    pub(crate) fn lp_u64(&self, offset: usize) -> u64 {
        self.header_u64(offset).load(Ordering::Relaxed)
    }

    /// A u64 header field, acquire.
    pub(crate) fn lv_u64(&self, offset: usize) -> u64 {
        self.header_u64(offset).load(Ordering::Acquire)
    }

    /// Stores a u32 header field, relaxed (the creator, before `ready`).
    pub(crate) fn sp_u32(&self, offset: usize, value: u32) {
        self.header_u32(offset).store(value, Ordering::Relaxed);
    }

    /// Stores a u64 header field, relaxed.
    pub(crate) fn sp_u64(&self, offset: usize, value: u64) {
        self.header_u64(offset).store(value, Ordering::Relaxed);
    }

    /// Stores a u64 header field, release.
    pub(crate) fn so_u64(&self, offset: usize, value: u64) {
        self.header_u64(offset).store(value, Ordering::Release);
    }

    /// Stores `ready` with release: every header field before it is visible to whoever sees it.
    pub(crate) fn so_ready(&self) {
        self.header_u32(READY_OFFSET)
            .store(READY, Ordering::Release); // SYNC POINT: ready
    }

    /// Compare-and-swap of the writer word (acquire-release): claims or gives back the writer
    /// role. Returns the word found.
    pub(crate) fn cas_writer(&self, expected: u64, new: u64) -> Result<u64, u64> {
        // SYNC POINT: writer
        self.header_u64(WRITER_OFFSET).compare_exchange(
            expected,
            new,
            Ordering::AcqRel,
            Ordering::Acquire,
        )
    }

    // ---- slots --------------------------------------------------------------------------------

    #[cfg(not(all(loom, test)))]
    #[inline(always)]
    fn slot(&self, index: u64) -> &AtomicU64 {
        debug_assert!(index < self.slots);
        // SAFETY: index & mask < slots (callers mask it), so the word lies in the slot table,
        // 8-aligned in a page-aligned mapping that outlives &self; all accesses are atomic.
        unsafe {
            AtomicU64::from_ptr(
                self.slots_ptr
                    .add(((index & self.mask) * 8) as usize)
                    .cast(),
            )
        }
    }

    #[cfg(all(loom, test))]
    fn slot(&self, index: u64) -> &AtomicU64 {
        &self.loom_words.slots[(index & self.mask) as usize]
    }

    /// Slot `index` with acquire: a reader's probe. A record word seen here makes the record
    /// it points at visible, whole.
    #[inline(always)]
    pub(crate) fn lv_slot(&self, index: u64) -> u64 {
        self.slot(index).load(Ordering::Acquire) // SYNC POINT: slot
    }

    /// Slot `index`, relaxed: the writer's own probe (it wrote every slot itself) and recovery.
    #[inline(always)]
    pub(crate) fn lp_slot(&self, index: u64) -> u64 {
        self.slot(index).load(Ordering::Relaxed)
    }

    /// Publishes slot `index` with release: the record it points at (written before) becomes
    /// visible to every reader that loads this word.
    #[inline(always)]
    pub(crate) fn so_slot(&self, index: u64, word: u64) {
        self.slot(index).store(word, Ordering::Release); // SYNC POINT: slot
    }

    // ---- records ------------------------------------------------------------------------------

    #[cfg(not(all(loom, test)))]
    #[inline(always)]
    fn data_word(&self, offset: u64) -> &AtomicU64 {
        debug_assert!(offset.is_multiple_of(8) && offset + 8 <= self.data_capacity);
        // SAFETY: callers pass an 8-aligned offset with offset + 8 <= data_capacity (checked
        // against the file's length before any access), inside a page-aligned mapping that
        // outlives &self; record header words are only accessed atomically.
        unsafe { AtomicU64::from_ptr(self.data.add(offset as usize).cast()) }
    }

    #[cfg(all(loom, test))]
    fn data_word(&self, offset: u64) -> &AtomicU64 {
        &self.loom_words.data[(offset / 8) as usize]
    }

    /// The key of the record at `offset` (8-aligned, `offset + 16 <= data_capacity`), relaxed:
    /// after the acquire of the slot that pointed here.
    #[inline(always)]
    pub(crate) fn lp_record_key(&self, offset: u64) -> u64 {
        self.data_word(offset + RECORD_KEY_OFFSET as u64)
            .load(Ordering::Relaxed)
    }

    /// The value length and the checksum of the record at `offset`, relaxed (as
    /// [`Region::lp_record_key`]): they share one u64, the length low, the checksum high.
    #[inline(always)]
    pub(crate) fn lp_record_length_and_checksum(&self, offset: u64) -> (u32, u32) {
        const { assert!(RECORD_CHECKSUM_OFFSET == RECORD_VALUE_LENGTH_OFFSET + 4) };
        let word = self
            .data_word(offset + RECORD_VALUE_LENGTH_OFFSET as u64)
            .load(Ordering::Relaxed);
        (word as u32, (word >> 32) as u32)
    }

    /// The `length` value bytes of the record at `offset`, in place.
    ///
    /// # Safety
    /// `offset + RECORD_HEADER_LENGTH + length <= data_capacity`, and the record was published
    /// (its slot loaded with acquire, or written by this process): nobody writes it again.
    #[inline(always)]
    pub(crate) unsafe fn value(&self, offset: u64, length: usize) -> &[u8] {
        // SAFETY: in bounds by the caller's contract; the bytes are never written after
        // publication, so shared references to them never alias a write.
        unsafe {
            std::slice::from_raw_parts(
                self.data
                    .add(offset as usize + RECORD_HEADER_LENGTH)
                    .cast_const(),
                length,
            )
        }
    }

    /// Writes an unpublished record at `offset`: hands `fill` its `length` value bytes to encode
    /// into (the padding after them to 8 zeroed), then writes its header: the key, the length
    /// and the value's [`record_checksum`] (0 in a version 1 map).
    ///
    /// # Safety
    /// The mapping is writable; `offset + record_length(length) <= data_capacity`; the range is
    /// at or past `data_end` (no slot points there, so no reader reads it) and only the one
    /// attached writer calls this.
    pub(crate) unsafe fn write_record(
        &self,
        offset: u64,
        key: u64,
        length: u32,
        fill: impl FnOnce(&mut [u8]),
    ) {
        let start = offset as usize + RECORD_HEADER_LENGTH;
        let padded = record_length(u64::from(length)) as usize - RECORD_HEADER_LENGTH;
        // SAFETY: in bounds and unshared by the caller's contract; the slice lives only for
        // this call.
        let bytes = unsafe { std::slice::from_raw_parts_mut(self.data.add(start), padded) };
        let value = &mut bytes[..length as usize];
        fill(value);
        let checksum = if self.checksummed {
            record_checksum(key, value)
        } else {
            0
        };
        bytes[length as usize..].fill(0);
        self.data_word(offset + RECORD_KEY_OFFSET as u64)
            .store(key, Ordering::Relaxed);
        self.data_word(offset + RECORD_VALUE_LENGTH_OFFSET as u64)
            .store(
                u64::from(length) | u64::from(checksum) << 32,
                Ordering::Relaxed,
            );
    }
}
