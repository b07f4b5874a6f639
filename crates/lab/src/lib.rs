//! Kernels of the mechanical-sympathy experiments, shared by the `sympathy` CLI and the
//! criterion benches in `benches/`.
//!
//! The machinery every run shares (results schema, stats, pinning, presets, memory) is the
//! `sympathy-harness` crate; this crate holds the kernels, one module per experiment of the
//! catalog, named as its entry in snake case (`struct_table` runs `experiments/struct-table.toml`:
//! the trade table as boxed objects, structs, flyweights and columns). `build.rs` declares the
//! module of every entry that has kernels here, so a new experiment is its entry and its
//! module, listed nowhere else. Beside them, what several experiments use:
//! - [`peer`]: the process layer of the cross-process experiments (`ipc`, `messaging`): the
//!   peer launch, the peer tasks, the Java sidecar, quantiles and fault reporting.
//! - [`hop_probe`]: a few milliseconds of store-release ping-pong, the machine's state
//!   measured before and after each run of `compare`.
//! - [`c_reference`]: the C reference kernels of atomic-increment and ping-pong, called
//!   through FFI.
//! - [`clock`]: the time-stamp counter, for timing single operations.
//! - [`scratch`]: scratch files in `/dev/shm` for the experiments that map one between
//!   processes.
//! - `cursor`: the bounds-checked byte cursors of the hand codecs (serialization, messaging).
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod c_reference;
pub mod clock;
pub(crate) mod cursor;
pub mod hop_probe;
pub mod peer;
pub mod scratch;

// The kernels of every experiment of the catalog (`experiments/<name>.toml`): `<name_snake>.rs`
// here, declared by build.rs, so that adding an experiment names it nowhere else.
include!(concat!(env!("OUT_DIR"), "/experiment_modules.rs"));
