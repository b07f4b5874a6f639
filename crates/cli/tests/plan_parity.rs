//! The drift test: both languages, asked what they would run (`run <exp> --plan`) at every
//! preset, must plan the work the catalog (`experiments/*.toml`) lists, and for every variant
//! both implement, plan work a Rust and a Java result can be paired on.
//!
//! - `rust_plans_only_the_catalogs_work` runs with every `cargo test`.
//! - `rust_and_java_plan_the_same_work` needs the Java build (`java/sidecar`, a JDK and Maven):
//!   `ci/test` runs it after `ci/java-test` with `--ignored`. For every variant the catalog lists
//!   in both languages, the two plans must list the same work-param combinations: every row of
//!   the report a pair.
//! - `one_runs_results_have_distinct_pair_keys`: results a run reports apart (atomic-increment's
//!   `thread_share` of each thread) must not share a pair key, or the report drops one.
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
            Some(v) if !v.runs_at(preset) => errors.push(format!(
                "{at}: planned, but the catalog skips it at {preset} (skip_at)"
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

/// Every row a pair: for each variant the catalog lists in both Rust and Java, both languages
/// must plan it, with the same set of work-param combinations (each combination one row of the
/// report, paired as `PairKey` pairs results: the catalog's variant name, the work params). A
/// combination only one language plans is a row with one empty column.
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
    let planned_experiments: BTreeSet<&str> =
        planned.iter().map(|p| p.experiment.as_str()).collect();
    let none = Combos::new();
    let mut errors = Vec::new();
    for spec in &catalog().experiments {
        if !planned_experiments.contains(spec.name.as_str()) {
            continue;
        }
        for variant in &spec.variants {
            let both = [Language::Rust, Language::Java]
                .iter()
                .all(|l| variant.languages.contains(l));
            if !both {
                continue;
            }
            let languages = by_variant.get(&(spec.name.clone(), variant.name.clone()));
            let combos = |language: &str| languages.and_then(|l| l.get(language)).unwrap_or(&none);
            let (rust, java) = (combos("rust"), combos("java"));
            let at = format!("{} {} at {preset}", spec.name, variant.name);
            if rust.is_empty() && java.is_empty() {
                continue; // not run in this plan (a test's few lines)
            }
            if rust.is_empty() || java.is_empty() {
                errors.push(format!(
                    "{at}: the catalog lists it in Rust and Java, but Rust plans {} and Java {} combinations",
                    rust.len(),
                    java.len()
                ));
                continue;
            }
            for (only, these, other) in [("Rust", rust, java), ("Java", java, rust)] {
                for combo in these.difference(other) {
                    errors.push(format!(
                        "{at}: only {only} plans {combo:?}: that row would have no pair"
                    ));
                }
            }
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
    let java_plan = |experiment: &str, preset: Preset| {
        let mut args = vec!["run".to_string(), experiment.to_string(), "--plan".into()];
        args.extend(flag_args(preset));
        let out = Command::new(&sidecar)
            .args(&args)
            .output()
            .expect("java/sidecar runs");
        let source = format!("java/sidecar {}", args.join(" "));
        assert!(out.status.success(), "{source}: {}", common::text(&out));
        parse_plan(&source, &out.stdout)
    };
    let preset_errors = |preset: Preset| {
        let mut planned = rust_plan(preset);
        // One JVM plans every experiment `run all` covers (those under JMH); each other one
        // with Java variants is asked on its own (a JVM start each: seconds).
        let all = java_plan("all", preset);
        for spec in &catalog().experiments {
            let covered = all.iter().any(|p| p.experiment == spec.name);
            if !covered && !spec.variants_in(Language::Java).is_empty() {
                planned.extend(java_plan(&spec.name, preset));
            }
        }
        planned.extend(all);
        let mut errors = check_against_catalog(preset, &planned);
        errors.extend(check_pairs(preset, &planned));
        errors
    };
    // The presets side by side: most of the time is JVM starts, which wait on loading as much
    // as they compute.
    let errors: Vec<String> = std::thread::scope(|scope| {
        let running: Vec<_> = Preset::ALL
            .into_iter()
            .map(|preset| scope.spawn(move || preset_errors(preset)))
            .collect();
        running
            .into_iter()
            .flat_map(|thread| thread.join().expect("a preset's plans panicked"))
            .collect()
    });
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
        pairs.len() == 2
            && pairs[0].contains("only Rust plans")
            && pairs[1].contains("only Java plans"),
        "{pairs:?}"
    );
    let agreed = format!("{}\n{}\n", line("rust", quick), line("java", quick));
    let planned = parse_plan("agreed", agreed.as_bytes());
    assert!(check_against_catalog(Preset::Quick, &planned).is_empty());
    assert!(check_pairs(Preset::Quick, &planned).is_empty());
}

/// The pairing check catches what a quick compare showed before every row was a pair: Java
/// running a queue only cross-core where Rust runs both placements, and a variant both
/// languages implement that one of them does not run at all.
#[test]
fn the_pair_check_catches_a_placement_or_a_variant_one_language_skips() {
    let line = |language: &str, variant: &str, placement: &str| {
        format!(
            r#"{{"kind":"plan","experiment":"queue","language":"{language}","variant":"{variant}","params":{{"capacity":32768,"element":"u32","placement":"{placement}"}}}}"#
        )
    };
    let lines = [
        line("rust", "p1c1", "cross-core"),
        line("rust", "p1c1", "same-core"),
        line("java", "p1c1", "cross-core"),
        line("rust", "ring", "cross-core"),
    ]
    .join("\n");
    let planned = parse_plan("skipped", lines.as_bytes());
    let pairs = check_pairs(Preset::Quick, &planned);
    assert_eq!(pairs.len(), 2, "{pairs:?}");
    assert!(
        pairs[0].contains("queue p1c1") && pairs[0].contains("only Rust plans"),
        "{pairs:?}"
    );
    assert!(pairs[0].contains("same-core"), "{pairs:?}");
    assert!(
        pairs[1].contains("queue ring") && pairs[1].contains("Java 0 combinations"),
        "{pairs:?}"
    );
}

/// Results one run reports apart must not share a pair key, or the report keeps only the first
/// (atomic-increment's `thread_share` is one result per thread: `thread` is a work param there).
#[test]
fn one_runs_results_have_distinct_pair_keys() {
    let threads = sympathy_harness::pin::available_cores().len().min(2);
    let threads = threads.to_string();
    let out = common::sympathy(&[
        "run",
        "atomic-increment",
        "--json",
        "--smoke",
        "--runs",
        "1",
        "--threads",
        &threads,
        "--variants",
        "lock-xadd",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{}", common::text(&out));
    let stream = sympathy_report::parse_jsonl("atomic-increment", &text).expect("results parse");
    let mut seen = BTreeSet::new();
    for result in &stream.results {
        let key = (
            result.language.clone(),
            sympathy_report::PairKey::of(result),
        );
        assert!(
            seen.insert(key.clone()),
            "two results share the key {key:?}"
        );
    }
    let shares = stream
        .results
        .iter()
        .filter(|r| r.metric == "thread_share" && r.language == "rust")
        .count();
    assert_eq!(shares.to_string(), threads, "one thread_share per thread");
}
