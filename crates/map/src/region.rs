//! The mapped bytes of one map and the only code that touches them.
//!
//! Accessor names say the memory ordering, as the ring's do: `lv_` load-acquire, `lp_` relaxed
//! load, `so_` store-release, `sp_` relaxed store, `cas_` compare-and-swap. Every shared word
//! (header fields, slots, record headers) is accessed atomically, so a process writing at any
//! time, even a hostile one, cannot make a word read a data race. Value bytes are the exception:
//! a record is written before it is published (its slot's release store) and never after, so
//! readers read them plainly.
//!
//! A map of layout version 3 grows (docs/map-layout.md, "Growing"): the writer extends the file,
//! and a reader that meets a table or a record past what it mapped maps the file again. Every
//! mapping made stays until the region is dropped ([`View`]), so a value read in place, or a
//! table being probed, stays valid; the newest covers the most and is the one accessors use.

use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Mutex;
use std::sync::atomic::AtomicPtr;

use memmap2::{MmapOptions, MmapRaw};

use crate::layout::*;
use crate::primitive::{AtomicU32, AtomicU64, Ordering};
#[cfg(all(loom, test))]
use sympathy_mapped::header::fields_end;

#[cfg(not(target_endian = "little"))]
compile_error!("the map file is little-endian and this crate reads it natively");

/// One mapping of the file: its first `file_length(slots, capacity)` bytes.
pub(crate) struct View {
    /// Keeps the mapping alive; never borrowed after construction but to `msync`.
    map: MmapRaw,
    /// Start of the mapping (page aligned).
    #[cfg_attr(all(loom, test), allow(dead_code))]
    base: *mut u8,
    /// Start of the data area in it.
    data: *mut u8,
    /// Bytes of the data area it maps.
    capacity: u64,
}

/// A slot table: the first one (at [`HEADER_LENGTH`]) or one a grow made in the data area.
/// Points into a [`View`], which lives as long as the region.
/// Two words, so that a lookup gets it in registers.
#[derive(Clone, Copy)]
pub(crate) struct Table {
    /// Its first slot.
    #[cfg_attr(all(loom, test), allow(dead_code))]
    ptr: NonNull<u8>,
    /// Its slots less one (a power of two less one, checked before construction).
    mask: u64,
}

// SAFETY: a Table is a pointer into a mapping its holder's Region keeps alive; its slots are
// only accessed atomically through the Region.
unsafe impl Send for Table {}
// SAFETY: as for Send.
unsafe impl Sync for Table {}

impl Table {
    /// Slots in the table.
    #[inline(always)]
    pub(crate) fn slots(&self) -> u64 {
        self.mask + 1
    }

    /// `slots - 1`: masks a hash into a slot index.
    #[inline(always)]
    pub(crate) fn mask(&self) -> u64 {
        self.mask
    }
}

/// One mapped map file (or anonymous mapping): header page, slot tables, data area.
pub(crate) struct Region {
    /// Every mapping made, oldest first; each lives until the region is dropped.
    #[expect(
        clippy::vec_box,
        reason = "a View must not move when the Vec grows: `view` and lookups point at it"
    )]
    views: Mutex<Vec<Box<View>>>,
    /// The newest of `views`: it covers every byte an older one does.
    view: AtomicPtr<View>,
    /// The header page: the start of the first view (every view starts there).
    #[cfg_attr(all(loom, test), allow(dead_code))]
    header: *mut u8,
    /// The first slot table.
    first_table: Table,
    /// Where the data area starts in the file: `data_area_offset(slots)`.
    data_offset: u64,
    /// Whether the map grows: a file of layout version [`FIRST_GROWABLE_VERSION`] on.
    growable: bool,
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

impl View {
    /// Bytes of the data area it maps.
    #[inline(always)]
    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Wraps a mapping of exactly `file_length(slots, capacity)` bytes.
    fn new(map: MmapRaw, slots: u64, capacity: u64) -> View {
        assert_eq!(
            map.len() as u64,
            file_length(slots, capacity),
            "length checked by the caller"
        );
        let base = map.as_mut_ptr();
        // SAFETY: the data area starts inside the mapping (asserted above).
        let data = unsafe { base.add(data_area_offset(slots) as usize) };
        View {
            map,
            base,
            data,
            capacity,
        }
    }
}

// SAFETY: the raw pointers point into `map`, which lives as long as the View; a View is only
// read after construction.
unsafe impl Send for View {}
// SAFETY: as for Send.
unsafe impl Sync for View {}

// SAFETY: the raw pointers point into views the Region keeps until it is dropped; every shared
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
        let view = Box::new(View::new(map, slots, data_capacity));
        let first_table = Table {
            // SAFETY: the first table lies right after the header page, inside the mapping.
            ptr: unsafe { NonNull::new_unchecked(view.base.add(HEADER_LENGTH)) },
            mask: slots - 1,
        };
        let current = (&*view as *const View).cast_mut();
        let header = view.base;
        Region {
            header,
            views: Mutex::new(vec![view]),
            view: AtomicPtr::new(current),
            first_table,
            data_offset: data_area_offset(slots),
            growable: version >= FIRST_GROWABLE_VERSION && path.is_some(),
            writable,
            checksummed: version >= FIRST_CHECKSUMMED_VERSION,
            verify_from: std::sync::atomic::AtomicU64::new(u64::MAX),
            path,
            #[cfg(all(loom, test))]
            loom_words: LoomWords::new(slots, data_capacity),
        }
    }

    /// The newest mapping: a lookup takes it once and checks every record against its
    /// capacity (a newer one covers at least as much).
    #[inline(always)]
    pub(crate) fn view(&self) -> &View {
        // SAFETY: every view is boxed in `views` until the region is dropped, and the pointer
        // is only ever set to one of them (after it was pushed).
        unsafe { &*self.view.load(std::sync::atomic::Ordering::Acquire) }
    }

    /// Bytes of the data area mapped: the file holds at least these (growing only).
    #[inline(always)]
    pub(crate) fn data_capacity(&self) -> u64 {
        self.view().capacity
    }

    /// Slots in the first table (the header's `slots`).
    pub(crate) fn first_slots(&self) -> u64 {
        self.first_table.slots()
    }

    /// Whether the map grows (a file of layout version 3 on).
    pub(crate) fn growable(&self) -> bool {
        self.growable
    }

    /// Mappings made of the file so far (1 until it grows past the first).
    pub(crate) fn mappings(&self) -> usize {
        self.views.lock().map_or(1, |views| views.len())
    }

    /// The table in use: the `table` word loaded with acquire (layout version 3; the first
    /// table before), decoded, and mapped (the file mapped again when it lies past the mapping).
    ///
    /// # Errors
    /// [`MapError::Corrupt`] for a word that names no table inside the data area.
    #[inline(always)]
    pub(crate) fn table(&self) -> Result<Table, crate::MapError> {
        match self.mapped_table() {
            Ok(table) => Ok(table),
            Err(word) => self.grown_table(word),
        }
    }

    /// The table in use when it lies in the newest mapping (the first one always does), else
    /// its word: the lookup's fast path, a table in two registers.
    #[inline(always)]
    fn mapped_table(&self) -> Result<Table, u64> {
        if !self.growable {
            return Ok(self.first_table);
        }
        let word = self.header_u64(TABLE_OFFSET).load(Ordering::Acquire); // SYNC POINT: table
        if word == 0 {
            return Ok(self.first_table);
        }
        let view = self.view();
        match table_of(word) {
            Some((offset, slots)) if offset + SLOT_LENGTH as u64 * slots <= view.capacity => {
                Ok(Table {
                    // SAFETY: offset + 8 x slots <= the capacity of the view (checked above).
                    ptr: unsafe { NonNull::new_unchecked(view.data.add(offset as usize)) },
                    mask: slots - 1,
                })
            }
            _ => Err(word),
        }
    }

    /// The table a non-zero `table` word names, checked to lie in the data area, mapping the
    /// file again if it lies past the newest mapping.
    #[cold]
    #[inline(never)]
    fn grown_table(&self, word: u64) -> Result<Table, crate::MapError> {
        let corrupt = |why: &str| {
            crate::MapError::corrupt(self.path(), format!("the table word {word:#x} names {why}"))
        };
        let Some((offset, slots)) = table_of(word) else {
            return Err(corrupt("an impossible table"));
        };
        let end = offset + SLOT_LENGTH as u64 * slots;
        if end > self.data_capacity() && !self.cover(end)? {
            return Err(corrupt("a table past the data area"));
        }
        Ok(Table {
            // SAFETY: offset + 8 x slots <= the capacity of the newest view (checked above).
            ptr: unsafe { NonNull::new_unchecked(self.view().data.add(offset as usize)) },
            mask: slots - 1,
        })
    }

    /// The newest mapping once it covers `end` bytes of the data area ([`Region::cover`]), or
    /// `None` when the file's capacity is short of it.
    ///
    /// # Errors
    /// As [`Region::cover`].
    #[cold]
    pub(crate) fn view_covering(&self, end: u64) -> Result<Option<&View>, crate::MapError> {
        Ok(self.cover(end)?.then(|| self.view()))
    }

    /// Makes the newest mapping cover `end` bytes of the data area, mapping the file again at
    /// the header's `data_capacity` if it grew; `false` when even that is short of `end` (a
    /// corrupt slot or table word).
    ///
    /// # Errors
    /// [`MapError::FileLength`](crate::MapError) when the file is shorter than its header's
    /// capacity; [`MapError::Io`](crate::MapError) when it cannot be mapped.
    #[cold]
    pub(crate) fn cover(&self, end: u64) -> Result<bool, crate::MapError> {
        let Some(path) = self.path.as_deref().filter(|_| self.growable) else {
            return Ok(false);
        };
        let mut views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        let newest = views.last().map_or(0, |v| v.capacity);
        if newest >= end {
            return Ok(true); // another thread mapped it meanwhile
        }
        let capacity = self.lv_u64(DATA_CAPACITY_OFFSET); // SYNC POINT: capacity
        if capacity < end || capacity > MAX_DATA_CAPACITY {
            return Ok(false);
        }
        let view = self.map_file(path, capacity)?;
        self.push(&mut views, view);
        Ok(true)
    }

    /// Maps the file's first `file_length(slots, capacity)` bytes, as this region did.
    fn map_file(&self, path: &Path, capacity: u64) -> Result<View, crate::MapError> {
        let length = file_length(self.first_slots(), capacity);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(self.writable)
            .open(path)
            .map_err(|e| crate::MapError::io(path, "open the map file to map it again", e))?;
        let actual = file
            .metadata()
            .map_err(|e| crate::MapError::io(path, "read the map file's length", e))?
            .len();
        if actual < length {
            return Err(crate::MapError::File(
                sympathy_mapped::FileError::FileLength {
                    file: &crate::error::FILE_KIND,
                    path: path.to_path_buf(),
                    actual,
                    expected: length,
                    sizes: Some(format!(
                        "{} slots and a data capacity of {capacity}: the file was cut while mapped",
                        self.first_slots()
                    )),
                },
            ));
        }
        let options = {
            let mut options = MmapOptions::new();
            options.len(length as usize);
            options
        };
        let map = if self.writable {
            options.map_raw(&file)
        } else {
            options.map_raw_read_only(&file)
        }
        .map_err(|e| crate::MapError::io(path, "map the map file again", e))?;
        Ok(View::new(map, self.first_slots(), capacity))
    }

    /// Makes `view` the newest.
    #[expect(clippy::vec_box, reason = "as for the field `views`")]
    fn push(&self, views: &mut Vec<Box<View>>, view: View) {
        let view = Box::new(view);
        let pointer = (&*view as *const View).cast_mut();
        views.push(view);
        self.view
            .store(pointer, std::sync::atomic::Ordering::Release);
    }

    /// The writer's grow of the data area to `capacity` bytes: extends the file, reserving its
    /// blocks (the free space checked first: `no-space` leaves the file as it was), writes the
    /// length to the disk, maps it, then stores `data_capacity` with release.
    ///
    /// # Errors
    /// [`MapError::NoSpace`](crate::MapError), [`MapError::Io`](crate::MapError).
    pub(crate) fn grow_data(&self, capacity: u64) -> Result<(), crate::MapError> {
        let path = self
            .path
            .as_deref()
            .expect("only a map in a file grows (checked by the writer)");
        let length = file_length(self.first_slots(), capacity);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| crate::MapError::io(path, "open the map file to grow it", e))?;
        let io = |what: &'static str| move |e| crate::MapError::io(path, what, e);
        let before = file
            .metadata()
            .map_err(io("read the map file's length"))?
            .len();
        if before < length {
            file.set_len(length).map_err(io("extend the map file"))?;
            if let Err(e) =
                sympathy_mapped::open::reserve_holes(path, &crate::error::FILE_KIND, length)
            {
                // Nothing maps past the old capacity yet: the file goes back as it was.
                let _ = file.set_len(before);
                return Err(e.into());
            }
        }
        // The length reaches the disk before any header names it.
        file.sync_data()
            .map_err(io("write the map file's new length (fdatasync)"))?;
        let mut views = self.views.lock().unwrap_or_else(|e| e.into_inner());
        let view = self.map_file(path, capacity)?;
        self.push(&mut views, view);
        self.so_u64(DATA_CAPACITY_OFFSET, capacity); // SYNC POINT: capacity
        Ok(())
    }

    /// The table of `slots` slots at data-area `offset` (a multiple of [`TABLE_ALIGNMENT`],
    /// inside the newest mapping): where the writer builds a grown table.
    pub(crate) fn table_at(&self, offset: u64, slots: u64) -> Table {
        assert!(offset + SLOT_LENGTH as u64 * slots <= self.data_capacity());
        Table {
            // SAFETY: inside the newest view (asserted above).
            ptr: unsafe { NonNull::new_unchecked(self.view().data.add(offset as usize)) },
            mask: slots - 1,
        }
    }

    /// Zeroes `length` bytes of the data area at `offset`, past `data_end`.
    ///
    /// # Safety
    /// The mapping is writable, `offset + length <= data_capacity`, the range lies at or past
    /// `data_end` (no slot or table word points into it) and only the attached writer calls this.
    pub(crate) unsafe fn zero(&self, offset: u64, length: u64) {
        // SAFETY: in bounds and unshared by the caller's contract.
        unsafe { std::ptr::write_bytes(self.view().data.add(offset as usize), 0, length as usize) }
    }

    /// Writes `length` bytes of the data area at `offset` to the disk (`msync`); nothing for
    /// anonymous memory.
    pub(crate) fn flush_data(&self, offset: u64, length: u64) -> std::io::Result<()> {
        if self.path.is_none() {
            return Ok(());
        }
        let start = (self.data_offset + offset) as usize;
        self.view().map.flush_range(start, length as usize)
    }

    /// Writes the header page and the first table to the disk (`msync`).
    pub(crate) fn flush_header(&self) -> std::io::Result<()> {
        if self.path.is_none() {
            return Ok(());
        }
        self.view().map.flush_range(0, self.data_offset as usize)
    }

    /// Where the data area starts in the file.
    pub(crate) fn data_offset(&self) -> u64 {
        self.data_offset
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

    // ---- header words -------------------------------------------------------------------------

    #[cfg(not(all(loom, test)))]
    fn header_u32(&self, offset: usize) -> &AtomicU32 {
        debug_assert!(offset.is_multiple_of(4) && offset < HEADER_LENGTH);
        // SAFETY: header offsets are layout constants, 4-aligned, inside the header page of a
        // page-aligned mapping that outlives &self; all accesses to them are atomic.
        unsafe { AtomicU32::from_ptr(self.header.add(offset).cast()) }
    }

    #[cfg(not(all(loom, test)))]
    fn header_u64(&self, offset: usize) -> &AtomicU64 {
        debug_assert!(offset.is_multiple_of(8) && offset < HEADER_LENGTH);
        // SAFETY: as in header_u32, 8-aligned.
        unsafe { AtomicU64::from_ptr(self.header.add(offset).cast()) }
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
    fn slot<'a>(&'a self, table: &Table, index: u64) -> &'a AtomicU64 {
        // SAFETY: index & mask < slots, so the word lies in the table, 8-aligned (a table
        // starts at a multiple of 64 in a page-aligned mapping) in a view that lives as long
        // as &self; all accesses are atomic.
        unsafe {
            AtomicU64::from_ptr(
                table
                    .ptr
                    .as_ptr()
                    .add(((index & table.mask) * 8) as usize)
                    .cast(),
            )
        }
    }

    #[cfg(all(loom, test))]
    fn slot<'a>(&'a self, table: &Table, index: u64) -> &'a AtomicU64 {
        if table.ptr == self.first_table.ptr {
            return &self.loom_words.slots[(index & table.mask) as usize];
        }
        // A grown table lies in the data area: its slots are the data area's words.
        let offset = table.ptr.as_ptr() as usize - self.view().data as usize;
        &self.loom_words.data[offset / 8 + (index & table.mask) as usize]
    }

    /// Lets a map in memory grow its slot table inside its data area (never its data area):
    /// the loom model of a table's grow, whose maps live in memory. Maps in memory never grow
    /// otherwise.
    #[cfg(all(loom, test))]
    pub(crate) fn let_the_table_grow(&mut self) {
        self.growable = true;
    }

    /// The first table (its slots, for the loom models).
    #[cfg(all(loom, test))]
    pub(crate) fn first_table(&self) -> Table {
        self.first_table
    }

    /// Slot `index` of `table` with acquire: a reader's probe. A record word seen here makes
    /// the record it points at visible, whole.
    #[inline(always)]
    pub(crate) fn lv_slot(&self, table: &Table, index: u64) -> u64 {
        self.slot(table, index).load(Ordering::Acquire) // SYNC POINT: slot
    }

    /// Slot `index` of `table`, relaxed: the writer's own probe (it wrote every slot itself),
    /// recovery, and a grow filling its new table.
    #[inline(always)]
    pub(crate) fn lp_slot(&self, table: &Table, index: u64) -> u64 {
        self.slot(table, index).load(Ordering::Relaxed)
    }

    /// Publishes slot `index` of `table` with release: the record it points at (written
    /// before) becomes visible to every reader that loads this word.
    #[inline(always)]
    pub(crate) fn so_slot(&self, table: &Table, index: u64, word: u64) {
        self.slot(table, index).store(word, Ordering::Release); // SYNC POINT: slot
    }

    /// Stores slot `index` of a table no reader sees yet (a grow's), relaxed: the `table`
    /// word's release store publishes it whole.
    #[inline(always)]
    pub(crate) fn sp_slot(&self, table: &Table, index: u64, word: u64) {
        self.slot(table, index).store(word, Ordering::Relaxed);
    }

    /// Publishes a grown table: stores its `table` word ([`table_word`]) with release. Every
    /// slot of the table was stored before, and `data_end` lies past it.
    pub(crate) fn so_table(&self, word: u64) {
        self.header_u64(TABLE_OFFSET).store(word, Ordering::Release); // SYNC POINT: table
    }

    // ---- records ------------------------------------------------------------------------------

    #[cfg(not(all(loom, test)))]
    #[inline(always)]
    fn data_word<'a>(&'a self, view: &'a View, offset: u64) -> &'a AtomicU64 {
        debug_assert!(offset.is_multiple_of(8) && offset + 8 <= view.capacity);
        // SAFETY: callers pass an 8-aligned offset with offset + 8 <= data_capacity (checked
        // against the file's length before any access; the newest view covers at least as much
        // as any a check read), inside a page-aligned mapping that outlives &self; record
        // header words are only accessed atomically.
        unsafe { AtomicU64::from_ptr(view.data.add(offset as usize).cast()) }
    }

    #[cfg(all(loom, test))]
    fn data_word<'a>(&'a self, _view: &'a View, offset: u64) -> &'a AtomicU64 {
        &self.loom_words.data[(offset / 8) as usize]
    }

    /// The key of the record at `offset` (8-aligned, `offset + 16 <=` the capacity of `view`,
    /// one of this region's), relaxed: after the acquire of the slot that pointed here.
    #[inline(always)]
    pub(crate) fn lp_record_key(&self, view: &View, offset: u64) -> u64 {
        self.data_word(view, offset + RECORD_KEY_OFFSET as u64)
            .load(Ordering::Relaxed)
    }

    /// The value length and the checksum of the record at `offset`, relaxed (as
    /// [`Region::lp_record_key`]): they share one u64, the length low, the checksum high.
    #[inline(always)]
    pub(crate) fn lp_record_length_and_checksum(&self, view: &View, offset: u64) -> (u32, u32) {
        const { assert!(RECORD_CHECKSUM_OFFSET == RECORD_VALUE_LENGTH_OFFSET + 4) };
        let word = self
            .data_word(view, offset + RECORD_VALUE_LENGTH_OFFSET as u64)
            .load(Ordering::Relaxed);
        (word as u32, (word >> 32) as u32)
    }

    /// The `length` value bytes of the record at `offset`, in place.
    ///
    /// # Safety
    /// `offset + RECORD_HEADER_LENGTH + length <=` the capacity of `view` (one of this
    /// region's, which live as long as it), and the record was published (its slot loaded with
    /// acquire, or written by this process): nobody writes it again.
    #[inline(always)]
    pub(crate) unsafe fn value<'a>(
        &'a self,
        view: &'a View,
        offset: u64,
        length: usize,
    ) -> &'a [u8] {
        // SAFETY: in bounds by the caller's contract; the bytes are never written after
        // publication, so shared references to them never alias a write.
        unsafe {
            std::slice::from_raw_parts(
                view.data
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
        let view = self.view();
        // SAFETY: in bounds (of the newest view, which covers the writer's capacity) and
        // unshared by the caller's contract; the slice lives only for this call.
        let bytes = unsafe { std::slice::from_raw_parts_mut(view.data.add(start), padded) };
        let value = &mut bytes[..length as usize];
        fill(value);
        let checksum = if self.checksummed {
            record_checksum(key, value)
        } else {
            0
        };
        bytes[length as usize..].fill(0);
        self.data_word(view, offset + RECORD_KEY_OFFSET as u64)
            .store(key, Ordering::Relaxed);
        self.data_word(view, offset + RECORD_VALUE_LENGTH_OFFSET as u64)
            .store(
                u64::from(length) | u64::from(checksum) << 32,
                Ordering::Relaxed,
            );
    }
}
