//! Reading the table: the record a slot word points at, checked to lie in the data area, and
//! the probe of a lookup. What [`MapFile`](crate::MapFile)'s lookups and the
//! [`Writer`](crate::Writer)'s share.

use std::path::Path;

use crate::error::MapError;
use crate::layout::*;
use crate::region::{Region, Table, View};

/// A record a slot points at, checked.
pub(crate) struct Record<'a> {
    pub(crate) key: u64,
    pub(crate) value: &'a [u8],
    /// The checksum its header holds (0 in a version 1 map).
    checksum: u32,
}

/// The key of the record a live slot word points at, checked to lie in the data area of
/// `view` (in a map that grows, the file is mapped again, and `view` becomes the new mapping,
/// when the record lies past it).
#[inline(always)]
pub(crate) fn record_key<'r>(
    region: &'r Region,
    view: &mut &'r View,
    word: u64,
) -> Result<u64, MapError> {
    let offset = record_offset(word);
    let end = offset + RECORD_HEADER_LENGTH as u64;
    if offset < DATA_START || end > view.capacity() {
        *view = covering(region, offset >= DATA_START, end, |capacity| {
            format!(
                "slot word {word:#018x} points at offset {offset}, outside the data area of \
                 {capacity} bytes"
            )
        })?;
    }
    Ok(region.lp_record_key(view, offset))
}

/// The newest mapping, once it covers `end`, for a record (or its value) that lies past the
/// mapping a lookup took; one that is impossible (`possible` false: an offset below the first
/// record, a value over the maximum) or past even the file's capacity is corrupt, as `problem`
/// says given the data area's capacity.
#[cold]
#[inline(never)]
fn covering(
    region: &Region,
    possible: bool,
    end: u64,
    problem: impl FnOnce(u64) -> String,
) -> Result<&View, MapError> {
    if possible && let Some(view) = region.view_covering(end)? {
        return Ok(view);
    }
    Err(MapError::corrupt(
        region.path(),
        problem(region.data_capacity()),
    ))
}

/// The record a live slot word points at (published: its slot was loaded with acquire, or
/// written by this process), checked to lie in the data area whole, and, when a crash of the
/// system may have torn it (at or past [`Region::verify_from`]), to match its checksum: what a
/// lookup returns.
#[inline(always)]
pub(crate) fn record<'r>(
    region: &'r Region,
    view: &mut &'r View,
    max_value_length: u32,
    word: u64,
) -> Result<Record<'r>, MapError> {
    let record = record_in_bounds(region, view, max_value_length, word)?;
    let offset = record_offset(word);
    if offset >= region.verify_from() {
        check_whole(region, offset, &record)?;
    }
    Ok(record)
}

/// Checks the record at `offset` against its checksum.
#[cold]
pub(crate) fn check_whole(
    region: &Region,
    offset: u64,
    record: &Record<'_>,
) -> Result<(), MapError> {
    let computed = record_checksum(record.key, record.value);
    if computed == record.checksum {
        return Ok(());
    }
    Err(torn_record(
        region,
        offset,
        record.key,
        record.checksum,
        computed,
    ))
}

/// The record a live slot word points at, checked to lie in the data area whole, its checksum
/// not checked: what the writer's recount looks at (it checks only the records a system crash
/// may have torn, with [`check_whole`], and removes those that fail instead of stopping).
#[inline(always)]
pub(crate) fn record_in_bounds<'r>(
    region: &'r Region,
    view: &mut &'r View,
    max_value_length: u32,
    word: u64,
) -> Result<Record<'r>, MapError> {
    let key = record_key(region, view, word)?;
    let offset = record_offset(word);
    let (length, checksum) = region.lp_record_length_and_checksum(view, offset);
    let end = offset + RECORD_HEADER_LENGTH as u64 + u64::from(length);
    if length > max_value_length || end > view.capacity() {
        *view = covering(region, length <= max_value_length, end, |capacity| {
            format!(
                "the record at offset {offset} (key {key}) holds a value of {length} bytes: over \
                 the maximum of {max_value_length} or past the data area's {capacity} bytes"
            )
        })?;
    }
    // SAFETY: in bounds of `view` (checked above); published, so never written again.
    let value = unsafe { region.value(view, offset, length as usize) };
    Ok(Record {
        key,
        value,
        checksum,
    })
}

/// A record whose bytes do not match its checksum.
#[cold]
fn torn_record(region: &Region, offset: u64, key: u64, stored: u32, computed: u32) -> MapError {
    MapError::TornRecord {
        path: region.path().map(Path::to_path_buf),
        offset,
        key,
        stored,
        computed,
    }
}

/// The probe of [`MapFile::get`], shared with the writer's.
#[inline(always)]
pub(crate) fn get(
    region: &Region,
    max_value_length: u32,
    key: u64,
) -> Result<Option<&[u8]>, MapError> {
    let table = region.table()?;
    let mut view = region.view();
    let hash = hash(key);
    let tag = tag_of(hash);
    let mask = table.mask();
    let mut index = hash & mask;
    for _ in 0..table.slots() {
        let word = region.lv_slot(&table, index); // SYNC POINT: slot
        if word == EMPTY {
            return Ok(None);
        }
        if word != TOMBSTONE
            && word >> OFFSET_BITS == tag
            && record_key(region, &mut view, word)? == key
        {
            return Ok(Some(
                record(region, &mut view, max_value_length, word)?.value,
            ));
        }
        index = (index + 1) & mask;
    }
    Err(no_empty_slot(region, &table))
}

/// A probe went round the whole table: a valid map always has an empty slot.
pub(crate) fn no_empty_slot(region: &Region, table: &Table) -> MapError {
    MapError::corrupt(
        region.path(),
        format!(
            "no empty slot among {} (at most three quarters are ever used)",
            table.slots()
        ),
    )
}
