//! The figures the seed articles published, matched to the report rows they compare with.
//!
//! The figures live in the catalog: the `[[seed_figures]]` entries of
//! `experiments/<experiment>.toml`, each with its value in our metric's unit, the hardware it
//! was measured on, a citation that starts with the article's key in `docs/seeds.md`, and how
//! it was read. A figure applies to a report row when experiment and metric are equal, the
//! variant is equal (or the figure names no variant: any variant), and the row carries every
//! one of the figure's `params`.

use std::collections::BTreeMap;

use sympathy_harness::catalog::{SeedFigureSpec, catalog};

use crate::merge::variant_label;

/// One published figure and the experiment whose catalog entry holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeedFigure {
    /// The experiment it compares with.
    pub experiment: &'static str,
    /// The figure, as the catalog states it.
    pub figure: &'static SeedFigureSpec,
}

impl SeedFigure {
    /// Whether `self` and `other` are the same catalog entry.
    pub fn is(&self, other: &SeedFigure) -> bool {
        std::ptr::eq(self.figure, other.figure)
    }

    /// The variant as the report labels its rows (`dyn-4 / mega (java)`), or `(any variant)`.
    pub fn variant_label(&self) -> String {
        match self.figure.variant.as_str() {
            "" => "(any variant)".to_string(),
            variant => variant_label(self.experiment, variant),
        }
    }

    /// The figure's params as `key=value` pairs joined by spaces (`""` when none).
    pub fn params_label(&self) -> String {
        self.figure
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The figures that apply to a row of `experiment`/`variant`/`metric` with `params`
/// (`variant` by the catalog's name).
///
/// ```
/// # use std::collections::BTreeMap;
/// let phase = BTreeMap::from([("phase".to_string(), "1".to_string())]);
/// let figures = sympathy_report::figures_for("dispatch", "step-down", "ops_per_sec", &phase);
/// assert_eq!(figures[0].figure.language, "java");
/// ```
pub fn figures_for(
    experiment: &str,
    variant: &str,
    metric: &str,
    params: &BTreeMap<String, String>,
) -> Vec<SeedFigure> {
    let Some(spec) = catalog().experiment(experiment) else {
        return Vec::new();
    };
    spec.seed_figures
        .iter()
        .filter(|f| {
            f.metric == metric
                && (f.variant.is_empty() || f.variant == variant)
                && f.params
                    .iter()
                    .all(|(k, v)| params.get(k).is_some_and(|p| p == v))
        })
        .map(|figure| SeedFigure {
            experiment: spec.name.as_str(),
            figure,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// The keys of `docs/seeds.md`: the first backquoted word of each table row.
    fn seed_keys() -> Vec<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/seeds.md");
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_figure_cites_an_article_of_docs_seeds() {
        let keys = seed_keys();
        assert!(
            keys.contains(&"memory-access-patterns".to_string()),
            "{keys:?}"
        );
        let mut figures = 0;
        for experiment in &catalog().experiments {
            for f in &experiment.seed_figures {
                figures += 1;
                assert!(f.value > 0.0 && !f.hardware.is_empty(), "{f:?}");
                let key = f.citation.split([',', ':']).next().unwrap_or_default();
                assert!(keys.iter().any(|k| k == key), "{}: {f:?}", experiment.name);
            }
            for seed in &experiment.seeds {
                assert!(keys.contains(seed), "{}: seed `{seed}`", experiment.name);
            }
        }
        assert!(figures >= 37, "{figures} figures in the catalog");
    }

    #[test]
    fn params_must_match_for_a_figure_to_apply() {
        let cross = figures_for(
            "queue",
            "p1c1-ipc",
            "msgs_per_sec",
            &params(&[("placement", "cross-core")]),
        );
        assert_eq!(cross.len(), 1);
        assert_eq!(cross[0].figure.value, 98e6);
        assert!(figures_for("queue", "p1c1-ipc", "msgs_per_sec", &params(&[])).is_empty());
    }

    #[test]
    fn step_down_figures_apply_per_phase() {
        let phase = |p: &str| {
            figures_for(
                "dispatch",
                "step-down",
                "ops_per_sec",
                &params(&[("phase", p)]),
            )
        };
        assert_eq!(phase("1")[0].figure.value, 3_095_692_203.5);
        assert_eq!(phase("4")[0].figure.value, 277_299_833.5);
        assert!(phase("5").is_empty());
        let zero_copy_read = figures_for("serialization", "zero-copy", "read_ns", &params(&[]));
        assert_eq!(zero_copy_read[0].figure.value, 51.0);
    }

    #[test]
    fn empty_variant_matches_any_variant() {
        let f = figures_for(
            "ipc",
            "anything",
            "msgs_per_sec",
            &params(&[("size_bytes", "4")]),
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].experiment, "ipc");
    }

    #[test]
    fn an_experiment_the_catalog_lacks_has_no_figures() {
        assert!(figures_for("teleport", "x", "ns_per_op", &params(&[])).is_empty());
    }
}
