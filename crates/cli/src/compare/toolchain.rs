//! What `compare` needs besides itself: a JDK >= 22 (`ci/find-jdk`, in the checkout that
//! [`crate::checkout::repo_root`] finds) and the Java launcher `java/sidecar`, which builds the
//! Java side when it is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::process::Launcher;
use super::runners::{JMH_PREPARE_ARGS, Program, SIDECAR_PREPARE_ARGS};

/// Launches `sympathy` (this executable) and `java/sidecar` (when the Java side is ready).
pub struct RealLauncher {
    sympathy: PathBuf,
    /// The sidecar and the JDK home, or why the Java side cannot run.
    java: Result<(PathBuf, String), String>,
}

impl RealLauncher {
    /// Locates this executable; prepares the Java side only when `need_java` (so a Rust-only
    /// `--only` run does not need a JDK). `log` receives the preparation's output.
    pub fn new(need_java: bool, root: Option<&Path>, log: &Path) -> Result<RealLauncher, String> {
        let sympathy = std::env::current_exe()
            .map_err(|e| format!("cannot locate the sympathy executable: {e}"))?;
        let java = if need_java {
            prepare_java(root, log)
        } else {
            Err("no Java run was selected".into())
        };
        Ok(RealLauncher { sympathy, java })
    }

    /// The JDK home the Java runs use, when the Java side is ready.
    pub fn java_home(&self) -> Option<&str> {
        self.java.as_ref().ok().map(|(_, home)| home.as_str())
    }

    /// Why the Java side is unavailable, if it is.
    pub fn java_problem(&self) -> Option<&str> {
        self.java.as_ref().err().map(String::as_str)
    }
}

impl Launcher for RealLauncher {
    fn command(&self, program: Program) -> Result<Command, String> {
        match program {
            Program::Sympathy => Ok(Command::new(&self.sympathy)),
            Program::Sidecar => {
                let (sidecar, java_home) = self
                    .java
                    .as_ref()
                    .map_err(|e| format!("the Java side is not available: {e}"))?;
                let mut command = Command::new(sidecar);
                command.env("JAVA_HOME", java_home);
                Ok(command)
            }
        }
    }
}

/// Finds a JDK and checks that `java/sidecar` and `java/jmh/run` run (building their jars if
/// needed), so that no build is timed inside a run.
fn prepare_java(root: Option<&Path>, log: &Path) -> Result<(PathBuf, String), String> {
    let root = root.ok_or("the checkout root (a folder with ci/find-jdk) was not found; run compare from the repository")?;
    let find_jdk = Command::new(root.join("ci/find-jdk"))
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run ci/find-jdk: {e}"))?;
    if !find_jdk.status.success() {
        let why = String::from_utf8_lossy(&find_jdk.stderr);
        return Err(format!(
            "ci/find-jdk found no JDK >= 22: {} (install one, e.g. Temurin 25, or set JAVA_HOME)",
            why.trim()
        ));
    }
    let java_home = String::from_utf8_lossy(&find_jdk.stdout).trim().to_string();
    let sidecar = root.join("java/sidecar");
    if !sidecar.is_file() {
        return Err(format!(
            "{} not found: this checkout has no Java side yet",
            sidecar.display()
        ));
    }
    let log_file = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let log_err = log_file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let jmh = root.join("java/jmh/run");
    for (program, args, name) in [
        (&sidecar, SIDECAR_PREPARE_ARGS, "java/sidecar"),
        (&jmh, JMH_PREPARE_ARGS, "java/jmh/run"),
    ] {
        let (out, err) = (
            log_file
                .try_clone()
                .map_err(|e| format!("{}: {e}", log.display()))?,
            log_err
                .try_clone()
                .map_err(|e| format!("{}: {e}", log.display()))?,
        );
        let status = Command::new(program)
            .args(args)
            .env("JAVA_HOME", &java_home)
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .status()
            .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
        if !status.success() {
            return Err(format!(
                "`{name} {}` failed ({status}): the Java build is broken (log: {})",
                args.join(" "),
                log.display()
            ));
        }
    }
    Ok((sidecar, java_home))
}
