//! The one descriptor of the queue's memory: header, counters, slots. `docs/queue-layout.md`
//! is the same description in prose; change both together.
//!
//! ```text
//!  byte 0                                                              byte 127
//! +---------------------------------------------------------------------------+
//! | magic u64 | version u32 | element_size u32 | capacity u64 | roles u32 | 0 |  line 0: header
//! +---------------------------------------------------------------------------+
//! | head u64        (consumer stores Release, producer loads Acquire)   | pad |  line 1
//! +---------------------------------------------------------------------------+
//! | cached_tail u64 (consumer's private, possibly stale copy of tail)   | pad |  line 2
//! +---------------------------------------------------------------------------+
//! | tail u64        (producer stores Release, consumer loads Acquire)   | pad |  line 3
//! +---------------------------------------------------------------------------+
//! | cached_head u64 (producer's private, possibly stale copy of head)   | pad |  line 4
//! +---------------------------------------------------------------------------+
//! | slot 0 | slot 1 | slot 2 | ...                    | slot capacity - 1      |  byte 640..
//! +---------------------------------------------------------------------------+
//! ```
//!
//! This is the seed's layout (`head`, `tailCache`, `tail`, `headCache`, then the elements) with
//! 128-byte lines instead of 64: on x86_64 the adjacent-line prefetcher pulls 64-byte lines in
//! pairs, so two counters 64 bytes apart still share traffic (crossbeam's `CachePadded` pads to
//! 128 bytes for the same reason). All multi-byte fields are native-endian: the file is shared
//! between processes on one machine, never between machines.

use crate::error::QueueError;

/// Byte offsets and sizes of the queue's memory. A namespace of constants and checks; never
/// constructed.
pub struct QueueLayout {
    _private: (),
}

impl QueueLayout {
    /// Size and alignment of one line: every counter has a line of its own.
    pub const LINE: usize = 128;
    /// `magic`: identifies a queue file, `b"SYMPQ1C1"` read as a native-endian u64.
    pub const MAGIC_OFFSET: usize = 0;
    /// `version`: [`QueueLayout::VERSION`]; bumped when any offset or meaning changes.
    pub const VERSION_OFFSET: usize = 8;
    /// `element_size`: `size_of::<T>()` of the element type the queue was created for.
    pub const ELEMENT_SIZE_OFFSET: usize = 12;
    /// `capacity`: number of slots, a power of two.
    pub const CAPACITY_OFFSET: usize = 16;
    /// `roles`: bit 0 set once a producer attached, bit 1 once a consumer attached.
    pub const ROLES_OFFSET: usize = 24;
    /// `head`: position of the next slot the consumer reads; written by the consumer only.
    pub const HEAD_OFFSET: usize = Self::LINE;
    /// `cached_tail`: the consumer's last read of `tail`; touched by the consumer only.
    pub const CACHED_TAIL_OFFSET: usize = 2 * Self::LINE;
    /// `tail`: position of the next slot the producer writes; written by the producer only.
    pub const TAIL_OFFSET: usize = 3 * Self::LINE;
    /// `cached_head`: the producer's last read of `head`; touched by the producer only.
    pub const CACHED_HEAD_OFFSET: usize = 4 * Self::LINE;
    /// First byte of slot 0; slot `i` starts at `SLOTS_OFFSET + i * element_size`.
    pub const SLOTS_OFFSET: usize = 5 * Self::LINE;

    /// The magic number at offset 0.
    pub const MAGIC: u64 = u64::from_ne_bytes(*b"SYMPQ1C1");
    /// The layout version this code reads and writes.
    pub const VERSION: u32 = 1;
    /// Bit of `roles` claimed by the producer.
    pub const PRODUCER_ROLE: u32 = 1;
    /// Bit of `roles` claimed by the consumer.
    pub const CONSUMER_ROLE: u32 = 2;
    /// The largest capacity accepted: positions are u64 and never wrap in practice, but the
    /// slot bytes must fit an `isize` offset.
    pub const MAX_CAPACITY: usize = 1 << 40;

    /// Checks that `capacity` is a non-zero power of two no larger than
    /// [`QueueLayout::MAX_CAPACITY`].
    ///
    /// # Errors
    /// [`QueueError::CapacityNotPowerOfTwo`] naming the bad value.
    ///
    /// # Examples
    /// ```
    /// use sympathy_queue::QueueLayout;
    /// assert!(QueueLayout::check_capacity(1024).is_ok());
    /// assert!(QueueLayout::check_capacity(1000).is_err());
    /// assert!(QueueLayout::check_capacity(0).is_err());
    /// ```
    pub fn check_capacity(capacity: usize) -> Result<(), QueueError> {
        if capacity == 0 || !capacity.is_power_of_two() || capacity > Self::MAX_CAPACITY {
            return Err(QueueError::CapacityNotPowerOfTwo { capacity });
        }
        Ok(())
    }

    /// Total bytes of a queue of `capacity` slots of `element_size` bytes (header, counters,
    /// slots; the slot area is rounded up to a whole line).
    pub fn total_len(capacity: usize, element_size: usize) -> usize {
        // Saturates for absurd sizes: the allocation or the length check then fails cleanly.
        let slots = capacity.saturating_mul(element_size);
        Self::SLOTS_OFFSET.saturating_add(slots.div_ceil(Self::LINE).saturating_mul(Self::LINE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_counter_has_a_line_of_its_own() {
        let offsets = [
            QueueLayout::HEAD_OFFSET,
            QueueLayout::CACHED_TAIL_OFFSET,
            QueueLayout::TAIL_OFFSET,
            QueueLayout::CACHED_HEAD_OFFSET,
            QueueLayout::SLOTS_OFFSET,
        ];
        for pair in offsets.windows(2) {
            assert_eq!(pair[1] - pair[0], QueueLayout::LINE);
        }
        const { assert!(QueueLayout::ROLES_OFFSET + 4 <= QueueLayout::HEAD_OFFSET) };
        assert_eq!(QueueLayout::SLOTS_OFFSET % QueueLayout::LINE, 0);
    }

    #[test]
    fn total_len_rounds_slots_to_a_line() {
        assert_eq!(QueueLayout::total_len(4, 4), 640 + 128);
        assert_eq!(QueueLayout::total_len(64, 4), 640 + 256);
    }

    #[test]
    fn capacity_must_be_a_power_of_two() {
        assert!(QueueLayout::check_capacity(1).is_ok());
        assert_eq!(
            QueueLayout::check_capacity(3),
            Err(QueueError::CapacityNotPowerOfTwo { capacity: 3 })
        );
        assert!(QueueLayout::check_capacity(QueueLayout::MAX_CAPACITY * 2).is_err());
    }
}
