//! Reading JSON Lines streams of the results schema, with errors that name `file:line`.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::{Map, Value};

use crate::failure::RunFailure;
use crate::record::{
    ComparisonRecord, Conditions, EnvRecord, ResultRecord, Source, Spread, value_text,
};

/// A stream that is not valid results-schema JSON Lines.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A line that is not a valid record.
    #[error("{at}: {message} (each line must be one record of docs/results.md)")]
    BadLine {
        /// The offending line.
        at: Source,
        /// What was wrong with it.
        message: String,
    },
    /// The file could not be read.
    #[error("{file}: cannot read: {message}")]
    Unreadable {
        /// The file.
        file: String,
        /// The I/O error.
        message: String,
    },
}

/// The records of one stream, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stream {
    /// The `env` records (normally one, first).
    pub envs: Vec<EnvRecord>,
    /// The `result` records.
    pub results: Vec<ResultRecord>,
    /// The `failure` records: runs of a comparison that produced no results.
    pub failures: Vec<RunFailure>,
    /// The `comparison` record (the first one, when a stream has several): the run of
    /// `sympathy compare` as a whole.
    pub comparison: Option<ComparisonRecord>,
}

/// Reads a JSON Lines file of the results schema.
///
/// # Errors
/// [`ParseError::Unreadable`] if the file cannot be read, [`ParseError::BadLine`] naming
/// `file:line` for the first line that is not a record.
pub fn read_jsonl(path: &Path) -> Result<Stream, ParseError> {
    let name = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|e| ParseError::Unreadable {
        file: name.clone(),
        message: e.to_string(),
    })?;
    parse_jsonl(&name, &text)
}

/// Parses JSON Lines text of the results schema; `name` labels errors and sources.
/// Blank lines are skipped.
///
/// # Errors
/// [`ParseError::BadLine`] for the first line that is not JSON, not an object, of an unknown
/// `kind`, or missing a field the schema requires.
///
/// # Examples
/// ```
/// let err = sympathy_report::parse_jsonl("run.jsonl", "{\"kind\":\"env\",\"language\":\"rust\"}\nnot json")
///     .unwrap_err();
/// assert!(err.to_string().starts_with("run.jsonl:2: "));
/// ```
pub fn parse_jsonl(name: &str, text: &str) -> Result<Stream, ParseError> {
    let mut stream = Stream::default();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let source = Source {
            file: name.to_string(),
            line: index + 1,
        };
        let bad = |message: String| ParseError::BadLine {
            at: source.clone(),
            message,
        };
        let value: Value = serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
        let Value::Object(raw) = value else {
            return Err(bad("not a JSON object".into()));
        };
        let fields = Fields { raw: &raw };
        match fields.string("kind").map_err(&bad)?.as_str() {
            "env" => stream.envs.push(EnvRecord {
                language: fields.string("language").map_err(&bad)?,
                raw: raw.clone(),
                source,
            }),
            "result" => stream
                .results
                .push(parse_result(&fields, raw.clone(), source.clone()).map_err(&bad)?),
            "failure" => stream
                .failures
                .push(RunFailure::from_json(&raw).map_err(&bad)?),
            "comparison" => {
                if stream.comparison.is_none() {
                    stream.comparison = Some(ComparisonRecord {
                        raw: raw.clone(),
                        source,
                    });
                }
            }
            other => {
                return Err(bad(format!(
                    "unknown kind `{other}` (expected `env`, `result`, `failure` or `comparison`)"
                )));
            }
        }
    }
    Ok(stream)
}

fn parse_result(
    fields: &Fields<'_>,
    raw: Map<String, Value>,
    source: Source,
) -> Result<ResultRecord, String> {
    let params = match raw.get("params") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(Value::Object(p)) => p.iter().map(|(k, v)| (k.clone(), value_text(v))).collect(),
        Some(_) => return Err("field `params` must be an object".into()),
    };
    let parity = match raw.get("parity") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(Value::Object(p)) => p.iter().map(|(k, v)| (k.clone(), value_text(v))).collect(),
        Some(_) => return Err("field `parity` must be an object".into()),
    };
    let jit_ms = raw
        .get("stats")
        .and_then(|s| s.get("jit_ms"))
        .and_then(Value::as_array)
        .map(|ms| ms.iter().filter_map(Value::as_f64).fold(0.0, f64::max));
    let spread = match raw.get("stats") {
        None | Some(Value::Null) => None,
        Some(Value::Object(s)) => {
            let stats = Fields { raw: s };
            let first = match s.get("first") {
                None | Some(Value::Null) => None,
                Some(v) => Some(v.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
                    format!("stats: field `first` must be a finite number, found {v}")
                })?),
            };
            Some(Spread {
                runs: stats.number("runs").map_err(|e| format!("stats: {e}"))? as u64,
                min: stats.number("min").map_err(|e| format!("stats: {e}"))?,
                max: stats.number("max").map_err(|e| format!("stats: {e}"))?,
                first,
            })
        }
        Some(_) => return Err("field `stats` must be an object".into()),
    };
    let value = fields.number("value")?;
    if !value.is_finite() {
        return Err("field `value` must be a finite number".into());
    }
    Ok(ResultRecord {
        experiment: fields.string("experiment")?,
        language: fields.string("language")?,
        variant: fields.string("variant")?,
        params,
        metric: fields.string("metric")?,
        value,
        unit: fields.string("unit")?,
        spread,
        check: fields.optional_string("check").unwrap_or_default(),
        conditions: Conditions::parse(raw.get("conditions"))?,
        jit_ms,
        parity,
        raw,
        source,
    })
}

/// Typed access to an object's fields, with messages naming the field.
struct Fields<'a> {
    raw: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn string(&self, key: &str) -> Result<String, String> {
        match self.raw.get(key) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            Some(Value::String(_)) => Err(format!("field `{key}` is empty")),
            Some(_) => Err(format!("field `{key}` must be a string")),
            None => Err(format!("field `{key}` is missing")),
        }
    }

    fn optional_string(&self, key: &str) -> Option<String> {
        self.raw
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    fn number(&self, key: &str) -> Result<f64, String> {
        match self.raw.get(key) {
            Some(v) => v
                .as_f64()
                .ok_or_else(|| format!("field `{key}` must be a number, found {v}")),
            None => Err(format!("field `{key}` is missing")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RESULT: &str = r#"{"kind":"result","experiment":"ping-pong","language":"rust","variant":"xadd","params":{"cores":"0,1","iterations":1000},"metric":"ns_per_hop","value":64.2,"unit":"ns","stats":{"runs":5,"median":64.2,"min":63.8,"max":66.0},"check":"ok"}"#;

    fn line_error(text: &str) -> String {
        parse_jsonl("f.jsonl", text).unwrap_err().to_string()
    }

    #[test]
    fn reads_env_and_result_records() {
        let text = format!("{{\"kind\":\"env\",\"language\":\"rust\",\"cores\":2}}\n\n{RESULT}\n");
        let stream = parse_jsonl("f.jsonl", &text).unwrap();
        assert_eq!(stream.envs.len(), 1);
        assert_eq!(stream.envs[0].field("cores"), "2");
        let r = &stream.results[0];
        assert_eq!(
            (r.experiment.as_str(), r.variant.as_str()),
            ("ping-pong", "xadd")
        );
        assert_eq!(r.params["cores"], "0,1");
        assert_eq!(r.params["iterations"], "1000");
        assert_eq!(
            r.spread,
            Some(Spread {
                runs: 5,
                min: 63.8,
                max: 66.0,
                first: None,
            })
        );
        assert_eq!(r.source.to_string(), "f.jsonl:3");
    }

    #[test]
    fn bad_json_names_file_and_line() {
        let err = line_error(&format!("{RESULT}\n{{oops"));
        assert!(err.starts_with("f.jsonl:2: not JSON"), "{err}");
    }

    #[test]
    fn missing_field_is_named() {
        let err = line_error(&RESULT.replace(r#""metric":"ns_per_hop","#, ""));
        assert!(
            err.starts_with("f.jsonl:1: field `metric` is missing"),
            "{err}"
        );
    }

    #[test]
    fn value_must_be_a_number() {
        let err = line_error(&RESULT.replace("\"value\":64.2", "\"value\":\"fast\""));
        assert!(err.contains("field `value` must be a number"), "{err}");
    }

    #[test]
    fn unknown_kind_is_rejected() {
        let err = line_error(r#"{"kind":"progress"}"#);
        assert!(err.contains("unknown kind `progress`"), "{err}");
    }

    #[test]
    fn failure_records_are_read_and_checked() {
        let line = r#"{"kind":"failure","experiment":"back-pressure","label":"rust","round":2,"retries":2,"reason":"busy"}"#;
        let stream = parse_jsonl("f.jsonl", &format!("{RESULT}\n{line}")).unwrap();
        assert_eq!(stream.results.len(), 1);
        let f = &stream.failures[0];
        assert_eq!(
            (f.experiment.as_str(), f.round, f.retries),
            ("back-pressure", 2, 2)
        );
        let err = line_error(&line.replace(r#""reason":"busy""#, r#""why":"busy""#));
        assert!(
            err.starts_with("f.jsonl:1: field `reason` is missing"),
            "{err}"
        );
    }

    #[test]
    fn non_object_line_is_rejected() {
        assert!(line_error("[1,2]").contains("not a JSON object"));
    }

    #[test]
    fn stats_first_is_the_first_measured_iteration_when_written() {
        let with_first = RESULT.replace("\"max\":66.0}", "\"max\":66.0,\"first\":91.5}");
        let stream = parse_jsonl("f.jsonl", &with_first).unwrap();
        assert_eq!(stream.results[0].spread.unwrap().first, Some(91.5));
        let stream = parse_jsonl("f.jsonl", RESULT).unwrap();
        assert_eq!(stream.results[0].spread.unwrap().first, None, "optional");
        let err = line_error(&RESULT.replace("\"max\":66.0}", "\"max\":66.0,\"first\":\"x\"}"));
        assert!(
            err.contains("stats: field `first` must be a finite number"),
            "{err}"
        );
    }

    #[test]
    fn conditions_carry_the_runs_resources_and_name_a_bad_one() {
        let with = |conditions: &str| {
            RESULT.replace(
                "\"check\":\"ok\"}",
                &format!("\"check\":\"ok\",\"conditions\":{conditions}}}"),
            )
        };
        let text = with(r#"{"round":1,"peak_rss_bytes":52428800,"cpu_s":3.21,"wall_s":4.5}"#);
        let c = parse_jsonl("f.jsonl", &text).unwrap().results[0].conditions;
        assert_eq!(c.peak_rss_bytes, Some(52_428_800));
        assert_eq!((c.cpu_s, c.wall_s), (Some(3.21), Some(4.5)));
        assert_eq!(
            c.to_json(),
            serde_json::json!({"round":1,"peak_rss_bytes":52428800,"cpu_s":3.21,"wall_s":4.5})
        );
        let older = parse_jsonl("f.jsonl", &with(r#"{"round":1}"#)).unwrap();
        assert_eq!(older.results[0].conditions.peak_rss_bytes, None);
        let err = line_error(&with(r#"{"peak_rss_bytes":-1}"#));
        assert!(
            err.contains("conditions: field `peak_rss_bytes` must be a whole number of bytes"),
            "{err}"
        );
        let err = line_error(&with(r#"{"cpu_s":"lots"}"#));
        assert!(
            err.contains("conditions: field `cpu_s` must be a number of seconds"),
            "{err}"
        );
        let err = line_error(&with(r#"{"wall_s":-2.0}"#));
        assert!(err.contains("field `wall_s`"), "{err}");
    }

    #[test]
    fn a_comparison_record_is_kept_and_an_unknown_kind_still_errors() {
        let comparison = r#"{"kind":"comparison","preset":"quick","commit":"0aba4b7","dirty":true,"rounds":2,"budget_s":300,"jvm_flags":{"launcher":["-Da=b"]}}"#;
        let second = r#"{"kind":"comparison","preset":"full"}"#;
        let stream = parse_jsonl("f.jsonl", &format!("{comparison}\n{RESULT}\n{second}")).unwrap();
        let record = stream.comparison.unwrap();
        assert_eq!(record.field("preset"), "quick", "the first one is kept");
        assert_eq!(record.field("dirty"), "true");
        assert_eq!(record.field("budget_s"), "300");
        assert_eq!(record.field("jvm_flags"), r#"{"launcher":["-Da=b"]}"#);
        assert_eq!(record.source.line, 1);
        assert_eq!(stream.results.len(), 1);
        let older = parse_jsonl("f.jsonl", RESULT).unwrap();
        assert_eq!(older.comparison, None, "a file without one still parses");
        let err = line_error(r#"{"kind":"summary","preset":"quick"}"#);
        assert!(
            err.starts_with("f.jsonl:1: unknown kind `summary`"),
            "{err}"
        );
    }

    #[test]
    fn bad_stats_are_named() {
        let err = line_error(&RESULT.replace("\"min\":63.8,", ""));
        assert!(err.contains("stats: field `min` is missing"), "{err}");
    }
}
