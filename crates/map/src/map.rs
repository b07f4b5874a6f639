//! [`MapFile`]: a handle on one map, for lookups from any thread or process, and the writer's
//! attachment.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::config::MapConfig;
use crate::error::MapError;
use crate::layout::*;
use crate::open::{self, Access};
use crate::probe::{self, record};
use crate::region::Region;
use crate::writer::Writer;
use crate::writer_state::{WriterState, writer_state};

/// How long [`MapFile::open`] waits for a creator's `ready` word.
pub const DEFAULT_OPEN_TIMEOUT: Duration = Duration::from_secs(2);

/// A handle on one map: lookups ([`MapFile::get`]) from any number of threads and processes,
/// and the one [`Writer`] ([`MapFile::writer`]). Cheap to clone; the mapping lives until the
/// last handle and writer are dropped. The values it hands out borrow the handle: a record is
/// never written again once published, so a value stays valid as long as the handle.
///
/// ```
/// use sympathy_map::{MapConfig, MapFile};
/// let path = std::env::temp_dir().join(format!("doc-map-{}", std::process::id()));
/// # let _ = std::fs::remove_file(&path);
/// let map = MapFile::create(&path, &MapConfig::for_entries(1000, 16)?)?;
/// let mut writer = map.writer()?;             // one writer at a time, in any process
/// writer.put(7, b"seven")?;
/// let reader = MapFile::open_read_only(&path)?; // any number of readers, in any process
/// assert_eq!(reader.get(7)?, Some(&b"seven"[..]));
/// assert_eq!(reader.get(8)?, None);
/// # drop((writer, map, reader)); std::fs::remove_file(&path).unwrap();
/// # Ok::<(), sympathy_map::MapError>(())
/// ```
#[derive(Clone)]
pub struct MapFile {
    pub(crate) region: Arc<Region>,
    max_value_length: u32,
}

impl std::fmt::Debug for MapFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapFile")
            .field("path", &self.region.path())
            .field("first_slots", &self.region.first_slots())
            .field("data_capacity", &self.region.data_capacity())
            .finish()
    }
}

/// A snapshot of a map's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapStats {
    /// Slots in the table in use (the first table's, until the map grows).
    pub slots: u64,
    /// Slots in the first table (the header's `slots`, fixed at creation).
    pub first_slots: u64,
    /// Bytes of the data area.
    pub data_capacity: u64,
    /// The largest value a put accepts.
    pub max_value_length: u32,
    /// How values are encoded (a `VALUE_FORMAT_*` code).
    pub value_format: u32,
    /// Bytes of the data area in use.
    pub data_end: u64,
    /// Keys in the map.
    pub count: u64,
    /// Slots holding keys or tombstones.
    pub used_slots: u64,
    /// Writers that took over from a dead one.
    pub recoveries: u64,
    /// Creation time, ms since the Unix epoch.
    pub creation_time_ms: i64,
    /// The file's length the header implies (the map's bytes).
    pub file_length: u64,
    /// Mappings this handle made of the file (1, and one more each time it saw the map grow).
    pub mappings: usize,
}

impl MapFile {
    /// Creates a new map file at `path` (which must not exist) with the sizes of `config`,
    /// reserves its blocks and writes the header, `ready` last.
    ///
    /// # Errors
    /// [`MapError::BadConfig`], [`MapError::NoSpace`] (the file is removed),
    /// [`MapError::PermissionDenied`], [`MapError::Io`] (also when the file exists).
    pub fn create(path: impl AsRef<Path>, config: &MapConfig) -> Result<MapFile, MapError> {
        Ok(MapFile::wrap(open::create(path.as_ref(), config)?))
    }

    /// A map in anonymous memory, for the threads of one process and tests.
    ///
    /// # Errors
    /// [`MapError::BadConfig`]; [`MapError::Io`] if the memory cannot be mapped.
    pub fn anonymous(config: &MapConfig) -> Result<MapFile, MapError> {
        Ok(MapFile::wrap(open::anonymous(config)?))
    }

    /// Opens an existing map for reading and writing (a writer can attach), waiting up to
    /// [`DEFAULT_OPEN_TIMEOUT`] for its creator. Nothing is rebuilt: the slots and records are
    /// used where they lie.
    ///
    /// # Errors
    /// See [`MapFile::open_with_timeout`].
    pub fn open(path: impl AsRef<Path>) -> Result<MapFile, MapError> {
        MapFile::open_with_timeout(path, DEFAULT_OPEN_TIMEOUT)
    }

    /// Opens an existing map for reading and writing: refuses anything but a regular file,
    /// waits up to `timeout` for the header page and `ready`, then checks the header
    /// (docs/map-layout.md, "Opening") and reserves the blocks of a sparse file.
    ///
    /// # Errors
    /// [`MapError::NotARegularFile`], [`MapError::Timeout`], [`MapError::NotAMapFile`],
    /// [`MapError::UnsupportedVersion`], [`MapError::FileLength`],
    /// [`MapError::CorruptHeader`], [`MapError::NoSpace`], [`MapError::PermissionDenied`],
    /// [`MapError::Io`].
    pub fn open_with_timeout(
        path: impl AsRef<Path>,
        timeout: Duration,
    ) -> Result<MapFile, MapError> {
        Ok(MapFile::wrap(open::open(
            path.as_ref(),
            timeout,
            Access::ReadWrite,
        )?))
    }

    /// Opens an existing map to read only: `O_RDONLY` and a shared read-only mapping, so it
    /// needs only read permission and sees a writer's puts (in another process) as they happen.
    /// [`MapFile::writer`] is refused.
    ///
    /// # Errors
    /// As [`MapFile::open_with_timeout`], never [`MapError::NoSpace`].
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<MapFile, MapError> {
        Ok(MapFile::wrap(open::open(
            path.as_ref(),
            DEFAULT_OPEN_TIMEOUT,
            Access::ReadOnly,
        )?))
    }

    /// A map in memory whose slot table grows (inside its fixed data area), for the loom
    /// model of a table's grow.
    #[cfg(all(loom, test))]
    pub(crate) fn anonymous_with_a_growing_table(config: &MapConfig) -> Result<MapFile, MapError> {
        let mut region = open::anonymous(config)?;
        region.let_the_table_grow();
        Ok(MapFile::wrap(region))
    }

    fn wrap(region: Region) -> MapFile {
        let max_value_length = region.lp_u32(MAX_VALUE_LENGTH_OFFSET);
        MapFile {
            region: Arc::new(region),
            max_value_length,
        }
    }

    /// Attaches the one writer: claims the writer word for this process (from nobody, or from
    /// a writer that no longer runs, whose counters it then recounts).
    ///
    /// # Errors
    /// [`MapError::AlreadyAttached`] naming the live writer; [`MapError::ReadOnly`];
    /// [`MapError::Corrupt`] when the recount finds an impossible slot.
    pub fn writer(&self) -> Result<Writer, MapError> {
        Writer::attach(self.region.clone())
    }

    /// The value of `key`, in place, or `None`.
    ///
    /// Wait-free for readers: one acquire load per slot probed; the record a slot points at
    /// was written before the slot's release store and never changes after, so the value is
    /// always whole: the one put last, or an older one a concurrent put is replacing.
    ///
    /// # Errors
    /// [`MapError::Corrupt`] when a slot or record is impossible (a file modified by something
    /// other than a map writer).
    #[inline]
    pub fn get(&self, key: u64) -> Result<Option<&[u8]>, MapError> {
        probe::get(&self.region, self.max_value_length, key)
    }

    /// Whether `key` is in the map.
    ///
    /// # Errors
    /// As [`MapFile::get`].
    pub fn contains_key(&self, key: u64) -> Result<bool, MapError> {
        Ok(self.get(key)?.is_some())
    }

    /// Keys in the map (the writer's counter: exact when no writer is in the middle of a put).
    pub fn len(&self) -> u64 {
        self.region.lv_u64(COUNT_OFFSET) // SYNC POINT: count
    }

    /// Whether the map holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How values are encoded (a `VALUE_FORMAT_*` code of [`crate::layout`]).
    pub fn value_format(&self) -> u32 {
        self.region.lp_u32(VALUE_FORMAT_OFFSET)
    }

    /// The file, or `None` for anonymous memory.
    pub fn path(&self) -> Option<&Path> {
        self.region.path()
    }

    /// A snapshot of the header.
    ///
    /// # Errors
    /// [`MapError::Corrupt`] when the header names an impossible table.
    pub fn stats(&self) -> Result<MapStats, MapError> {
        let r = &self.region;
        let table = r.table()?;
        let data_capacity = r.lv_u64(DATA_CAPACITY_OFFSET); // SYNC POINT: capacity
        Ok(MapStats {
            slots: table.slots(),
            first_slots: r.first_slots(),
            data_capacity,
            max_value_length: self.max_value_length,
            value_format: self.value_format(),
            data_end: r.lv_u64(DATA_END_OFFSET), // SYNC POINT: data-end
            count: self.len(),
            used_slots: r.lp_u64(USED_SLOTS_OFFSET),
            recoveries: r.lp_u64(RECOVERIES_OFFSET),
            creation_time_ms: r.lp_u64(CREATION_TIME_OFFSET) as i64,
            file_length: file_length(r.first_slots(), data_capacity),
            mappings: r.mappings(),
        })
    }

    /// The writer as a reader sees it now (stale after [`HEARTBEAT_STALE_MS`](crate::HEARTBEAT_STALE_MS)).
    pub fn writer_state(&self) -> WriterState {
        writer_state(&self.region, sympathy_mapped::now_ms())
    }

    /// Every key and value, in slot order (a snapshot per slot: a concurrent writer's puts may
    /// or may not show).
    ///
    /// ```
    /// # use sympathy_map::{MapConfig, MapFile};
    /// let map = MapFile::anonymous(&MapConfig::for_entries(8, 8)?)?;
    /// let mut writer = map.writer()?;
    /// writer.put(1, b"a")?;
    /// writer.put(2, b"b")?;
    /// let mut all: Vec<_> = map.entries().collect::<Result<_, _>>()?;
    /// all.sort();
    /// assert_eq!(all, [(1, &b"a"[..]), (2, &b"b"[..])]);
    /// # Ok::<(), sympathy_map::MapError>(())
    /// ```
    ///
    /// The table is the one in use when the iteration starts: a grow during it does not
    /// change what it visits (the old table keeps every key it held).
    pub fn entries(&self) -> impl Iterator<Item = Result<(u64, &[u8]), MapError>> + '_ {
        let region = &*self.region;
        let table = region.table();
        let (table, error) = match table {
            Ok(table) => (Some(table), None),
            Err(e) => (None, Some(Err(e))),
        };
        let slots = table.map_or(0, |t| t.slots());
        error.into_iter().chain((0..slots).filter_map(move |i| {
            let table = table.as_ref()?;
            let word = region.lv_slot(table, i); // SYNC POINT: slot
            if word == EMPTY || word == TOMBSTONE {
                return None;
            }
            let mut view = region.view();
            Some(record(region, &mut view, self.max_value_length, word).map(|r| (r.key, r.value)))
        }))
    }
}
