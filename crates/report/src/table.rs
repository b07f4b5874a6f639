//! Pairing merged results into per-experiment tables: one row per (variant, params), one cell
//! per language, per metric.

use std::collections::HashMap;

use crate::merge::{Merged, PairKey};
use crate::record::{ResultRecord, Spread};
use crate::seed_figures::{SeedFigure, figures_for};
use sympathy_harness::catalog::{Better, catalog};
use sympathy_harness::format;

/// The languages with a column, in column order.
pub const LANGUAGES: [&str; 3] = ["rust", "java", "c"];

/// One language's figure in a row.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The median.
    pub value: f64,
    /// The result it comes from.
    pub result: ResultRecord,
}

impl Cell {
    /// `64.20 (63.80..66.00)`: the median and, when known, the spread over the runs.
    pub fn text(&self) -> String {
        match self.result.spread {
            Some(s) if s.runs > 1 => format!(
                "{} ({}..{})",
                format::value(self.value),
                format::value(s.min),
                format::value(s.max)
            ),
            _ => format::value(self.value),
        }
    }
}

impl Cell {
    /// Placeholder of the report-model API: every round's result (here only the one).
    pub fn rounds(&self) -> &[ResultRecord] {
        std::slice::from_ref(&self.result)
    }

    /// Placeholder of the report-model API: min..max over the rounds' runs.
    pub fn spread(&self) -> Option<Spread> {
        self.result.spread
    }

    /// Placeholder of the report-model API: the runs spread more than 2x (max/min).
    pub fn noisy(&self) -> bool {
        self.spread()
            .is_some_and(|s| s.min > 0.0 && s.max / s.min > 2.0)
    }
}

/// Placeholder of the report-model API: per-round ratios num/den, their median and spread.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundRatio {
    /// Median of the per-round ratios.
    pub median: f64,
    /// Smallest per-round ratio.
    pub min: f64,
    /// Largest per-round ratio.
    pub max: f64,
    /// Rounds where both languages have a result.
    pub rounds: usize,
}

/// Placeholder of the report-model API: the hop probes' range over a row's results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HopRange {
    /// Smallest probe, ns.
    pub min_ns: f64,
    /// Largest probe, ns.
    pub max_ns: f64,
}

/// One row: the same work in each language.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The pairing key.
    pub key: PairKey,
    /// Cells in [`LANGUAGES`] order.
    pub cells: [Option<Cell>; 3],
    /// The seeds' figures for this row.
    pub seed: Vec<SeedFigure>,
    /// Results that had the same key and language as a cell already filled (kept out).
    pub duplicates: Vec<ResultRecord>,
}

impl Row {
    /// The cell of `language` (`rust`, `java`, `c`).
    pub fn cell(&self, language: &str) -> Option<&Cell> {
        let i = LANGUAGES.iter().position(|l| *l == language)?;
        self.cells[i].as_ref()
    }

    /// Java's median over Rust's, when both exist.
    pub fn java_over_rust(&self) -> Option<f64> {
        let rust = self.cell("rust")?.value;
        let java = self.cell("java")?.value;
        (rust != 0.0).then(|| java / rust)
    }

    /// Placeholder of the report-model API: the ratio `num`/`den` of the medians, one round.
    pub fn ratio(&self, num: &str, den: &str) -> Option<RoundRatio> {
        let (n, d) = (self.cell(num)?.value, self.cell(den)?.value);
        (d != 0.0).then(|| RoundRatio {
            median: n / d,
            min: n / d,
            max: n / d,
            rounds: 1,
        })
    }

    /// Placeholder of the report-model API: no hop probe is read yet.
    pub fn hop(&self) -> Option<HopRange> {
        None
    }

    /// Placeholder of the report-model API: no hop probe is read yet.
    pub fn drifted(&self) -> bool {
        false
    }

    /// The seed figures as text: `50.00 java (Intel ...)`, several joined by `; `.
    pub fn seed_text(&self) -> String {
        self.seed
            .iter()
            .map(|f| {
                let f = f.figure;
                format!("{} {} ({})", format::value(f.value), f.language, f.hardware)
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The rows of one metric of one experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricTable {
    /// Metric name.
    pub metric: String,
    /// Unit of the values: the catalog's (`common.toml`), else the first result's.
    pub unit: String,
    /// Which way is better (the catalog's `better`; lower for a metric it lacks).
    pub better: Better,
    /// Rows in the order their first result appeared.
    pub rows: Vec<Row>,
}

/// Every metric table of one experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct ExperimentTable {
    /// Experiment name.
    pub experiment: String,
    /// One table per metric, in the order the metrics first appeared.
    pub metrics: Vec<MetricTable>,
}

/// The paired view of a merged set of results.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tables {
    /// One entry per experiment, in the order the experiments first appeared.
    pub experiments: Vec<ExperimentTable>,
    /// Results of a language without a column (neither `rust`, `java` nor `c`).
    pub unplaced: Vec<ResultRecord>,
}

impl Tables {
    /// Pairs the results of `merged`.
    pub fn build(merged: &Merged) -> Tables {
        let mut tables = Tables::default();
        // (experiment index, metric index, row index) of every key seen.
        let mut rows: HashMap<PairKey, (usize, usize, usize)> = HashMap::new();
        for result in &merged.results {
            let Some(lang) = LANGUAGES.iter().position(|l| *l == result.language) else {
                tables.unplaced.push(result.clone());
                continue;
            };
            let key = PairKey::of(result);
            let (e, m, r) = match rows.get(&key) {
                Some(&place) => place,
                None => {
                    let place = tables.new_row(&key, result);
                    rows.insert(key, place);
                    place
                }
            };
            let row = &mut tables.experiments[e].metrics[m].rows[r];
            match &row.cells[lang] {
                Some(_) => row.duplicates.push(result.clone()),
                None => {
                    row.cells[lang] = Some(Cell {
                        value: result.value,
                        result: result.clone(),
                    })
                }
            }
        }
        tables
    }

    fn new_row(&mut self, key: &PairKey, result: &ResultRecord) -> (usize, usize, usize) {
        let e = match self
            .experiments
            .iter()
            .position(|t| t.experiment == key.experiment)
        {
            Some(e) => e,
            None => {
                self.experiments.push(ExperimentTable {
                    experiment: key.experiment.clone(),
                    metrics: Vec::new(),
                });
                self.experiments.len() - 1
            }
        };
        let metrics = &mut self.experiments[e].metrics;
        let m = match metrics.iter().position(|t| t.metric == key.metric) {
            Some(m) => m,
            None => {
                let spec = catalog().metric(&key.metric);
                metrics.push(MetricTable {
                    metric: key.metric.clone(),
                    unit: spec.map_or_else(|| result.unit.clone(), |m| m.unit.clone()),
                    better: spec.map_or(Better::Lower, |m| m.better),
                    rows: Vec::new(),
                });
                metrics.len() - 1
            }
        };
        let rows = &mut metrics[m].rows;
        rows.push(Row {
            key: key.clone(),
            cells: [None, None, None],
            seed: figures_for(&key.experiment, &key.variant, &key.metric, &key.params),
            duplicates: Vec::new(),
        });
        (e, m, rows.len() - 1)
    }

    /// Every duplicate result (same key and language as an earlier one), for warnings.
    pub fn duplicates(&self) -> impl Iterator<Item = &ResultRecord> {
        self.experiments
            .iter()
            .flat_map(|e| &e.metrics)
            .flat_map(|m| &m.rows)
            .flat_map(|r| &r.duplicates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_jsonl;

    fn line(lang: &str, variant: &str, metric: &str, value: f64) -> String {
        format!(
            r#"{{"kind":"result","experiment":"ping-pong","language":"{lang}","variant":"{variant}","params":{{"cores":"0,1"}},"metric":"{metric}","value":{value},"unit":"ns","check":"ok"}}"#
        )
    }

    fn tables(lines: &[String]) -> Tables {
        Tables::build(&Merged::from_streams([
            parse_jsonl("t", &lines.join("\n")).unwrap()
        ]))
    }

    #[test]
    fn same_work_in_two_languages_shares_a_row() {
        let t = tables(&[
            line("rust", "xadd", "ns_per_hop", 64.0),
            line("java", "xadd", "ns_per_hop", 96.0),
            line("c", "xadd", "ns_per_hop", 63.0),
        ]);
        let rows = &t.experiments[0].metrics[0].rows;
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].java_over_rust(), Some(1.5));
        assert_eq!(rows[0].cell("c").unwrap().value, 63.0);
        assert_eq!(
            rows[0].seed.len(),
            1,
            "the seed's C++ figure applies to xadd"
        );
    }

    #[test]
    fn metrics_get_their_own_tables_and_variants_their_own_rows() {
        let t = tables(&[
            line("rust", "xadd", "ns_per_hop", 64.0),
            line("rust", "xadd", "hops_per_sec", 1.5e7),
            line("java", "volatile", "ns_per_hop", 70.0),
        ]);
        let metrics = &t.experiments[0].metrics;
        assert_eq!(metrics.len(), 2);
        assert_eq!(metrics[0].rows.len(), 2);
        assert_eq!(metrics[1].better, Better::Higher);
        let share = tables(&[line("rust", "xadd", "thread_share", 0.5)]);
        let share = &share.experiments[0].metrics[0];
        assert_eq!(share.better, Better::Neither);
        assert_eq!(crate::render::metric_title(share), "thread_share (ratio)");
        assert_eq!(metrics[0].rows[1].java_over_rust(), None);
    }

    #[test]
    fn a_second_result_for_a_cell_is_kept_as_duplicate() {
        let t = tables(&[
            line("rust", "xadd", "ns_per_hop", 64.0),
            line("rust", "xadd", "ns_per_hop", 99.0),
        ]);
        let row = &t.experiments[0].metrics[0].rows[0];
        assert_eq!(row.cell("rust").unwrap().value, 64.0);
        assert_eq!(t.duplicates().count(), 1);
    }

    #[test]
    fn unknown_language_is_not_placed() {
        let t = tables(&[line("go", "xadd", "ns_per_hop", 64.0)]);
        assert!(t.experiments.is_empty());
        assert_eq!(t.unplaced.len(), 1);
    }
}
