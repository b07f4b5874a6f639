//! A Java peer: `java/sidecar` (the launcher that finds a JDK, builds the sidecar jar when it
//! is stale and runs it), found from the repository root: the `SYMPATHY_ROOT` environment
//! variable when set, else the checkout this crate was built from.
//!
//! ```no_run
//! use sympathy_lab::ipc::JavaSidecar;
//!
//! match JavaSidecar::locate().and_then(|java| java.probe().map(|()| java)) {
//!     Ok(java) => println!("Java peers through {}", java.path().display()),
//!     Err(why) => eprintln!("no Java peer: {why}"),
//! }
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{IpcError, PeerTask, WriteMode};

/// The repository root: `$SYMPATHY_ROOT`, else the checkout this crate was compiled in.
pub fn repository_root() -> PathBuf {
    match std::env::var_os("SYMPATHY_ROOT") {
        Some(root) if !root.is_empty() => PathBuf::from(root),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
    }
}

/// The `java/sidecar` launcher of a checkout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaSidecar {
    path: PathBuf,
}

impl JavaSidecar {
    /// `java/sidecar` under [`repository_root`].
    ///
    /// # Errors
    /// [`IpcError::JavaUnavailable`] when the launcher is not there.
    pub fn locate() -> Result<JavaSidecar, IpcError> {
        let path = repository_root().join("java/sidecar");
        if path.is_file() {
            Ok(JavaSidecar { path })
        } else {
            Err(IpcError::JavaUnavailable(format!(
                "{} does not exist",
                path.display()
            )))
        }
    }

    /// The launcher's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `java/sidecar --help` once: finds the JDK and builds the jar (and the JNI library)
    /// when stale, so that a measurement's producer starts without a build, and a missing JDK
    /// or Maven shows here, not as a failed run.
    ///
    /// # Errors
    /// [`IpcError::JavaUnavailable`] with the launcher's own message.
    pub fn probe(&self) -> Result<(), IpcError> {
        let out = Command::new(&self.path)
            .arg("--help")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| {
                IpcError::JavaUnavailable(format!("cannot run {}: {e}", self.path.display()))
            })?;
        if out.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&out.stderr);
        let last = said.lines().rev().find(|l| !l.trim().is_empty());
        Err(IpcError::JavaUnavailable(format!(
            "{} --help failed ({}): {}",
            self.path.display(),
            out.status,
            last.unwrap_or("no message")
        )))
    }

    /// The command running `task` in a Java process, pinned: `produce` with the FFM ring (one
    /// call per message, or with [`WriteMode::Batch`] runs filled in place by its `writeBatch`),
    /// `echo` (the echo of the sidecar's own `latency`) or `publish` (the messaging experiment's
    /// sender) with the task's ring implementation.
    pub fn command(&self, task: &PeerTask) -> Command {
        match task {
            PeerTask::Produce(p) => {
                let mut command = Command::new(&self.path);
                command
                    .arg("produce")
                    .arg(&p.ring)
                    .args(["--count", &p.count.to_string()])
                    .args(["--size", &p.size.to_string()])
                    .args(["--impl", "ffm", "--timeout-ms", "30000"])
                    .args(["--core", &p.core.to_string()])
                    .stdout(Stdio::null());
                if p.writes == WriteMode::Batch {
                    command.args(["--writes", "batch", "--batch", &p.batch.to_string()]);
                }
                command
            }
            PeerTask::Publish(p) => {
                let mut command = Command::new(&self.path);
                command
                    .arg("publish")
                    .arg(&p.ring)
                    .args(["--encoding", p.encoding.name()])
                    .args(["--count", &p.count.to_string()])
                    .args(["--impl", p.java_ring.name(), "--timeout-ms", "30000"])
                    .args(["--core", &p.core.to_string()])
                    .args(["--warmup", &p.java_warmup.to_string()])
                    .stdout(Stdio::null());
                command
            }
            PeerTask::Echo(e) => {
                let mut command = Command::new(&self.path);
                command
                    .arg("echo")
                    .arg(&e.ping)
                    .arg(&e.pong)
                    .args(["--count", &e.count.to_string()])
                    .args(["--impl", e.java_ring.name(), "--timeout-ms", "30000"])
                    .args(["--core", &e.core.to_string()])
                    .stdout(Stdio::null());
                command
            }
        }
    }
}
