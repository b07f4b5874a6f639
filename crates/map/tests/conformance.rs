//! The hostile-file conformance suite shared with the Java map: `tests/conformance/manifest.json`
//! lists each case (the base map changed as the case says, or a special path) and the step at
//! which it must fail, with the error's kind (`MapError::kind`), or `ok`. The Java
//! `MapConformanceTest` runs the same cases and must get the same answers.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use sympathy_map::layout::*;
use sympathy_map::user::mix;
use sympathy_map::{MapConfig, MapError, MapFile};

#[derive(Deserialize)]
struct Manifest {
    open_timeout_ms: u64,
    base: Base,
    steps: Vec<String>,
    get_keys: Vec<u64>,
    put: (u64, String),
    cases: Vec<Value>,
}

#[derive(Deserialize)]
struct Base {
    slots: u64,
    data_capacity: u64,
    max_value_length: u32,
    value_format: u32,
    puts: Vec<(u64, String)>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// A header field's offset and size, by its name in docs/map-layout.md.
fn header_field(name: &str) -> (usize, usize) {
    match name {
        "magic" => (MAGIC_OFFSET, 8),
        "version" => (LAYOUT_VERSION_OFFSET, 4),
        "ready" => (READY_OFFSET, 4),
        "slots" => (SLOTS_OFFSET, 8),
        "data_capacity" => (DATA_CAPACITY_OFFSET, 8),
        "max_value_length" => (MAX_VALUE_LENGTH_OFFSET, 4),
        "header_length" => (HEADER_LENGTH_OFFSET, 4),
        "creation_time_ms" => (CREATION_TIME_OFFSET, 8),
        "value_format" => (VALUE_FORMAT_OFFSET, 4),
        "data_end" => (DATA_END_OFFSET, 8),
        "count" => (COUNT_OFFSET, 8),
        "used_slots" => (USED_SLOTS_OFFSET, 8),
        "verified_end" => (VERIFIED_END_OFFSET, 8),
        "boot" => (BOOT_OFFSET, 8),
        "table" => (TABLE_OFFSET, 8),
        "writer" => (WRITER_OFFSET, 8),
        "writer_heartbeat_ms" => (WRITER_HEARTBEAT_OFFSET, 8),
        "writer_detached_ms" => (WRITER_DETACHED_OFFSET, 8),
        "recoveries" => (RECOVERIES_OFFSET, 8),
        other => panic!("unknown header field {other}"),
    }
}

fn put_word(bytes: &mut [u8], at: usize, size: usize, value: u64) {
    bytes[at..at + size].copy_from_slice(&value.to_le_bytes()[..size]);
}

fn word(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// The file offset of the slot holding `key` in the base's bytes.
fn slot_of(bytes: &[u8], base: &Base, key: u64) -> usize {
    let data = data_area_offset(base.slots) as usize;
    (0..base.slots as usize)
        .map(|i| HEADER_LENGTH + 8 * i)
        .find(|&at| {
            let w = word(bytes, at);
            w != EMPTY && w != TOMBSTONE && word(bytes, data + record_offset(w) as usize) == key
        })
        .unwrap_or_else(|| panic!("key {key} is not in the base"))
}

/// Makes the case's file at `path` from the base's bytes.
fn make(case: &Value, base_bytes: &[u8], base: &Base, path: &Path) {
    if let Some(special) = case["special"].as_str() {
        match special {
            "directory" => std::fs::create_dir(path).unwrap(),
            "fifo" => {
                let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
                // SAFETY: a NUL-terminated path, live for the call.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            }
            "dev-zero-link" => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
            other => panic!("unknown special {other}"),
        }
        return;
    }
    let mut bytes = match case["base"].as_str() {
        None => base_bytes.to_vec(),
        Some("zeros") => vec![0; base_bytes.len()],
        Some("random") => {
            let seed = case["seed"].as_u64().unwrap();
            (0..base_bytes.len() as u64)
                .map(|i| mix(seed + i) as u8)
                .collect()
        }
        Some(other) => panic!("unknown base {other}"),
    };
    if let Some(fields) = case["header"].as_object() {
        for (name, value) in fields {
            let (at, size) = header_field(name);
            put_word(&mut bytes, at, size, value.as_u64().unwrap());
        }
    }
    if let Some(slot) = case["slot"].as_object() {
        let at = slot_of(&bytes, base, slot["of_key"].as_u64().unwrap());
        let offset = slot["offset"].as_u64().unwrap();
        let w = (word(&bytes, at) & !OFFSET_MASK) | (offset / RECORD_ALIGNMENT as u64);
        put_word(&mut bytes, at, 8, w);
    }
    if let Some(record) = case["record"].as_object() {
        let at = slot_of(&bytes, base, record["of_key"].as_u64().unwrap());
        let start =
            data_area_offset(base.slots) as usize + record_offset(word(&bytes, at)) as usize;
        if let Some(key) = record.get("key") {
            put_word(
                &mut bytes,
                start + RECORD_KEY_OFFSET,
                8,
                key.as_u64().unwrap(),
            );
        }
        if let Some(length) = record.get("value_length") {
            put_word(
                &mut bytes,
                start + RECORD_VALUE_LENGTH_OFFSET,
                4,
                length.as_u64().unwrap(),
            );
        }
        if let Some(checksum) = record.get("checksum") {
            put_word(
                &mut bytes,
                start + RECORD_CHECKSUM_OFFSET,
                4,
                checksum.as_u64().unwrap(),
            );
        }
        if let Some(xor) = record.get("value_xor") {
            bytes[start + RECORD_HEADER_LENGTH] ^= xor.as_u64().unwrap() as u8;
        }
    }
    if let Some(all) = case["slots_all"].as_u64() {
        for i in 0..base.slots as usize {
            put_word(&mut bytes, HEADER_LENGTH + 8 * i, 8, all);
        }
    }
    let length = case["length"]
        .as_u64()
        .map(|l| l as usize)
        .unwrap_or_else(|| {
            (bytes.len() as i64 + case["length_delta"].as_i64().unwrap_or(0)) as usize
        });
    bytes.resize(length, 0);
    std::fs::write(path, bytes).unwrap();
}

/// Runs the steps on `path` (the lookups of the case's own `get_keys`, else the manifest's):
/// the first failure as (step, kind), or `None`.
fn run(manifest: &Manifest, case: &serde_json::Value, path: &Path) -> Option<(String, String)> {
    let fail = |step: &str, e: MapError| Some((step.to_string(), e.kind().to_string()));
    let map =
        match MapFile::open_with_timeout(path, Duration::from_millis(manifest.open_timeout_ms)) {
            Ok(map) => map,
            Err(e) => return fail("open", e),
        };
    let own_keys: Option<Vec<u64>> = case["get_keys"]
        .as_array()
        .map(|keys| keys.iter().map(|k| k.as_u64().unwrap()).collect());
    for &key in own_keys.as_ref().unwrap_or(&manifest.get_keys) {
        if let Err(e) = map.get(key) {
            return fail("get", e);
        }
    }
    let mut writer = match map.writer() {
        Ok(w) => w,
        Err(e) => return fail("attach-writer", e),
    };
    if let Err(e) = writer.put(manifest.put.0, &hex(&manifest.put.1)) {
        return fail("put", e);
    }
    None
}

#[test]
fn every_hostile_file_gets_its_expected_answer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let manifest: Manifest =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest.steps, ["open", "get", "attach-writer", "put"]);
    let scratch = common::TempPath::new("conformance");
    std::fs::create_dir_all(&scratch.0).unwrap();
    let base_path = scratch.0.join("base");
    let b = &manifest.base;
    let config = MapConfig {
        slots: b.slots,
        data_capacity: b.data_capacity,
        max_value_length: b.max_value_length,
        value_format: b.value_format,
    };
    {
        let map = MapFile::create(&base_path, &config).unwrap();
        let mut writer = map.writer().unwrap();
        for (key, value) in &b.puts {
            writer.put(*key, &hex(value)).unwrap();
        }
    }
    let base_bytes = std::fs::read(&base_path).unwrap();
    let mut failures = Vec::new();
    for case in &manifest.cases {
        let name = case["name"].as_str().unwrap();
        let path: PathBuf = scratch.0.join(name);
        make(case, &base_bytes, b, &path);
        let got = run(&manifest, case, &path);
        let expect = &case["expect"];
        let want = match expect["kind"].as_str().unwrap() {
            "ok" => None,
            kind => Some((
                expect["step"].as_str().unwrap().to_string(),
                kind.to_string(),
            )),
        };
        if got != want {
            failures.push(format!("{name}: expected {want:?}, got {got:?}"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch.0);
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("map conformance: {} cases agree", manifest.cases.len());
}
