//! Running the jobs of the runner table as subprocesses: progress with elapsed and estimated
//! time left, a deadline per job, and a failure that is reported and passed over.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use sympathy_report::{RunFailure, Stream, parse_jsonl};

use super::runners::{Job, Program, Step};

/// The size preset of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// `--quick`: the whole comparison in minutes.
    Quick,
    /// `--full`: the seeds' sizes.
    Full,
}

impl Size {
    fn pick<T>(self, pair: (T, T)) -> T {
        match self {
            Size::Quick => pair.0,
            Size::Full => pair.1,
        }
    }

    /// The flag passed to the runners.
    pub fn flag(self) -> &'static str {
        match self {
            Size::Quick => "--quick",
            Size::Full => "--full",
        }
    }
}

/// Builds the command of a program, or says why it cannot run.
pub trait Launcher {
    /// A command for `program` (arguments are added by the caller).
    ///
    /// # Errors
    /// Why the program is unavailable (e.g. "the Java side is not built: ...").
    fn command(&self, program: Program) -> Result<Command, String>;
}

/// Expected seconds of `job` at `size`.
pub fn estimate(job: &Job, size: Size) -> Duration {
    Duration::from_secs(u64::from(size.pick(job.estimate_s)))
}

/// How long a job may run before it is killed: three times its estimate, at least two minutes.
pub fn deadline(job: &Job, size: Size) -> Duration {
    (estimate(job, size) * 3).max(Duration::from_secs(120))
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
    /// The results streams, one per results step that succeeded.
    pub streams: Vec<Stream>,
    /// Jobs that failed.
    pub failures: Vec<RunFailure>,
}

/// Runs `jobs` in order, writing progress to `progress` and each process's output under
/// `work/logs`. A job that fails is recorded in [`Outcome::failures`] and the next one runs.
pub fn run_jobs(
    jobs: &[Job],
    size: Size,
    launcher: &dyn Launcher,
    work: &Path,
    progress: &mut dyn Write,
) -> Outcome {
    let started = Instant::now();
    let mut outcome = Outcome::default();
    let mut done_estimate = Duration::ZERO;
    for (index, job) in jobs.iter().enumerate() {
        let remaining: Duration = jobs[index..].iter().map(|j| estimate(j, size)).sum();
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
            job.label,
            human(elapsed),
            human(remaining.mul_f64(pace)),
        );
        let job_started = Instant::now();
        match run_job(job, size, launcher, work) {
            Ok(streams) => {
                let results: usize = streams.iter().map(|s| s.results.len()).sum();
                let _ = writeln!(
                    progress,
                    "        ok: {results} result(s) in {}",
                    human(job_started.elapsed())
                );
                outcome.streams.extend(streams);
            }
            Err(reason) => {
                let _ = writeln!(
                    progress,
                    "        FAILED after {}: {reason}",
                    human(job_started.elapsed())
                );
                outcome.failures.push(RunFailure {
                    experiment: job.experiment.to_string(),
                    label: job.label.to_string(),
                    reason,
                });
            }
        }
        done_estimate += estimate(job, size);
    }
    let _ = writeln!(progress, "all runs done in {}", human(started.elapsed()));
    outcome
}

/// A started process of a job.
struct Running {
    child: Child,
    step: Step,
    what: String,
    stdout: PathBuf,
    stderr: PathBuf,
}

/// Runs one job; its streams, or why it failed (the processes still running are killed).
fn run_job(
    job: &Job,
    size: Size,
    launcher: &dyn Launcher,
    work: &Path,
) -> Result<Vec<Stream>, String> {
    let logs = work.join("logs");
    let rings = work.join("rings");
    for dir in [&logs, &rings] {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let id = job.id();
    let ring_paths = [
        rings.join(format!("{id}-a.ring")),
        rings.join(format!("{id}-b.ring")),
    ];
    for ring in &ring_paths {
        let _ = fs::remove_file(ring);
    }
    let deadline = Instant::now() + deadline(job, size);
    let mut running: Vec<Running> = Vec::new();
    let result = (|| {
        for (i, step) in job.steps.iter().enumerate() {
            let mut command = launcher.command(step.program)?;
            let args = expand(step.args, size, size.pick(job.count), &ring_paths);
            command.args(&args);
            let what = format!("{} {}", step.program.name(), args.join(" "));
            let stdout = logs.join(format!("{id}.{i}.stdout"));
            let stderr = logs.join(format!("{id}.{i}.stderr"));
            let open = |p: &Path| File::create(p).map_err(|e| format!("{}: {e}", p.display()));
            command
                .stdout(open(&stdout)?)
                .stderr(open(&stderr)?)
                .stdin(Stdio::null());
            new_process_group(&mut command);
            let child = command
                .spawn()
                .map_err(|e| format!("cannot start `{what}`: {e}"))?;
            running.push(Running {
                child,
                step: *step,
                what,
                stdout,
                stderr,
            });
            if !step.background {
                let last = running.len() - 1;
                wait_watching(&mut running, last, deadline)?;
            }
        }
        for i in 0..running.len() {
            wait_watching(&mut running, i, deadline)?;
        }
        let mut streams = Vec::new();
        for r in running.iter().filter(|r| r.step.results) {
            let text = fs::read_to_string(&r.stdout)
                .map_err(|e| format!("{}: {e}", r.stdout.display()))?;
            let name = format!("{} ({})", r.stdout.display(), r.what);
            let stream = parse_jsonl(&name, &text).map_err(|e| e.to_string())?;
            if stream.results.is_empty() {
                return Err(format!(
                    "`{}` printed no result line (stdout: {})",
                    r.what,
                    r.stdout.display()
                ));
            }
            streams.push(stream);
        }
        Ok(streams)
    })();
    for r in running.iter_mut() {
        if matches!(r.child.try_wait(), Ok(None)) {
            kill_group(&mut r.child);
        }
    }
    for ring in &ring_paths {
        let _ = fs::remove_file(ring);
    }
    result
}

/// Waits for `running[target]` like [`wait`], failing early if another process of the job
/// (a background consumer, say) fails meanwhile.
fn wait_watching(running: &mut [Running], target: usize, deadline: Instant) -> Result<(), String> {
    loop {
        for (i, r) in running.iter_mut().enumerate() {
            if i != target
                && let Ok(Some(status)) = r.child.try_wait()
                && !status.success()
            {
                return Err(failure(r, &describe(status)));
            }
        }
        let r = &mut running[target];
        match r.child.try_wait() {
            Ok(Some(_)) => return wait(r, deadline),
            Ok(None) if Instant::now() >= deadline => return wait(r, deadline),
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(failure(r, &format!("cannot wait: {e}"))),
        }
    }
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

/// Replaces the placeholders of the runner table (see `runners`).
fn expand(args: &[&str], size: Size, count: u64, rings: &[PathBuf; 2]) -> Vec<String> {
    args.iter()
        .map(|a| match *a {
            "{scale}" => size.flag().to_string(),
            other => other
                .replace("{count}", &count.to_string())
                .replace("{ring2}", &rings[1].display().to_string())
                .replace("{ring}", &rings[0].display().to_string()),
        })
        .collect()
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

    /// `sympathy` is `sh` (so steps are shell snippets); the Java side is missing.
    struct FakeLauncher;

    impl Launcher for FakeLauncher {
        fn command(&self, program: Program) -> Result<Command, String> {
            match program {
                Sympathy => Ok(Command::new("sh")),
                Sidecar => Err("the Java side is not available: java/sidecar not found".into()),
            }
        }
    }

    const RUST_OK: &[Step] = &[Step::results(
        Sympathy,
        &[
            "-c",
            r#"echo '{"kind":"env","language":"rust","cores":2}'
echo '{"kind":"result","experiment":"ping-pong","language":"rust","variant":"xadd","params":{"count":{count}},"metric":"ns_per_hop","value":64.0,"unit":"ns","check":"ok"}'
echo 'progress goes to stderr' >&2"#,
        ],
    )];
    const FAILS: &[Step] = &[Step::results(
        Sympathy,
        &["-c", "echo 'error: pin to core 7 failed' >&2; exit 3"],
    )];
    const BAD_OUTPUT: &[Step] = &[Step::results(Sympathy, &["-c", "echo 'not json'"])];
    const NEEDS_JAVA: &[Step] = &[Step::results(Sidecar, &["run", "ping-pong", "--json"])];
    const HANGS: &[Step] = &[Step::results(Sympathy, &["-c", "sleep 600"])];
    /// A background consumer that reports, a foreground producer that writes the ring file.
    const PAIR: &[Step] = &[
        Step::results(
            Sympathy,
            &[
                "-c",
                r#"while [ ! -s "{ring}" ]; do sleep 0.05; done
echo "{\"kind\":\"result\",\"experiment\":\"ipc\",\"language\":\"rust\",\"variant\":\"bench\",\"params\":{\"producer\":\"$(cat '{ring}')\",\"consumer\":\"rust\"},\"metric\":\"msgs_per_sec\",\"value\":1e8,\"unit\":\"msgs/s\",\"check\":\"ok\"}""#,
            ],
        )
        .in_background(),
        Step::quiet(Sympathy, &["-c", "printf java > '{ring}'"]),
    ];

    fn job(experiment: &'static str, label: &'static str, steps: &'static [Step]) -> Job {
        Job {
            experiment,
            label,
            steps,
            estimate_s: (1, 1),
            count: (42, 1000),
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
            job("ping-pong", "rust", FAILS),
            job("ping-pong", "java", NEEDS_JAVA),
            job("ping-pong", "bad", BAD_OUTPUT),
            job("ping-pong", "rust2", RUST_OK),
        ];
        let dir = work_dir("failures");
        let mut progress = Vec::new();
        let outcome = run_jobs(&jobs, Size::Quick, &FakeLauncher, &dir, &mut progress);
        let progress = String::from_utf8(progress).unwrap();

        assert_eq!(outcome.streams.len(), 1, "the last job still ran");
        assert_eq!(
            outcome.streams[0].results[0].params["count"], "42",
            "{{count}} expanded for quick"
        );
        let reasons: Vec<_> = outcome
            .failures
            .iter()
            .map(|f| (f.label.as_str(), f.reason.as_str()))
            .collect();
        assert_eq!(reasons.len(), 3);
        assert!(
            reasons[0]
                .1
                .contains("exited with status 3: error: pin to core 7 failed"),
            "{reasons:?}"
        );
        assert!(
            reasons[1].1.contains("java/sidecar not found"),
            "{reasons:?}"
        );
        assert!(reasons[2].1.contains(":1: not JSON"), "{reasons:?}");
        assert!(progress.contains("[ 1/4] ping-pong [rust]"), "{progress}");
        assert!(progress.contains("left)"), "{progress}");
        assert!(progress.contains("FAILED"), "{progress}");
        assert!(progress.contains("ok: 1 result(s)"), "{progress}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_background_consumer_and_a_producer_share_one_ring_file() {
        let dir = work_dir("pair");
        let outcome = run_jobs(
            &[job("ipc", "java->rust", PAIR)],
            Size::Full,
            &FakeLauncher,
            &dir,
            &mut Vec::new(),
        );
        assert!(outcome.failures.is_empty(), "{:?}", outcome.failures);
        let result = &outcome.streams[0].results[0];
        assert_eq!(result.params["producer"], "java");
        assert!(
            !dir.join("rings").join("ipc-java-to-rust-a.ring").exists(),
            "ring files are removed"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn placeholders_expand() {
        let rings = [PathBuf::from("/r/a"), PathBuf::from("/r/b")];
        let args = expand(
            &["{scale}", "--count", "{count}", "{ring}", "--pong={ring2}"],
            Size::Full,
            7,
            &rings,
        );
        assert_eq!(args, ["--full", "--count", "7", "/r/a", "--pong=/r/b"]);
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
            step: HANGS[0],
            what: "sleep".into(),
            stdout: dir.join("out"),
            stderr,
        };
        let err = wait(&mut r, Instant::now()).unwrap_err();
        assert!(
            err.contains("did not finish in time and was killed"),
            "{err}"
        );
        assert!(r.child.try_wait().unwrap().is_some(), "the process is gone");
        assert!(deadline(&job("x", "y", HANGS), Size::Quick) >= Duration::from_secs(120));
        fs::remove_dir_all(&dir).unwrap();
    }
}
