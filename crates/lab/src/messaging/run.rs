//! Measuring a list of [`Case`]s and reporting them: every case's run 0, then every case's run
//! 1, ... (the cases alternate run by run, so that a drifting core-to-core cost meets each alike),
//! the one-way hop probed before every run (a few ms) and printed beside its rate, and each
//! variant's rate against `raw` of the same sender, round by round.

use sympathy_harness::format;
use sympathy_harness::{Check, Metric, Reporter, Stats};

use super::cases::{Case, Variant};
use super::receive::{Received, measure_messaging};
use crate::hop_probe::probe_hop_ns;
use crate::peer::{PeerError, PeerRuns};

/// Measures every case `plan.runs` times, the sender on `plan.cores.0` and the receiver on
/// `plan.cores.1`, and reports each case's results with the plan's runner params.
///
/// # Errors
/// The first failed run (named by case and run) or a failed write of a result.
pub fn run_cases(
    cases: &[Case],
    plan: &PeerRuns,
    reporter: &mut Reporter,
) -> Result<(), PeerError> {
    let (runs, cores, launcher) = (plan.runs, plan.cores, plan.launcher);
    let hop = |h: Option<f64>| h.map_or_else(|| "n/a".to_string(), |h| format!("{h:.1} ns"));
    let mut hops = Vec::new();
    let mut samples: Vec<Vec<Received>> = vec![Vec::with_capacity(runs); cases.len()];
    for run in 0..runs {
        for (case, done) in cases.iter().zip(&mut samples) {
            let label = case.label();
            let before = probe_hop_ns(cores).ok();
            hops.extend(before);
            let received = measure_messaging(case, cores, launcher).map_err(|err| match err {
                PeerError::Peer(m) => PeerError::Peer(format!("{label} run {run}: {m}")),
                PeerError::Mismatch(m) => PeerError::Mismatch(format!("{label} run {run}: {m}")),
                other => other,
            })?;
            reporter.line(&format!(
                "{run} - {label}: msgs/s={} bytes={:.1} (hop before: {})",
                format::value(received.msgs_per_sec),
                received.mean_bytes,
                hop(before)
            ))?;
            done.push(received);
        }
    }
    hops.extend(probe_hop_ns(cores).ok());
    if let Some(h) = Stats::from_samples(&hops) {
        reporter.line(&format!(
            "# one-way hop between cores {},{} (store-release probe before every run and after the \
             last): median {:.1} ns (min {:.1} .. max {:.1}, {} probes)",
            cores.0,
            cores.1,
            h.median,
            h.min,
            h.max,
            hops.len()
        ))?;
    }
    for (case, done) in cases.iter().zip(&samples) {
        let base = plan.runner_params(case.measurement());
        let rates: Vec<f64> = done.iter().map(|r| r.msgs_per_sec).collect();
        let bytes: Vec<f64> = done.iter().map(|r| r.mean_bytes).collect();
        if let (Some(rates), Some(bytes)) =
            (Stats::from_samples(&rates), Stats::from_samples(&bytes))
        {
            reporter.result(
                base.clone()
                    .stats(Metric::MsgsPerSec, rates)
                    .check(Check::Ok),
            )?;
            reporter.result(
                base.stats(Metric::EncodedBytes, bytes)
                    .check(Check::NotApplicable),
            )?;
        }
    }
    print_ratios(cases, &samples, reporter)?;
    Ok(())
}

/// `ratio sbe / raw (same-language, same round): median ...` for every variant with a `raw`
/// case of the same sender.
fn print_ratios(
    cases: &[Case],
    samples: &[Vec<Received>],
    reporter: &mut Reporter,
) -> std::io::Result<()> {
    for (case, done) in cases.iter().zip(samples) {
        if case.variant == Variant::Raw {
            continue;
        }
        let raw = cases
            .iter()
            .position(|c| c.variant == Variant::Raw && c.sender == case.sender);
        let Some(raw) = raw.map(|i| &samples[i]) else {
            continue;
        };
        let ratios: Vec<f64> = done
            .iter()
            .zip(raw)
            .map(|(r, base)| r.msgs_per_sec / base.msgs_per_sec)
            .collect();
        let what = format!(
            "{} / raw ({}, same round)",
            case.variant.name(),
            case.sender.name()
        );
        if let Some(line) = Stats::ratio_line(&what, &ratios, "rounds") {
            reporter.line(&line)?;
        }
    }
    Ok(())
}
