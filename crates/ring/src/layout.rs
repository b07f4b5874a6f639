//! The one descriptor of the ring file: every offset and size, mirrored by the Java
//! `RingDescriptor` and written down in `docs/ring-layout.md` (the canonical description).
//!
//! ```text
//!  0                                  4096                      4096 + capacity      + 768
//!  +----------------------------------+-------------------------+--------------------+
//!  | header page (ours)               | record area (capacity)  | trailer (768)      |
//!  +----------------------------------+-------------------------+--------------------+
//!                                     |<------------ Agrona ring region ------------>|
//! ```
//!
//! The record header, as Agrona's `RecordDescriptor` draws it (all integers little-endian):
//!
//! ```text
//!   0                   1                   2                   3
//!   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//!  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//!  |              Length (i32, this header included)               |
//!  +---------------------------------------------------------------+
//!  |                  Type (i32: >= 1 message, -1 padding)         |
//!  +---------------------------------------------------------------+
//!  |                       Encoded Message                        ...
//! ...                                                              |
//!  +---------------------------------------------------------------+
//!  A negative Length is a claim still being written; 0 is "nothing yet".
//! ```
//!
//! Every record starts at a multiple of [`RECORD_ALIGNMENT`]; its aligned length is
//! `align(Length, 8)`.

// ---- Header page (ours), bytes 0..HEADER_LENGTH ----------------------------------------------

/// The start of the header page every sympathy mapped file shares: [`HEADER_LENGTH`] bytes (the
/// Agrona ring region starts there), u64 magic at [`MAGIC_OFFSET`], u32 version at
/// [`LAYOUT_VERSION_OFFSET`], u32 `ready` at [`READY_OFFSET`] (0 while the creator writes the
/// header, [`READY`] once the file is complete, stored last with release).
pub use sympathy_mapped::header::{
    CONSTANTS as HEADER_CONSTANTS, HEADER_LENGTH, LAYOUT_VERSION_OFFSET, MAGIC_OFFSET, READY,
    READY_OFFSET,
};
/// The ASCII bytes `SYMPRING` read as a little-endian u64.
pub const MAGIC: u64 = 0x474E_4952_504D_5953;
/// The layout version of a one-to-one ring: what [`crate::Ring::create`] writes (so builds that
/// know no other kind read it) and the oldest this crate reads. Its header has no `kind` word.
pub const LAYOUT_VERSION: u32 = 1;
/// u64 capacity of the record area in bytes (a power of two).
pub const CAPACITY_OFFSET: usize = 16;
/// i32 largest payload in bytes: `capacity / 8`.
pub const MAX_MESSAGE_LENGTH_OFFSET: usize = 24;
/// u32 [`HEADER_LENGTH`], where the ring region starts.
pub const HEADER_LENGTH_OFFSET: usize = 28;
/// i64 creation time, ms since the Unix epoch.
pub const CREATION_TIME_OFFSET: usize = 32;
/// The layout version of the rings with a `kind` word at [`KIND_OFFSET`]: many-to-one and
/// broadcast rings are created with it (a build that reads only version 1 refuses them), and it
/// is the newest this crate reads.
pub const KIND_LAYOUT_VERSION: u32 = 2;
/// u32 the ring's kind in a version 2 header: [`KIND_ONE_TO_ONE`], [`KIND_MANY_TO_ONE`] or
/// [`KIND_BROADCAST`] (see [`Kind`]). Reserved (zero) in a version 1 header, whose ring is
/// one-to-one.
pub const KIND_OFFSET: usize = 40;
/// `kind`: one producer, one consumer (Agrona's `OneToOneRingBuffer`).
pub const KIND_ONE_TO_ONE: u32 = 1;
/// `kind`: producers in any number of processes, one consumer (Agrona's `ManyToOneRingBuffer`).
pub const KIND_MANY_TO_ONE: u32 = 2;
/// `kind`: one transmitter, receivers in any number of processes (Agrona's
/// `BroadcastTransmitter` and `BroadcastReceiver`).
pub const KIND_BROADCAST: u32 = 3;

/// i32 pid of the attached producer, 0 when none.
pub const PRODUCER_PID_OFFSET: usize = 128;
/// i64 the producer's last heartbeat, ms since the Unix epoch.
pub const PRODUCER_HEARTBEAT_OFFSET: usize = 136;
/// i64 the producer's heartbeat at its last clean detach, ms since the Unix epoch (0: never
/// detached). A heartbeat newer than this with no pid is a peer that does not use the header.
pub const PRODUCER_DETACHED_OFFSET: usize = 144;
/// i32 pid of the attached consumer, 0 when none.
pub const CONSUMER_PID_OFFSET: usize = 256;
/// i64 the consumer's heartbeat at its last clean detach, ms since the Unix epoch (0: never
/// detached). A consumer heartbeat newer than this with no pid is an Agrona-only consumer.
pub const CONSUMER_DETACHED_OFFSET: usize = 264;

// ---- Wake-up blocks (header page): the opt-in futex wait, see `docs/ring-layout.md` ---------
//
// Each side that may block in a futex wait has a block of two cache lines: the first holds only
// `armed` (read by the peer after every publish, written once per attachment, so it stays shared
// in the peer's cache); the second holds `waiting` and the futex word `wake_seq`, written around
// every sleep. All u32, naturally aligned; zero in a ring nobody waits on.

/// u32 1 while the consumer blocks with the futex wait (set before its first sleep, cleared when
/// it detaches): the producer then fences after each publish and looks at `consumer_waiting`.
pub const CONSUMER_WAKE_ARMED_OFFSET: usize = 512;
/// u32 1 while the consumer is in, or about to enter, a futex wait on `consumer_wake_seq`.
pub const CONSUMER_WAITING_OFFSET: usize = 576;
/// u32 the consumer's futex word: the producer increments it before each wake.
pub const CONSUMER_WAKE_SEQ_OFFSET: usize = 580;
/// u32 1 while the producer blocks with the futex wait on a full ring (see
/// [`CONSUMER_WAKE_ARMED_OFFSET`], the roles swapped: the consumer wakes it after releasing).
pub const PRODUCER_WAKE_ARMED_OFFSET: usize = 640;
/// u32 1 while the producer is in, or about to enter, a futex wait on `producer_wake_seq`.
pub const PRODUCER_WAITING_OFFSET: usize = 704;
/// u32 the producer's futex word: the consumer increments it before each wake.
pub const PRODUCER_WAKE_SEQ_OFFSET: usize = 708;

// ---- Trailer (Agrona RingBufferDescriptor), offsets from the trailer start -------------------

/// Bytes in the trailer: six pairs of 64-byte cache lines.
pub const TRAILER_LENGTH: usize = 768;
/// i64 tail position (bytes ever claimed by the producer).
pub const TAIL_POSITION_OFFSET: usize = 128;
/// i64 the producer's cached copy of the head position.
pub const HEAD_CACHE_POSITION_OFFSET: usize = 256;
/// i64 head position (bytes ever consumed).
pub const HEAD_POSITION_OFFSET: usize = 384;
/// i64 correlation id counter (Agrona's `nextCorrelationId`).
pub const CORRELATION_COUNTER_OFFSET: usize = 512;
/// i64 the consumer's last heartbeat, ms since the Unix epoch.
pub const CONSUMER_HEARTBEAT_OFFSET: usize = 640;

// ---- Broadcast trailer (Agrona BroadcastBufferDescriptor), offsets from the trailer start -----

/// Bytes in a broadcast ring's trailer: two cache lines (Agrona's `CACHE_LINE_LENGTH * 2`).
pub const BROADCAST_TRAILER_LENGTH: usize = 128;
/// i64 the position the transmitter's record in progress will end at: stored (release, then a
/// fence) before the record's bytes, so a receiver that copied a record checks that it was not
/// overwritten meanwhile (`cursor + capacity > tail_intent`).
pub const BROADCAST_TAIL_INTENT_OFFSET: usize = 0;
/// i64 the position just past the last complete record (release, after it).
pub const BROADCAST_TAIL_OFFSET: usize = 8;
/// i64 the position of the last complete record: where a new receiver joins, and where a
/// lapped one resumes.
pub const BROADCAST_LATEST_OFFSET: usize = 16;

// ---- Records (Agrona RecordDescriptor) --------------------------------------------------------

/// Bytes in a record header: i32 length then i32 type.
pub const RECORD_HEADER_LENGTH: usize = 8;
/// Every record starts at a multiple of this many bytes.
pub const RECORD_ALIGNMENT: usize = 8;
/// i32 record length (header included) within a record; negative while a claim is in progress.
pub const LENGTH_OFFSET: usize = 0;
/// i32 message type id within a record.
pub const TYPE_OFFSET: usize = 4;
/// The type id of a padding record (the skipped end of the area at wrap, or an aborted claim).
pub const PADDING_MSG_TYPE_ID: i32 = -1;

// ---- Limits of this implementation ----------------------------------------------------------

/// Smallest capacity accepted: room for a few records of the 8-byte maximum message.
pub const MIN_CAPACITY: usize = 64;
/// Largest capacity accepted: Agrona indexes the region with an `int`, so
/// `capacity + TRAILER_LENGTH` must stay below 2^31.
pub const MAX_CAPACITY: usize = 1 << 30;

/// Largest head or tail position a file may hold: 2^62 bytes ever written. A position past it
/// is refused as corrupt, so a hostile file cannot bring the positions near `i64::MAX`, where
/// the next record would overflow them; a producer writing 10 GB/s would need 14 years to get
/// here.
pub const MAX_POSITION: i64 = 1 << 62;

/// Largest payload for a capacity: `capacity / 8`, Agrona's `maxMsgLength`.
pub const fn max_message_length(capacity: usize) -> usize {
    capacity / 8
}

/// The exact file length of a one-to-one or many-to-one ring with this capacity (a broadcast
/// ring's is [`Kind::file_length`]).
pub const fn file_length(capacity: usize) -> usize {
    HEADER_LENGTH + capacity + TRAILER_LENGTH
}

/// The kinds of ring a file may hold: each has the same header page and record format; they
/// differ in their trailer and in who may write.
///
/// ```
/// use sympathy_ring::layout::{Kind, file_length};
/// assert_eq!(Kind::ManyToOne.file_length(4096), file_length(4096));
/// assert_eq!(Kind::Broadcast.file_length(4096), 4096 + 4096 + 128);
/// assert_eq!("mpsc".parse::<Kind>(), Ok(Kind::ManyToOne));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One producer, one consumer: `spsc`.
    OneToOne,
    /// Producers in any number of processes, one consumer: `mpsc`.
    ManyToOne,
    /// One transmitter, any number of receivers, none of which holds the transmitter back.
    Broadcast,
}

impl Kind {
    /// Every kind, in the order of their `kind` words.
    pub const ALL: [Kind; 3] = [Kind::OneToOne, Kind::ManyToOne, Kind::Broadcast];

    /// The `kind` word of a version 2 header.
    pub const fn word(self) -> u32 {
        match self {
            Kind::OneToOne => KIND_ONE_TO_ONE,
            Kind::ManyToOne => KIND_MANY_TO_ONE,
            Kind::Broadcast => KIND_BROADCAST,
        }
    }

    /// The kind of a `kind` word, if it names one.
    pub const fn from_word(word: u32) -> Option<Kind> {
        match word {
            KIND_ONE_TO_ONE => Some(Kind::OneToOne),
            KIND_MANY_TO_ONE => Some(Kind::ManyToOne),
            KIND_BROADCAST => Some(Kind::Broadcast),
            _ => None,
        }
    }

    /// The layout version a ring of this kind is created with.
    pub const fn layout_version(self) -> u32 {
        match self {
            Kind::OneToOne => LAYOUT_VERSION,
            Kind::ManyToOne | Kind::Broadcast => KIND_LAYOUT_VERSION,
        }
    }

    /// Bytes after the record area.
    pub const fn trailer_length(self) -> usize {
        match self {
            Kind::OneToOne | Kind::ManyToOne => TRAILER_LENGTH,
            Kind::Broadcast => BROADCAST_TRAILER_LENGTH,
        }
    }

    /// The exact file length of a ring of this kind and capacity.
    pub const fn file_length(self, capacity: usize) -> usize {
        HEADER_LENGTH + capacity + self.trailer_length()
    }

    /// The short name the command lines take and print: `spsc`, `mpsc`, `broadcast`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::OneToOne => "spsc",
            Kind::ManyToOne => "mpsc",
            Kind::Broadcast => "broadcast",
        }
    }

    /// The name in messages: `one-to-one (spsc)`, `many-to-one (mpsc)`, `broadcast`.
    pub const fn description(self) -> &'static str {
        match self {
            Kind::OneToOne => "one-to-one (spsc)",
            Kind::ManyToOne => "many-to-one (mpsc)",
            Kind::Broadcast => "broadcast",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Kind {
    type Err = String;

    fn from_str(text: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| format!("unknown ring kind '{text}'; expected spsc, mpsc or broadcast"))
    }
}

/// `length` rounded up to [`RECORD_ALIGNMENT`].
#[inline]
pub const fn align_record(length: usize) -> usize {
    (length + RECORD_ALIGNMENT - 1) & !(RECORD_ALIGNMENT - 1)
}

/// Whether `capacity` is a power of two within [`MIN_CAPACITY`]..=[`MAX_CAPACITY`].
pub const fn is_valid_capacity(capacity: usize) -> bool {
    capacity.is_power_of_two() && capacity >= MIN_CAPACITY && capacity <= MAX_CAPACITY
}

/// A record header as the one little-endian i64 at the record's start: the length in the low
/// half (bytes 0..4) and the type in the high half (bytes 4..8).
#[inline]
pub const fn pack_header(length: i32, type_id: i32) -> i64 {
    ((length as u32 as u64) | ((type_id as u32 as u64) << 32)) as i64
}

/// The `(length, type)` of a packed record header.
#[inline]
pub const fn unpack_header(header: i64) -> (i32, i32) {
    (header as i32, (header >> 32) as i32)
}

/// Every constant of the ring's own as `(NAME, value)` (the header prefix's are
/// [`HEADER_CONSTANTS`]), in the order `sympathy ring layout` prints them after those (the Java
/// parity test compares these lines).
pub const CONSTANTS: &[(&str, i128)] = &sympathy_mapped::named_constants![
    MAGIC,
    LAYOUT_VERSION,
    CAPACITY_OFFSET,
    MAX_MESSAGE_LENGTH_OFFSET,
    HEADER_LENGTH_OFFSET,
    CREATION_TIME_OFFSET,
    PRODUCER_PID_OFFSET,
    PRODUCER_HEARTBEAT_OFFSET,
    PRODUCER_DETACHED_OFFSET,
    CONSUMER_PID_OFFSET,
    CONSUMER_DETACHED_OFFSET,
    CONSUMER_WAKE_ARMED_OFFSET,
    CONSUMER_WAITING_OFFSET,
    CONSUMER_WAKE_SEQ_OFFSET,
    PRODUCER_WAKE_ARMED_OFFSET,
    PRODUCER_WAITING_OFFSET,
    PRODUCER_WAKE_SEQ_OFFSET,
    TRAILER_LENGTH,
    TAIL_POSITION_OFFSET,
    HEAD_CACHE_POSITION_OFFSET,
    HEAD_POSITION_OFFSET,
    CORRELATION_COUNTER_OFFSET,
    CONSUMER_HEARTBEAT_OFFSET,
    RECORD_HEADER_LENGTH,
    RECORD_ALIGNMENT,
    LENGTH_OFFSET,
    TYPE_OFFSET,
    PADDING_MSG_TYPE_ID,
    MIN_CAPACITY,
    MAX_CAPACITY,
    MAX_POSITION,
    KIND_LAYOUT_VERSION,
    KIND_OFFSET,
    KIND_ONE_TO_ONE,
    KIND_MANY_TO_ONE,
    KIND_BROADCAST,
    BROADCAST_TRAILER_LENGTH,
    BROADCAST_TAIL_INTENT_OFFSET,
    BROADCAST_TAIL_OFFSET,
    BROADCAST_LATEST_OFFSET,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache_line::CACHE_LINE;

    #[test]
    fn magic_spells_sympring() {
        assert_eq!(&MAGIC.to_le_bytes(), b"SYMPRING");
    }

    #[test]
    fn trailer_matches_agrona_cache_line_pairs() {
        // Agrona: each trailer field sits CACHE_LINE_LENGTH * 2 = 128 bytes after the previous.
        let fields = [
            TAIL_POSITION_OFFSET,
            HEAD_CACHE_POSITION_OFFSET,
            HEAD_POSITION_OFFSET,
            CORRELATION_COUNTER_OFFSET,
            CONSUMER_HEARTBEAT_OFFSET,
            TRAILER_LENGTH,
        ];
        for (i, offset) in fields.iter().enumerate() {
            assert_eq!(*offset, 128 * (i + 1));
        }
    }

    #[test]
    fn wake_blocks_fit_their_allocation_and_split_armed_from_waiting() {
        let consumer = [
            CONSUMER_WAKE_ARMED_OFFSET,
            CONSUMER_WAITING_OFFSET,
            CONSUMER_WAKE_SEQ_OFFSET,
        ];
        let producer = [
            PRODUCER_WAKE_ARMED_OFFSET,
            PRODUCER_WAITING_OFFSET,
            PRODUCER_WAKE_SEQ_OFFSET,
        ];
        for (block, fields) in [(512..640, consumer), (640..768, producer)] {
            for offset in fields {
                assert!(block.contains(&offset) && block.contains(&(offset + 3)));
                assert_eq!(offset % 4, 0, "a futex word is 4-aligned");
            }
            // `armed` alone on its cache line: sleeps do not evict it from the waker's cache.
            assert_ne!(fields[0] / CACHE_LINE, fields[1] / CACHE_LINE);
            assert_eq!(fields[1] / CACHE_LINE, fields[2] / CACHE_LINE);
        }
    }

    #[test]
    fn header_packs_length_low_type_high() {
        let h = pack_header(24, -1);
        assert_eq!(h.to_le_bytes(), [24, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(unpack_header(h), (24, -1));
        assert_eq!(unpack_header(pack_header(-16, 7)), (-16, 7));
    }

    #[test]
    fn align_rounds_up_to_eight() {
        assert_eq!(
            [0, 1, 8, 9, 12, 16].map(align_record),
            [0, 8, 8, 16, 16, 16]
        );
    }

    #[test]
    fn capacity_must_be_power_of_two_in_range() {
        assert!(is_valid_capacity(64));
        assert!(is_valid_capacity(1 << 20));
        assert!(!is_valid_capacity(96));
        assert!(!is_valid_capacity(32));
        assert!(!is_valid_capacity(1 << 31));
    }
}
