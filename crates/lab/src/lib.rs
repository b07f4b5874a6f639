//! Kernels of the mechanical-sympathy experiments, shared by the `sympathy` CLI and the
//! criterion benches in `benches/`.
//!
//! The machinery every run shares (results schema, stats, pinning, presets, memory) is the
//! `sympathy-harness` crate; this crate holds only the kernels, one module per experiment:
//! - [`atomic_increment`]: T pinned threads increment a shared counter (lock add, xadd, CAS,
//!   sharded), with each thread's share of the increments.
//! - [`ping_pong`]: two pinned threads bounce a counter (one-way inter-core latency).
//! - [`hop_probe`]: a few milliseconds of store-release ping-pong, the machine's state
//!   measured before and after each run of `compare`.
//! - [`c_reference`]: the C reference kernels of those two, called through FFI.
//! - [`clock`]: the time-stamp counter, for timing single operations.
//! - [`ipc`]: the memory-mapped ring between two processes (throughput within and across
//!   languages, echo round trip), with the seam that starts the peer process.
//! - [`messaging`]: the seed's messaging throughput: price updates encoded, sent between two
//!   processes over the ring and decoded (SBE, a struct, a hand codec, serde; Rust and Java).
//! - [`memory_walk`]: the seed's linear / in-page / whole-heap walks and dependent chases.
//! - [`struct_table`]: the trade table as boxed objects, structs, flyweights and columns.
//! - [`offheap_map`]: the seed's users in a heap `HashMap` and in the off-heap map file:
//!   puts, gets, latency, memory, reopen, friend-of-friend traversals.
//! - [`queue`]: SPSC queues (P1C1 on heap, off heap, across processes; rtrb, crossbeam,
//!   std) in messages per second.
//! - [`serialization`]: the seed's order object written and read back (serde/postcard, a
//!   bounds-checked hand codec, a zero-copy view, straight into a claimed ring record).
//! - [`dispatch`]: the seed's four `Operation`s in a hot loop through static, `dyn` (1, 2, 4
//!   implementations at the call site) and enum dispatch.
//! - [`scratch`]: scratch files in `/dev/shm` for the experiments that map one between
//!   processes.
//! - [`back_pressure`]: an open-loop generator feeding pinned workers through an unbounded
//!   queue or a Little's-law-sized bounded one that answers "busy" when full.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod atomic_increment;
pub mod back_pressure;
pub mod c_reference;
pub mod clock;
pub mod dispatch;
pub mod hop_probe;
pub mod ipc;
pub mod memory_walk;
pub mod messaging;
pub mod offheap_map;
pub mod peer;
pub mod ping_pong;
pub mod queue;
pub mod scratch;
pub mod serialization;
pub mod struct_table;
