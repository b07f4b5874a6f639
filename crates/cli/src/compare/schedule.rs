//! The order of a comparison's runs: every experiment in rounds, each round running each of the
//! experiment's languages once and starting one language further along than the round before
//! (round 1 Rust then Java, round 2 Java then Rust, ...), all rounds of one experiment before
//! the next experiment. A slow phase of the machine then falls on both languages alike, and the
//! report takes the median of the per-round ratios.
//!
//! ```text
//! ping-pong [rust] round 1/3, ping-pong [java] round 1/3,
//! ping-pong [java] round 2/3, ping-pong [rust] round 2/3,
//! ping-pong [rust] round 3/3, ping-pong [java] round 3/3, queue [rust] round 1/3, ...
//! ```

use super::runners::Job;

/// One run of the comparison: a job in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot<'a> {
    /// What runs.
    pub job: &'a Job,
    /// Its round, from 1.
    pub round: u32,
    /// How many rounds the comparison runs.
    pub rounds: u32,
}

impl Slot<'_> {
    /// `<experiment>-<language>-r<round>`: the stem of its log files.
    pub fn log_stem(&self) -> String {
        format!("{}-r{}", self.job.log_stem(), self.round)
    }
}

/// `jobs` grouped by experiment, in the order given.
pub fn groups(jobs: &[Job]) -> Vec<Vec<&Job>> {
    let mut experiments: Vec<Vec<&Job>> = Vec::new();
    for job in jobs {
        match experiments
            .iter_mut()
            .find(|group| group[0].experiment == job.experiment)
        {
            Some(group) => group.push(job),
            None => experiments.push(vec![job]),
        }
    }
    experiments
}

/// Round `round` of one experiment's jobs (`group`), starting one language further along than
/// the round before; `rounds` is how many rounds it has.
pub fn round_slots<'a>(group: &[&'a Job], round: u32, rounds: u32) -> Vec<Slot<'a>> {
    let start = (round.max(1) - 1) as usize % group.len().max(1);
    group[start..]
        .iter()
        .chain(&group[..start])
        .map(|job| Slot { job, round, rounds })
        .collect()
}

/// `jobs` (grouped by experiment, in the order given) in `rounds` alternating rounds.
pub fn schedule(jobs: &[Job], rounds: u32) -> Vec<Slot<'_>> {
    let rounds = rounds.max(1);
    groups(jobs)
        .iter()
        .flat_map(|group| (1..=rounds).flat_map(move |round| round_slots(group, round, rounds)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::runners::all_jobs;
    use sympathy_harness::Preset;
    use sympathy_harness::catalog::catalog;

    fn order(slots: &[Slot<'_>]) -> Vec<String> {
        slots
            .iter()
            .map(|s| format!("{} {} {}", s.job.experiment, s.job.label(), s.round))
            .collect()
    }

    #[test]
    fn rounds_alternate_and_finish_one_experiment_before_the_next() {
        let jobs: Vec<Job> = all_jobs(Preset::Quick, &[])
            .into_iter()
            .filter(|j| j.experiment == "ping-pong" || j.experiment == "queue")
            .collect();
        let slots = schedule(&jobs, 3);
        let first = &catalog()
            .names()
            .into_iter()
            .find(|n| *n == "ping-pong" || *n == "queue")
            .unwrap()
            .to_string();
        let second = if first == "queue" {
            "ping-pong"
        } else {
            "queue"
        };
        let expected: Vec<String> = [first.as_str(), second]
            .iter()
            .flat_map(|e| {
                [
                    format!("{e} rust 1"),
                    format!("{e} java 1"),
                    format!("{e} java 2"),
                    format!("{e} rust 2"),
                    format!("{e} rust 3"),
                    format!("{e} java 3"),
                ]
            })
            .collect();
        assert_eq!(order(&slots), expected);
        assert!(slots.iter().all(|s| s.rounds == 3));
        assert_eq!(slots[2].log_stem(), format!("{first}-java-r2"));
    }

    #[test]
    fn one_language_or_one_round_runs_in_order() {
        let jobs = all_jobs(Preset::Smoke, &[]);
        let rust_only: Vec<Job> = jobs
            .iter()
            .filter(|j| j.label() == "rust")
            .take(1)
            .cloned()
            .collect();
        assert_eq!(schedule(&rust_only, 2).len(), 2);
        let once = schedule(&jobs, 0);
        assert_eq!(once.len(), jobs.len(), "zero rounds means one");
        assert!(once.iter().zip(&jobs).all(|(s, j)| s.job == j));
    }
}
