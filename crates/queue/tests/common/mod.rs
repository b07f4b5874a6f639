//! Helpers shared by the integration tests: one way to get a queue of each memory kind.
#![allow(dead_code)]

use std::path::PathBuf;

use sympathy_queue::{Consumer, Element, MemoryKind, Producer, create_file, queue};

/// The memory kinds every conformance test runs against.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Heap,
    Anonymous,
    File,
}

pub const KINDS: [Kind; 3] = [Kind::Heap, Kind::Anonymous, Kind::File];

/// A fresh queue of `kind`; for `File`, the temporary directory that holds the file comes too
/// and must outlive the handles.
pub fn make<T: Element>(
    kind: Kind,
    capacity: usize,
) -> (Producer<T>, Consumer<T>, Option<tempfile::TempDir>) {
    match kind {
        Kind::Heap => {
            let (p, c) = queue(capacity, MemoryKind::Heap).unwrap();
            (p, c, None)
        }
        Kind::Anonymous => {
            let (p, c) = queue(capacity, MemoryKind::Anonymous).unwrap();
            (p, c, None)
        }
        Kind::File => {
            let dir = tempfile::tempdir().unwrap();
            let path = queue_path(&dir);
            create_file::<T>(&path, capacity).unwrap();
            let p = Producer::attach(&path).unwrap();
            let c = Consumer::attach(&path).unwrap();
            (p, c, Some(dir))
        }
    }
}

pub fn queue_path(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("queue")
}

/// Loop counts shrink under Miri.
pub fn count(normal: u64) -> u64 {
    if cfg!(miri) { 1_000 } else { normal }
}
