//! Measuring the bridge's cases: one throughput run ([`measure_throughput`]) and one echo run
//! ([`measure_echo`]) on fresh rings in a scratch folder, and [`run_cases`], which runs every
//! case `runs` times (the transports of a variant alternating run by run) and reports them.
//!
//! Every wait has a limit: an end must be up within [`UP_LIMIT`](super::UP_LIMIT) and stop within
//! [`STOP_LIMIT`](super::STOP_LIMIT); while a case runs, an end or the ring peer that exits
//! fails it at the next look (a few milliseconds), and a stream that stops moving for two
//! minutes fails it too. A failed case's processes are killed and its files removed.

use std::time::Duration;

use hdrhistogram::Histogram;
use sympathy_harness::catalog::Language;
use sympathy_harness::environmental::Classify;
use sympathy_harness::format;
use sympathy_harness::{Check, Metric, Reporter, Stats};
use sympathy_ring::Ring;

use super::ends::{BridgeHosts, Ends, Link};
use super::{Case, Transport};
use crate::ipc::{DEFAULT_BATCH, EchoTask, ProduceTask, WriteMode};
use crate::peer::{
    self, EmptyRing, JavaRing, PeerError, PeerLauncher, PeerRun, PeerRuns, Progress, Quantiles,
    consume_pattern, ping_loop,
};
use crate::scratch::ScratchDir;

/// The fewest untimed round trips before an echo run's timed ones (a tenth of them when more):
/// the bridge's JVMs and the rings' pages warmed.
pub const MIN_WARMUP: u64 = 2_000;

/// How long the stream may stand still (no message received, no echo back) before the case
/// fails.
const STALL_LIMIT: Duration = Duration::from_secs(120);

/// Empty polls of the consumer between two looks at the processes the stream depends on.
const LOOK_EVERY: u32 = 1 << 16;

const RTT_METRICS: [Metric; 4] = [
    Metric::RttP50Ns,
    Metric::RttP99Ns,
    Metric::RttP999Ns,
    Metric::RttMaxNs,
];

/// The untimed round trips before `timed` timed ones: a tenth of them, at least
/// [`MIN_WARMUP`] (Java's pinger takes the same rule from the catalog's words).
///
/// ```
/// use sympathy_lab::bridge::warmup_round_trips;
/// assert_eq!(warmup_round_trips(500), 2_000);
/// assert_eq!(warmup_round_trips(200_000), 20_000);
/// ```
pub fn warmup_round_trips(timed: u64) -> u64 {
    (timed / 10).max(MIN_WARMUP)
}

/// The driver options of the end on host A (`on_a`) or host B, started `first` or second:
/// `ipc` has one driver, the first end's (in `aeron`), which the second joins
/// (`--external-driver`); `udp` and `veth` a driver per end (`aeron-a`, `aeron-b`). Each in the
/// case's scratch folder, so that nothing outlives the case.
fn driver_args(transport: Transport, scratch: &ScratchDir, on_a: bool, first: bool) -> Vec<String> {
    let shared = transport == Transport::Ipc;
    let dir = match (shared, on_a) {
        (true, _) => scratch.join("aeron"),
        (false, true) => scratch.join("aeron-a"),
        (false, false) => scratch.join("aeron-b"),
    };
    let mut args = vec!["--aeron-dir".to_string(), dir.display().to_string()];
    if shared && !first {
        args.push("--external-driver".into());
    }
    args
}

/// The two directions of `transport`: host A to host B, and back.
fn links(transport: Transport, hosts: &dyn BridgeHosts) -> (Link, Link) {
    let (a, b) = match transport {
        Transport::Veth => hosts.veth_addresses(),
        Transport::Ipc | Transport::Udp => ("127.0.0.1", "127.0.0.1"),
    };
    Link::pair(transport, a, b)
}

/// A throughput run of `case` (ring-aeron-ring): returns messages per second, first message
/// to last (`count - 1` intervals), and each bridge end's counters. The Rust producer is pinned
/// to `cores.0`, this process's consumer to `cores.1`; the bridge's JVMs are not pinned.
///
/// # Errors
/// A ring or process cannot be made, an end or the producer fails or goes away, the stream
/// stalls, or a message is wrong.
pub fn measure_throughput(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
    hosts: &dyn BridgeHosts,
) -> Result<(f64, Vec<String>), PeerError> {
    let scratch = ScratchDir::new("sympathy-bridge")?;
    let (path_a, path_b) = (scratch.join("A.ring"), scratch.join("B.ring"));
    Ring::create(&path_a, case.capacity)?;
    let ring_b = Ring::create(&path_b, case.capacity)?;
    let mut consumer = ring_b.consumer()?;
    let (link, _) = links(case.transport, hosts);
    // The sender on host A, the receiver on host B.
    let end = |verb: &str, ring: &std::path::Path, first: bool| -> Result<_, PeerError> {
        let on_a = verb == "send";
        let mut command = hosts.sidecar(case.transport, on_a)?;
        command
            .args(["bridge", verb])
            .arg(ring)
            .args(link.args(""))
            .args(driver_args(case.transport, &scratch, on_a, first));
        Ok(command)
    };
    let mut ends = Ends::default();
    // ipc: the sender's driver first, the receiver joins it; udp and veth: the receiver
    // listening before the sender publishes.
    let order = if case.transport == Transport::Ipc {
        [("send", &path_a), ("receive", &path_b)]
    } else {
        [("receive", &path_b), ("send", &path_a)]
    };
    for (k, (verb, ring)) in order.into_iter().enumerate() {
        let command = end(verb, ring, k == 0)?;
        let name = format!("bridge {verb}");
        ends.start(&name, command, scratch.path(), verb, &format!("{name}:"))?;
    }
    let task = ProduceTask {
        ring: path_a.clone(),
        size: case.size_bytes,
        run: PeerRun {
            count: case.messages,
            core: cores.0,
        },
        writes: WriteMode::PerMessage,
        batch: DEFAULT_BATCH,
    };
    let (size, count) = (case.size_bytes, case.messages);
    let watched = &mut ends;
    let outcome = peer::run_beside(
        launcher,
        Language::Rust,
        &task,
        "producer",
        cores.1,
        |producer| {
            let mut empty = EmptyRing::new("bridge", count);
            let mut idle: u32 = 0;
            consume_pattern(&mut consumer, size, count, |consumer, received| {
                idle = idle.wrapping_add(1);
                if idle.is_multiple_of(LOOK_EVERY) {
                    watched.look()?;
                    if let Some(status) = producer.try_wait()?
                        && !status.success()
                    {
                        return Err(PeerError::Peer(format!(
                            "the producer failed ({status}; its message is above) after \
                             {received} of {count} messages reached ring B"
                        )));
                    }
                }
                empty.idle(consumer, None, received)
            })
        },
    );
    let seconds = outcome.map_err(|e| ends.explain(e))?;
    let counters = ends.stop()?;
    Ok(((count - 1) as f64 / seconds, counters))
}

/// An echo run of `case` (ring-aeron-ring-echo): the histogram of `case.messages` timed round
/// trips in nanoseconds, after [`warmup_round_trips`] untimed ones, and each bridge end's
/// counters. This process pings from `cores.0` (writes ring A-out, reads ring A-in); the Rust
/// echo on `cores.1` copies ring B-in to ring B-out; a duplex bridge on each host carries them.
///
/// # Errors
/// A ring or process cannot be made, an end or the echo fails or goes away, a round trip
/// stalls, or an echo is wrong.
pub fn measure_echo(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
    hosts: &dyn BridgeHosts,
) -> Result<(Histogram<u64>, Vec<String>), PeerError> {
    let scratch = ScratchDir::new("sympathy-bridge")?;
    let [a_out, a_in, b_in, b_out] =
        ["A-out.ring", "A-in.ring", "B-in.ring", "B-out.ring"].map(|name| scratch.join(name));
    let ping = Ring::create(&a_out, case.capacity)?;
    let pong = Ring::create(&a_in, case.capacity)?;
    Ring::create(&b_in, case.capacity)?;
    Ring::create(&b_out, case.capacity)?;
    let mut producer = ping.producer()?;
    let mut consumer = pong.consumer()?;
    let (ab, ba) = links(case.transport, hosts);
    let duplex = |on_a: bool| -> Result<_, PeerError> {
        let (send, receive, out, back) = if on_a {
            (&a_out, &a_in, &ab, &ba)
        } else {
            (&b_out, &b_in, &ba, &ab)
        };
        let mut command = hosts.sidecar(case.transport, on_a)?;
        command
            .args(["bridge", "duplex", "--send"])
            .arg(send)
            .arg("--receive")
            .arg(receive)
            .args(out.args(""))
            .args(back.args("in-"))
            .args(driver_args(case.transport, &scratch, on_a, on_a));
        Ok(command)
    };
    let mut ends = Ends::default();
    // Host A's first: with ipc its driver is the one host B's joins.
    let up = "bridge duplex:";
    ends.start(
        "host A's bridge duplex",
        duplex(true)?,
        scratch.path(),
        "duplex-a",
        up,
    )?;
    ends.start(
        "host B's bridge duplex",
        duplex(false)?,
        scratch.path(),
        "duplex-b",
        up,
    )?;
    let warmup = warmup_round_trips(case.messages);
    let task = EchoTask {
        ping: b_in.clone(),
        pong: b_out.clone(),
        run: PeerRun {
            count: case.messages + warmup,
            core: cores.1,
        },
        java_ring: JavaRing::Ffm,
    };
    let watched = &mut ends;
    let outcome = peer::run_beside(launcher, Language::Rust, &task, "echo", cores.0, |echo| {
        let mut progress = Progress::new();
        let ring_ends = (&mut producer, &mut consumer);
        ping_loop(ring_ends, case.size_bytes, case.messages, warmup, |i| {
            watched.look()?;
            if let Some(status) = echo.try_wait()? {
                return Err(PeerError::Peer(format!(
                    "the echo process exited ({status}) at round trip {i}"
                )));
            }
            if progress.stalled(i, STALL_LIMIT) {
                return Err(PeerError::Peer(format!(
                    "round trip {i} did not come back within {STALL_LIMIT:?}"
                )));
            }
            Ok(())
        })
    });
    let histogram = outcome.map_err(|e| ends.explain(e))?;
    let counters = ends.stop()?;
    Ok((histogram, counters))
}

/// The cases that failed, each with its label and error: a failed case does not stop the
/// others.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.describe())]
pub struct CasesFailed(pub Vec<(String, PeerError)>);

impl CasesFailed {
    fn describe(&self) -> String {
        let lines: Vec<String> = self
            .0
            .iter()
            .map(|(label, err)| format!("{label}: {err}"))
            .collect();
        format!(
            "{} bridge case(s) failed:\n{}",
            self.0.len(),
            lines.join("\n")
        )
    }
}

impl Classify for CasesFailed {
    /// The machine's doing only when every failure was (a pin that did not take here).
    fn is_environmental(&self) -> bool {
        !self.0.is_empty() && self.0.iter().all(|(_, e)| e.is_environmental())
    }
}

/// One case's measurements so far.
enum Samples {
    /// Messages per second, one per run.
    Rates(Vec<f64>),
    /// Round-trip quantiles, one set per run.
    Rtt(Quantiles),
}

/// Measures every case `plan.runs` times with the Rust producer (pinger) on `plan.cores.0`
/// and this process's consumer (the echo) on `plan.cores.1`, the bridge's ends started on
/// `hosts`, and reports each case's results with the plan's runner params. The cases of one
/// variant alternate run by run (run 0 of each transport, then run 1, ...), so that a
/// drifting machine hits each alike. A case that fails is not run again, and the others go on.
///
/// # Errors
/// [`CasesFailed`]: every case that failed (named by case and run), or a result that could
/// not be written.
pub fn run_cases(
    cases: &[Case],
    plan: &PeerRuns,
    hosts: &dyn BridgeHosts,
    reporter: &mut Reporter,
) -> Result<(), CasesFailed> {
    let mut failed: Vec<(String, PeerError)> = Vec::new();
    let io = |e: std::io::Error| CasesFailed(vec![("writing results".into(), e.into())]);
    for group in cases.chunk_by(|a, b| a.variant == b.variant) {
        let mut samples: Vec<Option<Samples>> = group
            .iter()
            .map(|case| {
                Some(if case.variant.is_echo() {
                    Samples::Rtt(Quantiles::default())
                } else {
                    Samples::Rates(Vec::new())
                })
            })
            .collect();
        for run in 0..plan.runs {
            for (case, slot) in group.iter().zip(&mut samples) {
                let Some(samples) = slot else { continue };
                let label = case.label();
                let outcome = match samples {
                    Samples::Rates(rates) => {
                        measure_throughput(case, plan.cores, plan.launcher, hosts).map(
                            |(rate, counters)| {
                                rates.push(rate);
                                (format!("msgs/s={}", format::value(rate)), counters)
                            },
                        )
                    }
                    Samples::Rtt(quantiles) => measure_echo(case, plan.cores, plan.launcher, hosts)
                        .map(|(h, counters)| {
                            quantiles.push(&h);
                            let said = format!(
                                "rtt p50={}ns p99={}ns",
                                h.value_at_quantile(0.5),
                                h.value_at_quantile(0.99)
                            );
                            (said, counters)
                        }),
                };
                match outcome {
                    Ok((said, counters)) => {
                        reporter
                            .line(&format!("{run} - {label}: {said}"))
                            .map_err(io)?;
                        for line in counters {
                            reporter.line(&format!("    {line}")).map_err(io)?;
                        }
                    }
                    Err(err) => {
                        reporter
                            .line(&format!("{run} - {label}: FAILED"))
                            .map_err(io)?;
                        failed.push((format!("{label} run {run}"), err));
                        *slot = None;
                    }
                }
            }
        }
        for (case, samples) in group.iter().zip(&samples) {
            let base = plan.runner_params(case.measurement()).check(Check::Ok);
            match samples {
                Some(Samples::Rates(rates)) => {
                    if let Some(stats) = Stats::from_samples(rates) {
                        reporter
                            .result(base.stats(Metric::MsgsPerSec, stats))
                            .map_err(io)?;
                    }
                }
                Some(Samples::Rtt(quantiles)) => {
                    quantiles.report(reporter, &base, RTT_METRICS).map_err(io)?;
                }
                None => {}
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CasesFailed(failed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_the_machines_only_when_every_one_is() {
        use sympathy_harness::pin::PinError;
        let pin = || PeerError::Pin(PinError::Refused { core: 1 });
        let peer = || PeerError::Peer("bridge send exited".into());
        assert!(CasesFailed(vec![("a".into(), pin())]).is_environmental());
        assert!(!CasesFailed(vec![("a".into(), pin()), ("b".into(), peer())]).is_environmental());
        let said = CasesFailed(vec![("ring-aeron-ring veth run 0".into(), peer())]).to_string();
        assert!(
            said.contains(
                "1 bridge case(s) failed:\nring-aeron-ring veth run 0: bridge send exited"
            ),
            "{said}"
        );
    }

    #[test]
    fn ipc_shares_the_first_ends_driver_and_udp_gives_each_end_its_own() {
        let scratch = ScratchDir::new("sympathy-test-driver").unwrap();
        // The throughput case's sender (host A) goes first over ipc, second over udp.
        let first = driver_args(Transport::Ipc, &scratch, true, true);
        let second = driver_args(Transport::Ipc, &scratch, false, false);
        assert_eq!(first[1], second[1]);
        assert_eq!(first.len(), 2);
        assert_eq!(second[2], "--external-driver");
        let (a, b) = (
            driver_args(Transport::Udp, &scratch, true, false),
            driver_args(Transport::Udp, &scratch, false, true),
        );
        assert_ne!(a[1], b[1]);
        assert!(a.len() == 2 && b.len() == 2);
        assert!(a[1].starts_with(&scratch.path().display().to_string()));
    }
}
