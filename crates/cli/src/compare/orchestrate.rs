//! Running a comparison: the base rounds of every experiment (each job in each round,
//! `schedule`), then extra rounds of the experiments with undecided rows while the budget allows
//! (`rounds`, `budget`). Progress with the round, elapsed and estimated time left (the
//! estimates paced per language once that language has finished a few runs), a line every 10
//! seconds while a run goes on; the hop probed around each run and environmental failures
//! retried (`retry`); a failure that is recorded and passed over. Every progress line fits in
//! [`WIDTH`] columns.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use sympathy_report::{Merged, RunFailure, Stream, retried_suffix};

use super::budget::Budget;
use super::conditions::Conditions;
use super::retry::Retrying;
use super::rounds::{Candidate, MAX_ROUNDS, Undecided, next_extra};
use super::runners::Job;
use super::schedule::{Slot, groups, round_slots, schedule};

/// The widest a progress line may be, in columns.
pub const WIDTH: usize = 120;

/// A language's pace is applied to its estimates only after this many of its runs finished:
/// one slow or fast first run must not make the time left jump.
pub const PACE_AFTER: u32 = 2;

/// `1m05s`.
pub fn human(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// `line` cut to [`WIDTH`] columns (the rest replaced by `…`).
pub fn fit(line: &str) -> String {
    if line.chars().count() <= WIDTH {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(WIDTH - 1).collect();
    cut.push('…');
    cut
}

/// Writes `line`, cut to [`WIDTH`] columns.
pub fn say(progress: &mut dyn Write, line: &str) {
    let _ = writeln!(progress, "{}", fit(line));
}

/// `words` in lines of at most [`WIDTH`] columns, each starting with `indent`.
pub fn wrap(indent: &str, words: &[String]) -> Vec<String> {
    wrap_to(WIDTH, indent, words)
}

/// `words` in lines of at most `width` columns, each starting with `indent`.
fn wrap_to(width: usize, indent: &str, words: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = indent.to_string();
    for word in words {
        if line.len() > indent.len() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::replace(&mut line, indent.to_string()));
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.len() > indent.len() {
        lines.push(line);
    }
    lines
}

/// How the runs of each language compare with their estimates so far.
#[derive(Debug, Default)]
pub struct Pace {
    /// Per language: the estimates and the measured times of its finished runs, and how many.
    by_language: BTreeMap<&'static str, (Duration, Duration, u32)>,
}

impl Pace {
    /// A run of `label` estimated at `estimate` took `took`.
    pub fn record(&mut self, label: &'static str, estimate: Duration, took: Duration) {
        let entry = self.by_language.entry(label).or_default();
        entry.0 += estimate;
        entry.1 += took;
        entry.2 += 1;
    }

    /// The factor on `label`'s estimates: measured over estimated, within 0.25..4, once
    /// [`PACE_AFTER`] of its runs finished; 1 before.
    pub fn factor(&self, label: &str) -> f64 {
        match self.by_language.get(label) {
            Some((estimate, took, n)) if *n >= PACE_AFTER && !estimate.is_zero() => {
                (took.as_secs_f64() / estimate.as_secs_f64()).clamp(0.25, 4.0)
            }
            _ => 1.0,
        }
    }

    /// The time `slots` are expected to take, each paced by its language.
    pub fn left(&self, slots: &[Slot<'_>]) -> Duration {
        slots
            .iter()
            .map(|s| s.job.estimate.mul_f64(self.factor(s.job.label())))
            .sum()
    }
}

/// What a comparison runs: its jobs, their base rounds, and what decides extra rounds.
pub struct Plan<'a> {
    /// Every job, grouped by experiment.
    pub jobs: &'a [Job],
    /// Base rounds of every experiment (always run).
    pub rounds: u32,
    /// The time the runs may take.
    pub budget: &'a Budget,
    /// Counts an experiment's undecided rows.
    pub rule: &'a dyn Undecided,
    /// The preset's flag for the command that would settle undecided rows (`--full`; none for
    /// quick, `compare`'s default).
    pub preset_flag: Option<String>,
}

/// What a comparison's runs produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The results streams, one per slot that succeeded, with their `conditions` (whose
    /// `rounds` is the number of rounds its experiment ran).
    pub streams: Vec<Stream>,
    /// Slots that failed.
    pub failures: Vec<RunFailure>,
    /// The wall time of each successful run, for the timings cache.
    pub walls: Vec<(Job, Duration)>,
    /// Rounds run per experiment.
    pub rounds: BTreeMap<String, u32>,
    /// Experiments with undecided rows at the end, and how many.
    pub undecided: Vec<(String, usize)>,
    /// Wall time of all runs.
    pub runs: Duration,
}

/// The runs of one comparison in progress.
struct Runner<'a, 'p> {
    retrying: &'a Retrying<'a>,
    work: &'a Path,
    progress: &'p mut dyn Write,
    outcome: Outcome,
    /// Per stream of `outcome.streams`: its experiment's group and its conditions.
    stamps: Vec<(usize, Conditions)>,
    pace: Pace,
}

impl Runner<'_, '_> {
    /// Runs `slot` of group `group`; records its stream or failure.
    fn run(&mut self, slot: Slot<'_>, group: usize) {
        let started = Instant::now();
        // The pace compares the kept attempt's time with the estimate: a re-take after a drift
        // or a busy machine says nothing about how long the next runs take.
        let mut took = None;
        match self.retrying.run(slot, self.work, self.progress) {
            Ok((stream, conditions)) => {
                say(
                    self.progress,
                    &format!(
                        "        ok: {} result(s) in {}{}{}",
                        stream.results.len(),
                        human(started.elapsed()),
                        conditions.hop_text(),
                        retried_suffix(conditions.retries),
                    ),
                );
                if let Some(usage) = conditions.usage {
                    self.outcome.walls.push((slot.job.clone(), usage.wall));
                    took = Some(usage.wall);
                }
                self.outcome.streams.push(stream);
                self.stamps.push((group, conditions));
            }
            Err(failure) => {
                say(
                    self.progress,
                    &format!(
                        "        FAILED after {}{}: {}",
                        human(started.elapsed()),
                        retried_suffix(failure.retries),
                        failure.reason
                    ),
                );
                self.outcome.failures.push(failure);
            }
        }
        let took = took.unwrap_or_else(|| started.elapsed());
        self.pace.record(slot.job.label(), slot.job.estimate, took);
    }

    /// The undecided rows of group `group`'s results so far.
    fn undecided(&self, group: usize, rule: &dyn Undecided) -> usize {
        let streams = self
            .stamps
            .iter()
            .zip(&self.outcome.streams)
            .filter(|((g, _), _)| *g == group)
            .map(|(_, stream)| stream.clone());
        rule.undecided_rows(&Merged::from_streams(streams))
    }

    /// The expected time of one more round of `jobs` ([`round_cost`]).
    fn round_cost(&self, jobs: &[&Job]) -> Duration {
        round_cost(&self.outcome.walls, jobs)
    }
}

/// Runs a comparison: the base rounds of every experiment, then extra rounds while the budget
/// allows; progress goes to `progress`, each process's output under `work/logs`. A slot that
/// fails is recorded in [`Outcome::failures`] and the next one runs.
pub fn run_comparison(
    plan: &Plan<'_>,
    retrying: &Retrying<'_>,
    work: &Path,
    progress: &mut dyn Write,
) -> Outcome {
    let started = Instant::now();
    plan.budget.start();
    let groups = groups(plan.jobs);
    let base = schedule(plan.jobs, plan.rounds);
    let mut runner = Runner {
        retrying,
        work,
        progress,
        outcome: Outcome::default(),
        stamps: Vec::new(),
        pace: Pace::default(),
    };
    let group_of = |job: &Job| {
        groups
            .iter()
            .position(|g| g[0].experiment == job.experiment)
            .unwrap_or(0)
    };
    for (index, slot) in base.iter().enumerate() {
        let line = format!(
            "[{:>2}/{}] {} [{}] round {}/{}  (elapsed {}, about {} left)",
            index + 1,
            base.len(),
            slot.job.experiment,
            slot.job.label(),
            slot.round,
            slot.rounds,
            human(started.elapsed()),
            human(runner.pace.left(&base[index..])),
        );
        say(runner.progress, &line);
        // a re-take must leave the time the base runs after this one are expected to take
        plan.budget.reserve(runner.pace.left(&base[index + 1..]));
        runner.run(*slot, group_of(slot.job));
    }
    plan.budget.reserve(Duration::ZERO);

    let mut rounds_run = vec![plan.rounds.max(1); groups.len()];
    let mut undecided: Vec<usize> = (0..groups.len())
        .map(|g| runner.undecided(g, plan.rule))
        .collect();
    let mut extra = 0;
    loop {
        let candidates: Vec<Candidate> = groups
            .iter()
            .enumerate()
            .map(|(g, jobs)| Candidate {
                undecided: undecided[g],
                rounds: rounds_run[g],
                cost: runner.round_cost(jobs),
            })
            .collect();
        let Some(g) = next_extra(&candidates, plan.budget.left()) else {
            break;
        };
        rounds_run[g] += 1;
        let round = rounds_run[g];
        for slot in round_slots(&groups[g], round, round) {
            extra += 1;
            let left = plan.budget.left().map_or_else(
                || "no budget limit".to_string(),
                |l| format!("{} of the budget left", human(l)),
            );
            let line = format!(
                "[+{extra}] {} [{}] extra round {round} ({} undecided row(s), {left})",
                slot.job.experiment,
                slot.job.label(),
                undecided[g],
            );
            say(runner.progress, &line);
            runner.run(slot, g);
        }
        undecided[g] = runner.undecided(g, plan.rule);
    }

    let Runner {
        progress,
        mut outcome,
        stamps,
        ..
    } = runner;
    for (stream, (g, mut conditions)) in outcome.streams.iter_mut().zip(stamps) {
        conditions.rounds = rounds_run[g];
        conditions.stamp(stream);
    }
    outcome.runs = started.elapsed();
    say(
        progress,
        &format!("all runs done in {}", human(outcome.runs)),
    );
    for (g, jobs) in groups.iter().enumerate() {
        outcome
            .rounds
            .insert(jobs[0].experiment.clone(), rounds_run[g]);
        if undecided[g] > 0 {
            outcome
                .undecided
                .push((jobs[0].experiment.clone(), undecided[g]));
        }
    }
    if !outcome.undecided.is_empty() {
        let open: Vec<usize> = (0..groups.len()).filter(|g| undecided[*g] > 0).collect();
        let mut words =
            vec!["still undecided (a paired ratio more rounds could settle):".to_string()];
        words.extend(open.iter().map(|g| {
            format!(
                "{} ({} row(s) after {} rounds){}",
                groups[*g][0].experiment,
                undecided[*g],
                rounds_run[*g],
                if *g == *open.last().unwrap_or(&0) {
                    ""
                } else {
                    ","
                }
            )
        }));
        for line in wrap("", &words) {
            say(progress, &line);
        }
        // Twice the rounds each had (at most MAX_ROUNDS), at this comparison's measured times.
        let needed: Duration = open
            .iter()
            .map(|g| {
                let rounds = (rounds_run[*g] * 2).min(MAX_ROUNDS);
                round_cost(&outcome.walls, &groups[*g]) * rounds
            })
            .sum();
        let minutes = needed.as_secs().div_ceil(60).max(1);
        let mut command = vec!["sympathy".to_string(), "compare".to_string()];
        command.extend(plan.preset_flag.clone());
        let names: Vec<&str> = open
            .iter()
            .map(|g| groups[*g][0].experiment.as_str())
            .collect();
        command.extend(only_args(&names));
        command.extend(["--budget".to_string(), format!("{minutes}m")]);
        for line in command_lines("to settle them:", &command) {
            say(progress, &line);
        }
    }
    outcome
}

/// `--only a,b,c`, split into several `--only` flags (which add up) where one list would not
/// fit on a line.
fn only_args(names: &[&str]) -> Vec<String> {
    let mut args = Vec::new();
    let mut list = String::new();
    for name in names {
        if !list.is_empty() && list.len() + 1 + name.len() > WIDTH / 2 {
            args.extend(["--only".to_string(), std::mem::take(&mut list)]);
        }
        if !list.is_empty() {
            list.push(',');
        }
        list.push_str(name);
    }
    if !list.is_empty() {
        args.extend(["--only".to_string(), list]);
    }
    args
}

/// `intro command` on one line when it fits in [`WIDTH`] columns, else `intro` and then the
/// command over indented lines joined by ` \` (as a shell reads it when pasted).
fn command_lines(intro: &str, command: &[String]) -> Vec<String> {
    let one = format!("{intro} {}", command.join(" "));
    if one.chars().count() <= WIDTH {
        return vec![one];
    }
    let mut lines = wrap_to(WIDTH - 2, "  ", command);
    let last = lines.len().saturating_sub(1);
    for line in &mut lines[..last] {
        line.push_str(" \\");
    }
    std::iter::once(intro.to_string()).chain(lines).collect()
}

/// The expected time of one more round of `jobs`: each job's mean measured time in this
/// comparison (`walls`), else its estimate.
fn round_cost(walls: &[(Job, Duration)], jobs: &[&Job]) -> Duration {
    jobs.iter()
        .map(|job| {
            let mine: Vec<Duration> = walls
                .iter()
                .filter(|(j, _)| j == *job)
                .map(|(_, w)| *w)
                .collect();
            match u32::try_from(mine.len()) {
                Ok(n) if n > 0 => mine.iter().sum::<Duration>() / n,
                _ => job.estimate,
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::fs;
    use std::path::PathBuf;
    use std::process::Command;

    use crate::compare::budget::Budget;
    use crate::compare::conditions::HopProbe;
    use crate::compare::process::Launcher;
    use crate::compare::runners::Job;
    use crate::compare::runners::Program::{self, Sidecar, Sympathy};
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
            catalog_estimate: Duration::from_secs(1),
            hop_dependent: false,
        }
    }

    fn work_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sympathy-compare-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// A rule that calls every experiment's rows decided.
    struct Decided;

    impl Undecided for Decided {
        fn undecided_rows(&self, _: &Merged) -> usize {
            0
        }
    }

    /// Runs `jobs` in `rounds` rounds with `probe` and `max_drift`: the outcome and the progress
    /// (no budget for extra rounds, every row decided).
    fn run(
        jobs: &[Job],
        rounds: u32,
        probe: &FakeProbe,
        max_drift: Option<f64>,
        dir: &Path,
    ) -> (Outcome, String) {
        run_with(
            jobs,
            rounds,
            probe,
            max_drift,
            &Budget::new(Some(Duration::ZERO)),
            &Decided,
            dir,
        )
    }

    /// [`run`] with a budget and a rule.
    fn run_with(
        jobs: &[Job],
        rounds: u32,
        probe: &FakeProbe,
        max_drift: Option<f64>,
        budget: &Budget,
        rule: &dyn Undecided,
        dir: &Path,
    ) -> (Outcome, String) {
        let retrying = Retrying {
            launcher: &FakeLauncher,
            probe,
            max_drift,
            budget,
            busy_pause: Duration::ZERO,
            heartbeat: Duration::from_secs(3600),
        };
        let plan = Plan {
            jobs,
            rounds,
            budget,
            rule,
            preset_flag: None,
        };
        let mut progress = Vec::new();
        let outcome = run_comparison(&plan, &retrying, dir, &mut progress);
        (outcome, String::from_utf8(progress).unwrap())
    }

    #[test]
    fn a_failing_run_is_reported_and_the_next_one_runs() {
        let jobs = [
            job("ping-pong", Language::Rust, FAILS),
            job("ping-pong", Language::Java, "run ping-pong --json"),
            job("queue", Language::Rust, BAD_OUTPUT),
            job("dispatch", Language::Rust, SILENT),
            job("fifth", Language::Rust, RUST_OK),
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
        assert!(dir.join("logs/fifth-rust-r1.stdout").is_file());
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
            let mut conditions = stream.results[0].raw["conditions"].clone();
            let written = conditions.as_object_mut().unwrap();
            assert!(written.remove("peak_rss_bytes").unwrap().as_u64().unwrap() > 0);
            assert!(written.remove("cpu_s").unwrap().as_f64().unwrap() >= 0.0);
            assert!(written.remove("wall_s").unwrap().as_f64().unwrap() >= 0.0);
            assert_eq!(
                conditions,
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

    /// A run that writes one result of `experiment`.
    fn ok(experiment: &str) -> String {
        format!(
            r#"echo '{{"kind":"result","experiment":"{experiment}","language":"rust","variant":"v","params":{{}},"metric":"ns_per_op","value":1.0,"unit":"ns","check":"ok"}}'"#
        )
    }

    /// Undecided rows by experiment: `rows` while it has fewer than `until` rounds.
    struct Settles(Vec<(&'static str, usize, u32)>);

    impl Undecided for Settles {
        fn undecided_rows(&self, merged: &Merged) -> usize {
            let rounds = merged
                .results
                .iter()
                .map(|r| r.conditions.round())
                .max()
                .unwrap_or(0);
            let experiment = merged.results.first().map(|r| r.experiment.as_str());
            self.0
                .iter()
                .find(|(name, _, _)| Some(*name) == experiment)
                .map_or(
                    0,
                    |(_, rows, until)| if rounds < *until { *rows } else { 0 },
                )
        }
    }

    fn rounds_of(outcome: &Outcome, experiment: &str) -> Vec<u64> {
        outcome
            .streams
            .iter()
            .flat_map(|s| &s.results)
            .filter(|r| r.experiment == experiment)
            .map(|r| r.raw["conditions"]["rounds"].as_u64().unwrap())
            .collect()
    }

    #[test]
    fn extra_rounds_go_to_the_most_undecided_experiment_first_and_stop_when_decided() {
        let jobs = [
            job("ping-pong", Language::Rust, &ok("ping-pong")),
            job("queue", Language::Rust, &ok("queue")),
        ];
        let dir = work_dir("extra");
        // queue: 2 undecided rows until it has 4 rounds; ping-pong: 1 until it has 3.
        let rule = Settles(vec![("queue", 2, 4), ("ping-pong", 1, 3)]);
        let (outcome, progress) = run_with(
            &jobs,
            2,
            &FakeProbe::new(&[]),
            None,
            &Budget::new(None),
            &rule,
            &dir,
        );
        let extra: Vec<&str> = progress.lines().filter(|l| l.starts_with("[+")).collect();
        assert_eq!(extra.len(), 3, "{progress}");
        assert!(
            extra[0].starts_with(
                "[+1] queue [rust] extra round 3 (2 undecided row(s), no budget limit)"
            ),
            "{progress}"
        );
        assert!(
            extra[1].starts_with("[+2] queue [rust] extra round 4"),
            "{progress}"
        );
        assert!(
            extra[2].starts_with("[+3] ping-pong [rust] extra round 3 (1 undecided"),
            "{progress}"
        );
        assert_eq!(
            rounds_of(&outcome, "queue"),
            [4, 4, 4, 4],
            "every result says how many rounds ran"
        );
        assert_eq!(rounds_of(&outcome, "ping-pong"), [3, 3, 3]);
        assert_eq!(outcome.rounds["queue"], 4);
        assert!(outcome.undecided.is_empty());
        assert!(!progress.contains("still undecided"), "{progress}");
        assert!(dir.join("logs/queue-rust-r4.stdout").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_extra_rounds_when_every_row_is_decided() {
        let jobs = [job("ping-pong", Language::Rust, RUST_OK)];
        let dir = work_dir("decided");
        let (outcome, progress) = run_with(
            &jobs,
            2,
            &FakeProbe::new(&[]),
            None,
            &Budget::new(None),
            &Decided,
            &dir,
        );
        assert_eq!(outcome.streams.len(), 2, "the base rounds only");
        assert_eq!(rounds_of(&outcome, "ping-pong"), [2, 2]);
        assert!(!progress.contains("[+"), "{progress}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn extra_rounds_stop_at_the_budget_and_the_command_that_would_settle_the_rest_is_printed() {
        // Each run takes at least 0.3 s; the base rounds at least 0.6 s of the 1.5 s budget, so
        // at most 3 extra rounds fit whatever the machine's speed (never the 10 rounds that an
        // unlimited budget runs).
        let slow = format!("sleep 0.3; {}", ok("queue"));
        let jobs = [job("queue", Language::Rust, &slow)];
        let dir = work_dir("budget");
        let rule = Settles(vec![("queue", 3, u32::MAX)]);
        let budget = Budget::new(Some(Duration::from_millis(1500)));
        let (outcome, progress) =
            run_with(&jobs, 2, &FakeProbe::new(&[]), None, &budget, &rule, &dir);
        let rounds = outcome.rounds["queue"];
        assert!((2..=5).contains(&rounds), "{rounds} rounds: {progress}");
        assert!(
            rounds_of(&outcome, "queue")
                .iter()
                .all(|r| *r == u64::from(rounds))
        );
        assert_eq!(outcome.undecided, [("queue".to_string(), 3)]);
        assert!(
            progress.contains(&format!("still undecided (a paired ratio more rounds could settle): queue (3 row(s) after {rounds} rounds)")),
            "{progress}"
        );
        assert!(
            progress.contains("to settle them: sympathy compare --only queue --budget "),
            "{progress}"
        );

        let zero = Budget::new(Some(Duration::ZERO));
        let (outcome, _) = run_with(&jobs, 2, &FakeProbe::new(&[]), None, &zero, &rule, &dir);
        assert_eq!(
            outcome.rounds["queue"], 2,
            "no budget: the base rounds only"
        );

        let fast = [
            job("queue", Language::Rust, &ok("queue")),
            job("ping-pong", Language::Rust, &ok("ping-pong")),
        ];
        let (outcome, progress) = run_with(
            &fast,
            2,
            &FakeProbe::new(&[]),
            None,
            &Budget::new(None),
            &rule,
            &dir,
        );
        assert_eq!(outcome.rounds["queue"], MAX_ROUNDS, "at most MAX_ROUNDS");
        assert_eq!(outcome.rounds["ping-pong"], 2);
        assert!(
            progress.contains("sympathy compare --only queue --budget "),
            "{progress}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_hop_dependent_round_that_drifted_is_retaken_while_the_budget_allows() {
        let mut hop = job("ping-pong", Language::Rust, RUST_OK);
        hop.hop_dependent = true;
        let dir = work_dir("hop-budget");
        let drifting = [50.0, 100.0];
        let retries = |job: &Job, budget: Option<Duration>| {
            let (outcome, progress) = run_with(
                std::slice::from_ref(job),
                1,
                &FakeProbe::new(&drifting),
                None,
                &Budget::new(budget),
                &Decided,
                &dir,
            );
            let retries = outcome.streams[0].results[0].raw["conditions"]["retries"].clone();
            (retries, progress)
        };
        let (n, progress) = retries(&hop, Some(Duration::from_secs(3600)));
        assert_eq!(n, 2, "{progress}");
        assert!(
            progress.contains("the hop moved more than 25%"),
            "{progress}"
        );
        assert_eq!(retries(&hop, Some(Duration::ZERO)).0, 0, "no budget left");
        let single = job("ping-pong", Language::Rust, RUST_OK);
        assert_eq!(retries(&single, None).0, 0, "not hop-dependent");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_retake_leaves_the_time_of_the_base_runs_still_to_come() {
        // Two base rounds estimated at 100 s each within a 60 s budget: the first round's drift
        // is kept (a re-take would eat the second round's time), the last round's is re-taken.
        let mut hop = job("ping-pong", Language::Rust, RUST_OK);
        hop.hop_dependent = true;
        hop.estimate = Duration::from_secs(100);
        let dir = work_dir("hop-reserve");
        let (outcome, progress) = run_with(
            std::slice::from_ref(&hop),
            2,
            &FakeProbe::new(&[50.0, 100.0]),
            None,
            &Budget::new(Some(Duration::from_secs(60))),
            &Decided,
            &dir,
        );
        let retries: Vec<_> = outcome
            .streams
            .iter()
            .map(|s| s.results[0].raw["conditions"]["retries"].clone())
            .collect();
        assert_eq!(retries, [0, 2], "{progress}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_pace_applies_per_language_after_a_few_runs_so_the_estimate_does_not_jump() {
        // Runs estimated at 100 s (Rust) and 40 s (Java) that take milliseconds.
        let mut rust = job("ping-pong", Language::Rust, RUST_OK);
        rust.estimate = Duration::from_secs(100);
        let mut java = job("ping-pong", Language::Java, "unused");
        java.estimate = Duration::from_secs(40);
        let dir = work_dir("pace");
        let (_, progress) = run(&[rust, java], 2, &FakeProbe::new(&[]), None, &dir);
        let left: Vec<&str> = progress
            .lines()
            .filter_map(|l| l.split("about ").nth(1))
            .collect();
        // Order: Rust, Java, Java, Rust. After one run of a language its estimates still stand;
        // after Java's second, Java's are paced (clamped at 0.25x) and Rust's are not.
        assert_eq!(
            left,
            ["4m40s left)", "3m00s left)", "2m20s left)", "1m40s left)"],
            "{progress}"
        );

        let mut pace = Pace::default();
        let s = Duration::from_secs;
        pace.record("rust", s(10), s(20));
        assert_eq!(pace.factor("rust"), 1.0, "one run: not yet");
        pace.record("rust", s(10), s(20));
        assert_eq!(pace.factor("rust"), 2.0);
        assert_eq!(pace.factor("java"), 1.0);
        pace.record("java", s(10), s(1000));
        pace.record("java", s(10), s(1000));
        assert_eq!(pace.factor("java"), 4.0, "clamped");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_progress_line_fits_in_120_columns() {
        let long = "x".repeat(300);
        let jobs = [
            job(
                "back-pressure",
                Language::Rust,
                &format!("echo 'error: {long}' >&2; exit 3"),
            ),
            job(
                "back-pressure",
                Language::Java,
                "run back-pressure --json --quick",
            ),
            job(
                "queue",
                Language::Rust,
                &format!("echo 'error: the machine was busy: {long}' >&2; exit 75"),
            ),
            job("ping-pong", Language::Rust, &ok("ping-pong")),
        ];
        let mut hop = job("messaging", Language::Rust, &ok("messaging"));
        hop.hop_dependent = true;
        let jobs: Vec<Job> = jobs.into_iter().chain([hop]).collect();
        let dir = work_dir("width");
        let rule = Settles(vec![("ping-pong", 5, 4), ("messaging", 7, u32::MAX)]);
        let (_, progress) = run_with(
            &jobs,
            2,
            &FakeProbe::new(&[40.0, 300.0]),
            None,
            &Budget::new(None),
            &rule,
            &dir,
        );
        assert!(progress.contains("FAILED"), "{progress}");
        assert!(progress.contains("still undecided"), "{progress}");
        for line in progress.lines() {
            assert!(
                line.chars().count() <= WIDTH,
                "{} columns: {line}",
                line.chars().count()
            );
        }
        let words: Vec<String> = long.split("").map(str::to_string).collect();
        assert!(
            wrap("  ", &words)
                .iter()
                .all(|l| l.chars().count() <= WIDTH)
        );
        assert_eq!(fit(&long).chars().count(), WIDTH);
        let names = sympathy_harness::catalog::catalog().names();
        let mut many = vec!["sympathy".to_string(), "compare".to_string()];
        many.extend(only_args(&names));
        many.extend(["--budget".to_string(), "19m".to_string()]);
        assert!(
            many.iter().filter(|w| *w == "--only").count() >= 2,
            "{many:?}"
        );
        let lines = command_lines("to settle them:", &many);
        assert_eq!(lines[0], "to settle them:");
        assert!(lines[1].starts_with("  sympathy compare --only") && lines[1].ends_with(" \\"));
        assert!(lines.last().unwrap().ends_with("--budget 19m"), "{lines:?}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= WIDTH),
            "{lines:?}"
        );
        assert!(fit(&long).ends_with('…'));
        fs::remove_dir_all(&dir).unwrap();
    }
}
