//! The `ipc` experiment: the memory-mapped ring (`sympathy-ring`) between two processes, each
//! pinned to its own core, every message verified against the shared pattern.
//!
//! Variants ([`Variant`], catalog entry `experiments/ipc.toml`):
//! - `ring`: throughput, a Rust producer process to this process's Rust consumer;
//! - `echo`: round trip, this process pings a Rust echo process over two rings;
//! - `ring-cross`: throughput, a Java producer process (`java/sidecar produce`) to this
//!   process's Rust consumer.
//!
//! The peer process is started through a seam, [`PeerLauncher`]: it turns a [`PeerTask`] for a
//! language into the command that runs it (the `sympathy` CLI re-runs itself with a hidden
//! subcommand for a Rust peer, [`JavaSidecar`] runs `java/sidecar` for a Java one). The peer's
//! own loops are [`produce_in_peer`] and [`echo_in_peer`].
//!
//! [`cases`] lists what a run measures from the catalog at a preset (and the command line's
//! overrides); [`run_cases`] measures and reports them; a plan prints [`Case::plan_json`] of the
//! same cases.

mod cases;
mod echo;
mod java;
mod peer;
mod quantiles;
mod run;
mod throughput;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

pub use cases::{Case, Overrides, Variant, WriteMode, cases, check_size};
pub use echo::{echo_in_peer, measure_echo};
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

/// A fresh ring file path in `/dev/shm` when it exists (memory, never disk), else in the
/// temporary directory, unique in this process; the file is removed when this is dropped.
///
/// ```
/// let scratch = sympathy_lab::ipc::ScratchRing::new("doc");
/// assert!(scratch.path().to_string_lossy().contains("sympathy-ipc-doc-"));
/// ```
pub struct ScratchRing(PathBuf);

impl ScratchRing {
    /// A new path whose file name contains `tag` (no file is made).
    pub fn new(tag: &str) -> ScratchRing {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let shm = Path::new("/dev/shm");
        let dir = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("sympathy-ipc-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        ScratchRing(path)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchRing {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
