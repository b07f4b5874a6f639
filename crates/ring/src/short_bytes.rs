//! Copies and comparisons of short byte runs without a call into libc.
//!
//! A 4-byte message costs one `memcpy` call per write and one `bcmp` call per check when the
//! length is only known at run time: tens of cycles for four bytes, more than the rest of the
//! ring's per-message work. Any length from 4 to 16 is covered instead by two overlapping
//! fixed-size loads (or stores), one at the start and one ending at the end, which compile to
//! plain moves; 0 to 3 bytes go one at a time. Runs over [`SHORT`] bytes use the library calls,
//! whose set-up cost their length then pays for.

use std::ptr;

/// The longest run handled inline.
pub(crate) const SHORT: usize = 16;

/// Copies `len` bytes from `src` to `dst`, like `ptr::copy_nonoverlapping`.
///
/// # Safety
/// As `ptr::copy_nonoverlapping`, without the alignment requirement (u8): `src` is valid for
/// reading and `dst` for writing `len` bytes, and the two runs do not overlap.
#[inline(always)]
pub(crate) unsafe fn copy(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: in every branch each access lies within [0, len) of its run (the caller's
    // contract); the loads happen before the stores and the runs do not overlap.
    unsafe {
        if len > SHORT {
            ptr::copy_nonoverlapping(src, dst, len);
        } else if len >= 8 {
            let head = src.cast::<u64>().read_unaligned();
            let tail = src.add(len - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(head);
            dst.add(len - 8).cast::<u64>().write_unaligned(tail);
        } else if len == 4 {
            // One store, not two to the same four bytes: a 4-byte message is the common case.
            dst.cast::<u32>()
                .write_unaligned(src.cast::<u32>().read_unaligned());
        } else if len >= 4 {
            let head = src.cast::<u32>().read_unaligned();
            let tail = src.add(len - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(head);
            dst.add(len - 4).cast::<u32>().write_unaligned(tail);
        } else {
            for k in 0..len {
                dst.add(k).write(src.add(k).read());
            }
        }
    }
}

/// Copies `src` into `dst`, as `dst.copy_from_slice(src)`.
///
/// # Panics
/// If the lengths differ (as `copy_from_slice`).
#[inline(always)]
pub(crate) fn copy_from_slice(dst: &mut [u8], src: &[u8]) {
    assert_eq!(
        dst.len(),
        src.len(),
        "copy between runs of different lengths"
    );
    // SAFETY: both runs are `src.len()` bytes long, and a `&mut` never overlaps a `&`.
    unsafe { copy(src.as_ptr(), dst.as_mut_ptr(), src.len()) }
}

/// Whether `a == b`, for runs of any length (inline up to [`SHORT`] bytes).
#[inline(always)]
pub(crate) fn equal(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    if len > SHORT {
        return a == b;
    }
    let (a, b) = (a.as_ptr(), b.as_ptr());
    // SAFETY: in every branch each load lies within [0, len) of both runs (equal lengths).
    unsafe {
        if len >= 8 {
            let word = |p: *const u8, at: usize| p.add(at).cast::<u64>().read_unaligned();
            word(a, 0) == word(b, 0) && word(a, len - 8) == word(b, len - 8)
        } else if len >= 4 {
            let word = |p: *const u8, at: usize| p.add(at).cast::<u32>().read_unaligned();
            word(a, 0) == word(b, 0) && word(a, len - 4) == word(b, len - 4)
        } else {
            (0..len).all(|k| a.add(k).read() == b.add(k).read())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to past the inline limit, at every offset of a few-byte window.
    #[test]
    fn copy_and_equal_agree_with_the_slice_operations() {
        let src: Vec<u8> = (0..64u8)
            .map(|b| b.wrapping_mul(37).wrapping_add(1))
            .collect();
        for len in 0..=SHORT + 8 {
            for at in 0..4 {
                let mut dst = vec![0xaau8; 40];
                copy_from_slice(&mut dst[at..at + len], &src[at..at + len]);
                let mut expected = vec![0xaau8; 40];
                expected[at..at + len].copy_from_slice(&src[at..at + len]);
                assert_eq!(dst, expected, "len {len} at {at}");
                assert!(equal(&dst[at..at + len], &src[at..at + len]));
                for k in 0..len {
                    let mut other = dst.clone();
                    other[at + k] ^= 0x10;
                    assert!(
                        !equal(&other[at..at + len], &src[at..at + len]),
                        "len {len} at {at}: byte {k} differs"
                    );
                }
                if len > 0 {
                    assert!(!equal(&dst[at..at + len], &src[at..at + len - 1]));
                }
            }
        }
    }
}
