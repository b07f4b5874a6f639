//! Records published together: [`Producer::batch`] hands out a [`Batch`] to write through one
//! record at a time, [`Producer::try_write_batch`] fills runs of equal-length records in place.
//! Either way the header of the batch's first record is held back and released last, so the
//! consumer sees the whole batch at once and pays one cache-line handover for it.

use super::Producer;
use crate::cache_line::CACHE_LINE;
use crate::error::RingError;
use crate::layout::{PADDING_MSG_TYPE_ID, RECORD_HEADER_LENGTH, align_record, pack_header};
use crate::region::Region;
use crate::short_bytes;
use crate::wake::{self, Sleeper};

/// The most bytes of a batch run asked for at once (64 lines, 4096 bytes: a run of 256 short
/// records).
const PREFETCH_RUN_MAX: usize = 64 * CACHE_LINE;

impl Producer {
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
        self.check_message(type_id, len)?;
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
}

/// Holds `header` back as a batch's first (published last) or, when the batch already has
/// one, stores it now: the consumer cannot reach it before the first header is released.
#[inline(always)]
fn hold_or_store(region: &Region, first: &mut Option<(usize, i64)>, index: usize, header: i64) {
    match first {
        None => *first = Some((index, header)),
        // Relaxed: published by the release of the first header, which follows it.
        Some(_) => region.sp_record(index, header),
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
