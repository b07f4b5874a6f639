//! The map against a `HashMap` model: random puts (new keys, overwrites), removes, gets and
//! reopens on small maps that fill up, so `Full` (of slots and of data) is met often. A put
//! refused as full must change nothing; everything else must agree with the model, and a
//! reopened map must hold exactly what the model holds, its counters recounted or not.

mod common;

use std::collections::HashMap;

use common::TempPath;
use proptest::prelude::*;
use sympathy_map::{FullOf, MapConfig, MapError, MapFile, Put};

#[derive(Debug, Clone)]
enum Op {
    Put { key: u64, length: usize },
    Remove { key: u64 },
    Get { key: u64 },
    Reopen,
    KillWriter,
}

fn op() -> impl Strategy<Value = Op> {
    // Few keys, so overwrites and removes hit; lengths up to the maximum of 40.
    let key = 0u64..24;
    prop_oneof![
        6 => (key.clone(), 0usize..=40).prop_map(|(key, length)| Op::Put { key, length }),
        2 => key.clone().prop_map(|key| Op::Remove { key }),
        3 => key.prop_map(|key| Op::Get { key }),
        1 => Just(Op::Reopen),
        1 => Just(Op::KillWriter),
    ]
}

fn value(key: u64, serial: usize, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| (key as usize * 7 + serial * 13 + i) as u8)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_map_agrees_with_a_hash_map(ops in prop::collection::vec(op(), 1..300)) {
        let path = TempPath::new("model");
        let config = MapConfig { slots: 16, data_capacity: 1024, max_value_length: 40, value_format: 0 };
        let mut map = MapFile::create(&path.0, &config).unwrap();
        let mut writer = Some(map.writer().unwrap());
        let mut model: HashMap<u64, Vec<u8>> = HashMap::new();
        for (serial, op) in ops.into_iter().enumerate() {
            match op {
                Op::Put { key, length } => {
                    let bytes = value(key, serial, length);
                    let w = writer.get_or_insert_with(|| map.writer().unwrap());
                    match w.put(key, &bytes) {
                        Ok(outcome) => {
                            let before = model.insert(key, bytes);
                            prop_assert_eq!(outcome == Put::Replaced, before.is_some());
                        }
                        Err(MapError::Full { of: FullOf::Data, used, limit }) => {
                            prop_assert!(used + sympathy_map::layout::record_length(length as u64) > limit);
                        }
                        Err(MapError::Full { of: FullOf::Slots, .. }) => {
                            prop_assert!(!model.contains_key(&key), "an overwrite needs no slot");
                        }
                        Err(e) => panic!("put {key}: {e}"),
                    }
                }
                Op::Remove { key } => {
                    let w = writer.get_or_insert_with(|| map.writer().unwrap());
                    prop_assert_eq!(w.remove(key).unwrap(), model.remove(&key).is_some());
                }
                Op::Get { key } => {
                    prop_assert_eq!(map.get(key).unwrap(), model.get(&key).map(Vec::as_slice));
                }
                Op::Reopen => {
                    writer = None;
                    map = MapFile::open(&path.0).unwrap();
                }
                Op::KillWriter => {
                    // A writer that never detaches: the word stays set to this (live) process,
                    // so the next writer of this process is refused, then let in once the word
                    // names a process that does not run, and recounts.
                    if let Some(w) = writer.take() {
                        std::mem::forget(w);
                        prop_assert_eq!(map.writer().unwrap_err().kind(), "already-attached");
                        forge_dead_writer(&path.0);
                        let recoveries = map.stats().unwrap().recoveries;
                        writer = Some(map.writer().unwrap());
                        prop_assert_eq!(map.stats().unwrap().recoveries, recoveries + 1);
                    }
                }
            }
            prop_assert_eq!(map.len(), model.len() as u64);
        }
        drop(writer);
        let reopened = MapFile::open_read_only(&path.0).unwrap();
        let mut found: Vec<(u64, Vec<u8>)> = reopened
            .entries()
            .map(|e| e.map(|(k, v)| (k, v.to_vec())))
            .collect::<Result<_, _>>()
            .unwrap();
        found.sort();
        let mut expected: Vec<_> = model.into_iter().collect();
        expected.sort();
        prop_assert_eq!(found, expected);
    }
}

/// Writes a writer word naming a process that does not run (pid 2^31 - 1 is above any
/// pid_max), as a killed writer leaves.
fn forge_dead_writer(path: &std::path::Path) {
    use std::io::{Seek, SeekFrom, Write};
    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(SeekFrom::Start(sympathy_map::layout::WRITER_OFFSET as u64))
        .unwrap();
    file.write_all(&(i32::MAX as u64 | (7 << 32)).to_le_bytes())
        .unwrap();
}

#[test]
fn a_value_stays_valid_while_it_is_replaced_and_removed() {
    let map = MapFile::anonymous(&MapConfig::for_entries(16, 8).unwrap()).unwrap();
    let mut writer = map.writer().unwrap();
    writer.put(1, b"first").unwrap();
    let held = map.get(1).unwrap().unwrap();
    writer.put(1, b"second").unwrap();
    writer.remove(1).unwrap();
    assert_eq!(held, b"first", "a record is never written again");
    assert_eq!(map.get(1).unwrap(), None);
}

#[test]
fn a_second_writer_is_refused_and_a_read_only_map_has_none() {
    let path = TempPath::new("writers");
    let map = MapFile::create(&path.0, &MapConfig::for_entries(16, 8).unwrap()).unwrap();
    let writer = map.writer().unwrap();
    let e = MapFile::open(&path.0).unwrap().writer().unwrap_err();
    assert_eq!(e.kind(), "already-attached");
    assert!(
        e.to_string()
            .contains(&format!("pid {}", std::process::id())),
        "{e}"
    );
    assert_eq!(
        MapFile::open_read_only(&path.0)
            .unwrap()
            .writer()
            .unwrap_err()
            .kind(),
        "read-only"
    );
    drop(writer);
    assert_eq!(map.writer_state(), sympathy_map::WriterState::Detached);
    map.writer().unwrap();
}

#[test]
fn full_is_reported_with_nothing_written() {
    let config = MapConfig {
        slots: 8,
        data_capacity: 128,
        max_value_length: 40,
        value_format: 0,
    };
    let map = MapFile::anonymous(&config).unwrap();
    let mut writer = map.writer().unwrap();
    for key in 0..6 {
        writer.put(key, &[]).unwrap(); // 16 bytes each: 8 + 96 of 128
    }
    let e = writer.put(6, &[]).unwrap_err();
    assert!(
        matches!(
            e,
            MapError::Full {
                of: FullOf::Slots,
                used: 6,
                limit: 6
            }
        ),
        "{e}"
    );
    let e = writer.put(0, &[0; 9]).unwrap_err(); // a 32-byte record past 104 of 128
    assert!(
        matches!(
            e,
            MapError::Full {
                of: FullOf::Data,
                used: 104,
                limit: 128
            }
        ),
        "{e}"
    );
    assert_eq!(map.get(0).unwrap(), Some(&[][..]));
    assert_eq!(map.len(), 6);
    let e = writer.put(0, &[0; 41]).unwrap_err();
    assert_eq!(e.kind(), "value-too-long");
    // A removed key's tombstone is reused by the next new key on its probe.
    assert!(writer.remove(3).unwrap());
    writer.put(3, &[0; 9]).unwrap_err(); // no data room left for a 32-byte record
    writer.put(3, &[]).unwrap();
    assert_eq!(map.len(), 6);
}
