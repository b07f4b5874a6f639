//! The `ipc` experiment: the memory-mapped ring (`sympathy-ring`) between two processes, each
//! pinned to its own core, every message verified against the shared pattern.
//!
//! Variants ([`Variant`], catalog entry `experiments/ipc.toml`):
//! - `ring`: throughput, a Rust producer process to this process's Rust consumer;
//! - `echo`: round trip, this process pings a Rust echo process over two rings;
//! - `ring-cross`: throughput, a Java producer process (`java/sidecar produce`) to this
//!   process's Rust consumer;
//! - `echo-cross-ffm`, `echo-cross-jni`: round trip, this process pings a Java echo process
//!   (`java/sidecar echo`) on the FFM ring or on the Rust ring through JNI. Java's rows of the
//!   same names are the mirror image: a Java pinger of that ring, a Rust echo;
//! - `mpsc`, `mpsc-mixed`: throughput, `producers` producer processes (Rust; or one Rust and
//!   one Java) into one many-to-one ring, this process consuming (`kinds.rs`);
//! - `broadcast`: throughput, a Rust transmitter process to `receivers` Rust receivers (this
//!   process's and receiver processes), the slowest receiver's rate (`kinds.rs`).
//!
//! The peer process is started through the peer layer ([`crate::peer`]): a [`ProduceTask`] or
//! an [`EchoTask`] says how each language's command line asks for it, and a
//! [`PeerLauncher`](crate::peer::PeerLauncher) starts it. The peer's own loops are
//! [`produce_in_peer`] and [`echo_in_peer`].
//!
//! [`cases`] lists what a run measures from the catalog at a preset (and the command line's
//! overrides); [`run_cases`] measures and reports them; `sympathy run ipc --plan` prints the
//! same cases' [`Case::measurement`] params.

mod cases;
mod echo;
mod kinds;
mod run;
mod tasks;
mod throughput;

pub use cases::{
    Case, DEFAULT_BATCH, Overrides, Variant, WriteMode, broadcast_count, cases, check_size,
};
pub use echo::{MIN_WARMUP, WARMUP_LAPS, echo_in_peer, measure_echo, warmup_round_trips};
pub use kinds::{
    measure_kind, mpsc_produce_in_peer, receive_in_peer, split_count, transmit_in_peer,
};
pub use run::run_cases;
pub use tasks::{EchoTask, MpscProduceTask, ProduceTask, ReceiveTask, TransmitTask};
pub use throughput::{measure_throughput, produce_in_peer};

/// The experiment's name in results and the catalog.
pub const EXPERIMENT: &str = "ipc";
