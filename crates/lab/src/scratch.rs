//! Scratch files for experiments that share memory between processes through a mapped file
//! (the queue's `p1c1-ipc`, the ipc rings): in `/dev/shm` when it exists (memory only, no
//! write-back to a disk), else in the temporary directory, removed when dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A fresh file path, unique in this process; the file is removed when this is dropped.
///
/// ```
/// use sympathy_lab::scratch::ScratchFile;
///
/// let scratch = ScratchFile::new("sympathy-doc");
/// let name = scratch.path().file_name().unwrap().to_string_lossy().into_owned();
/// assert!(name.starts_with(&format!("sympathy-doc-{}-", std::process::id())));
/// ```
pub struct ScratchFile(PathBuf);

impl ScratchFile {
    /// A new path `<dir>/<stem>-<pid>-<n>` (no file is made; a stale one is removed).
    pub fn new(stem: &str) -> ScratchFile {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let shm = Path::new("/dev/shm");
        let dir = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{stem}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        ScratchFile(path)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
