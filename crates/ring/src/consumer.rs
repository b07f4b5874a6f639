//! The single reader: hands out records in place and releases the head once per batch,
//! following Agrona's `OneToOneRingBuffer.read`, with every header checked before use.

use crate::attach::{Attachment, PeerState};
use crate::error::{Corruption, RingError, Role};
use crate::layout::*;
use crate::ring::check_positions;
use crate::wait::{Strategy, Wait};
use crate::wake::{self, Sleep, Sleeper};

/// The one consumer of a ring. Obtained from [`crate::Ring::consumer`]; detaches on drop.
pub struct Consumer {
    attachment: Attachment,
    /// Bytes ever consumed; authoritative, as only we write it.
    head: i64,
    /// Bytes in the record area (a power of two).
    capacity: usize,
    /// Largest payload: `capacity / 8`.
    max_message_length: usize,
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
        check_positions(region, head, tail)?;
        let capacity = region.capacity();
        // A predecessor may have died armed: its producer would fence for nobody.
        wake::disarm(region, Sleeper::Consumer);
        Ok(Consumer {
            head,
            capacity,
            max_message_length: max_message_length(capacity),
            attachment,
        })
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
            handler(type_id, payload);
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
    /// # Errors
    /// As [`Consumer::read`]; [`RingError::Timeout`]; [`RingError::PeerDead`] when the
    /// producer detached or died and the ring is drained.
    pub fn read_wait<F: FnMut(i32, &[u8])>(
        &mut self,
        mut handler: F,
        limit: usize,
        wait: &Wait,
    ) -> Result<usize, RingError> {
        let mut idle: u32 = 0;
        let every = wait.polls_per_peer_check();
        let sleep = match wait.strategy {
            Strategy::Futex { .. } => Some(Sleep::new(
                self.attachment.region.clone(),
                Sleeper::Consumer,
            )),
            _ => None,
        };
        wait.until_woken("a message", sleep.as_ref(), || {
            let n = self.read(&mut handler, limit)?;
            if n > 0 {
                return Ok(Some(n));
            }
            // Looking at the peer costs a syscall: only every `every` empty polls (1024 when
            // spinning).
            idle = idle.wrapping_add(1);
            if !idle.is_multiple_of(every) {
                return Ok(None);
            }
            // Every read counts towards a heartbeat (4096 of them), but a parking wait polls
            // slowly on a loaded machine: beat here too, so a consumer waiting for a late
            // producer never looks hung to it.
            self.attachment.heartbeat();
            let peer = self.peer();
            if peer.is_gone() {
                // It may have written its last records just before leaving: drain them.
                let n = self.read(&mut handler, limit)?;
                if n > 0 {
                    return Ok(Some(n));
                }
                if let Some(e) = peer.to_error(Role::Producer) {
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
    pub fn peer(&self) -> PeerState {
        self.attachment.peer()
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
