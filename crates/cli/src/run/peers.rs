//! The peer processes the CLI's cross-process experiments (`run ipc`, `run messaging`) start:
//! [`CliPeers`] launches a Rust peer as this binary's hidden `run ipc-peer` and a Java peer as
//! `java/sidecar`; [`pick_cores`] gives the two processes their cores.

use anyhow::Result;
use sympathy_harness::catalog::Language;
use sympathy_lab::peer::{JavaSidecar, PeerError, PeerLauncher, PeerTask};

/// Two distinct cores for the two processes: `--cores a,b`, or the first two available.
pub(crate) fn pick_cores(cores: &Option<String>) -> Result<(usize, usize)> {
    let list = match cores {
        Some(text) => sympathy_harness::pin::parse_core_list(text).map_err(anyhow::Error::msg)?,
        None => sympathy_harness::pin::available_cores(),
    };
    match list[..] {
        [a, b, ..] if a != b => Ok((a, b)),
        _ => anyhow::bail!(
            "need two distinct cores for the two processes, have {list:?}; pass --cores a,b"
        ),
    }
}

/// The peer processes of the CLI (of `run ipc` and `run messaging`): a Rust peer re-runs this
/// binary with a hidden subcommand (`run ipc-peer producer|echo|publisher`), a Java peer runs
/// `java/sidecar`.
pub(crate) struct CliPeers {
    /// The sidecar, once probed.
    pub(crate) java: Option<JavaSidecar>,
}

impl PeerLauncher for CliPeers {
    fn command(
        &self,
        language: Language,
        task: &dyn PeerTask,
    ) -> Result<std::process::Command, PeerError> {
        match language {
            Language::Java => match &self.java {
                Some(java) => Ok(java.command(task)),
                None => Err(PeerError::JavaUnavailable(
                    "java/sidecar was not probed".into(),
                )),
            },
            Language::Rust => {
                let mut command = std::process::Command::new(std::env::current_exe()?);
                command.args(crate::run::ipc_peer::peer_args(task));
                Ok(command)
            }
            Language::C => Err(PeerError::BadCase("there is no C ipc peer".into())),
        }
    }
}
