//! Running the jobs of `compare` as subprocesses: progress with elapsed and estimated time
//! left, a deadline per job, and a failure that is reported and passed over.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use sympathy_report::{RunFailure, Stream, parse_jsonl};

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

/// `1m05s`.
pub fn human(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// What a comparison's runs produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The results streams, one per job that succeeded.
    pub streams: Vec<Stream>,
    /// Jobs that failed.
    pub failures: Vec<RunFailure>,
}

/// Runs `jobs` in order, writing progress to `progress` and each process's output under
/// `work/logs`. A job that fails is recorded in [`Outcome::failures`] and the next one runs.
pub fn run_jobs(
    jobs: &[Job],
    launcher: &dyn Launcher,
    work: &Path,
    progress: &mut dyn Write,
) -> Outcome {
    let started = Instant::now();
    let mut outcome = Outcome::default();
    let mut done_estimate = Duration::ZERO;
    for (index, job) in jobs.iter().enumerate() {
        let remaining: Duration = jobs[index..].iter().map(|j| j.estimate).sum();
        let elapsed = started.elapsed();
        // Preset what is left by how the finished jobs compared with their estimates.
        let pace = if done_estimate.is_zero() {
            1.0
        } else {
            (elapsed.as_secs_f64() / done_estimate.as_secs_f64()).clamp(0.25, 4.0)
        };
        let _ = writeln!(
            progress,
            "[{:>2}/{}] {} [{}]  (elapsed {}, about {} left)",
            index + 1,
            jobs.len(),
            job.experiment,
            job.label(),
            human(elapsed),
            human(remaining.mul_f64(pace)),
        );
        let job_started = Instant::now();
        match run_job(job, launcher, work) {
            Ok(stream) => {
                let _ = writeln!(
                    progress,
                    "        ok: {} result(s) in {}",
                    stream.results.len(),
                    human(job_started.elapsed())
                );
                outcome.streams.push(stream);
            }
            Err(reason) => {
                let _ = writeln!(
                    progress,
                    "        FAILED after {}: {reason}",
                    human(job_started.elapsed())
                );
                outcome.failures.push(RunFailure {
                    experiment: job.experiment.clone(),
                    label: job.label().to_string(),
                    reason,
                });
            }
        }
        done_estimate += job.estimate;
    }
    let _ = writeln!(progress, "all runs done in {}", human(started.elapsed()));
    outcome
}

/// The started process of a job.
struct Running {
    child: Child,
    what: String,
    stderr: PathBuf,
}

/// Runs one job; its stream, or why it failed (a process still running is killed).
fn run_job(job: &Job, launcher: &dyn Launcher, work: &Path) -> Result<Stream, String> {
    let logs = work.join("logs");
    fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let stem = job.log_stem();
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
        ));
    }
    Ok(stream)
}

/// Waits for `r` to exit successfully before `deadline`.
fn wait(r: &mut Running, deadline: Instant) -> Result<(), String> {
    loop {
        match r.child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => return Err(failure(r, &describe(status))),
            Ok(None) if Instant::now() >= deadline => {
                kill_group(&mut r.child);
                return Err(failure(r, "did not finish in time and was killed"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(failure(r, &format!("cannot wait: {e}"))),
        }
    }
}

fn describe(status: ExitStatus) -> String {
    match status.code() {
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
    use crate::compare::runners::Program::{Sidecar, Sympathy};
    use sympathy_harness::catalog::Language;

    /// `sympathy` is `sh` (so a job's arguments are a shell snippet); the Java side is missing.
    struct FakeLauncher;

    impl Launcher for FakeLauncher {
        fn command(&self, program: Program) -> Result<Command, String> {
            match program {
                Sympathy => Ok(Command::new("sh")),
                Sidecar => Err("the Java side is not available: java/sidecar not found".into()),
            }
        }
    }

    const RUST_OK: &str = r#"echo '{"kind":"env","language":"rust","cores":2}'
echo '{"kind":"result","experiment":"ping-pong","language":"rust","variant":"xadd","params":{"iterations":42},"metric":"ns_per_hop","value":64.0,"unit":"ns","check":"ok"}'
echo 'progress goes to stderr' >&2"#;
    const FAILS: &str = "echo 'error: pin to core 7 failed' >&2; exit 3";
    const BAD_OUTPUT: &str = "echo 'not json'";
    const SILENT: &str = "echo '{\"kind\":\"env\",\"language\":\"rust\"}'";

    /// A job running `script` with `sh -c` (or, for Java, the sidecar the fake lacks).
    fn job(experiment: &str, language: Language, script: &str) -> Job {
        Job {
            experiment: experiment.to_string(),
            language,
            program: if language == Language::Java {
                Sidecar
            } else {
                Sympathy
            },
            args: vec!["-c".into(), script.into()],
            estimate: Duration::from_secs(1),
        }
    }

    fn work_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sympathy-compare-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_failing_run_is_reported_and_the_next_one_runs() {
        let jobs = [
            job("ping-pong", Language::Rust, FAILS),
            job("ping-pong", Language::Java, "run ping-pong --json"),
            job("queue", Language::Rust, BAD_OUTPUT),
            job("dispatch", Language::Rust, SILENT),
            job("struct-table", Language::Rust, RUST_OK),
        ];
        let dir = work_dir("failures");
        let mut progress = Vec::new();
        let outcome = run_jobs(&jobs, &FakeLauncher, &dir, &mut progress);
        let progress = String::from_utf8(progress).unwrap();

        assert_eq!(outcome.streams.len(), 1, "the last job still ran");
        assert_eq!(outcome.streams[0].results[0].params["iterations"], "42");
        let reasons: Vec<_> = outcome
            .failures
            .iter()
            .map(|f| (f.experiment.as_str(), f.label.as_str(), f.reason.as_str()))
            .collect();
        assert_eq!(reasons.len(), 4);
        assert!(
            reasons[0]
                .2
                .contains("exited with status 3: error: pin to core 7 failed"),
            "{reasons:?}"
        );
        assert!(
            reasons[0].2.contains("logs/ping-pong-rust.stderr"),
            "{reasons:?}"
        );
        assert_eq!(reasons[1].1, "java");
        assert!(
            reasons[1].2.contains("java/sidecar not found"),
            "{reasons:?}"
        );
        assert!(reasons[2].2.contains(":1: not JSON"), "{reasons:?}");
        assert!(
            reasons[3].2.contains("printed no result line"),
            "{reasons:?}"
        );
        assert!(progress.contains("[ 1/5] ping-pong [rust]"), "{progress}");
        assert!(progress.contains("[ 2/5] ping-pong [java]"), "{progress}");
        assert!(progress.contains("left)"), "{progress}");
        assert!(progress.contains("FAILED"), "{progress}");
        assert!(progress.contains("ok: 1 result(s)"), "{progress}");
        assert!(dir.join("logs/struct-table-rust.stdout").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_hung_run_is_killed_at_its_deadline() {
        // Not timed: the deadline is computed, then the wait is given a deadline in the past.
        let dir = work_dir("hang");
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
            err.contains("did not finish in time and was killed"),
            "{err}"
        );
        assert!(r.child.try_wait().unwrap().is_some(), "the process is gone");
        let hangs = job("x", Language::Rust, "sleep 600");
        assert!(deadline(&hangs) >= Duration::from_secs(120));
        fs::remove_dir_all(&dir).unwrap();
    }
}
