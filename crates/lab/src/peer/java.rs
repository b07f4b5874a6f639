//! A Java peer: `java/sidecar` (the launcher that finds a JDK, builds the sidecar jar when it
//! is stale and runs it), found from the repository root: the `SYMPATHY_ROOT` environment
//! variable when set, else the checkout this crate was built from.
//!
//! ```no_run
//! use sympathy_lab::peer::JavaSidecar;
//!
//! match JavaSidecar::locate().and_then(|java| java.probe().map(|()| java)) {
//!     Ok(java) => println!("Java peers through {}", java.path().display()),
//!     Err(why) => eprintln!("no Java peer: {why}"),
//! }
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{PeerError, PeerTask};

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
    /// [`PeerError::JavaUnavailable`] when the launcher is not there.
    pub fn locate() -> Result<JavaSidecar, PeerError> {
        let path = repository_root().join("java/sidecar");
        if path.is_file() {
            Ok(JavaSidecar { path })
        } else {
            Err(PeerError::JavaUnavailable(format!(
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
    /// [`PeerError::JavaUnavailable`] with the launcher's own message.
    pub fn probe(&self) -> Result<(), PeerError> {
        let out = Command::new(&self.path)
            .arg("--help")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| {
                PeerError::JavaUnavailable(format!("cannot run {}: {e}", self.path.display()))
            })?;
        if out.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&out.stderr);
        let last = said.lines().rev().find(|l| !l.trim().is_empty());
        Err(PeerError::JavaUnavailable(format!(
            "{} --help failed ({}): {}",
            self.path.display(),
            out.status,
            last.unwrap_or("no message")
        )))
    }

    /// The command running `task` in a Java process (its [`PeerTask::java_args`]); its standard
    /// output is dropped.
    pub fn command(&self, task: &dyn PeerTask) -> Command {
        let mut command = Command::new(&self.path);
        command.args(task.java_args()).stdout(Stdio::null());
        command
    }
}

/// A ring implementation of the Java sidecar (`--impl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JavaRing {
    /// The pure-Java ring over the foreign-memory API.
    Ffm,
    /// The Rust ring called through JNI.
    Jni,
}

impl JavaRing {
    /// The sidecar's `--impl` name.
    pub fn name(self) -> &'static str {
        match self {
            JavaRing::Ffm => "ffm",
            JavaRing::Jni => "jni",
        }
    }

    /// The sidecar flags every ring task of this implementation passes: `--impl`, the peer
    /// timeout ([`SIDECAR_TIMEOUT_MS`]: a Java peer gives up on a silent partner after it) and
    /// the core it pins itself to.
    pub(crate) fn sidecar_flags(self, core: usize) -> [std::ffi::OsString; 6] {
        [
            "--impl".into(),
            self.name().into(),
            "--timeout-ms".into(),
            super::arg(SIDECAR_TIMEOUT_MS),
            "--core".into(),
            super::arg(core),
        ]
    }
}

/// How long a Java peer task waits on its partner (the ring's other side) before it fails.
pub(crate) const SIDECAR_TIMEOUT_MS: u64 = 30_000;
