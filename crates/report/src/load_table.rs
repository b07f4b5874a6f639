//! The latency-against-load view of an experiment swept over offered load (one whose catalog
//! entry has a `load` param, as back-pressure's): one row per variant, language and load,
//! gathered from the experiment's separate metric results (`latency_p50_ns`,
//! `latency_p99_ns`, `latency_max_ns`, `completed`, `rejected`, each per `params.load`).

use std::collections::BTreeMap;

use crate::merge::Merged;
use crate::table::LANGUAGES;
use sympathy_harness::format;

/// The catalog param an experiment sweeps over offered load with: an experiment that has it
/// gets this view.
pub(crate) const LOAD_PARAM: &str = "load";

/// Whether `experiment` is swept over offered load (its catalog entry has a [`LOAD_PARAM`]).
pub(crate) fn has_load_view(experiment: &str) -> bool {
    sympathy_harness::catalog::catalog()
        .param(experiment, LOAD_PARAM)
        .is_some()
}

/// The metrics of one variant, language and load.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LoadPoint {
    /// `unbounded`, `bounded`.
    pub variant: String,
    /// `rust`, `java`, ...
    pub language: String,
    /// Offered load, a fraction of capacity.
    pub load: f64,
    /// `params.load` as written.
    pub load_text: String,
    /// `params.arrival_per_sec` (`""` when absent).
    pub arrival_per_sec: String,
    /// `params.queue_len` (`""` for the unbounded queue).
    pub queue_len: String,
    /// Each metric's values, one per round.
    pub metrics: BTreeMap<String, Vec<f64>>,
}

impl LoadPoint {
    /// The median of `metric` over the rounds, if reported.
    pub fn metric(&self, metric: &str) -> Option<f64> {
        self.metrics
            .get(metric)
            .and_then(|v| crate::table::median(v))
    }
}

/// Every point of `experiment` in `merged`, ordered by variant (as first seen), language
/// ([`LANGUAGES`] order) and load. Results without a numeric `params.load` are left out.
pub(crate) fn load_points(merged: &Merged, experiment: &str) -> Vec<LoadPoint> {
    let mut variants: Vec<&str> = Vec::new();
    let mut points: Vec<LoadPoint> = Vec::new();
    for r in merged.results.iter().filter(|r| r.experiment == experiment) {
        let Some(load_text) = r.params.get(LOAD_PARAM) else {
            continue;
        };
        let Ok(load) = load_text.parse::<f64>() else {
            continue;
        };
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
        let i = match points.iter().position(|p| {
            p.variant == r.variant && p.language == r.language && p.load_text == *load_text
        }) {
            Some(i) => i,
            None => {
                let param = |k: &str| r.params.get(k).cloned().unwrap_or_default();
                points.push(LoadPoint {
                    variant: r.variant.clone(),
                    language: r.language.clone(),
                    load,
                    load_text: load_text.clone(),
                    arrival_per_sec: param("arrival_per_sec"),
                    queue_len: param("queue_len"),
                    metrics: BTreeMap::new(),
                });
                points.len() - 1
            }
        };
        points[i]
            .metrics
            .entry(r.metric.clone())
            .or_default()
            .push(r.value);
    }
    let language_rank = |l: &str| {
        LANGUAGES
            .iter()
            .position(|x| *x == l)
            .unwrap_or(LANGUAGES.len())
    };
    points.sort_by(|a, b| {
        let va = variants.iter().position(|v| *v == a.variant);
        let vb = variants.iter().position(|v| *v == b.variant);
        va.cmp(&vb)
            .then(language_rank(&a.language).cmp(&language_rank(&b.language)))
            .then(a.load.total_cmp(&b.load))
    });
    points
}

/// Headers of [`texts`].
pub(crate) const HEADERS: [&str; 10] = [
    "variant",
    "language",
    "load",
    "arrival/s",
    "queue_len",
    "p50",
    "p99",
    "max",
    "completed",
    "rejected",
];

/// The rows of the table as text (`-` for a metric not reported).
pub(crate) fn texts(points: &[LoadPoint]) -> Vec<[String; 10]> {
    points
        .iter()
        .map(|p| {
            let us = |m: &str| {
                p.metric(m)
                    .map(|ns| format::quantity(ns, "ns"))
                    .unwrap_or_else(|| "-".into())
            };
            let count = |m: &str| p.metric(m).map(format::count).unwrap_or_else(|| "-".into());
            let or_dash = |s: &str| {
                if s.is_empty() {
                    "-".into()
                } else {
                    s.to_string()
                }
            };
            [
                p.variant.clone(),
                p.language.clone(),
                p.load_text.clone(),
                or_dash(&p.arrival_per_sec),
                or_dash(&p.queue_len),
                us("latency_p50_ns"),
                us("latency_p99_ns"),
                us("latency_max_ns"),
                count("completed"),
                count("rejected"),
            ]
        })
        .collect()
}

/// A p99 that grows more than this many times from the lowest load to the highest is said to
/// grow with the load; otherwise it is said to stay within that factor.
const GROWS: f64 = 10.0;

/// The caption of the latency-vs-load view, made from `points`: per variant and language, the
/// p99 at the lowest and the highest load offered, whether it grew with the load, and the share
/// of requests rejected at the highest load. `None` without points.
pub(crate) fn caption(points: &[LoadPoint]) -> Option<String> {
    let mut series: Vec<(&str, &str)> = Vec::new();
    for p in points {
        if !series.contains(&(p.variant.as_str(), p.language.as_str())) {
            series.push((&p.variant, &p.language));
        }
    }
    let sentences: Vec<String> = series
        .iter()
        .filter_map(|(variant, language)| {
            let mine: Vec<&LoadPoint> = points
                .iter()
                .filter(|p| p.variant == *variant && p.language == *language)
                .collect();
            let low = mine
                .iter()
                .copied()
                .min_by(|a, b| a.load.total_cmp(&b.load))?;
            let high = mine
                .iter()
                .copied()
                .max_by(|a, b| a.load.total_cmp(&b.load))?;
            let (p99_low, p99_high) = (
                low.metric("latency_p99_ns")?,
                high.metric("latency_p99_ns")?,
            );
            let growth = p99_high / p99_low;
            let trend = if low.load == high.load {
                String::new()
            } else if growth > GROWS {
                format!(", growing {}x with the load", format::ratio_figure(growth))
            } else {
                format!(
                    ", within {}x of it",
                    format::ratio_figure(growth.max(1.0 / growth))
                )
            };
            let rejected = match (high.metric("rejected"), high.metric("completed")) {
                (Some(r), Some(c)) if r > 0.0 => {
                    format!(
                        "; it rejected {:.0}% of the requests there",
                        100.0 * r / (r + c)
                    )
                }
                _ => String::new(),
            };
            Some(format!(
                "{variant} ({}): p99 {} at load {}, {} at load {}{trend}{rejected}",
                crate::table::language_title(language),
                format::quantity(p99_low, "ns"),
                low.load_text,
                format::quantity(p99_high, "ns"),
                high.load_text,
            ))
        })
        .collect();
    (!sentences.is_empty()).then(|| {
        format!(
            "Each row is one variant and language at one offered load (fraction of capacity), \
             medians over the rounds. As measured: {}.",
            sentences.join(". ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_jsonl;

    fn line(lang: &str, variant: &str, load: &str, metric: &str, value: f64) -> String {
        format!(
            r#"{{"kind":"result","experiment":"back-pressure","language":"{lang}","variant":"{variant}","params":{{"load":"{load}","arrival_per_sec":1}},"metric":"{metric}","value":{value},"unit":"ns","check":"ok"}}"#
        )
    }

    #[test]
    fn points_gather_metrics_and_sort_by_variant_language_load() {
        let text = [
            line("java", "unbounded", "1.5", "latency_p99_ns", 9e6),
            line("rust", "unbounded", "1.5", "latency_p99_ns", 8e6),
            line("rust", "unbounded", "0.5", "latency_p99_ns", 10_500.0),
            line("rust", "unbounded", "0.5", "rejected", 0.0),
            line("rust", "bounded", "0.5", "latency_p99_ns", 10_400.0),
            line("rust", "unbounded", "fast", "latency_p99_ns", 1.0),
        ]
        .join("\n");
        let merged = Merged::from_streams([parse_jsonl("t", &text).unwrap()]);
        let points = load_points(&merged, "back-pressure");
        let order: Vec<(&str, &str, &str)> = points
            .iter()
            .map(|p| {
                (
                    p.variant.as_str(),
                    p.language.as_str(),
                    p.load_text.as_str(),
                )
            })
            .collect();
        assert_eq!(
            order,
            [
                ("unbounded", "rust", "0.5"),
                ("unbounded", "rust", "1.5"),
                ("unbounded", "java", "1.5"),
                ("bounded", "rust", "0.5"),
            ]
        );
        assert_eq!(points[0].metric("rejected"), Some(0.0));
        let rows = texts(&points);
        assert_eq!(rows[0][6], "10.5 µs");
        assert_eq!(rows[0][9], "0");
        assert_eq!(rows[1][9], "-");
        assert_eq!(rows[0][4], "-", "no queue_len for the unbounded queue");
    }

    #[test]
    fn the_caption_follows_the_data_not_the_theory() {
        let caption_of = |lines: &[String]| {
            let merged = Merged::from_streams([parse_jsonl("t", &lines.join("\n")).unwrap()]);
            caption(&load_points(&merged, "back-pressure")).unwrap()
        };
        // What the theory says: the unbounded p99 grows past capacity, the bounded one stays
        // and rejects.
        let textbook = caption_of(&[
            line("rust", "unbounded", "0.5", "latency_p99_ns", 10_000.0),
            line("rust", "unbounded", "1.5", "latency_p99_ns", 9e6),
            line("rust", "bounded", "0.5", "latency_p99_ns", 10_000.0),
            line("rust", "bounded", "1.5", "latency_p99_ns", 900_000.0),
            line("rust", "bounded", "1.5", "rejected", 330.0),
            line("rust", "bounded", "1.5", "completed", 670.0),
        ]);
        assert!(
            textbook.contains(
                "unbounded (Rust): p99 10.0 µs at load 0.5, 9.0 ms at load 1.5, growing 900x"
            ),
            "{textbook}"
        );
        assert!(
            textbook.contains("it rejected 33% of the requests"),
            "{textbook}"
        );
        // A run that contradicts it (an unbounded p99 of 4.1 ms already at load 0.5, and flat)
        // must not be captioned "about one service time below capacity".
        let contrary = caption_of(&[
            line("rust", "unbounded", "0.5", "latency_p99_ns", 4.1e6),
            line("rust", "unbounded", "1.5", "latency_p99_ns", 5e6),
        ]);
        assert!(
            contrary.contains("p99 4.1 ms at load 0.5, 5.0 ms at load 1.5, within 1.2x of it"),
            "{contrary}"
        );
        assert!(
            !contrary.contains("growing") && !contrary.contains("one service time"),
            "{contrary}"
        );
    }
}
