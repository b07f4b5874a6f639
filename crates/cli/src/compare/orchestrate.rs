//! Running the slots of `compare` (each job in each of its rounds, `schedule`) one after the
//! other: progress with the round, elapsed and estimated time left; the hop probed around each
//! run and environmental failures retried (`retry`); a failure that is recorded and passed
//! over.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use sympathy_report::{RunFailure, Stream, retried_suffix};

use super::retry::Retrying;
use super::schedule::Slot;

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
    /// The results streams, one per slot that succeeded, with their `conditions`.
    pub streams: Vec<Stream>,
    /// Slots that failed.
    pub failures: Vec<RunFailure>,
}

/// Runs `slots` in order, writing progress to `progress` and each process's output under
/// `work/logs`. A slot that fails is recorded in [`Outcome::failures`] and the next one runs.
pub fn run_jobs(
    slots: &[Slot<'_>],
    retrying: &Retrying<'_>,
    work: &Path,
    progress: &mut dyn Write,
) -> Outcome {
    let started = Instant::now();
    let mut outcome = Outcome::default();
    let mut done_estimate = Duration::ZERO;
    for (index, slot) in slots.iter().enumerate() {
        let remaining: Duration = slots[index..].iter().map(|s| s.job.estimate).sum();
        let elapsed = started.elapsed();
        // Pace what is left by how the finished slots compared with their estimates.
        let pace = if done_estimate.is_zero() {
            1.0
        } else {
            (elapsed.as_secs_f64() / done_estimate.as_secs_f64()).clamp(0.25, 4.0)
        };
        let _ = writeln!(
            progress,
            "[{:>2}/{}] {} [{}] round {}/{}  (elapsed {}, about {} left)",
            index + 1,
            slots.len(),
            slot.job.experiment,
            slot.job.label(),
            slot.round,
            slot.rounds,
            human(elapsed),
            human(remaining.mul_f64(pace)),
        );
        let slot_started = Instant::now();
        match retrying.run(*slot, work, progress) {
            Ok((stream, conditions)) => {
                let _ = writeln!(
                    progress,
                    "        ok: {} result(s) in {}{}{}",
                    stream.results.len(),
                    human(slot_started.elapsed()),
                    conditions.hop_text(),
                    retried_suffix(conditions.retries),
                );
                outcome.streams.push(stream);
            }
            Err(failure) => {
                let _ = writeln!(
                    progress,
                    "        FAILED after {}{}: {}",
                    human(slot_started.elapsed()),
                    retried_suffix(failure.retries),
                    failure.reason
                );
                outcome.failures.push(failure);
            }
        }
        done_estimate += slot.job.estimate;
    }
    let _ = writeln!(progress, "all runs done in {}", human(started.elapsed()));
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::fs;
    use std::path::PathBuf;
    use std::process::Command;

    use crate::compare::conditions::HopProbe;
    use crate::compare::process::Launcher;
    use crate::compare::runners::Job;
    use crate::compare::runners::Program::{self, Sidecar, Sympathy};
    use crate::compare::schedule::schedule;
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

    /// A probe that answers its hops in turn, over and over (none: fewer than two cores).
    struct FakeProbe {
        hops: Vec<f64>,
        next: Cell<usize>,
    }

    impl FakeProbe {
        fn new(hops: &[f64]) -> FakeProbe {
            FakeProbe {
                hops: hops.to_vec(),
                next: Cell::new(0),
            }
        }
    }

    impl HopProbe for FakeProbe {
        fn hop_ns(&self) -> Option<f64> {
            let i = self.next.get();
            self.next.set(i + 1);
            (!self.hops.is_empty()).then(|| self.hops[i % self.hops.len()])
        }
    }

    const RUST_OK: &str = r#"echo '{"kind":"env","language":"rust","cores":2}'
echo '{"kind":"result","experiment":"ping-pong","language":"rust","variant":"xadd","params":{"iterations":42},"metric":"ns_per_hop","value":64.0,"unit":"ns","check":"ok"}'
echo 'progress goes to stderr' >&2"#;
    const FAILS: &str = "echo 'error: pin to core 7 failed' >&2; exit 3";
    const BUSY: &str = "echo 'error: the machine was busy: the generator was late' >&2; exit 75";
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

    /// Runs `jobs` in `rounds` rounds with `probe` and `max_drift`: the outcome and the progress.
    fn run(
        jobs: &[Job],
        rounds: u32,
        probe: &FakeProbe,
        max_drift: Option<f64>,
        dir: &Path,
    ) -> (Outcome, String) {
        let retrying = Retrying {
            launcher: &FakeLauncher,
            probe,
            max_drift,
            busy_pause: Duration::ZERO,
        };
        let mut progress = Vec::new();
        let outcome = run_jobs(&schedule(jobs, rounds), &retrying, dir, &mut progress);
        (outcome, String::from_utf8(progress).unwrap())
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
        let (outcome, progress) = run(&jobs, 1, &FakeProbe::new(&[]), None, &dir);

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
            reasons[0].2.contains("logs/ping-pong-rust-r1.stderr"),
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
        assert!(
            outcome.failures.iter().all(|f| f.retries == 0),
            "real failures are never retried"
        );
        assert!(!dir.join("logs/ping-pong-rust-r1-retry1.stderr").exists());
        assert!(
            progress.contains("[ 1/5] ping-pong [rust] round 1/1"),
            "{progress}"
        );
        assert!(progress.contains("[ 2/5] ping-pong [java]"), "{progress}");
        assert!(progress.contains("left)"), "{progress}");
        assert!(progress.contains("FAILED"), "{progress}");
        assert!(progress.contains("ok: 1 result(s)"), "{progress}");
        assert!(dir.join("logs/struct-table-rust-r1.stdout").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_result_carries_its_round_and_the_hop_around_its_run() {
        let jobs = [job("ping-pong", Language::Rust, RUST_OK)];
        let dir = work_dir("conditions");
        let probe = FakeProbe::new(&[50.0, 55.0]);
        let (outcome, progress) = run(&jobs, 2, &probe, None, &dir);
        assert_eq!(outcome.streams.len(), 2);
        for (round, stream) in (1..).zip(&outcome.streams) {
            assert_eq!(
                stream.results[0].raw["conditions"],
                serde_json::json!({"round":round,"rounds":2,"hop_ns_before":50.0,"hop_ns_after":55.0,"retries":0})
            );
        }
        assert!(progress.contains("round 2/2"), "{progress}");
        assert!(
            progress.contains("hop 50.0 -> 55.0 ns (10% drift)"),
            "{progress}"
        );
        assert!(dir.join("logs/ping-pong-rust-r2.stdout").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_busy_machine_is_retried_twice_then_recorded() {
        let dir = work_dir("busy");
        fs::create_dir_all(&dir).unwrap();
        // Busy on the first attempt only: a counter file says how many attempts came before.
        let counter = dir.join("attempts");
        let once = format!(
            "n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}; [ \"$n\" -ge 1 ] || {{ {BUSY}; }}; {RUST_OK}",
            c = counter.display()
        );
        let jobs = [
            job("back-pressure", Language::Rust, &once),
            job("queue", Language::Rust, BUSY),
        ];
        let (outcome, progress) = run(&jobs, 1, &FakeProbe::new(&[60.0]), None, &dir);

        assert_eq!(outcome.streams.len(), 1);
        let conditions = &outcome.streams[0].results[0].raw["conditions"];
        assert_eq!(conditions["retries"], 1, "{conditions}");
        assert!(progress.contains("ok: 1 result(s)"), "{progress}");
        assert!(progress.contains(", retried once"), "{progress}");
        assert!(dir.join("logs/back-pressure-rust-r1.stderr").is_file());
        assert!(
            dir.join("logs/back-pressure-rust-r1-retry1.stdout")
                .is_file()
        );

        let failure = &outcome.failures[0];
        assert_eq!((failure.experiment.as_str(), failure.retries), ("queue", 2));
        assert!(
            failure.reason.contains("status 75 (the machine was busy)"),
            "{failure:?}"
        );
        assert!(progress.contains("retried 2 times"), "{progress}");
        assert!(progress.contains("the machine was busy"), "{progress}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn max_drift_reruns_a_drifting_round_and_keeps_the_calmest_attempt() {
        let jobs = [job("ping-pong", Language::Rust, RUST_OK)];
        let dir = work_dir("drift");
        // Attempts: 50 -> 100 (100%), 50 -> 60 (20%), 50 -> 90 (80%).
        let hops = [50.0, 100.0, 50.0, 60.0, 50.0, 90.0];
        let (outcome, progress) = run(&jobs, 1, &FakeProbe::new(&hops), Some(10.0), &dir);
        let conditions = &outcome.streams[0].results[0].raw["conditions"];
        assert_eq!(conditions["retries"], 2, "{conditions}");
        assert_eq!(
            conditions["hop_ns_after"], 60.0,
            "the smallest drift is kept"
        );
        assert_eq!(
            progress.matches("running it again").count(),
            2,
            "{progress}"
        );

        let (calm, _) = run(&jobs, 1, &FakeProbe::new(&hops), None, &dir);
        let conditions = &calm.streams[0].results[0].raw["conditions"];
        assert_eq!(conditions["retries"], 0, "no --max-drift: nothing is rerun");
        fs::remove_dir_all(&dir).unwrap();
    }
}
