//! The `comparison` record: the run of `compare` as a whole, written first in `results.jsonl`
//! (`docs/results.md`): preset, commit, rounds, budget, the machine, the JDK and the JVM flags,
//! and the wall time of all runs.
//!
//! ```text
//! {"kind":"comparison","preset":"quick","commit":"0aba4b7","dirty":false,
//!  "started":"2026-11-27T17:02:11Z","rounds":2,"budget_s":300,"cpu_model":"...","cpu_mhz":2100.0,
//!  "cores":2,"ram_bytes":8331239424,"kernel":"6.18.44","jdk":"Eclipse Adoptium 25.0.1",
//!  "jvm_flags":{"launcher":["--enable-native-access=ALL-UNNAMED",...],"latency":[...]},
//!  "runs_s":371.2}
//! ```

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Map, Value, json};
use sympathy_harness::Preset;
use sympathy_harness::machine::Env;
use sympathy_report::{ComparisonRecord, Source};

/// What the record says besides the machine.
pub struct Setup<'a> {
    /// The preset of the runs.
    pub preset: Preset,
    /// The base rounds of every experiment.
    pub rounds: u32,
    /// The time the runs may take (`None`: no limit).
    pub budget: Option<Duration>,
    /// The checkout (`None` outside one).
    pub root: Option<&'a Path>,
    /// The JDK the Java runs use (`None` when there are none or it was not found).
    pub java_home: Option<&'a str>,
}

/// The record at the start of the runs (`runs_s` is added by [`finish`]).
pub fn start(setup: &Setup<'_>, env: &Env) -> Map<String, Value> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let max_freq =
        std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq").ok();
    let (commit, dirty) = setup.root.map_or(("unknown".to_string(), false), git_state);
    let record = json!({
        "kind": "comparison",
        "preset": setup.preset.name(),
        "commit": commit,
        "dirty": dirty,
        "started": env.timestamp,
        "rounds": setup.rounds,
        "budget_s": setup.budget.map(|b| b.as_secs()),
        "cpu_model": env.cpu_model,
        "cpu_mhz": cpu_mhz(&cpuinfo, max_freq.as_deref()),
        "cores": env.cores,
        "ram_bytes": ram_bytes(&meminfo),
        "kernel": env.kernel,
        "jdk": setup.java_home.map_or_else(|| "none".to_string(), jdk_version),
        "jvm_flags": setup.root.map_or(Value::Null, jvm_flags),
    });
    match record {
        Value::Object(map) => map,
        _ => unreachable!("json! of an object is an object"),
    }
}

/// The record with the wall time of all runs, as the report keeps it.
pub fn finish(mut record: Map<String, Value>, runs: Duration) -> ComparisonRecord {
    let tenth = (runs.as_secs_f64() * 10.0).round() / 10.0;
    record.insert("runs_s".into(), tenth.into());
    ComparisonRecord {
        raw: record,
        source: Source {
            file: "sympathy compare".into(),
            line: 1,
        },
    }
}

/// `git rev-parse --short HEAD` of `root` and whether `git status --porcelain` lists anything
/// but untracked files under `target/`; `("unknown", false)` outside git.
fn git_state(root: &Path) -> (String, bool) {
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else {
        return ("unknown".into(), false);
    };
    let status = git(&["status", "--porcelain"]).unwrap_or_default();
    (commit.trim().to_string(), is_dirty(&status))
}

/// Whether `git status --porcelain` output lists a change (untracked files under `target/`
/// aside: build output of the comparison itself).
fn is_dirty(porcelain: &str) -> bool {
    porcelain
        .lines()
        .any(|l| !l.trim().is_empty() && !l.starts_with("?? target/"))
}

/// The first `cpu MHz` of `/proc/cpuinfo`, else `scaling_max_freq` (kHz) in MHz.
fn cpu_mhz(cpuinfo: &str, scaling_max_freq_khz: Option<&str>) -> Option<f64> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("cpu MHz"))
        .and_then(|l| l.split_once(':'))
        .and_then(|(_, v)| v.trim().parse::<f64>().ok())
        .or_else(|| {
            scaling_max_freq_khz
                .and_then(|k| k.trim().parse::<f64>().ok())
                .map(|khz| khz / 1000.0)
        })
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn ram_bytes(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The JDK at `java_home`: `IMPLEMENTOR JAVA_VERSION` of its `release` file (`Eclipse Adoptium
/// 25.0.1`), else the first line of `java -version`, else `unknown`.
fn jdk_version(java_home: &str) -> String {
    let home = Path::new(java_home);
    let release = std::fs::read_to_string(home.join("release")).unwrap_or_default();
    if let Some(version) = release_field(&release, "JAVA_VERSION") {
        return match release_field(&release, "IMPLEMENTOR") {
            Some(implementor) => format!("{implementor} {version}"),
            None => version,
        };
    }
    Command::new(home.join("bin/java"))
        .arg("-version")
        .stdout(Stdio::null())
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .map(str::to_string)
        })
        .unwrap_or_else(|| "unknown".into())
}

/// `KEY="value"` of a JDK's `release` file.
fn release_field(release: &str, key: &str) -> Option<String> {
    release.lines().find_map(|l| {
        let value = l.strip_prefix(key)?.strip_prefix('=')?;
        Some(value.trim().trim_matches('"').to_string())
    })
}

/// The flags `java/launcher.sh` gives the JVMs, read from it with bash: `launcher` (every JVM:
/// the sidecar's and JMH's) and `latency` (the sidecar and the JVMs it starts); `null` when it
/// cannot be read.
fn jvm_flags(root: &Path) -> Value {
    let script = r#"source "$1" || exit 1
printf '%s\n' "${launcher_jvm_flags[@]}"
printf -- '--8<--\n'
printf '%s\n' "${launcher_latency_jvm_flags[@]}""#;
    let output = Command::new("bash")
        .args(["-c", script, "launcher"])
        .arg(root.join("java/launcher.sh"))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    match output {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let (launcher, latency) = text.split_once("--8<--\n").unwrap_or((&text, ""));
            let list = |s: &str| -> Vec<String> {
                s.lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect()
            };
            json!({"launcher": list(launcher), "latency": list(latency)})
        }
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_facts_come_from_proc_and_sys() {
        let cpuinfo = "processor\t: 0\nmodel name\t: Xeon\ncpu MHz\t\t: 2100.000\n\nprocessor\t: 1\ncpu MHz\t\t: 1800.5\n";
        assert_eq!(cpu_mhz(cpuinfo, Some("3500000\n")), Some(2100.0));
        assert_eq!(
            cpu_mhz("model name : Arm\n", Some("3500000\n")),
            Some(3500.0)
        );
        assert_eq!(cpu_mhz("", None), None);
        let meminfo = "MemTotal:        8136132 kB\nMemFree:  1 kB\n";
        assert_eq!(ram_bytes(meminfo), Some(8_136_132 * 1024));
        assert_eq!(ram_bytes(""), None);
        let release = "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.1\"\n";
        assert_eq!(
            release_field(release, "JAVA_VERSION").as_deref(),
            Some("25.0.1")
        );
        assert_eq!(
            release_field(release, "IMPLEMENTOR").as_deref(),
            Some("Eclipse Adoptium")
        );
    }

    #[test]
    fn untracked_build_output_does_not_make_a_checkout_dirty() {
        assert!(!is_dirty(""));
        assert!(!is_dirty("?? target/sympathy/report.md\n"));
        assert!(is_dirty(" M crates/cli/src/main.rs\n"));
        assert!(is_dirty("?? notes.txt\n"));
    }

    #[test]
    fn the_record_names_the_run_and_reads_back() {
        let root = crate::checkout::repo_root();
        let setup = Setup {
            preset: Preset::Quick,
            rounds: 2,
            budget: Some(Duration::from_secs(300)),
            root: root.as_deref(),
            java_home: None,
        };
        let record = finish(
            start(&setup, &Env::collect()),
            Duration::from_millis(371_240),
        );
        let line = Value::Object(record.raw.clone()).to_string();
        let parsed = sympathy_report::parse_jsonl("r", &line).unwrap();
        let back = parsed.comparison.unwrap();
        assert_eq!(back.field("kind"), "comparison");
        assert_eq!(back.field("preset"), "quick");
        assert_eq!(back.field("rounds"), "2");
        assert_eq!(back.field("budget_s"), "300");
        assert_eq!(back.field("runs_s"), "371.2");
        assert_eq!(back.field("jdk"), "none");
        assert!(!back.field("commit").is_empty());
        assert!(back.field("started").ends_with('Z'));
        if root.is_some() {
            let flags = &back.raw["jvm_flags"];
            assert!(
                flags["launcher"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|f| f == "--enable-native-access=ALL-UNNAMED"),
                "{flags}"
            );
            assert!(
                flags["latency"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|f| f == "-XX:+UseSerialGC"),
                "{flags}"
            );
        }
    }
}
