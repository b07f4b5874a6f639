//! [`Case`]: one result group an experiment will measure, with the params its results carry.
//!
//! An experiment's `cases` builds every case once, from the catalog at the chosen preset and
//! the flags' overrides; the run measures those cases and reports them through
//! [`Case::measurement`], and `--plan` prints them through [`Case::plan_line`]. The plan and
//! the results therefore come from the same params.

use serde_json::{Map, Value, json};
use sympathy_harness::{Check, Measurement, Metric, Stats};

/// One result group: a variant in one kernel language with one combination of params, and the
/// typed `work` the experiment needs to measure it.
///
/// ```ignore
/// let case = Case::new(records, "boxed", "rust").param("records", records);
/// reporter.result(case.measurement("struct-table").stats(Metric::InitMs, stats))?;
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Case<W> {
    /// What the experiment measures for this case (its own typed description).
    pub work: W,
    /// The variant's name in results (the catalog's name).
    pub variant: &'static str,
    /// The kernel language in results: `rust` or `c`.
    pub language: &'static str,
    /// The params every result of the case carries (the runner params of `common.toml`, such
    /// as `cores` or `preset`, aside: a run adds those to its results itself).
    pub params: Map<String, Value>,
}

impl<W> Case<W> {
    /// A case with no params yet.
    pub fn new(work: W, variant: &'static str, language: &'static str) -> Case<W> {
        Case {
            work,
            variant,
            language,
            params: Map::new(),
        }
    }

    /// A case whose params are those of the lab's own description of it as a result
    /// (`measurement`), the runner params of `common.toml` left out (a run adds those itself):
    /// for the experiments whose lab module builds its cases (ipc, messaging, bridge).
    pub fn from_measurement(
        work: W,
        variant: &'static str,
        language: &'static str,
        measurement: Measurement,
    ) -> Case<W> {
        let runner = &sympathy_harness::catalog::catalog().common.runner_params;
        let params = measurement
            .params
            .into_iter()
            .filter(|(k, _)| !runner.contains(k));
        params.fold(Case::new(work, variant, language), |case, (key, value)| {
            case.param(&key, value)
        })
    }

    /// Adds a result param.
    pub fn param(mut self, key: &str, value: impl Into<Value>) -> Case<W> {
        self.params.insert(key.to_string(), value.into());
        self
    }

    /// A result of this case: its experiment, variant, language and params (add the metric,
    /// the stats, the check and any runner params).
    pub fn measurement(&self, experiment: &str) -> Measurement {
        self.params.iter().fold(
            Measurement::new(experiment, self.variant).language(self.language),
            |m, (key, value)| m.param(key, value.clone()),
        )
    }

    /// A verified result of this case: [`Case::measurement`] with the metric, its stats and
    /// `check` ok.
    pub fn result(&self, experiment: &str, metric: Metric, stats: Stats) -> Measurement {
        self.measurement(experiment)
            .stats(metric, stats)
            .check(Check::Ok)
    }

    /// The plan line of this case (one JSON object, `"kind":"plan"`), as `--plan` prints it.
    pub fn plan_line(&self, experiment: &str) -> Value {
        json!({
            "kind": "plan",
            "experiment": experiment,
            "language": self.language,
            "variant": self.variant,
            "params": self.params,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_and_the_results_carry_the_same_params() {
        let case = Case::new((), "linear", "rust")
            .param("size_bytes", 4_u64 << 20)
            .param("memory", "off-heap");
        let line = case.plan_line("memory-walk");
        assert_eq!(
            line.to_string(),
            r#"{"kind":"plan","experiment":"memory-walk","language":"rust","variant":"linear","params":{"size_bytes":4194304,"memory":"off-heap"}}"#
        );
        let m = case.measurement("memory-walk");
        assert_eq!(
            (m.variant.as_str(), m.language.as_str()),
            ("linear", "rust")
        );
        assert_eq!(m.params, case.params);
    }
}
