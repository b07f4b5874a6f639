//! The many-to-one ring: producers in any number of threads and processes, in Rust, Java or
//! Agrona's own `ManyToOneRingBuffer` (or Aeron's C `aeron_mpsc_rb`), into one consumer. Its
//! file is a one-to-one ring's (same record area, same trailer) with `kind` 2 in a version 2
//! header; the difference is the protocol: producers claim space with a compare-and-swap on the
//! tail, and the consumer zeroes what it read (no producer can pre-zero the next header).
//!
//! ```
//! use sympathy_ring::ManyToOneRing;
//! let path = std::env::temp_dir().join(format!("doc-mpsc-{}", std::process::id()));
//! # let _ = std::fs::remove_file(&path);
//! let ring = ManyToOneRing::create(&path, 4096)?;    // ManyToOneRing::open in other processes
//! let mut consumer = ring.consumer()?;
//! let writers: Vec<_> = (1..=2)
//!     .map(|type_id| {
//!         let mut producer = ring.producer();     // as many as you like, one per thread
//!         std::thread::spawn(move || {
//!             for i in 0..100u32 {
//!                 while producer.try_write(type_id, &i.to_le_bytes()).is_err() {}
//!             }
//!         })
//!     })
//!     .collect();
//! let mut next = [0u32; 2];
//! while next != [100, 100] {
//!     consumer.read(|type_id, bytes| {
//!         let i = u32::from_le_bytes(bytes.try_into().unwrap());
//!         assert_eq!(i, next[type_id as usize - 1]); // each producer's messages in order
//!         next[type_id as usize - 1] += 1;
//!     }, 64)?;
//! }
//! writers.into_iter().for_each(|w| w.join().unwrap());
//! # drop((consumer, ring)); std::fs::remove_file(&path).unwrap();
//! # Ok::<(), sympathy_ring::RingError>(())
//! ```

mod consumer;
mod producer;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub use consumer::{DEFAULT_UNBLOCK_AFTER, ManyToOneConsumer};
pub use producer::{ManyToOneClaim, ManyToOneProducer};

use crate::PeerState;
use crate::attach::{self, Attachment};
use crate::consumer::Consumer;
use crate::error::{RingError, Role};
use crate::layout::{Kind, max_message_length};
use crate::region::Region;
use crate::ring::{DEFAULT_OPEN_TIMEOUT, anonymous_region, create_region, open_kind};

/// A handle on one many-to-one ring. Cheap to clone; the mapping lives until the last handle,
/// producer and consumer are dropped.
#[derive(Clone)]
pub struct ManyToOneRing {
    pub(crate) region: Arc<Region>,
}

impl std::fmt::Debug for ManyToOneRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ManyToOneRing")
            .field("path", &self.region.path())
            .field("capacity", &self.region.capacity())
            .finish()
    }
}

impl ManyToOneRing {
    /// Creates a many-to-one ring file at `path` (which must not exist), as
    /// [`crate::Ring::create`] does a one-to-one ring.
    ///
    /// # Errors
    /// As [`crate::Ring::create`].
    pub fn create(path: impl AsRef<Path>, capacity: usize) -> Result<ManyToOneRing, RingError> {
        let region = create_region(path.as_ref(), capacity, Kind::ManyToOne)?;
        Ok(ManyToOneRing { region })
    }

    /// A many-to-one ring in anonymous memory, for one process (threads) and tests.
    ///
    /// # Errors
    /// [`RingError::BadCapacity`]; an I/O error ([`RingError::File`]) if the memory cannot be mapped.
    pub fn anonymous(capacity: usize) -> Result<ManyToOneRing, RingError> {
        let region = anonymous_region(capacity, Kind::ManyToOne)?;
        Ok(ManyToOneRing { region })
    }

    /// Opens an existing many-to-one ring file, waiting up to [`DEFAULT_OPEN_TIMEOUT`] for its
    /// creator.
    ///
    /// # Errors
    /// As [`crate::Ring::open_with_timeout`]; [`RingError::WrongKind`] for a one-to-one or
    /// broadcast ring.
    pub fn open(path: impl AsRef<Path>) -> Result<ManyToOneRing, RingError> {
        ManyToOneRing::open_with_timeout(path, DEFAULT_OPEN_TIMEOUT)
    }

    /// [`ManyToOneRing::open`] with another wait for the creator's `ready`.
    ///
    /// # Errors
    /// As [`ManyToOneRing::open`].
    pub fn open_with_timeout(
        path: impl AsRef<Path>,
        timeout: Duration,
    ) -> Result<ManyToOneRing, RingError> {
        let region = open_kind(path.as_ref(), timeout, Kind::ManyToOne)?;
        Ok(ManyToOneRing { region })
    }

    /// A producer: any number may write at once, from any threads and processes. Producers do
    /// not register in the header (they hold nothing a crash could leave held; a claim a dead
    /// producer left is the consumer's to clear, see [`ManyToOneConsumer::unblock`]).
    pub fn producer(&self) -> ManyToOneProducer {
        ManyToOneProducer::new(self.region.clone())
    }

    /// Attaches the one consumer.
    ///
    /// # Errors
    /// [`RingError::AlreadyAttached`] naming the live consumer's pid; [`RingError::CorruptRecord`]
    /// if the positions in the trailer are invalid.
    pub fn consumer(&self) -> Result<ManyToOneConsumer, RingError> {
        let attachment = Attachment::attach(self.region.clone(), Role::Consumer)?;
        Ok(ManyToOneConsumer::new(Consumer::new(attachment)?))
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

    /// The consumer's state, as an observer sees it (see [`crate::Ring::peer`]).
    pub fn consumer_state(&self) -> PeerState {
        attach::peer_state(&self.region, Role::Consumer, attach::HEARTBEAT_STALE_MS)
    }

    /// Next value of the trailer's correlation counter (Agrona's `nextCorrelationId`): unique
    /// across every producer of the ring, in every process.
    pub fn next_correlation_id(&self) -> i64 {
        self.region.next_correlation_id()
    }
}
