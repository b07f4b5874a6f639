//! The consumer of a many-to-one ring: the one-to-one [`Consumer`]'s reads (which zero what
//! they read on this kind of ring), and the unblock that turns a claim a dead producer left
//! into padding, so the consumer never stalls behind a crashed writer.

use std::time::{Duration, Instant};

use crate::consumer::{Action, Consumer};
use crate::error::RingError;
use crate::layout::*;
use crate::region::Region;

/// How long the head may stay stuck behind an unfinished claim before a read unblocks it by
/// default: Aeron's default client liveness timeout, the time after which its driver unblocks
/// a client's claim in the to-driver ring. A live producer never holds a claim this long
/// (claims last nanoseconds to microseconds); a paused one (a stopped process, a debugger)
/// that later commits into the unblocked space is why it is not shorter. Change it with
/// [`ManyToOneConsumer::set_unblock_after`].
pub const DEFAULT_UNBLOCK_AFTER: Duration = Duration::from_secs(10);

/// The one consumer of a [`super::ManyToOneRing`]. Obtained from
/// [`super::ManyToOneRing::consumer`]; detaches on drop.
pub struct ManyToOneConsumer {
    inner: Consumer,
    /// After how long a stuck head is unblocked (`None`: never by itself).
    unblock_after: Option<Duration>,
    /// The head position a read found stuck behind pending bytes, and since when.
    stalled: Option<(i64, Instant)>,
    /// Claims unblocked so far.
    unblocked: u64,
}

impl std::fmt::Debug for ManyToOneConsumer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ManyToOneConsumer")
            .field("position", &self.inner.position())
            .field("unblocked", &self.unblocked)
            .finish()
    }
}

impl ManyToOneConsumer {
    pub(super) fn new(inner: Consumer) -> ManyToOneConsumer {
        ManyToOneConsumer {
            inner,
            unblock_after: Some(DEFAULT_UNBLOCK_AFTER),
            stalled: None,
            unblocked: 0,
        }
    }

    /// Sets how long the head may stay stuck behind an unfinished claim (tail past the head,
    /// nothing readable) before a read unblocks it ([`ManyToOneConsumer::unblock`]); `None`
    /// leaves it to the caller. [`DEFAULT_UNBLOCK_AFTER`] by default.
    pub fn set_unblock_after(&mut self, after: Option<Duration>) {
        self.unblock_after = after;
    }

    /// Claims turned into padding so far (by [`ManyToOneConsumer::unblock`], called directly
    /// or by a read).
    pub fn unblocked(&self) -> u64 {
        self.unblocked
    }

    /// The position of the next record to read (bytes ever consumed, padding included).
    pub fn position(&self) -> i64 {
        self.inner.position()
    }

    /// Reads up to `limit` messages in place, every producer's in the order they were
    /// committed at the head (zero-copy; the bytes are zeroed and released after the handler
    /// returns); then, when nothing was read and the head has been stuck behind an unfinished
    /// claim for the unblock time, unblocks it. Returns the number of messages read.
    ///
    /// # Errors
    /// As [`Consumer::read`].
    pub fn read<F: FnMut(i32, &[u8])>(
        &mut self,
        handler: F,
        limit: usize,
    ) -> Result<usize, RingError> {
        let n = self.inner.read(handler, limit)?;
        self.after_read(n);
        Ok(n)
    }

    /// Reads like [`ManyToOneConsumer::read`] with a handler that decides after each message
    /// (see [`Consumer::read_controlled`]).
    ///
    /// # Errors
    /// As [`Consumer::read`].
    pub fn read_controlled<F: FnMut(i32, &[u8]) -> Action>(
        &mut self,
        handler: F,
        limit: usize,
    ) -> Result<usize, RingError> {
        let n = self.inner.read_controlled(handler, limit)?;
        self.after_read(n);
        Ok(n)
    }

    /// Stores a heartbeat now (a read stores one every few thousand calls).
    pub fn heartbeat(&mut self) {
        self.inner.heartbeat();
    }

    /// Turns what holds the head up into padding, as Agrona's `ManyToOneRingBuffer.unblock`:
    /// a claim whose header says it is in progress (negative length), or, when the header at
    /// the head is still zero (a producer died between its compare-and-swap and its first
    /// store), the zeroed bytes up to the next record's header. Returns whether it unblocked.
    ///
    /// Call it only when the producer that claimed the space is dead, or has held it far longer
    /// than any live producer would: a producer that is merely slow and commits afterwards
    /// writes into space the consumer has released (the reason reads wait
    /// [`DEFAULT_UNBLOCK_AFTER`] by default).
    pub fn unblock(&mut self) -> bool {
        let done = unblock(self.inner.region());
        if done {
            self.unblocked += 1;
            self.stalled = None;
        }
        done
    }

    /// Tracks a head stuck behind pending bytes, and unblocks it once it has been stuck for
    /// the unblock time.
    fn after_read(&mut self, read: usize) {
        let Some(after) = self.unblock_after else {
            return;
        };
        let head = self.inner.position();
        if read != 0 || self.inner.region().lv_tail() == head {
            // SYNC POINT: tail (above): nothing pending, or progress: not stuck.
            self.stalled = None;
            return;
        }
        match self.stalled {
            Some((at, since)) if at == head => {
                if since.elapsed() >= after {
                    self.unblock();
                }
            }
            _ => self.stalled = Some((head, Instant::now())),
        }
    }
}

/// Agrona's `ManyToOneRingBuffer.unblock` on `region`; see [`ManyToOneConsumer::unblock`].
///
/// The forward scan reads the words after the head atomically (record words): under the
/// precondition (the claimer is dead), the words it passes are the dead claim's, which no one
/// writes, and the first non-zero one is the header of a later claim, which its producer
/// stored before any of its payload (the release fence after the in-progress header).
pub(crate) fn unblock(region: &Region) -> bool {
    let head = region.lv_head(); // SYNC POINT: head
    let tail = region.lv_tail(); // SYNC POINT: tail
    if head == tail {
        return false;
    }
    let capacity = region.capacity();
    let mask = capacity - 1;
    let consumer_index = head as usize & mask;
    let producer_index = tail as usize & mask;
    let (length, _) = unpack_header(region.lv_record(consumer_index)); // SYNC POINT: record
    if length < 0 {
        let header = pack_header(-length, PADDING_MSG_TYPE_ID);
        region.so_record(consumer_index, header); // SYNC POINT: record
        return true;
    }
    if length > 0 {
        return false;
    }
    let limit = if producer_index > consumer_index {
        producer_index
    } else {
        capacity
    };
    let mut i = consumer_index + RECORD_ALIGNMENT;
    while i < limit {
        let (found, _) = unpack_header(region.lv_record(i)); // SYNC POINT: record
        if found != 0 {
            let still_zero = (consumer_index..i)
                .step_by(RECORD_ALIGNMENT)
                .rev()
                .all(|at| unpack_header(region.lv_record(at)).0 == 0); // SYNC POINT: record
            if still_zero {
                let header = pack_header((i - consumer_index) as i32, PADDING_MSG_TYPE_ID);
                region.so_record(consumer_index, header); // SYNC POINT: record
                return true;
            }
            return false;
        }
        i += RECORD_ALIGNMENT;
    }
    false
}
