//! Record checksums: in a map whose records past `verified_end` were written in another boot of
//! the system (simulated here by changing the header's `boot`), a record whose bytes changed
//! after it was written (torn by a system crash, simulated by changing the file) is refused by
//! every lookup and by iteration, never returned; the next writer's attach removes it, and the
//! key can be put again. Within one boot, and below `verified_end` (written back by a flush),
//! records are not checked. A version 1 map (no checksums) is read and written as it is.

use std::path::{Path, PathBuf};

use sympathy_map::layout::{
    BOOT_OFFSET, DATA_END_OFFSET, LAYOUT_VERSION_OFFSET, VERIFIED_END_OFFSET, record_checksum,
};
use sympathy_map::{MapConfig, MapError, MapFile};

const SEVEN: &[u8] = b"seven, a value of some length";
/// Key 7's value with the byte [`tear_seven`] changes.
const SEVEN_TORN: &[u8] = b"sevEn, a value of some length";

/// A map file with keys 7 and 8 in a fresh folder (kept alive by the returned guard); flushed
/// after the puts when `flush`.
fn map_with_two_keys(flush: bool) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.map");
    let map = MapFile::create(&path, &MapConfig::for_entries(16, 32).unwrap()).unwrap();
    let mut writer = map.writer().unwrap();
    writer.put(7, SEVEN).unwrap();
    writer.put(8, b"eight").unwrap();
    if flush {
        writer.flush().unwrap();
    }
    (dir, path)
}

fn header_word(path: &Path, offset: usize) -> u64 {
    let bytes = std::fs::read(path).unwrap();
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().unwrap())
}

fn set_header_word(path: &Path, offset: usize, value: u64) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[offset..offset + 8].copy_from_slice(&value.to_le_bytes());
    std::fs::write(path, bytes).unwrap();
}

/// As the file is after the system restarted: its records past `verified_end` were written in
/// another boot.
fn as_after_a_restart(path: &Path) {
    set_header_word(path, BOOT_OFFSET, 1);
}

/// Changes one byte of key 7's value in the file, as a system crash may tear it: `SEVEN_TORN`.
fn tear_seven(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let at = bytes
        .windows(SEVEN.len())
        .position(|w| w == SEVEN)
        .expect("the value is in the file");
    bytes[at + 3] ^= 0x20;
    std::fs::write(path, bytes).unwrap();
}

/// Key 7 is served with the torn byte: its record was not checked.
fn assert_served_unchecked(map: &MapFile) {
    assert_eq!(map.get(7).unwrap(), Some(SEVEN_TORN));
}

fn assert_torn(result: Result<Option<&[u8]>, MapError>, key: u64) {
    match result {
        Err(e) => {
            assert_eq!(e.kind(), "corrupt-map", "{e}");
            let message = e.to_string();
            assert!(
                message.contains(&format!("(key {key}) does not match its checksum"))
                    && message.contains("put the key again"),
                "{message}"
            );
        }
        Ok(value) => panic!("a torn record was served: {value:?}"),
    }
}

#[test]
fn after_a_restart_a_torn_record_is_refused_until_a_writer_removes_it() {
    let (_dir, path) = map_with_two_keys(false);
    tear_seven(&path);
    as_after_a_restart(&path);

    let map = MapFile::open(&path).unwrap();
    assert_torn(map.get(7), 7);
    assert_eq!(map.get(8).unwrap(), Some(&b"eight"[..]));
    let refused = map.entries().filter(|e| e.is_err()).count();
    assert_eq!(refused, 1, "iteration refuses the torn record too");

    // The writer's attach removes the torn record (its value is lost), and marks the rest whole
    // and the map this boot's.
    let mut writer = map.writer().unwrap();
    assert_eq!(writer.torn_records_dropped(), 1);
    assert_eq!(map.get(7).unwrap(), None);
    assert_eq!(map.len(), 1);
    writer.put(7, b"seven again").unwrap();
    assert_eq!(map.get(7).unwrap(), Some(&b"seven again"[..]));
    drop(writer);
    assert_eq!(
        header_word(&path, BOOT_OFFSET),
        sympathy_mapped::current_boot()
    );
    let reopened = MapFile::open(&path).unwrap();
    assert!(reopened.entries().all(|e| e.is_ok()));
    assert_eq!(reopened.writer().unwrap().torn_records_dropped(), 0);
}

#[test]
fn within_one_boot_records_are_not_checked() {
    let (_dir, path) = map_with_two_keys(false);
    tear_seven(&path);
    let map = MapFile::open(&path).unwrap();
    // The page cache is the file: nothing is torn without a crash of the system, and the
    // lookups pay for no check.
    assert_served_unchecked(&map);
}

#[test]
fn a_flush_marks_its_records_whole_and_a_later_boot_does_not_check_them() {
    let (_dir, path) = map_with_two_keys(true);
    assert_eq!(
        header_word(&path, VERIFIED_END_OFFSET),
        header_word(&path, DATA_END_OFFSET),
        "a flush stores verified_end at data_end"
    );
    tear_seven(&path);
    as_after_a_restart(&path);
    let map = MapFile::open(&path).unwrap();
    assert_served_unchecked(&map);
}

#[test]
fn a_changed_checksum_word_is_refused_after_a_restart() {
    let (_dir, path) = map_with_two_keys(false);
    let value = b"eight";
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.windows(value.len()).position(|w| w == value).unwrap();
    // The checksum is the u32 just before the value (record +12).
    let stored = u32::from_le_bytes(bytes[at - 4..at].try_into().unwrap());
    assert_eq!(
        stored,
        record_checksum(8, value),
        "the writer stored the checksum"
    );
    bytes[at - 4] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    as_after_a_restart(&path);

    let map = MapFile::open_read_only(&path).unwrap();
    assert_torn(map.get(8), 8);
}

#[test]
fn a_version_1_map_is_read_and_written_without_checksums() {
    let (_dir, path) = map_with_two_keys(false);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[LAYOUT_VERSION_OFFSET..LAYOUT_VERSION_OFFSET + 4].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    tear_seven(&path);
    as_after_a_restart(&path);

    let map = MapFile::open(&path).unwrap();
    // Not checked in a version 1 map: the changed byte is served as it is.
    assert_served_unchecked(&map);
    let mut writer = map.writer().unwrap();
    writer.put(9, b"nine").unwrap();
    drop(writer);
    drop(map);
    let bytes = std::fs::read(&path).unwrap();
    let at = bytes.windows(4).position(|w| w == b"nine").unwrap();
    assert_eq!(
        &bytes[at - 4..at],
        &[0; 4],
        "a put into a version 1 map writes checksum 0"
    );
}
