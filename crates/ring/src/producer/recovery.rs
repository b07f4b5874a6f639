//! Crash recovery: where a producer that takes the role over resumes, and the claims its
//! predecessor left unfinished (found by the crash tests, see `docs/verification.md`).

use crate::layout::{
    PADDING_MSG_TYPE_ID, RECORD_ALIGNMENT, RECORD_HEADER_LENGTH, align_record, pack_header,
    unpack_header,
};
use crate::region::Region;

/// Where a producer taking over the ring resumes. A previous producer publishes a record's
/// header before it stores the trailer's tail; if it was killed between the two, records past
/// the trailer's tail are already published (the consumer may even have read them, putting its
/// head past that tail). Resuming at the trailer's tail would then overwrite a published record
/// while the consumer may be reading it (a torn message), or start behind the head. So the new
/// producer starts at the later of head and tail and walks over complete published records
/// (positive lengths that fit) to the first header that is not one: zero, or the negative length
/// of a claim its predecessor never finished, which it overwrites. Found by the crash tests
/// (docs/verification.md). Invalid positions are left for
/// [`check_positions`](crate::positions::check_positions) to report.
pub(super) fn resume_position(region: &Region, head: i64, tail: i64) -> i64 {
    let capacity = region.capacity() as i64;
    let aligned = |p: i64| p >= 0 && p % RECORD_ALIGNMENT as i64 == 0;
    if !aligned(head) || !aligned(tail) || tail.wrapping_sub(head) > capacity {
        return tail;
    }
    if head.wrapping_sub(tail) > capacity {
        return tail; // head implausibly far ahead: corrupt, reported by the caller
    }
    unblock_dead_claims(region, head, tail);
    let mut position = head.max(tail);
    while position - head < capacity {
        let index = (position & (capacity - 1)) as usize;
        let (length, _) = unpack_header(region.lv_record(index)); // SYNC POINT: record
        let to_end = capacity as usize - index;
        if length < RECORD_HEADER_LENGTH as i32 || align_record(length as usize) > to_end {
            break;
        }
        let next = position + align_record(length as usize) as i64;
        if next - head > capacity {
            break;
        }
        position = next;
    }
    position
}

/// Turns claims left unfinished below the trailer's tail into padding (Agrona's `unblock`). A
/// predecessor that stores the tail when it claims (Agrona, the Java ring) and died inside a
/// claim left a negative length there that would block the consumer forever; this producer has
/// taken the role over (the predecessor is dead or detached), so nobody will finish it. Our own
/// producer stores the tail after publishing, so it never leaves one below the tail. Stops at a
/// zero or invalid header (nothing to skip by).
fn unblock_dead_claims(region: &Region, head: i64, tail: i64) {
    let capacity = region.capacity();
    let mut position = head;
    while position < tail {
        let index = position as usize & (capacity - 1);
        let (length, _) = unpack_header(region.lv_record(index)); // SYNC POINT: record
        let Some(record) = length.checked_abs().map(|l| l as usize) else {
            break;
        };
        if record < RECORD_HEADER_LENGTH || align_record(record) > capacity - index {
            break;
        }
        if length < 0 {
            // SYNC POINT: record (the consumer skips it as padding)
            region.so_record(index, pack_header(record as i32, PADDING_MSG_TYPE_ID));
        }
        position += align_record(record) as i64;
    }
}
