//! The one descriptor of the map file: every offset, size and encoding, mirrored by the Java
//! `MapDescriptor` and written down in `docs/map-layout.md` (the canonical description).
//!
//! ```text
//!  0             4096                        4096 + 8 x slots                  + data_capacity
//!  +-------------+---------------------------+--------------------------------------------+
//!  | header page | first slot table:         | data area: records, appended, never moved, |
//!  |             | slots x u64               | and the slot tables of later grows         |
//!  +-------------+---------------------------+--------------------------------------------+
//!
//!  header page       0 magic "SYMPHMAP"  8 version  12 ready  16 slots  24 data_capacity
//!                   32 max_value_length  36 header_length  40 creation_time_ms  48 value_format
//!                   64 data_end  72 count  80 used_slots  88 verified_end  96 boot
//!                                                                   (the writer's counters)
//!                  128 writer  136 writer_heartbeat_ms  144 writer_detached_ms  152 recoveries
//!                  192 table                              (read by every lookup, stored by grows)
//!
//!  slot (u64)        0 empty | u64::MAX tombstone | tag (24 bits) << 40 | record offset / 8
//!
//!  record            +0 key (u64)  +8 value_length (u32)  +12 checksum (u32; 0 in version 1)
//!  (8-aligned)      +16 value bytes, zero padding to a multiple of 8
//! ```
//!
//! A key's slot is found by linear probing from `hash(key) & (slots - 1)`; the slot's tag is
//! `hash(key) >> 40`, so a probe passes most other keys' slots without reading their records.
//! Records are appended at `data_end` and never written again: a put of a new value appends a
//! record and points the slot at it (one release store, the publication), a remove stores the
//! tombstone. All integers are little-endian. A record's checksum ([`record_checksum`]) covers
//! its key, length and value: a reader in a later boot than the records past `verified_end`
//! were written in checks theirs, so it never returns a record torn by an OS crash. From
//! version 3 the writer grows the data area (the file) and the slot table (a new, larger one in
//! the data area, named by the `table` word) as they fill, while readers read.

// ---- Whole file --------------------------------------------------------------------------------

/// The start of the header page every sympathy mapped file shares: [`HEADER_LENGTH`] bytes (the
/// slot table starts there), u64 magic at [`MAGIC_OFFSET`], u32 version at
/// [`LAYOUT_VERSION_OFFSET`], u32 `ready` at [`READY_OFFSET`] (0 while the creator writes the
/// header, [`READY`] once the file is complete, stored last with release).
pub use sympathy_mapped::header::{
    CONSTANTS as HEADER_CONSTANTS, HEADER_LENGTH, LAYOUT_VERSION_OFFSET, MAGIC_OFFSET, READY,
    READY_OFFSET,
};
/// The ASCII bytes `SYMPHMAP` read as a little-endian u64.
pub const MAGIC: u64 = u64::from_le_bytes(*b"SYMPHMAP");
/// The layout version this crate creates: 3, whose maps grow.
pub const LAYOUT_VERSION: u32 = 3;
/// The oldest layout version this crate reads and writes: 1, whose records' checksum word is 0
/// and not checked (its maps are used as they are; `sympathy map copy` makes a version 2 one).
pub const OLDEST_LAYOUT_VERSION: u32 = 1;
/// The first layout version whose records carry a checksum.
pub const FIRST_CHECKSUMMED_VERSION: u32 = 2;
/// The first layout version whose maps grow (the `table` word; a longer file is allowed).
pub const FIRST_GROWABLE_VERSION: u32 = 3;

// ---- Header page: fixed at creation -------------------------------------------------------------

/// u64 slots in the first slot table, at [`HEADER_LENGTH`] (a power of two in
/// [`MIN_SLOTS`]..=[`MAX_SLOTS`]).
pub const SLOTS_OFFSET: usize = 16;
/// u64 bytes in the data area (a multiple of [`RECORD_ALIGNMENT`] in
/// [`MIN_DATA_CAPACITY`]..=[`MAX_DATA_CAPACITY`]). From version 3 the writer grows it, storing
/// it with release once the file is that long.
pub const DATA_CAPACITY_OFFSET: usize = 24;
/// u32 the largest value a put accepts, in bytes (1..=[`MAX_VALUE_LENGTH_LIMIT`], and a record
/// of it fits the data area).
pub const MAX_VALUE_LENGTH_OFFSET: usize = 32;
/// u32 [`HEADER_LENGTH`], where the slot table starts.
pub const HEADER_LENGTH_OFFSET: usize = 36;
/// i64 creation time, ms since the Unix epoch.
pub const CREATION_TIME_OFFSET: usize = 40;
/// u32 how the values are encoded: one of the `VALUE_FORMAT_*` codes (the map itself stores
/// bytes; readers that decode values check it).
pub const VALUE_FORMAT_OFFSET: usize = 48;

// ---- Header page: the writer's counters (one cache line of their own) --------------------------

/// u64 bytes of the data area in use: the next record goes here. Starts at [`DATA_START`];
/// stored (release) after a record is written and before its slot points at it.
pub const DATA_END_OFFSET: usize = 64;
/// u64 keys in the map.
pub const COUNT_OFFSET: usize = 72;
/// u64 slots not empty (keys and tombstones): a put into an empty slot needs this below
/// [`max_used_slots`].
pub const USED_SLOTS_OFFSET: usize = 80;
/// u64 (layout version 2 on) records below this data-area offset are whole on the disk: a
/// `flush` that returned wrote them back, or a writer checked them after the system restarted.
/// Starts at [`DATA_START`].
pub const VERIFIED_END_OFFSET: usize = 88;
/// u64 (layout version 2 on) the boot of the system the records at or past `verified_end` were
/// written in (`sympathy_mapped::current_boot`, stored by the creator and each writer's attach).
/// A reader in another boot checks those records' checksums: a crash of the system may have
/// left them part-written.
pub const BOOT_OFFSET: usize = 96;

// ---- Header page: the writer's attachment (one cache line of its own) ---------------------------

/// u64 the attached writer: `pid | start << 32` (a `sympathy_mapped::ProcessStamp`), 0 when
/// none. Claimed by compare-and-swap from 0, or from a writer that no longer runs.
pub const WRITER_OFFSET: usize = 128;
/// i64 the writer's last heartbeat, ms since the Unix epoch.
pub const WRITER_HEARTBEAT_OFFSET: usize = 136;
/// i64 the writer's heartbeat at its last clean detach, ms since the Unix epoch (0: never).
pub const WRITER_DETACHED_OFFSET: usize = 144;
/// u64 how many writers took over from a writer that died attached, and recounted.
pub const RECOVERIES_OFFSET: usize = 152;

// ---- Header page: the table in use (a cache line of its own) ------------------------------------

/// u64 (layout version 3 on) the slot table in use: 0 for the first one (at [`HEADER_LENGTH`],
/// `slots` slots), else [`table_word`]: a table a grow made in the data area. Stored with release
/// once the table is filled and `data_end` lies past it. Every lookup loads it, so it has a cache
/// line of its own, away from the counters a put stores.
pub const TABLE_OFFSET: usize = 192;

// ---- Value formats ------------------------------------------------------------------------------

/// Values are opaque bytes.
pub const VALUE_FORMAT_BYTES: u32 = 0;
/// Values are users in the flyweight layout of `docs/map-layout.md` (`sympathy_map::user`).
pub const VALUE_FORMAT_USER_FLYWEIGHT: u32 = 1;
/// Reserved: users encoded with the project's SBE schema, once it exists.
pub const VALUE_FORMAT_USER_SBE: u32 = 2;
/// Users as Java serialization writes them (the Java side's slow baseline; Rust cannot decode
/// them).
pub const VALUE_FORMAT_USER_JAVA_SERIALIZATION: u32 = 3;

// ---- Slots --------------------------------------------------------------------------------------

/// Bytes of one slot.
pub const SLOT_LENGTH: usize = 8;
/// The slot word of a slot never used.
pub const EMPTY: u64 = 0;
/// The slot word of a removed key: probes pass it, puts may reuse it.
pub const TOMBSTONE: u64 = u64::MAX;
/// Bits of a slot word that hold the record's offset in 8-byte units.
pub const OFFSET_BITS: u32 = 40;
/// Mask of those bits.
pub const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
/// Bits of the tag above them.
pub const TAG_BITS: u32 = 24;
/// The smallest slot table.
pub const MIN_SLOTS: u64 = 8;
/// The largest slot table: 2^32 slots (32 GiB), so that the bucket bits of the hash (its low
/// 32 at most) never overlap its tag bits (its high 24).
pub const MAX_SLOTS: u64 = 1 << 32;
/// A put into an empty slot is refused once this many percent of the slots are used (keys and
/// tombstones): probes stay short, and a probe always meets an empty slot.
pub const MAX_LOAD_PERCENT: u64 = 75;

/// The low bits of a [`TABLE_OFFSET`] word: the log2 of its table's slots.
pub const TABLE_BITS_MASK: u64 = 63;
/// A grown table's data-area offset is a multiple of this (the low bits of its word hold
/// [`TABLE_BITS_MASK`]).
pub const TABLE_ALIGNMENT: u64 = 64;
/// A grown data capacity is a multiple of this, and a grown table starts at a multiple of it in
/// the file.
pub const GROWTH_ALIGNMENT: u64 = 4096;

// ---- Records ------------------------------------------------------------------------------------

/// Every record starts at a multiple of this many bytes.
pub const RECORD_ALIGNMENT: usize = 8;
/// Bytes before a record's value.
pub const RECORD_HEADER_LENGTH: usize = 16;
/// u64 key within a record.
pub const RECORD_KEY_OFFSET: usize = 0;
/// u32 value length within a record.
pub const RECORD_VALUE_LENGTH_OFFSET: usize = 8;
/// u32 the record's [`record_checksum`] within a record (layout version 2 on; 0 in version 1).
pub const RECORD_CHECKSUM_OFFSET: usize = 12;
/// Where [`record_checksum`]'s running sum starts (the fractional bits of the golden ratio), so
/// that a record of zeros (a page an OS crash left unwritten) does not check.
pub const CHECKSUM_SEED: u64 = 0x9e37_79b9_7f4a_7c15;
/// The first record's offset in the data area: offset 0 is never a record, so that no record's
/// slot word is 0 ([`EMPTY`]).
pub const DATA_START: u64 = 8;
/// The smallest data area.
pub const MIN_DATA_CAPACITY: u64 = 64;
/// The largest data area: 4 TiB, well inside the 40-bit offsets of the slot words.
pub const MAX_DATA_CAPACITY: u64 = 1 << 42;
/// The largest `max_value_length` a map may have: 1 GiB.
pub const MAX_VALUE_LENGTH_LIMIT: u32 = 1 << 30;

/// The exact file length of a map.
pub const fn file_length(slots: u64, data_capacity: u64) -> u64 {
    HEADER_LENGTH as u64 + slots * SLOT_LENGTH as u64 + data_capacity
}

/// Where the data area starts in the file.
pub const fn data_area_offset(slots: u64) -> u64 {
    HEADER_LENGTH as u64 + slots * SLOT_LENGTH as u64
}

/// Bytes a record of a value of `value_length` bytes takes: header, value, padding to 8.
///
/// ```
/// use sympathy_map::layout::record_length;
/// assert_eq!(record_length(0), 16);
/// assert_eq!(record_length(1), 24);
/// assert_eq!(record_length(8), 24);
/// ```
pub const fn record_length(value_length: u64) -> u64 {
    (RECORD_HEADER_LENGTH as u64 + value_length).next_multiple_of(RECORD_ALIGNMENT as u64)
}

/// How many slots may be used (keys and tombstones) before a put into an empty slot is
/// [`MapError::Full`](crate::MapError::Full).
pub const fn max_used_slots(slots: u64) -> u64 {
    slots / 100 * MAX_LOAD_PERCENT + slots % 100 * MAX_LOAD_PERCENT / 100
}

/// The key's 64-bit hash: MurmurHash3's `fmix64` finalizer (every input bit affects every
/// output bit). Its low bits pick the first slot, its high [`TAG_BITS`] are the tag.
///
/// ```
/// use sympathy_map::layout::hash;
/// assert_eq!(hash(0), 0);
/// assert_eq!(hash(1), 0xb456_bcfc_34c2_cb2c);
/// ```
#[inline(always)]
pub const fn hash(key: u64) -> u64 {
    let mut k = key;
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

/// A record's checksum (layout version 2 on): a position-weighted sum of its 64-bit words
/// (Fletcher's, over words), mixed by [`hash`], its high 32 bits. The words are the key, the
/// value's length, then the value zero-padded to a multiple of 8, each little-endian; `sum`
/// starts at [`CHECKSUM_SEED`] and `weighted` at 0, and for each word `w` (wrapping):
///
/// ```text
/// sum += w;  weighted += sum;            checksum = hash(sum ^ rotate_left(weighted, 32)) >> 32
/// ```
///
/// Every word changes `sum` and every position changes `weighted`, so a torn record (part of
/// it from before a crash, or zeros) fails it but for a chance of 2^-32; it costs about a cycle
/// per 8 bytes on top of reading the value.
///
/// ```
/// use sympathy_map::layout::record_checksum;
/// assert_eq!(record_checksum(0, b""), 0x4eee_b164);
/// assert_eq!(record_checksum(1, b"one"), 0x7d8e_65e3);
/// assert_ne!(record_checksum(1, b"onf"), record_checksum(1, b"one"));
/// ```
#[inline(always)]
pub fn record_checksum(key: u64, value: &[u8]) -> u32 {
    let mut sum = CHECKSUM_SEED;
    let mut weighted = 0u64;
    let mut add = |word: u64| {
        sum = sum.wrapping_add(word);
        weighted = weighted.wrapping_add(sum);
    };
    add(key);
    add(value.len() as u64);
    let mut words = value.chunks_exact(8);
    for word in &mut words {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(word);
        add(u64::from_le_bytes(bytes));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut bytes = [0u8; 8];
        bytes[..rest.len()].copy_from_slice(rest);
        add(u64::from_le_bytes(bytes));
    }
    (hash(sum ^ weighted.rotate_left(32)) >> 32) as u32
}

/// The [`TABLE_OFFSET`] word of a table of `slots` slots (a power of two) at data-area
/// `offset` (a multiple of [`TABLE_ALIGNMENT`]).
///
/// ```
/// use sympathy_map::layout::{table_word, TABLE_BITS_MASK};
/// assert_eq!(table_word(8192, 1 << 20), 8192 | 20);
/// assert_eq!(table_word(8192, 1 << 20) & TABLE_BITS_MASK, 20);
/// ```
pub const fn table_word(offset: u64, slots: u64) -> u64 {
    offset | slots.trailing_zeros() as u64
}

/// The table a non-zero [`TABLE_OFFSET`] word names, as `(data-area offset, slots)`, when it
/// names a possible one: [`MIN_SLOTS`]..=[`MAX_SLOTS`] slots at an offset from
/// [`TABLE_ALIGNMENT`] to [`MAX_DATA_CAPACITY`] (so the table's end never overflows). Where it
/// ends against the data area is the caller's to check.
///
/// ```
/// use sympathy_map::layout::{table_of, table_word};
/// assert_eq!(table_of(table_word(8192, 1 << 20)), Some((8192, 1 << 20)));
/// assert_eq!(table_of(8192 | 2), None); // 4 slots
/// assert_eq!(table_of(3), None); // at offset 0
/// ```
#[inline(always)]
pub const fn table_of(word: u64) -> Option<(u64, u64)> {
    let bits = word & TABLE_BITS_MASK;
    let offset = word & !TABLE_BITS_MASK;
    if bits < MIN_SLOTS.trailing_zeros() as u64
        || bits > MAX_SLOTS.trailing_zeros() as u64
        || offset < TABLE_ALIGNMENT
        || offset > MAX_DATA_CAPACITY
    {
        return None;
    }
    Some((offset, 1 << bits))
}

/// The tag of a hash: its high [`TAG_BITS`] bits.
#[inline(always)]
pub const fn tag_of(hash: u64) -> u64 {
    hash >> OFFSET_BITS
}

/// The slot word of a record at `offset` (a multiple of 8 in `DATA_START..MAX_DATA_CAPACITY`)
/// for a key of hash `hash`.
///
/// ```
/// use sympathy_map::layout::{slot_word, hash, record_offset, tag_of, OFFSET_BITS};
/// let w = slot_word(hash(42), 4096);
/// assert_eq!(record_offset(w), 4096);
/// assert_eq!(w >> OFFSET_BITS, tag_of(hash(42)));
/// ```
#[inline(always)]
pub const fn slot_word(hash: u64, offset: u64) -> u64 {
    (tag_of(hash) << OFFSET_BITS) | (offset / RECORD_ALIGNMENT as u64)
}

/// The record offset (in the data area) a live slot word points at.
#[inline(always)]
pub const fn record_offset(word: u64) -> u64 {
    (word & OFFSET_MASK) * RECORD_ALIGNMENT as u64
}

/// Every constant of the map's own as `(NAME, value)` (the header prefix's are
/// [`HEADER_CONSTANTS`]), in the order `sympathy map layout` prints them after those (the Java
/// parity test compares these lines with `MapDescriptor`).
pub const CONSTANTS: &[(&str, i128)] = &sympathy_mapped::named_constants![
    MAGIC,
    LAYOUT_VERSION,
    OLDEST_LAYOUT_VERSION,
    FIRST_CHECKSUMMED_VERSION,
    FIRST_GROWABLE_VERSION,
    SLOTS_OFFSET,
    DATA_CAPACITY_OFFSET,
    MAX_VALUE_LENGTH_OFFSET,
    HEADER_LENGTH_OFFSET,
    CREATION_TIME_OFFSET,
    VALUE_FORMAT_OFFSET,
    DATA_END_OFFSET,
    COUNT_OFFSET,
    USED_SLOTS_OFFSET,
    VERIFIED_END_OFFSET,
    BOOT_OFFSET,
    WRITER_OFFSET,
    WRITER_HEARTBEAT_OFFSET,
    WRITER_DETACHED_OFFSET,
    RECOVERIES_OFFSET,
    TABLE_OFFSET,
    VALUE_FORMAT_BYTES,
    VALUE_FORMAT_USER_FLYWEIGHT,
    VALUE_FORMAT_USER_SBE,
    VALUE_FORMAT_USER_JAVA_SERIALIZATION,
    SLOT_LENGTH,
    EMPTY,
    TOMBSTONE,
    OFFSET_BITS,
    OFFSET_MASK,
    TAG_BITS,
    MIN_SLOTS,
    MAX_SLOTS,
    MAX_LOAD_PERCENT,
    TABLE_BITS_MASK,
    TABLE_ALIGNMENT,
    GROWTH_ALIGNMENT,
    RECORD_ALIGNMENT,
    RECORD_HEADER_LENGTH,
    RECORD_KEY_OFFSET,
    RECORD_VALUE_LENGTH_OFFSET,
    RECORD_CHECKSUM_OFFSET,
    CHECKSUM_SEED,
    DATA_START,
    MIN_DATA_CAPACITY,
    MAX_DATA_CAPACITY,
    MAX_VALUE_LENGTH_LIMIT,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_spells_symphmap() {
        assert_eq!(&MAGIC.to_le_bytes(), b"SYMPHMAP");
    }

    #[test]
    fn the_writers_counters_its_attachment_and_the_table_have_cache_lines_of_their_own() {
        for offset in [
            DATA_END_OFFSET,
            COUNT_OFFSET,
            USED_SLOTS_OFFSET,
            VERIFIED_END_OFFSET,
            BOOT_OFFSET,
        ] {
            assert_eq!(offset / 64, 1);
        }
        assert_eq!(TABLE_OFFSET / 64, 3);
        for offset in [
            WRITER_OFFSET,
            WRITER_HEARTBEAT_OFFSET,
            WRITER_DETACHED_OFFSET,
            RECOVERIES_OFFSET,
        ] {
            assert_eq!(offset / 64, 2);
        }
        const { assert!(VALUE_FORMAT_OFFSET + 4 <= 64) };
    }

    #[test]
    fn every_field_is_naturally_aligned() {
        for (name, value) in HEADER_CONSTANTS
            .iter()
            .chain(CONSTANTS)
            .filter(|(n, _)| n.ends_with("_OFFSET"))
        {
            let size = if [
                "LAYOUT_VERSION_OFFSET",
                "READY_OFFSET",
                "MAX_VALUE_LENGTH_OFFSET",
                "HEADER_LENGTH_OFFSET",
                "VALUE_FORMAT_OFFSET",
                "RECORD_VALUE_LENGTH_OFFSET",
                "RECORD_CHECKSUM_OFFSET",
            ]
            .contains(name)
            {
                4
            } else {
                8
            };
            assert_eq!(value % size, 0, "{name}");
        }
    }

    #[test]
    fn slot_words_never_collide_with_empty_or_tombstone() {
        // The smallest offset, any tag: never 0; the largest offset: never all ones.
        assert_ne!(slot_word(0, DATA_START), EMPTY);
        let last = MAX_DATA_CAPACITY - RECORD_ALIGNMENT as u64;
        assert_ne!(slot_word(u64::MAX, last), TOMBSTONE);
        assert_eq!(record_offset(slot_word(u64::MAX, last)), last);
    }

    #[test]
    fn the_load_limit_is_three_quarters() {
        assert_eq!(max_used_slots(8), 6);
        assert_eq!(max_used_slots(1 << 25), (1 << 25) / 4 * 3);
        assert_eq!(max_used_slots(MAX_SLOTS), MAX_SLOTS / 4 * 3);
    }

    #[test]
    fn hash_spreads_consecutive_keys() {
        let mut buckets = [0u32; 64];
        for k in 0..64_000u64 {
            buckets[(hash(k) & 63) as usize] += 1;
        }
        assert!(
            buckets.iter().all(|&n| (800..1200).contains(&n)),
            "{buckets:?}"
        );
    }
}
