//! The peer layer: what every experiment that runs part of its work in another process shares
//! (ipc, messaging; map-service's Java server through [`JavaSidecar`]). A measurement describes
//! the other process's job as a [`PeerTask`] (its own type: how the `sympathy` CLI's hidden
//! `run ipc-peer` subcommand and `java/sidecar` ask for it), a [`PeerLauncher`] turns it into
//! the command of a process of a language, and [`start`]/[`finish`] run and watch it. Also:
//! the run's error type ([`PeerError`]), a scratch ring file ([`scratch_ring`]), a watch on a
//! peer that stalls ([`Progress`]), round-trip [`Quantiles`], the plan of a run across
//! processes ([`PeerRuns`]), and the measuring loops over any pair of ring ends (a verifying
//! consumer, a pinger).
//!
//! No experiment imports another's kernels: each imports this layer. (The bridge's ring ends
//! are ipc's peers, so it starts them with ipc's own tasks.)

mod java;
mod launch;
mod loops;
mod quantiles;
mod runs;
mod wait;

use thiserror::Error;

use crate::scratch::ScratchFile;

pub use java::{JavaRing, JavaSidecar, repository_root};
pub use launch::{PeerLauncher, PeerRun, PeerTask};
pub(crate) use launch::{arg, run_beside};
pub(crate) use loops::{LOOK_EVERY, consume_pattern, ping_loop};
pub use quantiles::Quantiles;
pub use runs::PeerRuns;
pub(crate) use wait::{EmptyRing, FullRing, Progress};

/// Why a run across processes failed.
#[derive(Debug, Error)]
pub enum PeerError {
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

impl sympathy_harness::environmental::Classify for PeerError {
    /// Only this process's pin that did not take is the machine's doing (a peer's failures
    /// arrive as its message, never retried).
    fn is_environmental(&self) -> bool {
        matches!(self, PeerError::Pin(pin) if pin.is_environmental())
    }
}

/// A fresh ring file path (`/dev/shm/sympathy-ipc-<tag>-<pid>-<n>`), removed when dropped.
pub(crate) fn scratch_ring(tag: &str) -> ScratchFile {
    ScratchFile::new(&format!("sympathy-ipc-{tag}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_harness::environmental::Classify;
    use sympathy_harness::pin::PinError;

    #[test]
    fn only_a_pin_that_did_not_take_here_is_the_machines_doing() {
        assert!(PeerError::Pin(PinError::Refused { core: 1 }).is_environmental());
        assert!(!PeerError::Mismatch("message 3".into()).is_environmental());
        assert!(
            !PeerError::Peer("the echo exited with status 1".into()).is_environmental(),
            "a peer's failure is never retried silently"
        );
    }
}
