//! The broadcast ring: one transmitter, receivers in any number of processes, none of which
//! holds the transmitter back (a receiver that falls a capacity behind is lapped: it counts
//! the lap and rejoins at the latest record). Byte-compatible with Agrona's
//! `BroadcastTransmitter`, `BroadcastReceiver` and `CopyBroadcastReceiver`: the record area is
//! followed by Agrona's 128-byte broadcast trailer (`docs/ring-layout.md`, "Broadcast").
//!
//! ```
//! use sympathy_ring::BroadcastRing;
//! let path = std::env::temp_dir().join(format!("doc-broadcast-{}", std::process::id()));
//! # let _ = std::fs::remove_file(&path);
//! let ring = BroadcastRing::create(&path, 4096)?;   // BroadcastRing::open in other processes
//! let mut transmitter = ring.transmitter()?;
//! let (mut a, mut b) = (ring.receiver()?, ring.receiver()?); // join at the latest record
//! transmitter.transmit(1, b"tick")?;
//! for receiver in [&mut a, &mut b] {
//!     let got = receiver.receive(|type_id, bytes| (type_id, bytes.to_vec()))?;
//!     assert_eq!(got, Some((1, b"tick".to_vec())));
//! }
//! # drop((transmitter, a, b, ring)); std::fs::remove_file(&path).unwrap();
//! # Ok::<(), sympathy_ring::RingError>(())
//! ```

mod receiver;
mod transmitter;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub use receiver::Receiver;
pub use transmitter::Transmitter;

use crate::PeerState;
use crate::attach::{self, Attachment};
use crate::error::{Corruption, RingError, Role};
use crate::layout::{Kind, MAX_POSITION, RECORD_ALIGNMENT, max_message_length};
use crate::region::Region;
use crate::ring::{DEFAULT_OPEN_TIMEOUT, anonymous_region, create_region, open_kind};

/// A handle on one broadcast ring. Cheap to clone; the mapping lives until the last handle,
/// transmitter and receiver are dropped.
#[derive(Clone)]
pub struct BroadcastRing {
    region: Arc<Region>,
}

impl std::fmt::Debug for BroadcastRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BroadcastRing")
            .field("path", &self.region.path())
            .field("capacity", &self.region.capacity())
            .finish()
    }
}

impl BroadcastRing {
    /// Creates a broadcast ring file of `4096 + capacity + 128` bytes at `path` (which must not
    /// exist), as [`crate::Ring::create`] does a one-to-one ring.
    ///
    /// # Errors
    /// As [`crate::Ring::create`].
    pub fn create(path: impl AsRef<Path>, capacity: usize) -> Result<BroadcastRing, RingError> {
        let region = create_region(path.as_ref(), capacity, Kind::Broadcast)?;
        Ok(BroadcastRing { region })
    }

    /// A broadcast ring in anonymous memory, for one process (threads) and tests.
    ///
    /// # Errors
    /// [`RingError::BadCapacity`]; an I/O error ([`RingError::File`]) if the memory cannot be mapped.
    pub fn anonymous(capacity: usize) -> Result<BroadcastRing, RingError> {
        let region = anonymous_region(capacity, Kind::Broadcast)?;
        Ok(BroadcastRing { region })
    }

    /// Opens an existing broadcast ring file, waiting up to [`DEFAULT_OPEN_TIMEOUT`] for its
    /// creator.
    ///
    /// # Errors
    /// As [`crate::Ring::open_with_timeout`]; [`RingError::WrongKind`] for a one-to-one or
    /// many-to-one ring.
    pub fn open(path: impl AsRef<Path>) -> Result<BroadcastRing, RingError> {
        BroadcastRing::open_with_timeout(path, DEFAULT_OPEN_TIMEOUT)
    }

    /// [`BroadcastRing::open`] with another wait for the creator's `ready`.
    ///
    /// # Errors
    /// As [`BroadcastRing::open`].
    pub fn open_with_timeout(
        path: impl AsRef<Path>,
        timeout: Duration,
    ) -> Result<BroadcastRing, RingError> {
        let region = open_kind(path.as_ref(), timeout, Kind::Broadcast)?;
        Ok(BroadcastRing { region })
    }

    /// Attaches the one transmitter (registered in the header's producer slot, as a one-to-one
    /// producer), which resumes after the last complete record.
    ///
    /// # Errors
    /// [`RingError::AlreadyAttached`] naming the live transmitter's pid;
    /// [`RingError::CorruptRecord`] if the trailer's positions are impossible.
    pub fn transmitter(&self) -> Result<Transmitter, RingError> {
        let attachment = Attachment::attach(self.region.clone(), Role::Producer)?;
        Transmitter::new(attachment)
    }

    /// A receiver, joined at the latest record (the first it receives, once there is one).
    /// Receivers do not register: any number may read, and none holds the transmitter back.
    ///
    /// # Errors
    /// [`RingError::CorruptRecord`] if the trailer's positions are impossible.
    pub fn receiver(&self) -> Result<Receiver, RingError> {
        check_trailer(&self.region)?;
        Ok(Receiver::new(self.region.clone()))
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

    /// The transmitter's state, as an observer sees it (see [`crate::Ring::peer`]).
    pub fn transmitter_state(&self) -> PeerState {
        attach::peer_state(&self.region, Role::Producer, attach::HEARTBEAT_STALE_MS)
    }
}

/// The broadcast trailer's positions as a file holds them: `(tail_intent, tail, latest)`.
pub(crate) fn positions(region: &Region) -> (i64, i64, i64) {
    let latest = region.lv_latest(); // SYNC POINT: latest
    let tail = region.lv_broadcast_tail(); // SYNC POINT: broadcast-tail
    // Last: the transmitter stores the intent before the others, so it is never behind them.
    let intent = region.lv_tail_intent(); // SYNC POINT: tail-intent
    (intent, tail, latest)
}

/// Checks a broadcast trailer, at open and for each new receiver: every position non-negative,
/// 8-aligned and at most [`MAX_POSITION`], and neither the latest record nor the tail past the
/// tail intent (loaded last, see [`positions`]). Looser than a one-to-one ring's check: a live
/// transmitter moves all three between the loads; what a receiver then finds in the records is
/// checked as it reads them.
pub(crate) fn check_trailer(region: &Region) -> Result<(), RingError> {
    let (intent, tail, latest) = positions(region);
    let possible = |p: i64| (0..=MAX_POSITION).contains(&p) && p % RECORD_ALIGNMENT as i64 == 0;
    if [intent, tail, latest].into_iter().all(possible) && latest <= intent && tail <= intent {
        Ok(())
    } else {
        Err(RingError::CorruptRecord {
            position: latest,
            index: latest as usize & (region.capacity() - 1),
            corruption: Corruption::BadPositions { head: latest, tail },
        })
    }
}
