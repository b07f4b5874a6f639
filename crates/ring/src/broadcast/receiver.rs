//! A receiver of a broadcast ring, as Agrona's `BroadcastReceiver` wrapped in a
//! `CopyBroadcastReceiver`: it copies each record out, then checks that the transmitter did not
//! overwrite it meanwhile (the tail intent, loaded after an acquire fence, is still less than a
//! capacity ahead of the record) before handing the copy out. Only copies are handed out: the
//! transmitter may overwrite a record at any time, so a view into the ring could change under
//! its reader (in Rust, a data race).

use std::sync::Arc;

use crate::error::{Corruption, RingError};
use crate::layout::*;
use crate::primitive::{Ordering, fence};
use crate::region::Region;

/// One receiver of a [`super::BroadcastRing`]; any number may read at once, in any processes.
pub struct Receiver {
    region: Arc<Region>,
    /// Bytes in the record area (a power of two).
    capacity: usize,
    /// Largest payload: `capacity / 8`.
    max_message_length: usize,
    /// The position of the next record to receive.
    next_record: i64,
    /// Times the transmitter lapped this receiver.
    lapped: u64,
    /// The last record received, copied out (grows to the largest message seen).
    scratch: Vec<u8>,
}

impl std::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receiver")
            .field("position", &self.next_record)
            .field("lapped", &self.lapped)
            .finish()
    }
}

/// A record header as found: where it is and what it says.
#[derive(Clone, Copy)]
struct Found {
    position: i64,
    index: usize,
    length: i32,
    type_id: i32,
}

impl Receiver {
    pub(super) fn new(region: Arc<Region>) -> Receiver {
        let capacity = region.capacity();
        let latest = region.lv_latest(); // SYNC POINT: latest
        Receiver {
            region,
            capacity,
            max_message_length: max_message_length(capacity),
            next_record: latest,
            lapped: 0,
            scratch: Vec::new(),
        }
    }

    /// The position of the next record this receiver will take.
    pub fn position(&self) -> i64 {
        self.next_record
    }

    /// Times the transmitter lapped this receiver: each time, the records it had not yet
    /// received were lost to it, and it rejoined at the latest record.
    pub fn lapped_count(&self) -> u64 {
        self.lapped
    }

    /// Receives the next record, if one is there: copies it out, checks it was not overwritten
    /// while copying, and hands the copy to `handler`, returning its result. A receiver the
    /// transmitter has lapped (the next record was overwritten before it got to it) counts the
    /// lap in [`Receiver::lapped_count`] and receives the latest record instead, as Agrona's.
    /// `Ok(None)` when there is nothing new, and when the record was overwritten while it was
    /// being copied (also a lap, counted: the next call receives from the latest record).
    ///
    /// # Errors
    /// [`RingError::CorruptRecord`] for a record no transmitter writes (a length shorter than
    /// its header or past the end of the area, a payload over the maximum, a type id below 1
    /// that is not padding), found while the record was not being overwritten.
    ///
    /// # Examples
    /// ```
    /// let ring = sympathy_ring::BroadcastRing::anonymous(1024)?;
    /// let mut receiver = ring.receiver()?;
    /// assert_eq!(receiver.receive(|_, b| b.len())?, None); // nothing yet
    /// let mut transmitter = ring.transmitter()?;
    /// for i in 0..100u64 {
    ///     transmitter.transmit(1, &i.to_le_bytes())?; // 16 bytes each: laps the receiver
    /// }
    /// // Lapped: the first 90-odd records are lost to it; it rejoins at the latest.
    /// let latest = receiver.receive(|_, b| u64::from_le_bytes(b.try_into().unwrap()))?;
    /// assert_eq!((latest, receiver.lapped_count()), (Some(99), 1));
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn receive<R>(
        &mut self,
        handler: impl FnOnce(i32, &[u8]) -> R,
    ) -> Result<Option<R>, RingError> {
        let tail = self.region.lv_broadcast_tail(); // SYNC POINT: broadcast-tail
        let mut cursor = self.next_record;
        if tail <= cursor {
            return Ok(None);
        }
        if !self.not_overwritten(cursor) {
            self.lapped += 1;
            cursor = self.region.lv_latest(); // SYNC POINT: latest
        }
        let mut found = self.header_at(cursor);
        if found.type_id == PADDING_MSG_TYPE_ID {
            // The end of the area was skipped: the record is at index 0.
            let after = cursor + align_record(found.length.max(0) as usize) as i64;
            found = self.header_at(after);
        }
        let len = self.copy_payload(found);
        // SYNC POINT: tail-intent (pairs with the transmitter's release fence after its intent
        // store: a byte of the copy written after that intent makes the intent visible below).
        fence(Ordering::Acquire);
        // From `cursor`, not the record's position: a padding record overwritten meanwhile
        // could have sent the read to a wrong place (the Java receiver checks the same).
        if !self.not_overwritten(cursor) {
            self.lapped += 1;
            self.next_record = self.region.lv_latest(); // SYNC POINT: latest
            return Ok(None);
        }
        // Not overwritten: what was read is what the transmitter wrote, so it must be sane.
        self.check(found, cursor)?;
        self.next_record = found.position + align_record(found.length as usize) as i64;
        Ok(Some(handler(found.type_id, &self.scratch[..len])))
    }

    /// Whether the record at `position` is still intact: the transmitter has not announced a
    /// record ending a capacity or more past it (Agrona's `validate`).
    fn not_overwritten(&self, position: i64) -> bool {
        position + self.capacity as i64 > self.region.lv_tail_intent() // SYNC POINT: tail-intent
    }

    /// The header of the record at `position` (relaxed: the check after the copy decides).
    fn header_at(&self, position: i64) -> Found {
        let index = position as usize & (self.capacity - 1);
        let (length, type_id) = unpack_header(self.region.lp_word(index) as i64);
        Found {
            position,
            index,
            length,
            type_id,
        }
    }

    /// Copies the payload of `found` into the scratch buffer word by word, if its length is
    /// one a record can have (otherwise nothing: the check after says whether it is corrupt or
    /// was being overwritten); returns the payload's length.
    fn copy_payload(&mut self, found: Found) -> usize {
        let Some(len) = self.payload_length(found) else {
            return 0;
        };
        if self.scratch.len() < len {
            self.scratch.resize(len, 0);
        }
        let mut at = found.index + RECORD_HEADER_LENGTH;
        for chunk in self.scratch[..len].chunks_mut(8) {
            let word = self.region.lp_word(at).to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
            at += 8;
        }
        len
    }

    /// The payload length of a record header that fits the area and the maximum.
    fn payload_length(&self, found: Found) -> Option<usize> {
        let record = usize::try_from(found.length).ok()?;
        let fits = record >= RECORD_HEADER_LENGTH
            && found.index + align_record(record) <= self.capacity
            && record - RECORD_HEADER_LENGTH <= self.max_message_length;
        fits.then(|| record - RECORD_HEADER_LENGTH)
    }

    /// Refuses a record no transmitter writes, found intact: see [`Receiver::receive`].
    /// `cursor` is where the record (or the padding before it) started.
    fn check(&self, found: Found, cursor: i64) -> Result<(), RingError> {
        let corrupt = |corruption| RingError::CorruptRecord {
            position: found.position,
            index: found.index,
            corruption,
        };
        let length = found.length;
        if length < RECORD_HEADER_LENGTH as i32 {
            return Err(corrupt(Corruption::LengthTooShort { length }));
        }
        if found.type_id < 1 {
            return Err(corrupt(Corruption::UnknownType {
                type_id: found.type_id,
            }));
        }
        if self.payload_length(found).is_none() {
            let limit =
                (self.capacity - found.index).min(self.max_message_length + RECORD_HEADER_LENGTH);
            return Err(corrupt(Corruption::LengthTooLong { length, limit }));
        }
        if found.position != cursor && found.index != 0 {
            // A padding record that did not run to the end of the area.
            let at = cursor as usize & (self.capacity - 1);
            return Err(RingError::CorruptRecord {
                position: cursor,
                index: at,
                corruption: Corruption::LengthTooLong {
                    length: found.position.wrapping_sub(cursor) as i32,
                    limit: self.capacity - at,
                },
            });
        }
        Ok(())
    }
}
