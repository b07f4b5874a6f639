//! loom model checks of the map's publish protocol (`ci/map-verify`): every interleaving
//! (within loom's preemption bound) of the writer thread and a reader thread over the smallest
//! map, through the real [`MapFile`]/[`Writer`] code; only the atomics differ (see
//! [`crate::primitive`]). Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p sympathy-map --lib --profile verify loom_model`.
//!
//! What is checked: a reader finds a key only once its record is whole (the record header's
//! relaxed words are seen through the slot's acquire), never an older value after a newer one,
//! nothing after a remove until the next put; a probe across a tombstone that a put reuses
//! meanwhile; a table's grow, which loses no key for a reader of either table; and two writers
//! attaching at once: exactly one wins.

use loom::thread;
use sympathy_mapped::loom_check::model;

use crate::layout::hash;
use crate::{MapConfig, MapFile};

/// The smallest map: 8 slots, 256 bytes of records.
fn map() -> MapFile {
    MapFile::anonymous(&MapConfig {
        slots: 8,
        data_capacity: 256,
        max_value_length: 32,
        value_format: 0,
    })
    .unwrap()
}

/// Value `version` of a key: its length and bytes both depend on it.
fn value(version: u8) -> Vec<u8> {
    vec![version; 1 + version as usize]
}

/// The version a value read holds, checked whole.
fn version_of(bytes: &[u8]) -> u8 {
    let version = bytes[0];
    assert_eq!(bytes, value(version), "a torn value");
    version
}

/// Keys whose probes start at the same slot of 8.
fn colliding_keys() -> (u64, u64) {
    let first = 1;
    let second = (2..)
        .find(|&k| hash(k) & 7 == hash(first) & 7)
        .expect("a colliding key");
    (first, second)
}

/// The reader's look at `key`'s first slot, straight from the slot table: when the slot holds
/// a record word, the record's header must be whole (the key, the value's length and its
/// checksum), which only the slot's acquire, paired with the writer's release, guarantees. (A `get` that saw a
/// stale header would skip the slot as another key's and report the key absent.)
fn slot_record_is_whole(map: &MapFile, key: u64, lengths: &[usize]) {
    let region = &map.region;
    let table = region.first_table();
    let word = region.lv_slot(&table, hash(key) & table.mask()); // SYNC POINT: slot
    if word != crate::layout::EMPTY && word != crate::layout::TOMBSTONE {
        let offset = crate::layout::record_offset(word);
        assert_eq!(
            region.lp_record_key(region.view(), offset),
            key,
            "a stale record key"
        );
        let (length, checksum) = region.lp_record_length_and_checksum(region.view(), offset);
        assert!(
            lengths.contains(&(length as usize)),
            "a stale value length {length}"
        );
        // SAFETY: the slot's acquire saw the record published: in bounds, never written again.
        let value = unsafe { region.value(region.view(), offset, length as usize) };
        assert_eq!(
            checksum,
            crate::layout::record_checksum(key, value),
            "a stale checksum"
        );
    }
}

/// A put into an empty map against a reader (loom explores a reader thread racing the writer
/// on the main thread; the other way round, loom 0.7 misses interleavings: tokio-rs/loom#392):
/// nothing, or the value whole, and key 6 seen only after key 5.
/// A table's grow against a reader: the writer fills the 8-slot table with six keys, then a
/// seventh makes it build a 16-slot table in the data area and switch to it (the `table` word's
/// release); the reader, probing whichever table it loaded, finds every key put before it looked,
/// whole, and the seventh whole or not at all, never gone once seen.
#[test]
fn loom_model_a_grow_loses_no_key() {
    model("grow_loses_no_key", || {
        // Room past the records for the new table at the next page of the file.
        let map = MapFile::anonymous_with_a_growing_table(&MapConfig {
            slots: 8,
            data_capacity: 8192,
            max_value_length: 32,
            value_format: 0,
        })
        .unwrap();
        let mut writer = map.writer().unwrap();
        for key in 1..=6 {
            writer.put(key, &value(key as u8)).unwrap();
        }
        let reader = map.clone();
        let t = thread::spawn(move || {
            let seventh = reader.get(7).unwrap().map(version_of);
            assert_eq!(
                reader.get(3).unwrap().map(version_of),
                Some(3),
                "a key put before"
            );
            let again = reader.get(7).unwrap().map(version_of);
            assert!(matches!(seventh, None | Some(7)) && matches!(again, None | Some(7)));
            assert!(
                seventh.is_none() || again.is_some(),
                "key 7 went away after it was seen"
            );
        });
        writer.put(7, &value(7)).unwrap();
        t.join().unwrap();
        assert_eq!(map.stats().unwrap().slots, 16, "the table grew");
        assert_eq!(map.get(1).unwrap().map(version_of), Some(1));
    });
}

#[test]
fn loom_model_a_put_is_seen_whole_or_not_at_all() {
    model("put_seen_whole", || {
        let map = map();
        let mut writer = map.writer().unwrap();
        let reader = map.clone();
        let t = thread::spawn(move || {
            slot_record_is_whole(&reader, 5, &[4]);
            let six = reader.get(6).unwrap().map(version_of);
            let five = reader.get(5).unwrap().map(version_of);
            if six.is_some() {
                assert_eq!(five, Some(3), "key 6 was put after key 5");
            }
            assert!(matches!(five, None | Some(3)));
        });
        writer.put(5, &value(3)).unwrap();
        writer.put(6, &value(4)).unwrap();
        t.join().unwrap();
        assert_eq!(map.len(), 2);
    });
}

/// Overwrites and a remove against a reader: versions only go forward, each one whole.
#[test]
fn loom_model_overwrites_and_removes_go_forward() {
    model("overwrites_go_forward", || {
        let map = map();
        let mut writer = map.writer().unwrap();
        writer.put(9, &value(1)).unwrap();
        let reader = map.clone();
        let t = thread::spawn(move || {
            // The states in order: 1, 2, absent, 5.
            let rank = |v: Option<u8>| match v {
                Some(1) => 0,
                Some(2) => 1,
                None => 2,
                Some(5) => 3,
                Some(other) => panic!("version {other} was never put"),
            };
            slot_record_is_whole(&reader, 9, &[2, 3, 6]);
            let first = rank(reader.get(9).unwrap().map(version_of));
            let second = rank(reader.get(9).unwrap().map(version_of));
            assert!(second >= first, "went back from state {first} to {second}");
        });
        writer.put(9, &value(2)).unwrap();
        writer.remove(9).unwrap();
        writer.put(9, &value(5)).unwrap();
        t.join().unwrap();
    });
}

/// Two keys on one probe: while the first is removed and put again (into its own tombstone),
/// the second, never removed, is found by every probe, whole.
#[test]
fn loom_model_a_probe_passes_a_reused_tombstone() {
    model("probe_passes_reused_tombstone", || {
        let (a, b) = colliding_keys();
        let map = map();
        let mut writer = map.writer().unwrap();
        writer.put(a, &value(1)).unwrap();
        writer.put(b, &value(2)).unwrap();
        let reader = map.clone();
        let t = thread::spawn(move || {
            assert_eq!(reader.get(b).unwrap().map(version_of), Some(2));
            assert!(matches!(
                reader.get(a).unwrap().map(version_of),
                None | Some(1) | Some(3)
            ));
        });
        writer.remove(a).unwrap();
        writer.put(a, &value(3)).unwrap();
        t.join().unwrap();
    });
}

/// Two threads attach a writer at once: exactly one wins; the loser is told who holds it.
#[test]
fn loom_model_one_writer_wins_the_attach() {
    model("one_writer_wins", || {
        let map = map();
        let other = map.clone();
        let t = thread::spawn(move || other.writer().map(drop).is_ok());
        let mine = map.writer();
        let theirs = t.join().unwrap();
        // A writer dropped detaches: the other may then attach, so both may win in turn, but
        // never at once (a win holds the word until its drop).
        match mine {
            Ok(writer) => {
                assert_eq!(map.writer().unwrap_err().kind(), "already-attached");
                drop(writer);
            }
            Err(e) => {
                assert_eq!(e.kind(), "already-attached");
                assert!(theirs);
            }
        }
    });
}
