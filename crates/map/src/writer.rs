//! [`Writer`]: the one process that puts and removes, attached like the ring's producer (a
//! compare-and-swap of the header's writer word, heartbeats, a clean detach), and the recount
//! a writer makes when it takes over from one that died.

use std::sync::Arc;

use sympathy_mapped::ProcessStamp;

use crate::error::{FullOf, MapError};
use crate::layout::*;
use crate::probe::{self, no_empty_slot, record_in_bounds, record_key};
use crate::region::{Region, Table};
use crate::writer_state::{WriterState, writer_state};

/// How many operations pass between two heartbeats: the hot path pays a decrement and a branch.
const HEARTBEAT_EVERY: u32 = 4096;

/// What a writer's grows took ([`Writer::grows`]): the pauses of the puts that grew the map.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Grows {
    /// Grows of the slot table.
    pub tables: u64,
    /// Grows of the data area (a table's grow may make one too).
    pub data_areas: u64,
    /// The longest one: the longest a put waited for a grow.
    pub longest: std::time::Duration,
    /// All of them together.
    pub total: std::time::Duration,
}

impl Grows {
    /// Counts a put's wait for a grow.
    fn took(&mut self, time: std::time::Duration) {
        self.longest = self.longest.max(time);
        self.total += time;
    }
}

/// What a put did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Put {
    /// The key was not in the map.
    Inserted,
    /// The key was in the map; its slot now points at the new value.
    Replaced,
}

/// The one writer of a map ([`crate::MapFile::writer`]); detaches when dropped.
///
/// Every put appends a record at `data_end` and publishes it with one release store of the
/// key's slot; a remove stores the tombstone. A put that returned is in the file: a writer
/// killed at any point leaves every returned put readable and no record half-written (the
/// next writer recounts). [`Writer::flush`] makes them durable across an operating-system crash.
pub struct Writer {
    region: Arc<Region>,
    /// The slot table in use (the writer is the only one to change it: a grow).
    table: Table,
    /// This process's stamp, as stored in the writer word.
    stamp: u64,
    max_value_length: u32,
    /// The writer's own copies of the header counters (it is their only writer).
    data_end: u64,
    count: u64,
    used_slots: u64,
    max_used_slots: u64,
    countdown: u32,
    /// Records the attach found torn and removed ([`Writer::torn_records_dropped`]).
    torn_records_dropped: u64,
    /// The grows this writer made.
    grows: Grows,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("path", &self.region.path())
            .field("count", &self.count)
            .field("data_end", &self.data_end)
            .finish()
    }
}

/// Where a key is, or would go.
enum Probe {
    /// In slot `index`.
    Found { index: u64 },
    /// Absent: a put goes into slot `index`, an empty slot (`into_empty`) or the first
    /// tombstone on the key's probe.
    Absent { index: u64, into_empty: bool },
}

impl Writer {
    /// Claims the writer word: from 0 (nobody, or a clean detach), or from a writer that no
    /// longer runs, then checks the slots against the header (see [`Writer::recount`]): after
    /// a dead writer the counters are recounted and stored; after a clean detach they must
    /// match, or the header was changed by something other than a writer, and the attach is
    /// refused before a put could write over a live record.
    pub(crate) fn attach(region: Arc<Region>) -> Result<Writer, MapError> {
        if !region.writable() {
            return Err(MapError::ReadOnly {
                path: region
                    .path()
                    .map_or_else(|| "<anonymous>".into(), |p| p.to_path_buf()),
            });
        }
        let me = ProcessStamp::current();
        let mut expected = 0;
        let took_over = loop {
            // SYNC POINT: writer (pairs with the writer-word loads of readers and writers)
            match region.cas_writer(expected, me.pack()) {
                Ok(_) => break expected != 0,
                Err(0) => expected = 0, // detached meanwhile: retry from nobody
                Err(found) => {
                    let other = ProcessStamp::unpack(found);
                    if found == me.pack() || other.is_running() {
                        return Err(MapError::AlreadyAttached { pid: other.pid });
                    }
                    expected = found; // take over from a dead writer
                }
            }
        };
        region.so_u64(WRITER_HEARTBEAT_OFFSET, sympathy_mapped::now_ms() as u64); // SYNC POINT: heartbeat
        // A writer that grew the map since this process mapped it: map what the header says.
        let capacity = region.lv_u64(DATA_CAPACITY_OFFSET); // SYNC POINT: capacity
        if region.growable() && capacity > region.data_capacity() && !region.cover(capacity)? {
            return Err(MapError::corrupt(
                region.path(),
                format!("data_capacity {capacity} cannot be mapped"),
            ));
        }
        let table = region.table()?;
        let mut writer = Writer {
            table,
            max_value_length: region.lp_u32(MAX_VALUE_LENGTH_OFFSET),
            data_end: region.lv_u64(DATA_END_OFFSET), // SYNC POINT: data-end
            count: region.lp_u64(COUNT_OFFSET),
            used_slots: region.lp_u64(USED_SLOTS_OFFSET),
            max_used_slots: max_used_slots(table.slots()),
            stamp: me.pack(),
            countdown: HEARTBEAT_EVERY,
            torn_records_dropped: 0,
            grows: Grows::default(),
            region,
        };
        writer.recount(took_over)?;
        Ok(writer)
    }

    /// Counts the keys and used slots from the slot table (a scan of 8 bytes per slot and the
    /// length of every live record) and checks every record lies below `data_end` (stored before
    /// any slot pointed past it): a `data_end` below a live record would let the next put write
    /// over it. After a writer died attached (`took_over`) its last put or remove may have
    /// published its slot and not yet stored the counters: the counts are stored. After a clean
    /// detach the header's counters must be the counts. In a map opened in another boot, the
    /// records a crash of the system may have torn (past `verified_end`) are checked against
    /// their checksums and the torn ones removed.
    fn recount(&mut self, took_over: bool) -> Result<(), MapError> {
        let region = &*self.region;
        let table = &self.table;
        // Records a crash of the system may have torn: those at or past `verified_end` when
        // they were written in another boot (Region::verify_from, set at open).
        let suspect_from = region.verify_from();
        let (mut count, mut used, mut torn) = (0, 0, Vec::new());
        let mut view = region.view();
        for index in 0..table.slots() {
            let word = region.lv_slot(table, index); // SYNC POINT: slot
            if word == EMPTY {
                continue;
            }
            used += 1;
            if word == TOMBSTONE {
                continue;
            }
            count += 1;
            let record = record_in_bounds(region, &mut view, self.max_value_length, word)?;
            let offset = record_offset(word);
            let end = offset + record_length(record.value.len() as u64);
            if end > self.data_end {
                return Err(MapError::corrupt(
                    region.path(),
                    format!(
                        "slot {index} points at a record ending at {end}, past data_end \
                         {} (a writer stores data_end before the slot)",
                        self.data_end
                    ),
                ));
            }
            if offset >= suspect_from && probe::check_whole(region, offset, &record).is_err() {
                torn.push(index);
            }
        }
        if !took_over && (count, used) != (self.count, self.used_slots) {
            return Err(MapError::corrupt(
                region.path(),
                format!(
                    "the header says count {} and used_slots {}, the slots hold {count} keys in \
                     {used} used slots (a writer that detached left them equal)",
                    self.count, self.used_slots
                ),
            ));
        }
        // A torn record's key is removed: its value is lost (written after the last flush of
        // a boot that crashed), and a lookup must not keep refusing it.
        for &index in &torn {
            region.so_slot(table, index, TOMBSTONE); // SYNC POINT: slot
            count -= 1;
        }
        self.torn_records_dropped = torn.len() as u64;
        if took_over || !torn.is_empty() {
            self.count = count;
            self.used_slots = used;
            region.sp_u64(USED_SLOTS_OFFSET, used);
            region.so_u64(COUNT_OFFSET, count); // SYNC POINT: count
        }
        if took_over {
            region.sp_u64(RECOVERIES_OFFSET, region.lp_u64(RECOVERIES_OFFSET) + 1);
        }
        if suspect_from != u64::MAX {
            // Every record is now whole or removed, and what comes next is this boot's.
            region.sp_u64(VERIFIED_END_OFFSET, self.data_end);
            region.sp_u64(BOOT_OFFSET, sympathy_mapped::current_boot());
            region.set_verify_from(u64::MAX);
        }
        Ok(())
    }

    /// How many records this writer's attach found torn by a crash of the system (written after
    /// the last flush of a boot that did not end cleanly) and removed, their keys with them.
    pub fn torn_records_dropped(&self) -> u64 {
        self.torn_records_dropped
    }

    /// The grows this writer made (docs/map-layout.md, "Growing"), and the longest.
    pub fn grows(&self) -> Grows {
        self.grows
    }

    /// Puts `value` under `key`: appends its record and publishes it.
    ///
    /// # Errors
    /// [`MapError::ValueTooLong`]; [`MapError::Full`] (nothing written); [`MapError::Corrupt`].
    ///
    /// ```
    /// # use sympathy_map::{MapConfig, MapFile, Put};
    /// let map = MapFile::anonymous(&MapConfig::for_entries(8, 8)?)?;
    /// let mut writer = map.writer()?;
    /// assert_eq!(writer.put(1, b"one")?, Put::Inserted);
    /// assert_eq!(writer.put(1, b"uno")?, Put::Replaced);
    /// assert_eq!(map.get(1)?, Some(&b"uno"[..]));
    /// # Ok::<(), sympathy_map::MapError>(())
    /// ```
    #[inline]
    pub fn put(&mut self, key: u64, value: &[u8]) -> Result<Put, MapError> {
        self.put_with(key, value.len(), |bytes| bytes.copy_from_slice(value))
    }

    /// Puts a value of `length` bytes under `key`, encoded in place by `fill` into the record
    /// (zero copy: a codec writes straight into the file). `fill` gets exactly `length` bytes;
    /// nothing is published until it returns.
    ///
    /// # Errors
    /// As [`Writer::put`].
    pub fn put_with(
        &mut self,
        key: u64,
        length: usize,
        fill: impl FnOnce(&mut [u8]),
    ) -> Result<Put, MapError> {
        if length > self.max_value_length as usize {
            return Err(MapError::ValueTooLong {
                length,
                max: self.max_value_length,
            });
        }
        let hash = hash(key);
        let mut probe = self.probe(key, hash)?;
        let needed = record_length(length as u64);
        let needs_slot = |probe: &Probe| {
            matches!(
                probe,
                Probe::Absent {
                    into_empty: true,
                    ..
                }
            )
        };
        if self.region.growable() {
            if needs_slot(&probe) && self.used_slots >= self.max_used_slots {
                let started = std::time::Instant::now();
                self.grow_table()?;
                self.grows.tables += 1;
                self.grows.took(started.elapsed());
                probe = self.probe(key, hash)?;
            }
            if self.data_end + needed > self.region.data_capacity() {
                let started = std::time::Instant::now();
                self.reserve_data(self.data_end + needed)?;
                self.grows.took(started.elapsed());
            }
        } else {
            let capacity = self.region.data_capacity();
            if self.data_end + needed > capacity {
                return Err(MapError::Full {
                    of: FullOf::Data,
                    used: self.data_end,
                    limit: capacity,
                });
            }
            if needs_slot(&probe) && self.used_slots >= self.max_used_slots {
                return Err(MapError::Full {
                    of: FullOf::Slots,
                    used: self.used_slots,
                    limit: self.max_used_slots,
                });
            }
        }
        let region = &*self.region;
        let table = &self.table;
        let offset = self.data_end;
        // SAFETY: the mapping is writable (checked at attach); offset + needed <= capacity
        // (checked above); the range is at data_end, where no slot points, and this is the
        // one attached writer.
        unsafe { region.write_record(offset, key, length as u32, fill) };
        self.data_end += needed;
        // The record lies below data_end before any slot points at it: a writer that takes
        // over after a crash never writes over a published record.
        region.so_u64(DATA_END_OFFSET, self.data_end); // SYNC POINT: data-end
        let outcome = match probe {
            Probe::Found { index } => {
                region.so_slot(table, index, slot_word(hash, offset)); // SYNC POINT: slot
                Put::Replaced
            }
            Probe::Absent { index, into_empty } => {
                region.so_slot(table, index, slot_word(hash, offset)); // SYNC POINT: slot
                // `used_slots` before `count`: a reader that loads `count` first never sees
                // more keys than used slots.
                if into_empty {
                    self.used_slots += 1;
                    region.sp_u64(USED_SLOTS_OFFSET, self.used_slots);
                }
                self.count += 1;
                region.so_u64(COUNT_OFFSET, self.count); // SYNC POINT: count
                Put::Inserted
            }
        };
        self.tick();
        Ok(outcome)
    }

    /// Removes `key`: its slot becomes a tombstone (its record's bytes stay until the map is
    /// copied). Returns whether it was there.
    ///
    /// # Errors
    /// [`MapError::Corrupt`].
    pub fn remove(&mut self, key: u64) -> Result<bool, MapError> {
        let removed = match self.probe(key, hash(key))? {
            Probe::Found { index } => {
                self.region.so_slot(&self.table, index, TOMBSTONE); // SYNC POINT: slot
                self.count -= 1;
                self.region.so_u64(COUNT_OFFSET, self.count); // SYNC POINT: count
                true
            }
            Probe::Absent { .. } => false,
        };
        self.tick();
        Ok(removed)
    }

    /// The value of `key`, as [`crate::MapFile::get`].
    ///
    /// # Errors
    /// [`MapError::Corrupt`].
    pub fn get(&self, key: u64) -> Result<Option<&[u8]>, MapError> {
        probe::get(&self.region, self.max_value_length, key)
    }

    /// Keys in the map.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether the map holds no key.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Bytes of the data area in use.
    pub fn data_end(&self) -> u64 {
        self.data_end
    }

    /// Writes every put and remove so far to the file's storage (`msync`): the data area's
    /// dirty pages first, then the slot table and header, so that after an operating-system
    /// crash the map holds at least everything before the last `flush` that returned.
    /// Without it, a process crash loses nothing (the pages are the kernel's), but an OS crash
    /// keeps only what the kernel happened to write back. Nothing to do for anonymous maps.
    ///
    /// # Errors
    /// [`MapError::Io`].
    pub fn flush(&mut self) -> Result<(), MapError> {
        let Some(path) = self.region.path() else {
            return Ok(());
        };
        // The data area's used part holds the grown tables too.
        self.region
            .flush_data(0, self.data_end)
            .and_then(|()| {
                // Written back whole: a later boot need not check these records.
                self.region.sp_u64(VERIFIED_END_OFFSET, self.data_end);
                self.region.flush_header()
            })
            .map_err(|e| MapError::io(path, "flush the map file (msync)", e))
    }

    /// Makes the data area at least `end` bytes (a map that grows): twice the capacity, or
    /// `end` if more, rounded up to [`GROWTH_ALIGNMENT`], at most [`MAX_DATA_CAPACITY`]
    /// (docs/map-layout.md, "Growing").
    ///
    /// # Errors
    /// [`MapError::Full`] past the largest data area; [`MapError::NoSpace`] (nothing changed);
    /// [`MapError::Io`].
    fn reserve_data(&mut self, end: u64) -> Result<(), MapError> {
        let capacity = self.region.data_capacity();
        if end <= capacity {
            return Ok(());
        }
        let grown = capacity
            .saturating_mul(2)
            .max(end)
            .next_multiple_of(GROWTH_ALIGNMENT)
            .min(MAX_DATA_CAPACITY);
        if grown < end {
            return Err(MapError::Full {
                of: FullOf::Data,
                used: self.data_end,
                limit: capacity,
            });
        }
        self.region.grow_data(grown)?;
        self.grows.data_areas += 1;
        Ok(())
    }

    /// Grows the slot table (docs/map-layout.md, "Growing"): a new table at most half full
    /// (twice the slots of a table that filled), in the data area at the next multiple of [`GROWTH_ALIGNMENT`] in the file,
    /// every key of the old one inserted (tombstones left behind), written to the disk, then
    /// published by one release store of the `table` word. Readers probing the old table go on
    /// reading it: it is never written again.
    ///
    /// # Errors
    /// [`MapError::Full`] past [`MAX_SLOTS`]; as [`Writer::reserve_data`]; [`MapError::Corrupt`]
    /// for a slot the old table should not hold.
    fn grow_table(&mut self) -> Result<(), MapError> {
        let old = self.table;
        // At most half full after the grow: twice the slots of a table that filled.
        let wanted = 2 * (self.count + 1);
        let mut slots = old.slots();
        while slots < wanted && slots < MAX_SLOTS {
            slots *= 2;
        }
        if slots < wanted {
            return Err(MapError::Full {
                of: FullOf::Slots,
                used: self.used_slots,
                limit: self.max_used_slots,
            });
        }
        let data_offset = self.region.data_offset();
        let start = (data_offset + self.data_end).next_multiple_of(GROWTH_ALIGNMENT) - data_offset;
        let end = start + slots * SLOT_LENGTH as u64;
        self.reserve_data(end)?;
        let region = &*self.region;
        // SAFETY: writable (checked at attach), inside the data area (reserved above), past
        // data_end where nothing points, and this is the one attached writer.
        unsafe { region.zero(start, end - start) };
        let table = region.table_at(start, slots);
        let mut view = region.view();
        // In batches, each step over the whole batch: the records' keys and the new table's
        // slots are cache misses, and a batch's are independent, so the processor overlaps them.
        const BATCH: usize = 64;
        let (mut words, mut homes) = ([0u64; BATCH], [0u64; BATCH]);
        let mut index = 0;
        while index < old.slots() {
            let mut live = 0;
            while live < BATCH && index < old.slots() {
                let word = region.lp_slot(&old, index);
                index += 1;
                if word != EMPTY && word != TOMBSTONE {
                    words[live] = word;
                    live += 1;
                }
            }
            for (home, &word) in homes.iter_mut().zip(&words[..live]) {
                *home = hash(record_key(region, &mut view, word)?) & table.mask();
            }
            for (&home, &word) in homes.iter().zip(&words[..live]) {
                let mut to = home;
                while region.lp_slot(&table, to) != EMPTY {
                    to = (to + 1) & table.mask();
                }
                region.sp_slot(&table, to, word);
            }
        }
        if let Some(path) = region.path() {
            // On the disk before the header can name it: an OS crash never leaves a table word
            // pointing at a table that was not written back.
            region
                .flush_data(start, end - start)
                .map_err(|e| MapError::io(path, "write the grown slot table (msync)", e))?;
        }
        self.data_end = end;
        region.so_u64(DATA_END_OFFSET, end); // SYNC POINT: data-end
        region.so_table(table_word(start, slots)); // SYNC POINT: table
        self.used_slots = self.count;
        region.sp_u64(USED_SLOTS_OFFSET, self.count);
        self.table = table;
        self.max_used_slots = max_used_slots(slots);
        Ok(())
    }

    /// Stores a heartbeat now (puts and removes store one every 4096 operations; an idle
    /// writer that wants readers to see it alive calls this).
    pub fn heartbeat(&mut self) {
        self.countdown = HEARTBEAT_EVERY;
        self.region
            .so_u64(WRITER_HEARTBEAT_OFFSET, sympathy_mapped::now_ms() as u64); // SYNC POINT: heartbeat
    }

    /// The writer as readers see it (this one, attached and alive).
    pub fn state(&self) -> WriterState {
        writer_state(&self.region, sympathy_mapped::now_ms())
    }

    #[inline(always)]
    fn tick(&mut self) {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.heartbeat();
        }
    }

    /// Finds `key`'s slot, or where it would go: the first tombstone on its probe, else the
    /// empty slot that ends it. Relaxed loads: this writer stored every slot it reads.
    #[inline(always)]
    fn probe(&self, key: u64, hash: u64) -> Result<Probe, MapError> {
        let region = &*self.region;
        let table = &self.table;
        let tag = tag_of(hash);
        let mask = table.mask();
        let mut index = hash & mask;
        let mut tombstone = None;
        let mut view = region.view();
        for _ in 0..table.slots() {
            let word = region.lp_slot(table, index);
            if word == EMPTY {
                return Ok(match tombstone {
                    Some(index) => Probe::Absent {
                        index,
                        into_empty: false,
                    },
                    None => Probe::Absent {
                        index,
                        into_empty: true,
                    },
                });
            }
            if word == TOMBSTONE {
                tombstone.get_or_insert(index);
            } else if word >> OFFSET_BITS == tag && record_key(region, &mut view, word)? == key {
                return Ok(Probe::Found { index });
            }
            index = (index + 1) & mask;
        }
        match tombstone {
            Some(index) => Ok(Probe::Absent {
                index,
                into_empty: false,
            }),
            None => Err(no_empty_slot(region, table)),
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Give the role back only if it is still ours (a writer that judged us dead may hold
        // it). The detach's heartbeat is recorded as `detached`: readers then read "detached".
        if self.region.lv_u64(WRITER_OFFSET) != self.stamp {
            return;
        }
        let now = sympathy_mapped::now_ms() as u64;
        self.region.so_u64(WRITER_HEARTBEAT_OFFSET, now); // SYNC POINT: heartbeat
        self.region.so_u64(WRITER_DETACHED_OFFSET, now); // SYNC POINT: detached
        let _ = self.region.cas_writer(self.stamp, 0); // SYNC POINT: writer
    }
}

#[cfg(test)]
mod tests {
    use crate::layout::COUNT_OFFSET;
    use crate::{MapConfig, MapFile};

    /// A header whose counters no longer match the slots after a clean detach is refused, and
    /// the message says both counts in one readable sentence.
    #[test]
    fn a_changed_count_is_refused_with_both_counts_named() {
        let map = MapFile::anonymous(&MapConfig::for_entries(8, 8).unwrap()).unwrap();
        let mut writer = map.writer().unwrap();
        writer.put(1, b"one").unwrap();
        writer.put(2, b"two").unwrap();
        drop(writer);
        map.region.sp_u64(COUNT_OFFSET, 0);
        let error = map.writer().unwrap_err();
        assert_eq!(error.kind(), "corrupt-map");
        assert!(
            error.to_string().contains(
                "the header says count 0 and used_slots 2, the slots hold 2 keys in 2 used \
                 slots (a writer that detached left them equal)"
            ),
            "{error}"
        );
    }
}
