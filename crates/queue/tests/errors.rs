//! Bad input gets a typed error: capacities, and queue files of the wrong size or layout.
#![cfg(not(miri))] // Miri cannot mmap

mod common;

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};

use sympathy_queue::{Consumer, MemoryKind, Producer, QueueError, QueueLayout, create_file, queue};

#[test]
fn capacity_must_be_a_non_zero_power_of_two() {
    for kind in [MemoryKind::Heap, MemoryKind::Anonymous] {
        for capacity in [0, 3, 1000] {
            let err = queue::<u32>(capacity, kind).unwrap_err();
            assert_eq!(err, QueueError::CapacityNotPowerOfTwo { capacity });
            assert!(err.to_string().contains("power of two"));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        create_file::<u32>(common::queue_path(&dir), 6),
        Err(QueueError::CapacityNotPowerOfTwo { capacity: 6 })
    );
}

#[test]
fn capacity_one_holds_one_element() {
    let (mut p, mut c) = queue::<u32>(1, MemoryKind::Heap).unwrap();
    p.offer(1).unwrap();
    assert!(p.offer(2).is_err());
    assert_eq!(c.poll(), Some(1));
    p.offer(3).unwrap();
    assert_eq!(c.poll(), Some(3));
}

fn fresh_file(capacity: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = common::queue_path(&dir);
    create_file::<u32>(&path, capacity).unwrap();
    (dir, path)
}

fn patch(path: &std::path::Path, offset: u64, bytes: &[u8]) {
    let mut f = OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(offset)).unwrap();
    f.write_all(bytes).unwrap();
}

#[test]
fn attach_rejects_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let err = Consumer::<u32>::attach(dir.path().join("absent")).unwrap_err();
    assert!(matches!(err, QueueError::File { .. }), "{err}");
}

#[test]
fn attach_rejects_a_file_too_short_for_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::queue_path(&dir);
    std::fs::write(&path, [0u8; 100]).unwrap();
    let err = Producer::<u32>::attach(&path).unwrap_err();
    assert_eq!(
        err,
        QueueError::TooShort {
            len: 100,
            min: QueueLayout::SLOTS_OFFSET
        }
    );
}

#[test]
fn attach_rejects_a_file_without_the_magic() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::queue_path(&dir);
    std::fs::write(&path, vec![7u8; QueueLayout::total_len(16, 4)]).unwrap();
    let err = Consumer::<u32>::attach(&path).unwrap_err();
    assert!(matches!(err, QueueError::BadMagic { .. }), "{err}");
}

#[test]
fn attach_rejects_another_layout_version() {
    let (_dir, path) = fresh_file(16);
    patch(
        &path,
        QueueLayout::VERSION_OFFSET as u64,
        &99u32.to_ne_bytes(),
    );
    let err = Consumer::<u32>::attach(&path).unwrap_err();
    assert_eq!(
        err,
        QueueError::BadVersion {
            found: 99,
            expected: QueueLayout::VERSION
        }
    );
}

#[test]
fn attach_rejects_another_element_size() {
    let (_dir, path) = fresh_file(16);
    let err = Consumer::<u64>::attach(&path).unwrap_err();
    assert_eq!(
        err,
        QueueError::ElementSizeMismatch {
            found: 4,
            expected: 8
        }
    );
    assert!(err.to_string().contains("same element type"));
}

#[test]
fn attach_rejects_a_corrupt_capacity() {
    let (_dir, path) = fresh_file(16);
    patch(
        &path,
        QueueLayout::CAPACITY_OFFSET as u64,
        &12u64.to_ne_bytes(),
    );
    let err = Producer::<u32>::attach(&path).unwrap_err();
    assert_eq!(err, QueueError::CorruptCapacity { capacity: 12 });
}

#[test]
fn attach_rejects_a_file_of_the_wrong_size() {
    let (_dir, path) = fresh_file(64);
    let expected = QueueLayout::total_len(64, 4);
    for len in [expected - 128, expected + 1] {
        OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(len as u64)
            .unwrap();
        let err = Consumer::<u32>::attach(&path).unwrap_err();
        assert_eq!(
            err,
            QueueError::WrongLength {
                len,
                expected,
                capacity: 64,
                element_size: 4
            }
        );
    }
}

#[test]
fn a_second_producer_or_consumer_is_refused_until_the_first_detaches() {
    let (_dir, path) = fresh_file(16);
    let producer = Producer::<u32>::attach(&path).unwrap();
    let consumer = Consumer::<u32>::attach(&path).unwrap();
    assert_eq!(
        Producer::<u32>::attach(&path).unwrap_err(),
        QueueError::RoleTaken { role: "producer" }
    );
    assert_eq!(
        Consumer::<u32>::attach(&path).unwrap_err(),
        QueueError::RoleTaken { role: "consumer" }
    );
    assert!(producer.consumer_attached() && consumer.producer_attached());
    drop(consumer);
    assert!(!producer.consumer_attached());
    Consumer::<u32>::attach(&path).unwrap();
}

#[test]
fn values_survive_reattaching() {
    let (_dir, path) = fresh_file(8);
    let mut producer = Producer::<u32>::attach(&path).unwrap();
    assert_eq!(producer.offer_slice(&[1, 2, 3]), 3);
    drop(producer);
    let mut consumer = Consumer::<u32>::attach(&path).unwrap();
    let mut out = [0; 8];
    assert_eq!(consumer.poll_slice(&mut out), 3);
    assert_eq!(out[..3], [1, 2, 3]);
}

#[test]
fn corrupt_counters_from_a_peer_do_not_panic_or_overrun_the_ring() {
    let (_dir, path) = fresh_file(8);
    let mut consumer = Consumer::<u32>::attach(&path).unwrap();
    let mut producer = Producer::<u32>::attach(&path).unwrap();
    // A misbehaving peer writes a tail far beyond the head.
    patch(
        &path,
        QueueLayout::TAIL_OFFSET as u64,
        &(u64::MAX - 3).to_ne_bytes(),
    );
    let mut seen = 0;
    let n = consumer.poll_batch(1_000, |_| seen += 1);
    assert!(n <= 8 && seen == n, "a batch never exceeds the capacity");
    assert!(producer.pending() <= 8);
    let _ = consumer.poll();
    let _ = producer.offer(1);
}
