//! What every file that processes share through a memory mapping needs, whatever its layout:
//!
//! - [`process`]: whether a process named in the file still runs ([`pid_alive`], zombies
//!   counted as dead), a process's start time ([`ProcessStamp`]: a pid that the kernel may reuse,
//!   told apart by when its process started), and the wall clock in ms ([`now_ms`]).
//! - [`space`]: reserving a file's blocks up front ([`space::allocate_new`],
//!   [`space::allocate_holes`]), so that a full filesystem is a [`space::SpaceError::NoSpace`]
//!   naming it instead of a `SIGBUS` at the first write to the mapping.
//! - [`mod@file`]: refusing what is not a regular file before opening it (a FIFO would block the
//!   open, a device such as `/dev/zero` would map as endless zeros).
//! - [`liveness`]: what another process can tell about the holder of a role (alive, stale,
//!   detached, dead, never attached) from its pid, heartbeat and last detach.
//! - [`header`]: the start of the header page every kind shares (magic, version, `ready`) and the
//!   words a kind's messages use ([`FileKind`]).
//! - [`open`]: the steps of opening a hostile file up to the kind's own fields, and creating
//!   one with its blocks reserved; [`error`]: their errors ([`FileError`]), one set with one
//!   message and remedy each, in the kind's words.
//!
//! `sympathy-ring` (the IPC ring) and `sympathy-map` (the off-heap map) build on it and keep only
//! their own header fields, records and algorithms. The Java twin is the `dev.sympathy.mapped`
//! package (`java/mapped`): the open (`MappedOpen`), liveness (`Liveness`), block reservation,
//! the regular-file check, the header prefix and the file errors' words.
//!
//! ```
//! use sympathy_mapped::{ProcessStamp, pid_alive};
//! let me = ProcessStamp::current();
//! assert!(pid_alive(me.pid) && me.is_running());
//! assert_eq!(ProcessStamp::unpack(me.pack()), me);
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod error;
pub mod file;
pub mod header;
pub mod liveness;
#[cfg(loom)]
pub mod loom_check;
pub mod open;
pub mod process;
pub mod space;

pub use error::FileError;
pub use header::FileKind;
pub use process::{ProcessStamp, current_boot, now_ms, own_pid, pid_alive};
