//! A ring over a mapped file or anonymous memory: create, open (with the `ready` protocol),
//! and hand out the one [`Producer`] and one [`Consumer`].

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use memmap2::MmapMut;

use crate::attach::{self, Attachment, PeerState};
use crate::consumer::Consumer;
use crate::error::{Corruption, RingError, Role};
use crate::layout::*;
use crate::producer::Producer;
use crate::region::Region;
use crate::space;

/// How long [`Ring::open`] waits for the creator's `ready` word.
pub const DEFAULT_OPEN_TIMEOUT: Duration = Duration::from_secs(2);

/// A handle on one ring. Cheap to clone; the mapping lives until the last handle, producer and
/// consumer are dropped.
#[derive(Clone)]
pub struct Ring {
    region: Arc<Region>,
}

impl std::fmt::Debug for Ring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ring")
            .field("path", &self.region.path())
            .field("capacity", &self.region.capacity())
            .finish()
    }
}

fn check_capacity(capacity: u64) -> Result<usize, RingError> {
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

impl Ring {
    /// Creates a new ring file of `file_length(capacity)` bytes at `path` (which must not
    /// exist), reserves its blocks, writes the header and stores `ready` last.
    ///
    /// The blocks are allocated up front (`posix_fallocate`), so a filesystem without room for
    /// the file fails here, and the file is removed, rather than the first write to the
    /// mapping killing its writer with `SIGBUS`.
    ///
    /// # Errors
    /// [`RingError::BadCapacity`], [`RingError::NoSpace`] (naming the filesystem and its free
    /// space), [`RingError::PermissionDenied`], [`RingError::Io`] (also when the file exists).
    pub fn create(path: impl AsRef<Path>, capacity: usize) -> Result<Ring, RingError> {
        let path = path.as_ref();
        let capacity = check_capacity(capacity as u64)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| RingError::io(path, "create the ring file", e))?;
        let sized = space::allocate_new(&file, path, file_length(capacity) as u64).and_then(|()| {
            // SAFETY: the file was just created by us; peers only write it through the ring
            // protocol, and every shared word is accessed atomically.
            unsafe { MmapMut::map_mut(&file) }
                .map_err(|e| RingError::io(path, "map the ring file", e))
        });
        match sized {
            Ok(map) => Ok(Ring::publish(map, capacity, Some(path.to_path_buf()))),
            Err(e) => {
                // Never leave a half-made file: without `ready` every opener would wait on it.
                drop(file);
                let _ = std::fs::remove_file(path);
                Err(e)
            }
        }
    }

    /// Allocates the blocks of this ring's file that are not yet allocated (the holes of a
    /// sparse file, such as one made by a `create` that did not reserve its space), so that a
    /// full filesystem is an error now instead of a `SIGBUS` in whichever peer first writes
    /// there. Safe while peers use the ring: it allocates holes only (the `fallocate` system
    /// call, never a write of zeros); a file already allocated costs one cheap call. A
    /// read-write [`Ring::open`] already calls it. Does
    /// nothing for anonymous rings, or where the filesystem cannot allocate ahead.
    ///
    /// # Errors
    /// [`RingError::NoSpace`] naming the filesystem and its free space; [`RingError::Io`].
    ///
    /// # Examples
    /// ```
    /// let path = std::env::temp_dir().join(format!("doc-reserve-{}", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// sympathy_ring::Ring::create(&path, 4096)?;
    /// let ring = sympathy_ring::Ring::open(&path)?;
    /// ring.reserve_space()?; // already reserved by create: nothing to do
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn reserve_space(&self) -> Result<(), RingError> {
        match self.region.path() {
            Some(path) => space::allocate_holes(path, file_length(self.capacity()) as u64),
            None => Ok(()),
        }
    }

    /// A ring in anonymous memory, for one process (threads) and tests.
    ///
    /// # Errors
    /// [`RingError::BadCapacity`]; [`RingError::Io`] if the memory cannot be mapped.
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// producer.try_write(7, b"hello")?;
    /// let mut got = Vec::new();
    /// consumer.read(|type_id, bytes| got.push((type_id, bytes.to_vec())), 10)?;
    /// assert_eq!(got, vec![(7, b"hello".to_vec())]);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn anonymous(capacity: usize) -> Result<Ring, RingError> {
        let capacity = check_capacity(capacity as u64)?;
        let map = MmapMut::map_anon(file_length(capacity))
            .map_err(|e| RingError::io(Path::new("<anonymous>"), "map anonymous memory", e))?;
        Ok(Ring::publish(map, capacity, None))
    }

    fn publish(map: MmapMut, capacity: usize, path: Option<PathBuf>) -> Ring {
        // The mapping is zero-filled (new file / anonymous), so the ring region is empty.
        let region = Region::new(map, capacity, path);
        region.sp_header(capacity, attach::now_ms());
        region.so_ready(); // SYNC POINT: ready
        Ring {
            region: Arc::new(region),
        }
    }

    /// Opens an existing ring file, waiting up to [`DEFAULT_OPEN_TIMEOUT`] for its creator.
    ///
    /// # Errors
    /// See [`Ring::open_with_timeout`].
    pub fn open(path: impl AsRef<Path>) -> Result<Ring, RingError> {
        Ring::open_with_timeout(path, DEFAULT_OPEN_TIMEOUT)
    }

    /// Opens an existing ring file: refuses anything but a regular file, waits up to `timeout`
    /// for the file to reach the header's size and for `ready`, then checks magic, version,
    /// capacity, file length, `max_message_length`, `header_length` and the positions.
    ///
    /// # Errors
    /// [`RingError::NotARegularFile`] (a directory, FIFO, device or socket, also through a
    /// symbolic link), [`RingError::Timeout`] (never became ready), [`RingError::NotARingFile`],
    /// [`RingError::UnsupportedVersion`], [`RingError::BadCapacity`],
    /// [`RingError::FileLength`] (also a file shorter than the header page once `timeout` has
    /// passed), [`RingError::CorruptHeader`] (`ready` neither 0 nor 1, or a derived field that
    /// disagrees), [`RingError::CorruptRecord`] (bad positions), [`RingError::PermissionDenied`],
    /// [`RingError::Io`].
    pub fn open_with_timeout(path: impl AsRef<Path>, timeout: Duration) -> Result<Ring, RingError> {
        let region = open_region(path.as_ref(), timeout, Access::ReadWrite)?;
        // SYNC POINT: head, SYNC POINT: tail
        check_trailer(&region, region.lv_head(), region.lv_tail())?;
        Ok(Ring {
            region: Arc::new(region),
        })
    }

    /// Attaches the one producer.
    ///
    /// # Errors
    /// [`RingError::AlreadyAttached`] naming the live producer's pid; [`RingError::CorruptRecord`]
    /// if the positions in the trailer are invalid.
    pub fn producer(&self) -> Result<Producer, RingError> {
        let attachment = Attachment::attach(self.region.clone(), Role::Producer)?;
        Producer::new(attachment)
    }

    /// Attaches the one consumer.
    ///
    /// # Errors
    /// [`RingError::AlreadyAttached`] naming the live consumer's pid; [`RingError::CorruptRecord`]
    /// if the positions in the trailer are invalid.
    pub fn consumer(&self) -> Result<Consumer, RingError> {
        let attachment = Attachment::attach(self.region.clone(), Role::Consumer)?;
        Consumer::new(attachment)
    }

    /// Bytes in the record area.
    pub fn capacity(&self) -> usize {
        self.region.capacity()
    }

    /// The largest payload: `capacity / 8`.
    pub fn max_message_length(&self) -> usize {
        max_message_length(self.region.capacity())
    }

    /// The file, or `None` for anonymous memory.
    pub fn path(&self) -> Option<&Path> {
        self.region.path()
    }

    /// The state of the producer or consumer, as seen by an observer (stale after
    /// [`crate::HEARTBEAT_STALE_MS`]). An observer keeps no memory between looks, so it does
    /// not see progress: a foreign producer (no heartbeat slot) reads as never attached or
    /// detached here, and alive to its consumer, which watches the tail.
    pub fn peer(&self, role: Role) -> PeerState {
        attach::peer_state(&self.region, role, attach::HEARTBEAT_STALE_MS)
    }

    /// [`Ring::peer`] with another stale limit: a heartbeat older than `stale_limit` reads as
    /// [`PeerState::Stale`].
    ///
    /// # Examples
    /// ```
    /// use std::time::Duration;
    /// use sympathy_ring::{PeerState, Ring, Role};
    /// let ring = Ring::anonymous(64)?;
    /// assert_eq!(ring.peer(Role::Producer), PeerState::NeverAttached);
    /// let producer = ring.producer()?;
    /// assert!(ring.peer_with_stale_limit(Role::Producer, Duration::from_secs(60)).is_alive());
    /// drop(producer);
    /// assert_eq!(ring.peer(Role::Producer), PeerState::Detached);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn peer_with_stale_limit(&self, role: Role, stale_limit: Duration) -> PeerState {
        attach::peer_state(&self.region, role, duration_ms(stale_limit))
    }

    /// Next value of the trailer's correlation counter (Agrona's `nextCorrelationId`).
    pub fn next_correlation_id(&self) -> i64 {
        self.region.next_correlation_id()
    }

    pub(crate) fn region(&self) -> &Region {
        &self.region
    }
}

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

/// Opens and validates a ring file up to, not including, the positions: what [`Ring::open`]
/// and the read-only [`crate::inspect::RingView`] share. The hostile-file rules are those of
/// docs/ring-layout.md ("Opening"), mirrored by the Java `RingFile.open`.
pub(crate) fn open_region(
    path: &Path,
    timeout: Duration,
    access: Access,
) -> Result<Region, RingError> {
    use std::os::unix::fs::OpenOptionsExt;
    let start = Instant::now();
    // Before opening: opening a FIFO for reading waits for a writer, and a device such as
    // /dev/zero would pass for a file of endless zeros.
    let metadata =
        std::fs::metadata(path).map_err(|e| RingError::io(path, "open the ring file", e))?;
    check_regular_file(path, &metadata)?;
    let file = OpenOptions::new()
        .read(true)
        .write(access == Access::ReadWrite)
        // Never blocks, should the path have become a FIFO since the check; no effect on a file.
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| RingError::io(path, "open the ring file", e))?;
    let len = loop {
        let metadata = file
            .metadata()
            .map_err(|e| RingError::io(path, "read the file's length", e))?;
        check_regular_file(path, &metadata)?; // what was opened, not what the path named before
        let len = metadata.len();
        if len >= HEADER_LENGTH as u64 {
            break len;
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
    };
    // Map only the header page first: the capacity in it is untrusted until checked.
    let header = map(&file, Some(HEADER_LENGTH), access)
        .map_err(|e| RingError::io(path, "map the ring header", e))?;
    let base = header.as_ptr();
    // Header words are read volatile: a hostile writer may change them at any time.
    let word = |offset: usize, n: usize| -> u64 {
        debug_assert!(offset.is_multiple_of(n) && offset + n <= HEADER_LENGTH);
        // SAFETY: offset + n <= HEADER_LENGTH, the mapped length; offsets are n-aligned
        // in a page-aligned mapping.
        unsafe {
            if n == 8 {
                std::ptr::read_volatile(base.add(offset).cast::<u64>())
            } else {
                u64::from(std::ptr::read_volatile(base.add(offset).cast::<u32>()))
            }
        }
    };
    loop {
        // A creator writes the magic before `ready`; anything else there is not a ring.
        let magic = word(MAGIC_OFFSET, 8);
        if magic != 0 && magic != MAGIC {
            return Err(RingError::NotARingFile {
                path: path.to_path_buf(),
                found: magic,
            });
        }
        // SYNC POINT: ready (acquire; pairs with the creator's release in Ring::publish)
        // SAFETY: READY_OFFSET is 4-aligned inside the mapped header page (writable memory:
        // shared, or a private copy), which outlives this loop; the word is only accessed
        // atomically.
        let ready = unsafe { crate::primitive::load_acquire_u32(base.add(READY_OFFSET).cast()) };
        if ready == READY {
            break;
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
    let magic = word(MAGIC_OFFSET, 8);
    if magic != MAGIC {
        return Err(RingError::NotARingFile {
            path: path.to_path_buf(),
            found: magic,
        });
    }
    let version = word(LAYOUT_VERSION_OFFSET, 4) as u32;
    if version != LAYOUT_VERSION {
        return Err(RingError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version,
            supported: LAYOUT_VERSION,
        });
    }
    let capacity = check_capacity(word(CAPACITY_OFFSET, 8))?;
    let expected = file_length(capacity) as u64;
    if len != expected {
        return Err(RingError::FileLength {
            path: path.to_path_buf(),
            actual: len,
            expected,
            capacity: capacity as u64,
        });
    }
    drop(header);
    if access == Access::ReadWrite {
        // A sparse ring (left by an older create) gets its blocks now, before anything below
        // touches the record area or the trailer: on tmpfs even a read of a hole allocates a
        // page, so a full filesystem would answer the position check with SIGBUS.
        space::allocate_holes(path, expected)?;
    }
    // The file is exactly file_length(capacity) bytes (checked above; a peer that truncates it
    // later breaks the ring for everyone, as with any shared mapping).
    let whole =
        map(&file, None, access).map_err(|e| RingError::io(path, "map the ring file", e))?;
    if whole.len() != file_length(capacity) {
        return Err(RingError::FileLength {
            path: path.to_path_buf(),
            actual: whole.len() as u64,
            expected,
            capacity: capacity as u64,
        });
    }
    let region = Region::new(whole, capacity, Some(path.to_path_buf()));
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
    Ok(region)
}

/// Maps `len` bytes (the whole file when `None`): shared and writable for a peer, a private
/// copy-on-write mapping of a read-only descriptor for a tool.
fn map(file: &std::fs::File, len: Option<usize>, access: Access) -> std::io::Result<MmapMut> {
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
    use std::os::unix::fs::FileTypeExt;
    let t = metadata.file_type();
    let what = if t.is_file() {
        return Ok(());
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a file"
    };
    let via = match std::fs::read_link(path) {
        Ok(target) => format!(", through a symbolic link to {}", target.display()),
        Err(_) => String::new(),
    };
    Err(RingError::NotARegularFile {
        path: path.to_path_buf(),
        what: format!("{what}{via}"),
    })
}

/// Checks a head/tail pair read from the trailer, at open and attach: both non-negative,
/// 8-aligned and at most [`MAX_POSITION`], and at most a capacity apart either way. The head may
/// be ahead of the trailer's tail: the Rust producer stores the tail after it publishes (a
/// batch's once, after the whole batch), so a consumer can read records the tail does not count
/// yet, and a producer killed in that window leaves the head past the tail for good. The next
/// producer resumes after those records (`resume_position`), so such a file is valid.
pub(crate) fn check_trailer(region: &Region, head: i64, tail: i64) -> Result<(), RingError> {
    let gap = tail.wrapping_sub(head);
    let capacity = region.capacity() as i64;
    if possible_position(head) && possible_position(tail) && (-capacity..=capacity).contains(&gap) {
        Ok(())
    } else {
        Err(bad_positions(region, head, tail))
    }
}

/// Checks the producer's own position `tail` against the consumer's `head`: both possible
/// positions and `0 <= tail - head <= capacity` (the consumer never passes the producer).
pub(crate) fn check_positions(region: &Region, head: i64, tail: i64) -> Result<(), RingError> {
    let gap = tail.wrapping_sub(head);
    if possible_position(head)
        && possible_position(tail)
        && (0..=region.capacity() as i64).contains(&gap)
    {
        Ok(())
    } else {
        Err(bad_positions(region, head, tail))
    }
}

/// Non-negative, 8-aligned, at most [`MAX_POSITION`].
fn possible_position(position: i64) -> bool {
    (0..=MAX_POSITION).contains(&position) && position % RECORD_ALIGNMENT as i64 == 0
}

#[cold]
fn bad_positions(region: &Region, head: i64, tail: i64) -> RingError {
    RingError::CorruptRecord {
        position: head,
        index: (head as usize) & (region.capacity() - 1),
        corruption: Corruption::BadPositions { head, tail },
    }
}

/// A duration in whole ms, saturating.
pub(crate) fn duration_ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}
