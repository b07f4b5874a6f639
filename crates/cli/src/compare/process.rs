//! One run of `compare` as a subprocess: its command from the [`Launcher`], its output into
//! log files, a deadline, and a failure that says what happened (and whether the machine was
//! busy: exit status 75, `sympathy_harness::environmental`).

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use sympathy_harness::environmental::EXIT_STATUS as ENVIRONMENTAL_STATUS;
use sympathy_report::{Stream, parse_jsonl};

use super::runners::{Job, Program};

/// Builds the command of a program, or says why it cannot run.
pub trait Launcher {
    /// A command for `program` (arguments are added by the caller).
    ///
    /// # Errors
    /// Why the program is unavailable (e.g. "the Java side is not built: ...").
    fn command(&self, program: Program) -> Result<Command, String>;
}

/// How long a job may run before it is killed: three times its estimate, at least two minutes.
pub fn deadline(job: &Job) -> Duration {
    (job.estimate * 3).max(Duration::from_secs(120))
}

/// Why a run produced no results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobError {
    /// What happened, with the error line of its stderr and where its log is.
    pub reason: String,
    /// It exited with status 75: its own check failed because the machine was busy.
    pub environmental: bool,
}

impl From<String> for JobError {
    fn from(reason: String) -> JobError {
        JobError {
            reason,
            environmental: false,
        }
    }
}

/// The started process of a job.
struct Running {
    child: Child,
    what: String,
    stderr: PathBuf,
}

/// Runs one job with its output in `work/logs/<stem>.stdout` and `.stderr`; its stream, or
/// why it failed (a process still running is killed).
pub fn run_job(
    job: &Job,
    stem: &str,
    launcher: &dyn Launcher,
    work: &Path,
) -> Result<Stream, JobError> {
    let logs = work.join("logs");
    fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let stdout = logs.join(format!("{stem}.stdout"));
    let stderr = logs.join(format!("{stem}.stderr"));
    let open = |p: &Path| File::create(p).map_err(|e| format!("{}: {e}", p.display()));
    let mut command = launcher.command(job.program)?;
    command
        .args(&job.args)
        .stdout(open(&stdout)?)
        .stderr(open(&stderr)?)
        .stdin(Stdio::null());
    new_process_group(&mut command);
    let what = job.command_line();
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start `{what}`: {e}"))?;
    let mut running = Running {
        child,
        what,
        stderr,
    };
    let waited = wait(&mut running, Instant::now() + deadline(job));
    if matches!(running.child.try_wait(), Ok(None)) {
        kill_group(&mut running.child);
    }
    waited?;
    let text = fs::read_to_string(&stdout).map_err(|e| format!("{}: {e}", stdout.display()))?;
    let name = format!("{} ({})", stdout.display(), running.what);
    let stream = parse_jsonl(&name, &text).map_err(|e| e.to_string())?;
    if stream.results.is_empty() {
        return Err(format!(
            "`{}` printed no result line (stdout: {})",
            running.what,
            stdout.display()
        )
        .into());
    }
    Ok(stream)
}

/// Waits for `r` to exit successfully before `deadline`.
fn wait(r: &mut Running, deadline: Instant) -> Result<(), JobError> {
    loop {
        match r.child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                return Err(JobError {
                    reason: failure(r, &describe(status)),
                    environmental: status.code() == Some(ENVIRONMENTAL_STATUS),
                });
            }
            Ok(None) if Instant::now() >= deadline => {
                kill_group(&mut r.child);
                return Err(failure(r, "did not finish in time and was killed").into());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(failure(r, &format!("cannot wait: {e}")).into()),
        }
    }
}

fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(ENVIRONMENTAL_STATUS) => {
            format!("exited with status {ENVIRONMENTAL_STATUS} (the machine was busy)")
        }
        Some(code) => format!("exited with status {code}"),
        None => format!("was ended by a signal ({status})"),
    }
}

/// `` `what` exited with status 1: <the error line of its stderr> (log: path) ``: the first
/// line starting with `error`, else the last line.
fn failure(r: &Running, how: &str) -> String {
    let text = fs::read_to_string(&r.stderr).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let line = lines
        .iter()
        .find(|l| l.trim_start().to_ascii_lowercase().starts_with("error"))
        .or(lines.last())
        .map(|l| format!(": {}", l.trim()))
        .unwrap_or_default();
    format!("`{}` {how}{line} (log: {})", r.what, r.stderr.display())
}

/// Starts the child in its own process group, so that a timeout ends its children too
/// (`java/sidecar` is a script that starts a JVM).
fn new_process_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

/// Kills the child's whole process group, then reaps the child.
fn kill_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let killed = Command::new("kill")
        .args(["-KILL", "--", &group])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !killed {
        let _ = child.kill();
    }
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_harness::catalog::Language;

    fn job(script: &str) -> Job {
        Job {
            experiment: "x".into(),
            language: Language::Rust,
            program: Program::Sympathy,
            args: vec!["-c".into(), script.into()],
            estimate: Duration::from_secs(1),
        }
    }

    struct Sh;

    impl Launcher for Sh {
        fn command(&self, _: Program) -> Result<Command, String> {
            Ok(Command::new("sh"))
        }
    }

    #[test]
    fn exit_status_75_says_the_machine_was_busy_and_others_do_not() {
        let dir = std::env::temp_dir().join(format!("sympathy-process-{}", std::process::id()));
        let busy = run_job(&job("exit 75"), "busy", &Sh, &dir).unwrap_err();
        assert!(busy.environmental, "{busy:?}");
        assert!(busy.reason.contains("the machine was busy"), "{busy:?}");
        let broken = run_job(&job("exit 1"), "broken", &Sh, &dir).unwrap_err();
        assert!(!broken.environmental, "{broken:?}");
        assert!(dir.join("logs/busy.stderr").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_hung_run_is_killed_at_its_deadline() {
        // Not timed: the deadline is computed, then the wait is given a deadline in the past.
        let dir = std::env::temp_dir().join(format!("sympathy-hang-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 600"]);
        new_process_group(&mut command);
        let stderr = dir.join("err");
        fs::write(&stderr, "").unwrap();
        let mut r = Running {
            child: command.spawn().unwrap(),
            what: "sleep".into(),
            stderr,
        };
        let err = wait(&mut r, Instant::now()).unwrap_err();
        assert!(
            err.reason.contains("did not finish in time and was killed"),
            "{err:?}"
        );
        assert!(!err.environmental);
        assert!(r.child.try_wait().unwrap().is_some(), "the process is gone");
        let hangs = job("sleep 600");
        assert!(deadline(&hangs) >= Duration::from_secs(120));
        fs::remove_dir_all(&dir).unwrap();
    }
}
