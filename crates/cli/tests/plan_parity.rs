//! The drift test: both languages, asked what they would run (`run <exp> --plan`) at every
//! preset, must plan the work the catalog (`experiments/*.toml`) lists, and for every variant
//! both implement, plan work a Rust and a Java result can be paired on.
//!
//! - `rust_plans_only_the_catalogs_work` runs with every `cargo test`.
//! - `rust_and_java_plan_the_same_work` needs the Java build (`java/sidecar`, a JDK and Maven):
//!   `ci/test` runs it after `ci/java-test` with `--ignored`.
//!
//! A plan line is `{"kind":"plan","experiment":..,"language":..,"variant":..,"params":{..}}`,
//! one per result group the run would emit, in the language's own variant name.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use sympathy_harness::Preset;
use sympathy_harness::catalog::{Language, catalog};

/// One planned result group: experiment, the catalog's variant name, language, and its work
/// params as `key=value` text (sorted).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Planned {
    experiment: String,
    variant: String,
    language: String,
    work: BTreeMap<String, String>,
}

fn parse_plan(source: &str, stdout: &[u8]) -> Vec<Planned> {
    let text = String::from_utf8_lossy(stdout);
    let mut planned = Vec::new();
    for line in text.lines().filter(|l| l.trim_start().starts_with('{')) {
        let record: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{source}: a plan line is not JSON ({e}): {line}"));
        if record["kind"] != "plan" {
            continue;
        }
        let field = |key: &str| {
            record[key]
                .as_str()
                .unwrap_or_else(|| panic!("{source}: plan line without `{key}`: {line}"))
                .to_string()
        };
        let (experiment, language, variant) =
            (field("experiment"), field("language"), field("variant"));
        let spec = catalog()
            .experiment(&experiment)
            .unwrap_or_else(|| panic!("{source}: experiment `{experiment}` is not in the catalog"));
        let lang = match language.as_str() {
            "rust" => Language::Rust,
            "java" => Language::Java,
            "c" => Language::C,
            other => panic!("{source}: unknown language `{other}`"),
        };
        let variant = spec.variant_name(lang, &variant).to_string();
        let params = record["params"]
            .as_object()
            .unwrap_or_else(|| panic!("{source}: plan line without params: {line}"));
        let work = params
            .iter()
            .filter(|(k, _)| catalog().is_work_param(&experiment, k))
            .map(|(k, v)| (k.clone(), value_text(v)))
            .collect();
        planned.push(Planned {
            experiment,
            variant,
            language,
            work,
        });
    }
    assert!(!planned.is_empty(), "{source}: planned nothing:\n{text}");
    planned
}

/// A JSON or TOML scalar as text that compares equal across the two (`1` and `1.0` differ
/// on purpose: a size is an integer in both languages).
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn toml_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => {
            serde_json::Number::from_f64(*f).map_or_else(|| f.to_string(), |n| n.to_string())
        }
        toml::Value::Boolean(b) => b.to_string(),
        other => other.to_string(),
    }
}

/// What the catalog allows: each planned variant exists and is implemented by the planning
/// language, and each work param is the catalog's with one of its values at `preset`.
fn check_against_catalog(preset: Preset, planned: &[Planned]) -> Vec<String> {
    let mut errors = Vec::new();
    for p in planned {
        let spec = catalog()
            .experiment(&p.experiment)
            .expect("checked in parse_plan");
        let at = format!("{} {} {} at {preset}", p.language, p.experiment, p.variant);
        match spec.variant(&p.variant) {
            None => errors.push(format!("{at}: the variant is not in the catalog")),
            Some(v) if !v.languages.iter().any(|l| l.name() == p.language) => errors.push(format!(
                "{at}: the catalog does not list {} for it",
                p.language
            )),
            Some(_) => {}
        }
        for (key, value) in &p.work {
            let allowed: Vec<String> = spec
                .values_for(&p.variant, key, preset)
                .into_iter()
                .map(toml_text)
                .collect();
            if allowed.is_empty() {
                errors.push(format!(
                    "{at}: work param `{key}` is not in experiments/{}.toml",
                    p.experiment
                ));
                continue;
            }
            if !allowed.contains(value) {
                errors.push(format!(
                    "{at}: {key}={value}, but the catalog says {} at {preset}",
                    allowed.join(" or ")
                ));
            }
        }
    }
    errors
}

/// For each variant both languages plan, the work-param keys must be equal and the two sets
/// of combinations must share at least one (the rows a report can pair).
fn check_pairs(preset: Preset, planned: &[Planned]) -> Vec<String> {
    type Combos = BTreeSet<BTreeMap<String, String>>;
    let mut by_variant: BTreeMap<(String, String), BTreeMap<String, Combos>> = BTreeMap::new();
    for p in planned {
        by_variant
            .entry((p.experiment.clone(), p.variant.clone()))
            .or_default()
            .entry(p.language.clone())
            .or_default()
            .insert(p.work.clone());
    }
    let mut errors = Vec::new();
    for ((experiment, variant), languages) in &by_variant {
        let (Some(rust), Some(java)) = (languages.get("rust"), languages.get("java")) else {
            continue;
        };
        let keys = |combos: &Combos| -> BTreeSet<String> {
            combos.iter().flat_map(|c| c.keys().cloned()).collect()
        };
        let at = format!("{experiment} {variant} at {preset}");
        if keys(rust) != keys(java) {
            errors.push(format!(
                "{at}: Rust plans work params {:?}, Java {:?}",
                keys(rust),
                keys(java)
            ));
        } else if rust.is_disjoint(java) {
            errors.push(format!(
                "{at}: no Rust result would pair with a Java one: Rust plans {rust:?}, Java {java:?}"
            ));
        }
    }
    errors
}

fn rust_plan(preset: Preset) -> Vec<Planned> {
    let mut args = vec!["run".to_string(), "all".into(), "--plan".into()];
    args.extend(flag_args(preset));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::sympathy(&argv);
    let source = format!("sympathy {}", args.join(" "));
    assert!(out.status.success(), "{source}: {}", common::text(&out));
    parse_plan(&source, &out.stdout)
}

/// The preset flags both languages take (`--default` is no flag: it is the default).
fn flag_args(preset: Preset) -> Vec<String> {
    match preset {
        Preset::Default => Vec::new(),
        other => vec![format!("--{other}")],
    }
}

#[test]
fn rust_plans_only_the_catalogs_work() {
    for preset in Preset::ALL {
        let planned = rust_plan(preset);
        let errors = check_against_catalog(preset, &planned);
        assert!(errors.is_empty(), "{}", errors.join("\n"));
        for spec in &catalog().experiments {
            if spec.variants_in(Language::Rust).is_empty() {
                continue;
            }
            assert!(
                planned.iter().any(|p| p.experiment == spec.name),
                "sympathy run all --plan --{preset} plans nothing for {}",
                spec.name
            );
        }
    }
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/test runs it after ci/java-test"]
fn rust_and_java_plan_the_same_work() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let sidecar = root.join("java/sidecar");
    let mut errors = Vec::new();
    for preset in Preset::ALL {
        let mut planned = rust_plan(preset);
        for spec in &catalog().experiments {
            if spec.variants_in(Language::Java).is_empty() {
                continue;
            }
            let mut args = vec!["run".to_string(), spec.name.clone(), "--plan".into()];
            args.extend(flag_args(preset));
            let out = Command::new(&sidecar)
                .args(&args)
                .output()
                .expect("java/sidecar runs");
            let source = format!("java/sidecar {}", args.join(" "));
            assert!(out.status.success(), "{source}: {}", common::text(&out));
            planned.extend(parse_plan(&source, &out.stdout));
        }
        errors.extend(check_against_catalog(preset, &planned));
        errors.extend(check_pairs(preset, &planned));
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The checks themselves: the memory-walk drift this test exists for (Rust walking 64 MiB at
/// `quick` while Java walks 256 MiB) is caught by both of them.
#[test]
fn the_checks_catch_the_memory_walk_drift() {
    let line = |language: &str, size: u64| {
        format!(
            r#"{{"kind":"plan","experiment":"memory-walk","language":"{language}","variant":"linear","params":{{"size_bytes":{size},"memory":"off-heap","huge_pages":false}}}}"#
        )
    };
    let quick = catalog()
        .experiment("memory-walk")
        .and_then(|e| e.param("size_bytes"))
        .and_then(|p| p.u64_at(Preset::Quick))
        .expect("memory-walk has a quick size");
    let drifted = format!("{}\n{}\n", line("rust", 64 << 20), line("java", quick));
    let planned = parse_plan("drifted", drifted.as_bytes());
    let against = check_against_catalog(Preset::Quick, &planned);
    assert!(
        against.len() == 1 && against[0].contains("size_bytes=67108864"),
        "{against:?}"
    );
    let pairs = check_pairs(Preset::Quick, &planned);
    assert!(
        pairs.len() == 1 && pairs[0].contains("no Rust result would pair"),
        "{pairs:?}"
    );
    let agreed = format!("{}\n{}\n", line("rust", quick), line("java", quick));
    let planned = parse_plan("agreed", agreed.as_bytes());
    assert!(check_against_catalog(Preset::Quick, &planned).is_empty());
    assert!(check_pairs(Preset::Quick, &planned).is_empty());
}
