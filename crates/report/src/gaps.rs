//! Why the gaps: beside every paired row whose interval puts one side more than [`LARGE_GAP`]
//! times behind the other, the cause the catalog gives for it and the figures behind the cause.
//!
//! The causes live in the catalog (one home): the `[[gaps]]` entries of
//! `experiments/<experiment>.toml`, each naming a variant (and optionally params and metrics),
//! the slower language and the one it is compared with, the cause in one line, what the slower
//! loop does that the other does not, and its evidence (instructions per message counted the
//! same way in both languages, bytes allocated, or another measured figure with its command).
//!
//! A row gets a line when its interval puts a side more than [`LARGE_GAP`] behind (with the
//! catalog's cause, or the words that none is recorded), and also when a catalog entry names the
//! row and the interval agrees that the named side is behind, by however little (the Rust rows
//! that lose to Java's inlining or to C). A gap the catalog explains the other way round, or not
//! at all, is never given someone else's cause.
//!
//! ```
//! use sympathy_report::{Merged, Tables, gaps, parse_jsonl};
//! let line = |lang: &str, value: f64, round: u32| {
//!     format!(
//!         r#"{{"kind":"result","experiment":"ping-pong","language":"{lang}","variant":"xadd","params":{{}},"metric":"ns_per_hop","value":{value},"unit":"ns","stats":{{"runs":3,"median":{value},"min":{value},"max":{value}}},"check":"ok","conditions":{{"round":{round}}}}}"#
//!     )
//! };
//! let text = [line("rust", 50.0, 1), line("java", 150.0, 1), line("rust", 52.0, 2), line("java", 160.0, 2)]
//!     .join("\n");
//! let tables = Tables::build(&Merged::from_streams(vec![parse_jsonl("r.jsonl", &text).unwrap()]));
//! let found = gaps(&tables.experiments[0]);
//! assert_eq!(found.len(), 1);
//! assert!(found[0].ratio_text.starts_with("Java 3.0x slower"), "{}", found[0].ratio_text);
//! ```

use sympathy_harness::catalog::{Better, EvidenceSpec, GapSpec, Measure, catalog};
use sympathy_harness::format;

use crate::ends::side_name;
use crate::stats::{RatioInterval, parity_bound};
use crate::table::{COMPARED, ExperimentTable, MetricTable, Row, language_title};
use crate::words::read_ratio;

/// How far behind, as a ratio, a side must be (its whole 95% interval beyond it) for the report
/// to ask why: 1.5, one language taking half as long again.
pub const LARGE_GAP: f64 = 1.5;

/// One gap of a row and what the catalog says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    /// The row's label and the params that set it apart in its table (`mpsc producers=2`).
    pub row: String,
    /// The metrics whose tables show it with the same ratio.
    pub metrics: Vec<String>,
    /// The slower side's language (`java`, `rust`, `c`).
    pub slower: &'static str,
    /// The faster side's language.
    pub faster: &'static str,
    /// The ratio in the report's words (`Java 5.3x slower (95% CI 3.1..9.0, 2 rounds)`).
    pub ratio_text: String,
    /// Whether the whole interval lies beyond [`LARGE_GAP`].
    pub large: bool,
    /// The catalog's entry for it, when there is one.
    pub cause: Option<&'static GapSpec>,
}

impl Gap {
    /// The line the report prints: the row, the ratio, the cause and its figures, or the words
    /// that the catalog has no cause for it.
    pub fn line(&self, experiment: &str) -> String {
        let head = format!(
            "`{}` ({}): {}",
            self.row,
            self.metrics.join(", "),
            self.ratio_text
        );
        match self.cause {
            Some(g) => format!(
                "{head}. Why: {}. What the {} loop does that the other does not: {}. Evidence: {}.",
                trim(&g.cause),
                language_title(self.slower),
                trim(&g.differs),
                g.evidence
                    .iter()
                    .map(evidence_text)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            None => format!(
                "{head}. No cause recorded: the catalog (experiments/{experiment}.toml) has no \
                 [[gaps]] entry for it."
            ),
        }
    }
}

fn trim(text: &str) -> &str {
    text.trim().trim_end_matches('.')
}

/// One piece of evidence as the report writes it: `instructions (callgrind) per message: one
/// write and one read of a 4-byte record: Rust 145.3 instructions, Java 499.0 instructions`.
pub fn evidence_text(e: &EvidenceSpec) -> String {
    let unit = e.unit();
    let figures = e
        .values()
        .iter()
        .map(|(language, v)| {
            let figure = format::quantity(v.value, unit);
            format!("{} {figure}", language_title(language.name()))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let what = match e.measure {
        Measure::Instructions => {
            format!("instructions (callgrind) {}", trim(&e.what))
        }
        Measure::BytesAllocated => {
            format!("bytes allocated (JMH -prof gc) {}", trim(&e.what))
        }
        Measure::Figure => trim(&e.what).to_string(),
    };
    match e.source.trim() {
        "" => format!("{what}: {figures}"),
        source => format!("{what}: {figures} (`{source}`)"),
    }
}

/// How many times `side` is behind the other in `ratio` (of `subject` over the other) for a
/// metric that improves the way `better` says, as an interval: above 1 when `side` is slower.
fn behind(ratio: &RatioInterval, better: Better, side_is_subject: bool) -> Option<RatioInterval> {
    let subject_behind = match better {
        Better::Lower => *ratio,
        Better::Higher => ratio.inverse(),
        Better::Neither => return None,
    };
    Some(if side_is_subject {
        subject_behind
    } else {
        subject_behind.inverse()
    })
}

/// The catalog entry of `experiment` that explains `slower` being behind `faster` in `row` of
/// `table`, when there is one.
fn cause_for(
    experiment: &str,
    table: &MetricTable,
    row: &Row,
    slower: &str,
    faster: &str,
) -> Option<&'static GapSpec> {
    let spec = catalog().experiment(experiment)?;
    spec.gaps.iter().find(|g| {
        g.variant == row.key.variant
            && g.slower.name() == slower
            && g.than.name() == faster
            && (g.metrics.is_empty() || g.metrics.contains(&table.metric))
            && g.params
                .iter()
                .all(|(k, v)| row.key.params.get(k).is_some_and(|p| p == v))
    })
}

/// Every gap of `experiment`'s tables the report explains or asks about, in table and row
/// order; the same row's gap in several metric tables with the same words is one [`Gap`].
pub fn gaps(experiment: &ExperimentTable) -> Vec<Gap> {
    let mut found: Vec<Gap> = Vec::new();
    for table in &experiment.metrics {
        for row in &table.rows {
            for (subject, other) in COMPARED {
                let Some(ratio) = row.ratio(subject, other) else {
                    continue;
                };
                if ratio.interval().is_none() {
                    continue;
                }
                for (slower, faster) in [(subject, other), (other, subject)] {
                    let Some(b) = behind(&ratio, table.better, slower == subject) else {
                        continue;
                    };
                    let cause = cause_for(&experiment.experiment, table, row, slower, faster);
                    let large = b.low > LARGE_GAP;
                    if !(large || (cause.is_some() && b.low > parity_bound())) {
                        continue;
                    }
                    let (s, o) = (side_name(row, subject), side_name(row, other));
                    let ratio_text = read_ratio(&ratio, table.better, &table.unit, &s, &o).text();
                    let params = table.row_params(row);
                    let label = match params.as_str() {
                        "" => row.label(),
                        p => format!("{} {p}", row.label()),
                    };
                    if let Some(same) = found.iter_mut().find(|g| {
                        g.row == label
                            && g.slower == slower
                            && g.ratio_text == ratio_text
                            && g.cause.map(|c| c as *const GapSpec)
                                == cause.map(|c| c as *const GapSpec)
                    }) {
                        same.metrics.push(table.metric.clone());
                        continue;
                    }
                    found.push(Gap {
                        row: label,
                        metrics: vec![table.metric.clone()],
                        slower,
                        faster,
                        ratio_text,
                        large,
                        cause,
                    });
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Merged, Tables, parse_jsonl};

    fn tables(lines: &[String]) -> Tables {
        Tables::build(&Merged::from_streams(vec![
            parse_jsonl("t.jsonl", &lines.join("\n")).unwrap(),
        ]))
    }

    fn result(
        experiment: &str,
        lang: &str,
        variant: &str,
        params: &str,
        metric: &str,
        value: f64,
        round: u32,
    ) -> String {
        format!(
            r#"{{"kind":"result","experiment":"{experiment}","language":"{lang}","variant":"{variant}","params":{{{params}}},"metric":"{metric}","value":{value},"unit":"x","stats":{{"runs":3,"median":{value},"min":{value},"max":{value}}},"check":"ok","conditions":{{"round":{round}}}}}"#
        )
    }

    #[test]
    fn a_large_gap_without_an_entry_says_no_cause_is_recorded() {
        let lines: Vec<String> = [(1, 50.0, 150.0), (2, 52.0, 160.0)]
            .iter()
            .flat_map(|&(round, rust, java)| {
                [
                    result("ping-pong", "rust", "xadd", "", "ns_per_hop", rust, round),
                    result("ping-pong", "java", "xadd", "", "ns_per_hop", java, round),
                ]
            })
            .collect();
        let t = tables(&lines);
        let found = gaps(&t.experiments[0]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].large && found[0].cause.is_none());
        assert_eq!((found[0].slower, found[0].faster), ("java", "rust"));
        let line = found[0].line("ping-pong");
        assert!(line.contains("No cause recorded"), "{line}");
        assert!(line.contains("experiments/ping-pong.toml"), "{line}");
    }

    #[test]
    fn a_gap_under_the_bound_without_an_entry_gets_no_line() {
        let lines: Vec<String> = [(1, 50.0, 60.0), (2, 52.0, 63.0)]
            .iter()
            .flat_map(|&(round, rust, java)| {
                [
                    result("ping-pong", "rust", "xadd", "", "ns_per_hop", rust, round),
                    result("ping-pong", "java", "xadd", "", "ns_per_hop", java, round),
                ]
            })
            .collect();
        assert!(gaps(&tables(&lines).experiments[0]).is_empty());
    }

    #[test]
    fn the_catalog_cause_and_its_figures_stand_beside_the_row_it_names() {
        // Every experiment with a gap entry: a row of its variant, the slower side 3x behind.
        for spec in &catalog().experiments {
            for g in &spec.gaps {
                let metric = g.metrics.first().unwrap_or(&spec.metrics[0]).clone();
                let better = catalog().metric(&metric).unwrap().better;
                if better == Better::Neither {
                    continue;
                }
                let params: Vec<String> = g
                    .params
                    .iter()
                    .map(|(k, v)| format!("\"{k}\":\"{v}\""))
                    .collect();
                let params = params.join(",");
                // Figures of a rate are higher when faster; of a time, lower.
                let (slow, fast) = match better {
                    Better::Higher => (1.0, 3.0),
                    _ => (3.0, 1.0),
                };
                let variant = |l: sympathy_harness::catalog::Language| {
                    catalog()
                        .experiment(&spec.name)
                        .and_then(|e| e.variant(&g.variant))
                        .map_or(g.variant.clone(), |v| v.name_in(l).to_string())
                };
                let lines: Vec<String> = [1, 2]
                    .iter()
                    .flat_map(|&round| {
                        let wobble = 1.0 + f64::from(round) / 100.0;
                        [
                            result(
                                &spec.name,
                                g.slower.name(),
                                &variant(g.slower),
                                &params,
                                &metric,
                                slow * wobble,
                                round,
                            ),
                            result(
                                &spec.name,
                                g.than.name(),
                                &variant(g.than),
                                &params,
                                &metric,
                                fast,
                                round,
                            ),
                        ]
                    })
                    .collect();
                let t = tables(&lines);
                let found = gaps(&t.experiments[0]);
                let explained = found
                    .iter()
                    .find(|f| f.cause.is_some_and(|c| std::ptr::eq(c, g)))
                    .unwrap_or_else(|| {
                        panic!(
                            "{} {}: no line with its cause: {found:?}",
                            spec.name, g.variant
                        )
                    });
                let line = explained.line(&spec.name);
                assert!(line.contains(trim(&g.cause)), "{line}");
                assert!(line.contains("Evidence: "), "{line}");
                for e in &g.evidence {
                    assert!(line.contains(&evidence_text(e)), "{line}");
                }
            }
        }
    }
}
