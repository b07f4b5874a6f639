//! The back-pressure view: latency against offered load, one row per variant, language and
//! load, gathered from the experiment's separate metric results (`latency_p50_ns`,
//! `latency_p99_ns`, `latency_max_ns`, `completed`, `rejected`, each per `params.load`).

use std::collections::BTreeMap;

use crate::merge::Merged;
use crate::table::LANGUAGES;
use sympathy_harness::format;

/// The experiment this view is for.
pub(crate) const EXPERIMENT: &str = "back-pressure";

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

/// Every back-pressure point of `merged`, ordered by variant (as first seen), language
/// ([`LANGUAGES`] order) and load. Results without a numeric `params.load` are left out.
pub(crate) fn load_points(merged: &Merged) -> Vec<LoadPoint> {
    let mut variants: Vec<&str> = Vec::new();
    let mut points: Vec<LoadPoint> = Vec::new();
    for r in merged.results.iter().filter(|r| r.experiment == EXPERIMENT) {
        let Some(load_text) = r.params.get("load") else {
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
        let points = load_points(&merged);
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
}
