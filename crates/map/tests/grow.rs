//! A map that grows (layout version 3, docs/map-layout.md, "Growing"): created with the
//! smallest table and data area, it takes every put, growing the file and the slot table; readers
//! on other handles (each maps the file on its own, as another process does) never miss a key
//! that was counted before their lookup, nor see a wrong value, while it grows. Maps that cannot
//! grow (version 2, anonymous memory) still answer `full`.

mod common;
#[path = "../../ring/tests/small_filesystem/mod.rs"]
mod small_filesystem;

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use common::TempPath;
use sympathy_map::layout::{
    DATA_CAPACITY_OFFSET, LAYOUT_VERSION_OFFSET, MIN_SLOTS, TABLE_OFFSET, file_length,
};
use sympathy_map::{FullOf, MapConfig, MapError, MapFile};

/// The smallest map a create accepts, with values up to 40 bytes.
fn smallest() -> MapConfig {
    MapConfig {
        slots: MIN_SLOTS,
        data_capacity: 64,
        max_value_length: 40,
        value_format: 0,
    }
}

/// Key `k`'s value: 8 to 27 bytes, each key's its own.
fn value_of(k: u64) -> Vec<u8> {
    let mut v = format!("value-{k}-").into_bytes();
    v.resize(8 + (k % 20) as usize, b'x');
    v
}

fn header_word(path: &std::path::Path, offset: usize) -> u64 {
    let bytes = std::fs::read(path).unwrap();
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().unwrap())
}

#[test]
fn the_smallest_map_grows_to_a_hundred_thousand_keys_and_reopens() {
    let path = TempPath::new("grow");
    let map = MapFile::create(&path.0, &smallest()).unwrap();
    let mut writer = map.writer().unwrap();
    const KEYS: u64 = 100_000;
    for k in 0..KEYS {
        writer.put(k, &value_of(k)).unwrap();
    }
    // Churn: removes leave tombstones, which a grow leaves behind.
    for k in (0..KEYS).step_by(3) {
        assert!(writer.remove(k).unwrap());
    }
    for k in (0..KEYS).step_by(3) {
        writer.put(k, &value_of(k)).unwrap();
    }
    let stats = map.stats().unwrap();
    assert_eq!(stats.count, KEYS);
    assert_eq!(stats.first_slots, MIN_SLOTS);
    assert!(stats.slots >= 131_072, "{stats:?}");
    assert!(stats.data_capacity > 1 << 20, "{stats:?}");
    assert_eq!(
        std::fs::metadata(&path.0).unwrap().len(),
        file_length(MIN_SLOTS, stats.data_capacity)
    );
    assert_ne!(header_word(&path.0, TABLE_OFFSET), 0);
    drop(writer);

    let reopened = MapFile::open_read_only(&path.0).unwrap();
    assert_eq!(reopened.stats().unwrap().mappings, 1);
    for k in 0..KEYS {
        assert_eq!(reopened.get(k).unwrap(), Some(&value_of(k)[..]), "key {k}");
    }
    assert_eq!(reopened.get(KEYS).unwrap(), None);
    assert_eq!(reopened.entries().count() as u64, KEYS);
    // A writer attaches after a clean detach: the counters match the grown table, and a
    // reader that mapped the file before the writer grows it again sees the new key.
    let map = MapFile::open(&path.0).unwrap();
    let mut writer = map.writer().unwrap();
    assert_eq!(writer.len(), KEYS);
    for k in KEYS..2 * KEYS {
        writer.put(k, &value_of(k)).unwrap();
    }
    assert_eq!(
        reopened.get(2 * KEYS - 1).unwrap(),
        Some(&value_of(2 * KEYS - 1)[..])
    );
}

#[test]
fn readers_on_their_own_mappings_see_every_counted_key_while_the_map_grows() {
    let path = TempPath::new("grow-read");
    let map = MapFile::create(&path.0, &smallest()).unwrap();
    const KEYS: u64 = 200_000;
    let done = AtomicBool::new(false);
    thread::scope(|s| {
        let readers: Vec<_> = (0..2)
            .map(|r| {
                let (path, done) = (&path.0, &done);
                s.spawn(move || {
                    // Its own handle: its own mappings, as a reader in another process has.
                    let reader = MapFile::open_read_only(path).unwrap();
                    let mut passes = 0u64;
                    loop {
                        let finished = done.load(Ordering::Acquire);
                        let counted = reader.len();
                        for k in 0..counted {
                            let value = reader.get(k).unwrap();
                            assert_eq!(
                                value,
                                Some(&value_of(k)[..]),
                                "reader {r}, pass {passes}: key {k} of {counted} counted"
                            );
                        }
                        passes += 1;
                        if finished {
                            return (passes, reader.stats().unwrap());
                        }
                    }
                })
            })
            .collect();
        let mut writer = map.writer().unwrap();
        for k in 0..KEYS {
            writer.put(k, &value_of(k)).unwrap();
        }
        done.store(true, Ordering::Release);
        for reader in readers {
            let (passes, stats) = reader.join().unwrap();
            assert!(passes >= 1);
            assert_eq!(stats.count, KEYS);
            assert!(
                stats.mappings > 1,
                "the reader mapped the grown file again: {stats:?}"
            );
        }
    });
}

#[test]
fn a_version_2_map_does_not_grow() {
    let path = TempPath::new("grow-v2");
    drop(MapFile::create(&path.0, &smallest()).unwrap());
    let mut bytes = std::fs::read(&path.0).unwrap();
    bytes[LAYOUT_VERSION_OFFSET..LAYOUT_VERSION_OFFSET + 4].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(&path.0, &bytes).unwrap();
    let map = MapFile::open(&path.0).unwrap();
    let mut writer = map.writer().unwrap();
    let error = (0..100u64)
        .map(|k| writer.put(k, &value_of(k)))
        .find_map(Result::err)
        .expect("a version 2 map fills");
    assert!(
        matches!(
            error,
            MapError::Full {
                of: FullOf::Data,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(header_word(&path.0, DATA_CAPACITY_OFFSET), 64);
    assert_eq!(header_word(&path.0, TABLE_OFFSET), 0);
}

#[test]
fn an_anonymous_map_does_not_grow() {
    let map = MapFile::anonymous(&MapConfig {
        data_capacity: 4096,
        ..smallest()
    })
    .unwrap();
    let mut writer = map.writer().unwrap();
    let error = (0..100u64)
        .map(|k| writer.put(k, &value_of(k)))
        .find_map(Result::err)
        .expect("an anonymous map fills");
    assert!(
        matches!(
            error,
            MapError::Full {
                of: FullOf::Slots,
                ..
            }
        ),
        "{error}"
    );
}

/// A `table` word changed under an open map (by something other than a writer) to name a table
/// far past the file: a lookup answers `corrupt-map`, never reads outside the mapping.
#[test]
fn a_table_word_changed_to_a_table_past_the_file_is_corrupt() {
    use std::os::unix::fs::FileExt;
    let path = TempPath::new("grow-hostile-table");
    let map = MapFile::create(&path.0, &smallest()).unwrap();
    let mut writer = map.writer().unwrap();
    for k in 0..100 {
        writer.put(k, &value_of(k)).unwrap();
    }
    drop(writer);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path.0)
        .unwrap();
    for word in [u64::MAX - 63 + 3, (1 << 43) | 3, (1 << 20) | 3] {
        file.write_all_at(&word.to_le_bytes(), TABLE_OFFSET as u64)
            .unwrap();
        let error = map.get(1).unwrap_err();
        assert_eq!(error.kind(), "corrupt-map", "{word:#x}: {error}");
    }
}

/// A grow the filesystem has no room for (a 16 MiB tmpfs: the reservation keeps 4 MiB of it
/// free) is refused with `no-space`: the file keeps its length, every key put before is there,
/// for this handle and a fresh one, and the map still takes puts that fit.
#[test]
fn a_grow_without_room_is_no_space_and_changes_nothing() {
    let Some(fs) = small_filesystem::SmallFilesystem::mount("16m") else {
        return;
    };
    let path = fs.dir().join("full.map");
    let map = MapFile::create(
        &path,
        &MapConfig {
            slots: MIN_SLOTS,
            data_capacity: 64 << 10,
            max_value_length: 4096,
            value_format: 0,
        },
    )
    .unwrap();
    let mut writer = map.writer().unwrap();
    let big = |k: u64| vec![(k % 251) as u8; 1000];
    let mut put = 0u64;
    let error = loop {
        let length = std::fs::metadata(&path).unwrap().len();
        match writer.put(put, &big(put)) {
            Ok(_) => put += 1,
            Err(e) => break (e, length),
        }
        assert!(put < 100_000, "a 16 MiB filesystem took 100 MB of values");
    };
    let (error, length) = error;
    assert_eq!(error.kind(), "no-space", "{error}");
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        length,
        "the file kept its length"
    );
    let fresh = MapFile::open_read_only(&path).unwrap();
    for k in 0..put {
        assert_eq!(map.get(k).unwrap(), Some(&big(k)[..]), "key {k}");
        assert_eq!(
            fresh.get(k).unwrap(),
            Some(&big(k)[..]),
            "key {k}, a fresh handle"
        );
    }
    assert_eq!(fresh.len(), put);
    // A value that fits what is left still goes in.
    let left = map.stats().unwrap().data_capacity - writer.data_end();
    if left >= sympathy_map::layout::record_length(5) {
        writer.put(put, b"small").unwrap();
        assert_eq!(fresh.get(put).unwrap(), Some(&b"small"[..]));
    }
}
