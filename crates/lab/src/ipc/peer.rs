//! The peer-launch seam: a measurement asks a [`PeerLauncher`] for the command that runs a
//! [`PeerTask`] in a process of some language, starts it, and watches it. The `sympathy` CLI
//! implements it (a Rust peer: itself with a hidden subcommand; a Java peer: [`JavaSidecar`]),
//! so this crate never needs to know how the binaries are called.
//!
//! ```
//! use std::process::Command;
//! use sympathy_harness::catalog::Language;
//! use sympathy_lab::ipc::{IpcError, PeerLauncher, PeerTask};
//!
//! /// Runs every peer as `echo` (a stand-in that exits at once).
//! struct Echoing;
//! impl PeerLauncher for Echoing {
//!     fn command(&self, language: Language, task: &PeerTask) -> Result<Command, IpcError> {
//!         let mut command = Command::new("echo");
//!         command.arg(format!("{} {:?}", language.name(), task));
//!         Ok(command)
//!     }
//! }
//! ```
//!
//! [`JavaSidecar`]: super::JavaSidecar

use std::path::PathBuf;
use std::process::{Child, Command};

use sympathy_harness::catalog::Language;

use super::{IpcError, JavaRing, WriteMode};

/// What a throughput producer process does: write `count` pattern messages of `size` bytes
/// into the existing ring `ring`, pinned to `core`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProduceTask {
    /// The ring file (already created by the consumer's process).
    pub ring: PathBuf,
    /// Payload bytes per message.
    pub size: usize,
    /// Messages to write.
    pub count: u64,
    /// The core the producer pins itself to.
    pub core: usize,
    /// One call per message or `try_write_batch` runs.
    pub writes: WriteMode,
    /// Messages per `try_write_batch` run, or per publish of a per-message producer.
    pub batch: usize,
}

/// What an echo process does: copy `count` messages from `ping` to `pong`, pinned to `core`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EchoTask {
    /// The ring the pinging process writes.
    pub ping: PathBuf,
    /// The ring the echo writes back.
    pub pong: PathBuf,
    /// Messages to echo (warm-up included).
    pub count: u64,
    /// The core the echo pins itself to.
    pub core: usize,
    /// The ring implementation a Java echo drives (a Rust echo has only its own).
    pub java_ring: JavaRing,
}

/// A peer process's job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeerTask {
    /// Produce into a ring this process consumes.
    Produce(ProduceTask),
    /// Echo this process's pings.
    Echo(EchoTask),
    /// Send the messaging experiment's price updates into a ring this process receives from.
    Publish(crate::messaging::PublishTask),
}

/// Says how to start a peer task in a process of a language.
pub trait PeerLauncher {
    /// The command that runs `task` in a `language` process.
    ///
    /// # Errors
    /// That language cannot run here (Java missing), or has no such peer.
    fn command(&self, language: Language, task: &PeerTask) -> Result<Command, IpcError>;
}

/// Starts `task` in a `language` process through `launcher`.
pub(crate) fn start(
    launcher: &dyn PeerLauncher,
    language: Language,
    task: &PeerTask,
) -> Result<Child, IpcError> {
    let mut command = launcher.command(language, task)?;
    command.spawn().map_err(|e| {
        IpcError::Peer(format!(
            "cannot start the {} peer process ({command:?}): {e}",
            language.name()
        ))
    })
}

/// Waits for a peer that should have finished; a failure names it.
pub(crate) fn finish(mut child: Child, what: &str) -> Result<(), IpcError> {
    let status = child.wait()?;
    if status.success() {
        Ok(())
    } else {
        Err(IpcError::Peer(format!(
            "the {what} process failed ({status}; its message is above)"
        )))
    }
}
