//! Agrona-compatible rings of variable-length records in a memory-mapped file, so that processes
//! in different languages exchange messages at memory speed: a single-producer, single-consumer
//! [`Ring`] (Agrona's `OneToOneRingBuffer`, Aeron's `aeron_spsc_rb`), a [`ManyToOneRing`]
//! (producers in any number of processes; Agrona's `ManyToOneRingBuffer`, Aeron's
//! `aeron_mpsc_rb`) and a [`BroadcastRing`] (one transmitter, any number of receivers; Agrona's
//! broadcast buffer). The file format is `docs/ring-layout.md`.
//!
//! ```
//! use sympathy_ring::Ring;
//! let path = std::env::temp_dir().join(format!("doc-ring-{}", std::process::id()));
//! # let _ = std::fs::remove_file(&path);
//! let ring = Ring::create(&path, 4096)?;          // or Ring::open(&path) in the peer process
//! let mut producer = ring.producer()?;
//! let mut consumer = Ring::open(&path)?.consumer()?;
//! producer.try_write(1, b"ping")?;                 // Err(RingError::Full) is back pressure
//! let mut claim = producer.try_claim(2, 4)?;       // zero-copy: fill in place, then commit
//! claim.copy_from_slice(b"pong");
//! claim.commit();
//! let mut seen = Vec::new();
//! consumer.read(|type_id, payload| seen.push((type_id, payload.to_vec())), 16)?;
//! assert_eq!(seen, [(1, b"ping".to_vec()), (2, b"pong".to_vec())]);
//! # drop((producer, consumer, ring)); std::fs::remove_file(&path).unwrap();
//! # Ok::<(), sympathy_ring::RingError>(())
//! ```
//!
//! The public items:
//! - [`Ring`]: `create`, `open`, `anonymous`; hands out the one [`Producer`] and [`Consumer`].
//! - [`Producer`]: `try_write`, `try_claim` → [`Claim`] (`commit`/`abort`, dropping aborts),
//!   `batch` → [`Batch`], `try_write_batch`, `write` (waiting), heartbeat and `peer_alive`.
//!   With the `bindings` feature (for language bindings such as the JNI library), also
//!   `try_claim_detached` → `DetachedClaim`, a claim that outlives the call that made it, and
//!   `record_area`, the bytes such a claim is filled through.
//! - [`Consumer`]: `read(handler, limit)` (zero-copy, one head release per batch),
//!   `read_controlled` (a handler that returns an [`Action`]: continue, break, or abort and leave
//!   the message at the head), `try_read_one`, `read_wait`, `read_controlled_wait`, heartbeat
//!   and `peer_alive`.
//! - [`Wait`] / [`Strategy`]: busy-spin, spin-then-yield, backoff-then-park, or an idle wait
//!   that sleeps in a futex and is woken by the peer (opt-in), with a timeout.
//! - [`ManyToOneRing`]: `producer` (any number: [`ManyToOneProducer`], `try_write`, `try_claim`
//!   → [`ManyToOneClaim`]) and the one [`ManyToOneConsumer`] (reads, `unblock` of a dead claim).
//! - [`BroadcastRing`]: the one [`Transmitter`] and any number of [`Receiver`]s (copies out,
//!   counts laps).
//! - [`RingError`]: every failure, typed; [`PeerState`]: what a side knows of its peer.
//! - [`layout`]: the descriptor of every offset; [`pattern`]: the cross-language test messages;
//!   [`inspect`]: read-only snapshots for tools.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

mod attach;
mod broadcast;
mod cache_line;
mod consumer;
mod error;
mod futex;
pub mod inspect;
pub mod layout;
#[cfg(all(test, loom))]
mod loom_family;
#[cfg(all(test, loom))]
mod loom_model;
mod many_to_one;
mod open;
pub mod pattern;
mod positions;
mod primitive;
mod producer;
mod region;
mod ring;
mod short_bytes;

mod wait;
mod wake;

pub use attach::{HEARTBEAT_STALE_MS, PeerState, now_ms, pid_alive};
pub use broadcast::{BroadcastRing, Receiver, Transmitter};
pub use consumer::{Action, Consumer};
pub use error::{Corruption, RingError, Role};
pub use many_to_one::{
    DEFAULT_UNBLOCK_AFTER, ManyToOneClaim, ManyToOneConsumer, ManyToOneProducer, ManyToOneRing,
};
pub use producer::Producer;
pub use producer::batch::Batch;
pub use producer::claim::Claim;
#[cfg(feature = "bindings")]
pub use producer::detached::DetachedClaim;
pub use ring::{DEFAULT_OPEN_TIMEOUT, Ring};
pub use sympathy_mapped::FileError;
pub use wait::{Strategy, Wait};
pub use wake::WakeState;

/// The crate README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
