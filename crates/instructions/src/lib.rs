//! Instruction counts per message of the hot paths, measured under valgrind's callgrind and
//! gated against a committed baseline (`crates/instructions/baseline.json`): a figure that does
//! not move with the machine's load, so CI can fail on a regression where wall-clock time
//! cannot; the Java twins of the same hot paths are counted the same way. See
//! `docs/instruction-counts.md`.
//!
//! - [`kernels`]: the measured loops (the ring's write and read, the queue's offer and poll,
//!   one encode and one decode of the order per codec), each run for `n` messages.
//! - [`gate`]: gungraun's summaries to instructions per message, compared with the baseline.
//! - [`callgrind`]: callgrind's own output files read (a dump part's thread and total).
//! - [`java`]: the Java kernels' counts (`ci/java-instructions`: a JVM under callgrind per id,
//!   its C2-compiled loop counted between two dumps), compared with `baseline-java.json`.
//!
//! The benches are `benches/hot_paths.rs`; `ci/instructions` runs them and the gate.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod callgrind;
pub mod gate;
pub mod java;
pub mod kernels;
