//! Creating a map file and opening one, which may be hostile: the rules of docs/map-layout.md
//! ("Opening"), mirrored by the Java `MapFile.open`; each step below is one of them, in the order
//! they are checked, and the conformance suite (`tests/conformance`) pins every refusal's kind.

use std::fs::File;
use std::path::Path;
use std::time::Duration;

use memmap2::{MmapOptions, MmapRaw};
use sympathy_mapped::FileError;
use sympathy_mapped::header::HeaderPage;
use sympathy_mapped::open;

use crate::config::MapConfig;
use crate::error::{FILE_KIND, MapError};
use crate::layout::*;
use crate::region::Region;

/// How an opener may touch the file (the shared [`open::Access`]): the writer and readers that
/// may become one open and map it for reading and writing; readers only (the lookup service)
/// open it `O_RDONLY` and map it shared and read-only, so they need no write permission and see
/// the writer's puts as they happen.
pub(crate) use sympathy_mapped::open::Access;

/// Creates the file of a new map at `path` (which must not exist), reserves its blocks, writes
/// the header and stores `ready` last.
pub(crate) fn create(path: &Path, config: &MapConfig) -> Result<Region, MapError> {
    config.check()?;
    let length = file_length(config.slots, config.data_capacity);
    let file = open::create_new(path, &FILE_KIND, length)?;
    let mapped = MmapOptions::new()
        .map_raw(&file)
        .map_err(|e| MapError::io(path, "map the map file", e));
    match mapped {
        Ok(map) => Ok(publish(map, config, Some(path))),
        Err(e) => {
            // Never leave a half-made file: without `ready` every opener would wait on it.
            drop(file);
            let _ = std::fs::remove_file(path);
            Err(e)
        }
    }
}

/// A map in anonymous memory, for one process (threads) and tests.
pub(crate) fn anonymous(config: &MapConfig) -> Result<Region, MapError> {
    config.check()?;
    let length = file_length(config.slots, config.data_capacity);
    let map = MmapOptions::new()
        .len(length as usize)
        .map_anon()
        .map_err(|e| MapError::io(Path::new("<anonymous>"), "map anonymous memory", e))?;
    Ok(publish(map.into(), config, None))
}

/// Writes the header of a new, zero-filled mapping and stores `ready` last.
fn publish(map: MmapRaw, config: &MapConfig, path: Option<&Path>) -> Region {
    let region = Region::new(
        map,
        config.slots,
        config.data_capacity,
        LAYOUT_VERSION,
        true,
        path.map(Path::to_path_buf),
    );
    region.sp_u64(MAGIC_OFFSET, MAGIC);
    region.sp_u32(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
    region.sp_u64(SLOTS_OFFSET, config.slots);
    region.sp_u64(DATA_CAPACITY_OFFSET, config.data_capacity);
    region.sp_u32(MAX_VALUE_LENGTH_OFFSET, config.max_value_length);
    region.sp_u32(HEADER_LENGTH_OFFSET, HEADER_LENGTH as u32);
    region.sp_u64(CREATION_TIME_OFFSET, sympathy_mapped::now_ms() as u64);
    region.sp_u32(VALUE_FORMAT_OFFSET, config.value_format);
    region.sp_u64(DATA_END_OFFSET, DATA_START);
    region.sp_u64(VERIFIED_END_OFFSET, DATA_START);
    region.sp_u64(BOOT_OFFSET, sympathy_mapped::current_boot());
    region.so_ready(); // SYNC POINT: ready
    region
}

/// Opens and validates a map file: a regular file, at least a header page long within
/// `timeout`, `ready` within `timeout`, then magic, version, slots, data capacity, file length,
/// header length, max value length and the writer's counters; a read-write open then reserves
/// the blocks of a sparse file.
pub(crate) fn open(path: &Path, timeout: Duration, access: Access) -> Result<Region, MapError> {
    let opened = open::open_header(path, &FILE_KIND, timeout, access)?;
    // A version the kind reads (checked by open_header): 1, 2 with checksums, 3 growing.
    let version = opened.header.word(LAYOUT_VERSION_OFFSET, 4) as u32;
    let (slots, data_capacity) = check_header(&opened.header, path, &opened.file, version)?;
    drop(opened.header);
    // The map's bytes: a map that grows may lie in a longer file (a writer that died growing
    // it extended the file and had not yet stored the capacity); the rest is not read.
    let len = file_length(slots, data_capacity);
    if access == Access::ReadWrite {
        // A sparse map gets its blocks now: on tmpfs even a read of a hole allocates a page, so
        // a full filesystem would answer a later access with SIGBUS.
        open::reserve_holes(path, &FILE_KIND, len)?;
    }
    let whole =
        map(&opened.file, access, len).map_err(|e| MapError::io(path, "map the map file", e))?;
    if whole.len() as u64 != len {
        return Err(wrong_length(
            path,
            whole.len() as u64,
            len,
            slots,
            data_capacity,
        ));
    }
    let region = Region::new(
        whole,
        slots,
        data_capacity,
        version,
        access == Access::ReadWrite,
        Some(path.to_path_buf()),
    );
    check_counters(&region, path)?;
    set_verify_from(&region);
    Ok(region)
}

/// Which records this process's lookups check against their checksum: in a version 2 map opened
/// in another boot than its records past `verified_end` were written in (or where the boot is
/// unknown), those; else none. Within one boot the page cache is the file: nothing is torn.
fn set_verify_from(region: &Region) {
    if !region.checksummed() {
        return;
    }
    let boot = sympathy_mapped::current_boot();
    if boot == 0 || region.lp_u64(BOOT_OFFSET) != boot {
        region.set_verify_from(region.lp_u64(VERIFIED_END_OFFSET));
    }
}

/// A file of `actual` bytes where `slots` and `data_capacity` imply `expected`.
fn wrong_length(
    path: &Path,
    actual: u64,
    expected: u64,
    slots: u64,
    data_capacity: u64,
) -> MapError {
    MapError::File(FileError::FileLength {
        file: &FILE_KIND,
        path: path.to_path_buf(),
        actual,
        expected,
        sizes: Some(format!(
            "{slots} slots and a data capacity of {data_capacity}"
        )),
    })
}

/// Checks a ready header of layout `version` against the layout and the length of `file`;
/// returns the slots and the data capacity.
fn check_header(
    header: &HeaderPage,
    path: &Path,
    file: &File,
    version: u32,
) -> Result<(u64, u64), MapError> {
    let corrupt = |what: String| MapError::corrupt_header(path, what);
    let slots = header.word(SLOTS_OFFSET, 8);
    if let Some(problem) = MapConfig::slots_problem(slots) {
        return Err(corrupt(format!("slots {problem}")));
    }
    let data_capacity = header.word(DATA_CAPACITY_OFFSET, 8);
    if let Some(problem) = MapConfig::data_capacity_problem(data_capacity) {
        return Err(corrupt(format!("data_capacity {problem}")));
    }
    // The length after the capacity: a writer growing the map extends the file before it
    // stores the larger capacity (SYNC POINT: capacity), so the file is at least that long.
    std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
    let len = file
        .metadata()
        .map_err(|e| MapError::io(path, "read the map file's length", e))?
        .len();
    let expected = file_length(slots, data_capacity);
    if version >= FIRST_GROWABLE_VERSION && len < expected {
        return Err(MapError::File(FileError::FileShort {
            file: &FILE_KIND,
            path: path.to_path_buf(),
            actual: len,
            expected,
            sizes: format!("{slots} slots and a data capacity of {data_capacity}"),
        }));
    }
    if version < FIRST_GROWABLE_VERSION && len != expected {
        return Err(wrong_length(path, len, expected, slots, data_capacity));
    }
    let header_length = header.word(HEADER_LENGTH_OFFSET, 4);
    if header_length != HEADER_LENGTH as u64 {
        return Err(corrupt(format!(
            "header_length is {header_length}, expected {HEADER_LENGTH}"
        )));
    }
    let max_value_length = header.word(MAX_VALUE_LENGTH_OFFSET, 4) as u32;
    if let Some(problem) = MapConfig::max_value_length_problem(max_value_length, data_capacity) {
        return Err(corrupt(format!("max_value_length {problem}")));
    }
    Ok((slots, data_capacity))
}

/// Checks the writer's counters: `data_end` a multiple of 8 in `DATA_START..=data_capacity`,
/// `verified_end <= data_end`, the table word (version 3) naming a table below `data_end`,
/// `count <= used_slots <=` the table's slots.
fn check_counters(region: &Region, path: &Path) -> Result<(), MapError> {
    let corrupt = |what: String| MapError::corrupt_header(path, what);
    // In the order a writer's stores make each later one at least as new: the table word before
    // `data_end` (a grow stores `data_end` past the new table first), `count` before
    // `used_slots` (a put stores `used_slots` first), so a writer at work never makes them look
    // impossible.
    let table = if region.growable() {
        region.lv_u64(TABLE_OFFSET) // SYNC POINT: table
    } else {
        0
    };
    let count = region.lv_u64(COUNT_OFFSET); // SYNC POINT: count
    let used = region.lp_u64(USED_SLOTS_OFFSET);
    let data_end = region.lv_u64(DATA_END_OFFSET); // SYNC POINT: data-end
    // A writer may have grown the data area since the capacity was read: map what it says now.
    let mapped = data_end <= region.data_capacity() || region.cover(data_end)?;
    if data_end < DATA_START || !mapped || !data_end.is_multiple_of(RECORD_ALIGNMENT as u64) {
        return Err(corrupt(format!(
            "data_end is {data_end}, expected a multiple of 8 between {DATA_START} and the data \
             capacity {}",
            region.data_capacity()
        )));
    }
    if region.checksummed() {
        let verified_end = region.lp_u64(VERIFIED_END_OFFSET);
        if verified_end > data_end {
            return Err(corrupt(format!(
                "verified_end is {verified_end}, past data_end {data_end} (a flush stores it as \
                 data_end, never past)"
            )));
        }
    }
    let slots = if table == 0 {
        region.first_slots()
    } else {
        table_slots(table, data_end).ok_or_else(|| {
            corrupt(format!(
                "table is {table:#x}: not 0, nor a table of {MIN_SLOTS} to {MAX_SLOTS} slots at a \
                 multiple of {TABLE_ALIGNMENT} from {TABLE_ALIGNMENT} ending by data_end {data_end}"
            ))
        })?
    };
    if used > slots || count > used {
        return Err(corrupt(format!(
            "count {count} and used_slots {used} are impossible with {slots} slots (count <= \
             used_slots <= slots)"
        )));
    }
    Ok(())
}

/// The slots of the table a non-zero `table` word names, when it is a possible one
/// ([`table_of`]) ending at or before `data_end`.
fn table_slots(word: u64, data_end: u64) -> Option<u64> {
    let (offset, slots) = table_of(word)?;
    (offset + SLOT_LENGTH as u64 * slots <= data_end).then_some(slots)
}

/// Maps the file's first `len` bytes, shared: writable for a read-write open, read-only
/// otherwise.
fn map(file: &File, access: Access, len: u64) -> std::io::Result<MmapRaw> {
    let mut options = MmapOptions::new();
    options.len(len as usize);
    match access {
        Access::ReadWrite => options.map_raw(file),
        Access::ReadOnly => options.map_raw_read_only(file),
    }
}
