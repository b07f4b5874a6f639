//! Reading the table: the record a slot word points at, checked to lie in the data area, and
//! the probe of a lookup. What [`MapFile`](crate::MapFile)'s lookups and the
//! [`Writer`](crate::Writer)'s share.

use crate::error::MapError;
use crate::layout::*;
use crate::region::Region;

/// A record a slot points at, checked.
pub(crate) struct Record<'a> {
    pub(crate) key: u64,
    pub(crate) value: &'a [u8],
}

/// The key of the record a live slot word points at, checked to lie in the data area.
#[inline(always)]
pub(crate) fn record_key(region: &Region, word: u64) -> Result<u64, MapError> {
    let offset = record_offset(word);
    if offset < DATA_START || offset + RECORD_HEADER_LENGTH as u64 > region.data_capacity() {
        return Err(MapError::corrupt(
            region.path(),
            format!(
                "slot word {word:#018x} points at offset {offset}, outside the data area of {} bytes",
                region.data_capacity()
            ),
        ));
    }
    Ok(region.lp_record_key(offset))
}

/// The record a live slot word points at (published: its slot was loaded with acquire, or
/// written by this process), checked to lie in the data area whole.
#[inline(always)]
pub(crate) fn record(
    region: &Region,
    max_value_length: u32,
    word: u64,
) -> Result<Record<'_>, MapError> {
    let key = record_key(region, word)?;
    let offset = record_offset(word);
    let length = region.lp_record_value_length(offset);
    let end = offset + RECORD_HEADER_LENGTH as u64 + u64::from(length);
    if length > max_value_length || end > region.data_capacity() {
        return Err(MapError::corrupt(
            region.path(),
            format!(
                "the record at offset {offset} (key {key}) holds a value of {length} bytes: over \
                 the maximum of {max_value_length} or past the data area's {} bytes",
                region.data_capacity()
            ),
        ));
    }
    // SAFETY: in bounds (checked above); published, so never written again.
    let value = unsafe { region.value(offset, length as usize) };
    Ok(Record { key, value })
}

/// The probe of [`MapFile::get`], shared with the writer's.
#[inline(always)]
pub(crate) fn get(
    region: &Region,
    max_value_length: u32,
    key: u64,
) -> Result<Option<&[u8]>, MapError> {
    let hash = hash(key);
    let tag = tag_of(hash);
    let mask = region.mask();
    let mut index = hash & mask;
    for _ in 0..region.slots() {
        let word = region.lv_slot(index); // SYNC POINT: slot
        if word == EMPTY {
            return Ok(None);
        }
        if word != TOMBSTONE && word >> OFFSET_BITS == tag && record_key(region, word)? == key {
            return Ok(Some(record(region, max_value_length, word)?.value));
        }
        index = (index + 1) & mask;
    }
    Err(no_empty_slot(region))
}

/// A probe went round the whole table: a valid map always has an empty slot.
pub(crate) fn no_empty_slot(region: &Region) -> MapError {
    MapError::corrupt(
        region.path(),
        format!(
            "no empty slot among {} (at most three quarters are ever used)",
            region.slots()
        ),
    )
}
