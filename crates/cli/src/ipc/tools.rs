//! `create`, `produce`, `consume`, `inspect`, `layout`: the tools for reading and exercising
//! the binary format, also used by the Java interop tests.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_lab::machine::Env;
use sympathy_lab::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{PeerState, Ring, RingError, Wait, layout};

/// `ipc create PATH --capacity BYTES`
#[derive(Args, Debug)]
pub struct CreateArgs {
    /// The ring file to create (must not exist).
    path: PathBuf,
    /// Bytes in the record area: a power of two (the largest message is capacity / 8).
    #[arg(long, default_value_t = 65536)]
    capacity: usize,
}

/// `ipc produce PATH --count N --size S [--type T]`
#[derive(Args, Debug)]
pub struct ProduceArgs {
    /// The ring file.
    path: PathBuf,
    /// Messages to write.
    #[arg(long)]
    count: u64,
    /// Payload bytes per message (4..=capacity/8).
    #[arg(long)]
    size: usize,
    /// Message type id (>= 1).
    #[arg(long = "type", default_value_t = 1)]
    type_id: i32,
    /// Give up when the ring stays full this long.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
}

/// `ipc consume PATH --count N [--timeout-ms M] [--json [--producer LABEL]]`
#[derive(Args, Debug)]
pub struct ConsumeArgs {
    /// The ring file.
    path: PathBuf,
    /// Messages to read and verify.
    #[arg(long)]
    count: u64,
    /// Give up when no message arrives for this long.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Print the throughput (first message to last) as results-schema JSON Lines
    /// (`ipc/ring`, msgs_per_sec and bytes_per_sec, one run) instead of the summary line.
    #[arg(long)]
    json: bool,
    /// The `producer` param of the --json result: who wrote the messages (e.g. `java-ffm`).
    #[arg(long, default_value = "unknown")]
    producer: String,
}

/// `ipc inspect PATH`
#[derive(Args, Debug)]
pub struct InspectArgs {
    /// The ring file.
    path: PathBuf,
    /// How many records to decode from the head.
    #[arg(long, default_value_t = 8)]
    records: usize,
}

pub fn create(args: CreateArgs) -> Result<()> {
    let ring = Ring::create(&args.path, args.capacity)?;
    println!(
        "created {} (capacity {} bytes, max message {} bytes, file {} bytes)",
        args.path.display(),
        ring.capacity(),
        ring.max_message_length(),
        layout::file_length(ring.capacity())
    );
    Ok(())
}

pub fn produce(args: ProduceArgs) -> Result<()> {
    let ring = Ring::open(&args.path)?;
    super::check_size(args.size, ring.max_message_length())?;
    let mut producer = ring.producer()?;
    let pattern = Pattern::new(args.size);
    let wait = Wait::backoff().timeout(Duration::from_millis(args.timeout_ms));
    let mut buf = vec![0u8; args.size];
    for i in 0..args.count {
        pattern.fill(i, &mut buf);
        producer
            .write(args.type_id, &buf, &wait)
            .with_context(|| format!("writing message {i} of {}", args.count))?;
    }
    println!(
        "produced {} messages of {} bytes (type {})",
        args.count, args.size, args.type_id
    );
    Ok(())
}

pub fn consume(args: ConsumeArgs) -> Result<()> {
    let ring = Ring::open(&args.path)?;
    let mut consumer = ring.consumer()?;
    let wait = Wait::backoff().timeout(Duration::from_millis(args.timeout_ms));
    let mut next = 0u64;
    let mut patterns: Vec<Option<Pattern>> = Vec::new();
    let mut mismatch: Option<String> = None;
    let mut first_at: Option<Instant> = None;
    let mut bytes_read = 0u64;
    while next < args.count && mismatch.is_none() {
        let outcome = consumer.read_wait(
            |type_id, bytes| {
                if mismatch.is_some() || next >= args.count {
                    return;
                }
                first_at.get_or_insert_with(Instant::now);
                bytes_read += bytes.len() as u64;
                if patterns.len() <= bytes.len() {
                    patterns.resize(bytes.len() + 1, None);
                }
                let pattern =
                    patterns[bytes.len()].get_or_insert_with(|| Pattern::new(bytes.len()));
                match pattern.check(next, bytes) {
                    Ok(()) => next += 1,
                    Err(m) => {
                        mismatch = Some(format!("message {next} (type {type_id}): {m}"));
                    }
                }
            },
            1024,
            &wait,
        );
        match outcome {
            Ok(_) => {}
            Err(e @ RingError::PeerDead { .. }) => bail!(
                "{e}: the producer is gone after {next} of {} messages",
                args.count
            ),
            Err(e @ RingError::Timeout { .. }) => {
                let why = match consumer.peer() {
                    PeerState::NeverAttached => "no producer has attached yet (no messages yet)",
                    PeerState::Alive { .. } => {
                        "the producer is attached and alive but sent nothing"
                    }
                    PeerState::Stale { .. } => {
                        "the producer is attached but its heartbeat is stale"
                    }
                    PeerState::Detached | PeerState::Dead { .. } => "the producer is gone",
                };
                bail!("{e}; received {next} of {} messages; {why}", args.count)
            }
            Err(e) => return Err(e.into()),
        }
    }
    let elapsed = first_at.map(|t| t.elapsed().as_secs_f64());
    if let Some(m) = mismatch {
        bail!("verification failed at {m}");
    }
    if !args.json {
        println!("consumed and verified {next} messages");
        return Ok(());
    }
    let seconds = elapsed
        .filter(|s| *s > 0.0 && next >= 2)
        .context("--json needs at least two messages to time (use a larger --count)")?;
    let msgs = Stats::from_samples(&[(next - 1) as f64 / seconds]).context("no sample")?;
    let mut reporter = Reporter::stdout(true);
    reporter.env(&Env::collect())?;
    let base = Measurement::new("ipc", "ring")
        .param("producer", args.producer.as_str())
        .param("consumer", "rust")
        .param("size_bytes", bytes_read / next)
        .param("count", next)
        .param("capacity", ring.capacity() as u64)
        .param("placement", "processes")
        .check(Check::Ok);
    reporter.result(base.clone().stats(Metric::MsgsPerSec, msgs))?;
    let size = (bytes_read / next) as f64;
    reporter.result(base.stats(Metric::BytesPerSec, msgs.map(|m| m * size)))?;
    Ok(())
}

pub fn inspect(args: InspectArgs) -> Result<()> {
    let ring = Ring::open(&args.path)?;
    let s = ring.snapshot();
    let now = sympathy_ring::now_ms();
    println!("file                {}", args.path.display());
    println!(
        "magic               {:#018x} ({:?})",
        s.magic,
        String::from_utf8_lossy(&s.magic.to_le_bytes())
    );
    println!("layout_version      {}", s.layout_version);
    println!("ready               {}", s.ready);
    println!("capacity            {}", s.capacity);
    println!("max_message_length  {}", s.max_message_length);
    println!("header_length       {}", s.header_length);
    println!(
        "creation_time_ms    {} ({} s ago)",
        s.creation_time_ms,
        (now - s.creation_time_ms) / 1000
    );
    println!(
        "producer            pid {} heartbeat {} ({:?})",
        s.producer_pid, s.producer_heartbeat_ms, s.producer
    );
    println!(
        "consumer            pid {} heartbeat {} ({:?})",
        s.consumer_pid, s.consumer_heartbeat_ms, s.consumer
    );
    println!(
        "trailer             tail {} head {} head_cache {} correlation {}",
        s.tail, s.head, s.head_cache, s.correlation_counter
    );
    println!("pending bytes       {} (tail - head)", s.tail - s.head);
    println!("next records from the head:");
    for r in ring.peek_records(args.records) {
        let kind = match r.type_id {
            _ if r.length == 0 => "empty (nothing written yet)".to_string(),
            _ if r.length < 0 => "claim in progress".to_string(),
            layout::PADDING_MSG_TYPE_ID => "padding".to_string(),
            t if t >= 1 => format!("message type {t}"),
            t => format!("INVALID type {t}"),
        };
        let hex: Vec<String> = r
            .payload_prefix
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        println!(
            "  position {:>10} index {:>8} length {:>8}  {kind}  {}",
            r.position,
            r.index,
            r.length,
            hex.join(" ")
        );
    }
    Ok(())
}

pub fn layout() -> Result<()> {
    for (name, value) in layout::CONSTANTS {
        println!("{name}={value}");
    }
    Ok(())
}
