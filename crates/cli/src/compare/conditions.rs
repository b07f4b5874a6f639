//! The machine's state beside every figure: the `conditions` object `compare` adds to each
//! result of a run (`docs/results.md`), with the store-release hop measured right before and
//! right after the run (`sympathy_lab::hop_probe`), and what the run's process used.
//!
//! ```text
//! "conditions":{"round":2,"rounds":3,"hop_ns_before":51.8,"hop_ns_after":55.2,"retries":0,
//!               "peak_rss_bytes":48234496,"cpu_s":7.31,"wall_s":6.02}
//! ```

use sympathy_lab::hop_probe::{probe_cores, probe_hop_ns};
use sympathy_report::Stream;

use super::process::Usage;

/// Measures the machine's one-way hop, in ns; `None` when it cannot (fewer than two cores, a
/// failed pin).
pub trait HopProbe {
    /// One measurement (a few ms).
    fn hop_ns(&self) -> Option<f64>;
}

/// The store-release hop between the first two cores this process may use, in this process.
pub struct StoreReleaseProbe {
    cores: Option<(usize, usize)>,
}

impl StoreReleaseProbe {
    /// The probe on this machine's first two cores (none on fewer than two).
    pub fn new() -> StoreReleaseProbe {
        StoreReleaseProbe {
            cores: probe_cores(),
        }
    }
}

impl HopProbe for StoreReleaseProbe {
    fn hop_ns(&self) -> Option<f64> {
        self.cores.and_then(|cores| probe_hop_ns(cores).ok())
    }
}

/// The conditions of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditions {
    /// Its round, from 1.
    pub round: u32,
    /// How many rounds the comparison runs.
    pub rounds: u32,
    /// The hop right before the run, ns.
    pub hop_ns_before: Option<f64>,
    /// The hop right after the run, ns.
    pub hop_ns_after: Option<f64>,
    /// How many times the run was made again before this result.
    pub retries: u32,
    /// What the run's process used (`None` in tests that make conditions by hand).
    pub usage: Option<Usage>,
}

impl Conditions {
    /// As the results schema writes them (`sympathy_report::Conditions`: every field there
    /// is optional, since a plain `sympathy run` has none).
    pub fn record(&self) -> sympathy_report::Conditions {
        sympathy_report::Conditions {
            round: Some(self.round),
            rounds: Some(self.rounds),
            hop_ns_before: self.hop_ns_before,
            hop_ns_after: self.hop_ns_after,
            retries: Some(self.retries),
            peak_rss_bytes: self.usage.map(|u| u.peak_rss_bytes),
            cpu_s: self.usage.map(|u| u.cpu_s),
            wall_s: self.usage.map(|u| u.wall.as_secs_f64()),
        }
    }

    /// How far, in percent, the hop moved between the two probes, relative to the smaller one
    /// (50 ns before and 75 ns after: 50%); `None` without both.
    pub fn drift_percent(&self) -> Option<f64> {
        self.record().drift_percent()
    }

    /// Adds `"conditions"` to every result record of `stream` (replacing one already there),
    /// both as written and as the report reads it (`ResultRecord::conditions`).
    pub fn stamp(&self, stream: &mut Stream) {
        for result in &mut stream.results {
            result.set_conditions(self.record());
        }
    }

    /// `, hop 51.8 -> 55.2 ns (7% drift)`, or nothing when unmeasured.
    pub fn hop_text(&self) -> String {
        match (self.hop_ns_before, self.hop_ns_after, self.drift_percent()) {
            (Some(a), Some(b), Some(d)) => format!(", hop {a:.1} -> {b:.1} ns ({d:.0}% drift)"),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sympathy_report::parse_jsonl;

    fn conditions(before: Option<f64>, after: Option<f64>) -> Conditions {
        Conditions {
            round: 2,
            rounds: 3,
            hop_ns_before: before,
            hop_ns_after: after,
            retries: 1,
            usage: None,
        }
    }

    #[test]
    fn every_result_of_a_stream_gets_the_conditions_in_its_raw_record() {
        let text = concat!(
            r#"{"kind":"env","language":"rust"}"#,
            "\n",
            r#"{"kind":"result","experiment":"queue","language":"rust","variant":"p1c1","params":{},"metric":"msgs_per_sec","value":1.0,"unit":"msgs/s"}"#,
            "\n",
            r#"{"kind":"result","experiment":"queue","language":"c","variant":"p1c1","params":{},"metric":"msgs_per_sec","value":2.0,"unit":"msgs/s"}"#,
        );
        let mut stream = parse_jsonl("t", text).unwrap();
        conditions(Some(51.84), Some(55.2)).stamp(&mut stream);
        for result in &stream.results {
            assert_eq!(
                result.raw["conditions"],
                json!({"round":2,"rounds":3,"hop_ns_before":51.8,"hop_ns_after":55.2,"retries":1})
            );
            // The report reads the typed field: a stamped stream must pair by round, not
            // show its rounds as duplicates.
            assert_eq!(result.conditions.round(), 2);
            assert_eq!(result.conditions.hop_ns_after, Some(55.2));
        }
        assert!(!stream.envs[0].raw.contains_key("conditions"));
    }

    #[test]
    fn the_runs_usage_is_written_in_bytes_and_hundredths_of_seconds() {
        let c = Conditions {
            usage: Some(Usage {
                peak_rss_bytes: 48_234_496,
                cpu_s: 7.3149,
                wall: std::time::Duration::from_millis(6021),
            }),
            ..conditions(None, None)
        };
        assert_eq!(
            c.record().to_json(),
            json!({"round":2,"rounds":3,"retries":1,"peak_rss_bytes":48234496,"cpu_s":7.31,"wall_s":6.02})
        );
    }

    #[test]
    fn without_a_probe_the_hop_fields_are_absent_and_drift_unknown() {
        let c = conditions(None, None);
        assert_eq!(
            c.record().to_json(),
            json!({"round":2,"rounds":3,"retries":1}),
            "fewer than two cores: no hop fields"
        );
        assert_eq!(c.drift_percent(), None);
        assert_eq!(c.hop_text(), "");
        let drifted = conditions(Some(50.0), Some(75.0));
        assert_eq!(drifted.drift_percent(), Some(50.0));
        assert_eq!(
            conditions(Some(75.0), Some(50.0)).drift_percent(),
            Some(50.0)
        );
        assert!(drifted.hop_text().contains("50% drift"));
    }
}
