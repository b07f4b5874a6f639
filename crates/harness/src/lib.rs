//! What every sympathy experiment run shares, apart from its kernels (in `sympathy-lab`):
//!
//! - [`catalog`]: the experiment catalog (`experiments/*.toml`), one home for every
//!   experiment's variants, parameters per preset, metrics and seed figures.
//! - [`format`]: the one number formatter of every figure a human reads.
//! - [`results`]: the results schema (JSON Lines) every run can emit, documented in
//!   `docs/results.md`, and the [`Reporter`] that prints it or seed-style human output.
//! - [`machine`]: the `env` record (CPU model, caches, THP mode, kernel, rustc).
//! - [`environmental`]: failures caused by a busy machine (exit status 75, retried by
//!   `compare`), told apart from real ones.
//! - [`stats`]: medians with spread over repeated runs.
//! - [`pin`]: thread pinning that is verified, never a silent fallback.
//! - [`preset`]: the smoke / quick / default / full size presets.
//! - [`memory`]: checks that a big allocation fits before making it.
//! - [`region`]: 2 MiB-aligned anonymous memory with huge-page advice.
//! - [`counting_alloc`]: a global allocator wrapper that measures bytes per record.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod catalog;
pub mod counting_alloc;
pub mod environmental;
pub mod format;
pub mod machine;
pub mod memory;
/// Thread pinning that is checked (the `sympathy-affinity` crate).
pub use sympathy_affinity as pin;
pub mod preset;
pub mod region;
pub mod results;
pub mod rng;
pub mod stats;

pub use environmental::Environmental;
pub use preset::Preset;
pub use results::{Check, Measurement, Metric, Reporter};
pub use stats::Stats;
