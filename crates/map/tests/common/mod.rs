//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// A fresh path (nothing there yet) in a temporary folder of its own, removed with the folder
/// when dropped.
pub struct TempPath(pub PathBuf, tempfile::TempDir);

impl TempPath {
    pub fn new(tag: &str) -> TempPath {
        let dir = tempfile::Builder::new()
            .prefix(&format!("sympathy-map-{tag}-"))
            .tempdir()
            .expect("a temporary folder");
        TempPath(dir.path().join(tag), dir)
    }
}
