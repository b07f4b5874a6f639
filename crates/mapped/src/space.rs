//! Reserving a mapped file's blocks, so that a filesystem too small for it fails when the file is
//! made (or opened) with [`SpaceError::NoSpace`] instead of killing the first writer with
//! `SIGBUS`.
//!
//! A file sized with `set_len` is sparse: its blocks are allocated only when a page of the
//! mapping is first written, and when the filesystem (a small tmpfs, Docker's 64 MiB
//! `/dev/shm`) is full by then, the kernel has no way to report it but `SIGBUS`.
//!
//! A reservation never takes a filesystem's last bytes, not even for a moment, since other
//! programs write there too: it refuses at once when the file does not fit beside
//! [`kept_free`] bytes, and it allocates in [`RESERVE_STEP`]s, reading the free space again
//! before each, so that a filesystem others fill meanwhile stops it at that margin (the file
//! is then removed by its creator).

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
        /// Bytes of it a reservation leaves to other programs ([`kept_free`]).
        kept: u64,
    },
    /// The file could not be opened to reserve its blocks.
    Open(std::io::Error),
    /// Another error of the reservation.
    Reserve(std::io::Error),
}

/// Bytes a reservation reads the free space again after: the most it can take of a filesystem
/// that others fill meanwhile beyond the [`kept_free`] margin.
pub const RESERVE_STEP: u64 = 8 << 20;

/// Bytes of a filesystem of `total` bytes that a reservation leaves free for other programs:
/// 1/32 of it, at least 4 MiB (a quarter of a filesystem smaller than 16 MiB) and at most
/// 256 MiB.
///
/// ```
/// use sympathy_mapped::space::kept_free;
/// assert_eq!(kept_free(64 << 20), 4 << 20); // Docker's /dev/shm
/// assert_eq!(kept_free(64 << 30), 256 << 20);
/// assert_eq!(kept_free(64 << 10), 16 << 10);
/// ```
pub fn kept_free(total: u64) -> u64 {
    (total / 32).clamp((4 << 20).min(total / 4), 256 << 20)
}

/// Allocates every block of `file`'s first `length` bytes (and extends it to `length`), with
/// `posix_fallocate`: for a file nobody else uses yet (glibc writes zeros on filesystems
/// without `fallocate`). Where the platform has no such call, only sets the length. `path`
/// names the file's filesystem in a [`SpaceError::NoSpace`].
///
/// It refuses before it allocates anything when `length` and [`kept_free`] do not both fit in
/// the free space, and allocates in steps of [`RESERVE_STEP`], each after a new look at the
/// free space, so that it stops at that margin however fast others fill the filesystem.
///
/// # Errors
/// [`SpaceError::NoSpace`], [`SpaceError::Reserve`].
pub fn allocate_new(file: &File, path: &Path, length: u64) -> Result<(), SpaceError> {
    #[cfg(target_os = "linux")]
    {
        let mut reserved = 0;
        while reserved < length {
            let step = RESERVE_STEP.min(length - reserved);
            // The first look asks for the whole file; the later ones for the next step.
            let wanted = if reserved == 0 { length } else { step };
            room_for(path, wanted)?;
            let (offset, len) = (off_t(reserved), off_t(step));
            // SAFETY: a plain call on a descriptor the caller owns; it touches no memory of ours.
            match unsafe { libc::posix_fallocate(file.as_raw_fd(), offset, len) } {
                0 => reserved += step,
                libc::EINTR => {}
                // No allocation on this filesystem: the file stays sparse.
                libc::EOPNOTSUPP | libc::EINVAL => break,
                errno => return Err(error(path, std::io::Error::from_raw_os_error(errno))),
            }
        }
        if reserved == length {
            return Ok(());
        }
    }
    file.set_len(length).map_err(|e| error(path, e))
}

/// `Ok` when `wanted` more bytes fit on `path`'s filesystem beside the [`kept_free`] margin
/// (or when the free space cannot be read: the reservation itself then decides).
fn room_for(path: &Path, wanted: u64) -> Result<(), SpaceError> {
    let dir = directory_of(path);
    let Some((available, total)) = free_and_total(&dir) else {
        return Ok(());
    };
    let kept = kept_free(total);
    if wanted.saturating_add(kept) <= available {
        return Ok(());
    }
    Err(SpaceError::NoSpace {
        filesystem: filesystem_name(&dir),
        available,
        kept,
    })
}

#[cfg(target_os = "linux")]
fn off_t(bytes: u64) -> libc::off_t {
    libc::off_t::try_from(bytes).unwrap_or(libc::off_t::MAX)
}

/// Allocates the blocks of the holes in an existing, fully sized file that other processes may
/// have mapped (a sparse file left by a creator that did not reserve): the `fallocate` system
/// call (mode 0) allocates holes only and never touches written data. Where the filesystem has
/// no `fallocate` nothing is done: unlike `posix_fallocate`, this never falls back to writing
/// zeros, which could overwrite a live peer's bytes. As [`allocate_new`], it keeps
/// [`kept_free`] bytes free, going from hole to hole (`lseek`'s `SEEK_HOLE`) a
/// [`RESERVE_STEP`] at a time; a file with all its blocks needs no room.
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
        let fd = file.as_raw_fd();
        let mut offset = 0;
        loop {
            // SAFETY: a plain call on a descriptor we own; it touches no memory of ours.
            let hole = unsafe { libc::lseek(fd, off_t(offset), libc::SEEK_HOLE) };
            let Ok(hole) = u64::try_from(hole) else {
                let e = std::io::Error::last_os_error();
                return match e.raw_os_error() {
                    // Past the end, or a filesystem that cannot say where its holes are.
                    Some(libc::ENXIO | libc::EINVAL) => Ok(()),
                    _ => Err(error(path, e)),
                };
            };
            if hole >= length {
                return Ok(());
            }
            let step = RESERVE_STEP.min(length - hole);
            room_for(path, step)?;
            // SAFETY: as above.
            if unsafe { libc::fallocate(fd, 0, off_t(hole), off_t(step)) } == 0 {
                offset = hole + step;
                continue;
            }
            let e = std::io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EINTR) => offset = hole,
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
    let dir = directory_of(path);
    let (available, total) = free_and_total(&dir).unwrap_or((0, 0));
    SpaceError::NoSpace {
        filesystem: filesystem_name(&dir),
        available,
        kept: kept_free(total),
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
    let dir = directory_of(path);
    let available = free_and_total(&dir).map_or(0, |(free, _)| free);
    (filesystem_name(&dir), available)
}

/// The directory of `path`, canonical where it can be.
fn directory_of(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    dir.canonicalize().unwrap_or(dir)
}

/// `dir`'s filesystem as its mount point and type, else as the directory.
fn filesystem_name(dir: &Path) -> String {
    mount_of(dir).map_or_else(
        || format!("the filesystem of {}", dir.display()),
        |(mount, kind)| format!("{mount} ({kind})"),
    )
}

/// The bytes free to unprivileged users on `dir`'s filesystem and its size, from `statvfs`.
fn free_and_total(dir: &Path) -> Option<(u64, u64)> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs is plain old data; all zeros is a valid value for it to overwrite.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid out-pointer, both live for the call.
    let rc = unsafe { libc::statvfs(c_path.as_ptr(), &mut stat) };
    // The fields are u64 on 64-bit Linux but narrower elsewhere.
    #[allow(clippy::useless_conversion)]
    let (free, blocks, size) = (
        u64::from(stat.f_bavail),
        u64::from(stat.f_blocks),
        u64::from(stat.f_frsize),
    );
    (rc == 0).then(|| (free.saturating_mul(size), blocks.saturating_mul(size)))
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
