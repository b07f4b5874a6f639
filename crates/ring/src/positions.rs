//! The checks of the trailer's two positions, the consumer's head and the producer's tail
//! (`docs/ring-layout.md`, "Trailer"), beside the bytes they check: [`check_trailer`] for a pair
//! as a file holds it, at open and attach, and [`check_positions`] for a producer's own tail
//! against the head it reads.

use crate::error::{Corruption, RingError};
use crate::layout::{MAX_POSITION, RECORD_ALIGNMENT};
use crate::region::Region;

/// Checks a head/tail pair read from the trailer, at open and attach: both non-negative,
/// 8-aligned and at most [`MAX_POSITION`], and at most a capacity apart either way. The head may
/// be ahead of the trailer's tail: the Rust producer stores the tail after it publishes (a
/// batch's once, after the whole batch), so a consumer can read records the tail does not count
/// yet, and a producer killed in that window leaves the head past the tail for good. The next
/// producer resumes after those records (`resume_position`), so such a file is valid.
pub(crate) fn check_trailer(region: &Region, head: i64, tail: i64) -> Result<(), RingError> {
    let gap = tail.wrapping_sub(head);
    let capacity = region.capacity() as i64;
    if possible_position(head) && possible_position(tail) && (-capacity..=capacity).contains(&gap) {
        Ok(())
    } else {
        Err(bad_positions(region, head, tail))
    }
}

/// Checks the producer's own position `tail` against the consumer's `head`: both possible
/// positions and `0 <= tail - head <= capacity` (the consumer never passes the producer).
pub(crate) fn check_positions(region: &Region, head: i64, tail: i64) -> Result<(), RingError> {
    let gap = tail.wrapping_sub(head);
    if possible_position(head)
        && possible_position(tail)
        && (0..=region.capacity() as i64).contains(&gap)
    {
        Ok(())
    } else {
        Err(bad_positions(region, head, tail))
    }
}

/// Non-negative, 8-aligned, at most [`MAX_POSITION`].
fn possible_position(position: i64) -> bool {
    (0..=MAX_POSITION).contains(&position) && position % RECORD_ALIGNMENT as i64 == 0
}

#[cold]
fn bad_positions(region: &Region, head: i64, tail: i64) -> RingError {
    RingError::CorruptRecord {
        position: head,
        index: (head as usize) & (region.capacity() - 1),
        corruption: Corruption::BadPositions { head, tail },
    }
}
