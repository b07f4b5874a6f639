//! The self-checking operations of the stress and crash tests, the same in Rust and Java
//! (`dev.sympathy.map.Stress`), so that a writer in one language and a reader in the other
//! check each other: operation `j` of a [`Schedule`] is a put of version `j` of a key, or a
//! remove, and every value says which key and version it is ([`value_of`]), so a reader tells
//! a whole value from a torn or foreign one ([`check_value`]) without knowing what to expect.
//!
//! ```
//! use sympathy_map::stress::{Op, Schedule, check_value, value_of};
//! let schedule = Schedule::new(100);
//! if let Op::Put { key, version } = schedule.op(7) {
//!     assert_eq!(check_value(key, &value_of(key, version)), Ok(version));
//! }
//! assert!(check_value(3, &value_of(4, 9)).is_err());
//! ```

use crate::user::mix;

/// One operation of a [`Schedule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Put [`value_of`]`(key, version)`.
    Put {
        /// The key.
        key: u64,
        /// The version: the operation's index.
        version: u64,
    },
    /// Remove the key.
    Remove {
        /// The key.
        key: u64,
    },
}

/// An endless, deterministic sequence of operations over keys `0..keys`: 7 puts in 8, 1
/// remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    keys: u64,
}

impl Schedule {
    /// The schedule over `keys` keys (at least 1).
    pub fn new(keys: u64) -> Schedule {
        Schedule { keys: keys.max(1) }
    }

    /// Operation `j`.
    pub fn op(&self, j: u64) -> Op {
        let r = mix(j ^ 0x5bd1_e995);
        let key = r % self.keys;
        if (r >> 32) % 8 == 7 {
            Op::Remove { key }
        } else {
            Op::Put { key, version: j }
        }
    }
}

/// The value of `key` at `version`: 16 to 71 bytes (the length varies with both), the key, the
/// version, then bytes of a pattern seeded by both.
pub fn value_of(key: u64, version: u64) -> Vec<u8> {
    let length = 16 + (mix(key ^ version.rotate_left(17)) % 56) as usize;
    let mut bytes = Vec::with_capacity(length);
    bytes.extend_from_slice(&key.to_le_bytes());
    bytes.extend_from_slice(&version.to_le_bytes());
    let mut x = key.wrapping_mul(31).wrapping_add(version);
    while bytes.len() < length {
        x = mix(x);
        bytes.push(x as u8);
    }
    bytes
}

/// The version of a value [`value_of`] made for `key`.
///
/// # Errors
/// What is wrong with it: too short, another key's, or not exactly the bytes of its version.
pub fn check_value(key: u64, bytes: &[u8]) -> Result<u64, String> {
    if bytes.len() < 16 {
        return Err(format!(
            "key {key}: a value of {} bytes (at least 16)",
            bytes.len()
        ));
    }
    let found_key = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    let version = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    if found_key != key || bytes != value_of(key, version).as_slice() {
        return Err(format!(
            "key {key}: a torn or foreign value ({} bytes, saying key {found_key} version \
             {version})",
            bytes.len()
        ));
    }
    Ok(version)
}

/// What a reader checks of every read while a writer applies a [`Schedule`]: each value whole
/// ([`check_value`]) and no key's version going back (versions only grow; a remove reads as
/// absent, which is always allowed).
#[derive(Debug, Default, Clone)]
pub struct Verifier {
    last: std::collections::HashMap<u64, u64>,
    /// Reads checked.
    pub reads: u64,
    /// Of which found a value.
    pub hits: u64,
}

impl Verifier {
    /// Checks one read of `key`.
    ///
    /// # Errors
    /// A torn or foreign value, or a version older than one seen before.
    pub fn check(&mut self, key: u64, value: Option<&[u8]>) -> Result<(), String> {
        self.reads += 1;
        let Some(bytes) = value else {
            return Ok(());
        };
        self.hits += 1;
        let version = check_value(key, bytes)?;
        let last = self.last.entry(key).or_insert(version);
        if version < *last {
            return Err(format!(
                "key {key}: read version {version} after version {last}: a value went back"
            ));
        }
        *last = version;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_and_values_are_pinned() {
        // The same values the Java StressTest pins.
        let s = Schedule::new(1000);
        let ops: Vec<Op> = (0..4).map(|j| s.op(j)).collect();
        assert_eq!(
            ops,
            [
                Op::Put {
                    key: 418,
                    version: 0
                },
                Op::Put {
                    key: 159,
                    version: 1
                },
                Op::Put {
                    key: 561,
                    version: 2
                },
                Op::Put {
                    key: 867,
                    version: 3
                },
            ]
        );
        let v = value_of(3, 5);
        assert_eq!(v.len(), 66);
        assert_eq!(&v[16..20], [21, 225, 41, 186]);
        let removes = (0..8000)
            .filter(|&j| matches!(s.op(j), Op::Remove { .. }))
            .count();
        assert!((900..1100).contains(&removes), "{removes}");
    }

    #[test]
    fn a_changed_byte_is_caught() {
        let mut v = value_of(11, 12);
        assert_eq!(check_value(11, &v), Ok(12));
        let last = v.len() - 1;
        v[last] ^= 1;
        assert!(check_value(11, &v).is_err());
    }
}
