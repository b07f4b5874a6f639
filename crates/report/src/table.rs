//! Pairing merged results into per-experiment tables: one row per (variant, params), one cell
//! per language, per metric; a cell holds every round of its language.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::merge::{Merged, PairKey};
use crate::record::{ResultRecord, Spread};
use crate::seed_figures::{SeedFigure, figures_for};
use crate::stats::RatioInterval;
use sympathy_harness::catalog::{Better, catalog};
use sympathy_harness::format;

/// The languages with a column, in column order.
pub const LANGUAGES: [&str; 3] = ["rust", "java", "c"];

/// The ratios the report gives, as (numerator, denominator): Java against Rust, Rust against
/// the C reference.
pub const COMPARED: [(&str, &str); 2] = [("java", "rust"), ("rust", "c")];

/// `Rust`, `Java`, `C`: a language as the report titles it (`?` for one without a column).
pub fn language_title(language: &str) -> &'static str {
    match language {
        "rust" => "Rust",
        "java" => "Java",
        "c" => "C",
        _ => "?",
    }
}

/// A row drifted when some result's hop probe moved more than this, in percent, between
/// right before and right after its run ([`crate::Conditions::drift_percent`]).
pub const DRIFT_LIMIT_PERCENT: f64 = 25.0;

/// Hops of two pairs more than this factor apart belong to two phases of the machine (the
/// 2-vCPU VMs here move between ~30, ~65 and ~300 ns).
pub const PHASE_STEP: f64 = 1.5;

/// A cell is noisy when its largest run is more than this many times its smallest.
pub const NOISY_SPREAD: f64 = 2.0;

/// The median of `values` (the mean of the middle two for an even count); `None` when empty.
///
/// ```
/// assert_eq!(sympathy_report::median(&[3.0, 1.0, 2.0]), Some(2.0));
/// assert_eq!(sympathy_report::median(&[4.0, 1.0]), Some(2.5));
/// ```
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// One language's figure in a row: every round's result of that language.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The median of the rounds' values.
    pub value: f64,
    /// The results, one per round, sorted by round.
    rounds: Vec<ResultRecord>,
}

impl Cell {
    /// A cell of one result.
    fn new(result: ResultRecord) -> Cell {
        Cell {
            value: result.value,
            rounds: vec![result],
        }
    }

    /// Adds the result of another round.
    fn add(&mut self, result: ResultRecord) {
        self.rounds.push(result);
        self.rounds.sort_by_key(|r| r.conditions.round());
        let values: Vec<f64> = self.rounds.iter().map(|r| r.value).collect();
        self.value = median(&values).unwrap_or(self.value);
    }

    /// Whether a result of `round` is in the cell.
    fn has_round(&self, round: u32) -> bool {
        self.rounds.iter().any(|r| r.conditions.round() == round)
    }

    /// The results, one per round, sorted by round.
    pub fn rounds(&self) -> &[ResultRecord] {
        &self.rounds
    }

    /// The value of `round`, when the cell has it.
    pub fn round_value(&self, round: u32) -> Option<f64> {
        self.rounds
            .iter()
            .find(|r| r.conditions.round() == round)
            .map(|r| r.value)
    }

    /// The smallest and largest run over every round (a round without `stats` counts as one
    /// run of its value), runs summed; `None` for a single result without `stats`.
    pub fn spread(&self) -> Option<Spread> {
        if self.rounds.len() == 1 && self.rounds[0].spread.is_none() {
            return None;
        }
        let spreads = self.rounds.iter().map(|r| {
            r.spread.unwrap_or(Spread {
                runs: 1,
                min: r.value,
                max: r.value,
                first: None,
            })
        });
        spreads.reduce(|a, b| Spread {
            runs: a.runs + b.runs,
            min: a.min.min(b.min),
            max: a.max.max(b.max),
            first: None,
        })
    }

    /// Whether the runs spread more than [`NOISY_SPREAD`] times (largest over smallest).
    pub fn noisy(&self) -> bool {
        self.spread()
            .is_some_and(|s| s.min > 0.0 && s.max / s.min > NOISY_SPREAD)
    }

    /// How many times the cell's results were run again before they were kept.
    pub fn retries(&self) -> u32 {
        self.rounds
            .iter()
            .map(|r| r.conditions.retries.unwrap_or(0))
            .sum()
    }

    /// The first measured iteration (`stats.first`, Java's), the median over the rounds that
    /// give one: beside the cell's median it shows warm-up left in the measurement.
    pub fn first(&self) -> Option<f64> {
        let firsts: Vec<f64> = self
            .rounds
            .iter()
            .filter_map(|r| r.spread.and_then(|s| s.first))
            .collect();
        median(&firsts)
    }

    /// `64.2 ns (63.8..66.0)`: the median in `unit` and, when known, the spread over the runs;
    /// `, first 90.1 ns` inside the brackets where the results give their first iteration.
    pub fn text(&self, unit: &str) -> String {
        let text = match self.spread() {
            Some(s) if s.runs > 1 => format::quantity_spread(self.value, s.min, s.max, unit),
            _ => format::quantity(self.value, unit),
        };
        match self.first() {
            Some(first) => {
                let first = format!("first {}", format::quantity(first, unit));
                match text.strip_suffix(')') {
                    Some(open) => format!("{open}, {first})"),
                    None => format!("{text} ({first})"),
                }
            }
            None => text,
        }
    }
}

/// The per-round ratios `num / den` of two cells with their round: one per round both have a
/// figure in (a pair), in round order, rounds whose denominator is 0 left out.
pub fn round_ratios(num: &Cell, den: &Cell) -> Vec<(u32, f64)> {
    num.rounds()
        .iter()
        .filter_map(|n| {
            let round = n.conditions.round();
            let d = den.round_value(round)?;
            (d != 0.0).then(|| (round, n.value / d))
        })
        .collect()
}

/// [`round_ratios`] without their rounds.
pub fn pair_ratios(num: &Cell, den: &Cell) -> Vec<f64> {
    round_ratios(num, den).into_iter().map(|(_, r)| r).collect()
}

/// Compile time in one measured iteration from which a row is marked (as the JMH runner warns
/// from: `Main.JIT_WARN_MS`).
pub const JIT_MARK_MS: f64 = 5.0;

/// The one-way hop between two cores over every probe of a row's results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HopRange {
    /// The fastest probe, in ns.
    pub min_ns: f64,
    /// The slowest probe, in ns.
    pub max_ns: f64,
}

/// One row: the same work in each language.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The pairing key.
    pub key: PairKey,
    /// Which result of its key the row holds: 1 for the first, 2 for a second result of the
    /// same key, language and round (a duplicate, shown in a row of its own), ...
    pub occurrence: usize,
    /// Cells in [`LANGUAGES`] order.
    pub cells: [Option<Cell>; 3],
    /// The seeds' figures for this row.
    pub seed: Vec<SeedFigure>,
}

impl Row {
    /// The cell of `language` (`rust`, `java`, `c`).
    pub fn cell(&self, language: &str) -> Option<&Cell> {
        let i = LANGUAGES.iter().position(|l| *l == language)?;
        self.cells[i].as_ref()
    }

    /// The present cells with their language.
    pub fn present_cells(&self) -> impl Iterator<Item = (&'static str, &Cell)> {
        LANGUAGES
            .iter()
            .zip(&self.cells)
            .filter_map(|(l, c)| Some((*l, c.as_ref()?)))
    }

    /// `num`'s figure over `den`'s from the rounds both ran in, with its 95% interval
    /// ([`RatioInterval::of_pairs`] of [`pair_ratios`]); `None` when they share no round, or
    /// when the two did not do the same work ([`Row::parity_conflict`]).
    pub fn ratio(&self, num: &str, den: &str) -> Option<RatioInterval> {
        if self.parity_conflict(num, den).is_some() {
            return None;
        }
        RatioInterval::of_pairs(&pair_ratios(self.cell(num)?, self.cell(den)?))
    }

    /// Why `num`'s and `den`'s results of this row may not be paired, when they may not: a
    /// parity fact the experiment's catalog entry lists ([`Catalog::parity`]) that one side
    /// does not report, or that the two report with different values (every round of each
    /// side counts). `None` when both cells share every listed fact, when neither reports a
    /// fact (results written before parity facts existed), or when one cell is missing.
    ///
    /// [`Catalog::parity`]: sympathy_harness::catalog::Catalog::parity
    pub fn parity_conflict(&self, num: &str, den: &str) -> Option<String> {
        let (n, d) = (self.cell(num)?, self.cell(den)?);
        let mut reasons = Vec::new();
        for fact in catalog().parity(&self.key.experiment) {
            fn values<'c>(cell: &'c Cell, fact: &str) -> Vec<Option<&'c str>> {
                let mut v: Vec<Option<&str>> = cell
                    .rounds()
                    .iter()
                    .map(|r| r.parity.get(fact).map(String::as_str))
                    .collect();
                v.sort();
                v.dedup();
                v
            }
            let (nv, dv) = (values(n, fact), values(d, fact));
            if nv == [None] && dv == [None] {
                continue; // results written before parity facts: nothing to compare
            }
            let missing = [(num, &nv), (den, &dv)]
                .into_iter()
                .find(|(_, v)| v.contains(&None));
            if let Some((language, _)) = missing {
                reasons.push(format!(
                    "{} does not report `{fact}`",
                    language_title(language)
                ));
                continue;
            }
            if nv.len() > 1 || dv.len() > 1 || nv != dv {
                let shown = |v: &[Option<&str>]| {
                    v.iter()
                        .flatten()
                        .copied()
                        .collect::<Vec<_>>()
                        .join(" and ")
                };
                reasons.push(format!(
                    "{fact} {} in {}, {} in {}",
                    shown(&nv),
                    language_title(num),
                    shown(&dv),
                    language_title(den)
                ));
            }
        }
        (!reasons.is_empty()).then(|| reasons.join("; "))
    }

    /// Java's figure over Rust's (the geometric mean of the per-round ratios), when both ran
    /// in a common round.
    pub fn java_over_rust(&self) -> Option<f64> {
        self.ratio("java", "rust").map(|r| r.estimate)
    }

    /// The language pairs the report compares in this row, as (subject, other): Java against
    /// Rust and Rust against C, those that have a ratio.
    pub fn compared_pairs(
        &self,
    ) -> impl Iterator<Item = (&'static str, &'static str, RatioInterval)> {
        COMPARED
            .into_iter()
            .filter_map(|(num, den)| Some((num, den, self.ratio(num, den)?)))
    }

    /// The row's ratio `num / den` per phase of the machine, when its pairs fell into more than
    /// one (a [hop-dependent](Row::hop_dependent) row only): the pairs grouped by the hop probed
    /// around them, a new phase wherever the sorted hops jump by more than [`PHASE_STEP`], each
    /// phase as (its median hop in ns, its ratio). `None` with one phase: the row's ratio is
    /// then the whole story; with several, a ratio over all pairs would average two machines.
    pub fn phase_ratios(&self, num: &str, den: &str) -> Option<Vec<(f64, RatioInterval)>> {
        if !self.hop_dependent() {
            return None;
        }
        let (n, d) = (self.cell(num)?, self.cell(den)?);
        let mut pairs: Vec<(f64, f64)> = n
            .rounds()
            .iter()
            .filter_map(|a| {
                let round = a.conditions.round();
                let b = d.rounds().iter().find(|b| b.conditions.round() == round)?;
                let probes: Vec<f64> = [a, b]
                    .iter()
                    .flat_map(|r| [r.conditions.hop_ns_before, r.conditions.hop_ns_after])
                    .flatten()
                    .collect();
                let hop = median(&probes)?;
                (b.value != 0.0).then(|| (hop, a.value / b.value))
            })
            .collect();
        pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut phases: Vec<Vec<(f64, f64)>> = Vec::new();
        for pair in pairs {
            match phases.last_mut() {
                Some(phase) if pair.0 <= phase.last()?.0 * PHASE_STEP => phase.push(pair),
                _ => phases.push(vec![pair]),
            }
        }
        (phases.len() > 1).then(|| {
            phases
                .iter()
                .filter_map(|phase| {
                    let hops: Vec<f64> = phase.iter().map(|p| p.0).collect();
                    let ratios: Vec<f64> = phase.iter().map(|p| p.1).collect();
                    Some((median(&hops)?, RatioInterval::of_pairs(&ratios)?))
                })
                .collect()
        })
    }

    /// Whether more rounds could settle one of the row's ratios: some ratio is inconclusive
    /// with fewer pairs than [`crate::stats::ENOUGH_PAIRS`]. Tail metrics (p99.9, max), which
    /// mostly measure the machine, and metrics without a better direction never ask.
    pub fn needs_more_rounds(&self) -> bool {
        let tail = self.key.metric.contains("p999") || self.key.metric.contains("max");
        !tail && self.ranks() && self.compared_pairs().any(|(_, _, r)| r.wants_more_pairs())
    }

    /// Whether the row's metric has a better direction, so its ratios can have a verdict (a
    /// share such as `thread_share` describes, it does not rank; a metric the catalog lacks
    /// counts as ranking).
    pub fn ranks(&self) -> bool {
        catalog()
            .metric(&self.key.metric)
            .is_none_or(|m| m.better != Better::Neither)
    }

    /// The range of the hop probes of every result in the row (`None` without probes, or
    /// when the row is not [hop-dependent](Row::hop_dependent)).
    pub fn hop(&self) -> Option<HopRange> {
        if !self.hop_dependent() {
            return None;
        }
        let probes = self
            .present_cells()
            .flat_map(|(_, c)| c.rounds())
            .flat_map(|r| [r.conditions.hop_ns_before, r.conditions.hop_ns_after])
            .flatten();
        probes.fold(None, |range, ns| {
            Some(match range {
                None => HopRange {
                    min_ns: ns,
                    max_ns: ns,
                },
                Some(h) => HopRange {
                    min_ns: h.min_ns.min(ns),
                    max_ns: h.max_ns.max(ns),
                },
            })
        })
    }

    /// Whether the experiment's figures move with the cross-core hop (its catalog entry's
    /// `hop_dependent`): only then do the hop and drift concern the row.
    pub fn hop_dependent(&self) -> bool {
        catalog()
            .experiment(&self.key.experiment)
            .is_some_and(|e| e.hop_dependent)
    }

    /// Whether the row is [hop-dependent](Row::hop_dependent) and some result's hop moved more
    /// than [`DRIFT_LIMIT_PERCENT`] during its run.
    pub fn drifted(&self) -> bool {
        self.hop_dependent()
            && self.present_cells().flat_map(|(_, c)| c.rounds()).any(|r| {
                r.conditions
                    .drift_percent()
                    .is_some_and(|p| p > DRIFT_LIMIT_PERCENT)
            })
    }

    /// The most milliseconds the JIT compiled during one measured iteration of any result of
    /// the row, when that reaches [`JIT_MARK_MS`]: part of that iteration ran the interpreter's
    /// or C1's code, so its figure is slower than the compiled loop's.
    pub fn jit_compiled_ms(&self) -> Option<f64> {
        self.present_cells()
            .flat_map(|(_, c)| c.rounds())
            .filter_map(|r| r.jit_ms)
            .fold(None, |most: Option<f64>, ms| {
                Some(most.map_or(ms, |m| m.max(ms)))
            })
            .filter(|ms| *ms >= JIT_MARK_MS)
    }

    /// Whether some cell of the row is [`Cell::noisy`].
    pub fn noisy(&self) -> bool {
        self.present_cells().any(|(_, c)| c.noisy())
    }

    /// The variant as labelled in the tables, `(2nd result)` added to a duplicate's row.
    pub fn label(&self) -> String {
        let variant = crate::merge::variant_label(&self.key.experiment, &self.key.variant);
        match self.occurrence {
            1 => variant,
            n => format!("{variant} ({} result)", ordinal(n)),
        }
    }

    /// The seed figures as text: `50.0 ns java (Intel ...)`, several joined by `; `.
    pub fn seed_text(&self) -> String {
        self.seed
            .iter()
            .map(|f| {
                let f = f.figure;
                let unit = catalog().metric(&f.metric).map_or("", |m| m.unit.as_str());
                format!(
                    "{} {} ({})",
                    format::quantity(f.value, unit),
                    f.language,
                    f.hardware
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// `2nd`, `3rd`, `11th`, ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
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

impl MetricTable {
    /// Whether some row has a figure of `language`.
    pub fn has_language(&self, language: &str) -> bool {
        self.rows.iter().any(|r| r.cell(language).is_some())
    }

    /// The params every row carries with the same value (shown once, over the table).
    pub fn common_params(&self) -> std::collections::BTreeMap<String, String> {
        let Some(first) = self.rows.first() else {
            return Default::default();
        };
        first
            .key
            .params
            .iter()
            .filter(|(k, v)| self.rows.iter().all(|r| r.key.params.get(*k) == Some(v)))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// The params of `row` that are not common to the table, as `key=value` joined by spaces.
    pub fn row_params(&self, row: &Row) -> String {
        let common = self.common_params();
        row.key
            .params
            .iter()
            .filter(|(k, _)| !common.contains_key(*k))
            .map(|(k, v)| crate::merge::param_text(k, v))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Every metric table of one experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct ExperimentTable {
    /// Experiment name.
    pub experiment: String,
    /// One table per metric, in the order the metrics first appeared.
    pub metrics: Vec<MetricTable>,
}

impl ExperimentTable {
    /// The table of `metric`.
    pub fn metric(&self, metric: &str) -> Option<&MetricTable> {
        self.metrics.iter().find(|m| m.metric == metric)
    }
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
    /// Pairs the results of `merged`: a result joins the first row of its key whose cell of
    /// its language lacks its round; a second result of the same key, language and round
    /// opens a row of its own.
    pub fn build(merged: &Merged) -> Tables {
        let mut tables = Tables::default();
        // (experiment index, metric index, row indices) of every key seen.
        let mut rows: HashMap<PairKey, (usize, usize, Vec<usize>)> = HashMap::new();
        for result in &merged.results {
            let Some(lang) = LANGUAGES.iter().position(|l| *l == result.language) else {
                tables.unplaced.push(result.clone());
                continue;
            };
            let key = PairKey::of(result);
            let round = result.conditions.round();
            let (e, m, indices) = match rows.entry(key.clone()) {
                Entry::Occupied(place) => place.into_mut(),
                Entry::Vacant(place) => {
                    let (e, m) = tables.metric_table(&key, result);
                    place.insert((e, m, Vec::new()))
                }
            };
            let table = &mut tables.experiments[*e].metrics[*m];
            let free = indices.iter().copied().find(|&r| {
                table.rows[r].cells[lang]
                    .as_ref()
                    .is_none_or(|c| !c.has_round(round))
            });
            let r = match free {
                Some(r) => r,
                None => {
                    table.rows.push(Row {
                        key: key.clone(),
                        occurrence: indices.len() + 1,
                        cells: [None, None, None],
                        seed: figures_for(&key.experiment, &key.variant, &key.metric, &key.params),
                    });
                    indices.push(table.rows.len() - 1);
                    table.rows.len() - 1
                }
            };
            match &mut table.rows[r].cells[lang] {
                Some(cell) => cell.add(result.clone()),
                empty => *empty = Some(Cell::new(result.clone())),
            }
        }
        tables
    }

    /// The (experiment, metric) indices of `key`'s table, created when new.
    fn metric_table(&mut self, key: &PairKey, result: &ResultRecord) -> (usize, usize) {
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
        (e, m)
    }

    /// Every row of every table.
    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        self.experiments
            .iter()
            .flat_map(|e| &e.metrics)
            .flat_map(|m| &m.rows)
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
    fn a_second_result_of_a_round_gets_a_row_of_its_own() {
        let t = tables(&[
            line("rust", "xadd", "ns_per_hop", 64.0),
            line("java", "xadd", "ns_per_hop", 96.0),
            line("rust", "xadd", "ns_per_hop", 99.0),
        ]);
        let rows = &t.experiments[0].metrics[0].rows;
        assert_eq!(rows.len(), 2, "the duplicate is shown, not dropped");
        assert_eq!(rows[0].cell("rust").unwrap().value, 64.0);
        assert_eq!(rows[0].java_over_rust(), Some(1.5));
        assert_eq!(rows[1].cell("rust").unwrap().value, 99.0);
        assert!(rows[1].cell("java").is_none());
        assert_eq!(rows[0].label(), "xadd");
        assert_eq!(rows[1].label(), "xadd (2nd result)");
    }

    fn round_line(lang: &str, value: f64, round: u32, before: f64, after: f64) -> String {
        format!(
            r#"{{"kind":"result","experiment":"ping-pong","language":"{lang}","variant":"xadd","params":{{}},"metric":"ns_per_hop","value":{value},"unit":"ns","stats":{{"runs":2,"median":{value},"min":{value},"max":{}}},"check":"ok","conditions":{{"round":{round},"rounds":3,"hop_ns_before":{before},"hop_ns_after":{after}}}}}"#,
            value * 1.1
        )
    }

    #[test]
    fn rounds_fill_one_cell_and_the_ratio_comes_from_the_per_round_ratios() {
        // Rust 10, 20, 40; Java 30, 30, 50: per-round ratios 3, 1.5, 1.25.
        let t = tables(&[
            round_line("rust", 10.0, 1, 50.0, 52.0),
            round_line("java", 30.0, 1, 52.0, 51.0),
            round_line("java", 30.0, 2, 51.0, 50.0),
            round_line("rust", 20.0, 2, 50.0, 50.0),
            round_line("rust", 40.0, 3, 50.0, 70.0),
            round_line("java", 50.0, 3, 70.0, 60.0),
        ]);
        let rows = &t.experiments[0].metrics[0].rows;
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        let rust = row.cell("rust").unwrap();
        assert_eq!(rust.rounds().len(), 3);
        assert_eq!(rust.value, 20.0);
        assert_eq!(row.cell("java").unwrap().value, 30.0);
        let ratio = row.ratio("java", "rust").unwrap();
        assert_eq!((ratio.min, ratio.max, ratio.pairs), (1.25, 3.0, 3));
        // The geometric mean of the per-round ratios, not the ratio of the medians (1.5).
        let geometric = (3.0f64 * 1.5 * 1.25).powf(1.0 / 3.0);
        assert!((ratio.estimate - geometric).abs() < 1e-12, "{ratio:?}");
        assert!(
            ratio.low < 1.0 && ratio.high > 3.0,
            "three spread rounds: {ratio:?}"
        );
        assert_eq!(ratio.verdict(), crate::Verdict::Inconclusive);
        let spread = rust.spread().unwrap();
        assert_eq!((spread.runs, spread.min, spread.max), (6, 10.0, 44.0));
        assert!(rust.noisy(), "10 .. 44 spreads more than 2x");
        assert_eq!(
            row.hop(),
            Some(HopRange {
                min_ns: 50.0,
                max_ns: 70.0
            })
        );
        assert!(row.drifted(), "50 -> 70 ns is 40%");
    }

    #[test]
    fn the_ratio_is_not_the_ratio_of_the_medians() {
        // Rust 10, 20, 40; Java 15, 60, 44: per-round 1.5, 3, 1.1 (geometric mean 1.70);
        // medians 44/20.
        let lines: Vec<String> = [("rust", [10.0, 20.0, 40.0]), ("java", [15.0, 60.0, 44.0])]
            .iter()
            .flat_map(|(lang, values)| {
                (1..=3).map(move |r| round_line(lang, values[r as usize - 1], r, 50.0, 50.0))
            })
            .collect();
        let t = tables(&lines);
        let row = &t.experiments[0].metrics[0].rows[0];
        let medians = row.cell("java").unwrap().value / row.cell("rust").unwrap().value;
        assert_eq!(medians, 44.0 / 20.0);
        let geometric = (1.5f64 * 3.0 * 1.1).powf(1.0 / 3.0);
        assert!((row.java_over_rust().unwrap() - geometric).abs() < 1e-12);
        assert!(!row.drifted());
    }

    #[test]
    fn a_single_threaded_experiment_carries_no_hop_and_never_drifts() {
        let walk = |lang: &str, round: u32, before: f64, after: f64| {
            round_line(lang, 5.7, round, before, after)
                .replace("ping-pong", "memory-walk")
                .replace("ns_per_hop", "ns_per_op")
        };
        let t = tables(&[walk("rust", 1, 30.0, 300.0), walk("java", 1, 300.0, 30.0)]);
        let row = &t.experiments[0].metrics[0].rows[0];
        assert!(!row.hop_dependent());
        assert_eq!(
            row.hop(),
            None,
            "the hop says nothing about a walk on one core"
        );
        assert!(
            !row.drifted(),
            "a 10x move of the hop is no reason to doubt it"
        );
    }

    #[test]
    fn pairs_in_two_phases_of_the_machine_get_a_ratio_each() {
        // Rounds 1 and 3 at a ~50 ns hop (Java 2x Rust), round 2 at ~300 ns (Java 1x Rust).
        let t = tables(&[
            round_line("rust", 10.0, 1, 50.0, 52.0),
            round_line("java", 20.0, 1, 51.0, 50.0),
            round_line("rust", 30.0, 2, 300.0, 310.0),
            round_line("java", 30.0, 2, 305.0, 300.0),
            round_line("rust", 10.0, 3, 55.0, 50.0),
            round_line("java", 21.0, 3, 50.0, 52.0),
        ]);
        let row = &t.experiments[0].metrics[0].rows[0];
        let phases = row.phase_ratios("java", "rust").unwrap();
        assert_eq!(phases.len(), 2);
        assert!((phases[0].0 - 50.5).abs() < 1.0, "{phases:?}");
        assert_eq!(phases[0].1.pairs, 2);
        assert!((phases[0].1.estimate - (2.0f64 * 2.1).sqrt()).abs() < 1e-12);
        assert_eq!(phases[1].1.pairs, 1);
        assert_eq!(phases[1].1.estimate, 1.0);
        // One phase: no split.
        let calm = tables(&[
            round_line("rust", 10.0, 1, 50.0, 52.0),
            round_line("java", 20.0, 1, 51.0, 50.0),
        ]);
        assert_eq!(
            calm.experiments[0].metrics[0].rows[0].phase_ratios("java", "rust"),
            None
        );
    }

    #[test]
    fn unknown_language_is_not_placed() {
        let t = tables(&[line("go", "xadd", "ns_per_hop", 64.0)]);
        assert!(t.experiments.is_empty());
        assert_eq!(t.unplaced.len(), 1);
    }

    /// A result of `experiment`/`variant` in `lang` carrying the `parity` object `parity`.
    fn with_parity(experiment: &str, lang: &str, variant: &str, parity: &str) -> String {
        format!(
            r#"{{"kind":"result","experiment":"{experiment}","language":"{lang}","variant":"{variant}","params":{{}},"metric":"ns_per_op","value":10.0,"unit":"ns","check":"ok","parity":{parity}}}"#
        )
    }

    fn only_row(t: &Tables) -> &Row {
        let rows: Vec<&Row> = t.rows().collect();
        assert_eq!(rows.len(), 1, "one row: the two results share a key");
        rows[0]
    }

    #[test]
    fn a_pair_whose_parity_facts_match_has_a_ratio() {
        let facts = r#"{"pinned":true,"huge_pages":false}"#;
        let t = tables(&[
            with_parity("memory-walk", "rust", "linear", facts),
            with_parity("memory-walk", "java", "linear", facts),
        ]);
        let row = only_row(&t);
        assert_eq!(row.parity_conflict("java", "rust"), None);
        assert_eq!(row.java_over_rust(), Some(1.0));
    }

    #[test]
    fn a_pair_with_different_pinning_is_refused_and_says_why() {
        let t = tables(&[
            with_parity("ping-pong", "rust", "xadd", r#"{"pinned":true}"#),
            with_parity("ping-pong", "java", "xadd", r#"{"pinned":false}"#),
        ]);
        let row = only_row(&t);
        assert_eq!(
            row.parity_conflict("java", "rust").as_deref(),
            Some("pinned false in Java, true in Rust")
        );
        assert_eq!(row.ratio("java", "rust"), None);
        assert_eq!(row.compared_pairs().count(), 0);
    }

    #[test]
    fn a_pair_with_different_page_backing_is_refused() {
        let t = tables(&[
            with_parity(
                "memory-walk",
                "rust",
                "chase-heap",
                r#"{"pinned":false,"huge_pages":false}"#,
            ),
            with_parity(
                "memory-walk",
                "java",
                "chase-heap",
                r#"{"pinned":false,"huge_pages":true}"#,
            ),
        ]);
        let why = only_row(&t).parity_conflict("java", "rust").unwrap();
        assert_eq!(why, "huge_pages true in Java, false in Rust");
        assert_eq!(only_row(&t).java_over_rust(), None);
    }

    #[test]
    fn a_pair_with_a_different_working_set_or_a_missing_fact_is_refused() {
        let rust = r#"{"pinned":true,"format":"order-layout","inputs":256,"working_set_bytes":47104,"timer":"t"}"#;
        let java = r#"{"pinned":true,"format":"order-layout","inputs":1,"working_set_bytes":184}"#;
        let t = tables(&[
            with_parity("serialization", "rust", "zero-copy", rust),
            with_parity("serialization", "java", "unsafe", java),
        ]);
        let why = only_row(&t).parity_conflict("java", "rust").unwrap();
        assert!(why.contains("inputs 1 in Java, 256 in Rust"), "{why}");
        assert!(
            why.contains("working_set_bytes 184 in Java, 47104 in Rust"),
            "{why}"
        );
        assert!(why.contains("Java does not report `timer`"), "{why}");
        assert_eq!(only_row(&t).java_over_rust(), None);
    }

    #[test]
    fn facts_the_catalog_does_not_list_never_split_a_pair() {
        let t = tables(&[
            with_parity("ping-pong", "rust", "xadd", r#"{"pinned":true,"other":1}"#),
            with_parity("ping-pong", "java", "xadd", r#"{"pinned":true,"other":2}"#),
        ]);
        assert_eq!(only_row(&t).parity_conflict("java", "rust"), None);
        assert!(only_row(&t).java_over_rust().is_some());
    }

    #[test]
    fn a_row_is_marked_when_the_jit_compiled_during_a_measured_iteration() {
        let with_jit = |jit: &str| {
            format!(
                r#"{{"kind":"result","experiment":"ping-pong","language":"java","variant":"xadd","params":{{}},"metric":"ns_per_hop","value":60.0,"unit":"ns","stats":{{"runs":3,"median":60.0,"min":59.0,"max":75.0,"jit_ms":{jit}}},"check":"ok"}}"#
            )
        };
        let compiled = tables(&[with_jit("[20.0,1.0,0.0]")]);
        assert_eq!(only_row(&compiled).jit_compiled_ms(), Some(20.0));
        let quiet = tables(&[with_jit("[1.0,2.0,0.0]")]);
        assert_eq!(
            only_row(&quiet).jit_compiled_ms(),
            None,
            "below 5 ms: background"
        );
        let rust = tables(&[line("rust", "xadd", "ns_per_hop", 64.0)]);
        assert_eq!(only_row(&rust).jit_compiled_ms(), None);
    }
}
