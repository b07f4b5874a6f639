//! Placeholder of the report-model API: one finding per experiment.

use crate::table::Tables;

/// One experiment's headline, its numbers and the seed's claim.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Experiment name.
    pub experiment: String,
    /// What the data says, in words.
    pub headline: String,
    /// The figures behind it.
    pub numbers: String,
    /// The seed's claim, when it made one.
    pub seed: Option<String>,
}

/// Placeholder: one finding per experiment naming how many metrics it measured.
pub fn findings(tables: &Tables) -> Vec<Finding> {
    tables
        .experiments
        .iter()
        .map(|e| Finding {
            experiment: e.experiment.clone(),
            headline: format!("{} metrics measured", e.metrics.len()),
            numbers: String::new(),
            seed: None,
        })
        .collect()
}
