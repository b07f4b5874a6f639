//! The gate: gungraun's JSON summaries in, instructions per message out, compared with the
//! committed baseline.
//!
//! Every benchmark runs its kernel for `n` and `2n` messages (cases `n1000` and `n2000`); the
//! difference of the two instruction counts (callgrind's `Ir`) divided by the difference of the
//! message counts is the cost of one message, with setup, call and teardown cancelled.
//!
//! ```
//! use sympathy_instructions::gate::{Baseline, compare};
//! let baseline = Baseline::from([("ring/write/4b".to_string(), 40.0)]);
//! let now = Baseline::from([("ring/write/4b".to_string(), 43.0)]);
//! let report = compare(&baseline, &now);
//! assert!(!report.passed(), "43 is 7.5% over 40, more than the 5% allowed");
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use anyhow::{Context, bail};
use serde_json::Value;

/// The most instructions per message may grow, in percent of the baseline, before the gate
/// fails. Counts are deterministic on one machine and toolchain, so this only leaves room for a
/// different toolchain or libc; any real change to a hot path shows up well beyond it.
pub const REGRESSION_LIMIT_PERCENT: f64 = 5.0;

/// Instructions per message, by benchmark id (`group/op/param`).
pub type Baseline = BTreeMap<String, f64>;

/// One benchmark case of a gungraun run: which benchmark, how many messages, how many
/// instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The id, `group/op/param` (e.g. `ring/write/4b`).
    pub id: String,
    /// Messages the case ran (from its gungraun case name, `n1000`).
    pub messages: u64,
    /// Instructions executed (callgrind's `Ir`) by the benchmark function.
    pub instructions: u64,
}

/// The id of gungraun benchmark `function` in group `group`: `group/op/param`, where `op` is the
/// function name up to its first `_` and `param` the rest with `-` for `_`
/// (`encode_serde_binary` in `serialization` is `serialization/encode/serde-binary`).
///
/// ```
/// use sympathy_instructions::gate::benchmark_id;
/// assert_eq!(benchmark_id("ring", "write_4b"), "ring/write/4b");
/// assert_eq!(benchmark_id("serialization", "decode_hand_codec"), "serialization/decode/hand-codec");
/// ```
pub fn benchmark_id(group: &str, function: &str) -> String {
    match function.split_once('_') {
        Some((op, param)) => format!("{group}/{op}/{}", param.replace('_', "-")),
        None => format!("{group}/{function}"),
    }
}

/// Reads one line of `cargo bench -- --output-format=json` (one benchmark case).
///
/// # Errors
/// When the line is not a gungraun summary with a group, an `n<count>` case id and a callgrind
/// `Ir` total.
pub fn parse_case(line: &str) -> anyhow::Result<Case> {
    let summary: Value = serde_json::from_str(line).context("a line that is not JSON")?;
    let function = summary["function_name"]
        .as_str()
        .context("no function_name in the summary")?;
    // "hot_paths::ring::write_4b" for benchmark `write_4b` of group `ring`.
    let module = summary["module_path"]
        .as_str()
        .context("no module_path in the summary")?;
    let group = module
        .rsplit("::")
        .nth(1)
        .with_context(|| format!("module_path `{module}`: expected `bench::group::function`"))?;
    let case = summary["id"].as_str().context("a case without an id")?;
    let messages = case
        .strip_prefix('n')
        .and_then(|count| count.parse().ok())
        .with_context(|| format!("case `{case}` of {function}: expected `n<messages>`"))?;
    let instructions = total_ir(&summary)
        .with_context(|| format!("no callgrind Ir total for {function} case {case}"))?;
    Ok(Case {
        id: benchmark_id(group, function),
        messages,
        instructions,
    })
}

/// The callgrind `Ir` total of this run (the new side of a comparison with a previous run).
fn total_ir(summary: &Value) -> Option<u64> {
    let profiles = summary["profiles"].as_array()?;
    let callgrind = profiles.iter().find(|p| p["tool"] == "Callgrind")?;
    let metrics = &callgrind["summaries"]["total"]["summary"]["Callgrind"]["Ir"]["metrics"];
    let new = metrics
        .get("Left")
        .or_else(|| metrics.get("Both").and_then(|both| both.get(0)))?;
    new.get("Int").unwrap_or(new).as_u64()
}

/// Instructions per message of every benchmark: `(Ir(2n) - Ir(n)) / n` from its two cases.
///
/// # Errors
/// When a benchmark has not exactly two cases of different message counts, or its longer case
/// executed fewer instructions than its shorter one.
pub fn per_message(cases: &[Case]) -> anyhow::Result<Baseline> {
    let mut by_id: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for case in cases {
        by_id.entry(&case.id).or_default().push(case);
    }
    let mut out = Baseline::new();
    for (id, mut pair) in by_id {
        pair.sort_by_key(|case| case.messages);
        let [short, long] = pair[..] else {
            bail!(
                "{id}: {} cases, expected two (n and 2n messages)",
                pair.len()
            );
        };
        if long.messages == short.messages || long.instructions < short.instructions {
            bail!("{id}: cases {short:?} and {long:?} do not grow with the messages");
        }
        let per = (long.instructions - short.instructions) as f64
            / (long.messages - short.messages) as f64;
        out.insert(id.to_string(), (per * 10.0).round() / 10.0);
    }
    Ok(out)
}

/// One id's line of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Benchmark id.
    pub id: String,
    /// Instructions per message in the baseline (None: a new benchmark).
    pub baseline: Option<f64>,
    /// Instructions per message now (None: the benchmark did not run).
    pub now: Option<f64>,
}

impl Line {
    /// Change from the baseline in percent, when both sides exist.
    pub fn change_percent(&self) -> Option<f64> {
        match (self.baseline, self.now) {
            (Some(base), Some(now)) if base > 0.0 => Some((now - base) / base * 100.0),
            _ => None,
        }
    }

    /// Why this line fails the gate, if it does.
    pub fn failure(&self) -> Option<String> {
        self.failure_updated_by(DEFAULT_UPDATE_COMMAND)
    }

    /// Why this line fails the gate, if it does, naming `update` as the command that takes a new
    /// id into the baseline.
    pub fn failure_updated_by(&self, update: &str) -> Option<String> {
        match (self.baseline, self.now, self.change_percent()) {
            (Some(_), None, _) => Some(format!("{}: in the baseline but not measured", self.id)),
            (None, Some(_), _) => Some(format!(
                "{}: measured but not in the baseline (run {update})",
                self.id
            )),
            (_, _, Some(change)) if change > REGRESSION_LIMIT_PERCENT => Some(format!(
                "{}: {change:+.1}% instructions per message, over the {REGRESSION_LIMIT_PERCENT}% allowed",
                self.id
            )),
            _ => None,
        }
    }
}

/// The command a failure names to take a new id into the baseline, unless
/// [`Comparison::updated_by`] names another.
pub const DEFAULT_UPDATE_COMMAND: &str = "ci/instructions --update";

/// The comparison of a run with the baseline, one line per id of either.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Lines in id order.
    pub lines: Vec<Line>,
    /// The command that rewrites this baseline (named by the failure of a new id).
    pub update_command: String,
}

impl Comparison {
    /// The same comparison, its failures naming `command` as the one that updates the baseline.
    ///
    /// ```
    /// use sympathy_instructions::gate::{Baseline, compare};
    /// let now = Baseline::from([("queue/offer/u32".to_string(), 19.5)]);
    /// let comparison = compare(&Baseline::new(), &now).updated_by("ci/java-instructions --update");
    /// assert!(comparison.failures()[0].contains("ci/java-instructions --update"));
    /// ```
    pub fn updated_by(mut self, command: &str) -> Comparison {
        self.update_command = command.to_string();
        self
    }

    /// Every failure, one sentence each.
    pub fn failures(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|line| line.failure_updated_by(&self.update_command))
            .collect()
    }

    /// Whether no id regressed, went missing or is new.
    pub fn passed(&self) -> bool {
        self.failures().is_empty()
    }

    /// The table: id, baseline, now, change.
    pub fn table(&self) -> String {
        let width = self
            .lines
            .iter()
            .map(|l| l.id.len())
            .max()
            .unwrap_or(2)
            .max(2);
        let mut out = format!(
            "{:width$}  {:>10}  {:>10}  {:>8}\n",
            "id", "baseline", "now", "change"
        );
        let cell = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
        for line in &self.lines {
            let change = line
                .change_percent()
                .map_or("-".to_string(), |c| format!("{c:+.1}%"));
            let _ = writeln!(
                out,
                "{:width$}  {:>10}  {:>10}  {:>8}",
                line.id,
                cell(line.baseline),
                cell(line.now),
                change
            );
        }
        out
    }
}

/// Compares instructions per message now with the baseline.
pub fn compare(baseline: &Baseline, now: &Baseline) -> Comparison {
    let ids: BTreeSet<&String> = baseline.keys().chain(now.keys()).collect();
    Comparison {
        lines: ids
            .into_iter()
            .map(|id| Line {
                id: id.clone(),
                baseline: baseline.get(id).copied(),
                now: now.get(id).copied(),
            })
            .collect(),
        update_command: DEFAULT_UPDATE_COMMAND.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(module: &str, function: &str, case: &str, ir: u64) -> String {
        serde_json::json!({
            "function_name": function,
            "module_path": module,
            "id": case,
            "profiles": [{
                "tool": "Callgrind",
                "summaries": {"total": {"summary": {"Callgrind": {
                    "Ir": {"metrics": {"Both": [{"Int": ir}, {"Int": 1}]}, "diffs": null}
                }}}}
            }]
        })
        .to_string()
    }

    #[test]
    fn a_summary_line_gives_its_id_messages_and_instructions() {
        let line = summary("hot_paths::ring::read_256b", "read_256b", "n2000", 123_456);
        let case = parse_case(&line).unwrap();
        assert_eq!(
            case,
            Case {
                id: "ring/read/256b".into(),
                messages: 2000,
                instructions: 123_456
            }
        );
    }

    #[test]
    fn a_case_without_a_message_count_is_an_error_naming_it() {
        let line = summary("hot_paths::ring::read_256b", "read_256b", "first", 1);
        let error = format!("{:#}", parse_case(&line).unwrap_err());
        assert!(error.contains("case `first`"), "{error}");
    }

    #[test]
    fn setup_costs_cancel_between_n_and_2n() {
        let case = |messages, instructions| Case {
            id: "queue/offer/u32".into(),
            messages,
            instructions,
        };
        let per = per_message(&[case(2000, 9_000 + 2000 * 12), case(1000, 9_000 + 1000 * 12)]);
        assert_eq!(per.unwrap()["queue/offer/u32"], 12.0);
        assert!(
            per_message(&[case(1000, 1)]).is_err(),
            "one case is not enough"
        );
    }

    #[test]
    fn the_gate_fails_on_a_regression_a_missing_or_a_new_id() {
        let base = Baseline::from([("a/b/c".to_string(), 100.0), ("a/b/d".to_string(), 10.0)]);
        let same = compare(&base, &base);
        assert!(same.passed());
        let faster = Baseline::from([("a/b/c".to_string(), 50.0), ("a/b/d".to_string(), 10.5)]);
        assert!(
            compare(&base, &faster).passed(),
            "5% is allowed, faster is fine"
        );
        let slower = Baseline::from([("a/b/c".to_string(), 105.1), ("a/b/d".to_string(), 10.0)]);
        assert_eq!(compare(&base, &slower).failures().len(), 1);
        let missing = Baseline::from([("a/b/c".to_string(), 100.0)]);
        assert!(compare(&base, &missing).failures()[0].contains("not measured"));
        let mut new = base.clone();
        new.insert("a/b/e".into(), 1.0);
        assert!(compare(&base, &new).failures()[0].contains("--update"));
        assert!(compare(&base, &slower).table().contains("+5.1%"));
    }
}
