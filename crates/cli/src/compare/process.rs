//! One run of `compare` as a subprocess: its command from the [`Launcher`], its output into
//! log files, a deadline, and a failure that says what happened (and whether the machine was
//! busy: exit status 75, `sympathy_harness::environmental`), what it used (peak RSS and CPU
//! time, from `wait4`'s rusage), and a line every [`HEARTBEAT`] while it runs.

use std::fs::{self, File};
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
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

/// How long a job may run before it is killed: three times its estimate (the catalog's or the
/// measured one, whichever is longer), at least two minutes.
pub fn deadline(job: &Job) -> Duration {
    (job.estimate.max(job.catalog_estimate) * 3).max(Duration::from_secs(120))
}

/// How often a line says that a run is still going.
pub const HEARTBEAT: Duration = Duration::from_secs(10);

/// What a run's process used, as `wait4` reports it: the process and the descendants it waited
/// for (the JVM that `java/sidecar` execs, the JMH forks it waits for).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    /// Peak resident set size, bytes (the largest of the process and its waited-for
    /// descendants).
    pub peak_rss_bytes: u64,
    /// User + system CPU time, seconds.
    pub cpu_s: f64,
    /// From the start to the exit.
    pub wall: Duration,
}

impl Usage {
    fn of(rusage: &libc::rusage, wall: Duration) -> Usage {
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        Usage {
            // Linux reports ru_maxrss in KiB.
            peak_rss_bytes: u64::try_from(rusage.ru_maxrss).unwrap_or(0) * 1024,
            cpu_s: seconds(rusage.ru_utime) + seconds(rusage.ru_stime),
            wall,
        }
    }
}

/// Where and how often a run says it is still going: a line every `every` on `out`, with the
/// time left of `expected`.
pub struct Watch<'a> {
    /// Where the lines go.
    pub out: &'a mut dyn Write,
    /// How often ([`HEARTBEAT`]).
    pub every: Duration,
    /// How long the run is expected to take.
    pub expected: Duration,
}

impl Watch<'_> {
    /// `        ... 20s in, about 25s left of this run` (or how far past its estimate it is).
    fn beat(&mut self, elapsed: Duration) {
        let secs = |d: Duration| format!("{}s", d.as_secs_f64().round());
        let left = match self.expected.checked_sub(elapsed) {
            Some(left) => format!("about {} left of this run", secs(left)),
            None => format!(
                "{} past its estimate of {}",
                secs(elapsed - self.expected),
                secs(self.expected)
            ),
        };
        let _ = writeln!(self.out, "        ... {} in, {left}", secs(elapsed));
    }
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

/// Runs one job with its output in `work/logs/<stem>.stdout` and `.stderr`, saying on `watch`
/// that it is still going; its stream and what it used, or why it failed (a process still
/// running at its deadline is killed).
pub fn run_job(
    job: &Job,
    stem: &str,
    launcher: &dyn Launcher,
    work: &Path,
    watch: &mut Watch<'_>,
) -> Result<(Stream, Usage), JobError> {
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
    let usage = wait(&mut running, deadline(job), watch)?;
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
    Ok((stream, usage))
}

/// Waits, for at most `limit`, for `r` to exit successfully; what it used. A line goes to
/// `watch` every `watch.every`. A process still running at the limit is killed with its group.
fn wait(r: &mut Running, limit: Duration, watch: &mut Watch<'_>) -> Result<Usage, JobError> {
    let started = Instant::now();
    let mut next_beat = watch.every;
    loop {
        match reap(&r.child) {
            Ok(Some((status, usage))) if status.success() => {
                return Ok(Usage::of(&usage, started.elapsed()));
            }
            Ok(Some((status, _))) => {
                return Err(JobError {
                    reason: failure(r, &describe(status)),
                    environmental: status.code() == Some(ENVIRONMENTAL_STATUS),
                });
            }
            Ok(None) if started.elapsed() >= limit => {
                kill_group(&mut r.child);
                return Err(failure(r, "did not finish in time and was killed").into());
            }
            Ok(None) => {
                let elapsed = started.elapsed();
                if elapsed >= next_beat {
                    watch.beat(elapsed);
                    next_beat = elapsed + watch.every;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(failure(r, &format!("cannot wait: {e}")).into()),
        }
    }
}

/// The exit status and rusage of `child` once it has exited (`None` while it runs), reaping it
/// with `wait4`: the rusage covers the child and every descendant it waited for.
fn reap(child: &Child) -> std::io::Result<Option<(ExitStatus, libc::rusage)>> {
    let pid = libc::pid_t::try_from(child.id()).map_err(std::io::Error::other)?;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is a C struct of integers and timevals, for which all-zero bytes are a
    // valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `status` and `usage` are live, exclusively borrowed locals of the types wait4
    // writes; `pid` is our own child, which only this function reaps (std's `Child` is never
    // waited for before it exits, except by `kill_group`, which runs only while it is alive).
    let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
    match got {
        0 => Ok(None),
        p if p == pid => Ok(Some((ExitStatus::from_raw(status), usage))),
        _ => {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                Ok(None)
            } else {
                Err(e)
            }
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
            catalog_estimate: Duration::from_secs(1),
            hop_dependent: false,
        }
    }

    /// Runs `job` with no heartbeat.
    fn run(job: &Job, stem: &str, dir: &Path) -> Result<(Stream, Usage), JobError> {
        let mut sink = Vec::new();
        let mut watch = Watch {
            out: &mut sink,
            every: Duration::from_secs(3600),
            expected: job.estimate,
        };
        run_job(job, stem, &Sh, dir, &mut watch)
    }

    const RESULT: &str = r#"echo '{"kind":"result","experiment":"x","language":"rust","variant":"v","params":{},"metric":"ns_per_op","value":1.0,"unit":"ns"}'"#;

    #[test]
    fn a_run_reports_its_peak_rss_and_cpu_time() {
        let dir = std::env::temp_dir().join(format!("sympathy-usage-{}", std::process::id()));
        // The shell holds 32 MiB of `a`s in a variable, which `tr` (a child it waits for)
        // made: RSS and CPU time that cannot be zero.
        let script = format!(
            "x=$(head -c 33554432 /dev/zero | tr '\\0' a); [ ${{#x}} -eq 33554432 ] || exit 9; {RESULT}"
        );
        let (stream, usage) = run(&job(&script), "usage", &dir).unwrap();
        assert_eq!(stream.results.len(), 1);
        assert!(
            usage.peak_rss_bytes >= 32 << 20,
            "the 32 MiB string is resident: {usage:?}"
        );
        assert!(
            usage.peak_rss_bytes < 8 << 30,
            "KiB were turned into bytes once: {usage:?}"
        );
        assert!(usage.cpu_s > 0.0, "{usage:?}");
        assert!(usage.wall > Duration::ZERO, "{usage:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_long_run_says_it_is_still_going() {
        let dir = std::env::temp_dir().join(format!("sympathy-beat-{}", std::process::id()));
        let mut lines = Vec::new();
        let mut watch = Watch {
            out: &mut lines,
            every: Duration::ZERO,
            expected: Duration::from_secs(25),
        };
        run_job(
            &job(&format!("sleep 0.3; {RESULT}")),
            "beat",
            &Sh,
            &dir,
            &mut watch,
        )
        .unwrap();
        let lines = String::from_utf8(lines).unwrap();
        assert!(
            lines.contains("        ... 0s in, about 25s left of this run"),
            "{lines}"
        );
        let mut late = Vec::new();
        Watch {
            out: &mut late,
            every: HEARTBEAT,
            expected: Duration::from_secs(30),
        }
        .beat(Duration::from_secs(50));
        assert_eq!(
            String::from_utf8(late).unwrap(),
            "        ... 50s in, 20s past its estimate of 30s\n"
        );
        fs::remove_dir_all(&dir).unwrap();
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
        let busy = run(&job("exit 75"), "busy", &dir).unwrap_err();
        assert!(busy.environmental, "{busy:?}");
        assert!(busy.reason.contains("the machine was busy"), "{busy:?}");
        let broken = run(&job("exit 1"), "broken", &dir).unwrap_err();
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
        let mut sink = Vec::new();
        let mut watch = Watch {
            out: &mut sink,
            every: HEARTBEAT,
            expected: Duration::ZERO,
        };
        let err = wait(&mut r, Duration::ZERO, &mut watch).unwrap_err();
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
