//! Reserving a ring file's blocks, so that a filesystem too small for it fails at create with
//! [`RingError::NoSpace`] instead of killing the first writer with `SIGBUS`: the shared
//! [`sympathy_mapped::space`] calls, their errors in the ring's words.

use std::fs::File;
use std::path::Path;

use sympathy_mapped::space::{self, SpaceError};

use crate::error::RingError;

/// Allocates every block of a new ring file (see [`space::allocate_new`]).
///
/// # Errors
/// [`RingError::NoSpace`] naming the filesystem and its free space; [`RingError::Io`].
pub(crate) fn allocate_new(file: &File, path: &Path, length: u64) -> Result<(), RingError> {
    space::allocate_new(file, path, length).map_err(|e| error(path, length, e))
}

/// Allocates the holes of an existing ring file that peers may have mapped (see
/// [`space::allocate_holes`]: never a write of zeros).
///
/// # Errors
/// [`RingError::NoSpace`] naming the filesystem and its free space; [`RingError::Io`].
pub(crate) fn allocate_holes(path: &Path, length: u64) -> Result<(), RingError> {
    space::allocate_holes(path, length).map_err(|e| error(path, length, e))
}

fn error(path: &Path, length: u64, e: SpaceError) -> RingError {
    match e {
        SpaceError::NoSpace {
            filesystem,
            available,
        } => RingError::NoSpace {
            path: path.to_path_buf(),
            filesystem,
            available,
            needed: length,
        },
        SpaceError::Open(e) => RingError::io(path, "open the ring file to reserve its space", e),
        SpaceError::Reserve(e) => RingError::io(path, "reserve the ring file's space", e),
    }
}
