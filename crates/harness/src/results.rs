//! The results schema: JSON Lines that every `sympathy` run prints with `--json`, and that the
//! Java side emits too, so that one report can pair the languages. See `docs/results.md`.
//!
//! A stream is one `{"kind":"env",...}` line (see [`crate::machine::Env`]) followed by one
//! `{"kind":"result",...}` line per measurement:
//!
//! ```text
//! {"kind":"result","experiment":"ping-pong","language":"rust","variant":"xadd",
//!  "params":{"cores":"0,1"},"metric":"ns_per_hop","value":64.2,"unit":"ns",
//!  "stats":{"runs":5,"median":64.2,"min":63.8,"max":66.0},"check":"ok"}
//! ```

use std::io::{self, Write};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::catalog::{Better, MetricSpec, catalog};
use crate::format;
use crate::machine::Env;
use crate::stats::Stats;

/// The metric names that are part of the interface, each with its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Nanoseconds per operation (per increment, per element visited, ...).
    NsPerOp,
    /// Nanoseconds for one one-way hop of a value between two cores.
    NsPerHop,
    /// One-way hops per second.
    HopsPerSec,
    /// Fraction (0..=1) of the operations that one thread performed.
    ThreadShare,
    /// Mean operations a thread made in a row before another thread's came between (how long
    /// a core kept a contended cache line).
    OpsPerHandoff,
    /// Milliseconds to build a data structure.
    InitMs,
    /// Milliseconds to run a query over it.
    QueryMs,
    /// `init_ms + query_ms` of one run.
    TotalMs,
    /// Bytes of memory per record, as measured from the allocator.
    BytesPerRecord,
    /// Messages per second through a queue or ring.
    MsgsPerSec,
    /// Payload bytes per second through a queue or ring.
    BytesPerSec,
    /// Round-trip time, 50th percentile, nanoseconds.
    RttP50Ns,
    /// Round-trip time, 99th percentile, nanoseconds.
    RttP99Ns,
    /// Round-trip time, 99.9th percentile, nanoseconds.
    RttP999Ns,
    /// Round-trip time, maximum, nanoseconds.
    RttMaxNs,
    /// Nanoseconds per encode (serialization).
    WriteNs,
    /// Nanoseconds per decode (serialization).
    ReadNs,
    /// Bytes of one encoded object.
    EncodedBytes,
    /// Calls (operations) per second.
    OpsPerSec,
    /// Request latency, 50th percentile, nanoseconds.
    LatencyP50Ns,
    /// Request latency, 99th percentile, nanoseconds.
    LatencyP99Ns,
    /// Request latency, maximum, nanoseconds.
    LatencyMaxNs,
    /// Requests turned away ("busy").
    Rejected,
    /// Requests served.
    Completed,
    /// Wake-up latency (a write to the handler of a sleeping peer), 50th percentile, ns.
    WakeP50Ns,
    /// Wake-up latency, 99th percentile, ns.
    WakeP99Ns,
    /// Wake-up latency, 99.9th percentile, ns.
    WakeP999Ns,
    /// Wake-up latency, maximum, ns.
    WakeMaxNs,
    /// CPU time of a process over wall time, in percent of one core.
    CpuPercent,
    /// Milliseconds a garbage collector spent during the run (Rust, without one: 0).
    GcPauseMs,
    /// Lookups of a map per second, one thread.
    GetOpsPerSec,
    /// Puts into a map per second, one thread.
    PutOpsPerSec,
    /// One lookup's latency, 50th percentile, ns.
    GetP50Ns,
    /// One lookup's latency, 99th percentile, ns.
    GetP99Ns,
    /// Bytes on the heap with the map loaded.
    HeapBytes,
    /// Bytes outside the heap (the map file's mapped length).
    NativeBytes,
    /// Milliseconds to reopen a map file and read one value.
    ReopenMs,
    /// Milliseconds a System.gc() took with the map loaded (Rust: 0).
    FullGcMs,
    /// That pause as the JVM's GC log reports it.
    GcLogPauseMs,
    /// Friend-of-friend walks per second.
    TraversalsPerSec,
    /// HTTP lookups answered per second by a service.
    LookupsPerSec,
    /// HTTP lookups answered per CPU-second the service's process spent.
    LookupsPerCpuSec,
}

impl Metric {
    /// Every metric, in declaration order.
    pub const ALL: [Metric; 42] = [
        Metric::NsPerOp,
        Metric::NsPerHop,
        Metric::HopsPerSec,
        Metric::ThreadShare,
        Metric::OpsPerHandoff,
        Metric::InitMs,
        Metric::QueryMs,
        Metric::TotalMs,
        Metric::BytesPerRecord,
        Metric::MsgsPerSec,
        Metric::BytesPerSec,
        Metric::RttP50Ns,
        Metric::RttP99Ns,
        Metric::RttP999Ns,
        Metric::RttMaxNs,
        Metric::WriteNs,
        Metric::ReadNs,
        Metric::EncodedBytes,
        Metric::OpsPerSec,
        Metric::LatencyP50Ns,
        Metric::LatencyP99Ns,
        Metric::LatencyMaxNs,
        Metric::Rejected,
        Metric::Completed,
        Metric::WakeP50Ns,
        Metric::WakeP99Ns,
        Metric::WakeP999Ns,
        Metric::WakeMaxNs,
        Metric::CpuPercent,
        Metric::GcPauseMs,
        Metric::GetOpsPerSec,
        Metric::PutOpsPerSec,
        Metric::GetP50Ns,
        Metric::GetP99Ns,
        Metric::HeapBytes,
        Metric::NativeBytes,
        Metric::ReopenMs,
        Metric::FullGcMs,
        Metric::GcLogPauseMs,
        Metric::TraversalsPerSec,
        Metric::LookupsPerSec,
        Metric::LookupsPerCpuSec,
    ];

    /// The metric's name in the schema.
    pub fn name(self) -> &'static str {
        match self {
            Metric::NsPerOp => "ns_per_op",
            Metric::NsPerHop => "ns_per_hop",
            Metric::HopsPerSec => "hops_per_sec",
            Metric::ThreadShare => "thread_share",
            Metric::OpsPerHandoff => "ops_per_handoff",
            Metric::InitMs => "init_ms",
            Metric::QueryMs => "query_ms",
            Metric::TotalMs => "total_ms",
            Metric::BytesPerRecord => "bytes_per_record",
            Metric::MsgsPerSec => "msgs_per_sec",
            Metric::BytesPerSec => "bytes_per_sec",
            Metric::RttP50Ns => "rtt_p50_ns",
            Metric::RttP99Ns => "rtt_p99_ns",
            Metric::RttP999Ns => "rtt_p999_ns",
            Metric::RttMaxNs => "rtt_max_ns",
            Metric::WriteNs => "write_ns",
            Metric::ReadNs => "read_ns",
            Metric::EncodedBytes => "encoded_bytes",
            Metric::OpsPerSec => "ops_per_sec",
            Metric::LatencyP50Ns => "latency_p50_ns",
            Metric::LatencyP99Ns => "latency_p99_ns",
            Metric::LatencyMaxNs => "latency_max_ns",
            Metric::Rejected => "rejected",
            Metric::Completed => "completed",
            Metric::WakeP50Ns => "wake_p50_ns",
            Metric::WakeP99Ns => "wake_p99_ns",
            Metric::WakeP999Ns => "wake_p999_ns",
            Metric::WakeMaxNs => "wake_max_ns",
            Metric::CpuPercent => "cpu_percent",
            Metric::GcPauseMs => "gc_pause_ms",
            Metric::GetOpsPerSec => "get_ops_per_sec",
            Metric::PutOpsPerSec => "put_ops_per_sec",
            Metric::GetP50Ns => "get_p50_ns",
            Metric::GetP99Ns => "get_p99_ns",
            Metric::HeapBytes => "heap_bytes",
            Metric::NativeBytes => "native_bytes",
            Metric::ReopenMs => "reopen_ms",
            Metric::FullGcMs => "full_gc_ms",
            Metric::GcLogPauseMs => "gc_log_pause_ms",
            Metric::TraversalsPerSec => "traversals_per_sec",
            Metric::LookupsPerSec => "lookups_per_sec",
            Metric::LookupsPerCpuSec => "lookups_per_cpu_sec",
        }
    }

    /// The unit the metric's values are in (from the catalog's `common.toml`).
    pub fn unit(self) -> &'static str {
        &self.spec().unit
    }

    /// Whether a larger value is better (rates) or worse (times, sizes).
    pub fn higher_is_better(self) -> bool {
        self.spec().better == Better::Higher
    }

    /// The catalog's entry for the metric (a test checks every metric has one).
    fn spec(self) -> &'static MetricSpec {
        catalog()
            .metric(self.name())
            .unwrap_or_else(|| unreachable!("metric {} is in experiments/common.toml", self.name()))
    }
}

/// What verified that a run did the work it claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The run's result was verified (a checksum, a final counter, every message in order).
    Ok,
    /// The quantity is itself a measurement with nothing to verify (e.g. bytes per record).
    NotApplicable,
}

impl Check {
    fn as_str(&self) -> &'static str {
        match self {
            Check::Ok => "ok",
            Check::NotApplicable => "n/a",
        }
    }
}

/// One result line of the schema.
///
/// # Examples
/// ```
/// use sympathy_harness::{Check, Measurement, Metric, Stats};
/// let m = Measurement::new("ping-pong", "xadd")
///     .param("cores", "0,1")
///     .stats(Metric::NsPerHop, Stats::from_samples(&[64.0, 63.0, 66.0]).unwrap())
///     .check(Check::Ok);
/// let line = m.to_json();
/// assert!(line.starts_with(r#"{"kind":"result","experiment":"ping-pong","language":"rust""#));
/// assert!(line.contains(r#""metric":"ns_per_hop","value":64.0,"unit":"ns""#));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    /// Experiment name, e.g. `ping-pong`.
    pub experiment: String,
    /// `rust` or `c` (the Java side writes `java`).
    pub language: String,
    /// Variant name, e.g. `xadd`.
    pub variant: String,
    /// Parameters, in insertion order.
    pub params: Map<String, Value>,
    /// What was measured.
    pub metric: Metric,
    /// Median and spread.
    pub stats: Stats,
    /// How the run was verified.
    pub check: Check,
    /// Parity facts (`common.toml`'s `parity_facts`): what the run measured or did about the
    /// conditions of its work, which the result's twin in another language must share.
    pub parity: Map<String, Value>,
}

impl Measurement {
    /// A Rust measurement of `experiment`/`variant` with no params, a zero value and
    /// `check: "ok"`; set the rest with the builder methods.
    pub fn new(experiment: &str, variant: &str) -> Measurement {
        Measurement {
            experiment: experiment.to_string(),
            language: "rust".to_string(),
            variant: variant.to_string(),
            params: Map::new(),
            metric: Metric::NsPerOp,
            stats: Stats {
                runs: 0,
                median: 0.0,
                min: 0.0,
                max: 0.0,
            },
            check: Check::Ok,
            parity: Map::new(),
        }
    }

    /// Sets the language (`rust`, `c`, `java`).
    pub fn language(mut self, language: &str) -> Measurement {
        self.language = language.to_string();
        self
    }

    /// Adds a parameter (`threads`, `cores`, `size_bytes`, `records`, `placement`, ...).
    pub fn param(mut self, key: &str, value: impl Into<Value>) -> Measurement {
        self.params.insert(key.to_string(), value.into());
        self
    }

    /// Adds a parity fact (`pinned`, `huge_pages`, `inputs`, `timer`, ...; docs/results.md).
    pub fn fact(mut self, name: &str, value: impl Into<Value>) -> Measurement {
        self.parity.insert(name.to_string(), value.into());
        self
    }

    /// Sets the metric and its statistics; the reported value is the median.
    pub fn stats(mut self, metric: Metric, stats: Stats) -> Measurement {
        self.metric = metric;
        self.stats = stats;
        self
    }

    /// Sets how the run was verified.
    pub fn check(mut self, check: Check) -> Measurement {
        self.check = check;
        self
    }

    /// The reported value: the median over runs.
    pub fn value(&self) -> f64 {
        self.stats.median
    }

    /// The measurement as one JSON line (no trailing newline).
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Line<'a> {
            kind: &'static str,
            experiment: &'a str,
            language: &'a str,
            variant: &'a str,
            params: &'a Map<String, Value>,
            metric: &'static str,
            value: f64,
            unit: &'static str,
            stats: &'a Stats,
            check: &'static str,
            #[serde(skip_serializing_if = "Map::is_empty")]
            parity: &'a Map<String, Value>,
        }
        let line = Line {
            kind: "result",
            experiment: &self.experiment,
            language: &self.language,
            variant: &self.variant,
            params: &self.params,
            metric: self.metric.name(),
            value: self.value(),
            unit: self.metric.unit(),
            stats: &self.stats,
            check: self.check.as_str(),
            parity: &self.parity,
        };
        serde_json::to_string(&line).expect("a result line always serialises")
    }

    /// A one-line human summary: `variant  param=value ...  median unit (min .. max, n runs)`.
    pub fn to_human(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect();
        let s = &self.stats;
        format!(
            "{:<24} {:<28} {} = {} {} (min {} .. max {}, {} runs){}",
            self.variant,
            params.join(" "),
            self.metric.name(),
            format::value(s.median),
            self.metric.unit(),
            format::value(s.min),
            format::value(s.max),
            s.runs,
            if self.language == "rust" {
                String::new()
            } else {
                format!(" [{}]", self.language)
            }
        )
    }
}

/// Where a run's output goes: seed-style human lines, or the JSON Lines of the schema.
///
/// In JSON mode, stdout carries only schema lines; progress and seed-style lines go to stderr
/// so that a user still sees the run advance.
pub struct Reporter {
    json: bool,
    out: Box<dyn Write>,
    err: Box<dyn Write>,
    env_written: bool,
    results: Vec<Measurement>,
}

impl Reporter {
    /// A reporter writing to stdout (and stderr for progress in JSON mode).
    pub fn stdout(json: bool) -> Reporter {
        Reporter::to_writers(json, Box::new(io::stdout()), Box::new(io::stderr()))
    }

    /// A reporter writing to the given streams (used by tests).
    pub fn to_writers(json: bool, out: Box<dyn Write>, err: Box<dyn Write>) -> Reporter {
        Reporter {
            json,
            out,
            err,
            env_written: false,
            results: Vec::new(),
        }
    }

    /// Whether this reporter writes JSON Lines.
    pub fn is_json(&self) -> bool {
        self.json
    }

    /// Writes the `env` record once (later calls do nothing).
    pub fn env(&mut self, env: &Env) -> io::Result<()> {
        if self.env_written {
            return Ok(());
        }
        self.env_written = true;
        if self.json {
            writeln!(self.out, "{}", env.to_json())
        } else {
            writeln!(self.out, "# {}", env.to_human())
        }
    }

    /// A seed-style progress line, e.g. `0 - 0.91ns linear`.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        if self.json {
            writeln!(self.err, "{text}")
        } else {
            writeln!(self.out, "{text}")
        }
    }

    /// Records a measurement and prints it (as JSON, or as a human summary line). A result of
    /// an experiment whose catalog entry lists the `pinned` parity fact gets it, unless the
    /// measurement set it: from its `pinning` param where it has one (threads in other
    /// processes), else from this process ([`crate::pin::pinned_any`]).
    pub fn result(&mut self, mut m: Measurement) -> io::Result<()> {
        let lists_pinned = crate::catalog::catalog()
            .parity(&m.experiment)
            .iter()
            .any(|f| f == "pinned");
        if lists_pinned && !m.parity.contains_key("pinned") {
            // A run whose threads live in other processes says how they ran in its `pinning`
            // param; one that pins its own threads is pinned when some pin took effect here.
            let pinned = match m.params.get("pinning") {
                Some(mode) => mode == "pinned",
                None => crate::pin::pinned_any(),
            };
            m.parity.insert("pinned".into(), Value::Bool(pinned));
        }
        if self.json {
            writeln!(self.out, "{}", m.to_json())?;
        } else {
            writeln!(self.out, "{}", m.to_human())?;
        }
        self.out.flush()?;
        self.results.push(m);
        Ok(())
    }

    /// Every measurement reported so far.
    pub fn results(&self) -> &[Measurement] {
        &self.results
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Measurement {
        Measurement::new("memory-walk", "linear")
            .param("size_bytes", 1024)
            .stats(
                Metric::NsPerOp,
                Stats::from_samples(&[0.6, 0.5, 0.7]).unwrap(),
            )
    }

    #[test]
    fn json_line_has_schema_fields_in_order() {
        let v: Value = serde_json::from_str(&sample().to_json()).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "kind",
                "experiment",
                "language",
                "variant",
                "params",
                "metric",
                "value",
                "unit",
                "stats",
                "check"
            ]
        );
        assert_eq!(v["value"], 0.6);
        assert_eq!(v["stats"]["runs"], 3);
        assert_eq!(v["params"]["size_bytes"], 1024);
        assert_eq!(v["check"], "ok");
    }

    #[test]
    fn json_mode_keeps_stdout_clean() {
        let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        struct W(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl Write for W {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut r = Reporter::to_writers(true, Box::new(W(out.clone())), Box::new(io::sink()));
        r.line("0 - 0.91ns linear").unwrap();
        r.result(sample()).unwrap();
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(text.starts_with(r#"{"kind":"result""#));
        assert_eq!(r.results().len(), 1);
    }

    #[test]
    fn rates_are_higher_is_better() {
        assert!(Metric::MsgsPerSec.higher_is_better());
        assert!(!Metric::NsPerOp.higher_is_better());
        assert_eq!(Metric::RttP999Ns.unit(), "ns");
    }
}
