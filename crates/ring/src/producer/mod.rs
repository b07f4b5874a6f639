//! The single writer: copying writes and the reservation they share with claims and batches,
//! following Agrona's `OneToOneRingBuffer` write protocol byte for byte (see
//! `docs/ring-layout.md`).
//!
//! The producer's other jobs live beside the types they hand out: [`claim`] (zero-copy claims,
//! [`Claim`](claim::Claim)), [`batch`] (records published together, [`Batch`](batch::Batch)),
//! [`recovery`] (where a producer taking over after a crash resumes) and, for bindings, `detached`
//! (claims that outlive the call that made them).

use crate::attach::{Attachment, PEER_LOOK_EVERY_MS, PeerState};
use crate::cache_line::CACHE_LINE;
use crate::error::RingError;
use crate::layout::*;
use crate::positions::check_positions;
use crate::short_bytes;
use crate::wait::{Strategy, Wait};
use crate::wake::{self, Sleep, Sleeper};

pub(crate) mod batch;
pub(crate) mod claim;
#[cfg(feature = "bindings")]
pub(crate) mod detached;
mod recovery;

/// The one producer of a ring. Obtained from [`crate::Ring::producer`]; detaches on drop.
pub struct Producer {
    attachment: Attachment,
    /// Bytes ever claimed (the next record's position); authoritative, as only we write it.
    tail: i64,
    /// The consumer's head as last seen; may be stale (behind the real head), never ahead.
    cached_head: i64,
    /// Bytes in the record area (a power of two).
    capacity: usize,
    /// Largest payload: `capacity / 8`.
    max_message_length: usize,
    /// Set by a reservation refused at the wrap, taken by its caller (see [`WrapPadding`]).
    wrap_padding: Option<WrapPadding>,
}

/// Where a claimed record lives.
#[derive(Clone, Copy)]
struct Reserved {
    /// Index of the record in the record area.
    index: usize,
    /// Index of a padding record written at the end of the area, with its length.
    padding: Option<(usize, i32)>,
    /// Stream position of the record (after the padding, if any).
    position: i64,
    /// Stream position just past the record: the producer's tail once it is written.
    end: i64,
}

/// The padding record that a batch's reservation, refused at the wrap, leaves for the batch to
/// publish.
///
/// When a record fits neither before the end of the area nor before the head at index 0,
/// Agrona's `claimCapacity` (and Aeron's) still pads the end and moves the tail past the
/// padding, then reports the ring full. [`Producer::reserve_slow`] does the same: it zeroes the
/// header at 0 and returns [`RingError::Full`], having published the padding and the tail for
/// a single write or claim, or left this in `Producer::wrap_padding` for a batch, which holds
/// it back with its records. Kept out of the returned `Result` so that the inlined fast path
/// stays as it is (a larger error type costs it stores on every write).
#[derive(Clone, Copy)]
struct WrapPadding {
    /// Index of the padding record: the record's index, at the end of the area.
    at: usize,
    /// Its length: the bytes to the end of the area.
    length: i32,
    /// Stream position just past it (index 0 of the next lap): the new tail.
    end: i64,
}

impl Producer {
    pub(crate) fn new(attachment: Attachment) -> Result<Producer, RingError> {
        let region = &attachment.region;
        // SYNC POINT: head, SYNC POINT: tail (the positions the previous holder left)
        let (head, tail) = (region.lv_head(), region.lv_tail());
        let tail = recovery::resume_position(region, head, tail);
        check_positions(region, head, tail)?;
        let capacity = region.capacity();
        // A predecessor may have died armed: its consumer would fence for nobody.
        wake::disarm(region, Sleeper::Producer);
        Ok(Producer {
            tail,
            cached_head: head,
            capacity,
            max_message_length: max_message_length(capacity),
            wrap_padding: None,
            attachment,
        })
    }

    /// The largest payload this ring takes.
    pub fn max_message_length(&self) -> usize {
        self.max_message_length
    }

    /// The position the next record will take (bytes ever written, padding included).
    pub fn position(&self) -> i64 {
        self.tail
    }

    /// Copies `payload` into the ring as one message of type `type_id`.
    ///
    /// # Errors
    /// [`RingError::Full`] (back pressure: the message was not written, retry later; a ring
    /// full at the wrap has the end of its area padded first, as Agrona's),
    /// [`RingError::MessageTooLong`], [`RingError::InvalidTypeId`], [`RingError::CorruptRecord`]
    /// if the consumer's head in the trailer is invalid.
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::Ring::anonymous(64)?;
    /// let mut producer = ring.producer()?;
    /// producer.try_write(1, &[1, 2, 3])?;
    /// assert!(producer.try_write(0, &[]).is_err()); // type ids start at 1
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    #[inline]
    pub fn try_write(&mut self, type_id: i32, payload: &[u8]) -> Result<(), RingError> {
        let reserved = self.reserve(type_id, payload.len())?;
        self.publish_padding(reserved);
        // SAFETY: reserve() checked index + 8 + len <= capacity, and the producer owns the
        // reserved bytes until the header below publishes them.
        unsafe {
            let dst = self
                .attachment
                .region
                .payload(reserved.index, payload.len());
            short_bytes::copy(payload.as_ptr(), dst, payload.len());
        }
        let header = pack_header((payload.len() + RECORD_HEADER_LENGTH) as i32, type_id);
        self.attachment.region.so_record(reserved.index, header); // SYNC POINT: record
        self.attachment.region.so_tail(self.tail); // SYNC POINT: tail
        wake::wake(&self.attachment.region, Sleeper::Consumer);
        self.attachment.tick();
        Ok(())
    }

    /// Writes `payload`, waiting with `wait` while the ring is full. With [`Wait::futex`] the
    /// producer sleeps until the consumer releases room (see [`Strategy::Futex`]).
    ///
    /// A full ring is back pressure whatever the consumer's state: a stale consumer (paused,
    /// stopped) may resume, and one that died or detached may be restarted: a new consumer
    /// resumes at the ring's head and drains, so the wait goes on until `wait`'s timeout.
    ///
    /// # Errors
    /// As [`Producer::try_write`], with [`RingError::Timeout`] instead of `Full`; its text says
    /// what the consumer was doing (not reading, stale, died, detached, never came) and what to
    /// do.
    ///
    /// # Examples
    /// ```
    /// use std::time::Duration;
    /// use sympathy_ring::{Ring, RingError, Wait};
    /// let ring = Ring::anonymous(64)?;
    /// let mut producer = ring.producer()?;
    /// let wait = Wait::backoff().timeout(Duration::from_millis(5));
    /// while producer.write(1, &[0; 8], &wait).is_ok() {}
    /// let full = producer.write(1, &[0; 8], &wait).unwrap_err();
    /// assert!(full.to_string().contains("no consumer came"), "{full}");
    /// # Ok::<(), RingError>(())
    /// ```
    pub fn write(&mut self, type_id: i32, payload: &[u8], wait: &Wait) -> Result<(), RingError> {
        let mut full: u32 = 0;
        let mut looked_ms = 0;
        let every = wait.polls_per_peer_check();
        let sleep = match wait.strategy {
            Strategy::Futex { .. } => Some(Sleep::new(
                self.attachment.region.clone(),
                Sleeper::Producer,
            )),
            _ => None,
        };
        let outcome = wait.until_woken("room in the ring", sleep.as_ref(), || {
            match self.try_write(type_id, payload) {
                Ok(()) => Ok(Some(())),
                Err(e) if e.is_full() => {
                    // A producer waiting for a late or slow consumer still lives: keep its
                    // heartbeat fresh, or the consumer would take it for hung (stale).
                    full = full.wrapping_add(1);
                    if full.is_multiple_of(every) {
                        self.attachment.heartbeat();
                        // Look at the consumer now and then (a syscall and a /proc read):
                        // its progress between looks is a sign of life.
                        let now = crate::attach::now_ms();
                        if now - looked_ms >= PEER_LOOK_EVERY_MS {
                            looked_ms = now;
                            let _ = self.peer();
                        }
                    }
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        });
        match outcome {
            Err(RingError::Timeout { waited, .. }) => Err(RingError::Timeout {
                waited,
                what: self.why_no_room(),
            }),
            other => other,
        }
    }

    /// What a producer that timed out on a full ring was waiting for, from the consumer's state.
    #[cold]
    fn why_no_room(&self) -> &'static str {
        let consumer = self.peer();
        match consumer {
            PeerState::Alive { .. } => {
                "room in the ring: the consumer is attached but did not read (slow or stuck)"
            }
            PeerState::Stale { .. } => {
                "room in the ring: the consumer is attached but its heartbeat is stale (paused, \
                 stopped or hung); resume it, or give it longer"
            }
            PeerState::Dead { .. } if self.attachment.peer_has_left(consumer) => {
                "room in the ring: the consumer died and no consumer took its place; start one \
                 (it resumes at the ring's head), or give it longer"
            }
            PeerState::Detached if self.attachment.peer_has_left(consumer) => {
                "room in the ring: the consumer detached and no consumer took its place; start \
                 one (it resumes at the ring's head), or give it longer"
            }
            _ => {
                "room in the ring: no consumer came; start one (it resumes at the ring's head), \
                 or give it longer"
            }
        }
    }

    /// Stores a heartbeat now (call it from idle loops so the consumer sees a live producer).
    pub fn heartbeat(&mut self) {
        self.attachment.heartbeat();
    }

    /// The consumer's state: attached and heartbeating, stale, detached, dead or never seen.
    /// The head moving since this producer's previous look counts as a sign of life, as does
    /// a heartbeat in the trailer after the last clean detach: an Agrona-only consumer (which
    /// never touches the header page) reads as alive.
    pub fn peer(&self) -> PeerState {
        self.attachment.peer()
    }

    /// Sets how old the consumer's last sign of life may be before it reads as
    /// [`PeerState::Stale`] (default [`crate::HEARTBEAT_STALE_MS`]).
    pub fn set_stale_limit(&mut self, stale_limit: std::time::Duration) {
        self.attachment.set_stale_limit(stale_limit);
    }

    /// Whether the consumer is attached, running and heartbeating.
    pub fn peer_alive(&self) -> bool {
        self.peer().is_alive()
    }

    /// Claims room for a record with a `len`-byte payload following Agrona's `claimCapacity`:
    /// checks the type and length, refreshes the cached head only when the ring looks full,
    /// writes padding at the wrap, pre-zeroes the next record header and advances the tail.
    #[inline]
    fn reserve(&mut self, type_id: i32, len: usize) -> Result<Reserved, RingError> {
        let reserved = self.reserve_at::<true>(self.tail, type_id, len)?;
        self.tail = reserved.end;
        Ok(reserved)
    }

    /// [`Producer::reserve`] for a record at position `tail`, leaving `self.tail` alone (a
    /// batch moves it only when it publishes): the new tail is [`Reserved::end`].
    ///
    /// The common case, inlined into every write: a valid message whose record and next header
    /// fit before the end of the area and before the cached head. Everything else (errors,
    /// the wrap, a head to refresh) is [`Producer::reserve_slow`], out of line.
    ///
    /// `SINGLE` is true for a single write or claim, false for a record of a batch
    /// ([`Batch`](batch::Batch), [`Producer::try_write_batch`]), which pre-zeroes only the
    /// header after its last record when it publishes (the fast path leaves the next header to
    /// it), and which publishes the padding of a ring full at the wrap with itself (see
    /// [`WrapPadding`]).
    #[inline(always)]
    fn reserve_at<const SINGLE: bool>(
        &mut self,
        tail: i64,
        type_id: i32,
        len: usize,
    ) -> Result<Reserved, RingError> {
        let aligned = align_record(len + RECORD_HEADER_LENGTH);
        let required = aligned + RECORD_HEADER_LENGTH;
        let capacity = self.capacity;
        let index = tail as usize & (capacity - 1);
        let fits = type_id >= 1
            && len <= self.max_message_length
            && required <= capacity - (tail - self.cached_head) as usize
            && required <= capacity - index;
        if !fits {
            return self.reserve_slow::<SINGLE>(tail, type_id, len);
        }
        self.prefetch_ahead(tail, aligned);
        if SINGLE {
            // Pre-zero the next header (see reserve_slow): index + aligned + 8 <= capacity.
            self.attachment.region.sp_record(index + aligned, 0);
        }
        Ok(Reserved {
            index,
            padding: None,
            position: tail,
            end: tail + aligned as i64,
        })
    }

    /// [`Producer::reserve_at`] in full: checks the type and length, refreshes the cached head
    /// only when the ring looks full, pads at the wrap and pre-zeroes the next header. A ring
    /// full at the wrap is padded as Agrona pads it (see [`WrapPadding`]).
    #[cold]
    #[inline(never)]
    fn reserve_slow<const SINGLE: bool>(
        &mut self,
        tail: i64,
        type_id: i32,
        len: usize,
    ) -> Result<Reserved, RingError> {
        self.check_message(type_id, len)?;
        let aligned = align_record(len + RECORD_HEADER_LENGTH);
        // Room for the record plus the next header, which is pre-zeroed.
        let required = aligned + RECORD_HEADER_LENGTH;
        let capacity = self.capacity;
        let mask = capacity - 1;
        // Possibly full? Refresh the cached head; really full? Back pressure.
        if required > capacity - (tail - self.cached_head) as usize {
            let head = self.refresh_head(tail)?;
            let free = capacity - (tail - head) as usize;
            if required > free {
                return Err(RingError::Full {
                    required,
                    available: free,
                });
            }
        }
        let mut index = tail as usize & mask;
        self.prefetch_ahead(tail, aligned);
        let to_end = capacity - index;
        let mut padding = None;
        // A record that exactly fills the end takes it without padding (Agrona's
        // "message fits within the end of the buffer"); its next header is then the one at 0.
        if required > to_end && aligned != to_end {
            // The record does not fit before the end: pad to the end and start at 0, which
            // needs `required` bytes free before the head's index.
            let mut full = None;
            if required > self.cached_head as usize & mask {
                let head = self.refresh_head(tail)?;
                let head_index = head as usize & mask;
                if required > head_index {
                    // Full at the wrap. Agrona (and Aeron) still pad the end and move the tail
                    // past the padding, then report the ring full: the record will start at 0
                    // once the consumer has left `required` bytes there.
                    full = Some(RingError::Full {
                        required,
                        available: head_index,
                    });
                }
            }
            // The consumer will follow the padding to index 0: zero it first (a header it has
            // consumed: the room check above left the head's index past it).
            self.attachment.region.sp_record(0, 0);
            if let Some(full) = full {
                let (length, end) = (to_end as i32, tail + to_end as i64);
                if SINGLE {
                    self.tail = end;
                    self.store_padding((index, length), end);
                } else {
                    self.wrap_padding = Some(WrapPadding {
                        at: index,
                        length,
                        end,
                    });
                }
                return Err(full);
            }
            padding = Some((index, to_end as i32));
            index = 0;
        }
        // Pre-zero the next header so the consumer stops there (Agrona: "pre-zero next
        // message header"): at index + aligned, which the checks above keep below the end but
        // for an exact fit, whose next header is at 0 (free: `required` counted it).
        self.attachment
            .region
            .sp_record((index + aligned) & mask, 0);
        let position = tail + padding.map_or(0, |(_, p)| p as i64);
        Ok(Reserved {
            index,
            padding,
            position,
            end: position + aligned as i64,
        })
    }

    /// Publishes the padding record of a reservation, if any, and moves the trailer's tail past
    /// it: the consumer may consume the padding before the record is finished, and a producer
    /// that takes over after a crash resumes from the trailer's tail, which must never fall
    /// behind the consumer's head (found by the crash tests, see docs/verification.md).
    #[inline]
    fn publish_padding(&mut self, reserved: Reserved) {
        if let Some(padding) = reserved.padding {
            self.store_padding(padding, reserved.position);
        }
    }

    /// Publishes the padding record `(at, length)` and stores `tail`, the position past it.
    fn store_padding(&self, (at, length): (usize, i32), tail: i64) {
        let region = &self.attachment.region;
        // SYNC POINT: record (the zeroed header at 0 is visible before the padding)
        region.so_record(at, pack_header(length, PADDING_MSG_TYPE_ID));
        region.so_tail(tail); // SYNC POINT: tail
    }

    /// Asks for the lines of the `len` bytes from position `tail`, [`PREFETCH_AHEAD`] bytes
    /// further on, for writing (see [`prefetch_for_write`]).
    #[inline(always)]
    fn prefetch_ahead(&self, tail: i64, len: usize) {
        let ahead = tail + PREFETCH_AHEAD as i64;
        prefetch_for_write(
            &self.attachment.region,
            ahead,
            ahead + len as i64,
            self.cached_head,
        );
    }

    /// Reloads the consumer's head, checks it against the producer's position `tail` and caches
    /// it (in the trailer too, as Agrona).
    #[cold]
    fn refresh_head(&mut self, tail: i64) -> Result<i64, RingError> {
        let region = &self.attachment.region;
        let head = region.lv_head(); // SYNC POINT: head
        check_positions(region, head, tail)?;
        self.cached_head = head;
        region.sp_head_cache(head);
        Ok(head)
    }

    /// Refuses a type id below 1 and a payload longer than [`Producer::max_message_length`]
    /// ([`crate::error::check_message`]).
    #[inline]
    fn check_message(&self, type_id: i32, len: usize) -> Result<(), RingError> {
        crate::error::check_message(type_id, len, self.max_message_length)
    }
}

impl Drop for Producer {
    fn drop(&mut self) {
        // Leaving: the consumer stops fencing for a sleeper that is gone.
        wake::disarm(&self.attachment.region, Sleeper::Producer);
    }
}

impl std::fmt::Debug for Producer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Producer")
            .field("tail", &self.tail)
            .field("cached_head", &self.cached_head)
            .field("capacity", &self.capacity)
            .finish()
    }
}

/// How far ahead of the record it writes the producer asks for cache lines (8 lines: 512
/// bytes).
const PREFETCH_AHEAD: usize = 8 * CACHE_LINE;

/// Asks for the cache lines that start in positions `from..to` for writing, only lines the
/// consumer is known to have released (before `cached_head` + capacity): taking a line it has
/// yet to read would slow it down.
///
/// The lines the producer writes were read by the consumer one lap earlier, so the first store
/// to each needs the other core to give the line up: a cross-core round trip. Without the hint
/// those requests queue behind the store buffer (three stores per short record fill it within
/// a few lines) and go out a few at a time; with it they overlap (figures:
/// docs/ring-performance.md).
#[inline(always)]
fn prefetch_for_write(region: &crate::region::Region, from: i64, to: i64, cached_head: i64) {
    let to = to.min(cached_head + region.capacity() as i64);
    let line_bytes = CACHE_LINE as i64;
    let mut line = (from + line_bytes - 1) & !(line_bytes - 1);
    while line < to {
        region.prefetch_for_write(line as usize);
        line += line_bytes;
    }
}
