//! The sizes a map is created with: its slots, its data area, its largest value and its value
//! format, and what each may be.

use crate::error::MapError;
use crate::layout::*;

/// The `max_value_length` of a map [`MapConfig::for_entries`] sizes (64 KiB, or the data area if
/// smaller), and so the longest mean value it sizes for.
const MAX_MEAN_VALUE_LENGTH: u64 = 64 * 1024;

/// How large a new map is, fixed at create (a full map is copied into a larger one:
/// `sympathy map copy`).
///
/// ```
/// use sympathy_map::MapConfig;
/// // Room for a million values of about 100 bytes: 2^21 slots (load 0.48), 144 MB of records.
/// let config = MapConfig::for_entries(1_000_000, 100)?;
/// assert_eq!(config.slots, 1 << 21);
/// assert!(config.data_capacity >= 1_000_000 * 120);
/// # Ok::<(), sympathy_map::MapError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapConfig {
    /// Slots in the table: a power of two in [`MIN_SLOTS`]..=[`MAX_SLOTS`]; at most three
    /// quarters of them can hold keys (and tombstones).
    pub slots: u64,
    /// Bytes of the data area: a multiple of 8 in [`MIN_DATA_CAPACITY`]..=[`MAX_DATA_CAPACITY`].
    /// Every put appends a record (16 bytes + the value, padded to 8); overwritten and removed
    /// values keep their bytes until the map is copied.
    pub data_capacity: u64,
    /// The largest value a put accepts (1..=[`MAX_VALUE_LENGTH_LIMIT`], and its record must fit
    /// the data area).
    pub max_value_length: u32,
    /// How values are encoded (a `VALUE_FORMAT_*` code of [`crate::layout`]).
    pub value_format: u32,
}

impl MapConfig {
    /// A map for `entries` values of about `mean_value_length` bytes each: the smallest power
    /// of two of slots that keeps the load at or under one half, and a data area with room for
    /// every record plus a quarter (for overwrites), `max_value_length` 64 KiB (or the data
    /// area, if smaller), values as bytes.
    ///
    /// # Errors
    /// [`MapError::BadConfig`] when they cannot fit one map: more entries than the largest slot
    /// table holds at load one half (2^31), a mean value longer than 64 KiB, or records past
    /// the largest data area (2^42 bytes). Nothing is rounded down to a smaller map.
    ///
    /// ```
    /// # use sympathy_map::MapConfig;
    /// assert_eq!(MapConfig::for_entries(1000, 100)?.slots, 2048);
    /// let error = MapConfig::for_entries(u64::MAX, 100).unwrap_err();
    /// assert_eq!(error.kind(), "bad-config");
    /// # Ok::<(), sympathy_map::MapError>(())
    /// ```
    pub fn for_entries(entries: u64, mean_value_length: u64) -> Result<MapConfig, MapError> {
        let bad = |what: String| Err(MapError::BadConfig { what });
        let max_entries = MAX_SLOTS / 2;
        if entries > max_entries {
            return bad(format!(
                "{entries} entries do not fit one map: at most {max_entries} (2^31) keep its \
                 largest slot table (2^32) at load 1/2; split them over several maps"
            ));
        }
        if mean_value_length > MAX_MEAN_VALUE_LENGTH {
            return bad(format!(
                "a mean value length of {mean_value_length} bytes is over the \
                 {MAX_MEAN_VALUE_LENGTH}-byte largest value of a map sized for entries; give \
                 --slots, --data-capacity and --max-value-length instead"
            ));
        }
        // At most 2^31 records of at most 64 KiB + 24 bytes: no overflow below.
        let records = entries * record_length(mean_value_length);
        let wanted = (records + records / 4 + 4096).next_multiple_of(RECORD_ALIGNMENT as u64);
        if wanted > MAX_DATA_CAPACITY {
            return bad(format!(
                "{entries} entries of {mean_value_length} bytes need a data area of {wanted} \
                 bytes (their records and a quarter more), over the largest, 2^42 bytes; split \
                 them over several maps"
            ));
        }
        let slots = (entries * 2).next_power_of_two().max(MIN_SLOTS);
        let data_capacity = wanted.max(MIN_DATA_CAPACITY);
        let room = data_capacity - DATA_START - RECORD_HEADER_LENGTH as u64;
        Ok(MapConfig {
            slots,
            data_capacity,
            max_value_length: room.min(MAX_MEAN_VALUE_LENGTH) as u32,
            value_format: VALUE_FORMAT_BYTES,
        })
    }

    /// The same map with values in `format`.
    pub fn with_value_format(self, value_format: u32) -> MapConfig {
        MapConfig {
            value_format,
            ..self
        }
    }

    /// Checks every size.
    ///
    /// # Errors
    /// [`MapError::BadConfig`] saying which size is wrong and what would do.
    pub fn check(&self) -> Result<(), MapError> {
        let problems = [
            Self::slots_problem(self.slots).map(|p| format!("slots {p}")),
            Self::data_capacity_problem(self.data_capacity).map(|p| format!("data capacity {p}")),
            Self::max_value_length_problem(self.max_value_length, self.data_capacity)
                .map(|p| format!("max value length {p}")),
        ];
        match problems.into_iter().flatten().next() {
            None => Ok(()),
            Some(what) => Err(MapError::BadConfig { what }),
        }
    }

    /// What is wrong with a slot count, if anything.
    pub(crate) fn slots_problem(slots: u64) -> Option<String> {
        (!(slots.is_power_of_two() && (MIN_SLOTS..=MAX_SLOTS).contains(&slots))).then(|| {
            format!(
                "is {slots}, expected a power of two between {MIN_SLOTS} and 2^32 (such as 1048576)"
            )
        })
    }

    /// What is wrong with a data capacity, if anything.
    pub(crate) fn data_capacity_problem(data_capacity: u64) -> Option<String> {
        (!(data_capacity.is_multiple_of(RECORD_ALIGNMENT as u64)
            && (MIN_DATA_CAPACITY..=MAX_DATA_CAPACITY).contains(&data_capacity)))
        .then(|| {
            format!(
                "is {data_capacity}, expected a multiple of 8 between {MIN_DATA_CAPACITY} and \
                 2^42 bytes"
            )
        })
    }

    /// What is wrong with a largest value length for a data area, if anything.
    pub(crate) fn max_value_length_problem(max: u32, data_capacity: u64) -> Option<String> {
        let fits = data_capacity >= DATA_START
            && record_length(u64::from(max)) <= data_capacity - DATA_START;
        (!((1..=MAX_VALUE_LENGTH_LIMIT).contains(&max) && fits)).then(|| {
            format!(
                "is {max}, expected 1 to 2^30 bytes, and a record of it (16 + the value, padded \
                 to 8) within the data area after its first 8 bytes"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_sizes_are_named() {
        let good = MapConfig::for_entries(100, 10).unwrap();
        assert!(good.check().is_ok());
        for (config, word) in [
            (MapConfig { slots: 12, ..good }, "slots"),
            (MapConfig { slots: 4, ..good }, "slots"),
            (
                MapConfig {
                    data_capacity: 100,
                    ..good
                },
                "data capacity",
            ),
            (
                MapConfig {
                    data_capacity: 32,
                    ..good
                },
                "data capacity",
            ),
            (
                MapConfig {
                    max_value_length: 0,
                    ..good
                },
                "max value length",
            ),
            (
                MapConfig {
                    data_capacity: 64,
                    max_value_length: 41,
                    ..good
                },
                "max value length",
            ),
        ] {
            let e = config.check().unwrap_err();
            assert_eq!(e.kind(), "bad-config");
            assert!(e.to_string().starts_with(word), "{e}");
        }
        // The largest value that fits 64 bytes: 8 reserved, 16 of header, 40 of value.
        let tight = MapConfig {
            slots: 8,
            data_capacity: 64,
            max_value_length: 40,
            value_format: 0,
        };
        assert!(tight.check().is_ok());
    }

    #[test]
    fn for_entries_keeps_the_load_under_a_half() {
        for entries in [0, 1, 3, 1000, 15_000_000, MAX_SLOTS / 2] {
            let c = MapConfig::for_entries(entries, 100).unwrap();
            assert!(c.check().is_ok(), "{c:?}");
            assert!(entries * 2 <= c.slots || c.slots == MIN_SLOTS, "{c:?}");
        }
        assert_eq!(
            MapConfig::for_entries(15_000_000, 100).unwrap().slots,
            1 << 25
        );
        let largest = MapConfig::for_entries(1000, MAX_MEAN_VALUE_LENGTH).unwrap();
        assert!(largest.check().is_ok(), "{largest:?}");
    }

    #[test]
    fn for_entries_refuses_what_no_map_holds_instead_of_a_smaller_map() {
        for (entries, mean, words) in [
            (MAX_SLOTS / 2 + 1, 100, "entries do not fit one map"),
            (u64::MAX, 100, "entries do not fit one map"),
            (10, MAX_MEAN_VALUE_LENGTH + 1, "mean value length"),
            (10, u64::MAX, "mean value length"),
            (1 << 31, 4096, "over the largest, 2^42 bytes"),
        ] {
            let error = MapConfig::for_entries(entries, mean).unwrap_err();
            assert_eq!(error.kind(), "bad-config", "{entries} x {mean}: {error}");
            assert!(
                error.to_string().contains(words),
                "{entries} x {mean}: {error}"
            );
        }
    }
}
