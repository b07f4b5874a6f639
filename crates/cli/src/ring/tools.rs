//! `create`, `produce`, `consume`, `inspect`, `layout`: the tools for reading and exercising
//! the binary format, also used by the Java interop tests.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::machine::Env;
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_ring::layout::Kind;
use sympathy_ring::pattern::{self, Pattern};
use sympathy_ring::{
    Action, BroadcastRing, FileError, ManyToOneRing, PeerState, Ring, RingError, Wait, layout,
};

mod kinds;

/// `ring create PATH --capacity BYTES`
#[derive(Args, Debug)]
pub struct CreateArgs {
    /// The ring file to create (must not exist).
    path: PathBuf,
    /// Bytes in the record area: a power of two (the largest message is capacity / 8), as
    /// 65536, 64k or 1m.
    #[arg(long, default_value = "64k", value_parser = crate::quantity::usize)]
    capacity: usize,
    /// The kind of ring: spsc (one producer, one consumer), mpsc (producers in any number of
    /// processes, one consumer) or broadcast (one transmitter, any number of receivers, none
    /// of which holds it back).
    #[arg(long, default_value = "spsc")]
    kind: Kind,
}

/// `ring produce PATH --count N --size S|MIN..MAX [--seed X] [--seconds S] [--type T] [--first I]
/// [--wait spin|futex]`
#[derive(Args, Debug)]
pub struct ProduceArgs {
    /// The ring file.
    path: PathBuf,
    /// Messages to write (with --seconds: at most this many; default unbounded).
    #[arg(long, required_unless_present = "seconds", value_parser = crate::quantity::u64)]
    count: Option<u64>,
    /// Payload bytes per message (4..=capacity/8): S, or MIN..MAX drawn uniformly from --seed
    /// (the consumer needs no size: the pattern is per length).
    #[arg(long, value_parser = parse_sizes)]
    size: Sizes,
    /// Seed of the random sizes of --size MIN..MAX.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop writing after this many seconds (a soak), then detach; the consumer's
    /// --until-detached reads to the end.
    #[arg(long)]
    seconds: Option<f64>,
    /// Message type id (>= 1).
    #[arg(long = "type", default_value_t = 1)]
    type_id: i32,
    /// The pattern index of the first message: a restarted producer continues a stream.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Give up when the ring stays full this long. A full ring is back pressure: the producer
    /// waits for a consumer that is late to attach (a JVM takes a second or more to start) or
    /// slow to read, and fails naming which when this runs out.
    #[arg(long, default_value_t = 30_000)]
    timeout_ms: u64,
    /// Pin the writing thread to this core (as `java/sidecar run ipc` asks of its Rust
    /// producer).
    #[arg(long)]
    core: Option<usize>,
    /// On a full ring: spin (then back off and park) or sleep in a futex wait until the
    /// consumer reads.
    #[arg(long, value_enum, default_value_t = WaitKind::Spin)]
    wait: WaitKind,
}

/// `--wait`: how a command waits on a full or empty ring (as `java/sidecar`'s `--wait`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WaitKind {
    /// Spin, then back off and park 50 µs at a time ([`Wait::backoff`]).
    Spin,
    /// Spin briefly, then sleep in a futex wait until the peer wakes this side
    /// ([`Wait::futex`]): an idle side costs next to no CPU.
    Futex,
}

impl WaitKind {
    /// The ring's wait, giving up after `timeout_ms`.
    fn wait(self, timeout_ms: u64) -> Wait {
        let wait = match self {
            WaitKind::Spin => Wait::backoff(),
            WaitKind::Futex => Wait::futex(),
        };
        wait.timeout(Duration::from_millis(timeout_ms))
    }
}

/// Payload sizes of `ring produce`: one size, or a range drawn from a seeded generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    min: usize,
    max: usize,
}

fn parse_sizes(text: &str) -> Result<Sizes, String> {
    let parse = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected S or MIN..MAX bytes, got '{text}'"))
    };
    let (min, max) = match text.split_once("..") {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => (parse(text)?, parse(text)?),
    };
    if min > max {
        return Err(format!("MIN {min} is above MAX {max}"));
    }
    Ok(Sizes { min, max })
}

impl std::fmt::Display for Sizes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}..{}", self.min, self.max)
        }
    }
}

/// SplitMix64: the sizes of `--size MIN..MAX`, reproducible from `--seed`.
struct SizeDraw {
    sizes: Sizes,
    state: u64,
}

impl SizeDraw {
    fn next(&mut self) -> usize {
        if self.sizes.min == self.sizes.max {
            return self.sizes.min;
        }
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let span = (self.sizes.max - self.sizes.min + 1) as u64;
        self.sizes.min + (z % span) as usize
    }
}

/// `ring consume PATH --count N [--first I|auto] [--until-detached] [--producer-restarts]
/// [--timeout-ms M] [--json [--producer LABEL]] [--wait spin|futex]`
#[derive(Args, Debug)]
pub struct ConsumeArgs {
    /// The ring file.
    path: PathBuf,
    /// Messages to read and verify (with --until-detached: at most this many). Exactly these
    /// are consumed: the head is never released past the last one verified.
    #[arg(long, required_unless_present = "until_detached", value_parser = crate::quantity::u64)]
    count: Option<u64>,
    /// The pattern index of the first message: I, or `auto` to take it from the first
    /// message's own bytes (its first min(8, size) bytes are its index). A consumer restarted
    /// on a ring that holds the rest of a stream resumes there.
    #[arg(long, default_value = "0", value_parser = parse_first)]
    first: First,
    /// Read until the producer detaches (a clean exit) and the ring is drained, however many
    /// messages that is (a soak: `ring produce --seconds`). A producer that dies is still an
    /// error.
    #[arg(long)]
    until_detached: bool,
    /// A producer that dies or detaches is waited for: a new one (a restarted `bridge receive`)
    /// may attach and go on writing the stream; only --timeout-ms without a message ends the
    /// read. With --until-detached a clean detach still ends it, and only a producer that died
    /// is waited for.
    #[arg(long)]
    producer_restarts: bool,
    /// Give up when no message arrives for this long.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Print the throughput (first message to last) as results-schema JSON Lines (experiment
    /// `ipc`, variant `ring`: msgs_per_sec and bytes_per_sec, one run) instead of the summary
    /// line.
    #[arg(long)]
    json: bool,
    /// The `producer` param of the --json result: who wrote the messages (e.g. `java-ffm`).
    #[arg(long, default_value = "unknown")]
    producer: String,
    /// On an empty ring: spin (then back off and park) or sleep in a futex wait until a write.
    #[arg(long, value_enum, default_value_t = WaitKind::Spin)]
    wait: WaitKind,
    /// (mpsc) P producers: messages of type t in 1..=P each form their own pattern stream
    /// from --first, verified in order per type; any other type is a mismatch.
    #[arg(long)]
    producers: Option<u32>,
    /// (mpsc) Unblock a claim that has held the head up this long (its producer died inside
    /// it). Default 1000.
    #[arg(long)]
    unblock_after_ms: Option<u64>,
    /// (broadcast) Fail when the transmitter laps this receiver, instead of counting the lap
    /// and going on from the latest message.
    #[arg(long)]
    no_laps: bool,
}

/// `consume --first`: where the pattern indexes start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum First {
    /// The first message carries this index.
    Index(u64),
    /// The first message's own bytes say its index.
    Auto,
}

fn parse_first(text: &str) -> Result<First, String> {
    if text == "auto" {
        return Ok(First::Auto);
    }
    text.parse()
        .map(First::Index)
        .map_err(|_| format!("expected a message index (0 or more) or 'auto', got '{text}'"))
}

/// `ring inspect PATH`
#[derive(Args, Debug)]
pub struct InspectArgs {
    /// The ring file.
    path: PathBuf,
    /// How many records to decode from the head.
    #[arg(long, default_value_t = 8)]
    records: usize,
}

/// Opens the ring a producer or consumer will write, naming it in the `SIGBUS` report. `open`
/// reserves any blocks the file lacks (a sparse file from an older create), so a full
/// filesystem is an error now rather than a `SIGBUS` at the first write to a hole.
fn open_for_use(path: &Path) -> Result<Ring> {
    super::sigbus::report_on_sigbus(Some(path));
    Ring::open(path).map_err(|e| with_hint(e, path))
}

/// A missing ring file gets the command that makes one.
fn with_hint(e: RingError, path: &Path) -> anyhow::Error {
    match &e {
        RingError::File(FileError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            anyhow::Error::new(e).context(format!(
                "no ring file at {}; create it first with `sympathy ring create {}`",
                path.display(),
                path.display()
            ))
        }
        _ => e.into(),
    }
}

pub fn create(args: CreateArgs) -> Result<()> {
    super::sigbus::report_on_sigbus(Some(&args.path));
    let (capacity, max) = match args.kind {
        Kind::OneToOne => {
            let ring = Ring::create(&args.path, args.capacity)?;
            (ring.capacity(), ring.max_message_length())
        }
        Kind::ManyToOne => {
            let ring = ManyToOneRing::create(&args.path, args.capacity)?;
            (ring.capacity(), ring.max_message_length())
        }
        Kind::Broadcast => {
            let ring = BroadcastRing::create(&args.path, args.capacity)?;
            (ring.capacity(), ring.max_message_length())
        }
    };
    println!(
        "created {} (capacity {capacity} bytes, max message {max} bytes, file {} bytes, kind {})",
        args.path.display(),
        args.kind.file_length(capacity),
        args.kind
    );
    Ok(())
}

/// The kind of ring in the file at `path` (a read-only look at its header), naming the file in
/// the `SIGBUS` report.
fn kind_of(path: &Path) -> Result<Kind> {
    super::sigbus::report_on_sigbus(Some(path));
    let view = sympathy_ring::inspect::RingView::open(path).map_err(|e| with_hint(e, path))?;
    Ok(view.kind())
}

pub fn produce(args: ProduceArgs) -> Result<()> {
    if let Some(core) = args.core {
        sympathy_harness::pin::pin_current_thread(core)?;
    }
    match kind_of(&args.path)? {
        Kind::OneToOne => {}
        Kind::ManyToOne => return kinds::produce_many_to_one(args),
        Kind::Broadcast => return kinds::transmit(args),
    }
    let ring = open_for_use(&args.path)?;
    sympathy_lab::ipc::check_size(args.size.min, ring.max_message_length())?;
    sympathy_lab::ipc::check_size(args.size.max, ring.max_message_length())?;
    let mut producer = ring.producer()?;
    let pattern = Pattern::new(args.size.max); // serves every size up to the largest
    let mut draw = SizeDraw {
        sizes: args.size,
        state: args.seed,
    };
    let wait = args.wait.wait(args.timeout_ms);
    let mut buf = vec![0u8; args.size.max];
    let count = args.count.unwrap_or(u64::MAX);
    let deadline = args
        .seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let mut bytes = 0u64;
    let mut written = 0u64;
    // The longest one write waited for room (back pressure).
    let mut longest_wait = Duration::ZERO;
    while written < count {
        // Reading the clock costs ~20 ns: look every 256 messages.
        if written.is_multiple_of(256) && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let i = args.first.wrapping_add(written);
        let size = draw.next();
        let message = &mut buf[..size];
        pattern.fill_len(i, message);
        // The clock is read only on back pressure: a write that finds room costs nothing more.
        let outcome = match producer.try_write(args.type_id, message) {
            Err(e) if e.is_full() => {
                let stalled = Instant::now();
                let outcome = producer.write(args.type_id, message, &wait);
                longest_wait = longest_wait.max(stalled.elapsed());
                outcome
            }
            other => other,
        };
        match outcome {
            Ok(()) => {}
            // The library's timeout says what the consumer did and what to do.
            Err(e @ RingError::Timeout { .. }) => bail!(
                "{e}; the ring is full after {written} messages (--timeout-ms {} sets how long \
                 to wait)",
                args.timeout_ms
            ),
            Err(e) => return Err(e).with_context(|| format!("writing message {i}")),
        }
        bytes += size as u64;
        written += 1;
    }
    println!(
        "produced {written} messages ({bytes} bytes, sizes {}, type {}); longest wait for room \
         {:.1} ms",
        args.size,
        args.type_id,
        longest_wait.as_secs_f64() * 1e3
    );
    Ok(())
}

pub fn consume(args: ConsumeArgs) -> Result<()> {
    match kind_of(&args.path)? {
        Kind::OneToOne => kinds::refuse(&args, Kind::OneToOne)?,
        Kind::ManyToOne => return kinds::consume_many_to_one(args),
        Kind::Broadcast => return kinds::receive(args),
    }
    let ring = open_for_use(&args.path)?;
    let mut consumer = ring.consumer()?;
    let wait = args.wait.wait(args.timeout_ms);
    let mut v = Verifier {
        count: args.count.unwrap_or(u64::MAX),
        first: match args.first {
            First::Index(i) => Some(i),
            First::Auto => None,
        },
        verified: 0,
        pattern: Pattern::new(ring.max_message_length()),
        mismatch: None,
        first_at: None,
        bytes_verified: 0,
    };
    while !v.done() {
        let limit = v.limit();
        let outcome = consumer.read_controlled_wait(|t, b| v.accept(t, b), limit, &wait);
        match outcome {
            Ok(_) => {}
            Err(RingError::PeerDead { pid: 0, .. }) if args.until_detached => {
                // Detached cleanly and drained; a padding record at the wrap reads as empty
                // once, so read until two reads in a row find nothing.
                let mut empty = 0;
                while empty < 2 && !v.done() {
                    let limit = v.limit();
                    let n = consumer.read_controlled(|t, b| v.accept(t, b), limit)?;
                    empty = if n == 0 { empty + 1 } else { 0 };
                }
                break;
            }
            Err(e @ RingError::PeerDead { .. }) if args.producer_restarts => {
                let timeout = Duration::from_millis(args.timeout_ms);
                if !await_next_producer(&mut consumer, &mut v, timeout)? {
                    bail!(
                        "{e}; verified {} of {} messages: the producer left and no new \
                         producer wrote within --timeout-ms {}",
                        v.verified,
                        describe_count(args.count),
                        args.timeout_ms
                    );
                }
            }
            Err(e @ RingError::PeerDead { .. }) => bail!(
                "{e}: the producer is gone after {} of {} messages",
                v.verified,
                describe_count(args.count)
            ),
            Err(e @ RingError::Timeout { .. }) => {
                let why = match consumer.peer() {
                    PeerState::NeverAttached if v.verified == 0 => {
                        "no producer has attached yet (no messages yet)"
                    }
                    PeerState::NeverAttached => {
                        "no producer is attached (the messages came from one that does not \
                         register in the ring's header)"
                    }
                    PeerState::Alive { pid: 0, .. } => {
                        "a producer that does not register in the ring's header (Agrona-only) \
                         is writing but sent nothing this consumer could take"
                    }
                    PeerState::Alive { .. } => {
                        "the producer is attached and alive but sent nothing"
                    }
                    PeerState::Stale { .. } => {
                        "the producer is attached but stalled (paused, stopped or hung: its \
                         heartbeat is stale)"
                    }
                    // A departure this consumer counted on ends the read with PeerDead above;
                    // one still here predates it: a reused ring.
                    PeerState::Detached => {
                        "the last producer detached before this consumer attached and no new \
                         producer came; start one"
                    }
                    PeerState::Dead { .. } => {
                        "the last producer died before this consumer attached and no new \
                         producer came; start one"
                    }
                };
                bail!(
                    "{e}; received {} of {} messages; {why}",
                    v.verified,
                    describe_count(args.count)
                )
            }
            Err(e) => {
                return Err(e).with_context(|| format!("after {} verified messages", v.verified));
            }
        }
    }
    let elapsed = v.first_at.map(|t| t.elapsed().as_secs_f64());
    if let Some(m) = v.mismatch {
        bail!(
            "verification failed at {m}; {} messages before it were verified and consumed, \
             it is left unconsumed at the ring's head (position {}: see `sympathy ring inspect`)",
            v.verified,
            consumer.position()
        );
    }
    if !args.json {
        println!(
            "consumed and verified {} messages ({} bytes)",
            v.verified, v.bytes_verified
        );
        return Ok(());
    }
    let count = v.verified;
    let seconds = elapsed
        .filter(|s| *s > 0.0 && count >= 2)
        .context("--json needs at least two messages to time (use a larger --count)")?;
    let msgs = Stats::from_samples(&[(count - 1) as f64 / seconds]).context("no sample")?;
    let mut reporter = Reporter::stdout(true);
    reporter.env(&Env::collect())?;
    let base = Measurement::new("ipc", "ring")
        .param("producer", args.producer.as_str())
        .param("consumer", "rust")
        .param("size_bytes", v.bytes_verified / count)
        .param("count", count)
        .param("capacity", ring.capacity() as u64)
        .param("placement", "processes")
        .check(Check::Ok);
    reporter.result(base.clone().stats(Metric::MsgsPerSec, msgs))?;
    let size = (v.bytes_verified / count) as f64;
    reporter.result(base.stats(Metric::BytesPerSec, msgs.map(|m| m * size)))?;
    Ok(())
}

/// Messages asked of the ring per read: a batch releases the head once.
const READ_BATCH: u64 = 1024;

/// Empty polls `--producer-restarts` spins through before it parks between polls.
const RESTART_SPINS: u32 = 1024;

/// How long `--producer-restarts` parks between empty polls once spinning found nothing.
const RESTART_PARK: Duration = Duration::from_micros(50);

/// `consume --producer-restarts`, once the producer has left and the ring is drained: polls
/// (spinning a little, then parking [`RESTART_PARK`] at a time, and storing the consumer's
/// heartbeat as it goes, so the next producer never takes it for hung) until a new producer's
/// messages arrive. Returns `true` when one was consumed (or verification stopped at a
/// mismatch, which `v` holds), `false` when nothing came for `timeout`.
fn await_next_producer(
    consumer: &mut sympathy_ring::Consumer,
    v: &mut Verifier,
    timeout: Duration,
) -> Result<bool> {
    let since = Instant::now();
    let mut idle = 0u32;
    while !v.done() {
        let limit = v.limit();
        let n = consumer
            .read_controlled(|t, b| v.accept(t, b), limit)
            .with_context(|| format!("after {} verified messages", v.verified))?;
        if n > 0 || v.done() {
            return Ok(true);
        }
        idle = idle.wrapping_add(1);
        if idle < RESTART_SPINS {
            std::hint::spin_loop();
            continue;
        }
        // Every read ticks towards a heartbeat, but parked polls are slow: beat every 64.
        if idle.is_multiple_of(64) {
            consumer.heartbeat();
        }
        if since.elapsed() >= timeout {
            return Ok(false);
        }
        std::thread::sleep(RESTART_PARK);
    }
    Ok(true)
}

/// Checks each message against the pattern, in order, and counts what was verified. Its
/// handler consumes exactly the messages it verified: it never sees more than are still
/// wanted (see [`Verifier::limit`]) and aborts the read at a mismatch, which stays in the ring.
struct Verifier {
    /// Messages wanted.
    count: u64,
    /// The index of the first message; `None` until the first message says it (`--first auto`).
    first: Option<u64>,
    /// Messages verified (and consumed).
    verified: u64,
    /// One pattern of the ring's largest message checks every size (a template per size
    /// would grow memory with each new size of a random-size stream).
    pattern: Pattern,
    mismatch: Option<String>,
    first_at: Option<Instant>,
    bytes_verified: u64,
}

impl Verifier {
    /// Whether every wanted message is verified, or one failed.
    fn done(&self) -> bool {
        self.verified >= self.count || self.mismatch.is_some()
    }

    /// How many messages the next read may hand out: never more than are still wanted.
    fn limit(&self) -> usize {
        (self.count - self.verified).min(READ_BATCH) as usize
    }

    fn accept(&mut self, type_id: i32, bytes: &[u8]) -> Action {
        self.first_at.get_or_insert_with(Instant::now);
        let first = *self
            .first
            .get_or_insert_with(|| pattern::index_of(bytes).unwrap_or(0));
        let index = first.wrapping_add(self.verified);
        match self.pattern.check_len(index, bytes) {
            Ok(()) => {
                self.verified += 1;
                self.bytes_verified += bytes.len() as u64;
                Action::Continue
            }
            Err(m) => {
                self.mismatch = Some(format!("message {index} (type {type_id}): {m}"));
                Action::Abort
            }
        }
    }
}

fn describe_count(count: Option<u64>) -> String {
    count.map_or_else(|| "all".to_string(), |c| c.to_string())
}

/// Prints the header, trailer and the records at the head. Read-only: the file is opened
/// `O_RDONLY` and never attached or written, so it works on a ring this user may only read, and
/// shows impossible positions instead of refusing the file.
pub fn inspect(args: InspectArgs) -> Result<()> {
    super::sigbus::report_on_sigbus(Some(&args.path));
    let ring =
        sympathy_ring::inspect::RingView::open(&args.path).map_err(|e| with_hint(e, &args.path))?;
    let s = ring.snapshot();
    let now = sympathy_ring::now_ms();
    println!("file                {}", args.path.display());
    println!(
        "magic               {:#018x} ({:?})",
        s.magic,
        String::from_utf8_lossy(&s.magic.to_le_bytes())
    );
    println!("layout_version      {}", s.layout_version);
    println!("kind                {}", s.kind);
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
        "producer            pid {} heartbeat {} detached {} ({})",
        s.producer_pid,
        s.producer_heartbeat_ms,
        s.producer_detached_ms,
        describe_peer(s.producer)
    );
    if s.kind == Kind::Broadcast {
        println!("receivers           do not register (any number may read)");
    } else {
        println!(
            "consumer            pid {} heartbeat {} detached {} ({})",
            s.consumer_pid,
            s.consumer_heartbeat_ms,
            s.consumer_detached_ms,
            describe_peer(s.consumer)
        );
    }
    match s.broadcast {
        Some(b) => println!(
            "trailer             tail_intent {} tail {} latest {}",
            b.tail_intent, b.tail, b.latest
        ),
        None => println!(
            "trailer             tail {} head {} head_cache {} correlation {}",
            s.tail, s.head, s.head_cache, s.correlation_counter
        ),
    }
    match (ring.positions_error(), s.broadcast) {
        (Some(e), _) => println!("positions           INVALID: {e}"),
        (None, None) => println!("pending bytes       {} (tail - head)", s.tail - s.head),
        (None, Some(_)) => {}
    }
    match s.kind {
        Kind::Broadcast => println!("records from the latest:"),
        _ => println!("next records from the head:"),
    }
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

/// A peer's state for `inspect`: a live pid 0 is a peer that speaks only Agrona.
fn describe_peer(state: PeerState) -> String {
    match state {
        PeerState::Alive {
            pid: 0,
            heartbeat_age_ms,
        } => format!("alive, foreign (Agrona-only, no pid), heartbeat {heartbeat_age_ms} ms ago"),
        PeerState::Stale {
            pid: 0,
            heartbeat_age_ms,
        } => format!("stale, foreign (Agrona-only, no pid), heartbeat {heartbeat_age_ms} ms ago"),
        other => format!("{other:?}"),
    }
}

pub fn layout() -> Result<()> {
    for (name, value) in layout::HEADER_CONSTANTS.iter().chain(layout::CONSTANTS) {
        println!("{name}={value}");
    }
    Ok(())
}
