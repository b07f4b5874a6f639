//! Zero-copy claims: [`Producer::try_claim`] reserves a record and hands out its payload bytes
//! to be filled in place as a [`Claim`], which publishes the record on [`Claim::commit`] and
//! turns it into padding on [`Claim::abort`] or drop (Agrona's `tryClaim`, `commit`, `abort`).

use super::Producer;
use crate::error::RingError;
use crate::layout::{PADDING_MSG_TYPE_ID, RECORD_HEADER_LENGTH, pack_header};
use crate::wake::{self, Sleeper};

impl Producer {
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
        let index = self.start_claim(type_id, len)?;
        Ok(Claim {
            producer: self,
            index,
            len,
            type_id,
            done: false,
        })
    }

    /// Reserves the record of a claim and marks it in progress; returns its index in the record
    /// area. The claim ends with [`Producer::finish_claim`]: until then the consumer waits at it.
    #[inline]
    pub(super) fn start_claim(&mut self, type_id: i32, len: usize) -> Result<usize, RingError> {
        let reserved = self.reserve(type_id, len)?;
        self.publish_padding(reserved);
        let record_length = (len + RECORD_HEADER_LENGTH) as i32;
        // A negative length marks the claim in progress (Agrona's tryClaim); it is published by
        // the release in commit/abort.
        self.attachment
            .region
            .sp_record(reserved.index, pack_header(-record_length, type_id));
        Ok(reserved.index)
    }

    /// Publishes the header of a claimed record (`type_id` -1 turns it into padding) and the
    /// tail.
    pub(super) fn finish_claim(&mut self, index: usize, len: usize, type_id: i32) {
        let region = &self.attachment.region;
        let header = pack_header((len + RECORD_HEADER_LENGTH) as i32, type_id);
        region.so_record(index, header); // SYNC POINT: record
        region.so_tail(self.tail); // SYNC POINT: tail
        wake::wake(region, Sleeper::Consumer);
        self.attachment.tick();
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

    /// The first byte of the claimed payload (`len` bytes).
    #[inline]
    fn payload(&self) -> *mut u8 {
        // SAFETY: reserve() checked index + 8 + len <= capacity, and the producer owns these
        // bytes until the claim is committed or aborted.
        unsafe {
            self.producer
                .attachment
                .region
                .payload(self.index, self.len)
        }
    }

    fn finish(&mut self, type_id: i32) {
        self.done = true;
        self.producer.finish_claim(self.index, self.len, type_id);
    }
}

impl std::ops::Deref for Claim<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: the producer owns the claimed bytes until the claim is committed or aborted
        // (see Claim::payload); &self borrows the claim.
        unsafe { std::slice::from_raw_parts(self.payload(), self.len) }
    }
}

impl std::ops::DerefMut for Claim<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in deref; &mut self makes this the only view of the bytes.
        unsafe { std::slice::from_raw_parts_mut(self.payload(), self.len) }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.finish(PADDING_MSG_TYPE_ID);
        }
    }
}
