//! Merging the streams of several languages and runs, and the key that pairs their results.

use std::collections::{BTreeMap, HashSet};

use crate::parse::Stream;
use crate::record::{EnvRecord, ResultRecord};

/// Parameters that describe how one language ran the work rather than the work itself; they are
/// left out of the pairing key so that a Rust and a Java result of the same work share a row.
/// The params of a row's label and of the merged file keep them.
///
/// Adjust this list when a runner adds such a key (JMH settings, JVM flags, ...).
///
/// Besides the JVM and JMH settings this holds how long or where a run ran, which the two
/// runners choose differently for the same work: the scale preset (`scale`), repetitions
/// (`runs`), the length of a timed loop whose metric is per operation (`iterations` of
/// ping-pong, `count` of the queue), and where threads ran (`cores`, `core`, `thread` of
/// Rust, `pinning` of Java; `memory` is Java's heap/off-heap choice of memory-walk).
pub const LANGUAGE_SPECIFIC_PARAMS: &[&str] = &[
    "forks",
    "jvm",
    "jvm_args",
    "jmh_mode",
    "warmup_iterations",
    "measurement_iterations",
    "compiler",
    "scale",
    "preset",
    "runs",
    "iterations",
    "count",
    "cores",
    "core",
    "thread",
    "pinning",
    "memory",
];

/// Variants that are the same work under different names in the two languages, as
/// (experiment, Java variant, Rust variant): a Java result of such a variant is paired under the
/// Rust name, and the row is labelled with both ([`variant_label`]).
///
/// Dispatch: Java's JMH `mono`/`bi`/`mega` feed one interface call site 1, 2 or 4
/// implementations, as Rust's `dyn-1`/`dyn-2`/`dyn-4` feed one `dyn Operation` call.
pub const VARIANT_ALIASES: &[(&str, &str, &str)] = &[
    ("dispatch", "mono", "dyn-1"),
    ("dispatch", "bi", "dyn-2"),
    ("dispatch", "mega", "dyn-4"),
];

/// The variant name a result is paired under: the Rust name for a Java alias in
/// [`VARIANT_ALIASES`], else the variant itself.
///
/// ```
/// use sympathy_report::pairing_variant;
/// assert_eq!(pairing_variant("dispatch", "java", "mega"), "dyn-4");
/// assert_eq!(pairing_variant("dispatch", "rust", "dyn-4"), "dyn-4");
/// assert_eq!(pairing_variant("dispatch", "java", "step-down"), "step-down");
/// ```
pub fn pairing_variant<'a>(experiment: &str, language: &str, variant: &'a str) -> &'a str {
    if language != "java" {
        return variant;
    }
    VARIANT_ALIASES
        .iter()
        .find(|(e, java, _)| *e == experiment && *java == variant)
        .map_or(variant, |(_, _, rust)| rust)
}

/// How a row's variant is shown: `dyn-1 / mono (java)` for a pairing in [`VARIANT_ALIASES`],
/// else the name itself.
pub fn variant_label(experiment: &str, variant: &str) -> String {
    VARIANT_ALIASES
        .iter()
        .find(|(e, _, rust)| *e == experiment && *rust == variant)
        .map_or(variant.to_string(), |(_, java, rust)| {
            format!("{rust} / {java} (java)")
        })
}

/// What pairs results across languages: the same experiment, variant (through
/// [`VARIANT_ALIASES`]), parameters (less [`LANGUAGE_SPECIFIC_PARAMS`]) and metric.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairKey {
    /// Experiment name.
    pub experiment: String,
    /// Variant name (the Rust name of an aliased Java variant).
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
                .filter(|(k, _)| !LANGUAGE_SPECIFIC_PARAMS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            metric: result.metric.clone(),
        }
    }

    /// The parameters as `key=value` pairs joined by spaces (`""` when none).
    pub fn params_label(&self) -> String {
        self.params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
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
}

impl Merged {
    /// Merges `streams` in order.
    pub fn from_streams(streams: impl IntoIterator<Item = Stream>) -> Merged {
        let mut merged = Merged::default();
        let mut seen = HashSet::new();
        for stream in streams {
            for env in stream.envs {
                if seen.insert(serde_json::Value::Object(env.machine_identity()).to_string()) {
                    merged.envs.push(env);
                }
            }
            merged.results.extend(stream.results);
        }
        merged
    }

    /// The merged JSON Lines: the `env` records, then the `result` records, each as written.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        let objects = self
            .envs
            .iter()
            .map(|e| &e.raw)
            .chain(self.results.iter().map(|r| &r.raw));
        for raw in objects {
            out.push_str(&serde_json::Value::Object(raw.clone()).to_string());
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
        assert_eq!(key("java", "bi"), key("rust", "dyn-2"));
        assert_eq!(key("java", "bi").variant, "dyn-2");
        assert_ne!(
            key("rust", "bi"),
            key("rust", "dyn-2"),
            "only Java names are aliases"
        );
        assert_eq!(variant_label("dispatch", "dyn-2"), "dyn-2 / bi (java)");
        assert_eq!(variant_label("dispatch", "static"), "static");
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
        let merged = Merged::from_streams([a]);
        let again = Merged::from_streams([parse_jsonl("m", &merged.to_jsonl()).unwrap()]);
        assert_eq!(again.to_jsonl(), merged.to_jsonl());
        assert_eq!(again.results[0].params["count"], "5");
    }
}
