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
//!   same names are the mirror image: a Java pinger of that ring, a Rust echo.
//!
//! The peer process is started through a seam, [`PeerLauncher`]: it turns a [`PeerTask`] for a
//! language into the command that runs it (the `sympathy` CLI re-runs itself with a hidden
//! subcommand for a Rust peer, [`JavaSidecar`] runs `java/sidecar` for a Java one). The peer's
//! own loops are [`produce_in_peer`] and [`echo_in_peer`].
//!
//! [`cases`] lists what a run measures from the catalog at a preset (and the command line's
//! overrides); [`run_cases`] measures and reports them; `sympathy run ipc --plan` prints the
//! same cases' [`Case::measurement`] params.

mod cases;
mod echo;
mod java;
pub(crate) mod peer;
mod quantiles;
mod run;
mod throughput;

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::scratch::ScratchFile;

pub use cases::{Case, JavaRing, Overrides, Variant, WriteMode, cases, check_size};
pub use echo::{MIN_WARMUP, WARMUP_LAPS, echo_in_peer, measure_echo, warmup_round_trips};
pub use java::{JavaSidecar, repository_root};
pub use peer::{EchoTask, PeerLauncher, PeerTask, ProduceTask};
pub use quantiles::Quantiles;
pub use run::run_cases;
pub use throughput::{measure_throughput, produce_in_peer};

/// The experiment's name in results and the catalog.
pub const EXPERIMENT: &str = "ipc";

/// Why an ipc run failed.
#[derive(Debug, Error)]
pub enum IpcError {
    /// A ring could not be made, opened or used.
    #[error(transparent)]
    Ring(#[from] sympathy_ring::RingError),
    /// A thread could not be pinned.
    #[error(transparent)]
    Pin(#[from] sympathy_harness::pin::PinError),
    /// A file or process operation failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The peer process could not be started, failed, or went away.
    #[error("{0}")]
    Peer(String),
    /// A message read back was not the one written.
    #[error("verification failed at {0}")]
    Mismatch(String),
    /// The case cannot run (a size that does not fit, a mode a peer lacks).
    #[error("{0}")]
    BadCase(String),
    /// Java is needed for this case and cannot be run here.
    #[error(
        "Java is unavailable: {0}; install a JDK >= 22 and Maven, or set SYMPATHY_ROOT to the \
         repository root (the folder holding java/sidecar)"
    )]
    JavaUnavailable(String),
    /// The latency histogram refused a value.
    #[error("histogram: {0}")]
    Histogram(String),
}

impl sympathy_harness::environmental::Classify for IpcError {
    /// Only this process's pin that did not take is the machine's doing (a peer's failures
    /// arrive as its message, never retried).
    fn is_environmental(&self) -> bool {
        matches!(self, IpcError::Pin(pin) if pin.is_environmental())
    }
}

/// A fresh ring file path (`/dev/shm/sympathy-ipc-<tag>-<pid>-<n>`), removed when dropped.
pub(crate) fn scratch_ring(tag: &str) -> ScratchFile {
    ScratchFile::new(&format!("sympathy-ipc-{tag}"))
}

/// Watches a loop that waits on its peer: [`Progress::stalled`] says whether the count it is
/// shown has stood still for longer than a limit.
pub(crate) struct Progress {
    seen: u64,
    since: Instant,
}

impl Progress {
    pub(crate) fn new() -> Progress {
        Progress {
            seen: 0,
            since: Instant::now(),
        }
    }

    /// Whether `count` has not moved for `limit` (call it now and then while waiting).
    pub(crate) fn stalled(&mut self, count: u64, limit: Duration) -> bool {
        if count != self.seen {
            self.seen = count;
            self.since = Instant::now();
            return false;
        }
        self.since.elapsed() > limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_harness::environmental::Classify;
    use sympathy_harness::pin::PinError;

    #[test]
    fn only_a_pin_that_did_not_take_here_is_the_machines_doing() {
        assert!(IpcError::Pin(PinError::Refused { core: 1 }).is_environmental());
        assert!(!IpcError::Mismatch("message 3".into()).is_environmental());
        assert!(
            !IpcError::Peer("the echo exited with status 1".into()).is_environmental(),
            "a peer's failure is never retried silently"
        );
    }
}
