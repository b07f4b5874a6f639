//! The experiment catalog: one home for every experiment's facts, read by both languages.
//!
//! `experiments/<name>.toml` at the repository root holds an experiment's purpose, variants
//! (with the languages that implement each and Java's name where it differs), parameters with
//! their value at each [`Preset`], metrics and the seed articles' figures;
//! `experiments/common.toml` holds the metrics' units and directions and the params that only
//! say how a language ran the work. The `sympathy` CLI, the criterion benches, `compare`, the
//! report and the Java JMH runner all read it; `docs/adding-an-experiment.md` walks through an
//! entry.
//!
//! The files are compiled in: the build script parses and validates them, so a malformed
//! entry fails the build and [`catalog`] cannot fail at run time.
//!
//! # Examples
//! ```
//! use sympathy_harness::Preset;
//! use sympathy_harness::catalog::catalog;
//!
//! let walk = catalog().experiment("memory-walk").unwrap();
//! let size = walk.param("size_bytes").unwrap();
//! assert!(size.u64_at(Preset::Quick).unwrap() < size.u64_at(Preset::Full).unwrap());
//! assert_eq!(catalog().metric("ns_per_op").unwrap().unit, "ns");
//! ```

mod spec;
mod variant;

use std::collections::BTreeMap;
use std::sync::OnceLock;

pub use spec::{
    Better, CommonSpec, EVIDENCE_DRIFT_PERCENT, EvidenceSpec, EvidenceValue, Expect,
    ExperimentSpec, GapSpec, HeadlineSpec, Language, Measure, MetricSpec, ParamSpec,
    ParityFactSpec, PerPreset, Preset, PresetSeconds, Role, SeedFigureSpec, VariantSpec, validate,
};
pub use variant::CatalogVariant;

/// The catalog files, as `(file name, text)`, embedded by the build script.
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/catalog_files.rs"));

/// Every experiment and what they share.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    /// `common.toml`.
    pub common: CommonSpec,
    /// The experiments, in the order `run all` and `compare` run them (by file name).
    pub experiments: Vec<ExperimentSpec>,
}

/// The catalog compiled into this build.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        Catalog::parse(FILES)
            .unwrap_or_else(|err| unreachable!("the build script validated the catalog: {err}"))
    })
}

impl Catalog {
    /// Parses and validates catalog files given as `(file name, text)`: `common.toml` and one
    /// file per experiment, in run order.
    pub fn parse(files: &[(&str, &str)]) -> Result<Catalog, String> {
        let mut common = None;
        let mut experiments = Vec::new();
        for (file, text) in files {
            if *file == "common.toml" {
                common =
                    Some(toml::from_str::<CommonSpec>(text).map_err(|e| format!("{file}: {e}"))?);
            } else {
                let spec =
                    toml::from_str::<ExperimentSpec>(text).map_err(|e| format!("{file}: {e}"))?;
                experiments.push((file.to_string(), spec));
            }
        }
        let common = common.ok_or("the catalog has no common.toml")?;
        let errors = validate(&common, &experiments);
        if !errors.is_empty() {
            return Err(errors.join("\n"));
        }
        Ok(Catalog {
            common,
            experiments: experiments.into_iter().map(|(_, e)| e).collect(),
        })
    }

    /// The experiment called `name`.
    pub fn experiment(&self, name: &str) -> Option<&ExperimentSpec> {
        self.experiments.iter().find(|e| e.name == name)
    }

    /// The experiment names, in run order.
    pub fn names(&self) -> Vec<&str> {
        self.experiments.iter().map(|e| e.name.as_str()).collect()
    }

    /// The parameter `param` of experiment `experiment`.
    ///
    /// ```
    /// use sympathy_harness::Preset;
    /// use sympathy_harness::catalog::catalog;
    /// let records = catalog().param("struct-table", "records").unwrap();
    /// assert_eq!(records.u64_at(Preset::Full), Some(50_000_000));
    /// ```
    pub fn param(&self, experiment: &str, param: &str) -> Option<&ParamSpec> {
        self.experiment(experiment).and_then(|e| e.param(param))
    }

    /// How many rounds `sympathy compare` runs of every experiment at `preset`
    /// (`compare_rounds` in `experiments/common.toml`): at least 1.
    ///
    /// ```
    /// use sympathy_harness::Preset;
    /// use sympathy_harness::catalog::catalog;
    /// assert!(catalog().compare_rounds(Preset::Quick) >= 1);
    /// assert!(catalog().compare_rounds(Preset::Smoke) <= catalog().compare_rounds(Preset::Full));
    /// ```
    pub fn compare_rounds(&self, preset: Preset) -> u32 {
        self.common.compare_rounds.at(preset).max(1)
    }

    /// The parity facts the two sides of a pair of `experiment` must share (its entry's
    /// `parity`; none for an experiment the catalog lacks).
    ///
    /// ```
    /// use sympathy_harness::catalog::catalog;
    /// assert!(catalog().parity("serialization").iter().any(|f| f == "inputs"));
    /// assert!(catalog().parity("teleport").is_empty());
    /// ```
    pub fn parity(&self, experiment: &str) -> &[String] {
        self.experiment(experiment)
            .map_or(&[], |e| e.parity.as_slice())
    }

    /// The metric called `name`.
    pub fn metric(&self, name: &str) -> Option<&MetricSpec> {
        self.common.metrics.iter().find(|m| m.name == name)
    }

    /// Whether result param `key` of `experiment` describes the work (and so must match for a
    /// Rust and a Java result to pair). The experiment's own param decides first (its `role`;
    /// atomic-increment's `thread`, a runner param elsewhere, is work there: one row per
    /// thread), then `common.toml`'s runner params. Keys the catalog does not know count as
    /// work: an unlisted param splits a pair rather than hiding a difference.
    ///
    /// ```
    /// use sympathy_harness::catalog::catalog;
    /// assert!(catalog().is_work_param("atomic-increment", "thread"));
    /// assert!(!catalog().is_work_param("atomic-increment", "core"));
    /// assert!(!catalog().is_work_param("queue", "thread"));
    /// ```
    pub fn is_work_param(&self, experiment: &str, key: &str) -> bool {
        if let Some(p) = self.experiment(experiment).and_then(|e| e.param(key)) {
            return p.role == Role::Work;
        }
        !self.common.runner_params.iter().any(|p| p == key)
    }
}

impl ExperimentSpec {
    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The variant called `name`.
    pub fn variant(&self, name: &str) -> Option<&VariantSpec> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// The values param `param` takes for `variant` at `preset`: the value the variant fixes
    /// ([`VariantSpec::params`]), else the experiment's; empty when neither has the param.
    ///
    /// ```
    /// use sympathy_harness::Preset;
    /// use sympathy_harness::catalog::catalog;
    /// let dispatch = catalog().experiment("dispatch").unwrap();
    /// let four = dispatch.values_for("dyn-4", "implementations", Preset::Quick);
    /// assert_eq!(four, [&toml::Value::Integer(4)]);
    /// ```
    pub fn values_for(&self, variant: &str, param: &str, preset: Preset) -> Vec<&toml::Value> {
        let fixed = self.variant(variant).and_then(|v| v.params.get(param));
        match (fixed, self.param(param)) {
            (Some(toml::Value::Array(items)), _) => items.iter().collect(),
            (Some(value), _) => vec![value],
            (None, Some(p)) => p.values_at(preset),
            (None, None) => Vec::new(),
        }
    }

    /// The catalog's name of a variant a `language` calls `name`: the Rust name of a Java
    /// variant whose work has another name in Java, else `name` itself.
    ///
    /// ```
    /// use sympathy_harness::catalog::{Language, catalog};
    /// let dispatch = catalog().experiment("dispatch").unwrap();
    /// assert_eq!(dispatch.variant_name(Language::Java, "mega"), "dyn-4");
    /// assert_eq!(dispatch.variant_name(Language::Rust, "dyn-4"), "dyn-4");
    /// ```
    pub fn variant_name<'a>(&'a self, language: Language, name: &'a str) -> &'a str {
        if language != Language::Java {
            return name;
        }
        self.variants
            .iter()
            .find(|v| v.java.as_deref() == Some(name))
            .map_or(name, |v| v.name.as_str())
    }

    /// The variants `language` implements, by that language's names.
    pub fn variants_in(&self, language: Language) -> Vec<&str> {
        self.variants
            .iter()
            .filter(|v| v.languages.contains(&language))
            .map(|v| v.name_in(language))
            .collect()
    }

    /// The variants `language` runs at `preset`: [`ExperimentSpec::variants_in`] less those
    /// whose `skip_at` lists the preset.
    ///
    /// ```
    /// use sympathy_harness::Preset;
    /// use sympathy_harness::catalog::{Language, catalog};
    /// let walk = catalog().experiment("memory-walk").unwrap();
    /// assert!(walk.variants_at(Language::Java, Preset::Default).contains(&"linear-on-heap"));
    /// assert!(!walk.variants_at(Language::Java, Preset::Quick).contains(&"linear-on-heap"));
    /// ```
    pub fn variants_at(&self, language: Language, preset: Preset) -> Vec<&str> {
        self.variants
            .iter()
            .filter(|v| v.languages.contains(&language) && v.runs_at(preset))
            .map(|v| v.name_in(language))
            .collect()
    }
}

impl PerPreset {
    /// The number at `preset`.
    ///
    /// ```
    /// use sympathy_harness::Preset;
    /// use sympathy_harness::catalog::{Language, catalog};
    /// let walk = catalog().experiment("memory-walk").unwrap();
    /// let rust = walk.estimate_s[&Language::Rust];
    /// assert!(rust.at(Preset::Quick) <= rust.at(Preset::Full));
    /// ```
    pub fn at(&self, preset: Preset) -> u32 {
        match preset {
            Preset::Smoke => self.smoke,
            Preset::Quick => self.quick,
            Preset::Default => self.default,
            Preset::Full => self.full,
        }
    }
}

impl HeadlineSpec {
    /// Its `params` as results write them (`threads=2` as `"2"`, strings bare).
    ///
    /// ```
    /// use sympathy_harness::catalog::catalog;
    /// let rule = catalog().experiment("atomic-increment").unwrap().headline.as_ref().unwrap();
    /// assert_eq!(rule.param_texts()["threads"], "2");
    /// ```
    pub fn param_texts(&self) -> BTreeMap<String, String> {
        self.params
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), text)
            })
            .collect()
    }
}

impl ParamSpec {
    /// The value at `preset`.
    pub fn at(&self, preset: Preset) -> &toml::Value {
        match preset {
            Preset::Smoke => &self.smoke,
            Preset::Quick => &self.quick,
            Preset::Default => &self.default,
            Preset::Full => &self.full,
        }
    }

    /// The values at `preset`: the elements of a list, or the one scalar.
    pub fn values_at(&self, preset: Preset) -> Vec<&toml::Value> {
        match self.at(preset) {
            toml::Value::Array(items) => items.iter().collect(),
            scalar => vec![scalar],
        }
    }

    /// The value at `preset` as an unsigned integer (`None` when it is not one).
    pub fn u64_at(&self, preset: Preset) -> Option<u64> {
        self.at(preset)
            .as_integer()
            .and_then(|v| u64::try_from(v).ok())
    }

    /// The unsigned integers at `preset`: the elements of a list, or the one scalar (`None`
    /// when one of them is not an unsigned integer).
    pub fn u64s_at(&self, preset: Preset) -> Option<Vec<u64>> {
        self.values_at(preset)
            .into_iter()
            .map(|v| v.as_integer().and_then(|v| u64::try_from(v).ok()))
            .collect()
    }

    /// The strings at `preset`: the elements of a list, or the one scalar (`None` when one of
    /// them is not a string).
    pub fn strs_at(&self, preset: Preset) -> Option<Vec<&str>> {
        self.values_at(preset)
            .into_iter()
            .map(|v| v.as_str())
            .collect()
    }

    /// The value at `preset` as a number (an integer or a float).
    pub fn f64_at(&self, preset: Preset) -> Option<f64> {
        let value = self.at(preset);
        value
            .as_float()
            .or_else(|| value.as_integer().map(|v| v as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMON: &str = r#"
runner_params = ["runs"]
compare_rounds = { smoke = 2, quick = 3, default = 3, full = 3 }
[[metrics]]
name = "ns_per_op"
unit = "ns"
better = "lower"
does = "Nanoseconds per operation."
"#;

    fn experiment(extra: &str) -> String {
        format!(
            r#"
name = "toy"
purpose = "A toy."
metrics = ["ns_per_op"]
runs = {{ smoke = 1, quick = 3, default = 5, full = 10 }}
[[variants]]
name = "plain"
does = "Nothing."
languages = ["rust", "java"]
java = "vanilla"
[[params]]
name = "size_bytes"
does = "How big."
role = "work"
smoke = 1
quick = 2
default = 3
full = 4
{extra}"#
        )
    }

    #[test]
    fn the_compiled_catalog_is_valid_and_names_every_metric_of_the_schema() {
        let catalog = catalog();
        assert!(catalog.experiments.len() >= 9, "{:?}", catalog.names());
        for metric in crate::results::Metric::ALL {
            assert!(catalog.metric(metric.name()).is_some(), "{}", metric.name());
        }
    }

    #[test]
    fn a_toy_entry_parses_and_answers() {
        let text = experiment("");
        let catalog = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &text)]).unwrap();
        let toy = catalog.experiment("toy").unwrap();
        assert_eq!(
            toy.param("size_bytes").unwrap().u64_at(Preset::Default),
            Some(3)
        );
        assert_eq!(toy.variant_name(Language::Java, "vanilla"), "plain");
        assert_eq!(toy.variants_in(Language::Java), ["vanilla"]);
        assert!(catalog.is_work_param("toy", "size_bytes"));
        assert!(!catalog.is_work_param("toy", "runs"));
        assert!(catalog.is_work_param("toy", "unknown"));
        let overridden = experiment(
            "[[params]]\nname = \"runs\"\ndoes = \"x\"\nrole = \"work\"\nsmoke = 1\nquick = 1\ndefault = 1\nfull = 1",
        );
        let catalog =
            Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &overridden)]).unwrap();
        assert!(
            catalog.is_work_param("toy", "runs"),
            "the experiment's role wins"
        );
    }

    #[test]
    fn skip_at_leaves_a_variant_out_of_its_presets_only() {
        let text = experiment("").replace(
            "java = \"vanilla\"",
            "java = \"vanilla\"\nskip_at = [\"quick\"]\n[[variants]]\nname = \"other\"\ndoes = \"x\"\nlanguages = [\"rust\"]",
        );
        let catalog = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &text)]).unwrap();
        let toy = catalog.experiment("toy").unwrap();
        assert_eq!(
            toy.variants_at(Language::Java, Preset::Quick),
            Vec::<&str>::new()
        );
        assert_eq!(
            toy.variants_at(Language::Java, Preset::Default),
            ["vanilla"]
        );
        assert_eq!(toy.variants_at(Language::Rust, Preset::Quick), ["other"]);
        assert_eq!(
            toy.variants_at(Language::Rust, Preset::Smoke),
            ["plain", "other"]
        );
        assert_eq!(
            toy.variants_in(Language::Java),
            ["vanilla"],
            "still implemented"
        );

        let smoke = experiment("").replace(
            "java = \"vanilla\"",
            "java = \"vanilla\"\nskip_at = [\"smoke\"]",
        );
        let err = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &smoke)]).unwrap_err();
        assert!(err.contains("skips smoke"), "{err}");
        let headline = text.replace(
            "metrics = [\"ns_per_op\"]",
            "metrics = [\"ns_per_op\"]\nheadline = { metric = \"ns_per_op\", variants = [\"plain\", \"other\"] }",
        );
        let err = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &headline)]).unwrap_err();
        assert!(err.contains("`plain` is a headline variant"), "{err}");
    }

    /// A gap entry of the toy: `plain` slower in Java than in Rust, with `evidence`.
    fn gap(evidence: &str) -> String {
        experiment(&format!(
            "[[gaps]]\nvariant = \"plain\"\nslower = \"java\"\nthan = \"rust\"\n\
             cause = \"a cause\"\ndiffers = \"a check\"\n{evidence}"
        ))
    }

    #[test]
    fn a_gap_entry_with_its_evidence_parses() {
        let text = gap(
            "[[gaps.evidence]]\nmeasure = \"instructions\"\nwhat = \"per message\"\n\
             rust = { value = 10.0, ids = [\"a/b/c\"] }\njava = { value = 25.0, ids = [\"a/b/c\"] }\n\
             [[gaps.evidence]]\nmeasure = \"bytes-allocated\"\nwhat = \"per message\"\n\
             source = \"ci/java-profile --gc-only\"\njava = { value = 0.0 }",
        );
        let catalog = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &text)]).unwrap();
        let gap = &catalog.experiment("toy").unwrap().gaps[0];
        assert_eq!((gap.slower, gap.than), (Language::Java, Language::Rust));
        let counts = &gap.evidence[0];
        assert_eq!(counts.unit(), "instructions");
        assert_eq!(counts.values()[1].1.value, 25.0);
        assert_eq!(gap.evidence[1].unit(), "bytes");
    }

    #[test]
    fn a_gap_entry_without_evidence_fails_the_catalog() {
        let cases = [
            (gap(""), "no evidence"),
            (
                gap(
                    "[[gaps.evidence]]\nmeasure = \"instructions\"\nwhat = \"per message\"\n\
                     java = { value = 25.0, ids = [\"a/b/c\"] }",
                ),
                "give rust's",
            ),
            (
                gap(
                    "[[gaps.evidence]]\nmeasure = \"instructions\"\nwhat = \"per message\"\n\
                     rust = { value = 10.0 }\njava = { value = 25.0, ids = [\"a/b/c\"] }",
                ),
                "rust's count names no gate ids",
            ),
            (
                gap(
                    "[[gaps.evidence]]\nmeasure = \"figure\"\nwhat = \"failed polls\"\n\
                     unit = \"polls/s\"\njava = { value = 3.0 }",
                ),
                "name the command that measured it",
            ),
            (
                gap(
                    "[[gaps.evidence]]\nmeasure = \"bytes-allocated\"\nwhat = \"per op\"\n\
                     source = \"ci/java-profile\"",
                ),
                "no figure; give one language's at least",
            ),
            (
                gap("").replace("cause = \"a cause\"", "cause = \"\""),
                "give the `cause`",
            ),
            (
                gap("").replace("variant = \"plain\"\nslower", "variant = \"nope\"\nslower"),
                "unknown variant `nope`",
            ),
            (
                gap("").replace("than = \"rust\"", "than = \"c\""),
                "does not run in c",
            ),
        ];
        for (text, expected) in cases {
            let err = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &text)]).unwrap_err();
            assert!(err.contains(expected), "expected `{expected}` in: {err}");
        }
    }

    #[test]
    fn bad_entries_are_named() {
        let cases = [
            ("other.toml", experiment(""), "holds `toy`"),
            ("toy.toml", experiment("unknown_key = 1"), "unknown field"),
            (
                "toy.toml",
                experiment(
                    "[[params]]\nname = \"threads\"\ndoes = \"x\"\nrole = \"work\"\nsmoke = [1]\nquick = 1\ndefault = 1\nfull = 1",
                ),
                "a list at some presets",
            ),
            (
                "toy.toml",
                experiment(
                    "[[seed_figures]]\nvariant = \"nope\"\nmetric = \"ns_per_op\"\nvalue = 1.0\nlanguage = \"java\"\nhardware = \"h\"\ncitation = \"c\"",
                ),
                "unknown variant `nope`",
            ),
            (
                "toy.toml",
                experiment("[estimate_s]\njava = { smoke = 1, quick = 20, default = 3, full = 4 }"),
                "smoke <= quick <= default <= full",
            ),
            (
                "toy.toml",
                experiment(
                    "[[params]]\nname = \"runs\"\ndoes = \"x\"\nrole = \"runner\"\nsmoke = 1\nquick = 1\ndefault = 1\nfull = 1",
                ),
                "a runner param of every experiment",
            ),
            (
                "toy.toml",
                experiment("[estimate_s]\nc = { smoke = 1, quick = 2, default = 3, full = 4 }"),
                "C variants run inside the Rust run",
            ),
            (
                "toy.toml",
                experiment("").replace(
                    "metrics = [\"ns_per_op\"]",
                    "metrics = [\"ns_per_op\"]\nheadline = { metric = \"ns_per_op\", variants = [\"plain\"] }",
                ),
                "give either two `variants` or `languages = true`",
            ),
            (
                "toy.toml",
                experiment("").replace(
                    "metrics = [\"ns_per_op\"]",
                    "metrics = [\"ns_per_op\"]\nheadline = { metric = \"ns_per_op\", languages = true, params = { size = 1 } }",
                ),
                "`size` is not a param of the experiment",
            ),
            (
                "toy.toml",
                experiment("").replace("quick = 3, default = 5", "quick = 0, default = 5"),
                "runs: every preset makes at least one run",
            ),
        ];
        for (file, text, expected) in cases {
            let err = Catalog::parse(&[("common.toml", COMMON), (file, &text)]).unwrap_err();
            assert!(err.contains(expected), "{file}: {err}");
        }
        let java_only =
            experiment("[estimate_s]\nrust = { smoke = 1, quick = 2, default = 3, full = 4 }")
                .replace("[\"rust\", \"java\"]", "[\"java\"]");
        let err = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &java_only)]).unwrap_err();
        assert!(err.contains("`rust` runs no variant"), "{err}");
        let no_metric = experiment("").replace("[\"ns_per_op\"]", "[\"furlongs\"]");
        let err = Catalog::parse(&[("common.toml", COMMON), ("toy.toml", &no_metric)]).unwrap_err();
        assert!(
            err.contains("metric `furlongs` is not in common.toml"),
            "{err}"
        );
    }
}
