//! Merging the streams of several languages and runs, and the key that pairs their results.

use std::collections::{BTreeMap, HashSet};

use sympathy_harness::catalog::{Language, catalog};

use crate::failure::RunFailure;
use crate::parse::Stream;
use crate::record::{ComparisonRecord, EnvRecord, ResultRecord};

/// Result params that older results files name differently, as (old name, catalog name): the
/// Java runner wrote the preset as `scale`. A key is looked up in the catalog by its new name,
/// so `compare --from` pairs old files as it pairs new ones.
const RENAMED_PARAMS: &[(&str, &str)] = &[("scale", "preset")];

/// The catalog's language of a result's `language` (`None` for one it does not know).
fn catalog_language(name: &str) -> Option<Language> {
    [Language::Rust, Language::Java, Language::C]
        .into_iter()
        .find(|l| l.name() == name)
}

/// The variant name a result is paired under: the catalog's name of the work its language
/// calls `variant` (a Java variant with another name in the catalog's `java` field is paired
/// under the catalog name), else the variant itself.
///
/// ```
/// use sympathy_report::pairing_variant;
/// assert_eq!(pairing_variant("dispatch", "java", "mega"), "dyn-4");
/// assert_eq!(pairing_variant("dispatch", "rust", "dyn-4"), "dyn-4");
/// assert_eq!(pairing_variant("dispatch", "java", "step-down"), "step-down");
/// assert_eq!(pairing_variant("teleport", "java", "mega"), "mega");
/// ```
pub fn pairing_variant<'a>(experiment: &str, language: &str, variant: &'a str) -> &'a str {
    match (catalog().experiment(experiment), catalog_language(language)) {
        (Some(spec), Some(language)) => spec.variant_name(language, variant),
        _ => variant,
    }
}

/// How a row's variant is shown: `dyn-4 / mega (java)` for a catalog variant that Java names
/// differently, else the name itself.
///
/// ```
/// use sympathy_report::variant_label;
/// assert_eq!(variant_label("dispatch", "dyn-4"), "dyn-4 / mega (java)");
/// assert_eq!(variant_label("dispatch", "dyn-1"), "dyn-1 / mono-call (java)");
/// assert_eq!(variant_label("queue", "p1c1"), "p1c1");
/// ```
pub fn variant_label(experiment: &str, variant: &str) -> String {
    let java = catalog()
        .experiment(experiment)
        .and_then(|spec| spec.variant(variant))
        .and_then(|v| v.java.as_deref());
    match java {
        Some(java) => format!("{variant} / {java} (java)"),
        None => variant.to_string(),
    }
}

/// `key=value` as the report shows a param: a size in bytes (a key ending in `bytes`) in binary
/// units, a whole count of ten thousand or more with `k` or `M`, anything else as written.
///
/// ```
/// use sympathy_report::param_text;
/// assert_eq!(param_text("size_bytes", "268435456"), "size_bytes=256 MiB");
/// assert_eq!(param_text("records", "1000000"), "records=1M");
/// assert_eq!(param_text("count", "20000"), "count=20k");
/// assert_eq!(param_text("threads", "2"), "threads=2");
/// assert_eq!(param_text("load", "1.5"), "load=1.5");
/// assert_eq!(param_text("count", "1234567"), "count=1234567");
/// ```
pub fn param_text(key: &str, value: &str) -> String {
    let shown = match value.parse::<u64>() {
        Ok(n) if key.ends_with("bytes") => sympathy_harness::format::bytes(n),
        Ok(n) if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        Ok(n) if n >= 10_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        _ => value.to_string(),
    };
    format!("{key}={shown}")
}

/// What pairs results across languages: the same experiment, variant (by the catalog's name,
/// [`pairing_variant`]), work parameters (the params the catalog does not call runner params,
/// `Catalog::is_work_param`; an experiment the catalog lacks pairs on all its params but the
/// runner params of `common.toml`) and metric.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairKey {
    /// Experiment name.
    pub experiment: String,
    /// Variant name (the catalog's name of a Java variant named differently).
    pub variant: String,
    /// Parameters shared by every language's run of the work.
    pub params: BTreeMap<String, String>,
    /// Metric name.
    pub metric: String,
}

impl PairKey {
    /// The key of `result`.
    pub fn of(result: &ResultRecord) -> PairKey {
        PairKey {
            experiment: result.experiment.clone(),
            variant: pairing_variant(&result.experiment, &result.language, &result.variant)
                .to_string(),
            params: result
                .params
                .iter()
                .map(|(k, v)| {
                    let renamed = RENAMED_PARAMS.iter().find(|(old, _)| old == k);
                    (renamed.map_or(k.as_str(), |(_, new)| new), v)
                })
                .filter(|(k, _)| catalog().is_work_param(&result.experiment, k))
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            metric: result.metric.clone(),
        }
    }

    /// The parameters as `key=value` pairs joined by spaces (`""` when none).
    pub fn params_label(&self) -> String {
        self.params
            .iter()
            .map(|(k, v)| crate::merge::param_text(k, v))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Every stream of a comparison in one: the distinct machines (`env` records) and all results.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Merged {
    /// One `env` record per distinct machine and language (timestamps aside), first seen kept.
    pub envs: Vec<EnvRecord>,
    /// Every result, in stream order.
    pub results: Vec<ResultRecord>,
    /// Every run that failed, in stream order.
    pub failures: Vec<RunFailure>,
    /// The run of `sympathy compare` as a whole: the first `comparison` record seen.
    pub comparison: Option<ComparisonRecord>,
}

impl Merged {
    /// Merges `streams` in order.
    pub fn from_streams(streams: impl IntoIterator<Item = Stream>) -> Merged {
        let mut merged = Merged::default();
        let mut seen = HashSet::new();
        for stream in streams {
            if merged.comparison.is_none() {
                merged.comparison = stream.comparison;
            }
            for env in stream.envs {
                if seen.insert(serde_json::Value::Object(env.machine_identity()).to_string()) {
                    merged.envs.push(env);
                }
            }
            merged.results.extend(stream.results);
            merged.failures.extend(stream.failures);
        }
        merged
    }

    /// The merged JSON Lines: the `comparison` record, the `env` records, then the `result`
    /// records, each as written, then the `failure` records.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        let objects = self
            .comparison
            .iter()
            .map(|c| serde_json::Value::Object(c.raw.clone()))
            .chain(
                self.envs
                    .iter()
                    .map(|e| serde_json::Value::Object(e.raw.clone())),
            )
            .chain(
                self.results
                    .iter()
                    .map(|r| serde_json::Value::Object(r.raw.clone())),
            )
            .chain(self.failures.iter().map(RunFailure::to_json));
        for object in objects {
            out.push_str(&object.to_string());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_jsonl;

    fn result(language: &str, params: &str) -> String {
        format!(
            r#"{{"kind":"result","experiment":"queue","language":"{language}","variant":"p1c1","params":{params},"metric":"msgs_per_sec","value":1.0,"unit":"msgs/s","check":"ok"}}"#
        )
    }

    #[test]
    fn language_specific_params_do_not_split_a_pair() {
        let rust = parse_jsonl("r", &result("rust", r#"{"placement":"cross-core"}"#)).unwrap();
        let java = parse_jsonl(
            "j",
            &result("java", r#"{"placement":"cross-core","forks":1}"#),
        )
        .unwrap();
        assert_eq!(PairKey::of(&rust.results[0]), PairKey::of(&java.results[0]));
    }

    #[test]
    fn java_dispatch_aliases_pair_with_the_rust_variants() {
        let line = |lang: &str, variant: &str| {
            format!(
                r#"{{"kind":"result","experiment":"dispatch","language":"{lang}","variant":"{variant}","params":{{"implementations":2}},"metric":"ops_per_sec","value":1.0,"unit":"ops/s","check":"ok"}}"#
            )
        };
        let key = |lang: &str, variant: &str| {
            PairKey::of(&parse_jsonl("t", &line(lang, variant)).unwrap().results[0])
        };
        assert_eq!(key("java", "bi-call"), key("rust", "dyn-2"));
        assert_eq!(key("java", "bi-call").variant, "dyn-2");
        assert_ne!(
            key("rust", "bi-call"),
            key("rust", "dyn-2"),
            "only Java names are aliases"
        );
        assert_eq!(variant_label("dispatch", "dyn-2"), "dyn-2 / bi-call (java)");
        assert_eq!(
            variant_label("dispatch", "inlined-1"),
            "inlined-1 / mono (java)"
        );
        assert_eq!(variant_label("dispatch", "static"), "static");
    }

    #[test]
    fn the_old_name_of_the_preset_does_not_split_a_pair() {
        let rust = parse_jsonl("r", &result("rust", r#"{"placement":"cross-core"}"#)).unwrap();
        let old_java = parse_jsonl(
            "j",
            &result("java", r#"{"placement":"cross-core","scale":"quick"}"#),
        )
        .unwrap();
        assert_eq!(
            PairKey::of(&rust.results[0]),
            PairKey::of(&old_java.results[0])
        );
    }

    #[test]
    fn an_experiment_the_catalog_lacks_pairs_on_its_params() {
        let line = |lang: &str, params: &str| {
            format!(
                r#"{{"kind":"result","experiment":"teleport","language":"{lang}","variant":"beam","params":{params},"metric":"ns_per_op","value":1.0,"unit":"ns","check":"ok"}}"#
            )
        };
        let key = |lang: &str, params: &str| {
            PairKey::of(&parse_jsonl("t", &line(lang, params)).unwrap().results[0])
        };
        let rust = key("rust", r#"{"distance":3}"#);
        assert_eq!(rust, key("java", r#"{"distance":3,"forks":1}"#));
        assert_ne!(rust, key("java", r#"{"distance":4}"#));
        assert_eq!(rust.params_label(), "distance=3");
    }

    #[test]
    fn work_params_do_split_a_pair() {
        let a = parse_jsonl("a", &result("rust", r#"{"placement":"cross-core"}"#)).unwrap();
        let b = parse_jsonl("b", &result("java", r#"{"placement":"same-core"}"#)).unwrap();
        assert_ne!(PairKey::of(&a.results[0]), PairKey::of(&b.results[0]));
    }

    #[test]
    fn identical_machines_are_listed_once_and_results_keep_order() {
        let env = |ts: &str| {
            format!(r#"{{"kind":"env","language":"rust","cores":2,"timestamp":"{ts}"}}"#)
        };
        let a = parse_jsonl("a", &format!("{}\n{}", env("t1"), result("rust", "{}"))).unwrap();
        let b = parse_jsonl("b", &format!("{}\n{}", env("t2"), result("java", "{}"))).unwrap();
        let merged = Merged::from_streams([a, b]);
        assert_eq!(merged.envs.len(), 1);
        let languages: Vec<_> = merged.results.iter().map(|r| r.language.as_str()).collect();
        assert_eq!(languages, ["rust", "java"]);
    }

    #[test]
    fn merged_jsonl_reads_back_to_the_same_records() {
        let a = parse_jsonl(
            "a",
            &format!(
                "{}\n{}",
                r#"{"kind":"env","language":"rust"}"#,
                result("rust", r#"{"count":5}"#)
            ),
        )
        .unwrap();
        let mut merged = Merged::from_streams([a]);
        assert_eq!(merged.comparison, None);
        merged.failures.push(RunFailure {
            experiment: "queue".into(),
            label: "java".into(),
            round: 3,
            retries: 1,
            reason: "exited with status 1".into(),
        });
        let comparison = r#"{"kind":"comparison","preset":"quick","commit":"abc1234","dirty":false,"rounds":2,"runs_s":371.2}"#;
        let with_comparison = parse_jsonl("c", comparison).unwrap();
        merged = Merged::from_streams([
            parse_jsonl("m", &merged.to_jsonl()).unwrap(),
            with_comparison,
        ]);
        assert!(
            merged.to_jsonl().starts_with(comparison),
            "the comparison record comes first: {}",
            merged.to_jsonl()
        );
        let again = Merged::from_streams([parse_jsonl("m", &merged.to_jsonl()).unwrap()]);
        assert_eq!(again.to_jsonl(), merged.to_jsonl());
        assert_eq!(again.comparison.as_ref().unwrap().field("runs_s"), "371.2");
        assert_eq!(again.results[0].params["count"], "5");
        assert_eq!(again.failures, merged.failures);
    }
}
