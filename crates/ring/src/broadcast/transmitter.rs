//! The one writer of a broadcast ring, record for record as Agrona's `BroadcastTransmitter`:
//! announce where the record will end (the tail intent), write it, then publish it as the
//! latest record and move the tail past it. It never waits: receivers that fall a capacity
//! behind are lapped.

use crate::attach::{Attachment, PeerState};
use crate::error::RingError;
use crate::layout::*;

/// The one transmitter of a [`super::BroadcastRing`]. Obtained from
/// [`super::BroadcastRing::transmitter`]; detaches on drop.
pub struct Transmitter {
    attachment: Attachment,
    /// The position past the last complete record; authoritative, as only we write it.
    tail: i64,
    /// Bytes in the record area (a power of two).
    capacity: usize,
    /// Largest payload: `capacity / 8`.
    max_message_length: usize,
}

impl std::fmt::Debug for Transmitter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transmitter")
            .field("position", &self.tail)
            .finish()
    }
}

impl Transmitter {
    pub(super) fn new(attachment: Attachment) -> Result<Transmitter, RingError> {
        super::check_trailer(&attachment.region)?;
        let tail = attachment.region.lv_broadcast_tail(); // SYNC POINT: broadcast-tail
        let capacity = attachment.region.capacity();
        Ok(Transmitter {
            tail,
            capacity,
            max_message_length: max_message_length(capacity),
            attachment,
        })
    }

    /// The largest payload this ring takes.
    pub fn max_message_length(&self) -> usize {
        self.max_message_length
    }

    /// The position the next record will take (bytes ever transmitted, padding included).
    pub fn position(&self) -> i64 {
        self.tail
    }

    /// Transmits `payload` as one message of type `type_id` to every receiver. Never waits.
    ///
    /// # Errors
    /// [`RingError::MessageTooLong`], [`RingError::InvalidTypeId`].
    pub fn transmit(&mut self, type_id: i32, payload: &[u8]) -> Result<(), RingError> {
        let len = payload.len();
        crate::error::check_message(type_id, len, self.max_message_length)?;
        let region = &*self.attachment.region;
        let record_length = len + RECORD_HEADER_LENGTH;
        let aligned = align_record(record_length);
        let mut tail = self.tail;
        let mut index = tail as usize & (self.capacity - 1);
        let to_end = self.capacity - index;
        if to_end < aligned {
            region.so_tail_intent(tail + (aligned + to_end) as i64); // SYNC POINT: tail-intent
            region.sp_word(
                index,
                pack_header(to_end as i32, PADDING_MSG_TYPE_ID) as u64,
            );
            tail += to_end as i64;
            index = 0;
        } else {
            region.so_tail_intent(tail + aligned as i64); // SYNC POINT: tail-intent
        }
        region.sp_word(index, pack_header(record_length as i32, type_id) as u64);
        // Word by word: receivers may be copying these bytes right now (they find out from the
        // tail intent afterwards), so every byte is written atomically. The bytes between the
        // payload's end and the aligned end are zeroed.
        let mut chunks = payload.chunks_exact(8);
        let mut at = index + RECORD_HEADER_LENGTH;
        for chunk in &mut chunks {
            region.sp_word(at, u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
            at += 8;
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            region.sp_word(at, u64::from_le_bytes(last));
        }
        region.so_latest(tail); // SYNC POINT: latest
        self.tail = tail + aligned as i64;
        region.so_broadcast_tail(self.tail); // SYNC POINT: broadcast-tail
        self.attachment.tick();
        Ok(())
    }

    /// Stores a heartbeat now (a transmit stores one every few thousand calls).
    pub fn heartbeat(&mut self) {
        self.attachment.heartbeat();
    }

    /// Receivers do not register: always [`PeerState::NeverAttached`]. Here so a transmitter
    /// reads like a producer in code that handles both.
    pub fn peer(&self) -> PeerState {
        self.attachment.peer()
    }
}
