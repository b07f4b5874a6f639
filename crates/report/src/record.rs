//! The two record kinds of the results schema (`docs/results.md`), as read from a stream.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

/// Where a record came from: the stream's name (usually a file) and its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Name of the stream (a file path, or a label such as `ping-pong/java`).
    pub file: String,
    /// 1-based line number in that stream.
    pub line: usize,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// An `env` record: the machine and toolchain a stream was measured with.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvRecord {
    /// `language` of the process that wrote the stream.
    pub language: String,
    /// The record as written (every field kept, in order).
    pub raw: Map<String, Value>,
    /// Where it was read.
    pub source: Source,
}

impl EnvRecord {
    /// A field rendered as text (`""` when absent): strings bare, other values as JSON.
    pub fn field(&self, key: &str) -> String {
        self.raw.get(key).map(value_text).unwrap_or_default()
    }

    /// The record without its timestamp, to tell identical machines apart from different ones.
    pub fn machine_identity(&self) -> Map<String, Value> {
        let mut m = self.raw.clone();
        m.remove("timestamp");
        m
    }
}

/// The `comparison` record `sympathy compare` writes first in its `results.jsonl`: the run as a
/// whole (preset, commit, rounds, budget, machine, JDK, JVM flags, wall time of the runs).
///
/// ```
/// let text = r#"{"kind":"comparison","preset":"quick","commit":"0aba4b7","dirty":false,"rounds":2}"#;
/// let stream = sympathy_report::parse_jsonl("results.jsonl", text).unwrap();
/// let comparison = stream.comparison.unwrap();
/// assert_eq!(comparison.field("preset"), "quick");
/// assert_eq!(comparison.field("dirty"), "false");
/// assert_eq!(comparison.field("jdk"), "");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ComparisonRecord {
    /// The record as written (every field kept, in order).
    pub raw: Map<String, Value>,
    /// Where it was read.
    pub source: Source,
}

impl ComparisonRecord {
    /// A field rendered as text (`""` when absent): strings bare, other values as JSON.
    pub fn field(&self, key: &str) -> String {
        self.raw.get(key).map(value_text).unwrap_or_default()
    }
}

/// `min .. max` over `runs` runs, whose median is the result's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// Number of runs.
    pub runs: u64,
    /// Smallest run.
    pub min: f64,
    /// Largest run.
    pub max: f64,
    /// The first measured iteration's value, in the metric's unit (`stats.first`; Java writes
    /// it, so that warm-up shows), when the record carries it.
    pub first: Option<f64>,
}

/// A `result` record: one measurement of one variant in one language.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRecord {
    /// Experiment name (`ping-pong`, ...).
    pub experiment: String,
    /// `rust`, `java` or `c`.
    pub language: String,
    /// Variant name; the same name in two languages means the same work.
    pub variant: String,
    /// Parameters, each value rendered as text (strings bare, numbers as written).
    pub params: BTreeMap<String, String>,
    /// Metric name (`ns_per_hop`, ...).
    pub metric: String,
    /// The median over the runs.
    pub value: f64,
    /// Unit of `value`.
    pub unit: String,
    /// Spread over the runs, when the record carries `stats`.
    pub spread: Option<Spread>,
    /// `ok` or `n/a`.
    pub check: String,
    /// The state of the machine and the round it ran in (`compare` writes it).
    pub conditions: Conditions,
    /// The most milliseconds the JIT compiled during one measured iteration (`stats.jit_ms`,
    /// Java's JMH runs), when the record carries it.
    pub jit_ms: Option<f64>,
    /// Parity facts (`parity`), each value rendered as text: what the run measured or did
    /// about the conditions of its work, which its twin in another language must share.
    pub parity: BTreeMap<String, String>,
    /// The record as written (every field kept, in order).
    pub raw: Map<String, Value>,
    /// Where it was read.
    pub source: Source,
}

/// A result's `conditions` (docs/results.md): the round of `compare` it ran in, the one-way
/// hop between two cores measured right before and after it, and how often it was run again.
/// Every field is optional; a result without `conditions` is round 1 of 1.
///
/// ```
/// # use sympathy_report::Conditions;
/// let c = Conditions::parse(Some(&serde_json::json!({"round": 2, "rounds": 3,
///     "hop_ns_before": 50.0, "hop_ns_after": 70.0, "retries": 1}))).unwrap();
/// assert_eq!(c.round(), 2);
/// assert_eq!(c.drift_percent(), Some(40.0));
/// assert_eq!(Conditions::default().round(), 1);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Conditions {
    /// The 1-based round of the comparison.
    pub round: Option<u32>,
    /// How many rounds the comparison ran.
    pub rounds: Option<u32>,
    /// One-way store-release hop in ns, right before the run.
    pub hop_ns_before: Option<f64>,
    /// The same, right after.
    pub hop_ns_after: Option<f64>,
    /// How many times the run was repeated before this result.
    pub retries: Option<u32>,
    /// Peak resident set size of the run's process, in bytes: the largest of the process and
    /// the descendants it waited for (a JMH fork counts).
    pub peak_rss_bytes: Option<u64>,
    /// CPU time of the run's process and its waited-for descendants, user + system, seconds.
    pub cpu_s: Option<f64>,
    /// Wall-clock seconds of the run's process, from its start to its exit.
    pub wall_s: Option<f64>,
}

impl Conditions {
    /// Reads the `conditions` field of a result (`None`: absent).
    ///
    /// # Errors
    /// A message naming the field that is not an object, a positive integer or a number.
    pub fn parse(value: Option<&Value>) -> Result<Conditions, String> {
        let map = match value {
            None | Some(Value::Null) => return Ok(Conditions::default()),
            Some(Value::Object(map)) => map,
            Some(other) => {
                return Err(format!(
                    "field `conditions` must be an object, found {other}"
                ));
            }
        };
        let integer = |key: &str, least: u64| -> Result<Option<u32>, String> {
            match map.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .filter(|n| *n >= least)
                    .and_then(|n| u32::try_from(n).ok())
                    .map(Some)
                    .ok_or_else(|| {
                        format!(
                            "conditions: field `{key}` must be an integer >= {least}, found {v}"
                        )
                    }),
            }
        };
        // A number >= 0 of what `what` says (`a number of ns`), or absent.
        let non_negative = |key: &str, what: &str| -> Result<Option<f64>, String> {
            match map.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_f64()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .map(Some)
                    .ok_or_else(|| format!("conditions: field `{key}` must be {what}, found {v}")),
            }
        };
        let hop = |key: &str| non_negative(key, "a number of ns");
        let bytes = |key: &str| -> Result<Option<u64>, String> {
            match map.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                    format!("conditions: field `{key}` must be a whole number of bytes, found {v}")
                }),
            }
        };
        let seconds = |key: &str| non_negative(key, "a number of seconds >= 0");
        Ok(Conditions {
            round: integer("round", 1)?,
            rounds: integer("rounds", 1)?,
            hop_ns_before: hop("hop_ns_before")?,
            hop_ns_after: hop("hop_ns_after")?,
            retries: integer("retries", 0)?,
            peak_rss_bytes: bytes("peak_rss_bytes")?,
            cpu_s: seconds("cpu_s")?,
            wall_s: seconds("wall_s")?,
        })
    }

    /// The round, 1 when not given.
    pub fn round(&self) -> u32 {
        self.round.unwrap_or(1)
    }

    /// How far the hop moved during the run, in percent of the smaller probe (`None` without
    /// both probes).
    pub fn drift_percent(&self) -> Option<f64> {
        let (before, after) = (self.hop_ns_before?, self.hop_ns_after?);
        let low = before.min(after);
        (low > 0.0).then(|| (after - before).abs() / low * 100.0)
    }
}

impl Conditions {
    /// The `conditions` object as written: the fields that are set, hops rounded to 0.1 ns,
    /// seconds to 0.01 s.
    ///
    /// ```
    /// use sympathy_report::Conditions;
    /// let c = Conditions { round: Some(2), hop_ns_before: Some(51.84), ..Conditions::default() };
    /// assert_eq!(c.to_json().to_string(), r#"{"round":2,"hop_ns_before":51.8}"#);
    /// ```
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        let tenth = |ns: f64| (ns * 10.0).round() / 10.0;
        let hundredth = |s: f64| (s * 100.0).round() / 100.0;
        let fields = [
            ("round", self.round.map(Value::from)),
            ("rounds", self.rounds.map(Value::from)),
            (
                "hop_ns_before",
                self.hop_ns_before.map(|ns| Value::from(tenth(ns))),
            ),
            (
                "hop_ns_after",
                self.hop_ns_after.map(|ns| Value::from(tenth(ns))),
            ),
            ("retries", self.retries.map(Value::from)),
            ("peak_rss_bytes", self.peak_rss_bytes.map(Value::from)),
            ("cpu_s", self.cpu_s.map(|s| Value::from(hundredth(s)))),
            ("wall_s", self.wall_s.map(|s| Value::from(hundredth(s)))),
        ];
        for (name, value) in fields {
            if let Some(value) = value {
                object.insert(name.into(), value);
            }
        }
        Value::Object(object)
    }
}

impl ResultRecord {
    /// Sets the result's `conditions`, in the typed field and in the record as written (so
    /// both the report and the merged `results.jsonl` see them).
    pub fn set_conditions(&mut self, conditions: Conditions) {
        self.raw.insert("conditions".into(), conditions.to_json());
        self.conditions = conditions;
    }
}

/// A JSON value as text: strings without quotes, anything else as compact JSON.
pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
