//! A persistent off-heap hash map in a memory-mapped file: keys `u64`, values variable-length
//! bytes, one writer and any number of readers in any processes, in Rust and in Java (the
//! `dev.sympathy.map` package reads and writes the same file). The file format is
//! `docs/map-layout.md`; its descriptor is [`layout`].
//!
//! ```
//! use sympathy_map::{MapConfig, MapFile};
//! let path = std::env::temp_dir().join(format!("doc-lib-{}", std::process::id()));
//! # let _ = std::fs::remove_file(&path);
//! let map = MapFile::create(&path, &MapConfig::for_entries(100, 16)?)?;
//! let mut writer = map.writer()?;
//! writer.put(42, b"forty-two")?;     // appended, then published by one release store
//! writer.remove(42)?;                // a tombstone
//! writer.put(7, b"seven")?;
//! drop((writer, map));
//! let map = MapFile::open(&path)?;   // reloads: nothing rebuilt
//! assert_eq!(map.get(7)?, Some(&b"seven"[..]));
//! assert_eq!(map.get(42)?, None);
//! # std::fs::remove_file(&path).unwrap();
//! # Ok::<(), sympathy_map::MapError>(())
//! ```
//!
//! The public items:
//! - [`MapFile`]: `create`, `open`, `open_read_only`, `anonymous`; `get` (in place, wait-free
//!   for readers), `entries`, `stats`, `writer_state`, and the one [`Writer`].
//! - [`Writer`]: `put`, `put_with` (encode in place), `remove`, `flush` (msync), heartbeats;
//!   attached like the ring's producer, it recounts after a writer that died.
//! - [`MapConfig`]: the sizes fixed at create; [`MapError`]: every failure, typed (a full map
//!   is [`MapError::Full`]); [`WriterState`]: what readers know of the writer.
//! - [`user`]: the seed's user record (id, name, email, fixed fields, friends), its flyweight
//!   codec behind the [`user::UserCodec`] seam, and its JSON.
//! - [`layout`]: the descriptor of every offset.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

mod config;
mod error;
pub mod layout;
#[cfg(all(test, loom))]
mod loom_model;
mod map;
mod open;
mod primitive;
mod probe;
mod region;
pub mod stress;
pub mod user;
mod writer;
mod writer_state;

pub use config::MapConfig;
pub use error::{FullOf, MapError, format_name};
pub use map::{DEFAULT_OPEN_TIMEOUT, MapFile, MapStats};
pub use sympathy_mapped::FileError;
pub use writer::{Grows, Put, Writer};
pub use writer_state::{HEARTBEAT_STALE_MS, WriterState};
