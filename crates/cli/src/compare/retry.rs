//! One slot of the comparison (a job in a round) with the hop probed before and after it, run
//! again when the machine got in the way: a run that exited 75 (its own check failed because
//! the machine was busy), or, with `--max-drift PCT`, a run whose hop moved more than PCT
//! percent between its probes. At most [`MAX_RETRIES`] times; of the drift reruns the attempt
//! with the smallest drift is kept. Any other failure is final at once. Without `--max-drift`,
//! a round of a hop-dependent experiment (its catalog entry says `hop_dependent = true`) whose
//! hop moved more than [`HOP_DRIFT_PERCENT`] is re-taken while the budget fits another attempt.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use sympathy_report::{RunFailure, Stream};

use super::budget::Budget;
use super::conditions::{Conditions, HopProbe};
use super::orchestrate::say;
use super::process::{JobError, Launcher, Watch, run_job};
use super::schedule::Slot;

/// How many times a slot is run again, at most.
pub const MAX_RETRIES: u32 = 2;

/// The drift, in percent, past which a round of a hop-dependent experiment is re-taken while
/// the budget allows (without `--max-drift`): the report's `drift` mark.
pub const HOP_DRIFT_PERCENT: f64 = 25.0;

/// What a slot is run with besides its job.
pub struct Retrying<'a> {
    /// Starts the job's process.
    pub launcher: &'a dyn Launcher,
    /// Measures the hop around it.
    pub probe: &'a dyn HopProbe,
    /// `--max-drift`: rerun a slot whose hop moved more than this many percent (whatever the
    /// budget).
    pub max_drift: Option<f64>,
    /// The comparison's budget: a hop-dependent slot is re-taken after drifting more than
    /// [`HOP_DRIFT_PERCENT`] only when another attempt fits it.
    pub budget: &'a Budget,
    /// How long to let the machine settle before running a busy slot again
    /// ([`BUSY_PAUSE`]; zero in tests).
    pub busy_pause: Duration,
    /// How often a running slot says it is still going (`process::HEARTBEAT`).
    pub heartbeat: Duration,
}

/// The pause before a slot that found the machine busy runs again: whatever took the cores
/// (another benchmark, a build) gets a moment to finish.
pub const BUSY_PAUSE: Duration = Duration::from_secs(5);

/// What to do after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Keep the result (or the failure): the slot is done.
    Done,
    /// Run the slot again.
    Retry,
}

/// After an attempt that failed (`Err(environmental)`) or succeeded with `drift` percent, with
/// `retries` made so far: run it again or not.
pub fn decide(
    attempt: Result<Option<f64>, bool>,
    retries: u32,
    max_drift: Option<f64>,
) -> Decision {
    if retries >= MAX_RETRIES {
        return Decision::Done;
    }
    match (attempt, max_drift) {
        (Err(environmental), _) if environmental => Decision::Retry,
        (Ok(Some(drift)), Some(max)) if drift > max => Decision::Retry,
        _ => Decision::Done,
    }
}

impl Retrying<'_> {
    /// Runs `slot` until [`decide`] is done; its stream with the conditions stamped on every
    /// result (and those conditions), or the failure. Retries are announced on `progress`.
    pub fn run(
        &self,
        slot: Slot<'_>,
        work: &Path,
        progress: &mut dyn Write,
    ) -> Result<(Stream, Conditions), RunFailure> {
        let mut retries = 0;
        let mut kept: Option<(Stream, Conditions)> = None;
        let mut last_reason = String::new();
        loop {
            let stem = match retries {
                0 => slot.log_stem(),
                n => format!("{}-retry{n}", slot.log_stem()),
            };
            let hop_ns_before = self.probe.hop_ns();
            let mut watch = Watch {
                out: &mut *progress,
                every: self.heartbeat,
                expected: slot.job.estimate,
            };
            let attempt = run_job(slot.job, &stem, self.launcher, work, &mut watch);
            let conditions = Conditions {
                round: slot.round,
                rounds: slot.rounds,
                hop_ns_before,
                hop_ns_after: self.probe.hop_ns(),
                retries,
                usage: attempt.as_ref().ok().map(|(_, usage)| *usage),
            };
            let max_drift = self.max_drift.or_else(|| {
                let again = conditions.usage.map_or(slot.job.estimate, |u| u.wall);
                (slot.job.hop_dependent && self.budget.fits(again)).then_some(HOP_DRIFT_PERCENT)
            });
            let decision = decide(
                attempt
                    .as_ref()
                    .map(|_| conditions.drift_percent())
                    .map_err(|e| e.environmental),
                retries,
                max_drift,
            );
            let retrying = decision == Decision::Retry;
            match attempt {
                Ok((stream, _)) => {
                    let drift = |c: &Conditions| c.drift_percent().unwrap_or(f64::INFINITY);
                    if kept
                        .as_ref()
                        .is_none_or(|(_, k)| drift(&conditions) < drift(k))
                    {
                        kept = Some((stream, conditions));
                    }
                    if retrying {
                        let line = format!(
                            "        the hop moved more than {:.0}%{}: running it again",
                            max_drift.unwrap_or_default(),
                            conditions.hop_text()
                        );
                        say(progress, &line);
                    }
                }
                Err(JobError { reason, .. }) => {
                    if retrying {
                        let line = format!(
                            "        the machine was busy, running it again in {}s: {reason}",
                            self.busy_pause.as_secs()
                        );
                        say(progress, &line);
                        std::thread::sleep(self.busy_pause);
                    }
                    last_reason = reason;
                }
            }
            if !retrying {
                return match kept {
                    Some((mut stream, mut best)) => {
                        best.retries = retries;
                        best.stamp(&mut stream);
                        Ok((stream, best))
                    }
                    None => Err(RunFailure {
                        experiment: slot.job.experiment.clone(),
                        label: slot.job.label().to_string(),
                        round: slot.round,
                        retries,
                        reason: last_reason,
                    }),
                };
            }
            retries += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_environmental_failures_and_drift_past_the_limit_are_retried_twice_at_most() {
        assert_eq!(decide(Err(true), 0, None), Decision::Retry);
        assert_eq!(decide(Err(true), 1, None), Decision::Retry);
        assert_eq!(decide(Err(true), 2, None), Decision::Done, "twice at most");
        assert_eq!(
            decide(Err(false), 0, None),
            Decision::Done,
            "a real failure"
        );
        assert_eq!(
            decide(Ok(Some(80.0)), 0, None),
            Decision::Done,
            "no --max-drift"
        );
        assert_eq!(decide(Ok(Some(80.0)), 0, Some(25.0)), Decision::Retry);
        assert_eq!(decide(Ok(Some(80.0)), 2, Some(25.0)), Decision::Done);
        assert_eq!(decide(Ok(Some(10.0)), 0, Some(25.0)), Decision::Done);
        assert_eq!(decide(Ok(None), 0, Some(25.0)), Decision::Done, "no probe");
    }
}
