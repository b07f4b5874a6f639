//! The findings: one line per experiment, generated from the data, that says what it found
//! (the headline), the numbers behind it and the seed's claim beside them.
//!
//! Each experiment's catalog entry declares its rule (`headline = {...}` in
//! `experiments/<name>.toml`, [`HeadlineSpec`]): how one variant compares with another in each
//! language, or the best figure of each language with Java against Rust per variant. An
//! experiment without a rule gets the second kind on its first metric.

use std::collections::BTreeMap;

use sympathy_harness::catalog::{Better, HeadlineSpec, catalog};
use sympathy_harness::format;

use crate::seed_figures::SeedFigure;
use crate::table::{
    Cell, ExperimentTable, LANGUAGES, MetricTable, RoundRatio, Row, Tables, language_title,
};

/// One experiment's line in the findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The experiment.
    pub experiment: String,
    /// What it found, in words: `cas-bool 2.0x slower than lock-xadd at threads=2`.
    pub headline: String,
    /// The figures behind it: `Rust 2.1x (7.2 ns vs 3.4 ns), Java 1.9x (...)`.
    pub numbers: String,
    /// What the seed articles published for the same rows, when they did.
    pub seed: Option<String>,
}

impl Finding {
    /// `headline: numbers (seed: ...)`, one line.
    pub fn text(&self) -> String {
        let mut line = self.headline.clone();
        if !self.numbers.is_empty() {
            line = format!("{line}: {}", self.numbers);
        }
        match &self.seed {
            Some(seed) => format!("{line} (seed: {seed})"),
            None => line,
        }
    }
}

/// One finding per experiment of `tables`, in their order.
///
/// ```
/// use sympathy_report::{Merged, Tables, findings, parse_jsonl};
/// let line = |lang: &str, variant: &str, value: f64| format!(
///     r#"{{"kind":"result","experiment":"queue","language":"{lang}","variant":"{variant}","params":{{}},"metric":"msgs_per_sec","value":{value},"unit":"msgs/s"}}"#);
/// let text = [line("rust", "p1c1", 3e8), line("java", "p1c1", 1.5e8)].join("\n");
/// let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
/// let found = findings(&tables);
/// assert_eq!(found[0].headline, "best msgs_per_sec: Rust p1c1 300.0M msgs/s, Java p1c1 150.0M msgs/s");
/// assert_eq!(found[0].numbers, "p1c1 Java 2.0x slower");
/// ```
pub fn findings(tables: &Tables) -> Vec<Finding> {
    tables.experiments.iter().map(finding).collect()
}

fn finding(experiment: &ExperimentTable) -> Finding {
    let rule = catalog()
        .experiment(&experiment.experiment)
        .and_then(|spec| spec.headline.as_ref());
    let none = BTreeMap::new();
    let found = match rule {
        Some(h) if !h.languages => experiment.metric(&h.metric).and_then(|table| {
            variants_finding(table, h).or_else(|| languages_finding(table, &h.param_texts()))
        }),
        Some(h) => experiment
            .metric(&h.metric)
            .and_then(|table| languages_finding(table, &h.param_texts())),
        None => experiment
            .metrics
            .first()
            .and_then(|table| languages_finding(table, &none)),
    };
    let (headline, numbers, seed) = found.unwrap_or_else(|| {
        let metric = rule.map_or("its headline metric", |h| h.metric.as_str());
        (
            format!("no figures of {metric} to compare"),
            String::new(),
            None,
        )
    });
    Finding {
        experiment: experiment.experiment.clone(),
        headline,
        numbers,
        seed,
    }
}

type Found = (String, String, Option<String>);

/// Whether `row` carries every one of `params`.
fn matches(row: &Row, params: &BTreeMap<String, String>) -> bool {
    params.iter().all(|(k, v)| row.key.params.get(k) == Some(v))
}

fn params_text(params: &BTreeMap<String, String>) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `cas-bool 2.0x slower than lock-xadd`, `x on par with y`, `x 1.5x y` (no direction).
fn compared(ratio: f64, table: &MetricTable, subject: &str, other: &str) -> String {
    let words = format::ratio_words_in(ratio, table.better, &table.unit, subject, other);
    if table.better == Better::Neither {
        words
    } else if words.ends_with(" on par") {
        format!("{words} with {other}")
    } else {
        format!("{words} than {other}")
    }
}

/// The seed figures of `rows`, each once: `cas-bool 20.0 ns java (Intel ...)`.
fn seed_text<'a>(table: &MetricTable, rows: impl IntoIterator<Item = &'a Row>) -> Option<String> {
    let mut shown: Vec<SeedFigure> = Vec::new();
    for row in rows {
        for f in &row.seed {
            if !shown.iter().any(|s| s.is(f)) {
                shown.push(*f);
            }
        }
    }
    let texts: Vec<String> = shown
        .iter()
        .map(|s| {
            format!(
                "{} {} {} ({})",
                s.variant_label(),
                format::quantity(s.figure.value, &table.unit),
                s.figure.language,
                s.figure.hardware
            )
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("; "))
}

/// How variant A compares with variant B, in each language that ran both.
fn variants_finding(table: &MetricTable, rule: &HeadlineSpec) -> Option<Found> {
    let [a, b] = rule.variants.as_slice() else {
        return None;
    };
    let params = rule.param_texts();
    let spec = catalog().experiment(&table.rows.first()?.key.experiment);
    // Params a variant fixes (dispatch's dyn-4 has implementations=4) differ between A and B.
    let fixed: Vec<&String> = spec
        .into_iter()
        .flat_map(|s| [s.variant(a), s.variant(b)])
        .flatten()
        .flat_map(|v| v.params.keys())
        .collect();
    let same_work = |x: &Row, y: &Row| {
        x.key
            .params
            .iter()
            .filter(|(k, _)| !fixed.contains(k))
            .all(|(k, v)| y.key.params.get(k).is_none_or(|w| w == v))
    };
    let candidates = |variant: &str, language: &str| -> Vec<&Row> {
        table
            .rows
            .iter()
            .filter(|r| {
                r.occurrence == 1
                    && r.key.variant == variant
                    && matches(r, &params)
                    && r.cell(language).is_some()
            })
            .collect()
    };
    let mut per_language: Vec<(&str, RoundRatio, &Row, &Row)> = Vec::new();
    for language in LANGUAGES {
        let bs = candidates(b, language);
        let pair = candidates(a, language).into_iter().find_map(|ra| {
            let rb = bs.iter().find(|rb| same_work(ra, rb))?;
            Some((ra, *rb))
        });
        let Some((ra, rb)) = pair else { continue };
        let (ca, cb): (&Cell, &Cell) = (ra.cell(language)?, rb.cell(language)?);
        if let Some(ratio) = RoundRatio::of(ca, cb) {
            per_language.push((language, ratio, ra, rb));
        }
    }
    let first = per_language.first()?;
    let medians: Vec<f64> = per_language.iter().map(|p| p.1.median).collect();
    let overall = crate::table::median(&medians)?;
    let at = if params.is_empty() {
        let shared = first
            .2
            .key
            .params
            .iter()
            .filter(|(k, _)| !fixed.contains(k));
        params_text(&shared.map(|(k, v)| (k.clone(), v.clone())).collect())
    } else {
        params_text(&params)
    };
    let lowest = medians.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = medians.iter().copied().fold(0.0, f64::max);
    // Languages that disagree by more than this factor get no common headline figure.
    const AGREE: f64 = 1.5;
    let at = match at.as_str() {
        "" => String::new(),
        at => format!(" at {at}"),
    };
    let headline = if highest / lowest > AGREE {
        format!("{a} against {b}{at} depends on the language")
    } else {
        format!("{}{at}", compared(overall, table, a, b))
    };
    let numbers = per_language
        .iter()
        .map(|(language, ratio, ra, rb)| {
            let value = |r: &Row| {
                r.cell(language)
                    .map_or_else(String::new, |c| format::quantity(c.value, &table.unit))
            };
            // The ratio is the median of per-round ratios; the two medians beside it may come
            // from different rounds, so the rounds' own range is said too.
            let rounds = if ratio.rounds > 1 {
                format!(
                    ", per round {}..{}",
                    format::ratio_figure(ratio.min),
                    format::ratio_figure(ratio.max)
                )
            } else {
                String::new()
            };
            format!(
                "{} {}x ({} vs {}{rounds})",
                language_title(language),
                format::ratio_figure(ratio.median),
                value(ra),
                value(rb)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let rows = per_language.iter().flat_map(|p| [p.2, p.3]);
    Some((headline, numbers, seed_text(table, rows)))
}

/// The best figure of each language, and Java against Rust per variant.
fn languages_finding(table: &MetricTable, params: &BTreeMap<String, String>) -> Option<Found> {
    let rows: Vec<&Row> = table.rows.iter().filter(|r| matches(r, params)).collect();
    let mut best: Vec<(&str, &Row, f64)> = Vec::new();
    for language in LANGUAGES {
        let values = rows
            .iter()
            .filter_map(|r| Some((*r, r.cell(language)?.value)));
        let pick = match table.better {
            Better::Higher => values.max_by(|x, y| x.1.total_cmp(&y.1)),
            Better::Lower => values.min_by(|x, y| x.1.total_cmp(&y.1)),
            Better::Neither => values.into_iter().next(),
        };
        if let Some((row, value)) = pick {
            best.push((language, row, value));
        }
    }
    if best.is_empty() {
        return None;
    }
    let label = |row: &Row| match table.row_params(row) {
        p if p.is_empty() => row.key.variant.clone(),
        p => format!("{} ({p})", row.key.variant),
    };
    let word = if table.better == Better::Neither {
        "first"
    } else {
        "best"
    };
    let headline = format!(
        "{word} {}: {}",
        table.metric,
        best.iter()
            .map(|(language, row, value)| format!(
                "{} {} {}",
                language_title(language),
                label(row),
                format::quantity(*value, &table.unit)
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let paired: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let ratio = r.ratio("java", "rust")?;
            let words =
                format::ratio_words_in(ratio.median, table.better, &table.unit, "Java", "Rust");
            Some(format!("{} {words}", label(r)))
        })
        .collect();
    let numbers = if paired.is_empty() {
        "no variant ran in both Java and Rust".to_string()
    } else {
        paired.join("; ")
    };
    Some((
        headline,
        numbers,
        seed_text(table, best.iter().map(|b| b.1)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::Merged;
    use crate::parse::parse_jsonl;

    fn line(lang: &str, variant: &str, threads: u32, value: f64) -> String {
        format!(
            r#"{{"kind":"result","experiment":"atomic-increment","language":"{lang}","variant":"{variant}","params":{{"threads":{threads}}},"metric":"ns_per_op","value":{value},"unit":"ns"}}"#
        )
    }

    #[test]
    fn the_catalog_rule_compares_two_variants_in_each_language() {
        let text = [
            line("rust", "cas-bool", 1, 5.0),
            line("rust", "lock-xadd", 1, 5.0),
            line("rust", "cas-bool", 2, 20.0),
            line("rust", "lock-xadd", 2, 10.0),
            line("java", "cas-bool", 2, 30.0),
            line("java", "lock-xadd", 2, 10.0),
            line("c", "lock-xadd", 2, 10.0),
        ]
        .join("\n");
        let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
        let f = &findings(&tables)[0];
        assert_eq!(f.experiment, "atomic-increment");
        assert_eq!(
            f.headline,
            "cas-bool 2.5x slower than lock-xadd at threads=2"
        );
        assert_eq!(
            f.numbers,
            "Rust 2.0x (20.0 ns vs 10.0 ns), Java 3.0x (30.0 ns vs 10.0 ns)"
        );
        assert!(f.text().starts_with(&f.headline));
    }

    #[test]
    fn over_several_rounds_the_numbers_give_the_per_round_range() {
        // Round 1 in a slow phase, round 2 in a fast one: each round's ratio is about 2, while
        // the medians of the two variants come from different rounds.
        let round = |lang: &str, variant: &str, value: f64, round: u32| {
            line(lang, variant, 2, value).replace(
                r#""unit":"ns"}"#,
                &format!(r#""unit":"ns","conditions":{{"round":{round},"rounds":2}}}}"#),
            )
        };
        let text = [
            round("rust", "cas-bool", 40.0, 1),
            round("rust", "lock-xadd", 20.0, 1),
            round("rust", "cas-bool", 9.0, 2),
            round("rust", "lock-xadd", 5.0, 2),
        ]
        .join("\n");
        let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
        let f = &findings(&tables)[0];
        assert!(
            f.numbers.starts_with("Rust 1.9x (") && f.numbers.ends_with(", per round 1.8..2.0)"),
            "{}",
            f.numbers
        );
    }

    #[test]
    fn an_experiment_without_figures_says_so() {
        let text = line("rust", "sharded", 2, 1.0).replace("ns_per_op", "ops_per_handoff");
        let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
        let f = &findings(&tables)[0];
        assert_eq!(f.headline, "no figures of ns_per_op to compare");
        let text = line("rust", "sharded", 2, 1.0);
        let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
        assert_eq!(
            findings(&tables)[0].headline,
            "best ns_per_op: Rust sharded 1.0 ns",
            "without both variants, the best figure of each language"
        );
    }
}
