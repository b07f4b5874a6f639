//! `stress-write` and `stress-read`: a writer applying the stress schedule
//! (`sympathy_map::stress`) and a reader checking every value it reads, each in its own
//! process, of either language (`java/sidecar map stress-*` are the Java twins): ci/map-verify
//! runs a Rust writer against a Java reader and the reverse.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;
use sympathy_map::stress::{Op, Schedule, Verifier, value_of};
use sympathy_map::user::mix;
use sympathy_map::{MapConfig, MapFile};

/// `map stress-write PATH --keys K --ops N [--first J]`
#[derive(Args, Debug)]
pub struct WriteArgs {
    /// The map file (created for the run when missing).
    path: PathBuf,
    /// Keys the schedule spreads over (at least 1).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    keys: u64,
    /// Operations to apply.
    #[arg(long)]
    ops: u64,
    /// The first operation's index (a writer that resumes a schedule).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Spread the operations over this many seconds (paced), and stop then even if some are
    /// left.
    #[arg(long)]
    seconds: Option<f64>,
}

/// Runs `map stress-write`.
pub fn write(args: WriteArgs) -> Result<()> {
    let map = if args.path.exists() {
        MapFile::open(&args.path)?
    } else {
        // Values average ~44 bytes: records of ~64; room for every operation.
        MapFile::create(
            &args.path,
            &MapConfig {
                slots: (args.keys * 2).next_power_of_two().max(8),
                data_capacity: ((args.ops + 1) * 96).max(4096),
                max_value_length: 128,
                value_format: 0,
            },
        )?
    };
    let schedule = Schedule::new(args.keys);
    let mut writer = map.writer()?;
    let start = Instant::now();
    let limit = args.seconds.map(Duration::from_secs_f64);
    let mut done = 0;
    for j in args.first..args.first + args.ops {
        if done % 4096 == 0
            && let Some(limit) = limit
        {
            let elapsed = start.elapsed();
            if elapsed >= limit {
                break;
            }
            // Paced: operation `done` is due at done / ops of the time.
            let due = limit.mul_f64(done as f64 / args.ops.max(1) as f64);
            if let Some(ahead) = due.checked_sub(elapsed) {
                std::thread::sleep(ahead);
            }
        }
        done += 1;
        match schedule.op(j) {
            Op::Put { key, version } => {
                writer.put(key, &value_of(key, version))?;
            }
            Op::Remove { key } => {
                writer.remove(key)?;
            }
        }
    }
    println!(
        "stress-write: {done} operations on {} keys in {:.2} s; {} keys left",
        args.keys,
        start.elapsed().as_secs_f64(),
        writer.len()
    );
    Ok(())
}

/// `map stress-read PATH --keys K --seconds S`
#[derive(Args, Debug)]
pub struct ReadArgs {
    /// The map file (waited for up to 30 s: the writer may still be creating it).
    path: PathBuf,
    /// Keys the schedule spreads over (at least 1).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    keys: u64,
    /// Read for this long.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Fail unless at least this many reads found a value.
    #[arg(long, default_value_t = 1)]
    min_hits: u64,
}

/// Runs `map stress-read`: exit status 1 at the first torn, foreign or older value.
pub fn read(args: ReadArgs) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let map = loop {
        match MapFile::open_read_only(&args.path) {
            Ok(map) => break map,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.into()),
        }
    };
    let mut verifier = Verifier::default();
    let start = Instant::now();
    let mut r = 1u64;
    while start.elapsed().as_secs_f64() < args.seconds {
        for _ in 0..1024 {
            r = mix(r);
            let key = r % args.keys;
            if let Err(e) = verifier.check(key, map.get(key)?) {
                bail!("stress-read: after {} reads: {e}", verifier.reads);
            }
        }
    }
    if verifier.hits < args.min_hits {
        bail!(
            "stress-read: only {} of {} reads found a value (at least {} expected): was the \
             writer running?",
            verifier.hits,
            verifier.reads,
            args.min_hits
        );
    }
    println!(
        "stress-read: {} reads ({} found a value) checked in {:.1} s: none torn, none older than \
         one read before",
        verifier.reads,
        verifier.hits,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
