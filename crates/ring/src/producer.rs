//! The single writer: copying writes, zero-copy claims and batches, following Agrona's
//! `OneToOneRingBuffer` write protocol byte for byte (see `docs/ring-layout.md`).

use crate::attach::{Attachment, PeerState};
use crate::error::RingError;
use crate::layout::*;
use crate::ring::check_positions;
use crate::short_bytes;
use crate::wait::{Strategy, Wait};
use crate::wake::{self, Sleep, Sleeper};

#[cfg(feature = "detached-claim")]
mod detached;
#[cfg(feature = "detached-claim")]
pub use detached::DetachedClaim;

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
        let tail = resume_position(region, head, tail);
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

    /// Reserves room for a `len`-byte payload of type `type_id` and hands out its bytes to be
    /// filled in place. Nothing is visible to the consumer until [`Claim::commit`]; dropping
    /// the claim aborts it (the consumer skips it as padding).
    ///
    /// # Errors
    /// As [`Producer::try_write`].
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// let mut claim = producer.try_claim(3, 4)?;
    /// claim.copy_from_slice(&42u32.to_le_bytes());
    /// claim.commit();
    /// let n = consumer.read(|t, b| assert_eq!((t, b), (3, &42u32.to_le_bytes()[..])), 8)?;
    /// assert_eq!(n, 1);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn try_claim(&mut self, type_id: i32, len: usize) -> Result<Claim<'_>, RingError> {
        let reserved = self.reserve(type_id, len)?;
        self.publish_padding(reserved);
        let record_length = (len + RECORD_HEADER_LENGTH) as i32;
        // A negative length marks the claim in progress (Agrona's tryClaim); it is published by
        // the release in commit/abort.
        self.attachment
            .region
            .sp_record(reserved.index, pack_header(-record_length, type_id));
        Ok(Claim {
            producer: self,
            index: reserved.index,
            len,
            type_id,
            done: false,
        })
    }

    /// Publishes the header of a claimed record (`type_id` -1 turns it into padding) and the
    /// tail.
    fn finish_claim(&mut self, index: usize, len: usize, type_id: i32) {
        let region = &self.attachment.region;
        let header = pack_header((len + RECORD_HEADER_LENGTH) as i32, type_id);
        region.so_record(index, header); // SYNC POINT: record
        region.so_tail(self.tail); // SYNC POINT: tail
        wake::wake(region, Sleeper::Consumer);
        self.attachment.tick();
    }

    /// Starts a batch: records written through it become visible together when it is finished
    /// (or dropped), which costs the consumer one cache-line handover per batch rather than
    /// per record.
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// let mut batch = producer.batch();
    /// batch.try_write(1, b"a")?;
    /// batch.try_write(1, b"b")?;
    /// assert_eq!(consumer.read(|_, _| {}, 8)?, 0); // not yet visible
    /// assert_eq!(batch.finish(), 2);
    /// assert_eq!(consumer.read(|_, _| {}, 8)?, 2);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn batch(&mut self) -> Batch<'_> {
        Batch {
            producer: self,
            first: None,
            count: 0,
        }
    }

    /// Writes up to `max` messages of type `type_id` with `len`-byte payloads as one batch,
    /// filling message `k` (counting from 0) in place with `fill(k, payload)`. The messages
    /// become visible together, as those of a [`Batch`]: the first record's header is stored
    /// last, with release. Returns how many were written: fewer than `max` when the ring filled
    /// up, 0 when it is full (back pressure).
    ///
    /// The bytes left in the ring are those of the same messages written one by one, but each
    /// message costs only its payload and one header store: the room check, the pre-zeroing of
    /// the next header and the tail store are paid once per contiguous run of records (the
    /// one-record path handles the wrap and a possibly full ring). If `fill` panics, nothing of
    /// the batch is published and the producer's position stays where the batch started.
    ///
    /// # Errors
    /// [`RingError::InvalidTypeId`] and [`RingError::MessageTooLong`] (nothing written), or
    /// [`RingError::CorruptRecord`] if the consumer's head in the trailer is invalid (the
    /// messages written before it are published).
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// let written = producer.try_write_batch(1, 4, 3, |k, payload| {
    ///     payload.copy_from_slice(&(k as u32 * 10).to_le_bytes())
    /// })?;
    /// assert_eq!(written, 3);
    /// let mut seen = Vec::new();
    /// consumer.read(|_, b| seen.push(u32::from_le_bytes(b.try_into().unwrap())), 8)?;
    /// assert_eq!(seen, [0, 10, 20]);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    #[inline]
    pub fn try_write_batch<F: FnMut(usize, &mut [u8])>(
        &mut self,
        type_id: i32,
        len: usize,
        max: usize,
        mut fill: F,
    ) -> Result<usize, RingError> {
        if type_id < 1 {
            return Err(RingError::InvalidTypeId { type_id });
        }
        if len > self.max_message_length {
            return Err(self.too_long(len));
        }
        let aligned = align_record(len + RECORD_HEADER_LENGTH);
        let header = pack_header((len + RECORD_HEADER_LENGTH) as i32, type_id);
        let capacity = self.capacity;
        let mask = capacity - 1;
        // The batch's position and its held-back first header live in locals (registers) and
        // reach `self` and the ring only when the batch is published.
        let mut tail = self.tail;
        let mut first: Option<(usize, i64)> = None;
        let mut written = 0;
        let mut outcome = Ok(());
        while written < max {
            let index = tail as usize & mask;
            // Whole records that fit before the end of the area and before the cached head,
            // leaving the 8 bytes of the header after the last one (as `reserve` requires).
            let room = (capacity - index).min(capacity - (tail - self.cached_head) as usize);
            let fit = room.saturating_sub(RECORD_HEADER_LENGTH) / aligned;
            if fit == 0 {
                // At the wrap or possibly full: the one-record path pads and refreshes the head.
                match self.reserve_at::<false>(tail, type_id, len) {
                    Ok(reserved) => {
                        let region = &self.attachment.region;
                        if let Some((at, length)) = reserved.padding {
                            let padding = pack_header(length, PADDING_MSG_TYPE_ID);
                            hold_or_store(region, &mut first, at, padding);
                        }
                        // SAFETY: reserve_at checked index + 8 + len <= capacity, and the
                        // producer owns the bytes until the batch is published.
                        let payload = unsafe {
                            std::slice::from_raw_parts_mut(region.payload(reserved.index, len), len)
                        };
                        fill(written, payload);
                        hold_or_store(region, &mut first, reserved.index, header);
                        tail = reserved.end;
                        written += 1;
                    }
                    Err(e) if e.is_full() => {
                        if let Some(padding) = self.wrap_padding.take() {
                            // Full at the wrap: padded as one-by-one writes would be.
                            let header = pack_header(padding.length, PADDING_MSG_TYPE_ID);
                            hold_or_store(&self.attachment.region, &mut first, padding.at, header);
                            tail = padding.end;
                        }
                        break;
                    }
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                }
                continue;
            }
            let n = fit.min(max - written);
            let region = &self.attachment.region;
            let hold = first.is_none();
            // Ask for the run's lines all at once, before its stores.
            self.prefetch_ahead(tail, (n * aligned).min(PREFETCH_RUN_MAX));
            for k in 0..n {
                let at = index + k * aligned;
                // SAFETY: at + aligned + 8 <= index + n * aligned + 8 <= capacity and these
                // bytes are free (before the cached head); the producer owns them until the
                // batch is published.
                let payload =
                    unsafe { std::slice::from_raw_parts_mut(region.payload(at, len), len) };
                fill(written + k, payload);
                if !(hold && k == 0) {
                    // Invisible until the held-back first header is released.
                    region.sp_record(at, header);
                }
            }
            if hold {
                first = Some((index, header));
            }
            written += n;
            tail += (n * aligned) as i64;
        }
        if let Some((at, first_header)) = first {
            let region = &self.attachment.region;
            // Pre-zero the header after the last record (free: each record was given 8 bytes
            // more than it takes) so that the consumer stops there.
            region.sp_record(tail as usize & mask, 0);
            region.so_record(at, first_header); // SYNC POINT: record
            region.so_tail(tail); // SYNC POINT: tail
            wake::wake(region, Sleeper::Consumer);
            self.tail = tail;
            self.attachment.tick();
        }
        outcome.map(|()| written)
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
        self.attachment
            .set_stale_limit(crate::ring::duration_ms(stale_limit));
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
    /// ([`Batch`], [`Producer::try_write_batch`]), which pre-zeroes only the header after its
    /// last record when it publishes (the fast path leaves the next header to it), and which
    /// publishes the padding of a ring full at the wrap with itself (see [`WrapPadding`]).
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
        if type_id < 1 {
            return Err(RingError::InvalidTypeId { type_id });
        }
        if len > self.max_message_length {
            return Err(self.too_long(len));
        }
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

    #[cold]
    fn too_long(&self, len: usize) -> RingError {
        RingError::MessageTooLong {
            length: len,
            max: self.max_message_length,
            needed: (len * 8).next_power_of_two().max(MIN_CAPACITY),
        }
    }
}

/// Holds `header` back as a batch's first (published last) or, when the batch already has
/// one, stores it now: the consumer cannot reach it before the first header is released.
#[inline(always)]
fn hold_or_store(
    region: &crate::region::Region,
    first: &mut Option<(usize, i64)>,
    index: usize,
    header: i64,
) {
    match first {
        None => *first = Some((index, header)),
        // Relaxed: published by the release of the first header, which follows it.
        Some(_) => region.sp_record(index, header),
    }
}

/// Where a producer taking over the ring resumes. A previous producer publishes a record's
/// header before it stores the trailer's tail; if it was killed between the two, records past
/// the trailer's tail are already published (the consumer may even have read them, putting its
/// head past that tail). Resuming at the trailer's tail would then overwrite a published record
/// while the consumer may be reading it (a torn message), or start behind the head. So the new
/// producer starts at the later of head and tail and walks over complete published records
/// (positive lengths that fit) to the first header that is not one: zero, or the negative length
/// of a claim its predecessor never finished, which it overwrites. Found by the crash tests
/// (docs/verification.md). Invalid positions are left for [`check_positions`] to report.
fn resume_position(region: &crate::region::Region, head: i64, tail: i64) -> i64 {
    let capacity = region.capacity() as i64;
    let aligned = |p: i64| p >= 0 && p % RECORD_ALIGNMENT as i64 == 0;
    if !aligned(head) || !aligned(tail) || tail.wrapping_sub(head) > capacity {
        return tail;
    }
    if head.wrapping_sub(tail) > capacity {
        return tail; // head implausibly far ahead: corrupt, reported by the caller
    }
    unblock_dead_claims(region, head, tail);
    let mut position = head.max(tail);
    while position - head < capacity {
        let index = (position & (capacity - 1)) as usize;
        let (length, _) = unpack_header(region.lv_record(index)); // SYNC POINT: record
        let to_end = capacity as usize - index;
        if length < RECORD_HEADER_LENGTH as i32 || align_record(length as usize) > to_end {
            break;
        }
        let next = position + align_record(length as usize) as i64;
        if next - head > capacity {
            break;
        }
        position = next;
    }
    position
}

/// Turns claims left unfinished below the trailer's tail into padding (Agrona's `unblock`). A
/// predecessor that stores the tail when it claims (Agrona, the Java ring) and died inside a
/// claim left a negative length there that would block the consumer forever; this producer has
/// taken the role over (the predecessor is dead or detached), so nobody will finish it. Our own
/// producer stores the tail after publishing, so it never leaves one below the tail. Stops at a
/// zero or invalid header (nothing to skip by).
fn unblock_dead_claims(region: &crate::region::Region, head: i64, tail: i64) {
    let capacity = region.capacity();
    let mut position = head;
    while position < tail {
        let index = position as usize & (capacity - 1);
        let (length, _) = unpack_header(region.lv_record(index)); // SYNC POINT: record
        let Some(record) = length.checked_abs().map(|l| l as usize) else {
            break;
        };
        if record < RECORD_HEADER_LENGTH || align_record(record) > capacity - index {
            break;
        }
        if length < 0 {
            // SYNC POINT: record (the consumer skips it as padding)
            region.so_record(index, pack_header(record as i32, PADDING_MSG_TYPE_ID));
        }
        position += align_record(record) as i64;
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

/// A reserved record being filled in place. Derefs to its payload bytes.
///
/// [`Claim::commit`] publishes it; [`Claim::abort`] or dropping it turns it into padding that
/// the consumer skips.
pub struct Claim<'a> {
    producer: &'a mut Producer,
    index: usize,
    len: usize,
    type_id: i32,
    done: bool,
}

impl Claim<'_> {
    /// Publishes the record.
    pub fn commit(mut self) {
        self.finish(self.type_id);
    }

    /// Withdraws the record: it stays in the ring as padding.
    pub fn abort(mut self) {
        self.finish(PADDING_MSG_TYPE_ID);
    }

    fn finish(&mut self, type_id: i32) {
        self.done = true;
        self.producer.finish_claim(self.index, self.len, type_id);
    }
}

impl std::ops::Deref for Claim<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: reserve() checked index + 8 + len <= capacity and the producer owns these
        // bytes until the claim is committed or aborted; &self borrows the claim.
        unsafe {
            std::slice::from_raw_parts(
                self.producer
                    .attachment
                    .region
                    .payload(self.index, self.len),
                self.len,
            )
        }
    }
}

impl std::ops::DerefMut for Claim<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in deref; &mut self makes this the only view of the bytes.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.producer
                    .attachment
                    .region
                    .payload(self.index, self.len),
                self.len,
            )
        }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.finish(PADDING_MSG_TYPE_ID);
        }
    }
}

/// Records written together: the header of the batch's first record is held back and published
/// last, so the consumer (which stops at the first header that is not positive) sees the whole
/// batch at once. Finishing or dropping the batch publishes it.
pub struct Batch<'a> {
    producer: &'a mut Producer,
    /// The held-back first header: (index, packed header).
    first: Option<(usize, i64)>,
    count: usize,
}

impl Batch<'_> {
    /// Adds a message to the batch.
    ///
    /// # Errors
    /// As [`Producer::try_write`]; on `Full`, finish the batch and let the consumer catch up.
    #[inline]
    pub fn try_write(&mut self, type_id: i32, payload: &[u8]) -> Result<(), RingError> {
        let p = &mut *self.producer;
        // Only the header after the batch's last record is pre-zeroed, when it is published:
        // the ones in between are overwritten by the next record's before the consumer may
        // reach them (it stops at the held-back first one).
        let reserved = match p.reserve_at::<false>(p.tail, type_id, payload.len()) {
            Ok(reserved) => {
                p.tail = reserved.end;
                reserved
            }
            Err(e) => return Err(self.refused(e)),
        };
        if let Some((at, length)) = reserved.padding {
            self.put(at, pack_header(length, PADDING_MSG_TYPE_ID));
        }
        let p = &mut *self.producer;
        // SAFETY: reserve() checked index + 8 + len <= capacity; the producer owns the bytes.
        unsafe {
            let dst = p.attachment.region.payload(reserved.index, payload.len());
            short_bytes::copy(payload.as_ptr(), dst, payload.len());
        }
        let header = pack_header((payload.len() + RECORD_HEADER_LENGTH) as i32, type_id);
        self.put(reserved.index, header);
        self.count += 1;
        Ok(())
    }

    /// Messages written so far.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Publishes the batch; returns the number of messages in it.
    pub fn finish(mut self) -> usize {
        self.publish();
        self.count
    }

    /// The error of a refused record; the padding of a ring full at the wrap joins the batch
    /// and the producer's position moves past it, as one-by-one writes would leave them.
    #[cold]
    #[inline(never)]
    fn refused(&mut self, e: RingError) -> RingError {
        if let Some(padding) = self.producer.wrap_padding.take() {
            self.producer.tail = padding.end;
            self.put(padding.at, pack_header(padding.length, PADDING_MSG_TYPE_ID));
        }
        e
    }

    #[inline]
    fn put(&mut self, index: usize, header: i64) {
        if self.first.is_none() {
            self.first = Some((index, header));
        } else {
            // Invisible until the first header is released (the consumer stops before it).
            self.producer.attachment.region.so_record(index, header); // SYNC POINT: record
        }
    }

    fn publish(&mut self) {
        if let Some((index, header)) = self.first.take() {
            let p = &mut *self.producer;
            // Pre-zero the header after the last record (try_write left it), so that the
            // consumer stops there: it was given 8 bytes more than it took.
            p.attachment.region.sp_record(p.tail as usize, 0);
            p.attachment.region.so_record(index, header); // SYNC POINT: record
            p.attachment.region.so_tail(p.tail); // SYNC POINT: tail
            wake::wake(&p.attachment.region, Sleeper::Consumer);
            p.attachment.tick();
        }
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.publish();
    }
}

/// How often, at most, a waiting side looks at its peer (a `kill` and a `/proc` read).
pub(crate) const PEER_LOOK_EVERY_MS: i64 = 10;

/// How far ahead of the record it writes the producer asks for cache lines (8 lines).
const PREFETCH_AHEAD: usize = 512;
/// The most bytes of a batch run asked for at once (64 lines: a run of 256 short records).
const PREFETCH_RUN_MAX: usize = 4096;
/// Bytes per cache line (x86-64 and most ARM cores).
const CACHE_LINE: i64 = 64;

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
    let mut line = (from + CACHE_LINE - 1) & !(CACHE_LINE - 1);
    while line < to {
        region.prefetch_for_write(line as usize);
        line += CACHE_LINE;
    }
}
