//! The waits of a process whose peer is late, shared by the cross-process experiments: a
//! producer facing a full ring ([`FullRing`]) and a consumer facing an empty one
//! ([`EmptyRing`]). The loop calls `idle` after each poll that moved nothing; every 65,536 such
//! polls the wait does its slow checks (out of line, so the loop around it stays as it was):
//! it beats the heartbeat, and fails when the peer is gone or nothing moved for two minutes.
//!
//! ```ignore
//! let mut full = FullRing::new("consumer");
//! while sent < count {
//!     let before = sent;
//!     // ... write what fits ...
//!     if sent == before {
//!         full.idle(&mut producer, sent)?;
//!     }
//! }
//! ```

use std::process::Child;
use std::time::{Duration, Instant};

use sympathy_ring::{Consumer, Producer, RingError, Role};

use super::PeerError;

/// How long a ring may stay full, or empty with its writer alive, before the wait fails.
const NO_PROGRESS_LIMIT: Duration = Duration::from_secs(120);

/// Idle polls between two rounds of slow checks.
const CHECK_EVERY: u32 = 1 << 16;

/// Watches a loop that waits on its peer: [`Progress::stalled`] says whether the count it is
/// shown has stood still for longer than a limit.
pub(crate) struct Progress {
    seen: u64,
    since: Instant,
}

impl Progress {
    pub(crate) fn new() -> Progress {
        Progress {
            seen: 0,
            since: Instant::now(),
        }
    }

    /// Whether `count` has not moved for `limit` (call it now and then while waiting).
    pub(crate) fn stalled(&mut self, count: u64, limit: Duration) -> bool {
        if count != self.seen {
            self.seen = count;
            self.since = Instant::now();
            return false;
        }
        self.since.elapsed() > limit
    }
}

/// A producer's wait while the ring is full.
pub(crate) struct FullRing {
    idle: u32,
    progress: Progress,
    /// Who reads the ring, for the message: `consumer`, `receiver`.
    reader: &'static str,
}

impl FullRing {
    pub(crate) fn new(reader: &'static str) -> FullRing {
        FullRing {
            idle: 0,
            progress: Progress::new(),
            reader,
        }
    }

    /// One poll that wrote nothing, `sent` messages so far.
    ///
    /// # Errors
    /// The consumer is gone, or the ring stayed full for [`NO_PROGRESS_LIMIT`].
    #[inline]
    pub(crate) fn idle(&mut self, producer: &mut Producer, sent: u64) -> Result<(), PeerError> {
        self.idle = self.idle.wrapping_add(1);
        if self.idle.is_multiple_of(CHECK_EVERY) {
            self.check(producer, sent)?;
        }
        std::hint::spin_loop();
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, producer: &mut Producer, sent: u64) -> Result<(), PeerError> {
        producer.heartbeat();
        if let Some(e) = RingError::peer_gone(producer.peer(), Role::Consumer) {
            return Err(e.into());
        }
        if self.progress.stalled(sent, NO_PROGRESS_LIMIT) {
            return Err(PeerError::Peer(format!(
                "the ring stayed full for {NO_PROGRESS_LIMIT:?} ({} stuck?)",
                self.reader
            )));
        }
        Ok(())
    }
}

/// A consumer's wait while the ring is empty, watching the writer's process where it has one.
pub(crate) struct EmptyRing {
    idle: u32,
    exited: bool,
    progress: Progress,
    /// Who writes the ring, for the message: `producer`, `sender`.
    writer: &'static str,
    /// The messages the consumer waits for in all.
    count: u64,
}

impl EmptyRing {
    pub(crate) fn new(writer: &'static str, count: u64) -> EmptyRing {
        EmptyRing {
            idle: 0,
            exited: false,
            progress: Progress::new(),
            writer,
            count,
        }
    }

    /// One poll that read nothing, `received` messages so far; `writer` is the writer's
    /// process, when this one started it.
    ///
    /// # Errors
    /// The writer's process exited before the last message, or nothing came for
    /// [`NO_PROGRESS_LIMIT`].
    #[inline]
    pub(crate) fn idle(
        &mut self,
        consumer: &mut Consumer,
        writer: Option<&mut Child>,
        received: u64,
    ) -> Result<(), PeerError> {
        self.idle = self.idle.wrapping_add(1);
        if self.idle.is_multiple_of(CHECK_EVERY) {
            self.check(consumer, writer, received)?;
        }
        std::hint::spin_loop();
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn check(
        &mut self,
        consumer: &mut Consumer,
        writer: Option<&mut Child>,
        received: u64,
    ) -> Result<(), PeerError> {
        let count = self.count;
        if let Some(child) = writer
            && let Some(status) = child.try_wait()?
        {
            // CHECK_EVERY empty polls after seeing it exit: nothing more is coming.
            if self.exited {
                return Err(PeerError::Peer(format!(
                    "the {} exited ({status}) after {received} of {count} messages",
                    self.writer
                )));
            }
            self.exited = true;
        }
        if self.progress.stalled(received, NO_PROGRESS_LIMIT) {
            return Err(PeerError::Peer(format!(
                "the {} is alive but sent nothing for {NO_PROGRESS_LIMIT:?} ({received} of \
                 {count} messages received)",
                self.writer
            )));
        }
        consumer.heartbeat();
        Ok(())
    }
}
