//! Read-only views of a ring for tools (`sympathy ring inspect`): header, trailer, positions and
//! the records waiting at the head, decoded without consuming them.
//!
//! [`RingView::open`] needs only read permission: it opens the file `O_RDONLY`, maps it
//! privately, never attaches and never writes (the same views are on [`Ring`] for a process
//! that has the ring open anyway).
//!
//! ```
//! use sympathy_ring::{Ring, inspect::RingView};
//! let path = std::env::temp_dir().join(format!("doc-view-{}", std::process::id()));
//! # let _ = std::fs::remove_file(&path);
//! let ring = Ring::create(&path, 1024)?;
//! ring.producer()?.try_write(1, b"hi")?;
//! let view = RingView::open(&path)?; // works on a file this user may only read
//! assert_eq!(view.snapshot().tail, 16);
//! assert_eq!(view.peek_records(8)[0].payload_prefix, b"hi");
//! # drop(ring); std::fs::remove_file(&path).unwrap();
//! # Ok::<(), sympathy_ring::RingError>(())
//! ```

use std::path::Path;
use std::time::Duration;

use crate::attach::{self, PeerState};
use crate::error::{RingError, Role};
use crate::layout::*;
use crate::open::{Access, open_region};
use crate::positions::check_trailer;
use crate::region::Region;
use crate::ring::{DEFAULT_OPEN_TIMEOUT, Ring};

/// A ring file opened for looking only: read-only descriptor, private mapping, no attach.
pub struct RingView {
    region: Region,
}

impl std::fmt::Debug for RingView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RingView")
            .field("path", &self.region.path())
            .field("capacity", &self.region.capacity())
            .finish()
    }
}

impl RingView {
    /// Opens a ring file read-only, waiting up to [`DEFAULT_OPEN_TIMEOUT`] for its creator.
    ///
    /// # Errors
    /// See [`RingView::open_with_timeout`].
    pub fn open(path: impl AsRef<Path>) -> Result<RingView, RingError> {
        RingView::open_with_timeout(path, DEFAULT_OPEN_TIMEOUT)
    }

    /// Opens a ring file read-only: the header checks of [`Ring::open_with_timeout`] (regular
    /// file, `ready`, magic, version, capacity, length, derived header fields), but not the
    /// positions, which a tool shows as they are ([`RingView::positions_error`] says what is
    /// wrong with them).
    ///
    /// # Errors
    /// As [`Ring::open_with_timeout`], except [`RingError::CorruptRecord`];
    /// [`RingError::PermissionDenied`] only when the file is not readable.
    pub fn open_with_timeout(
        path: impl AsRef<Path>,
        timeout: Duration,
    ) -> Result<RingView, RingError> {
        let region = open_region(path.as_ref(), timeout, Access::ReadOnly)?;
        Ok(RingView { region })
    }

    /// The header and trailer fields now.
    pub fn snapshot(&self) -> Snapshot {
        snapshot(&self.region)
    }

    /// Up to `max` records from the head (a broadcast ring's: from its latest record); see
    /// [`Ring::peek_records`].
    pub fn peek_records(&self, max: usize) -> Vec<RecordView> {
        peek_records(&self.region, max)
    }

    /// Why the head and tail in the trailer are impossible (the error [`Ring::open`] would
    /// give), or `None` when they are valid.
    pub fn positions_error(&self) -> Option<RingError> {
        if self.region.kind() == Kind::Broadcast {
            return crate::broadcast::check_trailer(&self.region).err();
        }
        // SYNC POINT: head, SYNC POINT: tail
        check_trailer(&self.region, self.region.lv_head(), self.region.lv_tail()).err()
    }

    /// The kind of ring the file holds.
    pub fn kind(&self) -> Kind {
        self.region.kind()
    }

    /// Bytes in the record area.
    pub fn capacity(&self) -> usize {
        self.region.capacity()
    }
}

/// The header page and trailer as they are now.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// Magic (`MAGIC` for a ring).
    pub magic: u64,
    /// Layout version.
    pub layout_version: u32,
    /// The `ready` word (1 once created).
    pub ready: u32,
    /// Bytes in the record area.
    pub capacity: u64,
    /// Largest payload.
    pub max_message_length: i32,
    /// Where the ring region starts.
    pub header_length: u32,
    /// Creation time, ms since the epoch.
    pub creation_time_ms: i64,
    /// Producer pid (0 when none).
    pub producer_pid: i32,
    /// Producer heartbeat, ms since the epoch.
    pub producer_heartbeat_ms: i64,
    /// The producer's heartbeat at its last clean detach (0: never detached).
    pub producer_detached_ms: i64,
    /// Consumer pid (0 when none).
    pub consumer_pid: i32,
    /// Consumer heartbeat (Agrona trailer slot), ms since the epoch.
    pub consumer_heartbeat_ms: i64,
    /// The consumer's heartbeat at its last clean detach (0: never detached).
    pub consumer_detached_ms: i64,
    /// Tail position.
    pub tail: i64,
    /// Head position.
    pub head: i64,
    /// The producer's cached head.
    pub head_cache: i64,
    /// Correlation counter.
    pub correlation_counter: i64,
    /// The producer's state.
    pub producer: PeerState,
    /// The consumer's state.
    pub consumer: PeerState,
    /// The kind of ring. A broadcast ring has no head, head cache, correlation counter or
    /// consumer (those fields are 0, its tail is `tail`): its trailer is
    /// [`Snapshot::broadcast`].
    pub kind: Kind,
    /// A broadcast ring's trailer; `None` for the other kinds.
    pub broadcast: Option<BroadcastTrailer>,
}

/// A broadcast ring's trailer positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BroadcastTrailer {
    /// Where the record being written will end (or the last one ended).
    pub tail_intent: i64,
    /// Past the last complete record.
    pub tail: i64,
    /// The last complete record: where a new receiver joins.
    pub latest: i64,
}

/// One record found walking from the head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordView {
    /// Stream position.
    pub position: i64,
    /// Index in the record area.
    pub index: usize,
    /// The length field (header included; negative for a claim in progress, 0 for none).
    pub length: i32,
    /// The type field.
    pub type_id: i32,
    /// Up to the first 32 payload bytes.
    pub payload_prefix: Vec<u8>,
}

impl Ring {
    /// The header and trailer fields now.
    pub fn snapshot(&self) -> Snapshot {
        snapshot(self.region())
    }

    /// Up to `max` records from the head (padding included), stopping at the first header that
    /// is not a complete, valid record; that header is included so a tool can show why.
    pub fn peek_records(&self, max: usize) -> Vec<RecordView> {
        peek_records(self.region(), max)
    }
}

fn snapshot(r: &Region) -> Snapshot {
    if r.kind() == Kind::Broadcast {
        return broadcast_snapshot(r);
    }
    Snapshot {
        magic: r.lp_magic(),
        layout_version: r.lp_version(),
        ready: r.lv_ready(),
        capacity: r.lp_capacity(),
        max_message_length: r.lp_max_message_length(),
        header_length: r.lp_header_length(),
        creation_time_ms: r.lp_creation_time(),
        producer_pid: r.lv_pid(true),
        producer_heartbeat_ms: r.lv_heartbeat(true),
        producer_detached_ms: r.lv_detached(true),
        consumer_pid: r.lv_pid(false),
        consumer_heartbeat_ms: r.lv_heartbeat(false),
        consumer_detached_ms: r.lv_detached(false),
        tail: r.lv_tail(), // SYNC POINT: tail
        head: r.lv_head(), // SYNC POINT: head
        head_cache: r.lp_head_cache(),
        correlation_counter: r.lp_correlation_counter(),
        producer: attach::peer_state(r, Role::Producer, attach::HEARTBEAT_STALE_MS),
        consumer: attach::peer_state(r, Role::Consumer, attach::HEARTBEAT_STALE_MS),
        kind: r.kind(),
        broadcast: None,
    }
}

/// [`snapshot`] of a broadcast ring, whose trailer has none of the ring trailer's words.
fn broadcast_snapshot(r: &Region) -> Snapshot {
    let (tail_intent, tail, latest) = crate::broadcast::positions(r);
    Snapshot {
        magic: r.lp_magic(),
        layout_version: r.lp_version(),
        ready: r.lv_ready(),
        capacity: r.lp_capacity(),
        max_message_length: r.lp_max_message_length(),
        header_length: r.lp_header_length(),
        creation_time_ms: r.lp_creation_time(),
        producer_pid: r.lv_pid(true),
        producer_heartbeat_ms: r.lv_heartbeat(true),
        producer_detached_ms: r.lv_detached(true),
        consumer_pid: 0,
        consumer_heartbeat_ms: 0,
        consumer_detached_ms: 0,
        tail,
        head: 0,
        head_cache: 0,
        correlation_counter: 0,
        producer: attach::peer_state(r, Role::Producer, attach::HEARTBEAT_STALE_MS),
        consumer: PeerState::NeverAttached,
        kind: Kind::Broadcast,
        broadcast: Some(BroadcastTrailer {
            tail_intent,
            tail,
            latest,
        }),
    }
}

fn peek_records(r: &Region, max: usize) -> Vec<RecordView> {
    let capacity = r.capacity();
    let (mut position, tail) = match r.kind() {
        // From the latest record: older ones may be overwritten at any time.
        // SYNC POINT: latest, SYNC POINT: broadcast-tail
        Kind::Broadcast => (r.lv_latest(), r.lv_broadcast_tail()),
        // SYNC POINT: head, SYNC POINT: tail
        Kind::OneToOne | Kind::ManyToOne => (r.lv_head(), r.lv_tail()),
    };
    let mut out = Vec::new();
    if !(0..=MAX_POSITION).contains(&position) || position % RECORD_ALIGNMENT as i64 != 0 {
        return out; // impossible: positions_error / Ring::open say why
    }
    while out.len() < max {
        let index = position as usize & (capacity - 1);
        let (length, type_id) = unpack_header(r.lv_record(index));
        let valid = length >= RECORD_HEADER_LENGTH as i32
            && align_record(length as usize) <= capacity - index;
        let shown = if valid {
            (length as usize - RECORD_HEADER_LENGTH).min(32)
        } else {
            0
        };
        let mut payload_prefix = vec![0; shown];
        r.copy_out(index + RECORD_HEADER_LENGTH, &mut payload_prefix);
        out.push(RecordView {
            position,
            index,
            length,
            type_id,
            payload_prefix,
        });
        if !valid || (type_id < 1 && type_id != PADDING_MSG_TYPE_ID) {
            break;
        }
        position += align_record(length as usize) as i64;
        if position >= tail {
            break;
        }
    }
    out
}
