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
    /// exist), writes the header and stores `ready` last.
    ///
    /// # Errors
    /// [`RingError::BadCapacity`], [`RingError::PermissionDenied`], [`RingError::Io`] (also when
    /// the file exists).
    pub fn create(path: impl AsRef<Path>, capacity: usize) -> Result<Ring, RingError> {
        let path = path.as_ref();
        let capacity = check_capacity(capacity as u64)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| RingError::io(path, "create the ring file", e))?;
        file.set_len(file_length(capacity) as u64)
            .map_err(|e| RingError::io(path, "size the ring file", e))?;
        // SAFETY: the file was just created by us; peers only write it through the ring
        // protocol, and every shared word is accessed atomically.
        let map = unsafe { MmapMut::map_mut(&file) }
            .map_err(|e| RingError::io(path, "map the ring file", e))?;
        Ok(Ring::publish(map, capacity, Some(path.to_path_buf())))
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

    /// Opens an existing ring file: waits up to `timeout` for the file to reach the header's
    /// size and for `ready`, then checks magic, version, capacity, file length and positions.
    ///
    /// # Errors
    /// [`RingError::Timeout`] (never became ready), [`RingError::NotARingFile`],
    /// [`RingError::UnsupportedVersion`], [`RingError::BadCapacity`],
    /// [`RingError::FileLength`], [`RingError::CorruptHeader`], [`RingError::CorruptRecord`]
    /// (bad positions), [`RingError::PermissionDenied`], [`RingError::Io`].
    pub fn open_with_timeout(path: impl AsRef<Path>, timeout: Duration) -> Result<Ring, RingError> {
        let path = path.as_ref();
        let start = Instant::now();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| RingError::io(path, "open the ring file", e))?;
        let len = loop {
            let len = file
                .metadata()
                .map_err(|e| RingError::io(path, "read the file's length", e))?
                .len();
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
        // SAFETY: shared file mapping; every header word is read atomically.
        let header = unsafe {
            memmap2::MmapOptions::new()
                .len(HEADER_LENGTH)
                .map_mut(&file)
        }
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
            // SAFETY: READY_OFFSET is 4-aligned inside the mapped header page, which outlives
            // this loop; the word is only accessed atomically.
            let ready =
                unsafe { crate::primitive::load_acquire_u32(base.add(READY_OFFSET).cast()) };
            if ready == READY {
                break;
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
        // SAFETY: the file is exactly file_length(capacity) bytes (checked above; a peer that
        // truncates it later breaks the ring for everyone, as with any shared mapping).
        let map = unsafe { MmapMut::map_mut(&file) }
            .map_err(|e| RingError::io(path, "map the ring file", e))?;
        if map.len() != file_length(capacity) {
            return Err(RingError::FileLength {
                path: path.to_path_buf(),
                actual: map.len() as u64,
                expected,
                capacity: capacity as u64,
            });
        }
        let region = Region::new(map, capacity, Some(path.to_path_buf()));
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
        // SYNC POINT: head, SYNC POINT: tail
        check_positions(&region, region.lv_head(), region.lv_tail())?;
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

/// A duration in whole ms, saturating.
pub(crate) fn duration_ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Checks a head/tail pair read from the trailer: non-negative, 8-aligned, `0 <= tail - head <=
/// capacity`.
pub(crate) fn check_positions(region: &Region, head: i64, tail: i64) -> Result<(), RingError> {
    let aligned = |p: i64| p >= 0 && p % RECORD_ALIGNMENT as i64 == 0;
    let gap = tail.wrapping_sub(head);
    if aligned(head) && aligned(tail) && (0..=region.capacity() as i64).contains(&gap) {
        Ok(())
    } else {
        Err(RingError::CorruptRecord {
            position: head,
            index: (head as usize) & (region.capacity() - 1),
            corruption: Corruption::BadPositions { head, tail },
        })
    }
}
