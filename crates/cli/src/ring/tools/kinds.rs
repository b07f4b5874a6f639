//! `ring produce` and `ring consume` on the many-to-one and broadcast kinds: several producers
//! each writing its own pattern stream (its own type id) into one consumer that verifies every
//! stream in order; one transmitter and receivers that verify what they get and count what
//! laps cost them. The Java sidecar's `ring produce|consume` does the same, line for line.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use sympathy_ring::layout::Kind;
use sympathy_ring::pattern::{self, Pattern};
use sympathy_ring::{BroadcastRing, ManyToOneRing, RingError};

use super::{ConsumeArgs, First, ProduceArgs, SizeDraw, describe_count, with_hint};

/// How long a many-to-one consumer lets a claim hold the head up before it unblocks it, unless
/// `--unblock-after-ms` says otherwise.
const DEFAULT_UNBLOCK_AFTER_MS: u64 = 1000;

/// Refuses the options of other kinds on a ring of `kind`.
pub(super) fn refuse(args: &ConsumeArgs, kind: Kind) -> Result<()> {
    let mut given = Vec::new();
    if kind != Kind::ManyToOne {
        if args.producers.is_some() {
            given.push("--producers");
        }
        if args.unblock_after_ms.is_some() {
            given.push("--unblock-after-ms");
        }
    }
    if kind != Kind::Broadcast && args.no_laps {
        given.push("--no-laps");
    }
    if kind != Kind::OneToOne && args.producer_restarts {
        given.push("--producer-restarts");
    }
    if let Some(option) = given.first() {
        bail!(
            "{option} does not apply to {} ring {}",
            kind.description(),
            args.path.display()
        );
    }
    Ok(())
}

/// The pattern messages of `args` (index, size), as the one-to-one `produce` draws them.
struct Messages {
    draw: SizeDraw,
    pattern: Pattern,
    buf: Vec<u8>,
    first: u64,
}

impl Messages {
    fn new(args: &ProduceArgs, max_message_length: usize) -> Result<Messages> {
        sympathy_lab::ipc::check_size(args.size.min, max_message_length)?;
        sympathy_lab::ipc::check_size(args.size.max, max_message_length)?;
        Ok(Messages {
            draw: SizeDraw {
                sizes: args.size,
                state: args.seed,
            },
            pattern: Pattern::new(args.size.max),
            buf: vec![0; args.size.max],
            first: args.first,
        })
    }

    /// Message `n` of the stream: its index and bytes.
    fn next(&mut self, n: u64) -> (u64, &[u8]) {
        let i = self.first.wrapping_add(n);
        let size = self.draw.next();
        self.pattern.fill_len(i, &mut self.buf[..size]);
        (i, &self.buf[..size])
    }
}

/// `produce` into a many-to-one ring: one producer among any number, waiting while the ring is
/// full.
pub(super) fn produce_many_to_one(args: ProduceArgs) -> Result<()> {
    let ring = ManyToOneRing::open(&args.path).map_err(|e| with_hint(e, &args.path))?;
    let mut producer = ring.producer();
    let mut messages = Messages::new(&args, ring.max_message_length())?;
    let wait = args.wait.wait(args.timeout_ms);
    let count = args.count.unwrap_or(u64::MAX);
    let deadline = args
        .seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let (mut written, mut bytes) = (0u64, 0u64);
    while written < count {
        if written.is_multiple_of(256) && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let (i, message) = messages.next(written);
        let len = message.len();
        match producer.write(args.type_id, message, &wait) {
            Ok(()) => {}
            Err(e @ RingError::Timeout { .. }) => bail!(
                "{e}; the ring is full after {written} messages: is a consumer reading? \
                 (--timeout-ms {} sets how long to wait)",
                args.timeout_ms
            ),
            Err(e) => return Err(e).with_context(|| format!("writing message {i}")),
        }
        bytes += len as u64;
        written += 1;
    }
    println!(
        "produced {written} messages ({bytes} bytes, sizes {}, type {})",
        args.size, args.type_id
    );
    Ok(())
}

/// `produce` into a broadcast ring: the transmitter, which never waits.
pub(super) fn transmit(args: ProduceArgs) -> Result<()> {
    let ring = BroadcastRing::open(&args.path).map_err(|e| with_hint(e, &args.path))?;
    let mut transmitter = ring.transmitter()?;
    let mut messages = Messages::new(&args, ring.max_message_length())?;
    let count = args.count.unwrap_or(u64::MAX);
    let deadline = args
        .seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let (mut written, mut bytes) = (0u64, 0u64);
    while written < count {
        if written.is_multiple_of(256) && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let (i, message) = messages.next(written);
        let len = message.len();
        transmitter
            .transmit(args.type_id, message)
            .with_context(|| format!("transmitting message {i}"))?;
        bytes += len as u64;
        written += 1;
    }
    println!(
        "produced {written} messages ({bytes} bytes, sizes {}, type {})",
        args.size, args.type_id
    );
    Ok(())
}

/// `consume` from a many-to-one ring: `--producers P` streams, one per type id 1..=P, each
/// verified in order; `--count` messages in all.
pub(super) fn consume_many_to_one(args: ConsumeArgs) -> Result<()> {
    refuse(&args, Kind::ManyToOne)?;
    let ring = ManyToOneRing::open(&args.path).map_err(|e| with_hint(e, &args.path))?;
    let mut consumer = ring.consumer()?;
    let unblock_after = args.unblock_after_ms.unwrap_or(DEFAULT_UNBLOCK_AFTER_MS);
    consumer.set_unblock_after(Some(Duration::from_millis(unblock_after)));
    let producers = args.producers.unwrap_or(1).max(1) as usize;
    let first = match args.first {
        First::Index(i) => i,
        First::Auto => bail!("--first auto applies to one-to-one rings; give the first index"),
    };
    let count = args.count.unwrap_or(u64::MAX);
    let pattern = Pattern::new(ring.max_message_length());
    let mut next = vec![0u64; producers];
    let (mut verified, mut bytes) = (0u64, 0u64);
    let mut mismatch = None;
    let mut idle_since = Instant::now();
    let timeout = Duration::from_millis(args.timeout_ms);
    while verified < count && mismatch.is_none() {
        let limit = (count - verified).min(1024) as usize;
        let n = consumer.read_controlled(
            |type_id, message| {
                let Some(slot) = usize::try_from(type_id - 1).ok().filter(|&t| t < producers)
                else {
                    mismatch = Some(format!(
                        "a message of type {type_id}, outside the 1..={producers} of --producers"
                    ));
                    return sympathy_ring::Action::Abort;
                };
                let index = first.wrapping_add(next[slot]);
                match pattern.check_len(index, message) {
                    Ok(()) => {
                        next[slot] += 1;
                        verified += 1;
                        bytes += message.len() as u64;
                        sympathy_ring::Action::Continue
                    }
                    Err(m) => {
                        mismatch = Some(format!("message {index} of type {type_id}: {m}"));
                        sympathy_ring::Action::Abort
                    }
                }
            },
            limit,
        )?;
        if n != 0 {
            idle_since = Instant::now();
        } else if idle_since.elapsed() >= timeout {
            bail!(
                "timed out after {timeout:?} waiting for messages; received {verified} of {} \
                 ({}); are the producers running?",
                describe_count(args.count),
                per_producer(&next)
            );
        } else {
            std::hint::spin_loop();
            std::thread::yield_now();
        }
    }
    if let Some(m) = mismatch {
        bail!(
            "verification failed at {m}; {verified} messages before it were verified and \
             consumed ({})",
            per_producer(&next)
        );
    }
    println!("consumed and verified {verified} messages ({bytes} bytes)");
    if producers > 1 {
        println!("per producer: {}", per_producer(&next));
    }
    if consumer.unblocked() > 0 {
        println!("unblocked {} stalled claims", consumer.unblocked());
    }
    Ok(())
}

/// `type 1 = n1, type 2 = n2, ...`
fn per_producer(counts: &[u64]) -> String {
    counts
        .iter()
        .enumerate()
        .map(|(t, n)| format!("type {} = {n}", t + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `consume` from a broadcast ring: a receiver joined at the latest message. Indexes must rise:
/// one by one, except across a lap (then from the index the message carries). Done once the
/// stream's last message, `--first + --count - 1`, is verified (messages lost to laps never
/// come).
pub(super) fn receive(args: ConsumeArgs) -> Result<()> {
    refuse(&args, Kind::Broadcast)?;
    let ring = BroadcastRing::open(&args.path).map_err(|e| with_hint(e, &args.path))?;
    let mut receiver = ring.receiver()?;
    println!(
        "receiving from {} at position {}",
        args.path.display(),
        receiver.position()
    );
    std::io::stdout().flush()?;
    let first = match args.first {
        First::Index(i) => Some(i),
        First::Auto => None,
    };
    let last_wanted = args
        .count
        .map(|c| first.unwrap_or(0).wrapping_add(c.saturating_sub(1)));
    let pattern = Pattern::new(ring.max_message_length());
    let timeout = Duration::from_millis(args.timeout_ms);
    let (mut verified, mut bytes, mut lost) = (0u64, 0u64, 0u64);
    let mut last: Option<u64> = None;
    let mut idle_since = Instant::now();
    loop {
        if last.is_some() && last == last_wanted {
            break;
        }
        let laps = receiver.lapped_count();
        let got = receiver.receive(|_, message| {
            let index = pattern::index_of(message);
            (
                index,
                index.map(|i| pattern.check_len(i, message)),
                message.len(),
            )
        })?;
        let lapped = receiver.lapped_count() != laps;
        if lapped && args.no_laps {
            bail!(
                "lapped by the transmitter after {verified} messages; use a larger capacity or \
                 a faster receiver"
            );
        }
        let Some((index, check, len)) = got else {
            if idle_since.elapsed() >= timeout {
                bail!(
                    "timed out after {timeout:?} waiting for messages; received {verified} of {} \
                     ({} lost to laps); is the transmitter running?",
                    describe_count(args.count),
                    lost
                );
            }
            std::thread::yield_now();
            continue;
        };
        idle_since = Instant::now();
        let index =
            index.context("a message shorter than 4 bytes, which the pattern cannot index")?;
        if let Some(Err(m)) = check {
            bail!("verification failed at message {index}: {m}; {verified} verified before it");
        }
        let expected = match (last, first) {
            (Some(l), _) => l.wrapping_add(1),
            (None, Some(f)) => f,
            (None, None) => index,
        };
        if index != expected {
            // Only a lap may skip messages, and only forwards.
            if !(lapped || last.is_none()) || index < expected {
                bail!(
                    "message {index} arrived where {expected} was due, without a lap; \
                     {verified} verified before it"
                );
            }
            lost += index - expected;
        }
        last = Some(index);
        verified += 1;
        bytes += len as u64;
    }
    println!(
        "received and verified {verified} messages ({bytes} bytes), lapped {} times, {lost} \
         messages lost to laps",
        receiver.lapped_count()
    );
    Ok(())
}
