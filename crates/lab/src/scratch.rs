//! Scratch files for experiments that share memory between processes through a mapped file
//! (the queue's `p1c1-ipc`, the ipc rings), and scratch folders for those that make several
//! (the bridge's rings, state files, Aeron folders and process logs): in `/dev/shm` when it
//! exists (memory only, no write-back to a disk), else in the temporary directory, removed when
//! dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The folder scratch files and folders go in: `/dev/shm` when it exists, else the temporary
/// directory.
fn scratch_parent() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// A fresh name `<stem>-<pid>-<n>` in [`scratch_parent`], unique in this process.
fn fresh(stem: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    scratch_parent().join(format!("{stem}-{}-{n}", std::process::id()))
}

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
        let path = fresh(stem);
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

/// A fresh, empty folder, unique in this process; removed with everything in it when dropped.
///
/// ```
/// use sympathy_lab::scratch::ScratchDir;
///
/// let scratch = ScratchDir::new("sympathy-doc-dir").unwrap();
/// std::fs::write(scratch.join("a.ring"), b"x").unwrap();
/// let path = scratch.path().to_path_buf();
/// drop(scratch);
/// assert!(!path.exists());
/// ```
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// Makes `<dir>/<stem>-<pid>-<n>/` (a stale one of that name is removed first).
    ///
    /// # Errors
    /// The folder cannot be made.
    pub fn new(stem: &str) -> std::io::Result<ScratchDir> {
        let path = fresh(stem);
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        Ok(ScratchDir(path))
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// `name` inside the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
