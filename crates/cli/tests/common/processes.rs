//! Child processes for the cross-process tests (a Rust and a Java process on one ring file):
//! each child runs in its own process group with its stdout and stderr in files of a temp
//! folder, under a deadline past which it is killed (and its group with it) and the case fails
//! with what it printed; a child still running when its handle is dropped (a failed case) is
//! killed too, so nothing outlives a test. Used with `#[path = "common/processes.rs"]`.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};

/// The repository root (java/sidecar, the Java builds).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Rust side: `$SYMPATHY_BIN` when set (ci/java-test points it at the release build it
/// made; java/sidecar's `run ipc` reads the same variable), else these tests' own build.
pub fn sympathy_bin() -> PathBuf {
    match std::env::var_os("SYMPATHY_BIN") {
        Some(bin) if !bin.is_empty() => PathBuf::from(bin),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_sympathy")),
    }
}

/// `sympathy ARGS`, run from the repository root.
pub fn sympathy(args: &[&str]) -> Command {
    let mut cmd = Command::new(sympathy_bin());
    cmd.args(args).current_dir(root());
    cmd
}

/// `java/sidecar ARGS`, run from the repository root, with `SYMPATHY_BIN` set to the Rust side
/// these tests run, so that its Rust peers (`run ipc`) are the same binary.
pub fn sidecar(args: &[&str]) -> Command {
    let mut cmd = Command::new(root().join("java/sidecar"));
    cmd.args(args)
        .current_dir(root())
        .env("SYMPATHY_BIN", sympathy_bin());
    cmd
}

/// A Java command line as text, for messages.
pub fn describe(cmd: &Command) -> String {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let program = program.rsplit('/').next().unwrap_or(&program).to_string();
    let program = if program == "sidecar" {
        "java/sidecar".to_string()
    } else {
        program
    };
    cmd.get_args().fold(program, |mut s, a| {
        let _ = write!(s, " {}", a.to_string_lossy());
        s
    })
}

/// Holds the lock that runs this binary's tests one at a time, whatever `--test-threads` says:
/// each case is two processes spinning on a ring, and two cases at once on a small machine
/// starve each other into timeouts.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Builds what java/sidecar needs (its jar, the JNI library) once, when stale, by running
/// `java/sidecar --help` under a generous deadline: after it, every sidecar process starts
/// without a build and the per-process deadlines are about the processes alone.
pub fn sidecar_built() {
    static BUILT: Once = Once::new();
    BUILT.call_once(|| {
        let dir = TempDir::new("sidecar-build");
        let help = Proc::spawn(
            "java/sidecar --help",
            sidecar(&["--help"]),
            &dir,
            Duration::from_secs(900),
        )
        .wait()
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            help.status.success(),
            "java/sidecar cannot run (a JDK >= 22 and Maven are needed):\n{}",
            help.report()
        );
    });
}

/// A fresh folder under the system temp folder, removed with everything in it when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("sympathy-cli-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a temp folder");
        TempDir(path)
    }

    /// `name` inside the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running child.
pub struct Proc {
    name: String,
    child: Option<Child>,
    stdout: PathBuf,
    stderr: PathBuf,
    deadline: Instant,
    limit: Duration,
}

/// A child that has exited: its status and what it printed.
#[derive(Debug)]
pub struct Finished {
    pub name: String,
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Proc {
    /// Starts `cmd` as `name` (what messages call it), its output in files of `dir`, to be killed
    /// if still running `limit` from now.
    pub fn spawn(name: &str, mut cmd: Command, dir: &TempDir, limit: Duration) -> Proc {
        let file = name.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
        let (stdout, stderr) = (
            dir.join(&format!("{file}.out")),
            dir.join(&format!("{file}.err")),
        );
        let child = cmd
            .stdin(Stdio::null())
            .stdout(File::create(&stdout).expect("an output file"))
            .stderr(File::create(&stderr).expect("an output file"))
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("{name}: `{}` does not start: {e}", describe(&cmd)));
        Proc {
            name: name.to_string(),
            child: Some(child),
            stdout,
            stderr,
            deadline: Instant::now() + limit,
            limit,
        }
    }

    /// What the child has written to stdout so far.
    pub fn stdout_so_far(&self) -> String {
        std::fs::read_to_string(&self.stdout).unwrap_or_default()
    }

    /// What the child has written to stderr so far.
    pub fn stderr_so_far(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running child").id()
    }

    /// Waits for the child to exit; past its deadline it is killed and this says so, with
    /// what it printed.
    pub fn wait(mut self) -> Result<Finished, String> {
        match self.wait_until(self.deadline) {
            Some(done) => Ok(done),
            None => {
                let killed = self.kill();
                Err(format!(
                    "{} ran past its {} s deadline and was killed\n{}",
                    self.name,
                    self.limit.as_secs(),
                    killed.output()
                ))
            }
        }
    }

    /// Waits at most `grace` for the child to exit (a peer that failed leaves this one waiting
    /// on its own timeout), then kills it: what it had printed, for a failure's message.
    pub fn stop_within(mut self, grace: Duration) -> Finished {
        match self.wait_until(Instant::now() + grace) {
            Some(done) => done,
            None => self.kill(),
        }
    }

    /// Sends `signal` to the child alone (not its group): SIGTERM for a clean stop, SIGSTOP and
    /// SIGCONT to pause it, SIGKILL for a crash.
    pub fn signal(&self, signal: i32) {
        let pid = i32::try_from(self.pid()).expect("a pid fits an i32");
        // SAFETY: kill(2) on the pid of a child this process started and has not collected yet
        // (the handle holds it until waited), so the pid is not reused by another process.
        unsafe {
            libc::kill(pid, signal);
        }
    }

    /// Whether the child is still running.
    pub fn running(&mut self) -> bool {
        let child = self.child.as_mut().expect("a child not yet collected");
        child.try_wait().expect("the child's status").is_none()
    }

    /// Kills the child (SIGKILL to its process group) and collects it.
    pub fn kill(&mut self) -> Finished {
        let mut child = self.child.take().expect("a child not yet collected");
        kill_group(&child);
        let status = child.wait().expect("a killed child is collected");
        self.finished(status)
    }

    fn wait_until(&mut self, deadline: Instant) -> Option<Finished> {
        loop {
            let child = self.child.as_mut().expect("a child not yet collected");
            if let Some(status) = child.try_wait().expect("the child's status") {
                self.child = None;
                return Some(self.finished(status));
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn finished(&self, status: ExitStatus) -> Finished {
        let read = |p: &Path| {
            std::fs::read(p)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default()
        };
        Finished {
            name: self.name.clone(),
            status,
            stdout: read(&self.stdout),
            stderr: read(&self.stderr),
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            kill_group(&child);
            let _ = child.wait();
        }
    }
}

fn kill_group(child: &Child) {
    let pid = i32::try_from(child.id()).expect("a pid fits an i32");
    // SAFETY: kill(2) with the negated pid of a child this process started in a process group
    // of its own (process_group(0)) and has not collected yet: only that group is signalled.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

impl Finished {
    pub fn success(&self) -> bool {
        self.status.success()
    }

    /// What it printed, stdout then stderr, each labelled.
    pub fn output(&self) -> String {
        let mut s = String::new();
        for (what, text) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            if text.trim().is_empty() {
                let _ = writeln!(s, "  [{} {what}: empty]", self.name);
            } else {
                let _ = writeln!(s, "  [{} {what}]", self.name);
                for line in text.lines() {
                    let _ = writeln!(s, "    {line}");
                }
            }
        }
        s
    }

    /// How it ended and what it printed.
    pub fn report(&self) -> String {
        format!(
            "{} ended with {}\n{}",
            self.name,
            self.status,
            self.output()
        )
    }

    /// `Ok(self)` when it exited 0, else its report.
    pub fn ok(self) -> Result<Finished, String> {
        if self.success() {
            Ok(self)
        } else {
            Err(format!("{} failed\n{}", self.name, self.report()))
        }
    }

    /// The last non-empty line of stdout (a one-line summary).
    pub fn last_line(&self) -> &str {
        self.stdout
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
    }
}

/// Runs every case, then fails the test once with every failed case's message: one broken
/// pairing does not hide another. A case returns a one-line summary (printed) or its failure.
pub fn all_cases<T: std::fmt::Display>(
    cases: impl IntoIterator<Item = T>,
    mut run: impl FnMut(&T) -> Result<String, String>,
) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases {
        ran += 1;
        match run(&case) {
            Ok(summary) => println!("{case}: {summary}"),
            Err(why) => {
                println!("{case}: FAILED");
                failures.push(format!("{case}: {why}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
