//! The single reader: hands out records in place and releases the head once per batch,
//! following Agrona's `OneToOneRingBuffer.read`, with every header checked before use.

use crate::attach::{Attachment, PEER_LOOK_EVERY_MS, PeerState};
use crate::error::{Corruption, RingError, Role};
use crate::layout::*;
use crate::positions::check_trailer;
use crate::wait::{Strategy, Wait};
use crate::wake::{self, Sleep, Sleeper};

/// What a [`Consumer::read_controlled`] handler asks for after each message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The message is consumed; go on with the next.
    Continue,
    /// The message is consumed; end this read after it.
    Break,
    /// The message is not consumed: end this read before it, so the head stays at it and the
    /// next read hands it out again.
    Abort,
}

/// The one consumer of a ring. Obtained from [`crate::Ring::consumer`]; detaches on drop.
pub struct Consumer {
    attachment: Attachment,
    /// Bytes ever consumed; authoritative, as only we write it.
    head: i64,
    /// Bytes in the record area (a power of two).
    capacity: usize,
    /// Largest payload: `capacity / 8`.
    max_message_length: usize,
    /// Whether the bytes read are zeroed before the head is released (a many-to-one ring).
    zero_on_release: bool,
}

/// Stores the head when a read ends, also when the handler panics.
struct Release<'a> {
    consumer: &'a mut Consumer,
    bytes_read: usize,
}

impl Drop for Release<'_> {
    fn drop(&mut self) {
        if self.bytes_read != 0 {
            let c = &mut *self.consumer;
            if c.zero_on_release {
                // Many producers cannot pre-zero the header after their record (each claims
                // blindly): the consumer zeroes what it read, as Agrona's ManyToOne read.
                let index = c.head as usize & (c.capacity - 1);
                c.attachment.region.zero_records(index, self.bytes_read);
            }
            c.head += self.bytes_read as i64;
            c.attachment.region.so_head(c.head); // SYNC POINT: head
            // A producer asleep on a full ring is woken (only if it armed the futex wait).
            wake::wake(&c.attachment.region, Sleeper::Producer);
        }
    }
}

impl Consumer {
    pub(crate) fn new(attachment: Attachment) -> Result<Consumer, RingError> {
        let region = &attachment.region;
        // SYNC POINT: head, SYNC POINT: tail (the positions the previous holder left)
        let (head, tail) = (region.lv_head(), region.lv_tail());
        check_trailer(region, head, tail)?;
        let capacity = region.capacity();
        // A predecessor may have died armed: its producer would fence for nobody.
        wake::disarm(region, Sleeper::Consumer);
        Ok(Consumer {
            head,
            capacity,
            max_message_length: max_message_length(capacity),
            zero_on_release: region.kind() == Kind::ManyToOne,
            attachment,
        })
    }

    /// The mapped ring (for the many-to-one consumer's unblock).
    pub(crate) fn region(&self) -> &crate::region::Region {
        &self.attachment.region
    }

    /// The position of the next record to read (bytes ever consumed, padding included).
    pub fn position(&self) -> i64 {
        self.head
    }

    /// Hands up to `limit` messages to `handler` as `(type_id, payload)`, the payload borrowed
    /// from the ring without copying, and then releases their bytes to the producer with one
    /// store of the head. Reads at most up to the end of the record area; the next call
    /// continues from the start. Returns the number of messages handled (0 when none is ready).
    ///
    /// # Errors
    /// [`RingError::CorruptRecord`] with the record's position when a header is invalid
    /// (length < 8, running past the area or the maximum message length, or a type that is
    /// neither >= 1 nor padding). Messages before it were handed out and released.
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// for i in 0u32..3 {
    ///     producer.try_write(1, &i.to_le_bytes())?;
    /// }
    /// let mut sum = 0;
    /// let n = consumer.read(|_, bytes| sum += u32::from_le_bytes(bytes.try_into().unwrap()), 100)?;
    /// assert_eq!((n, sum), (3, 3));
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    #[inline]
    pub fn read<F: FnMut(i32, &[u8])>(
        &mut self,
        mut handler: F,
        limit: usize,
    ) -> Result<usize, RingError> {
        self.read_controlled(
            |type_id, payload| {
                handler(type_id, payload);
                Action::Continue
            },
            limit,
        )
    }

    /// Reads like [`Consumer::read`], but the handler decides after each message whether the
    /// read goes on ([`Action::Continue`]), stops after it ([`Action::Break`]) or stops before
    /// it, leaving it unconsumed ([`Action::Abort`]: the head is released up to the message
    /// before, and the next read hands the same message out again). Agrona's
    /// `ControlledMessageHandler` without `COMMIT`. Zero-copy, and still one store of the head
    /// per call. Returns the number of messages consumed (an aborted one is not counted).
    ///
    /// # Errors
    /// As [`Consumer::read`].
    ///
    /// # Examples
    /// A reader that takes messages only while they pass a check, and leaves the first bad one
    /// in the ring:
    /// ```
    /// use sympathy_ring::{Action, Ring};
    /// let ring = Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// for byte in [1u8, 2, 0, 3] {
    ///     producer.try_write(1, &[byte])?;
    /// }
    /// let mut sum = 0;
    /// let check = |_: i32, bytes: &[u8], sum: &mut u32| match bytes[0] {
    ///     0 => Action::Abort,
    ///     b => {
    ///         *sum += u32::from(b);
    ///         Action::Continue
    ///     }
    /// };
    /// assert_eq!(consumer.read_controlled(|t, b| check(t, b, &mut sum), 10)?, 2);
    /// assert_eq!(sum, 3);
    /// // The bad message is still there, at the head.
    /// assert_eq!(consumer.position(), 2 * 16);
    /// assert_eq!(consumer.read_controlled(|t, b| check(t, b, &mut sum), 10)?, 0);
    /// assert_eq!(consumer.read(|_, b| assert_eq!(b, [0]), 1)?, 1);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    #[inline]
    pub fn read_controlled<F: FnMut(i32, &[u8]) -> Action>(
        &mut self,
        mut handler: F,
        limit: usize,
    ) -> Result<usize, RingError> {
        let capacity = self.capacity;
        let max_record = self.max_message_length + RECORD_HEADER_LENGTH;
        let head = self.head;
        let head_index = head as usize & (capacity - 1);
        let block = capacity - head_index;
        let mut messages = 0;
        let mut release = Release {
            consumer: self,
            bytes_read: 0,
        };
        let region = &*release.consumer.attachment.region;
        while release.bytes_read < block && messages < limit {
            let index = head_index + release.bytes_read;
            let header = region.lv_record(index); // SYNC POINT: record
            let (length, type_id) = unpack_header(header);
            if length <= 0 {
                break; // nothing yet, or a claim still being written
            }
            let record = length as usize;
            let aligned = align_record(record);
            let room = block - release.bytes_read;
            if record < RECORD_HEADER_LENGTH {
                return Err(corrupt(head, release.bytes_read, capacity, {
                    Corruption::LengthTooShort { length }
                }));
            }
            if aligned > room {
                return Err(corrupt(head, release.bytes_read, capacity, {
                    Corruption::LengthTooLong {
                        length,
                        limit: room,
                    }
                }));
            }
            if type_id == PADDING_MSG_TYPE_ID {
                release.bytes_read += aligned;
                continue;
            }
            if type_id < 1 {
                return Err(corrupt(head, release.bytes_read, capacity, {
                    Corruption::UnknownType { type_id }
                }));
            }
            if record > max_record {
                return Err(corrupt(head, release.bytes_read, capacity, {
                    Corruption::LengthTooLong {
                        length,
                        limit: max_record,
                    }
                }));
            }
            release.bytes_read += aligned;
            messages += 1;
            let len = record - RECORD_HEADER_LENGTH;
            // SAFETY: index + record <= capacity (aligned <= room checked above), and the bytes
            // are ours until the head is released after the handler returns (Release::drop).
            let payload = unsafe { std::slice::from_raw_parts(region.payload(index, len), len) };
            match handler(type_id, payload) {
                Action::Continue => {}
                Action::Break => break,
                Action::Abort => {
                    // The message stays in the ring: release only the records before it.
                    release.bytes_read -= aligned;
                    messages -= 1;
                    break;
                }
            }
        }
        drop(release);
        self.attachment.tick();
        Ok(messages)
    }

    /// Reads at most one message, handing it to `handler` and returning its result.
    ///
    /// # Errors
    /// As [`Consumer::read`].
    pub fn try_read_one<R>(
        &mut self,
        handler: impl FnOnce(i32, &[u8]) -> R,
    ) -> Result<Option<R>, RingError> {
        let mut handler = Some(handler);
        let mut out = None;
        // Padding records may precede the message: a second pass covers a wrap.
        for _ in 0..2 {
            self.read(
                |t, b| {
                    if let Some(h) = handler.take() {
                        out = Some(h(t, b));
                    }
                },
                1,
            )?;
            if out.is_some() {
                break;
            }
        }
        Ok(out)
    }

    /// Reads like [`Consumer::read`], waiting with `wait` until at least one message arrives.
    /// With [`Wait::futex`] an idle consumer sleeps until the producer publishes (see
    /// [`Strategy::Futex`]).
    ///
    /// A producer that is stale (paused, stopped, in a long GC) is waited for: it may resume. A
    /// producer that left before this consumer attached (a reused ring, no records waiting) is
    /// waited for too: a new producer may attach. Only a departure this consumer has seen
    /// happen ends the wait early (see [`Consumer::peer`]).
    ///
    /// # Errors
    /// As [`Consumer::read`]; [`RingError::Timeout`]; [`RingError::PeerDead`] when the
    /// ring is drained and the producer detached or died after this consumer attached (or
    /// while it was attached and seen, or with records waiting for this consumer when it
    /// attached).
    pub fn read_wait<F: FnMut(i32, &[u8])>(
        &mut self,
        mut handler: F,
        limit: usize,
        wait: &Wait,
    ) -> Result<usize, RingError> {
        self.read_controlled_wait(
            |type_id, payload| {
                handler(type_id, payload);
                Action::Continue
            },
            limit,
            wait,
        )
    }

    /// Reads like [`Consumer::read_controlled`], waiting with `wait` until at least one message
    /// is consumed or the handler stops the read: returns `Ok(0)` when the handler aborted the
    /// first message it saw (which stays at the head).
    ///
    /// # Errors
    /// As [`Consumer::read_wait`].
    ///
    /// # Examples
    /// ```
    /// use std::time::Duration;
    /// use sympathy_ring::{Action, Ring, Wait};
    /// let ring = Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// producer.try_write(1, b"not yet")?;
    /// let wait = Wait::backoff().timeout(Duration::from_secs(5));
    /// assert_eq!(consumer.read_controlled_wait(|_, _| Action::Abort, 10, &wait)?, 0);
    /// assert_eq!(consumer.position(), 0);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn read_controlled_wait<F: FnMut(i32, &[u8]) -> Action>(
        &mut self,
        mut handler: F,
        limit: usize,
        wait: &Wait,
    ) -> Result<usize, RingError> {
        let mut idle: u32 = 0;
        // Whether the handler ended a read with Break or Abort (then the wait is over, even
        // when nothing was consumed).
        let stopped = std::cell::Cell::new(false);
        let mut handler = |type_id: i32, payload: &[u8]| {
            let action = handler(type_id, payload);
            if action != Action::Continue {
                stopped.set(true);
            }
            action
        };
        let mut looked_ms = 0;
        let every = wait.polls_per_peer_check();
        let sleep = match wait.strategy {
            Strategy::Futex { .. } => Some(Sleep::new(
                self.attachment.region.clone(),
                Sleeper::Consumer,
            )),
            _ => None,
        };
        wait.until_woken("a message", sleep.as_ref(), || {
            let n = self.read_controlled(&mut handler, limit)?;
            if n > 0 || stopped.get() {
                return Ok(Some(n));
            }
            // Looking at the peer costs a syscall and a /proc read: only every `every` empty
            // polls (1024 when spinning), and at most every PEER_LOOK_EVERY_MS.
            idle = idle.wrapping_add(1);
            if !idle.is_multiple_of(every) {
                return Ok(None);
            }
            // Every read counts towards a heartbeat (4096 of them), but a parking wait polls
            // slowly on a loaded machine: beat here too, so a consumer waiting for a late
            // producer never looks hung to it.
            self.attachment.heartbeat();
            let now = crate::attach::now_ms();
            if now - looked_ms < PEER_LOOK_EVERY_MS {
                return Ok(None);
            }
            looked_ms = now;
            let peer = self.peer();
            if self.attachment.peer_has_left(peer) {
                // It may have written its last records just before leaving: drain them.
                let n = self.read_controlled(&mut handler, limit)?;
                if n > 0 || stopped.get() {
                    return Ok(Some(n));
                }
                if let Some(e) = RingError::peer_gone(peer, Role::Producer) {
                    return Err(e);
                }
            }
            Ok(None)
        })
    }

    /// Stores a heartbeat now (in the Agrona trailer's consumer-heartbeat slot).
    pub fn heartbeat(&mut self) {
        self.attachment.heartbeat();
    }

    /// The producer's state: attached and heartbeating, stale, detached, dead or never seen.
    /// The tail moving since this consumer's previous look counts as a sign of life, so a
    /// foreign producer (Agrona's or Aeron's, which never touch the header page) reads as alive
    /// while it writes.
    pub fn peer(&self) -> PeerState {
        self.attachment.peer()
    }

    /// Sets how old the producer's last sign of life may be before it reads as
    /// [`PeerState::Stale`] (default [`crate::HEARTBEAT_STALE_MS`]).
    pub fn set_stale_limit(&mut self, stale_limit: std::time::Duration) {
        self.attachment.set_stale_limit(stale_limit);
    }

    /// Whether the producer is attached, running and heartbeating.
    pub fn peer_alive(&self) -> bool {
        self.peer().is_alive()
    }
}

impl Drop for Consumer {
    fn drop(&mut self) {
        // Leaving: the producer stops fencing for a sleeper that is gone.
        wake::disarm(&self.attachment.region, Sleeper::Consumer);
    }
}

impl std::fmt::Debug for Consumer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Consumer")
            .field("head", &self.head)
            .field("capacity", &self.capacity)
            .finish()
    }
}

#[cold]
fn corrupt(head: i64, offset: usize, capacity: usize, corruption: Corruption) -> RingError {
    let position = head + offset as i64;
    RingError::CorruptRecord {
        position,
        index: position as usize & (capacity - 1),
        corruption,
    }
}
