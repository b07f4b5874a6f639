//! `ipc bench`: messages per second from a producer process to a consumer process over one
//! ring file, each pinned to its own core. The consumer verifies every byte of every message
//! against the shared pattern; a mismatch fails the run.
//!
//! The producer writes each message through the one-message API (`Batch::try_write` for
//! small payloads, publishing up to `--batch` messages at once; a claim per message for large
//! ones), or with `--write-batch` through `Producer::try_write_batch`, which fills up to
//! `--batch` fixed-size messages in place and publishes them together. `--writes
//! per-message,write-batch` measures both, alternating run by run.

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::pin::pin_current_thread;
use sympathy_harness::{Check, Metric, Stats};
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Ring, Role};

use crate::experiment::{Common, reporter};

/// Messages a producer batch holds at most by default (one consumer-visible publish per batch).
const BATCH: usize = 256;

/// `ipc bench --size S --count N`
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Payload bytes per message (4..=capacity/8).
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// Messages per run (default depends on --quick/--full).
    #[arg(long)]
    count: Option<u64>,
    /// Ring capacity in bytes (default: 256 KiB, or 8 x the size if larger).
    #[arg(long)]
    capacity: Option<usize>,
    /// Two cores `producer,consumer` (default: the first two available).
    #[arg(long)]
    cores: Option<String>,
    /// Messages the producer publishes at once at most (1: each on its own). Payloads over 64
    /// bytes are claimed and published one by one unless --write-batch.
    #[arg(long, default_value_t = BATCH as u64, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Write through `Producer::try_write_batch` (a run of messages filled in place, one space
    /// check and one publish per run) instead of one API call per message.
    #[arg(long, conflicts_with = "writes")]
    write_batch: bool,
    /// How the producer writes, one or more of `per-message,write-batch`: with both, the runs
    /// alternate between them (run 0 of each, then run 1 of each, ...) so that a drifting
    /// core-to-core cost hits each alike, and the ratio per round is printed.
    #[arg(long, value_delimiter = ',', value_parser = parse_write_mode)]
    writes: Vec<WriteMode>,
    #[command(flatten)]
    common: Common,
}

/// `--writes`: one API call per message, or `Producer::try_write_batch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WriteMode {
    PerMessage,
    WriteBatch,
}

impl WriteMode {
    /// `params.writes` in the results.
    fn name(self) -> &'static str {
        match self {
            WriteMode::PerMessage => "per-message",
            WriteMode::WriteBatch => "write-batch",
        }
    }
}

fn parse_write_mode(s: &str) -> Result<WriteMode, String> {
    match s {
        "per-message" => Ok(WriteMode::PerMessage),
        "write-batch" => Ok(WriteMode::WriteBatch),
        _ => Err(format!(
            "unknown write mode '{s}' (choose per-message or write-batch)"
        )),
    }
}

/// The hidden producer process.
#[derive(Args, Debug)]
pub struct ProducerArgs {
    path: PathBuf,
    #[arg(long)]
    size: usize,
    #[arg(long)]
    count: u64,
    #[arg(long)]
    core: usize,
    #[arg(long)]
    batch: usize,
    #[arg(long)]
    write_batch: bool,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let mut reporter = reporter(&args.common)?;
    // Default: a fixed volume of messages for small sizes, of bytes for large ones.
    let count = args.count.unwrap_or_else(|| {
        let n = args
            .common
            .preset()
            .pick(2_000_000, 50_000_000, 200_000_000) as u64;
        if args.size >= 1024 { n / 64 } else { n }
    });
    let count = count.max(2);
    let capacity = args
        .capacity
        .unwrap_or(super::capacity_for(args.size, 256 << 10));
    super::check_size(
        args.size,
        sympathy_ring::layout::max_message_length(capacity),
    )?;
    let cores = super::pick_cores(&args.cores)?;
    let runs = args.common.runs_or(3, 5, 10);
    let modes = match (args.write_batch, args.writes.is_empty()) {
        (true, _) => vec![WriteMode::WriteBatch],
        (false, true) => vec![WriteMode::PerMessage],
        (false, false) => args.writes.clone(),
    };
    if let Some(twice) = modes
        .iter()
        .enumerate()
        .find_map(|(i, m)| modes[..i].contains(m).then_some(m))
    {
        bail!("--writes names {} twice", twice.name());
    }
    // The runs go round the modes (run 0 of each, then run 1 of each, ...): the hop between
    // the two cores of a shared VM drifts over minutes, and back-to-back runs of one mode would
    // turn that drift into a difference between modes.
    let mut rates = vec![Vec::with_capacity(runs); modes.len()];
    for run in 0..runs {
        for (&mode, rates) in modes.iter().zip(&mut rates) {
            let writes = Writes {
                batch: args.batch as usize,
                mode,
            };
            let seconds = one_run(args.size, count, capacity, cores, writes)
                .with_context(|| format!("{} run {run}", mode.name()))?;
            let rate = (count - 1) as f64 / seconds;
            if modes.len() > 1 {
                reporter.line(&format!(
                    "{run} - {}: msgs/s={}",
                    mode.name(),
                    sympathy_harness::format::value(rate)
                ))?;
            }
            rates.push(rate);
        }
    }
    for (&mode, rates) in modes.iter().zip(&rates) {
        let msgs = Stats::from_samples(rates).context("no runs")?;
        let base = super::measurement("ring", args.size, count, capacity, cores)
            .param("batch", args.batch)
            .param("writes", mode.name())
            .check(Check::Ok);
        reporter.result(base.clone().stats(Metric::MsgsPerSec, msgs))?;
        let size = args.size as f64;
        reporter.result(base.stats(Metric::BytesPerSec, msgs.map(|m| m * size)))?;
    }
    for (mode, mode_rates) in modes.iter().zip(&rates).skip(1) {
        let ratios: Vec<f64> = mode_rates
            .iter()
            .zip(&rates[0])
            .map(|(r, r0)| r / r0)
            .collect();
        let r = Stats::from_samples(&ratios).context("no runs")?;
        reporter.line(&format!(
            "ratio {} / {} (same round): median {:.2} (min {:.2} .. max {:.2}, {} rounds)",
            mode.name(),
            modes[0].name(),
            r.median,
            r.min,
            r.max,
            ratios.len()
        ))?;
    }
    Ok(())
}

/// How the producer writes.
#[derive(Debug, Clone, Copy)]
struct Writes {
    /// Messages per publish at most.
    batch: usize,
    /// One call per message, or `Producer::try_write_batch`.
    mode: WriteMode,
}

/// One run: a fresh ring, a producer child, a pinned thread of this process consuming. Returns
/// the seconds from the first message to the last. (The main thread stays unpinned so that the
/// child inherits an affinity mask that lets it pin itself elsewhere.)
fn one_run(
    size: usize,
    count: u64,
    capacity: usize,
    cores: (usize, usize),
    writes: Writes,
) -> Result<f64> {
    let path = super::scratch_path("bench");
    let _ = std::fs::remove_file(&path);
    let ring = Ring::create(&path, capacity)?;
    let mut consumer = ring.consumer()?;
    let mut child = spawn_producer(&path, size, count, cores.0, writes)?;
    let outcome = std::thread::scope(|s| {
        s.spawn(|| {
            pin_current_thread(cores.1)?;
            consume(&mut consumer, size, count, &mut child)
        })
        .join()
        .unwrap_or_else(|_| Err(anyhow::anyhow!("the consumer thread panicked")))
    });
    let status = child.wait()?;
    let _ = std::fs::remove_file(&path);
    let seconds = outcome?;
    if !status.success() {
        bail!("the producer process failed ({status})");
    }
    Ok(seconds)
}

fn spawn_producer(
    path: &std::path::Path,
    size: usize,
    count: u64,
    core: usize,
    writes: Writes,
) -> Result<Child> {
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args(["ipc", "bench-producer"])
        .arg(path)
        .args(["--size", &size.to_string(), "--count", &count.to_string()])
        .args(["--core", &core.to_string()])
        .args(["--batch", &writes.batch.to_string()]);
    if writes.mode == WriteMode::WriteBatch {
        command.arg("--write-batch");
    }
    command.spawn().context("starting the producer process")
}

fn consume(
    consumer: &mut sympathy_ring::Consumer,
    size: usize,
    count: u64,
    child: &mut Child,
) -> Result<f64> {
    let pattern = Pattern::new(size);
    let mut next = 0u64;
    let mut first = None;
    let mut bad: Option<String> = None;
    let mut idle: u32 = 0;
    let mut exited = false;
    while next < count {
        let n = consumer.read(
            |_, bytes| {
                if let Err(m) = pattern.check(next, bytes) {
                    bad.get_or_insert_with(|| format!("message {next}: {m}"));
                }
                next += 1;
            },
            usize::MAX,
        )?;
        if n > 0 {
            if first.is_none() {
                first = Some(Instant::now());
            }
            continue;
        }
        idle = idle.wrapping_add(1);
        if idle.is_multiple_of(1 << 16) {
            if let Some(status) = child.try_wait()? {
                // 65536 empty polls after seeing it exit: nothing more is coming.
                if exited {
                    bail!("the producer exited ({status}) after {next} of {count} messages");
                }
                exited = true;
            }
            consumer.heartbeat();
        }
        std::hint::spin_loop();
    }
    let seconds = first.map_or(0.0, |t| t.elapsed().as_secs_f64());
    if let Some(m) = bad {
        bail!("verification failed at {m}");
    }
    Ok(seconds.max(1e-9))
}

/// The producer process: pins itself, writes `count` pattern messages in batches.
pub fn producer(args: ProducerArgs) -> Result<()> {
    pin_current_thread(args.core)?;
    let ring = Ring::open(&args.path)?;
    let mut producer = ring.producer()?;
    let pattern = Pattern::new(args.size);
    let mut buf = vec![0u8; args.size];
    let deadline = Duration::from_secs(120);
    let start = Instant::now();
    let mut i = 0u64;
    let mut idle: u32 = 0;
    while i < args.count {
        let before = i;
        if args.write_batch {
            let max = (args.count - i).min(args.batch as u64) as usize;
            let first = i;
            let fill = |k: usize, payload: &mut [u8]| pattern.fill(first + k as u64, payload);
            i += producer.try_write_batch(1, args.size, max, fill)? as u64;
        } else if args.size > 64 {
            // Zero copy: fill the claimed bytes in place.
            while i < args.count {
                match producer.try_claim(1, args.size) {
                    Ok(mut claim) => {
                        pattern.fill(i, &mut claim);
                        claim.commit();
                        i += 1;
                    }
                    Err(e) if e.is_full() => break,
                    Err(e) => return Err(e.into()),
                }
            }
        } else {
            let mut batch = producer.batch();
            while i < args.count && batch.len() < args.batch {
                pattern.fill(i, &mut buf);
                match batch.try_write(1, &buf) {
                    Ok(()) => i += 1,
                    Err(e) if e.is_full() => break,
                    Err(e) => return Err(e.into()),
                }
            }
        }
        if i == before {
            idle = idle.wrapping_add(1);
            if idle.is_multiple_of(1 << 16) {
                producer.heartbeat();
                if let Some(e) = producer.peer().to_error(Role::Consumer) {
                    return Err(e.into());
                }
                if start.elapsed() > deadline {
                    bail!("the ring stayed full for too long (consumer stuck?)");
                }
            }
            std::hint::spin_loop();
        }
    }
    Ok(())
}
