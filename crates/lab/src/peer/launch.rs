//! The peer-launch seam: a measurement asks a [`PeerLauncher`] for the command that runs a
//! [`PeerTask`] in a process of some language, starts it, and watches it. The `sympathy` CLI
//! implements it (a Rust peer: itself with a hidden subcommand; a Java peer: [`JavaSidecar`]),
//! so this crate never needs to know how the binaries are called.
//!
//! ```
//! use std::process::Command;
//! use sympathy_harness::catalog::Language;
//! use sympathy_lab::peer::{PeerError, PeerLauncher, PeerTask};
//!
//! /// Runs every peer as `echo` (a stand-in that exits at once).
//! struct Echoing;
//! impl PeerLauncher for Echoing {
//!     fn command(&self, language: Language, task: &dyn PeerTask) -> Result<Command, PeerError> {
//!         let mut command = Command::new("echo");
//!         command.arg(format!("{} {:?}", language.name(), task));
//!         Ok(command)
//!     }
//! }
//! ```
//!
//! [`JavaSidecar`]: super::JavaSidecar

use std::ffi::OsString;
use std::process::{Child, Command};

use sympathy_harness::catalog::Language;

use super::PeerError;

/// A peer process's job, described as each language's command line asks for it: the `sympathy`
/// CLI's hidden `run ipc-peer` subcommand for a Rust peer, `java/sidecar` for a Java one. Each
/// experiment defines its own tasks ([`ProduceTask`](crate::ipc::ProduceTask),
/// [`EchoTask`](crate::ipc::EchoTask), [`PublishTask`](crate::messaging::PublishTask)), so this
/// layer knows none of them.
pub trait PeerTask: std::fmt::Debug {
    /// The arguments after `sympathy run ipc-peer` (`producer RING --size 4 ...`).
    fn rust_args(&self) -> Vec<OsString>;
    /// The arguments of `java/sidecar` (`produce RING --count 1000 ...`).
    fn java_args(&self) -> Vec<OsString>;
}

/// What every peer is told, whatever its task: how many messages, and the core it pins itself
/// to. A Rust peer's command line carries them as `--count N --core C` (a Java peer's as the
/// sidecar's own flags for them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct PeerRun {
    /// Messages the peer writes, echoes or sends (an echo's warm-up included).
    #[arg(long)]
    pub count: u64,
    /// The core the peer pins itself to.
    #[arg(long)]
    pub core: usize,
}

impl PeerRun {
    /// `--count N --core C`, the end of a Rust peer's command line.
    pub(crate) fn rust_args(self) -> [OsString; 4] {
        [
            "--count".into(),
            arg(self.count),
            "--core".into(),
            arg(self.core),
        ]
    }
}

/// `value` as one argument of a peer's command line (for [`PeerTask`]s' argument lists).
pub(crate) fn arg(value: impl ToString) -> OsString {
    OsString::from(value.to_string())
}

/// Says how to start a peer task in a process of a language.
pub trait PeerLauncher {
    /// The command that runs `task` in a `language` process.
    ///
    /// # Errors
    /// That language cannot run here (Java missing), or has no such peer.
    fn command(&self, language: Language, task: &dyn PeerTask) -> Result<Command, PeerError>;
}

/// Starts `task` in a `language` process through `launcher`.
fn start(
    launcher: &dyn PeerLauncher,
    language: Language,
    task: &dyn PeerTask,
) -> Result<Child, PeerError> {
    let mut command = launcher.command(language, task)?;
    command.spawn().map_err(|e| {
        PeerError::Peer(format!(
            "cannot start the {} peer process ({command:?}): {e}",
            language.name()
        ))
    })
}

/// Waits for a peer that should have finished; a failure names it.
fn finish(mut child: Child, what: &str) -> Result<(), PeerError> {
    let status = child.wait()?;
    if status.success() {
        Ok(())
    } else {
        Err(PeerError::Peer(format!(
            "the {what} process failed ({status}; its message is above)"
        )))
    }
}

/// Starts `task` in a `language` process (the `role` of the measurement: `producer`,
/// `sender`) and runs `work` on a thread of this process pinned to `core`, handing it the
/// peer's process to watch; then waits for the peer to finish. When `work` fails the peer is
/// killed, so that it never outlives the measurement.
///
/// # Errors
/// The peer cannot start, pinning fails, `work` fails (or panics), or the peer fails.
pub(crate) fn run_beside<T: Send>(
    launcher: &dyn PeerLauncher,
    language: Language,
    task: &dyn PeerTask,
    role: &str,
    core: usize,
    work: impl FnOnce(&mut Child) -> Result<T, PeerError> + Send,
) -> Result<T, PeerError> {
    let mut child = start(launcher, language, task)?;
    let outcome = std::thread::scope(|s| {
        s.spawn(|| {
            sympathy_harness::pin::pin_current_thread(core)?;
            work(&mut child)
        })
        .join()
        .unwrap_or_else(|_| {
            Err(PeerError::Peer(format!(
                "the thread reading from the {role} panicked"
            )))
        })
    });
    match outcome {
        Ok(value) => {
            finish(child, role)?;
            Ok(value)
        }
        Err(err) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(err)
        }
    }
}
