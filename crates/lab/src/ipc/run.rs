//! Measuring a list of [`Case`]s and reporting them: cases of one variant (a throughput
//! variant under several write modes) alternate run by run (run 0 of each, then run 1 of each,
//! ...) so that a drifting core-to-core cost on a shared host hits each alike, and the ratio of
//! each to the first is printed per round.

use sympathy_harness::format;
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};

use super::{Case, Variant, measure_echo, measure_kind, measure_throughput};
use crate::peer::{PeerError, PeerRuns, Quantiles};

const RTT_METRICS: [Metric; 4] = [
    Metric::RttP50Ns,
    Metric::RttP99Ns,
    Metric::RttP999Ns,
    Metric::RttMaxNs,
];

/// Measures every case `plan.runs` times with the producer (pinger) on `plan.cores.0` and the
/// consumer (echo) on `plan.cores.1`, and reports each case's results with the plan's runner
/// params.
///
/// # Errors
/// The first failed run (named by case and run) or a failed write of a result.
pub fn run_cases(
    cases: &[Case],
    plan: &PeerRuns,
    reporter: &mut Reporter,
) -> Result<(), PeerError> {
    let (cores, launcher) = (plan.cores, plan.launcher);
    for group in cases.chunk_by(|a, b| a.variant == b.variant) {
        let mut samples: Vec<Samples> = group.iter().map(Samples::new).collect();
        for run in 0..plan.runs {
            for (case, samples) in group.iter().zip(&mut samples) {
                let label = label(case);
                let named = |err: PeerError| match err {
                    PeerError::Peer(m) => PeerError::Peer(format!("{label} run {run}: {m}")),
                    other => other,
                };
                match samples {
                    Samples::Rates(rates) => {
                        let (rate, note) = if case.variant.is_many_to_one()
                            || case.variant == Variant::Broadcast
                        {
                            measure_kind(case, cores, launcher).map_err(named)?
                        } else {
                            let rate = measure_throughput(case, cores, launcher).map_err(named)?;
                            (rate, String::new())
                        };
                        reporter.line(&format!(
                            "{run} - {label}: msgs/s={}{note}",
                            format::value(rate)
                        ))?;
                        rates.push(rate);
                    }
                    Samples::Rtt(quantiles) => {
                        let h = measure_echo(case, cores, launcher).map_err(named)?;
                        reporter.line(&format!(
                            "{run} - {label}: rtt p50={}ns p99={}ns",
                            h.value_at_quantile(0.5),
                            h.value_at_quantile(0.99)
                        ))?;
                        quantiles.push(&h);
                    }
                }
            }
        }
        for (case, samples) in group.iter().zip(&samples) {
            let base = plan.runner_params(case.measurement()).check(Check::Ok);
            samples.report(case, &base, reporter)?;
        }
        print_ratios(group, &samples, reporter)?;
    }
    Ok(())
}

/// `ring per-message`, `echo`, `mpsc producers=2`, ...
fn label(case: &Case) -> String {
    if case.is_throughput() {
        format!("{} {}", case.variant.name(), tag(case))
    } else {
        case.variant.name().to_string()
    }
}

/// What tells the cases of one throughput variant apart: the write mode, or the number of
/// producers or receivers.
fn tag(case: &Case) -> String {
    if case.variant.is_many_to_one() {
        format!("producers={}", case.peers)
    } else if case.variant == Variant::Broadcast {
        format!("receivers={}", case.peers)
    } else {
        case.writes.name().to_string()
    }
}

/// One case's measurements so far.
enum Samples {
    /// Messages per second, one per run.
    Rates(Vec<f64>),
    /// Round-trip quantiles, one set per run.
    Rtt(Quantiles),
}

impl Samples {
    fn new(case: &Case) -> Samples {
        if case.is_throughput() {
            Samples::Rates(Vec::new())
        } else {
            Samples::Rtt(Quantiles::default())
        }
    }

    fn report(
        &self,
        case: &Case,
        base: &Measurement,
        reporter: &mut Reporter,
    ) -> std::io::Result<()> {
        match self {
            Samples::Rates(rates) => {
                let Some(msgs) = Stats::from_samples(rates) else {
                    return Ok(());
                };
                let size = case.size_bytes as f64;
                reporter.result(base.clone().stats(Metric::MsgsPerSec, msgs))?;
                reporter.result(
                    base.clone()
                        .stats(Metric::BytesPerSec, msgs.map(|m| m * size)),
                )
            }
            Samples::Rtt(quantiles) => quantiles.report(reporter, base, RTT_METRICS),
        }
    }
}

/// `ratio batch / per-message (same round): median ...` for each case after the first.
fn print_ratios(
    group: &[Case],
    samples: &[Samples],
    reporter: &mut Reporter,
) -> std::io::Result<()> {
    let Some(Samples::Rates(first)) = samples.first() else {
        return Ok(());
    };
    for (case, samples) in group.iter().zip(samples).skip(1) {
        let Samples::Rates(rates) = samples else {
            continue;
        };
        let ratios: Vec<f64> = rates.iter().zip(first).map(|(r, r0)| r / r0).collect();
        let what = format!("{} / {} (same round)", tag(case), tag(&group[0]));
        if let Some(line) = Stats::ratio_line(&what, &ratios, "rounds") {
            reporter.line(&line)?;
        }
    }
    Ok(())
}
