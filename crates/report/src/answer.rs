//! The answer the report opens with: for each experiment, how Java compares with Rust (and Rust
//! with C), over every row both ran of its headline metric, in one sentence made from the data.
//!
//! The experiment's ratio is taken round by round: in each round, the geometric mean over its
//! rows of the row's cost ratio (Java's time over Rust's, or Rust's rate over Java's: above 1
//! means the subject is slower); those per-round figures are the pairs of a [`RatioInterval`],
//! so the sentence's verdict obeys the same rule as every row's. Rows whose two ends are in two
//! languages (a Java producer feeding a Rust consumer) are not a language against itself and
//! stay out; their matrix says who sent what.

use std::collections::BTreeSet;

use sympathy_harness::catalog::{Better, catalog};
use sympathy_harness::format;

use crate::ends::mixed_ends;
use crate::stats::{RatioInterval, Verdict};
use crate::table::{ExperimentTable, MetricTable, Row, Tables, language_title, round_ratios};
use crate::words::interval_text;

/// One experiment's answer for one pair of languages.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The experiment.
    pub experiment: String,
    /// The metric it reads (the catalog's headline metric, else the first with a direction).
    pub metric: String,
    /// `java` against `rust`, or `rust` against `c`.
    pub subject: &'static str,
    /// The other language.
    pub other: &'static str,
    /// The cost ratio subject/other over the rows (above 1: the subject is slower), when some
    /// row has pairs in common rounds.
    pub ratio: Option<RatioInterval>,
    /// How many rows it covers.
    pub rows: usize,
    /// The sentence.
    pub sentence: String,
}

/// The answers of `tables`: per experiment, Java against Rust, then Rust against C where C ran.
///
/// ```
/// use sympathy_report::{Merged, Tables, answers, parse_jsonl};
/// let line = |lang: &str, variant: &str, value: f64, round: u32| format!(
///     r#"{{"kind":"result","experiment":"struct-table","language":"{lang}","variant":"{variant}","params":{{}},"metric":"total_ms","value":{value},"unit":"ms","conditions":{{"round":{round}}}}}"#);
/// let text = [line("rust", "boxed", 100.0, 1), line("java", "boxed", 160.0, 1),
///             line("rust", "boxed", 101.0, 2), line("java", "boxed", 165.0, 2)].join("\n");
/// let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
/// let a = &answers(&tables)[0];
/// assert!(a.sentence.starts_with("Java is 1.6x slower than Rust on total_ms over 1 paired row (95% CI"), "{}", a.sentence);
/// ```
pub fn answers(tables: &Tables) -> Vec<Answer> {
    let mut out = Vec::new();
    for experiment in &tables.experiments {
        let Some(table) = headline_table(experiment) else {
            continue;
        };
        for (subject, other) in crate::table::COMPARED {
            if table.has_language(subject) && table.has_language(other) {
                out.push(answer(table, subject, other));
            }
        }
    }
    out
}

/// The table an experiment's answer reads: its headline metric's, else its first with a
/// direction.
pub(crate) fn headline_table(experiment: &ExperimentTable) -> Option<&MetricTable> {
    let headline = catalog()
        .experiment(&experiment.experiment)
        .and_then(|e| e.headline.as_ref())
        .and_then(|h| experiment.metric(&h.metric))
        .filter(|t| t.better != Better::Neither);
    headline.or_else(|| {
        experiment
            .metrics
            .iter()
            .find(|t| t.better != Better::Neither)
    })
}

/// A row's cost ratio per round (above 1: `subject` slower), as (round, ratio).
pub(crate) fn cost_pairs(row: &Row, better: Better, subject: &str, other: &str) -> Vec<(u32, f64)> {
    let (Some(s), Some(o)) = (row.cell(subject), row.cell(other)) else {
        return Vec::new();
    };
    if row.parity_conflict(subject, other).is_some() {
        return Vec::new(); // not the same work: no pair
    }
    round_ratios(s, o)
        .into_iter()
        .map(|(round, ratio)| {
            let cost = if better == Better::Higher {
                1.0 / ratio
            } else {
                ratio
            };
            (round, cost)
        })
        .collect()
}

/// `dispatch mono`, `queue p1c1 (placement=same-core)`: a row as the answer names it.
pub(crate) fn row_label(table: &MetricTable, row: &Row) -> String {
    match table.row_params(row) {
        p if p.is_empty() => row.label(),
        p => format!("{} ({p})", row.label()),
    }
}

fn answer(table: &MetricTable, subject: &'static str, other: &'static str) -> Answer {
    let experiment = table
        .rows
        .first()
        .map_or_else(String::new, |r| r.key.experiment.clone());
    let rows: Vec<(&Row, Vec<(u32, f64)>)> = table
        .rows
        .iter()
        .filter(|r| !mixed_ends(r))
        .map(|r| (r, cost_pairs(r, table.better, subject, other)))
        .filter(|(_, pairs)| !pairs.is_empty())
        .collect();
    // The rounds every row has a pair in, so each round's mean is over the same rows.
    let common: BTreeSet<u32> = rows
        .iter()
        .map(|(_, pairs)| pairs.iter().map(|(r, _)| *r).collect::<BTreeSet<u32>>())
        .reduce(|a, b| a.intersection(&b).copied().collect())
        .unwrap_or_default();
    let per_round: Vec<f64> = common
        .iter()
        .map(|round| {
            let logs: Vec<f64> = rows
                .iter()
                .filter_map(|(_, pairs)| pairs.iter().find(|(r, _)| r == round))
                .map(|(_, c)| c.ln())
                .collect();
            (logs.iter().sum::<f64>() / logs.len() as f64).exp()
        })
        .collect();
    let ratio = RatioInterval::of_pairs(&per_round);
    let (s, o) = (language_title(subject), language_title(other));
    let n = rows.len();
    let over = format!(
        "on {} over {n} paired row{}",
        table.metric,
        if n == 1 { "" } else { "s" }
    );
    let (slower, faster) = format::direction_words(Better::Lower, &table.unit);
    let mut sentence = match ratio {
        None => format!(
            "no row of {} ran in both {s} and {o} in a common round",
            table.metric
        ),
        Some(r) => match r.verdict() {
            Verdict::Above => format!(
                "{s} is {}x {slower} than {o} {over} ({}, {} rounds)",
                format::ratio_figure(r.estimate),
                interval_text(&r),
                r.pairs
            ),
            Verdict::Below => format!(
                "{s} is {}x {faster} than {o} {over} ({}, {} rounds)",
                format::ratio_figure(1.0 / r.estimate),
                interval_text(&r.inverse()),
                r.pairs
            ),
            Verdict::OnPar => format!(
                "{s} is on par with {o} {over} ({s}/{o} cost {}x, {}, {} rounds)",
                format::ratio_figure(r.estimate),
                interval_text(&r),
                r.pairs
            ),
            Verdict::Inconclusive => format!(
                "{s} against {o} is inconclusive {over} ({s}/{o} cost {}x, {}, {} round{}): \
                     more rounds would settle it (`sympathy compare --only {experiment} --budget 10m`)",
                format::ratio_figure(r.estimate),
                interval_text(&r),
                r.pairs,
                if r.pairs == 1 { "" } else { "s" }
            ),
        },
    };
    // The rows that go the other way, and those that have no verdict.
    if let Some(r) = ratio {
        let overall = r.verdict();
        let mut against: Vec<(Verdict, String)> = Vec::new();
        let mut undecided = 0;
        for (row, pairs) in &rows {
            let costs: Vec<f64> = pairs.iter().map(|(_, c)| *c).collect();
            let Some(row_ratio) = RatioInterval::of_pairs(&costs) else {
                continue;
            };
            match row_ratio.verdict() {
                Verdict::Inconclusive => undecided += 1,
                v if v != overall => against.push((v, row_label(table, row))),
                _ => {}
            }
        }
        for (verdict, word) in [
            (Verdict::Below, faster),
            (Verdict::Above, slower),
            (Verdict::OnPar, "on par"),
        ] {
            let names: Vec<&str> = against
                .iter()
                .filter(|(v, _)| *v == verdict)
                .map(|(_, n)| n.as_str())
                .collect();
            if !names.is_empty() {
                sentence.push_str(&format!("; {word} in {}", names.join(", ")));
            }
        }
        if undecided > 0 && n > 1 {
            sentence.push_str(&format!("; {undecided} of the {n} rows inconclusive"));
        }
    }
    Answer {
        experiment,
        metric: table.metric.clone(),
        subject,
        other,
        ratio,
        rows: n,
        sentence: format!("{sentence}."),
    }
}

/// The forest plot's rows: every row of each experiment's headline table that a language
/// pair ran (a row between two languages aside), as cost ratios.
pub(crate) fn forest_rows(tables: &Tables) -> Vec<crate::chart::ForestRow> {
    let mut out = Vec::new();
    for experiment in &tables.experiments {
        let Some(table) = headline_table(experiment) else {
            continue;
        };
        for row in table.rows.iter().filter(|r| !mixed_ends(r)) {
            for (subject, other) in crate::table::COMPARED {
                let costs: Vec<f64> = cost_pairs(row, table.better, subject, other)
                    .into_iter()
                    .map(|(_, c)| c)
                    .collect();
                let Some(ratio) = RatioInterval::of_pairs(&costs) else {
                    continue;
                };
                out.push(crate::chart::ForestRow {
                    group: format!("{} ({})", experiment.experiment, table.metric),
                    label: format!(
                        "{} {}/{}",
                        row_label(table, row),
                        language_title(subject),
                        language_title(other)
                    ),
                    colour: crate::table::LANGUAGES
                        .iter()
                        .position(|l| *l == subject)
                        .unwrap_or(0),
                    ratio,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::Merged;
    use crate::parse::parse_jsonl;

    fn line(lang: &str, variant: &str, value: f64, round: u32) -> String {
        format!(
            r#"{{"kind":"result","experiment":"dispatch","language":"{lang}","variant":"{variant}","params":{{"iterations":1000}},"metric":"ops_per_sec","value":{value},"unit":"ops/s","conditions":{{"round":{round},"rounds":3}}}}"#
        )
    }

    fn answers_of(lines: &[String]) -> Vec<Answer> {
        answers(&Tables::build(&Merged::from_streams([parse_jsonl(
            "t",
            &lines.join("\n"),
        )
        .unwrap()])))
    }

    #[test]
    fn the_sentence_names_the_rows_that_go_the_other_way() {
        let mut lines = Vec::new();
        for round in 1..=3 {
            let j = f64::from(round) * 1e6;
            // A rate: Rust 2x Java in dyn-1 and dyn-4, Java 3x Rust in dyn-2.
            lines.extend([
                line("rust", "dyn-1", 200e6 + j, round),
                line("java", "dyn-1", 100e6, round),
                line("rust", "dyn-4", 100e6 + j, round),
                line("java", "mega", 50e6, round),
                line("rust", "dyn-2", 100e6 + j, round),
                line("java", "bi-call", 300e6, round),
            ]);
        }
        let a = &answers_of(&lines)[0];
        assert_eq!((a.subject, a.other, a.rows), ("java", "rust", 3));
        // (2 * 2 * 1/3)^(1/3) = 1.1: each round's geometric mean of the costs.
        assert!(
            a.sentence.starts_with(
                "Java is 1.1x slower than Rust on ops_per_sec over 3 paired rows (95% CI"
            ),
            "{}",
            a.sentence
        );
        assert!(
            a.sentence.contains("; faster in dyn-2 / bi-call (java)"),
            "{}",
            a.sentence
        );
    }

    #[test]
    fn a_round_whose_denominator_is_zero_does_not_shift_the_others() {
        // Round 1's Rust rate is 0 (no pair); rounds 2 and 3 pair with their own round.
        let lines = [
            line("rust", "dyn-1", 0.0, 1),
            line("java", "dyn-1", 100e6, 1),
            line("rust", "dyn-1", 200e6, 2),
            line("java", "dyn-1", 100e6, 2),
            line("rust", "dyn-1", 400e6, 3),
            line("java", "dyn-1", 100e6, 3),
        ];
        let tables = Tables::build(&Merged::from_streams([
            parse_jsonl("t", &lines.join("\n")).unwrap()
        ]));
        let table = &tables.experiments[0].metrics[0];
        let costs = cost_pairs(&table.rows[0], table.better, "java", "rust");
        assert_eq!(costs, [(2, 2.0), (3, 4.0)]);
    }

    #[test]
    fn rounds_that_straddle_parity_leave_the_answer_inconclusive() {
        let lines = [
            line("rust", "dyn-1", 100e6, 1),
            line("java", "dyn-1", 130e6, 1),
            line("rust", "dyn-1", 100e6, 2),
            line("java", "dyn-1", 80e6, 2),
        ];
        let a = &answers_of(&lines)[0];
        assert_eq!(a.ratio.unwrap().verdict(), Verdict::Inconclusive);
        assert!(
            a.sentence.starts_with("Java against Rust is inconclusive"),
            "{}",
            a.sentence
        );
        assert!(!a.sentence.contains("faster") && !a.sentence.contains("slower"));
        assert!(a.sentence.contains("--only dispatch"), "{}", a.sentence);
    }
}
