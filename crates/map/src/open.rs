//! Creating a map file and opening one, which may be hostile: the rules of docs/map-layout.md
//! ("Opening"), mirrored by the Java `MapFile.open`; each step below is one of them, in the order
//! they are checked, and the conformance suite (`tests/conformance`) pins every refusal's kind.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::time::{Duration, Instant};

use memmap2::{MmapOptions, MmapRaw};

use crate::config::MapConfig;
use crate::error::MapError;
use crate::layout::*;
use crate::region::Region;

/// How an opener may touch the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// The writer and readers that may become one: opened and mapped for reading and writing.
    ReadWrite,
    /// Readers only (the lookup service): opened `O_RDONLY`, mapped shared and read-only, so
    /// it needs no write permission and sees the writer's puts as they happen.
    ReadOnly,
}

/// Creates the file of a new map at `path` (which must not exist), reserves its blocks, writes
/// the header and stores `ready` last.
pub(crate) fn create(path: &Path, config: &MapConfig) -> Result<Region, MapError> {
    config.check()?;
    let length = file_length(config.slots, config.data_capacity);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| MapError::io(path, "create the map file", e))?;
    let made = reserve_new(&file, path, length).and_then(|()| {
        MmapOptions::new()
            .map_raw(&file)
            .map_err(|e| MapError::io(path, "map the map file", e))
    });
    match made {
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
    region.so_ready(); // SYNC POINT: ready
    region
}

fn reserve_new(file: &File, path: &Path, length: u64) -> Result<(), MapError> {
    sympathy_mapped::space::allocate_new(file, path, length)
        .map_err(|e| space_error(path, length, e))
}

fn space_error(path: &Path, length: u64, e: sympathy_mapped::space::SpaceError) -> MapError {
    use sympathy_mapped::space::SpaceError;
    match e {
        SpaceError::NoSpace {
            filesystem,
            available,
        } => MapError::NoSpace {
            path: path.to_path_buf(),
            filesystem,
            available,
            needed: length,
        },
        SpaceError::Open(e) => MapError::io(path, "open the map file to reserve its space", e),
        SpaceError::Reserve(e) => MapError::io(path, "reserve the map file's space", e),
    }
}

/// Opens and validates a map file: a regular file, at least a header page long within
/// `timeout`, `ready` within `timeout`, then magic, version, slots, data capacity, file length,
/// header length, max value length and the writer's counters; a read-write open then reserves
/// the blocks of a sparse file.
pub(crate) fn open(path: &Path, timeout: Duration, access: Access) -> Result<Region, MapError> {
    let start = Instant::now();
    let file = open_regular_file(path, access)?;
    let len = wait_for_header_page(&file, path, start, timeout)?;
    // Map only the header page first: the sizes in it are untrusted until checked.
    let header = map(&file, Some(HEADER_LENGTH), access)
        .map_err(|e| MapError::io(path, "map the map header", e))?;
    let header = Header(header);
    wait_for_ready(&header, path, start, timeout)?;
    let (slots, data_capacity) = check_header(&header, path, len)?;
    drop(header);
    if access == Access::ReadWrite {
        // A sparse map gets its blocks now: on tmpfs even a read of a hole allocates a page, so
        // a full filesystem would answer a later access with SIGBUS.
        sympathy_mapped::space::allocate_holes(path, len).map_err(|e| space_error(path, len, e))?;
    }
    let whole = map(&file, None, access).map_err(|e| MapError::io(path, "map the map file", e))?;
    if whole.len() as u64 != len {
        return Err(MapError::FileLength {
            path: path.to_path_buf(),
            actual: whole.len() as u64,
            expected: len,
        });
    }
    let region = Region::new(
        whole,
        slots,
        data_capacity,
        access == Access::ReadWrite,
        Some(path.to_path_buf()),
    );
    check_counters(&region, path)?;
    Ok(region)
}

/// Refuses anything but a regular file before opening it (opening a FIFO waits for a writer, a
/// device such as /dev/zero would pass for endless zeros), then opens it without blocking.
fn open_regular_file(path: &Path, access: Access) -> Result<File, MapError> {
    use std::os::unix::fs::OpenOptionsExt;
    let metadata =
        std::fs::metadata(path).map_err(|e| MapError::io(path, "open the map file", e))?;
    check_regular_file(path, &metadata)?;
    OpenOptions::new()
        .read(true)
        .write(access == Access::ReadWrite)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| MapError::io(path, "open the map file", e))
}

fn check_regular_file(path: &Path, metadata: &std::fs::Metadata) -> Result<(), MapError> {
    match sympathy_mapped::file::not_a_regular_file(path, metadata) {
        None => Ok(()),
        Some(what) => Err(MapError::NotARegularFile {
            path: path.to_path_buf(),
            what,
        }),
    }
}

/// Waits until the opened file is at least a header page long (its creator may still be
/// sizing it) and returns its length.
fn wait_for_header_page(
    file: &File,
    path: &Path,
    start: Instant,
    timeout: Duration,
) -> Result<u64, MapError> {
    loop {
        let metadata = file
            .metadata()
            .map_err(|e| MapError::io(path, "read the file's length", e))?;
        check_regular_file(path, &metadata)?;
        let len = metadata.len();
        if len >= HEADER_LENGTH as u64 {
            return Ok(len);
        }
        if start.elapsed() >= timeout {
            return Err(MapError::FileLength {
                path: path.to_path_buf(),
                actual: len,
                expected: HEADER_LENGTH as u64,
            });
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The header page alone, mapped before the rest: its words are read volatile, as a hostile
/// process may change them at any time.
struct Header(MmapRaw);

impl Header {
    /// The `n`-byte (4 or 8) little-endian word at `offset`, read volatile.
    fn word(&self, offset: usize, n: usize) -> u64 {
        debug_assert!(offset.is_multiple_of(n) && offset + n <= HEADER_LENGTH);
        let base = self.0.as_ptr();
        // SAFETY: offset + n <= HEADER_LENGTH, the mapped length; offsets are n-aligned in a
        // page-aligned mapping.
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
        // SAFETY: READY_OFFSET is 4-aligned inside the mapped header page, which lives as long
        // as `self`; the word is only ever accessed atomically.
        let word = unsafe {
            std::sync::atomic::AtomicU32::from_ptr(self.0.as_mut_ptr().add(READY_OFFSET).cast())
        };
        // SYNC POINT: ready (acquire; pairs with the creator's release in `publish`)
        word.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// Waits for the creator's `ready` word; meanwhile the magic must be 0 (not yet written) or
/// [`MAGIC`], and `ready` 0 or 1.
fn wait_for_ready(
    header: &Header,
    path: &Path,
    start: Instant,
    timeout: Duration,
) -> Result<(), MapError> {
    loop {
        let magic = header.word(MAGIC_OFFSET, 8);
        if magic != 0 && magic != MAGIC {
            return Err(MapError::NotAMapFile {
                path: path.to_path_buf(),
                found: magic,
            });
        }
        match header.ready() {
            READY => return Ok(()),
            0 => {}
            ready => {
                return Err(MapError::CorruptHeader {
                    path: path.to_path_buf(),
                    what: format!("ready is {ready}, expected 0 (being created) or 1"),
                });
            }
        }
        if start.elapsed() >= timeout {
            return Err(MapError::Timeout {
                waited: start.elapsed(),
            });
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Checks a ready header against the layout and the file's length `len`; returns the slots and
/// the data capacity.
fn check_header(header: &Header, path: &Path, len: u64) -> Result<(u64, u64), MapError> {
    let corrupt = |what: String| MapError::CorruptHeader {
        path: path.to_path_buf(),
        what,
    };
    let magic = header.word(MAGIC_OFFSET, 8);
    if magic != MAGIC {
        return Err(MapError::NotAMapFile {
            path: path.to_path_buf(),
            found: magic,
        });
    }
    let version = header.word(LAYOUT_VERSION_OFFSET, 4) as u32;
    if version != LAYOUT_VERSION {
        return Err(MapError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version,
            supported: LAYOUT_VERSION,
        });
    }
    let slots = header.word(SLOTS_OFFSET, 8);
    if let Some(problem) = MapConfig::slots_problem(slots) {
        return Err(corrupt(format!("slots {problem}")));
    }
    let data_capacity = header.word(DATA_CAPACITY_OFFSET, 8);
    if let Some(problem) = MapConfig::data_capacity_problem(data_capacity) {
        return Err(corrupt(format!("data_capacity {problem}")));
    }
    let expected = file_length(slots, data_capacity);
    if len != expected {
        return Err(MapError::FileLength {
            path: path.to_path_buf(),
            actual: len,
            expected,
        });
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
/// `count <= used_slots <= slots`.
fn check_counters(region: &Region, path: &Path) -> Result<(), MapError> {
    let corrupt = |what: String| MapError::CorruptHeader {
        path: path.to_path_buf(),
        what,
    };
    let data_end = region.lv_u64(DATA_END_OFFSET); // SYNC POINT: data-end
    if data_end < DATA_START
        || data_end > region.data_capacity()
        || !data_end.is_multiple_of(RECORD_ALIGNMENT as u64)
    {
        return Err(corrupt(format!(
            "data_end is {data_end}, expected a multiple of 8 between {DATA_START} and the data \
             capacity {}",
            region.data_capacity()
        )));
    }
    let count = region.lp_u64(COUNT_OFFSET);
    let used = region.lp_u64(USED_SLOTS_OFFSET);
    if used > region.slots() || count > used {
        return Err(corrupt(format!(
            "count {count} and used_slots {used} are impossible with {} slots (count <= \
             used_slots <= slots)",
            region.slots()
        )));
    }
    Ok(())
}

/// Maps `len` bytes (the whole file when `None`), shared: writable for a read-write open,
/// read-only otherwise.
fn map(file: &File, len: Option<usize>, access: Access) -> std::io::Result<MmapRaw> {
    let mut options = MmapOptions::new();
    if let Some(len) = len {
        options.len(len);
    }
    match access {
        Access::ReadWrite => options.map_raw(file),
        Access::ReadOnly => options.map_raw_read_only(file),
    }
}
