//! A tmpfs of a few KiB mounted for one test, for the cases a full filesystem causes. Mounting
//! needs root (the development VM and ci run tests as root); elsewhere the tests that need it
//! say so and skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// A mounted tmpfs, unmounted (and its directory removed) when dropped.
pub struct SmallFilesystem {
    dir: PathBuf,
}

impl SmallFilesystem {
    /// Mounts a tmpfs of `size` (as `mount -o size=`, e.g. `64k`), or returns `None` after
    /// saying why the test is skipped.
    pub fn mount(size: &str) -> Option<SmallFilesystem> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("sympathy-small-fs-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output();
        match out {
            Ok(o) if o.status.success() => Some(SmallFilesystem { dir }),
            other => {
                let why = match other {
                    Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
                    Err(e) => e.to_string(),
                };
                eprintln!("skipped: cannot mount a {size} tmpfs (needs root): {why}");
                let _ = std::fs::remove_dir(&dir);
                None
            }
        }
    }

    /// The mount point.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for SmallFilesystem {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        let _ = std::fs::remove_dir(&self.dir);
    }
}
