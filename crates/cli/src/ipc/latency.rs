//! `ipc latency`: round-trip time of one message echoed by a second process over two rings
//! (ping ring: this process → echo; pong ring: echo → this process), both pinned. Every echoed
//! message is verified against the pattern.
//!
//! Round trips are timed with the CPU's time-stamp counter on x86_64 (`rdtsc`, converted with
//! the tick rate measured against `Instant` before the run): `Instant::now()` is a vDSO
//! `clock_gettime` that cost ~34 ns per call on the 2-core KVM guest, and about one whole call
//! falls inside every timed interval, against ~13 ns for `rdtsc` (this relies on an invariant
//! TSC, which the kernel's `tsc` clocksource implies). Elsewhere `Instant` is used.

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use hdrhistogram::Histogram;
use sympathy_harness::pin::pin_current_thread;
use sympathy_harness::{Check, Metric};
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Consumer, Producer, Ring, Role};

use super::quantiles::Quantiles;
use crate::experiment::{Common, reporter};

/// `ipc latency --size S --count N`
#[derive(Args, Debug)]
pub struct LatencyArgs {
    /// Payload bytes per message (4..=capacity/8).
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// Round trips per run, after a tenth as many for warm-up (default depends on scale).
    #[arg(long)]
    count: Option<u64>,
    /// Two cores `pinger,echo` (default: the first two available).
    #[arg(long)]
    cores: Option<String>,
    #[command(flatten)]
    common: Common,
}

/// The hidden echo process.
#[derive(Args, Debug)]
pub struct EchoArgs {
    ping: PathBuf,
    pong: PathBuf,
    #[arg(long)]
    count: u64,
    #[arg(long)]
    core: usize,
}

/// Polls between two looks at whether the peer is still there.
const LOOK_EVERY: u32 = 1 << 20;

pub fn run(args: LatencyArgs) -> Result<()> {
    let mut reporter = reporter(&args.common)?;
    let count = args
        .count
        .unwrap_or_else(|| args.common.preset().pick(100_000, 1_000_000, 10_000_000) as u64);
    let capacity = super::capacity_for(args.size, 64 << 10);
    super::check_size(
        args.size,
        sympathy_ring::layout::max_message_length(capacity),
    )?;
    let (ping_core, echo_core) = super::pick_cores(&args.cores)?;
    let runs = args.common.runs_or(3, 5, 10);
    let mut quantiles = Quantiles::default();
    for run in 0..runs {
        let h = one_run(args.size, count, capacity, (ping_core, echo_core))
            .with_context(|| format!("run {run}"))?;
        quantiles.push(&h);
    }
    let base = super::measurement("echo", args.size, count, capacity, (ping_core, echo_core))
        .check(Check::Ok);
    quantiles.report(
        &mut reporter,
        &base,
        [
            Metric::RttP50Ns,
            Metric::RttP99Ns,
            Metric::RttP999Ns,
            Metric::RttMaxNs,
        ],
    )
}

/// One run: fresh rings, an echo child, a pinned thread of this process pinging (the main
/// thread stays unpinned so the child can pin itself to another core).
fn one_run(
    size: usize,
    count: u64,
    capacity: usize,
    (ping_core, echo_core): (usize, usize),
) -> Result<Histogram<u64>> {
    let (ping_path, pong_path) = (super::scratch_path("ping"), super::scratch_path("pong"));
    for p in [&ping_path, &pong_path] {
        let _ = std::fs::remove_file(p);
    }
    let ping = Ring::create(&ping_path, capacity)?;
    let pong = Ring::create(&pong_path, capacity)?;
    let mut producer = ping.producer()?;
    let mut consumer = pong.consumer()?;
    let warmup = count / 10;
    let mut child = Command::new(std::env::current_exe()?)
        .args(["ipc", "latency-echo"])
        .args([&ping_path, &pong_path])
        .args([
            "--count",
            &(count + warmup).to_string(),
            "--core",
            &echo_core.to_string(),
        ])
        .spawn()
        .context("starting the echo process")?;
    let outcome = std::thread::scope(|s| {
        s.spawn(|| {
            pin_current_thread(ping_core)?;
            ping_loop(
                &mut producer,
                &mut consumer,
                size,
                count,
                warmup,
                &mut child,
            )
        })
        .join()
        .unwrap_or_else(|_| Err(anyhow::anyhow!("the ping thread panicked")))
    });
    let status = child.wait()?;
    for p in [&ping_path, &pong_path] {
        let _ = std::fs::remove_file(p);
    }
    let h = outcome?;
    if !status.success() {
        bail!("the echo process failed ({status})");
    }
    Ok(h)
}

fn ping_loop(
    producer: &mut Producer,
    consumer: &mut Consumer,
    size: usize,
    count: u64,
    warmup: u64,
    child: &mut Child,
) -> Result<Histogram<u64>> {
    let pattern = Pattern::new(size);
    let mut h = Histogram::<u64>::new(3)?;
    let mut buf = vec![0u8; size];
    let mut bad: Option<String> = None;
    let ns_per_tick = ns_per_tick();
    for i in 0..warmup + count {
        pattern.fill(i, &mut buf);
        let start = ticks();
        producer.try_write(1, &buf)?; // one message in flight: never full
        let mut idle: u32 = 0;
        loop {
            let got = consumer.read(
                |_, bytes| {
                    if let Err(m) = pattern.check(i, bytes) {
                        bad.get_or_insert_with(|| format!("echo of message {i}: {m}"));
                    }
                },
                1,
            )?;
            if got == 1 {
                break;
            }
            idle = idle.wrapping_add(1);
            if idle.is_multiple_of(LOOK_EVERY)
                && let Some(status) = child.try_wait()?
            {
                bail!("the echo process exited ({status}) at round trip {i}");
            }
            std::hint::spin_loop();
        }
        let rtt = (ticks().wrapping_sub(start) as f64 * ns_per_tick) as u64;
        if i >= warmup {
            h.record(rtt.max(1))?;
        }
    }
    if let Some(m) = bad {
        bail!("verification failed at {m}");
    }
    Ok(h)
}

/// A timestamp in ticks of [`ns_per_tick`]: the time-stamp counter on x86_64, else nanoseconds
/// since the first call.
#[inline(always)]
fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `rdtsc` exists on every x86_64 CPU and only reads the counter.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        static BASE: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        BASE.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// Nanoseconds per [`ticks`] tick, measured against `Instant` over 2 ms.
fn ns_per_tick() -> f64 {
    let (i0, t0) = (Instant::now(), ticks());
    while i0.elapsed() < Duration::from_millis(2) {
        std::hint::spin_loop();
    }
    let (i1, t1) = (Instant::now(), ticks());
    (i1 - i0).as_nanos() as f64 / t1.wrapping_sub(t0).max(1) as f64
}

/// The echo process: pins itself and sends every ping back on the pong ring.
pub fn echo(args: EchoArgs) -> Result<()> {
    pin_current_thread(args.core)?;
    let mut consumer = Ring::open(&args.ping)?.consumer()?;
    let mut producer = Ring::open(&args.pong)?.producer()?;
    let deadline = Duration::from_secs(120);
    let start = Instant::now();
    let mut echoed = 0u64;
    let mut idle: u32 = 0;
    while echoed < args.count {
        let mut failure = None;
        let n = consumer.read(
            |type_id, bytes| {
                if let Err(e) = producer.try_write(type_id, bytes) {
                    failure = Some(e);
                }
            },
            1,
        )?;
        if let Some(e) = failure {
            return Err(e.into());
        }
        if n == 1 {
            echoed += 1;
            continue;
        }
        idle = idle.wrapping_add(1);
        if idle.is_multiple_of(LOOK_EVERY) {
            consumer.heartbeat();
            if let Some(e) = consumer.peer().to_error(Role::Producer) {
                return Err(e.into());
            }
            if start.elapsed() > deadline {
                bail!("no ping for too long");
            }
        }
        std::hint::spin_loop();
    }
    Ok(())
}
