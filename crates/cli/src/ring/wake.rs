//! `ring wake`: what the opt-in futex wait (`Wait::futex`) buys and costs, between two processes.
//!
//! - Wake-up latency, consumer side: a writer process publishes an 8-byte `CLOCK_MONOTONIC`
//!   timestamp every `--interval-us`, each time only once this process (the consumer, in
//!   `read_wait` with `Wait::futex()`) is asleep in the futex (its `waiting` flag is set); the
//!   handler takes the clock again. `wake_p50_ns` .. `wake_max_ns` of write-to-handler.
//! - Wake-up latency, producer side: this process fills a 64-byte ring and blocks in
//!   `write` with `Wait::futex()`; a reader process, once the producer is asleep, publishes a
//!   timestamp on a second ring and then reads one message (its release of the head wakes the
//!   producer), which reads the timestamp when its `write` returns.
//! - Idle CPU: a child process waits on an empty ring (consumer) or a full one (producer) with
//!   busy-spin, backoff (park 50 µs) or the futex wait, its peer attached and silent; its CPU
//!   time (`/proc/<pid>/schedstat`, else `/proc/<pid>/stat`) over `--idle-seconds` of wall time,
//!   in percent of one core. `--java SIDECAR` adds the Java sidecar's consumer (`consume
//!   --wait spin|futex`), measured after 5 s of JVM start-up.
//!
//! Both processes read `CLOCK_MONOTONIC` (`clock_gettime`), one clock for the whole machine.
//! The results' experiment is [`EXPERIMENT`], `ring-wake`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use hdrhistogram::Histogram;
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_ring::{Ring, RingError, Role, Wait};

use crate::experiment::{Common, reporter};
use sympathy_lab::peer::Quantiles;
use sympathy_lab::scratch::ScratchFile;

/// The experiment name of `ring wake`'s results: a measurement of the ring's wait, not one of
/// the catalog's experiments (`run ipc` measures messaging through the ring).
pub const EXPERIMENT: &str = "ring-wake";

/// `ring wake`
#[derive(Args, Debug)]
pub struct WakeArgs {
    /// Wake-ups timed per run and side (default 2000; 300 with --quick).
    #[arg(long)]
    count: Option<u64>,
    /// Microseconds between two wake-ups of the latency runs.
    #[arg(long, default_value_t = 2000)]
    interval_us: u64,
    /// Seconds of wall time per idle-CPU measurement (default 5; 2 with --quick).
    #[arg(long)]
    idle_seconds: Option<f64>,
    /// Which measurements: latency, idle or both.
    #[arg(long, value_enum, default_value_t = Part::Both)]
    part: Part,
    /// The Java sidecar launcher (e.g. `java/sidecar`): also measure the idle CPU of its
    /// consumer, spinning and with the futex wait.
    #[arg(long)]
    java: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Part {
    Latency,
    Idle,
    Both,
}

/// The hidden peer process.
#[derive(Args, Debug)]
pub struct PeerArgs {
    #[arg(value_enum)]
    mode: Mode,
    ring: PathBuf,
    /// The second ring (timestamps) of `reader`.
    #[arg(long)]
    clock: Option<PathBuf>,
    #[arg(long, default_value_t = 0)]
    count: u64,
    #[arg(long, default_value_t = 2000)]
    interval_us: u64,
    #[arg(long, value_enum, default_value_t = WaitKind::Futex)]
    wait: WaitKind,
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Writes timestamps to a sleeping consumer.
    Writer,
    /// Wakes a producer asleep on a full ring, after publishing a timestamp.
    Reader,
    /// Waits on an empty ring until `--seconds` pass.
    IdleConsumer,
    /// Waits on a full ring until `--seconds` pass.
    IdleProducer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum WaitKind {
    BusySpin,
    Backoff,
    Futex,
}

impl WaitKind {
    fn wait(self) -> Wait {
        match self {
            WaitKind::BusySpin => Wait::busy_spin(),
            WaitKind::Backoff => Wait::backoff(),
            WaitKind::Futex => Wait::futex(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            WaitKind::BusySpin => "busy-spin",
            WaitKind::Backoff => "backoff",
            WaitKind::Futex => "futex",
        }
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds: the same clock in every process of the machine.
fn monotonic_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

pub fn run(args: WakeArgs) -> Result<()> {
    let mut reporter = reporter(&args.common)?;
    let quick = args.common.quick;
    let count = args.count.unwrap_or(if quick { 300 } else { 2000 });
    let seconds = args.idle_seconds.unwrap_or(if quick { 2.0 } else { 5.0 });
    let runs = args.common.runs_or(1, 3, 5);
    if matches!(args.part, Part::Latency | Part::Both) {
        for side in [Role::Consumer, Role::Producer] {
            latency(&mut reporter, side, count, args.interval_us, runs)?;
        }
    }
    if matches!(args.part, Part::Idle | Part::Both) {
        for side in [Role::Consumer, Role::Producer] {
            for wait in [WaitKind::BusySpin, WaitKind::Backoff, WaitKind::Futex] {
                idle(&mut reporter, side, wait, seconds, runs)?;
            }
        }
        if let Some(sidecar) = &args.java {
            for wait in ["spin", "futex"] {
                idle_java(&mut reporter, sidecar, wait, seconds, runs)?;
            }
        }
    }
    Ok(())
}

fn side_name(side: Role) -> &'static str {
    match side {
        Role::Consumer => "consumer",
        Role::Producer => "producer",
    }
}

/// Wake-up latency of `side` asleep in the futex wait, `runs` times `count` wake-ups.
fn latency(
    reporter: &mut Reporter,
    side: Role,
    count: u64,
    interval_us: u64,
    runs: usize,
) -> Result<()> {
    let mut quantiles = Quantiles::default();
    for run in 0..runs {
        let h = match side {
            Role::Consumer => consumer_latency(count, interval_us),
            Role::Producer => producer_latency(count, interval_us),
        }
        .with_context(|| format!("{} wake-up latency, run {run}", side_name(side)))?;
        quantiles.push(&h);
    }
    let base = Measurement::new(EXPERIMENT, &format!("wake-{}-futex", side_name(side)))
        .param("producer", "rust")
        .param("consumer", "rust")
        .param("side", side_name(side))
        .param("wait", "futex")
        .param("count", count)
        .param("interval_us", interval_us)
        .param("placement", "processes")
        .check(Check::Ok);
    quantiles.report(
        reporter,
        &base,
        [
            Metric::WakeP50Ns,
            Metric::WakeP99Ns,
            Metric::WakeP999Ns,
            Metric::WakeMaxNs,
        ],
    )?;
    Ok(())
}

/// A fresh ring of `capacity` bytes and its [`ScratchFile`] (which removes the file).
fn scratch_ring(tag: &str, capacity: usize) -> Result<(ScratchFile, Ring)> {
    let scratch = ScratchFile::new(&format!("sympathy-ring-{tag}"));
    let ring = Ring::create(scratch.path(), capacity)?;
    Ok((scratch, ring))
}

fn spawn_peer(mode: &str, ring: &Path, extra: &[String]) -> Result<Child> {
    Command::new(std::env::current_exe()?)
        .args(["ring", "wake-peer", mode])
        .arg(ring)
        .args(extra)
        .stdout(Stdio::null())
        .spawn()
        .context("starting the peer process")
}

/// Ends a peer that is still running (an error path) and reports how it exited.
fn finish(mut child: Child) -> Result<()> {
    let status = child.wait()?;
    if !status.success() {
        bail!("the peer process failed ({status})");
    }
    Ok(())
}

fn consumer_latency(count: u64, interval_us: u64) -> Result<Histogram<u64>> {
    let (scratch, ring) = scratch_ring("wake", 64 << 10)?;
    let mut consumer = ring.consumer()?;
    let warmup = count / 10;
    let child = spawn_peer(
        "writer",
        scratch.path(),
        &[
            format!("--count={}", count + warmup),
            format!("--interval-us={interval_us}"),
        ],
    )?;
    let mut h = Histogram::<u64>::new(3)?;
    let wait = Wait::futex().timeout(Duration::from_secs(30));
    let mut seen = 0u64;
    let outcome = (|| -> Result<()> {
        while seen < count + warmup {
            consumer.read_wait(
                |_, bytes| {
                    let now = monotonic_ns();
                    let sent = u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8]));
                    if seen >= warmup {
                        let _ = h.record(now.saturating_sub(sent).max(1));
                    }
                    seen += 1;
                },
                1,
                &wait,
            )?;
        }
        Ok(())
    })();
    drop(consumer);
    finish(child)?;
    outcome?;
    Ok(h)
}

fn producer_latency(count: u64, interval_us: u64) -> Result<Histogram<u64>> {
    let (scratch, ring) = scratch_ring("wake", 64)?;
    let (clock_scratch, clock_ring) = scratch_ring("wake-clock", 64 << 10)?;
    let mut producer = ring.producer()?;
    let mut clock = clock_ring.consumer()?;
    let warmup = count / 10;
    let child = spawn_peer(
        "reader",
        scratch.path(),
        &[
            format!("--clock={}", clock_scratch.path().display()),
            format!("--count={}", count + warmup),
            format!("--interval-us={interval_us}"),
        ],
    )?;
    let mut h = Histogram::<u64>::new(3)?;
    let wait = Wait::futex().timeout(Duration::from_secs(30));
    let outcome = (|| -> Result<()> {
        let mut woken = 0u64;
        while woken < count + warmup {
            producer.write(1, &[0; 8], &wait)?;
            let now = monotonic_ns();
            // The reader published the timestamp before it released room (acquired by write).
            if let Some(sent) = clock
                .try_read_one(|_, bytes| u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8])))?
            {
                if woken >= warmup {
                    h.record(now.saturating_sub(sent).max(1))?;
                }
                woken += 1;
            }
        }
        Ok(())
    })();
    drop(producer);
    finish(child)?;
    outcome?;
    Ok(h)
}

/// Waits (up to a second) until `role` is asleep in its futex wait, so that the next publish
/// times a real wake-up; false if it never was.
fn until_asleep(ring: &Ring, role: Role) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        if ring.wake_state(role).waiting {
            return true;
        }
        std::thread::sleep(Duration::from_micros(20));
    }
    false
}

/// The hidden peer process of `ring wake`.
pub fn peer(args: PeerArgs) -> Result<()> {
    let ring = Ring::open(&args.ring)?;
    let interval = Duration::from_micros(args.interval_us);
    match args.mode {
        Mode::Writer => {
            let mut producer = ring.producer()?;
            for _ in 0..args.count {
                std::thread::sleep(interval);
                until_asleep(&ring, Role::Consumer);
                producer.write(1, &monotonic_ns().to_le_bytes(), &Wait::backoff())?;
            }
        }
        Mode::Reader => {
            let clock_path = args.clock.context("--clock is required")?;
            let mut stamps = Ring::open(&clock_path)?.producer()?;
            let mut consumer = ring.consumer()?;
            let mut read = 0u64;
            while read < args.count {
                std::thread::sleep(interval);
                if !until_asleep(&ring, Role::Producer) {
                    continue; // the producer has not filled the ring yet
                }
                stamps.write(1, &monotonic_ns().to_le_bytes(), &Wait::backoff())?;
                read += consumer.read_wait(|_, _| {}, 1, &Wait::backoff())? as u64;
            }
            // The producer's last write may still be waiting: release everything.
            while consumer.read(|_, _| {}, 1024)? > 0 {}
        }
        Mode::IdleConsumer => {
            let mut consumer = ring.consumer()?;
            let wait = args
                .wait
                .wait()
                .timeout(Duration::from_secs_f64(args.seconds));
            expect_timeout(consumer.read_wait(|_, _| {}, 1, &wait))?;
        }
        Mode::IdleProducer => {
            let mut producer = ring.producer()?;
            while producer.try_write(1, &[0; 8]).is_ok() {}
            let wait = args
                .wait
                .wait()
                .timeout(Duration::from_secs_f64(args.seconds));
            expect_timeout(producer.write(1, &[0; 8], &wait).map(|()| 0))?;
        }
    }
    Ok(())
}

fn expect_timeout(outcome: Result<usize, RingError>) -> Result<()> {
    match outcome {
        Err(RingError::Timeout { .. }) => Ok(()),
        Err(e) => Err(e.into()),
        Ok(_) => bail!("the idle ring was not idle"),
    }
}

/// CPU time of a process so far, all its threads, in nanoseconds: the sum of
/// `/proc/<pid>/task/*/schedstat` (ns; a JVM works in threads other than its first), else the
/// utime + stime of `/proc/<pid>/stat` (clock ticks).
fn cpu_ns(pid: u32) -> Result<u64> {
    let mut total = 0;
    let mut seen = false;
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            let path = task.path().join("schedstat");
            if let Ok(text) = std::fs::read_to_string(path)
                && let Some(Ok(ns)) = text.split_whitespace().next().map(str::parse::<u64>)
            {
                total += ns;
                seen = true;
            }
        }
    }
    if seen {
        return Ok(total);
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("reading /proc/{pid}/stat"))?;
    // The fields after the command name (which may hold spaces) in parentheses, from field 3.
    let after = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| -> u64 { fields.get(i).and_then(|f| f.parse().ok()).unwrap_or(0) };
    // SAFETY: sysconf only reads a configuration value.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    // utime and stime are fields 14 and 15.
    Ok((ticks(11) + ticks(12)) * 1_000_000_000 / hz)
}

/// Percent of one core `child` used over `seconds`, after `settle` seconds of start-up; `beat`
/// keeps this process's heartbeat fresh meanwhile (a silent peer, not a hung one).
fn cpu_percent(child: &Child, settle: f64, seconds: f64, beat: &mut dyn FnMut()) -> Result<f64> {
    let nap = |seconds: f64, beat: &mut dyn FnMut()| {
        let end = Instant::now() + Duration::from_secs_f64(seconds);
        while Instant::now() < end {
            beat();
            std::thread::sleep(Duration::from_millis(100).min(end - Instant::now()));
        }
    };
    nap(settle, beat);
    let (c0, t0) = (cpu_ns(child.id())?, Instant::now());
    nap(seconds, beat);
    let (c1, t1) = (cpu_ns(child.id())?, Instant::now());
    Ok(c1.saturating_sub(c0) as f64 / (t1 - t0).as_nanos() as f64 * 100.0)
}

/// Idle CPU of a Rust `side` waiting with `wait`, its peer attached (this process) and silent.
fn idle(
    reporter: &mut Reporter,
    side: Role,
    wait: WaitKind,
    seconds: f64,
    runs: usize,
) -> Result<()> {
    const SETTLE: f64 = 0.5;
    let mut samples = Vec::new();
    for _ in 0..runs {
        let (scratch, ring) = scratch_ring("wake-idle", 64)?;
        // The silent peer: attached (and alive), never writing or reading.
        let (mut producer, mut consumer) = match side {
            Role::Consumer => (Some(ring.producer()?), None),
            Role::Producer => (None, Some(ring.consumer()?)),
        };
        let mode = match side {
            Role::Consumer => "idle-consumer",
            Role::Producer => "idle-producer",
        };
        let child = spawn_peer(
            mode,
            scratch.path(),
            &[
                format!("--wait={}", wait.name()),
                format!("--seconds={}", SETTLE + seconds + 0.5),
            ],
        )?;
        let mut beat = || {
            if let Some(p) = producer.as_mut() {
                p.heartbeat();
            }
            if let Some(c) = consumer.as_mut() {
                c.heartbeat();
            }
        };
        let share = cpu_percent(&child, SETTLE, seconds, &mut beat);
        finish(child)?;
        samples.push(share?);
    }
    let variant = format!("idle-{}-{}", side_name(side), wait.name());
    report_idle(
        reporter,
        &variant,
        "rust",
        side,
        wait.name(),
        seconds,
        &samples,
    )
}

/// The idle-CPU result of a `side` ending in `consumer`'s language (the producer is this Rust
/// process), one shape for both languages' rows.
fn report_idle(
    reporter: &mut Reporter,
    variant: &str,
    consumer: &str,
    side: Role,
    wait: &str,
    seconds: f64,
    samples: &[f64],
) -> Result<()> {
    let stats = Stats::from_samples(samples).context("no runs")?;
    let m = Measurement::new(EXPERIMENT, variant)
        .param("producer", "rust")
        .param("consumer", consumer)
        .param("side", side_name(side))
        .param("wait", wait)
        .param("seconds", seconds)
        .param("placement", "processes")
        .check(Check::Ok)
        .stats(Metric::CpuPercent, stats);
    reporter.result(m)?;
    Ok(())
}

/// Idle CPU of the Java sidecar's consumer (`consume --wait spin|futex`) on an empty ring whose
/// producer (this process) is attached and silent. The JVM gets 5 s to start, compile its
/// loop and settle.
fn idle_java(
    reporter: &mut Reporter,
    sidecar: &Path,
    wait: &str,
    seconds: f64,
    runs: usize,
) -> Result<()> {
    const SETTLE: f64 = 5.0;
    let mut samples = Vec::new();
    for _ in 0..runs {
        let (scratch, ring) = scratch_ring("wake-idle-java", 64)?;
        let mut producer = ring.producer()?;
        let timeout_ms = ((SETTLE + seconds + 1.0) * 1000.0) as u64;
        let mut child = Command::new(sidecar)
            .arg("consume")
            .arg(scratch.path())
            .args(["--count", "1", "--wait", wait])
            .args(["--timeout-ms", &timeout_ms.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", sidecar.display()))?;
        // The launcher may first build the jar or the JNI library; it then execs the JVM.
        let started = Instant::now();
        while std::fs::read_to_string(format!("/proc/{}/comm", child.id()))
            .is_ok_and(|comm| comm.trim() != "java")
            && started.elapsed() < Duration::from_secs(600)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let share = cpu_percent(&child, SETTLE, seconds, &mut || producer.heartbeat());
        // It ends by itself ("sent nothing for ..."), a failure by design: only its CPU counts.
        let _ = child.wait();
        samples.push(share?);
    }
    let variant = format!("idle-consumer-java-{wait}");
    report_idle(
        reporter,
        &variant,
        "java-ffm",
        Role::Consumer,
        wait,
        seconds,
        &samples,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_ring::Strategy;

    #[test]
    fn the_monotonic_clock_moves_forward() {
        let a = monotonic_ns();
        std::thread::sleep(Duration::from_millis(1));
        assert!(monotonic_ns() > a);
    }

    #[test]
    fn this_process_has_used_some_cpu() {
        let mut x = 0u64;
        for i in 0..1_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(cpu_ns(std::process::id()).unwrap() > 0);
    }

    #[test]
    fn strategy_names_match_the_wait() {
        assert!(matches!(
            WaitKind::Futex.wait().strategy,
            Strategy::Futex { .. }
        ));
        assert_eq!(WaitKind::BusySpin.name(), "busy-spin");
    }
}
