//! The `queue` experiment: single-producer/single-consumer queues moving the sequence
//! `0..count` from one pinned thread (or process) to another, in messages per second.
//!
//! Variants ([`Variant`]): Martin Thompson's P1C1 queue (`sympathy-queue`) on the heap
//! (`p1c1`), carrying pointers to boxed values (`p1c1-boxed`), with batches (`p1c1-batch`), in
//! an anonymous mapping (`p1c1-offheap`) and in a file shared by two processes (`p1c1-ipc`);
//! the queue that checks the slot instead of the other side's counter ([`fastflow()`]); baselines
//! `rtrb`, `crossbeam-array-queue` and `std-sync-channel`. Placements ([`Placement`]):
//! `cross-core` and `same-core`.
//!
//! Every run is verified: the consumer compares each value with its position in the sequence
//! and checks that nothing follows the last; a failure is an error, not a result.

mod fastflow;
mod ipc;
mod message;
mod pair;
mod variants;

use std::time::Duration;

use sympathy_queue::{MemoryKind, QueueError};
use thiserror::Error;

use sympathy_harness::environmental::Classify;
use sympathy_harness::pin::{PinError, available_cores};

pub use fastflow::{FastFlowConsumer, FastFlowProducer, fastflow};
pub use ipc::{IpcPeer, PeerLaunch, consume_in_peer};
pub use message::{ElementKind, Message, Tick};
pub use pair::{Transfer, Waiter, timed_pair};
use sympathy_ring::layout;
pub use variants::{BATCH, BOX_POOL};

/// Why a queue run failed.
#[derive(Debug, Error)]
pub enum QueueRunError {
    /// A thread could not be pinned.
    #[error(transparent)]
    Pin(PinError),
    /// The other thread of the pair could not be pinned (its error is reported instead).
    #[error("the peer thread could not be pinned")]
    PeerPinFailed,
    /// The placement needs more cores than this process may use.
    #[error(
        "placement cross-core needs two cores but this process may use only {available:?}; \
         use --placement same-core"
    )]
    NotEnoughCores {
        /// The cores available.
        available: Vec<usize>,
    },
    /// The P1C1 queue could not be built.
    #[error(transparent)]
    Queue(#[from] QueueError),
    /// The record ring could not be built, or reported a corrupt record.
    #[error(transparent)]
    Ring(#[from] sympathy_ring::RingError),
    /// The consumer saw a value other than the next in the sequence.
    #[error("value at position {position} was {found}, expected {expected}: lost or reordered")]
    OutOfOrder {
        /// Position in the sequence.
        position: u64,
        /// The value expected there.
        expected: String,
        /// The value received.
        found: String,
    },
    /// A batch held a value out of sequence.
    #[error(
        "the batch of {len} values from position {first} was not the sequence: lost or reordered"
    )]
    OutOfOrderInBatch {
        /// Position of the batch's first value.
        first: u64,
        /// Values in the batch.
        len: u64,
    },
    /// A value arrived after the last one sent.
    #[error("a value {found} arrived after all {count} values: duplicated")]
    ExtraValue {
        /// Values sent.
        count: u64,
        /// The extra value.
        found: String,
    },
    /// The run was stopped by its peer's failure.
    #[error("the run was aborted after {received} values")]
    Aborted {
        /// Values received before the abort.
        received: u64,
    },
    /// The peer process of `p1c1-ipc` failed.
    #[error("p1c1-ipc: {0}")]
    Peer(String),
}

impl Classify for QueueRunError {
    /// A pin that did not take (this thread's or the peer's) is the machine's doing; a lost or
    /// reordered value never is.
    fn is_environmental(&self) -> bool {
        match self {
            QueueRunError::Pin(pin) => pin.is_environmental(),
            QueueRunError::PeerPinFailed => true,
            _ => false,
        }
    }
}

/// Where the producer and the consumer run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placement {
    /// On two different cores, each pinned: the values cross between caches.
    CrossCore,
    /// Both pinned to one core: they take turns (time slicing), yielding when they must wait.
    SameCore,
}

impl Placement {
    /// Both placements.
    pub const ALL: [Placement; 2] = [Placement::CrossCore, Placement::SameCore];

    /// Name in `params.placement`.
    pub fn name(self) -> &'static str {
        match self {
            Placement::CrossCore => "cross-core",
            Placement::SameCore => "same-core",
        }
    }

    /// Parses a name from [`Placement::name`].
    ///
    /// # Errors
    /// A message listing the valid names.
    pub fn parse(text: &str) -> Result<Placement, String> {
        Placement::ALL
            .into_iter()
            .find(|p| p.name() == text)
            .ok_or_else(|| format!("unknown placement '{text}'; use cross-core or same-core"))
    }

    /// The cores for this placement: the first two available cores, or the first one twice.
    ///
    /// # Errors
    /// [`QueueRunError::NotEnoughCores`] for cross-core on a single available core.
    pub fn cores(self) -> Result<Cores, QueueRunError> {
        let available = available_cores();
        match (self, available.as_slice()) {
            (Placement::CrossCore, [a, b, ..]) => Ok(Cores {
                producer: *a,
                consumer: *b,
            }),
            (Placement::SameCore, [a, ..]) => Ok(Cores {
                producer: *a,
                consumer: *a,
            }),
            _ => Err(QueueRunError::NotEnoughCores { available }),
        }
    }
}

/// The cores the producer and the consumer are pinned to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cores {
    /// The producer's core.
    pub producer: usize,
    /// The consumer's core.
    pub consumer: usize,
}

/// A queue implementation under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// P1C1 on the heap, single offer/poll.
    P1c1,
    /// P1C1 on the heap carrying a pointer to a pooled `Box` per value, single offer/poll.
    P1c1Boxed,
    /// P1C1 on the heap, batches of up to [`BATCH`] with one publish each.
    P1c1Batch,
    /// P1C1 in an anonymous mapping (off the heap), single offer/poll.
    P1c1Offheap,
    /// P1C1 in a file mapped by two processes, single offer/poll.
    P1c1Ipc,
    /// The slot-checking queue with look-ahead ([`fastflow()`]), single offer/poll.
    Fastflow,
    /// `rtrb::RingBuffer`.
    Rtrb,
    /// `crossbeam_queue::ArrayQueue`.
    CrossbeamArrayQueue,
    /// `std::sync::mpsc::sync_channel`.
    StdSyncChannel,
    /// The Agrona-compatible record ring (`sympathy-ring`) in one process, over anonymous
    /// memory: one record per element, the consumer reading batches.
    Ring,
}

sympathy_harness::catalog_variant!(Variant, "queue");

impl Variant {
    /// Every variant, in report order.
    pub const ALL: [Variant; 10] = [
        Variant::P1c1,
        Variant::P1c1Boxed,
        Variant::P1c1Batch,
        Variant::P1c1Offheap,
        Variant::P1c1Ipc,
        Variant::Fastflow,
        Variant::Rtrb,
        Variant::CrossbeamArrayQueue,
        Variant::StdSyncChannel,
        Variant::Ring,
    ];

    /// Name in results and benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Variant::P1c1 => "p1c1",
            Variant::P1c1Boxed => "p1c1-boxed",
            Variant::P1c1Batch => "p1c1-batch",
            Variant::P1c1Offheap => "p1c1-offheap",
            Variant::P1c1Ipc => "p1c1-ipc",
            Variant::Fastflow => "fastflow",
            Variant::Rtrb => "rtrb",
            Variant::CrossbeamArrayQueue => "crossbeam-array-queue",
            Variant::StdSyncChannel => "std-sync-channel",
            Variant::Ring => "ring",
        }
    }

    /// Most elements the consumer takes per read before it releases their slots (the `batch`
    /// parity fact): [`BATCH`] for the batch reader and the record ring, else 1.
    pub fn batch(self) -> usize {
        match self {
            Variant::P1c1Batch | Variant::Ring => BATCH,
            _ => 1,
        }
    }

    /// Bytes one element of `element` occupies in the slots the two threads share (the
    /// `slot_bytes` parity fact): the element itself; a pointer to its box (`p1c1-boxed`); a
    /// 4-byte flag beside it, aligned (`fastflow`); an 8-byte record header before it, the
    /// record aligned to 8 (`ring`).
    ///
    /// ```
    /// use sympathy_lab::queue::{ElementKind, Variant};
    /// assert_eq!(Variant::P1c1.slot_bytes(ElementKind::U32), 4);
    /// assert_eq!(Variant::Fastflow.slot_bytes(ElementKind::U32), 8);
    /// assert_eq!(Variant::Ring.slot_bytes(ElementKind::U32), 16);
    /// assert_eq!(Variant::P1c1Boxed.slot_bytes(ElementKind::U32), 8);
    /// ```
    pub fn slot_bytes(self, element: ElementKind) -> usize {
        let bytes = element.bytes();
        match self {
            Variant::P1c1Boxed => size_of::<usize>(),
            Variant::Fastflow => (size_of::<u32>() + bytes).next_multiple_of(bytes.max(4)),
            Variant::Ring => {
                (layout::RECORD_HEADER_LENGTH + bytes).next_multiple_of(layout::RECORD_ALIGNMENT)
            }
            _ => bytes,
        }
    }
}

/// One transfer to measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueRun {
    /// The queue.
    pub variant: Variant,
    /// The element type.
    pub element: ElementKind,
    /// Where producer and consumer run.
    pub placement: Placement,
    /// Values to move.
    pub count: u64,
    /// Slots in the queue (a power of two for the P1C1 variants).
    pub capacity: usize,
}

impl QueueRun {
    /// Moves `count` values and returns the time it took; the consumer verified every value.
    ///
    /// # Errors
    /// [`QueueRunError`]: pinning, building the queue, or a failed verification.
    pub fn run(&self, launch: &PeerLaunch) -> Result<Duration, QueueRunError> {
        match self.element {
            ElementKind::U32 => self.run_typed::<u32>(launch),
            ElementKind::U64 => self.run_typed::<u64>(launch),
            ElementKind::Tick => self.run_typed::<Tick>(launch),
        }
    }

    fn run_typed<M: Message>(&self, launch: &PeerLaunch) -> Result<Duration, QueueRunError> {
        let t = Transfer {
            placement: self.placement,
            cores: self.placement.cores()?,
            count: self.count,
            capacity: self.capacity,
        };
        match self.variant {
            Variant::P1c1 => variants::p1c1::<M>(MemoryKind::Heap, t),
            Variant::P1c1Boxed => variants::p1c1_boxed::<M>(t),
            Variant::P1c1Batch => variants::p1c1_batch::<M>(t),
            Variant::P1c1Offheap => variants::p1c1::<M>(MemoryKind::Anonymous, t),
            Variant::P1c1Ipc => ipc::p1c1_ipc::<M>(self.element, t, launch),
            Variant::Fastflow => variants::fastflow::<M>(t),
            Variant::Rtrb => variants::rtrb::<M>(t),
            Variant::CrossbeamArrayQueue => variants::crossbeam_array_queue::<M>(t),
            Variant::StdSyncChannel => variants::std_sync_channel::<M>(t),
            Variant::Ring => variants::ring::<M>(t),
        }
    }
}

#[cfg(test)]
mod tests;
