//! The runner table of `sympathy compare`: which commands run each experiment in each
//! language. This is data, meant to be edited as experiments land: one [`Job`] per
//! (experiment, language or language pair), each a short list of [`Step`]s.
//!
//! Placeholders in step arguments:
//! - `{scale}` (a whole argument): `--quick` or `--full`.
//! - `{count}`: the job's message/iteration count for the scale ([`Job::count`]).
//! - `{ring}`, `{ring2}`: paths of ring files private to the job (in `<out>/rings/`, removed
//!   after the job).
//!
//! The `sympathy` program is the running executable; `sidecar` is `java/sidecar` of the
//! checkout, run with `JAVA_HOME` from `ci/find-jdk`.

/// The program a step runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// The running `sympathy` executable.
    Sympathy,
    /// The Java launcher `java/sidecar`.
    Sidecar,
}

impl Program {
    /// The language whose side must be available for the program to run.
    pub fn name(self) -> &'static str {
        match self {
            Program::Sympathy => "sympathy",
            Program::Sidecar => "java/sidecar",
        }
    }
}

/// One process of a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// What runs.
    pub program: Program,
    /// Its arguments (with placeholders).
    pub args: &'static [&'static str],
    /// Its stdout is results-schema JSON Lines that go into the report.
    pub results: bool,
    /// It is started and left running while the next steps run (a consumer or an echo
    /// peer); the job waits for it to exit after the last step.
    pub background: bool,
}

impl Step {
    /// A step whose stdout holds results, run to completion.
    pub const fn results(program: Program, args: &'static [&'static str]) -> Step {
        Step {
            program,
            args,
            results: true,
            background: false,
        }
    }

    /// A step run to completion whose output only goes to the log (creating a ring file, a
    /// producer that reports nothing).
    pub const fn quiet(program: Program, args: &'static [&'static str]) -> Step {
        Step {
            program,
            args,
            results: false,
            background: false,
        }
    }

    /// The same step, started in the background.
    pub const fn in_background(self) -> Step {
        Step {
            background: true,
            ..self
        }
    }
}

/// One row of the table: an experiment in one language (or one producer->consumer pair).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Experiment name, as in the results and `--only`.
    pub experiment: &'static str,
    /// The side(s) that run: `rust`, `java`, `rust->java`, ...
    pub label: &'static str,
    /// The processes, in order.
    pub steps: &'static [Step],
    /// Expected seconds at `--quick` and at `--full` (for progress and the up-front estimate).
    pub estimate_s: (u32, u32),
    /// `{count}` at `--quick` and at `--full`.
    pub count: (u64, u64),
}

impl Job {
    /// `experiment/label`, for logs and file names.
    pub fn id(&self) -> String {
        format!(
            "{}-{}",
            self.experiment,
            self.label.replace("->", "-to-").replace(' ', "-")
        )
    }

    /// Whether any step needs the Java side.
    pub fn needs_java(&self) -> bool {
        self.steps.iter().any(|s| s.program == Program::Sidecar)
    }
}

use Program::{Sidecar, Sympathy};

/// `sympathy run <exp> --json {scale}` and its Java twin `java/sidecar run <exp> --json {scale}`.
/// (The Rust run also carries the C reference variants, with `"language":"c"`.)
macro_rules! both_languages {
    ($exp:literal, quick = $q:literal, full = $f:literal, java_quick = $jq:literal, java_full = $jf:literal) => {
        [
            Job {
                experiment: $exp,
                label: "rust",
                steps: &[Step::results(Sympathy, &["run", $exp, "--json", "{scale}"])],
                estimate_s: ($q, $f),
                count: (0, 0),
            },
            Job {
                experiment: $exp,
                label: "java",
                steps: &[Step::results(Sidecar, &["run", $exp, "--json", "{scale}"])],
                estimate_s: ($jq, $jf),
                count: (0, 0),
            },
        ]
    };
}

const ATOMIC: [Job; 2] = both_languages!(
    "atomic-increment",
    quick = 5,
    full = 300,
    java_quick = 40,
    java_full = 420
);
const PING_PONG: [Job; 2] = both_languages!(
    "ping-pong",
    quick = 5,
    full = 240,
    java_quick = 15,
    java_full = 300
);
const MEMORY_WALK: [Job; 2] = both_languages!(
    "memory-walk",
    quick = 5,
    full = 600,
    java_quick = 50,
    java_full = 720
);
const STRUCT_TABLE: [Job; 2] = both_languages!(
    "struct-table",
    quick = 5,
    full = 420,
    java_quick = 10,
    java_full = 720
);
const QUEUE: [Job; 2] = both_languages!(
    "queue",
    quick = 5,
    full = 480,
    java_quick = 30,
    java_full = 600
);

const SERIALIZATION: [Job; 2] = both_languages!(
    "serialization",
    quick = 3,
    full = 40,
    java_quick = 20,
    java_full = 300
);
const DISPATCH: [Job; 2] = both_languages!(
    "dispatch",
    quick = 3,
    full = 60,
    java_quick = 20,
    java_full = 300
);
const BACK_PRESSURE: [Job; 2] = both_languages!(
    "back-pressure",
    quick = 8,
    full = 240,
    java_quick = 30,
    java_full = 300
);

/// `{count}` of the IPC throughput rows (4-byte messages) and of the echo rows.
const IPC_QUICK_COUNT: u64 = 2_000_000;
const IPC_FULL_COUNT: u64 = 200_000_000;
const LATENCY_QUICK_COUNT: u64 = 100_000;
const LATENCY_FULL_COUNT: u64 = 10_000_000;

/// The IPC rows: throughput for every producer->consumer pair, echo latency within each
/// language.
///
/// - Same language: each side's own `bench` / `latency` (both report the schema themselves;
///   the Java ones take no scale flag, so `--runs 3` is fixed here).
/// - Across languages: `ipc create` a ring, start the consumer of one language in the
///   background, run the producer of the other. The consumer (`ipc consume --json --producer
///   java-ffm`, `java/sidecar consume --json --producer rust`) reports the throughput from its
///   first message to its last. The producer may start before the consumer has attached (a
///   JVM takes a second or more): it waits while the ring is full (back pressure) up to its
///   `--timeout-ms`, and names a consumer that never came if that runs out.
/// - No cross-language echo rows: `ipc latency` runs its own echo child and cannot ping a
///   Java echo over rings given by path (nor can the Java `latency` ping a Rust echo).
const IPC: [Job; 6] = [
    Job {
        experiment: "ipc",
        label: "rust->rust",
        steps: &[Step::results(
            Sympathy,
            &[
                "ipc", "bench", "--size", "4", "--count", "{count}", "--json", "{scale}",
            ],
        )],
        estimate_s: (3, 120),
        count: (IPC_QUICK_COUNT, IPC_FULL_COUNT),
    },
    Job {
        experiment: "ipc",
        label: "java->java",
        steps: &[Step::results(
            Sidecar,
            &[
                "bench", "--size", "4", "--count", "{count}", "--runs", "3", "--json",
            ],
        )],
        estimate_s: (8, 150),
        count: (IPC_QUICK_COUNT, IPC_FULL_COUNT),
    },
    Job {
        experiment: "ipc",
        label: "rust->java",
        steps: &[
            Step::quiet(
                Sympathy,
                &["ipc", "create", "{ring}", "--capacity", "1048576"],
            ),
            Step::results(
                Sidecar,
                &[
                    "consume",
                    "{ring}",
                    "--count",
                    "{count}",
                    "--impl",
                    "ffm",
                    "--timeout-ms",
                    "30000",
                    "--json",
                    "--producer",
                    "rust",
                ],
            )
            .in_background(),
            Step::quiet(
                Sympathy,
                &[
                    "ipc",
                    "produce",
                    "{ring}",
                    "--count",
                    "{count}",
                    "--size",
                    "4",
                    "--timeout-ms",
                    "30000",
                ],
            ),
        ],
        estimate_s: (5, 60),
        count: (IPC_QUICK_COUNT, IPC_FULL_COUNT),
    },
    Job {
        experiment: "ipc",
        label: "java->rust",
        steps: &[
            Step::quiet(
                Sympathy,
                &["ipc", "create", "{ring}", "--capacity", "1048576"],
            ),
            Step::results(
                Sympathy,
                &[
                    "ipc",
                    "consume",
                    "{ring}",
                    "--count",
                    "{count}",
                    "--timeout-ms",
                    "30000",
                    "--json",
                    "--producer",
                    "java-ffm",
                ],
            )
            .in_background(),
            Step::quiet(
                Sidecar,
                &[
                    "produce",
                    "{ring}",
                    "--count",
                    "{count}",
                    "--size",
                    "4",
                    "--impl",
                    "ffm",
                    "--timeout-ms",
                    "30000",
                ],
            ),
        ],
        estimate_s: (5, 60),
        count: (IPC_QUICK_COUNT, IPC_FULL_COUNT),
    },
    Job {
        experiment: "ipc",
        label: "rust->rust latency",
        steps: &[Step::results(
            Sympathy,
            &[
                "ipc", "latency", "--size", "32", "--count", "{count}", "--json", "{scale}",
            ],
        )],
        estimate_s: (3, 90),
        count: (LATENCY_QUICK_COUNT, LATENCY_FULL_COUNT),
    },
    Job {
        experiment: "ipc",
        label: "java->java latency",
        steps: &[Step::results(
            Sidecar,
            &[
                "latency", "--size", "32", "--count", "{count}", "--runs", "3", "--json",
            ],
        )],
        estimate_s: (10, 120),
        count: (LATENCY_QUICK_COUNT, LATENCY_FULL_COUNT),
    },
];

/// Arguments of `java/sidecar` run once before the Java jobs; the launcher builds the jar
/// when it is missing, so this is where a missing or broken Java build shows up.
pub const SIDECAR_PREPARE_ARGS: &[&str] = &["--help"];

/// Every job, in the order `compare` runs them.
pub fn all_jobs() -> Vec<Job> {
    [
        &ATOMIC[..],
        &PING_PONG,
        &MEMORY_WALK,
        &STRUCT_TABLE,
        &QUEUE,
        &SERIALIZATION,
        &DISPATCH,
        &BACK_PRESSURE,
        &IPC,
    ]
    .concat()
}

/// The experiment names, in order, once each.
pub fn experiment_names(jobs: &[Job]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for job in jobs {
        if !names.contains(&job.experiment) {
            names.push(job.experiment);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_estimates_fit_the_ten_minute_budget() {
        // The issue's budget for `--quick` is 10 minutes on the 2-core machine; keep one for
        // starting processes and the Java build check. The estimates are about 2.5x the times
        // measured there (`compare --quick` took 1m37s in all on 2026-11-23).
        let total: u32 = all_jobs().iter().map(|j| j.estimate_s.0).sum();
        assert!(
            total <= 540,
            "quick runs are expected to take {total}s; the budget is 10 minutes"
        );
    }

    #[test]
    fn every_job_has_a_results_step_and_a_unique_id() {
        let jobs = all_jobs();
        for job in &jobs {
            assert!(
                job.steps.iter().any(|s| s.results),
                "{} has no results step",
                job.id()
            );
            assert!(
                !job.steps.last().unwrap().background,
                "{}: last step must not be background",
                job.id()
            );
        }
        let mut ids: Vec<_> = jobs.iter().map(Job::id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), jobs.len());
    }

    #[test]
    fn the_issue_9_experiments_run_in_both_languages_with_the_scale_flag() {
        for experiment in ["serialization", "dispatch", "back-pressure"] {
            let jobs: Vec<Job> = all_jobs()
                .into_iter()
                .filter(|j| j.experiment == experiment)
                .collect();
            let programs: Vec<Program> = jobs.iter().map(|j| j.steps[0].program).collect();
            assert_eq!(programs, [Sympathy, Sidecar], "{experiment}");
            for job in &jobs {
                assert_eq!(
                    job.steps[0].args,
                    ["run", experiment, "--json", "{scale}"],
                    "{}",
                    job.id()
                );
            }
        }
    }

    #[test]
    fn ipc_has_every_language_pair_for_throughput_and_same_language_latency() {
        let labels: Vec<_> = all_jobs()
            .into_iter()
            .filter(|j| j.experiment == "ipc")
            .map(|j| j.label)
            .collect();
        for pair in ["rust->rust", "java->java", "rust->java", "java->rust"] {
            assert!(labels.contains(&pair), "{pair}");
        }
        for pair in ["rust->rust", "java->java"] {
            assert!(
                labels.contains(&format!("{pair} latency").as_str()),
                "{pair} latency"
            );
        }
    }
}
