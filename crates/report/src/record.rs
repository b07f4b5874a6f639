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

/// `min .. max` over `runs` runs, whose median is the result's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// Number of runs.
    pub runs: u64,
    /// Smallest run.
    pub min: f64,
    /// Largest run.
    pub max: f64,
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
    /// The record as written (every field kept, in order).
    pub raw: Map<String, Value>,
    /// Where it was read.
    pub source: Source,
}

/// A JSON value as text: strings without quotes, anything else as compact JSON.
pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
