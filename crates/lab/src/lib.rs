//! Kernels of the mechanical-sympathy experiments, shared by the `sympathy` CLI and the
//! criterion benches in `benches/`.
//!
//! The shared machinery:
//! - [`results`]: the results schema (JSON Lines) every run can emit, documented in
//!   `docs/results.md`, and the [`Reporter`] that prints it or seed-style human output.
//! - [`machine`]: the `env` record (CPU model, caches, THP mode, kernel, rustc).
//! - [`stats`]: medians with spread over repeated runs.
//! - [`pin`]: thread pinning that is verified, never a silent fallback.
//! - [`scale`]: the `--quick` / default / `--full` size presets.
//!
//! One module per experiment holds its kernels:
//! - [`queue`]: SPSC queues (P1C1 on heap, off heap, across processes; rtrb, crossbeam,
//!   std) in messages per second.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod machine;
pub mod pin;
pub mod queue;
pub mod results;
pub mod scale;
pub mod stats;

pub use results::{Check, Measurement, Metric, Reporter};
pub use scale::Scale;
pub use stats::Stats;
