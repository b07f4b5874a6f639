//! Reserving a mapped file's blocks, so that a filesystem too small for it fails when the file is
//! made (or opened) with [`SpaceError::NoSpace`] instead of killing the first writer with
//! `SIGBUS`.
//!
//! A file sized with `set_len` is sparse: its blocks are allocated only when a page of the
//! mapping is first written, and when the filesystem (a small tmpfs, Docker's 64 MiB
//! `/dev/shm`) is full by then, the kernel has no way to report it but `SIGBUS`.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// What could not be done to reserve a file's blocks.
#[derive(Debug)]
pub enum SpaceError {
    /// The filesystem has no room for the file (`ENOSPC`, `EFBIG` or `EDQUOT`).
    NoSpace {
        /// The filesystem: its mount point and type, or the directory.
        filesystem: String,
        /// Bytes free on it for unprivileged users (0 if unknown).
        available: u64,
    },
    /// The file could not be opened to reserve its blocks.
    Open(std::io::Error),
    /// Another error of the reservation.
    Reserve(std::io::Error),
}

/// Allocates every block of `file`'s first `length` bytes (and extends it to `length`), with
/// `posix_fallocate`: for a file nobody else uses yet (glibc writes zeros on filesystems
/// without `fallocate`). Where the platform has no such call, only sets the length. `path`
/// names the file's filesystem in a [`SpaceError::NoSpace`].
///
/// # Errors
/// [`SpaceError::NoSpace`], [`SpaceError::Reserve`].
pub fn allocate_new(file: &File, path: &Path, length: u64) -> Result<(), SpaceError> {
    #[cfg(target_os = "linux")]
    {
        let len = libc::off_t::try_from(length).unwrap_or(libc::off_t::MAX);
        loop {
            // SAFETY: a plain call on a descriptor the caller owns; it touches no memory of ours.
            let rc = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) };
            match rc {
                0 => return Ok(()),
                libc::EINTR => continue,
                // No allocation on this filesystem: the file stays sparse.
                libc::EOPNOTSUPP | libc::EINVAL => break,
                errno => return Err(error(path, std::io::Error::from_raw_os_error(errno))),
            }
        }
    }
    file.set_len(length).map_err(|e| error(path, e))
}

/// Allocates the blocks of the holes in an existing, fully sized file that other processes may
/// have mapped (a sparse file left by a creator that did not reserve): the `fallocate` system
/// call (mode 0) allocates holes only and never touches written data. Where the filesystem has
/// no `fallocate` nothing is done: unlike `posix_fallocate`, this never falls back to writing
/// zeros, which could overwrite a live peer's bytes.
///
/// # Errors
/// [`SpaceError::NoSpace`], [`SpaceError::Open`], [`SpaceError::Reserve`].
pub fn allocate_holes(path: &Path, length: u64) -> Result<(), SpaceError> {
    #[cfg(target_os = "linux")]
    {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(SpaceError::Open)?;
        let len = libc::off_t::try_from(length).unwrap_or(libc::off_t::MAX);
        loop {
            // SAFETY: a plain call on a descriptor we own; it touches no memory of ours.
            let rc = unsafe { libc::fallocate(file.as_raw_fd(), 0, 0, len) };
            if rc == 0 {
                return Ok(());
            }
            let e = std::io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EINTR) => continue,
                // Not a file that can allocate ahead (a filesystem without fallocate, a device).
                Some(
                    libc::EOPNOTSUPP | libc::ENOSYS | libc::EINVAL | libc::ENODEV | libc::ESPIPE,
                ) => return Ok(()),
                _ => return Err(error(path, e)),
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (path, length);
        Ok(())
    }
}

/// `ENOSPC` (and `EFBIG`, `EDQUOT`) become [`SpaceError::NoSpace`]; the rest
/// [`SpaceError::Reserve`].
fn error(path: &Path, e: std::io::Error) -> SpaceError {
    let no_space = matches!(e.kind(), std::io::ErrorKind::StorageFull)
        || matches!(e.raw_os_error(), Some(libc::EFBIG | libc::EDQUOT));
    if !no_space {
        return SpaceError::Reserve(e);
    }
    let (filesystem, available) = filesystem_of(path);
    SpaceError::NoSpace {
        filesystem,
        available,
    }
}

/// The filesystem holding `path`, `df`-style: its mount point and type (from
/// `/proc/self/mounts`, else the directory), and the bytes free to unprivileged users
/// (`statvfs`'s `f_bavail * f_frsize`; 0 if unknown).
///
/// ```
/// let (name, free) = sympathy_mapped::space::filesystem_of(&std::env::temp_dir().join("x"));
/// assert!(!name.is_empty() && free > 0);
/// ```
pub fn filesystem_of(path: &Path) -> (String, u64) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = dir.canonicalize().unwrap_or(dir);
    let available = free_bytes(&dir).unwrap_or(0);
    let name = mount_of(&dir).map_or_else(
        || format!("the filesystem of {}", dir.display()),
        |(mount, kind)| format!("{mount} ({kind})"),
    );
    (name, available)
}

fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs is plain old data; all zeros is a valid value for it to overwrite.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid out-pointer, both live for the call.
    let rc = unsafe { libc::statvfs(c_path.as_ptr(), &mut stat) };
    // The fields are u64 on 64-bit Linux but narrower elsewhere.
    #[allow(clippy::useless_conversion)]
    let (blocks, size) = (u64::from(stat.f_bavail), u64::from(stat.f_frsize));
    (rc == 0).then(|| blocks.saturating_mul(size))
}

/// The mount point and filesystem type holding `dir` (canonical): the longest mount point in
/// `/proc/self/mounts` that contains it.
fn mount_of(dir: &Path) -> Option<(String, String)> {
    let mounts = std::fs::read_to_string("/proc/self/mounts").ok()?;
    mounts
        .lines()
        .filter_map(|line| {
            let mut fields = line.split(' ');
            let (_device, mount, kind) = (fields.next()?, fields.next()?, fields.next()?);
            Some((unescape(mount), kind.to_string()))
        })
        .filter(|(mount, _)| dir.starts_with(mount))
        .max_by_key(|(mount, _)| mount.len())
}

/// `/proc/self/mounts` writes a space, tab, newline and backslash in a path as `\040` etc.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|d| {
            std::str::from_utf8(d)
                .ok()
                .and_then(|d| u8::from_str_radix(d, 8).ok())
        });
        match (bytes[i], octal) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_escapes_are_undone() {
        assert_eq!(unescape(r"/mnt/my\040disk"), "/mnt/my disk");
        assert_eq!(unescape(r"/plain"), "/plain");
        assert_eq!(unescape(r"/odd\"), r"/odd\");
    }

    #[test]
    #[cfg_attr(miri, ignore = "Miri cannot call statvfs")]
    fn the_root_filesystem_is_named_with_its_free_space() {
        let (name, free) = filesystem_of(&std::env::temp_dir().join("x"));
        assert!(!name.is_empty());
        assert!(free > 0, "{name}");
    }
}
