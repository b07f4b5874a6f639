//! A run of the comparison that produced no results, and its `failure` line in results.jsonl
//! (`docs/results.md`), so that `compare --from results.jsonl` lists it again.

use serde_json::{Map, Value, json};

/// A run of the comparison that produced no results (it failed, timed out, or its language's
/// side was unavailable). The report lists them so a missing figure is never silent.
///
/// # Examples
/// ```
/// use sympathy_report::RunFailure;
/// let f = RunFailure {
///     experiment: "back-pressure".into(),
///     label: "rust".into(),
///     round: 2,
///     retries: 2,
///     reason: "the machine was busy".into(),
/// };
/// assert_eq!(f.to_string(), "back-pressure [rust] round 2, retried 2 times: the machine was busy");
/// let line = f.to_json();
/// assert_eq!(line["kind"], "failure");
/// assert_eq!(RunFailure::from_json(line.as_object().unwrap()), Ok(f));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFailure {
    /// Experiment of the run.
    pub experiment: String,
    /// Which side ran it: `rust`, `java`, `rust->java`, ...
    pub label: String,
    /// The round of the comparison it belonged to (1-based).
    pub round: u32,
    /// How many times it was run again before it was given up (environmental failures).
    pub retries: u32,
    /// What went wrong, and where its log is.
    pub reason: String,
}

impl RunFailure {
    /// Its line in results.jsonl:
    /// `{"kind":"failure","experiment":..,"label":..,"round":..,"retries":..,"reason":..}`.
    pub fn to_json(&self) -> Value {
        json!({
            "kind": "failure",
            "experiment": self.experiment,
            "label": self.label,
            "round": self.round,
            "retries": self.retries,
            "reason": self.reason,
        })
    }

    /// Reads a `failure` line's object; `round` defaults to 1 and `retries` to 0.
    ///
    /// # Errors
    /// A message naming the field that is missing or of the wrong type.
    pub fn from_json(raw: &Map<String, Value>) -> Result<RunFailure, String> {
        let text = |key: &str| match raw.get(key) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            Some(_) => Err(format!("field `{key}` must be a non-empty string")),
            None => Err(format!("field `{key}` is missing")),
        };
        let count = |key: &str, absent: u32| match raw.get(key) {
            None | Some(Value::Null) => Ok(absent),
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| format!("field `{key}` must be a whole number, found {v}")),
        };
        Ok(RunFailure {
            experiment: text("experiment")?,
            label: text("label")?,
            round: count("round", 1)?,
            retries: count("retries", 0)?,
            reason: text("reason")?,
        })
    }
}

/// `, retried once` / `, retried 2 times` after a run's description, or nothing for none.
///
/// ```
/// use sympathy_report::retried_suffix;
/// assert_eq!(retried_suffix(0), "");
/// assert_eq!(retried_suffix(1), ", retried once");
/// assert_eq!(retried_suffix(2), ", retried 2 times");
/// ```
pub fn retried_suffix(retries: u32) -> String {
    match retries {
        0 => String::new(),
        1 => ", retried once".into(),
        n => format!(", retried {n} times"),
    }
}

impl std::fmt::Display for RunFailure {
    /// `back-pressure [rust] round 2, retried 2 times: <reason>` (the retries only when some).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} [{}] round {}{}: {}",
            self.experiment,
            self.label,
            self.round,
            retried_suffix(self.retries),
            self.reason
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_line_needs_its_names_and_reads_defaults() {
        let line =
            json!({"kind": "failure", "experiment": "queue", "label": "java", "reason": "x"});
        let f = RunFailure::from_json(line.as_object().unwrap()).unwrap();
        assert_eq!((f.round, f.retries), (1, 0));
        assert_eq!(f.to_string(), "queue [java] round 1: x");
        let bad = json!({"kind": "failure", "experiment": "queue", "reason": "x"});
        let err = RunFailure::from_json(bad.as_object().unwrap()).unwrap_err();
        assert!(err.contains("`label` is missing"), "{err}");
        let negative = json!({"experiment": "q", "label": "rust", "reason": "x", "round": -1});
        let err = RunFailure::from_json(negative.as_object().unwrap()).unwrap_err();
        assert!(err.contains("`round` must be a whole number"), "{err}");
    }
}
