//! The seeds' lessons: one line per experiment whose catalog entry names two variants to compare
//! (`headline = {...}` in `experiments/<name>.toml`, [`HeadlineSpec`]): how the first compares
//! with the second in each language, like with like (the same language, the same work params),
//! each language's ratio with its 95% interval ([`read_ratio`]), and whether the seed's claim
//! (`claim`, `expect`) is confirmed on this machine. How the languages compare with each other
//! is the answer's job ([`crate::answers`]), not a lesson's.

use std::collections::BTreeMap;

use sympathy_harness::catalog::{Expect, HeadlineSpec, catalog};
use sympathy_harness::format;

use crate::seed_figures::SeedFigure;
use crate::stats::{RatioInterval, Verdict};
use crate::table::{
    ExperimentTable, LANGUAGES, MetricTable, Row, Tables, language_title, pair_ratios,
};
use crate::words::read_ratio;

/// Whether this machine's figures bear out a seed's claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonStatus {
    /// Every language with a verdict agrees with the claim (and at least one has one).
    Confirmed,
    /// Some language's verdict contradicts the claim (the other direction, or on par).
    NotConfirmed,
    /// No language's interval allows a verdict.
    Inconclusive,
}

impl LessonStatus {
    /// `confirmed`, `not confirmed on this machine`, `inconclusive`.
    pub fn text(self) -> &'static str {
        match self {
            LessonStatus::Confirmed => "confirmed",
            LessonStatus::NotConfirmed => "not confirmed on this machine",
            LessonStatus::Inconclusive => "inconclusive",
        }
    }
}

/// One experiment's lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The experiment.
    pub experiment: String,
    /// What it found, in words: `cas-bool slower than lock-xadd at threads=2 in Rust, Java, C`.
    pub headline: String,
    /// The figures behind it, a language each: `Rust 2.1x slower (95% CI 1.9..2.3, 2 rounds;
    /// 7.2 ns vs 3.4 ns)`.
    pub numbers: String,
    /// What the seed articles published for the same rows, when they did.
    pub seed: Option<String>,
    /// The seed's claim and whether it held, when the catalog states one.
    pub lesson: Option<(String, LessonStatus)>,
}

impl Finding {
    /// `[confirmed] claim: headline: numbers (seed: ...)`, one line.
    pub fn text(&self) -> String {
        let mut line = match &self.lesson {
            Some((claim, status)) => format!("[{}] {claim}: {}", status.text(), self.headline),
            None => self.headline.clone(),
        };
        if !self.numbers.is_empty() {
            line = format!("{line}: {}", self.numbers);
        }
        match &self.seed {
            Some(seed) => format!("{line} (seed: {seed})"),
            None => line,
        }
    }
}

/// One lesson per experiment of `tables` whose catalog rule compares two variants and finds
/// both in some language, in table order.
///
/// ```
/// use sympathy_report::{Merged, Tables, findings, parse_jsonl};
/// let line = |lang: &str, variant: &str, value: f64, round: u32| format!(
///     r#"{{"kind":"result","experiment":"struct-table","language":"{lang}","variant":"{variant}","params":{{}},"metric":"total_ms","value":{value},"unit":"ms","conditions":{{"round":{round}}}}}"#);
/// let text = [line("rust", "boxed", 300.0, 1), line("rust", "flyweight", 100.0, 1),
///             line("rust", "boxed", 310.0, 2), line("rust", "flyweight", 101.0, 2)].join("\n");
/// let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
/// let found = findings(&tables);
/// assert!(found[0].text().starts_with("[confirmed] "), "{}", found[0].text());
/// assert!(found[0].numbers.starts_with("Rust 3.0x slower (95% CI"), "{}", found[0].numbers);
/// ```
pub fn findings(tables: &Tables) -> Vec<Finding> {
    tables.experiments.iter().filter_map(finding).collect()
}

fn finding(experiment: &ExperimentTable) -> Option<Finding> {
    let rule = catalog()
        .experiment(&experiment.experiment)
        .and_then(|spec| spec.headline.as_ref())
        .filter(|h| !h.languages && h.variants.len() == 2)?;
    let table = experiment.metric(&rule.metric)?;
    let mut found = variants_finding(table, rule)?;
    if let Some(rejected) = rejected_text(experiment, rule) {
        found.numbers = format!("{}; {rejected}", found.numbers);
    }
    Some(found)
}

/// What a lesson about latency must not leave out: the share of the requests each variant
/// rejected at the rule's params (`bounded rejected 33% (Rust), 33% (Java)`), where the
/// experiment reports `rejected` and `completed` and some were rejected.
fn rejected_text(experiment: &ExperimentTable, rule: &HeadlineSpec) -> Option<String> {
    let (rejected, completed) = (
        experiment.metric("rejected")?,
        experiment.metric("completed")?,
    );
    let params = rule.param_texts();
    let parts: Vec<String> = rule
        .variants
        .iter()
        .filter_map(|variant| {
            let find = |t: &'_ MetricTable| {
                t.rows
                    .iter()
                    .find(|r| r.key.variant == *variant && matches(r, &params))
                    .cloned()
            };
            let (r, c) = (find(rejected)?, find(completed)?);
            let shares: Vec<String> = LANGUAGES
                .iter()
                .filter_map(|language| {
                    let (r, c) = (r.cell(language)?.value, c.cell(language)?.value);
                    (r > 0.0).then(|| {
                        format!("{:.0}% ({})", 100.0 * r / (r + c), language_title(language))
                    })
                })
                .collect();
            (!shares.is_empty()).then(|| format!("{variant} rejected {}", shares.join(", ")))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("{} of the requests", parts.join("; ")))
}

/// Whether `row` carries every one of `params`.
fn matches(row: &Row, params: &BTreeMap<String, String>) -> bool {
    params.iter().all(|(k, v)| row.key.params.get(k) == Some(v))
}

fn params_text(params: &BTreeMap<String, String>) -> String {
    params
        .iter()
        .map(|(k, v)| crate::merge::param_text(k, v))
        .collect::<Vec<_>>()
        .join(" ")
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

/// The status of a claim expecting `expect` of the languages' `verdicts`.
fn status(expect: Expect, verdicts: &[Verdict]) -> LessonStatus {
    let wanted = match expect {
        Expect::Above => Verdict::Above,
        Expect::Below => Verdict::Below,
    };
    let decided: Vec<Verdict> = verdicts
        .iter()
        .copied()
        .filter(|v| *v != Verdict::Inconclusive)
        .collect();
    if decided.is_empty() {
        LessonStatus::Inconclusive
    } else if decided.iter().all(|v| *v == wanted) {
        LessonStatus::Confirmed
    } else {
        LessonStatus::NotConfirmed
    }
}

/// How variant A compares with variant B, in each language that ran both.
fn variants_finding(table: &MetricTable, rule: &HeadlineSpec) -> Option<Finding> {
    let [a, b] = rule.variants.as_slice() else {
        return None;
    };
    let params = rule.param_texts();
    let experiment = table.rows.first()?.key.experiment.clone();
    let spec = catalog().experiment(&experiment);
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
    let mut per_language: Vec<(&str, RatioInterval, &Row, &Row)> = Vec::new();
    for language in LANGUAGES {
        let bs = candidates(b, language);
        let pair = candidates(a, language).into_iter().find_map(|ra| {
            let rb = bs.iter().find(|rb| same_work(ra, rb))?;
            Some((ra, *rb))
        });
        let Some((ra, rb)) = pair else { continue };
        let ratios = pair_ratios(ra.cell(language)?, rb.cell(language)?);
        if let Some(ratio) = RatioInterval::of_pairs(&ratios) {
            per_language.push((language, ratio, ra, rb));
        }
    }
    let first = per_language.first()?;
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
    let at = match at.as_str() {
        "" => String::new(),
        at => format!(" at {at}"),
    };
    let readings: Vec<_> = per_language
        .iter()
        .map(|(language, ratio, _, _)| {
            let r = read_ratio(ratio, table.better, &table.unit, a, b);
            (language_title(language), r)
        })
        .collect();
    // The headline groups the languages by what their intervals allow.
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (language, reading) in &readings {
        let said = match reading.verdict {
            Verdict::Above | Verdict::Below => {
                let word = reading.words.rsplit(' ').next().unwrap_or_default();
                format!("{a} {word} than {b}")
            }
            Verdict::OnPar => format!("{a} on par with {b}"),
            Verdict::Inconclusive => format!("{a} against {b} inconclusive"),
        };
        match groups.iter_mut().find(|(s, _)| *s == said) {
            Some((_, languages)) => languages.push(language),
            None => groups.push((said, vec![language])),
        }
    }
    let headline = groups
        .iter()
        .map(|(said, languages)| format!("{said}{at} in {}", languages.join(", ")))
        .collect::<Vec<_>>()
        .join("; ");
    let numbers = per_language
        .iter()
        .zip(&readings)
        .map(|((language, _, ra, rb), (title, reading))| {
            let value = |r: &Row| {
                r.cell(language)
                    .map_or_else(String::new, |c| format::quantity(c.value, &table.unit))
            };
            let words = reading
                .words
                .strip_prefix(&format!("{a} "))
                .unwrap_or(&reading.words);
            format!(
                "{title} {words} ({}; {} vs {})",
                reading.detail,
                value(ra),
                value(rb)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let lesson = rule.claim.clone().zip(rule.expect).map(|(claim, expect)| {
        let verdicts: Vec<Verdict> = readings.iter().map(|(_, r)| r.verdict).collect();
        (claim, status(expect, &verdicts))
    });
    let rows = per_language.iter().flat_map(|p| [p.2, p.3]);
    Some(Finding {
        experiment,
        headline,
        numbers,
        seed: seed_text(table, rows),
        lesson,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::Merged;
    use crate::parse::parse_jsonl;

    fn line(lang: &str, variant: &str, threads: u32, value: f64, round: u32) -> String {
        format!(
            r#"{{"kind":"result","experiment":"atomic-increment","language":"{lang}","variant":"{variant}","params":{{"threads":{threads}}},"metric":"ns_per_op","value":{value},"unit":"ns","conditions":{{"round":{round},"rounds":2}}}}"#
        )
    }

    fn found(lines: &[String]) -> Vec<Finding> {
        findings(&Tables::build(&Merged::from_streams([parse_jsonl(
            "t",
            &lines.join("\n"),
        )
        .unwrap()])))
    }

    #[test]
    fn the_catalog_rule_compares_two_variants_in_each_language_like_with_like() {
        let mut lines = Vec::new();
        for round in [1, 2] {
            let jitter = f64::from(round) * 0.1;
            lines.extend([
                line("rust", "cas-bool", 1, 5.0, round),
                line("rust", "lock-xadd", 1, 5.0, round),
                line("rust", "cas-bool", 2, 20.0 + jitter, round),
                line("rust", "lock-xadd", 2, 10.0, round),
                line("java", "cas-bool", 2, 30.0 + jitter, round),
                line("java", "lock-xadd", 2, 10.0, round),
            ]);
        }
        let f = &found(&lines)[0];
        assert_eq!(f.experiment, "atomic-increment");
        assert_eq!(
            f.headline,
            "cas-bool slower than lock-xadd at threads=2 in Rust, Java"
        );
        assert!(
            f.numbers.starts_with("Rust 2.0x slower (95% CI "),
            "{}",
            f.numbers
        );
        assert!(
            f.numbers.contains("Java 3.0x slower (95% CI "),
            "{}",
            f.numbers
        );
        assert!(f.numbers.contains("20.1 ns vs 10.0 ns"), "{}", f.numbers);
        assert_eq!(f.lesson.as_ref().unwrap().1, LessonStatus::Confirmed);
        assert!(
            f.text().starts_with("[confirmed] a CAS loop"),
            "{}",
            f.text()
        );
    }

    #[test]
    fn rounds_that_disagree_give_no_verdict_and_no_confirmation() {
        // Round 1 says cas-bool is 1.5x slower, round 2 that it is 1.3x faster.
        let lines = [
            line("rust", "cas-bool", 2, 15.0, 1),
            line("rust", "lock-xadd", 2, 10.0, 1),
            line("rust", "cas-bool", 2, 7.7, 2),
            line("rust", "lock-xadd", 2, 10.0, 2),
        ];
        let f = &found(&lines)[0];
        assert_eq!(
            f.headline,
            "cas-bool against lock-xadd inconclusive at threads=2 in Rust"
        );
        assert!(
            !f.numbers.contains("slower") && !f.numbers.contains("faster"),
            "{}",
            f.numbers
        );
        assert_eq!(f.lesson.as_ref().unwrap().1, LessonStatus::Inconclusive);
    }

    #[test]
    fn a_contrary_verdict_is_not_confirmed() {
        let mut lines = Vec::new();
        for round in [1, 2] {
            lines.push(line("rust", "cas-bool", 2, 5.0, round));
            lines.push(line("rust", "lock-xadd", 2, 10.0, round));
        }
        let f = &found(&lines)[0];
        assert_eq!(f.lesson.as_ref().unwrap().1, LessonStatus::NotConfirmed);
        assert!(f.text().starts_with("[not confirmed on this machine]"));
    }

    #[test]
    fn an_experiment_without_both_variants_has_no_lesson() {
        let lines = [line("rust", "sharded", 2, 1.0, 1)];
        assert!(found(&lines).is_empty());
    }
}
