//! A ring over a mapped file or anonymous memory: create, open (with the `ready` protocol),
//! and hand out the one [`Producer`] and one [`Consumer`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use memmap2::MmapMut;

use crate::attach::{self, Attachment, PeerState, duration_ms};
use crate::consumer::Consumer;
use crate::error::{FILE_KIND, RingError, Role};
use crate::layout::*;
use crate::open::{Access, check_capacity, open_region};
use crate::positions::check_trailer;
use crate::producer::Producer;
use crate::region::Region;
use sympathy_mapped::open;

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
        let region = create_region(path.as_ref(), capacity, Kind::OneToOne)?;
        Ok(Ring { region })
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
            Some(path) => reserve_space(path, &self.region),
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
        let region = anonymous_region(capacity, Kind::OneToOne)?;
        Ok(Ring { region })
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
    /// [`RingError::Io`]; [`RingError::WrongKind`] for a many-to-one or broadcast ring.
    pub fn open_with_timeout(path: impl AsRef<Path>, timeout: Duration) -> Result<Ring, RingError> {
        let region = open_kind(path.as_ref(), timeout, Kind::OneToOne)?;
        Ok(Ring { region })
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

/// Creates a ring file of `kind` at `path` (which must not exist): reserves its blocks, maps it,
/// writes the header and stores `ready` last. A file that cannot be mapped is removed again.
pub(crate) fn create_region(
    path: &Path,
    capacity: usize,
    kind: Kind,
) -> Result<Arc<Region>, RingError> {
    let capacity = check_capacity(capacity as u64)?;
    let file = open::create_new(path, &FILE_KIND, kind.file_length(capacity) as u64)?;
    // SAFETY: the file was just created by us; peers only write it through the ring
    // protocol, and every shared word is accessed atomically.
    let mapped =
        unsafe { MmapMut::map_mut(&file) }.map_err(|e| RingError::io(path, "map the ring file", e));
    match mapped {
        Ok(map) => Ok(publish(map, capacity, kind, Some(path.to_path_buf()))),
        Err(e) => {
            // Never leave a half-made file: without `ready` every opener would wait on it.
            drop(file);
            let _ = std::fs::remove_file(path);
            Err(e)
        }
    }
}

/// A ring of `kind` in anonymous memory, for one process (threads) and tests.
pub(crate) fn anonymous_region(capacity: usize, kind: Kind) -> Result<Arc<Region>, RingError> {
    let capacity = check_capacity(capacity as u64)?;
    let map = MmapMut::map_anon(kind.file_length(capacity))
        .map_err(|e| RingError::io(Path::new("<anonymous>"), "map anonymous memory", e))?;
    Ok(publish(map, capacity, kind, None))
}

/// Writes the header of a zero-filled mapping (a new file, anonymous memory) and publishes it.
fn publish(map: MmapMut, capacity: usize, kind: Kind, path: Option<PathBuf>) -> Arc<Region> {
    // The mapping is zero-filled, so the ring region is empty.
    let region = Region::new(map, capacity, kind, path);
    region.sp_header(capacity, attach::now_ms());
    region.so_ready(); // SYNC POINT: ready
    Arc::new(region)
}

/// Opens a ring file that must hold a ring of `kind` ([`RingError::WrongKind`] otherwise), with
/// every check of [`open_region`] and then those of the kind's positions.
pub(crate) fn open_kind(
    path: &Path,
    timeout: Duration,
    kind: Kind,
) -> Result<Arc<Region>, RingError> {
    let region = open_region(path, timeout, Access::ReadWrite)?;
    if region.kind() != kind {
        return Err(RingError::WrongKind {
            path: path.to_path_buf(),
            found: region.kind(),
            wanted: kind,
        });
    }
    match kind {
        Kind::OneToOne | Kind::ManyToOne => {
            // SYNC POINT: head, SYNC POINT: tail
            check_trailer(&region, region.lv_head(), region.lv_tail())?;
        }
        Kind::Broadcast => crate::broadcast::check_trailer(&region)?,
    }
    Ok(Arc::new(region))
}

/// Allocates the blocks of the ring file at `path` that are not yet allocated.
pub(crate) fn reserve_space(path: &Path, region: &Region) -> Result<(), RingError> {
    Ok(open::reserve_holes(
        path,
        &FILE_KIND,
        region.kind().file_length(region.capacity()) as u64,
    )?)
}
