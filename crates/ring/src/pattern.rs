//! The test-message pattern shared with the Java side: message `i` of size `S` carries the low
//! `min(8, S)` bytes of `i` little-endian, then byte `k` (for `k >= 8`) is `(i + k) mod 256`.
//!
//! Filling and checking are a copy and a compare from a precomputed template, so producers and
//! consumers can verify every byte at memory speed; short messages are copied and compared
//! inline (`short_bytes`), without a call into libc per message.

use crate::short_bytes;

/// The smallest test message: 4 bytes, room for the low 4 bytes of its index. A shorter one
/// cannot tell messages apart (a 0-byte message would match every index), so the checks refuse
/// it ([`Mismatch::TooShort`]).
pub const MIN_MESSAGE_SIZE: usize = 4;

/// The expected byte `k` of message `i`.
///
/// # Examples
/// ```
/// use sympathy_ring::pattern::pattern_byte;
/// assert_eq!(pattern_byte(0x0102, 0), 0x02);
/// assert_eq!(pattern_byte(0x0102, 1), 0x01);
/// assert_eq!(pattern_byte(250, 8), 2); // (250 + 8) mod 256
/// ```
pub fn pattern_byte(i: u64, k: usize) -> u8 {
    if k < 8 {
        i.to_le_bytes()[k]
    } else {
        (i.wrapping_add(k as u64) % 256) as u8
    }
}

/// Writes the low `min(8, out.len())` bytes of `i`, little-endian, at the start of `out`.
///
/// Word stores straight from the register (two overlapping ones for 4..8 bytes, as
/// `short_bytes`), not a copy out of `i.to_le_bytes()`: the array would go through the stack on
/// every message, and the bench loops' speed then depended on where the stack slot fell.
#[inline(always)]
fn write_index(i: u64, out: &mut [u8]) {
    let len = out.len();
    if len >= 8 {
        out[..8].copy_from_slice(&i.to_le_bytes());
    } else if len >= 4 {
        out[len - 4..].copy_from_slice(&((i >> (8 * (len - 4))) as u32).to_le_bytes());
        out[..4].copy_from_slice(&(i as u32).to_le_bytes());
    } else {
        for (k, byte) in out.iter_mut().enumerate() {
            *byte = (i >> (8 * k)) as u8;
        }
    }
}

/// Whether `msg` starts with the low `min(8, msg.len())` bytes of `i`, little-endian (the
/// check matching [`write_index`]).
#[inline(always)]
fn index_matches(i: u64, msg: &[u8]) -> bool {
    let len = msg.len();
    let word4 = |at: usize| u32::from_le_bytes(msg[at..at + 4].try_into().expect("4 bytes"));
    if len >= 8 {
        u64::from_le_bytes(msg[..8].try_into().expect("8 bytes")) == i
    } else if len >= 4 {
        word4(0) == i as u32 && word4(len - 4) == (i >> (8 * (len - 4))) as u32
    } else {
        msg.iter()
            .enumerate()
            .all(|(k, &b)| b == (i >> (8 * k)) as u8)
    }
}

/// The index message `msg` says it is: its first `min(8, len)` bytes, little-endian; `None`
/// under [`MIN_MESSAGE_SIZE`] bytes. A message of 4 to 7 bytes holds only the low 32 to 56 bits
/// of its index. A consumer that joins a stream part-way takes its first index from here.
///
/// # Examples
/// ```
/// use sympathy_ring::pattern::{Pattern, index_of};
/// let mut msg = vec![0; 12];
/// Pattern::new(12).fill(300, &mut msg);
/// assert_eq!(index_of(&msg), Some(300));
/// assert_eq!(index_of(&msg[..4]), Some(300));
/// assert_eq!(index_of(&msg[..3]), None);
/// ```
pub fn index_of(msg: &[u8]) -> Option<u64> {
    if msg.len() < MIN_MESSAGE_SIZE {
        return None;
    }
    let mut word = [0u8; 8];
    let n = msg.len().min(8);
    word[..n].copy_from_slice(&msg[..n]);
    Some(u64::from_le_bytes(word))
}

/// Where a message differs from the pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mismatch {
    /// The message is shorter than [`MIN_MESSAGE_SIZE`]: not a test message.
    TooShort {
        /// Bytes received.
        found: usize,
    },
    /// The message has the wrong size.
    Size {
        /// Bytes received.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },
    /// A byte differs.
    Byte {
        /// Its offset in the message.
        offset: usize,
        /// The byte received.
        found: u8,
        /// The byte expected.
        expected: u8,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Mismatch::TooShort { found } => write!(
                f,
                "{found} bytes, test messages have at least {MIN_MESSAGE_SIZE}"
            ),
            Mismatch::Size { found, expected } => {
                write!(f, "size {found} bytes, expected {expected}")
            }
            Mismatch::Byte {
                offset,
                found,
                expected,
            } => write!(f, "byte {offset} is {found:#04x}, expected {expected:#04x}"),
        }
    }
}

/// Fills and checks pattern messages of one size.
///
/// # Examples
/// ```
/// use sympathy_ring::pattern::Pattern;
/// let p = Pattern::new(12);
/// let mut msg = vec![0; 12];
/// p.fill(300, &mut msg);
/// assert_eq!(msg, [44, 1, 0, 0, 0, 0, 0, 0, 52, 53, 54, 55]);
/// assert!(p.check(300, &msg).is_ok());
/// assert!(p.check(301, &msg).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Pattern {
    size: usize,
    /// `template[j] = j mod 256`, `size + 256` bytes: message `i` (past its first 8 bytes) is
    /// `template[i % 256 ..][..size]`.
    template: Vec<u8>,
}

impl Pattern {
    /// A pattern for messages of `size` bytes.
    pub fn new(size: usize) -> Pattern {
        Pattern {
            size,
            template: (0..size + 256).map(|j| j as u8).collect(),
        }
    }

    /// The message size.
    pub fn size(&self) -> usize {
        self.size
    }

    fn body(&self, i: u64, len: usize) -> &[u8] {
        let start = (i % 256) as usize;
        &self.template[start..start + len]
    }

    /// Writes message `i` into `out` (`out.len()` must be the pattern's size).
    ///
    /// # Panics
    /// If `out.len()` differs from the size.
    #[inline(always)]
    pub fn fill(&self, i: u64, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            self.size,
            "the message must have the pattern's size"
        );
        self.fill_len(i, out);
    }

    /// Writes message `i` with `out.len()` bytes, any length up to the pattern's size: the
    /// template does not depend on the size, so one pattern of the largest size serves random
    /// sizes without a template per size.
    ///
    /// # Panics
    /// If `out.len()` exceeds the size.
    ///
    /// # Examples
    /// ```
    /// use sympathy_ring::pattern::Pattern;
    /// let p = Pattern::new(8192);
    /// let mut msg = vec![0; 12];
    /// p.fill_len(300, &mut msg);
    /// assert_eq!(msg, [44, 1, 0, 0, 0, 0, 0, 0, 52, 53, 54, 55]);
    /// assert!(p.check_len(300, &msg).is_ok());
    /// ```
    #[inline(always)]
    pub fn fill_len(&self, i: u64, out: &mut [u8]) {
        assert!(
            out.len() <= self.size,
            "a message of {} bytes is longer than the pattern's {}",
            out.len(),
            self.size
        );
        write_index(i, out);
        if out.len() > 8 {
            let len = out.len();
            short_bytes::copy_from_slice(&mut out[8..], &self.body(i, len)[8..]);
        }
    }

    /// Checks that `msg` is message `i`, naming the first difference.
    ///
    /// # Errors
    /// The first [`Mismatch`]; `TooShort` for a message under [`MIN_MESSAGE_SIZE`] bytes.
    #[inline(always)]
    pub fn check(&self, i: u64, msg: &[u8]) -> Result<(), Mismatch> {
        if msg.len() != self.size {
            return Err(Mismatch::Size {
                found: msg.len(),
                expected: self.size,
            });
        }
        self.check_len(i, msg)
    }

    /// Checks that `msg` is message `i` at its own length, any length up to the pattern's size
    /// (see [`Pattern::fill_len`]).
    ///
    /// # Errors
    /// The first [`Mismatch`]; `Size` when `msg` is longer than the pattern, `TooShort` when it
    /// is under [`MIN_MESSAGE_SIZE`] bytes.
    ///
    /// # Examples
    /// ```
    /// use sympathy_ring::pattern::{Mismatch, Pattern};
    /// let p = Pattern::new(64);
    /// assert_eq!(p.check_len(0, &[0, 0, 0]), Err(Mismatch::TooShort { found: 3 }));
    /// assert_eq!(
    ///     Mismatch::TooShort { found: 3 }.to_string(),
    ///     "3 bytes, test messages have at least 4"
    /// );
    /// ```
    #[inline(always)]
    pub fn check_len(&self, i: u64, msg: &[u8]) -> Result<(), Mismatch> {
        if msg.len() < MIN_MESSAGE_SIZE {
            return Err(Mismatch::TooShort { found: msg.len() });
        }
        if msg.len() > self.size {
            return Err(Mismatch::Size {
                found: msg.len(),
                expected: self.size,
            });
        }
        let n = msg.len().min(8);
        if index_matches(i, msg) && short_bytes::equal(&msg[n..], &self.body(i, msg.len())[n..]) {
            return Ok(());
        }
        self.first_difference(i, msg)
    }

    #[cold]
    fn first_difference(&self, i: u64, msg: &[u8]) -> Result<(), Mismatch> {
        for (offset, &found) in msg.iter().enumerate() {
            let expected = pattern_byte(i, offset);
            if found != expected {
                return Err(Mismatch::Byte {
                    offset,
                    found,
                    expected,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_matches_the_byte_rule() {
        for size in [4, 7, 8, 9, 64, 300] {
            let p = Pattern::new(size);
            let mut msg = vec![0; size];
            for i in [0u64, 1, 255, 256, 1 << 40, u64::MAX] {
                p.fill(i, &mut msg);
                for (k, &b) in msg.iter().enumerate() {
                    assert_eq!(b, pattern_byte(i, k), "size {size} i {i} k {k}");
                }
                assert_eq!(p.check(i, &msg), Ok(()));
            }
        }
    }

    #[test]
    fn one_pattern_fills_and_checks_every_shorter_size() {
        let big = Pattern::new(300);
        for size in [0, 4, 7, 8, 9, 64, 300] {
            let exact = Pattern::new(size);
            let (mut a, mut b) = (vec![0; size], vec![0; size]);
            for i in [0u64, 255, 1 << 40] {
                big.fill_len(i, &mut a);
                exact.fill(i, &mut b);
                assert_eq!(a, b, "size {size} i {i}");
                if size >= MIN_MESSAGE_SIZE {
                    assert_eq!(big.check_len(i, &a), Ok(()));
                }
            }
        }
        assert!(matches!(
            Pattern::new(4).check_len(0, &[0; 5]),
            Err(Mismatch::Size { .. })
        ));
    }

    /// Every short size (where the index is written and checked word-wise) and every byte:
    /// the fill follows the byte rule, and a change to any one byte is caught at its offset.
    #[test]
    fn short_messages_follow_the_rule_and_every_changed_byte_is_caught() {
        let p = Pattern::new(24);
        for size in 0..=24 {
            for i in [0u64, 1, 0x0102_0304_0506_0708, 1 << 40, u64::MAX - 3] {
                let mut msg = vec![0xAA; size];
                p.fill_len(i, &mut msg);
                let expected: Vec<u8> = (0..size).map(|k| pattern_byte(i, k)).collect();
                assert_eq!(msg, expected, "size {size} i {i:#x}");
                if size < MIN_MESSAGE_SIZE {
                    continue; // refused whatever the bytes: short_messages_are_refused
                }
                assert_eq!(p.check_len(i, &msg), Ok(()));
                for k in 0..size {
                    let mut bad = msg.clone();
                    bad[k] ^= 0x40;
                    assert_eq!(
                        p.check_len(i, &bad),
                        Err(Mismatch::Byte {
                            offset: k,
                            found: msg[k] ^ 0x40,
                            expected: msg[k]
                        }),
                        "size {size} i {i:#x} byte {k}"
                    );
                }
            }
        }
    }

    /// A message under 4 bytes cannot carry its index (a 0-byte one would match any), so it is
    /// refused even when its bytes follow the rule, as the Java side's check does.
    #[test]
    fn short_messages_are_refused() {
        for size in 0..MIN_MESSAGE_SIZE {
            let exact = Pattern::new(size);
            let mut msg = vec![0; size];
            for i in [0u64, 1, 255] {
                exact.fill(i, &mut msg);
                let refused = Err(Mismatch::TooShort { found: size });
                assert_eq!(exact.check(i, &msg), refused, "size {size} i {i}");
                assert_eq!(Pattern::new(64).check_len(i, &msg), refused);
            }
        }
        assert_eq!(
            Mismatch::TooShort { found: 0 }.to_string(),
            "0 bytes, test messages have at least 4"
        );
    }

    #[test]
    fn check_names_the_first_wrong_byte() {
        let p = Pattern::new(16);
        let mut msg = vec![0; 16];
        p.fill(5, &mut msg);
        msg[10] ^= 0xff;
        assert_eq!(
            p.check(5, &msg),
            Err(Mismatch::Byte {
                offset: 10,
                found: 15 ^ 0xff,
                expected: 15
            })
        );
        assert_eq!(
            p.check(5, &msg[..4]),
            Err(Mismatch::Size {
                found: 4,
                expected: 16
            })
        );
    }
}
