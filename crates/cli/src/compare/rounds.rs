//! Whether an experiment needs more rounds, and which one gets the next extra round.
//!
//! After an experiment's base rounds, `compare` counts its **undecided rows**: rows of the
//! report whose paired ratio (Java/Rust or Rust/C) is inconclusive, so that more pairs could
//! settle it. Extra rounds go to the experiment with the most undecided rows first, one round
//! at a time, while the round's estimated time fits the budget ([`next_extra`]).

use std::time::Duration;

use sympathy_report::{Merged, Row, Tables};

/// The most rounds `compare` runs of one experiment, base rounds included (the catalog allows
/// at most 10 base rounds for the same reason: more would take hours).
pub const MAX_ROUNDS: u32 = 10;

/// Counts the rows of an experiment's results that need more rounds.
pub trait Undecided {
    /// How many rows of `merged` (the results of one experiment so far) are undecided.
    fn undecided_rows(&self, merged: &Merged) -> usize;
}

/// The report's rule ([`Row::needs_more_rounds`]): a row is undecided when one of its paired
/// ratios (Java/Rust, Rust/C) is inconclusive (its 95% interval reaches into the parity band
/// and out of it) with fewer pairs than the report takes to be enough.
pub struct ReportRule;

impl Undecided for ReportRule {
    fn undecided_rows(&self, merged: &Merged) -> usize {
        Tables::build(merged)
            .experiments
            .iter()
            .flat_map(|e| &e.metrics)
            .flat_map(|m| &m.rows)
            .filter(|row| Row::needs_more_rounds(row))
            .count()
    }
}

/// An experiment that might get an extra round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// Its undecided rows.
    pub undecided: usize,
    /// Rounds run so far.
    pub rounds: u32,
    /// The estimated time of one more round (its runs' measured times in this comparison).
    pub cost: Duration,
}

/// The index of the experiment that gets the next extra round: of those with undecided rows,
/// fewer than [`MAX_ROUNDS`] rounds and a round that fits `left` (`None`: no limit), the one
/// with the most undecided rows (the first of equals); `None` when no round fits or all are
/// decided.
pub fn next_extra(candidates: &[Candidate], left: Option<Duration>) -> Option<usize> {
    candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.undecided > 0 && c.rounds < MAX_ROUNDS)
        .filter(|(_, c)| left.is_none_or(|left| c.cost <= left))
        .max_by(|(i, a), (j, b)| a.undecided.cmp(&b.undecided).then(j.cmp(i)))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_report::parse_jsonl;

    fn candidate(undecided: usize, rounds: u32, cost_s: u64) -> Candidate {
        Candidate {
            undecided,
            rounds,
            cost: Duration::from_secs(cost_s),
        }
    }

    #[test]
    fn the_most_undecided_experiment_whose_round_fits_goes_first() {
        let c = [
            candidate(1, 2, 10),
            candidate(3, 2, 50),
            candidate(3, 2, 20),
        ];
        let s = Duration::from_secs;
        assert_eq!(
            next_extra(&c, None),
            Some(1),
            "most undecided, first of equals"
        );
        assert_eq!(
            next_extra(&c, Some(s(30))),
            Some(2),
            "the first does not fit"
        );
        assert_eq!(
            next_extra(&c, Some(s(15))),
            Some(0),
            "only the smallest fits"
        );
        assert_eq!(next_extra(&c, Some(s(5))), None, "the budget is spent");
        let decided = [candidate(0, 2, 1), candidate(0, 3, 1)];
        assert_eq!(
            next_extra(&decided, None),
            None,
            "all decided: no extra round"
        );
        let capped = [candidate(4, MAX_ROUNDS, 1)];
        assert_eq!(next_extra(&capped, None), None, "at most MAX_ROUNDS rounds");
    }

    fn merged(pairs: &[(u32, f64, f64)]) -> Merged {
        let line = |language: &str, round: u32, value: f64| {
            format!(
                r#"{{"kind":"result","experiment":"queue","language":"{language}","variant":"p1c1","params":{{}},"metric":"msgs_per_sec","value":{value},"unit":"msgs/s","check":"ok","conditions":{{"round":{round}}}}}"#
            )
        };
        let text: Vec<String> = pairs
            .iter()
            .flat_map(|(round, rust, java)| {
                [line("rust", *round, *rust), line("java", *round, *java)]
            })
            .collect();
        Merged::from_streams([parse_jsonl("t", &text.join("\n")).unwrap()])
    }

    #[test]
    fn a_ratio_is_undecided_with_one_round_or_rounds_on_both_sides_of_parity() {
        assert_eq!(
            ReportRule.undecided_rows(&merged(&[(1, 10.0, 20.0)])),
            1,
            "one pair has no interval"
        );
        let agree = merged(&[(1, 10.0, 20.0), (2, 10.0, 20.1)]);
        assert_eq!(ReportRule.undecided_rows(&agree), 0);
        let disagree = merged(&[(1, 10.0, 12.0), (2, 10.0, 9.0)]);
        assert_eq!(ReportRule.undecided_rows(&disagree), 1);
        let rust_only = Merged::from_streams([parse_jsonl(
            "t",
            r#"{"kind":"result","experiment":"queue","language":"rust","variant":"p1c1","params":{},"metric":"msgs_per_sec","value":1.0,"unit":"msgs/s"}"#,
        )
        .unwrap()]);
        assert_eq!(
            ReportRule.undecided_rows(&rust_only),
            0,
            "nothing to pair: nothing more rounds could settle"
        );
    }
}
