//! Claims that outlive the borrow of their producer, for bindings (the JNI library keeps one
//! between Java's `tryClaim` and `commit`), and the record area they are filled through. Behind
//! the `bindings` feature, out of the default API: Rust callers use [`Producer::try_claim`],
//! whose [`crate::Claim`] the borrow checker keeps honest.

use super::Producer;
use crate::error::RingError;
use crate::layout::{PADDING_MSG_TYPE_ID, RECORD_HEADER_LENGTH};

impl Producer {
    /// Claims like [`Producer::try_claim`], but hands back a [`DetachedClaim`] that does not
    /// borrow the producer: for bindings whose claims outlive the call that made them (the JNI
    /// library keeps one between Java's `tryClaim` and `commit`). Fill it through
    /// [`Producer::detached_payload`], then [`Producer::commit_detached`] or
    /// [`Producer::abort_detached`]; until then the consumer waits at it. Dropping it finishes
    /// nothing.
    ///
    /// # Errors
    /// As [`Producer::try_write`].
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// let claim = producer.try_claim_detached(3, 4)?;
    /// producer.detached_payload(&claim).copy_from_slice(b"abcd");
    /// assert_eq!(consumer.read(|_, _| {}, 8)?, 0); // not yet visible
    /// producer.commit_detached(claim);
    /// assert_eq!(consumer.read(|t, b| assert_eq!((t, b), (3, &b"abcd"[..])), 8)?, 1);
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn try_claim_detached(
        &mut self,
        type_id: i32,
        len: usize,
    ) -> Result<DetachedClaim, RingError> {
        let index = self.start_claim(type_id, len)?;
        Ok(DetachedClaim {
            index,
            len,
            type_id,
            area: self.record_area().0 as usize,
        })
    }

    /// The payload bytes of a detached claim, to be filled in place.
    ///
    /// # Panics
    /// If `claim` was made by another producer (a programming error, like an index out of
    /// bounds).
    pub fn detached_payload(&mut self, claim: &DetachedClaim) -> &mut [u8] {
        self.check_own(claim);
        // SAFETY: the claim was reserved by this producer (checked above), so index + 8 + len
        // <= capacity, and the producer owns the bytes until the claim is finished; &mut self
        // makes this the only view through the producer.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.attachment.region.payload(claim.index, claim.len),
                claim.len,
            )
        }
    }

    /// Publishes a detached claim.
    ///
    /// # Panics
    /// As [`Producer::detached_payload`].
    pub fn commit_detached(&mut self, claim: DetachedClaim) {
        self.check_own(&claim);
        self.finish_claim(claim.index, claim.len, claim.type_id);
    }

    /// Withdraws a detached claim: it stays in the ring as padding that the consumer skips.
    ///
    /// # Panics
    /// As [`Producer::detached_payload`].
    pub fn abort_detached(&mut self, claim: DetachedClaim) {
        self.check_own(&claim);
        self.finish_claim(claim.index, claim.len, PADDING_MSG_TYPE_ID);
    }

    /// The record area: its first byte and its length (the capacity). For bindings that let
    /// another runtime fill a detached claim in place (the JNI library hands it to Java as a
    /// `MemorySegment` scoped to the producer); writing through the pointer is allowed only
    /// into the payload of a claim of this producer that is not yet finished, while the
    /// producer lives.
    pub fn record_area(&self) -> (*mut u8, usize) {
        let region = &self.attachment.region;
        (region.record_area_ptr(), region.capacity())
    }

    fn check_own(&self, claim: &DetachedClaim) {
        assert_eq!(
            claim.area,
            self.record_area().0 as usize,
            "a DetachedClaim must be finished by the producer that made it"
        );
    }
}

/// A claim held by value instead of borrowing its producer: see
/// [`Producer::try_claim_detached`]. It names its record; only the producer that made it can
/// fill and finish it.
#[must_use = "a detached claim blocks the consumer until it is committed or aborted"]
#[derive(Debug, PartialEq, Eq)]
pub struct DetachedClaim {
    /// Index of the record in the record area.
    index: usize,
    len: usize,
    type_id: i32,
    /// The record area of the producer that made it (its address, for the ownership check).
    area: usize,
}

impl DetachedClaim {
    /// Where the payload starts in the record area (the record's index + 8), as Agrona's
    /// `tryClaim` returns it.
    pub fn payload_index(&self) -> usize {
        self.index + RECORD_HEADER_LENGTH
    }

    /// Payload bytes claimed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the claim has an empty payload.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The message type the claim will publish.
    pub fn type_id(&self) -> i32 {
        self.type_id
    }
}
