//! One test per kind of bad input, each asserting the specific error; and hostile files that
//! must never panic or hang.

mod common;

use std::os::unix::fs::FileExt;
use std::time::Duration;

use common::TempPath;
use proptest::prelude::*;
use sympathy_ring::layout::*;
use sympathy_ring::{Corruption, FileError, Ring, RingError, Role};

const CAPACITY: usize = 1024;

/// A fresh ring file, closed again so the test can patch it.
fn ring_file(tag: &str) -> TempPath {
    let path = TempPath::new(tag);
    drop(Ring::create(&path.0, CAPACITY).unwrap());
    path
}

fn patch(path: &TempPath, offset: usize, bytes: &[u8]) {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path.0)
        .unwrap();
    file.write_all_at(bytes, offset as u64).unwrap();
}

fn patch_record(path: &TempPath, index: usize, length: i32, type_id: i32) {
    patch(
        path,
        HEADER_LENGTH + index,
        &pack_header(length, type_id).to_le_bytes(),
    );
}

fn patch_trailer(path: &TempPath, offset: usize, value: i64) {
    patch(
        path,
        HEADER_LENGTH + CAPACITY + offset,
        &value.to_le_bytes(),
    );
}

fn read_error(path: &TempPath) -> RingError {
    let ring = Ring::open(&path.0).unwrap();
    let mut consumer = ring.consumer().unwrap();
    consumer.read(|_, _| {}, 100).unwrap_err()
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn open_rejects_a_file_that_is_not_a_ring() {
    let path = TempPath::new("notring");
    std::fs::write(&path.0, vec![0x41u8; file_length(CAPACITY)]).unwrap();
    match Ring::open(&path.0).unwrap_err() {
        RingError::File(FileError::NotThisKind { found, .. }) => {
            assert_eq!(found, 0x4141_4141_4141_4141)
        }
        e => panic!("{e}"),
    }
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn open_rejects_an_unsupported_version() {
    let path = ring_file("version");
    patch(&path, LAYOUT_VERSION_OFFSET, &3u32.to_le_bytes());
    assert!(matches!(
        Ring::open(&path.0).unwrap_err(),
        RingError::File(FileError::UnsupportedVersion { found: 3, .. })
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn open_rejects_a_truncated_file() {
    let path = ring_file("truncated");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path.0)
        .unwrap();
    file.set_len((HEADER_LENGTH + CAPACITY) as u64).unwrap();
    match Ring::open(&path.0).unwrap_err() {
        RingError::File(FileError::FileLength {
            actual, expected, ..
        }) => {
            assert_eq!((actual, expected), (5120, file_length(CAPACITY) as u64))
        }
        e => panic!("{e}"),
    }
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn open_refuses_a_short_file_nobody_is_creating_without_waiting_for_it() {
    let path = TempPath::new("stale-short");
    std::fs::write(&path.0, b"hello").unwrap();
    let file = std::fs::File::options().write(true).open(&path.0).unwrap();
    let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    file.set_modified(an_hour_ago).unwrap();
    let timeout = Duration::from_secs(60);
    let start = std::time::Instant::now();
    let err = Ring::open_with_timeout(&path.0, timeout).unwrap_err();
    assert!(
        matches!(
            err,
            RingError::File(FileError::FileLength { actual: 5, .. })
        ),
        "{err}"
    );
    // Unchanged for an hour: no creator is at work, so the open did not wait its minute.
    assert!(start.elapsed() < timeout, "waited {:?}", start.elapsed());
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn open_rejects_a_resized_file() {
    let path = ring_file("resized");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&path.0)
        .unwrap();
    file.set_len(file_length(CAPACITY) as u64 + 4096).unwrap();
    assert!(matches!(
        Ring::open(&path.0).unwrap_err(),
        RingError::File(FileError::FileLength { .. })
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn create_rejects_a_capacity_that_is_not_a_power_of_two() {
    let path = TempPath::new("capacity");
    assert!(matches!(
        Ring::create(&path.0, 1000).unwrap_err(),
        RingError::BadCapacity { capacity: 1000, .. }
    ));
    assert!(matches!(
        Ring::anonymous(32).unwrap_err(),
        RingError::BadCapacity { .. }
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn open_rejects_a_header_capacity_that_is_not_a_power_of_two() {
    let path = ring_file("hdrcapacity");
    patch(&path, CAPACITY_OFFSET, &1000u64.to_le_bytes());
    assert!(matches!(
        Ring::open(&path.0).unwrap_err(),
        RingError::BadCapacity { capacity: 1000, .. }
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn open_times_out_when_the_creator_never_sets_ready() {
    let path = TempPath::new("notready");
    std::fs::write(&path.0, vec![0u8; file_length(CAPACITY)]).unwrap();
    let err = Ring::open_with_timeout(&path.0, Duration::from_millis(30)).unwrap_err();
    assert!(
        matches!(err, RingError::File(FileError::NotReady { .. })),
        "{err}"
    );
    assert_eq!(err.kind(), "timeout");
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn consumer_rejects_a_length_shorter_than_the_header() {
    let path = ring_file("short");
    patch_record(&path, 0, 4, 1);
    assert!(matches!(
        read_error(&path),
        RingError::CorruptRecord {
            position: 0,
            corruption: Corruption::LengthTooShort { length: 4 },
            ..
        }
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn consumer_rejects_a_length_past_the_end_of_the_area() {
    assert_length_too_long("long", CAPACITY as i32 + 8);
}

/// A ring whose first record claims `length` bytes is refused as `LengthTooLong`.
fn assert_length_too_long(tag: &str, length: i32) {
    let path = ring_file(tag);
    patch_record(&path, 0, length, 1);
    let err = read_error(&path);
    assert!(
        matches!(
            err,
            RingError::CorruptRecord {
                corruption: Corruption::LengthTooLong { .. },
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn consumer_rejects_a_message_longer_than_the_maximum() {
    // fits the area, exceeds capacity / 8
    assert_length_too_long("toolongmsg", (CAPACITY / 2) as i32);
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn consumer_rejects_an_unknown_negative_type() {
    let path = ring_file("type");
    patch_record(&path, 0, 16, 1); // a good record first: delivered, then the error
    patch_record(&path, 16, 16, -5);
    let ring = Ring::open(&path.0).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let mut delivered = 0;
    let err = consumer.read(|_, _| delivered += 1, 100).unwrap_err();
    assert_eq!(delivered, 1);
    assert!(matches!(
        err,
        RingError::CorruptRecord {
            position: 16,
            index: 16,
            corruption: Corruption::UnknownType { type_id: -5 }
        }
    ));
    assert_eq!(
        consumer.position(),
        16,
        "the good record's bytes were released"
    );
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn attach_rejects_misaligned_positions() {
    let path = ring_file("misaligned");
    patch_trailer(&path, HEAD_POSITION_OFFSET, 3);
    patch_trailer(&path, TAIL_POSITION_OFFSET, 3);
    let err = Ring::open(&path.0).unwrap_err();
    assert!(matches!(
        err,
        RingError::CorruptRecord {
            corruption: Corruption::BadPositions { head: 3, tail: 3 },
            ..
        }
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn attach_rejects_a_tail_more_than_a_capacity_ahead() {
    let path = ring_file("gap");
    patch_trailer(&path, TAIL_POSITION_OFFSET, 2 * CAPACITY as i64);
    assert!(matches!(
        Ring::open(&path.0).unwrap_err(),
        RingError::CorruptRecord {
            corruption: Corruption::BadPositions { .. },
            ..
        }
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn producer_rejects_a_message_longer_than_the_maximum() {
    let ring = Ring::anonymous(CAPACITY).unwrap();
    let mut producer = ring.producer().unwrap();
    let err = producer.try_write(1, &[0; CAPACITY / 8 + 1]).unwrap_err();
    assert!(matches!(
        err,
        RingError::MessageTooLong {
            length: 129,
            max: 128,
            needed: 2048
        }
    ));
    assert!(producer.try_write(1, &[0; CAPACITY / 8]).is_ok());
    assert!(matches!(
        producer.try_claim(1, 1 << 20),
        Err(RingError::MessageTooLong { .. })
    ));
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn producer_rejects_zero_and_negative_type_ids() {
    let ring = Ring::anonymous(CAPACITY).unwrap();
    let mut producer = ring.producer().unwrap();
    for type_id in [0, -1, i32::MIN] {
        assert!(matches!(
            producer.try_write(type_id, b"x"),
            Err(RingError::InvalidTypeId { type_id: t }) if t == type_id
        ));
    }
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn full_ring_is_back_pressure_not_a_drop() {
    let ring = Ring::anonymous(64).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    let mut written = 0;
    let err = loop {
        match producer.try_write(1, &[written as u8; 8]) {
            Ok(()) => written += 1,
            Err(e) => break e,
        }
    };
    assert!(err.is_full(), "{err}");
    assert_eq!(written, 3); // 3 x 16 bytes + the next header's 8 fit in 64
    let mut got = Vec::new();
    consumer.read(|_, b| got.push(b[0]), 10).unwrap();
    assert_eq!(got, [0, 1, 2]);
    assert!(producer.try_write(1, &[9; 8]).is_ok());
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn second_producer_and_consumer_are_refused_naming_the_pid() {
    let ring = Ring::anonymous(CAPACITY).unwrap();
    let me = std::process::id() as i32;
    let producer = ring.producer().unwrap();
    let consumer = ring.consumer().unwrap();
    for (err, role) in [
        (ring.producer().unwrap_err(), Role::Producer),
        (ring.consumer().unwrap_err(), Role::Consumer),
    ] {
        match err {
            RingError::AlreadyAttached { role: r, pid } => assert_eq!((r, pid), (role, me)),
            e => panic!("{e}"),
        }
    }
    drop((producer, consumer));
    assert!(ring.producer().is_ok(), "detaching frees the role");
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn a_dead_producers_role_is_taken_over() {
    let path = ring_file("takeover");
    // A pid that cannot exist (above the kernel's pid_max limit of 2^22).
    patch(
        &path,
        PRODUCER_PID_OFFSET,
        &((1i32 << 30) - 7).to_le_bytes(),
    );
    let ring = Ring::open(&path.0).unwrap();
    assert!(matches!(
        ring.peer(Role::Producer),
        sympathy_ring::PeerState::Dead { .. }
    ));
    assert!(ring.producer().is_ok());
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn permission_denied_is_its_own_error() {
    use std::os::unix::fs::PermissionsExt;
    let path = ring_file("perm");
    std::fs::set_permissions(&path.0, std::fs::Permissions::from_mode(0o400)).unwrap();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        // Root ignores file modes; error.rs unit-tests the mapping of EACCES instead.
        eprintln!("skipped: running as root, which ignores file modes");
        return;
    }
    assert!(matches!(
        Ring::open(&path.0).unwrap_err(),
        RingError::File(FileError::PermissionDenied { .. })
    ));
}

#[test]
fn error_messages_say_what_to_do() {
    let e = RingError::Full {
        required: 24,
        available: 8,
    };
    assert!(e.to_string().contains("retry"));
    let e = RingError::AlreadyAttached {
        role: Role::Consumer,
        pid: 42,
    };
    assert!(e.to_string().contains("pid 42"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random bytes in the record area and random positions: reading ends (Ok or a typed
    /// error), never panics or loops.
    #[test]
    #[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
    fn hostile_record_area_never_panics(
        area in prop::collection::vec(any::<u8>(), CAPACITY),
        head in prop_oneof![Just(0i64), 0i64..4096, any::<i64>()],
        gap in 0i64..=CAPACITY as i64,
    ) {
        let path = ring_file("hostile");
        patch(&path, HEADER_LENGTH, &area);
        patch_trailer(&path, HEAD_POSITION_OFFSET, head);
        patch_trailer(&path, TAIL_POSITION_OFFSET, head.wrapping_add(gap));
        if let Ok(ring) = Ring::open(&path.0) {
            let _ = ring.peek_records(100);
            let mut consumer = ring.consumer().unwrap();
            for _ in 0..4 {
                let _ = consumer.read(|_, b| { std::hint::black_box(b); }, usize::MAX);
            }
            let mut producer = ring.producer().unwrap();
            let _ = producer.try_write(1, &[1; 100]);
        }
    }
}
