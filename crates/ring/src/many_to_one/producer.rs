//! A many-to-one producer: claims its record's space with a compare-and-swap on the tail, then
//! writes it in place, byte for byte as Agrona's `ManyToOneRingBuffer` (`claimCapacity`,
//! `write`, `tryClaim`, `commit`, `abort`) and Aeron's `aeron_mpsc_rb`. See
//! `docs/ring-layout.md`, "Many-to-one".

use std::sync::Arc;

use crate::error::RingError;
use crate::layout::*;
use crate::positions::check_positions;
use crate::primitive::{Ordering, fence};
use crate::region::Region;
use crate::short_bytes;
use crate::wait::Wait;

/// One producer of a [`super::ManyToOneRing`]; make one per thread with
/// [`super::ManyToOneRing::producer`].
pub struct ManyToOneProducer {
    region: Arc<Region>,
    /// Bytes in the record area (a power of two).
    capacity: usize,
    /// Largest payload: `capacity / 8`.
    max_message_length: usize,
}

impl std::fmt::Debug for ManyToOneProducer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ManyToOneProducer")
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl ManyToOneProducer {
    pub(super) fn new(region: Arc<Region>) -> ManyToOneProducer {
        let capacity = region.capacity();
        ManyToOneProducer {
            region,
            capacity,
            max_message_length: max_message_length(capacity),
        }
    }

    /// The largest payload this ring takes.
    pub fn max_message_length(&self) -> usize {
        self.max_message_length
    }

    /// Copies `payload` into the ring as one message of type `type_id`.
    ///
    /// # Errors
    /// [`RingError::Full`] (back pressure: nothing was written, retry later; a ring full at the
    /// wrap has the end of its area padded first, as Agrona's), [`RingError::MessageTooLong`],
    /// [`RingError::InvalidTypeId`], [`RingError::CorruptRecord`] if the trailer's positions are
    /// impossible.
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::ManyToOneRing::anonymous(1024)?;
    /// let (mut a, mut b) = (ring.producer(), ring.producer());
    /// a.try_write(1, b"from a")?;
    /// b.try_write(2, b"from b")?;
    /// let mut consumer = ring.consumer()?;
    /// assert_eq!(consumer.read(|_, _| {}, 10)?, 2);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn try_write(&mut self, type_id: i32, payload: &[u8]) -> Result<(), RingError> {
        let index = self.start_claim(type_id, payload.len())?;
        // SAFETY: claim() reserved index + 8 + len <= capacity for this producer alone (the
        // compare-and-swap on the tail); the bytes are ours until the header below publishes.
        unsafe {
            let dst = self.region.payload(index, payload.len());
            short_bytes::copy(payload.as_ptr(), dst, payload.len());
        }
        let header = pack_header((payload.len() + RECORD_HEADER_LENGTH) as i32, type_id);
        self.region.so_record(index, header); // SYNC POINT: record
        Ok(())
    }

    /// Writes `payload`, waiting with `wait` while the ring is full.
    ///
    /// # Errors
    /// As [`ManyToOneProducer::try_write`], and [`RingError::Timeout`] when the ring stays full
    /// past the wait's timeout.
    pub fn write(&mut self, type_id: i32, payload: &[u8], wait: &Wait) -> Result<(), RingError> {
        wait.until("room in the many-to-one ring", || {
            match self.try_write(type_id, payload) {
                Ok(()) => Ok(Some(())),
                Err(RingError::Full { .. }) => Ok(None),
                Err(e) => Err(e),
            }
        })
    }

    /// Reserves room for a `len`-byte payload of type `type_id` and hands out its bytes to be
    /// filled in place; the consumer waits at it until [`ManyToOneClaim::commit`] (dropping the
    /// claim aborts it: the consumer skips it as padding).
    ///
    /// # Errors
    /// As [`ManyToOneProducer::try_write`].
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::ManyToOneRing::anonymous(1024)?;
    /// let mut producer = ring.producer();
    /// let mut claim = producer.try_claim(3, 4)?;
    /// claim.copy_from_slice(&7u32.to_le_bytes());
    /// claim.commit();
    /// let mut consumer = ring.consumer()?;
    /// assert_eq!(consumer.read(|t, b| assert_eq!((t, b), (3, &7u32.to_le_bytes()[..])), 8)?, 1);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn try_claim(&mut self, type_id: i32, len: usize) -> Result<ManyToOneClaim<'_>, RingError> {
        let index = self.start_claim(type_id, len)?;
        Ok(ManyToOneClaim {
            producer: self,
            index,
            len,
            type_id,
            done: false,
        })
    }

    /// Checks the message, claims its record and marks it in progress (a negative length, as
    /// Agrona's `write` and `tryClaim` store before the payload); returns the record's index.
    fn start_claim(&mut self, type_id: i32, len: usize) -> Result<usize, RingError> {
        crate::error::check_message(type_id, len, self.max_message_length)?;
        let record_length = (len + RECORD_HEADER_LENGTH) as i32;
        let index = self.claim(align_record(record_length as usize))?;
        // In progress: the consumer stops here until the release of the final header, and an
        // unblock scanning from the head finds this claim's header before any of its payload
        // (the fence keeps the payload stores after it, as Agrona's `releaseFence`).
        self.region
            .so_record(index, pack_header(-record_length, type_id)); // SYNC POINT: record
        fence(Ordering::Release);
        Ok(index)
    }

    /// Claims `required` bytes (an aligned record) at the tail with a compare-and-swap, as
    /// Agrona's `claimCapacity`: the record's index, or [`RingError::Full`]. A record that fits
    /// neither before the end of the area nor before the head at index 0 still claims the end
    /// of the area as padding (the tail moves past it) before the ring is reported full.
    fn claim(&mut self, required: usize) -> Result<usize, RingError> {
        let region = &*self.region;
        let capacity = self.capacity;
        let mask = capacity - 1;
        let mut head = region.lv_head_cache(); // SYNC POINT: head-cache
        loop {
            let tail = region.lv_tail(); // SYNC POINT: tail
            if required as i64 > capacity as i64 - (tail - head) {
                head = region.lv_head(); // SYNC POINT: head
                if head > tail {
                    continue; // the tail moved on since it was loaded (other producers)
                }
                check_positions(region, head, tail)?;
                let available = capacity as i64 - (tail - head);
                if required as i64 > available {
                    return Err(RingError::Full {
                        required,
                        available: available.max(0) as usize,
                    });
                }
                region.so_head_cache(head); // SYNC POINT: head-cache
            }
            let tail_index = tail as usize & mask;
            let to_end = capacity - tail_index;
            let mut write_index = Some(tail_index);
            let mut padding = 0;
            let mut new_tail = tail + required as i64;
            if required > to_end {
                let mut head_index = head as usize & mask;
                write_index = Some(0);
                if required > head_index {
                    head = region.lv_head(); // SYNC POINT: head
                    if head > tail {
                        continue;
                    }
                    check_positions(region, head, tail)?;
                    head_index = head as usize & mask;
                    if required > head_index {
                        write_index = None;
                        new_tail = tail; // pad to the end only: claim nothing at 0
                    }
                    region.so_head_cache(head); // SYNC POINT: head-cache
                }
                padding = to_end;
                new_tail += padding as i64;
            }
            // SYNC POINT: tail-claim
            if !region.cas_tail(tail, new_tail) {
                continue;
            }
            if padding != 0 {
                // The end of the area, ours alone now, becomes one padding record.
                region.so_record(tail_index, pack_header(padding as i32, PADDING_MSG_TYPE_ID)); // SYNC POINT: record
            }
            return write_index.ok_or(RingError::Full {
                required,
                available: (head as usize & mask),
            });
        }
    }

    /// Publishes a claimed record's header: its type (padding for an abort) and positive length.
    fn finish_claim(&self, index: usize, len: usize, type_id: i32) {
        let header = pack_header((len + RECORD_HEADER_LENGTH) as i32, type_id);
        self.region.so_record(index, header); // SYNC POINT: record
    }
}

/// A record claimed in a many-to-one ring, being filled in place. Derefs to its payload bytes.
///
/// [`ManyToOneClaim::commit`] publishes it; [`ManyToOneClaim::abort`] or dropping it turns it
/// into padding the consumer skips. Until then the consumer waits at it: a claim held for long
/// holds up every producer's messages behind it.
pub struct ManyToOneClaim<'a> {
    producer: &'a mut ManyToOneProducer,
    index: usize,
    len: usize,
    type_id: i32,
    done: bool,
}

impl ManyToOneClaim<'_> {
    /// Publishes the record.
    pub fn commit(mut self) {
        self.done = true;
        self.producer
            .finish_claim(self.index, self.len, self.type_id);
    }

    /// Withdraws the record: it stays in the ring as padding.
    pub fn abort(mut self) {
        self.done = true;
        self.producer
            .finish_claim(self.index, self.len, PADDING_MSG_TYPE_ID);
    }

    /// The first byte of the claimed payload (`len` bytes).
    fn payload(&self) -> *mut u8 {
        // SAFETY: claim() reserved index + 8 + len <= capacity for this producer alone, and the
        // bytes are its own until the claim is committed or aborted.
        unsafe { self.producer.region.payload(self.index, self.len) }
    }
}

impl std::ops::Deref for ManyToOneClaim<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: the producer owns the claimed bytes until the claim ends (see payload);
        // &self borrows the claim.
        unsafe { std::slice::from_raw_parts(self.payload(), self.len) }
    }
}

impl std::ops::DerefMut for ManyToOneClaim<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in deref; &mut self makes this the only view of the bytes.
        unsafe { std::slice::from_raw_parts_mut(self.payload(), self.len) }
    }
}

impl Drop for ManyToOneClaim<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.producer
                .finish_claim(self.index, self.len, PADDING_MSG_TYPE_ID);
        }
    }
}
