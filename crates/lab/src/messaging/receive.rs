//! The receiving end: [`measure_messaging`] creates a fresh ring, starts the sending process
//! through the [`PeerLauncher`] and, on a thread pinned to its core, reads every record in place
//! from the consumer's slice, decodes it and checks every field against the message it must be
//! (`verify` of its [`Wire`]), timed from the first message to the last.

use std::process::Child;
use std::time::Instant;

use sympathy_ring::{Consumer, Ring};

use super::cases::Case;
use super::encoding::Encoding;
use super::layout::{HandCodec, Struct};
use super::publish::PublishTask;
use super::wire::{Raw, Sbe, Serde, Wire};
use crate::peer::{self, EmptyRing, PeerError, PeerLauncher, PeerRun, scratch_ring};

/// One run's outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Received {
    /// Messages received, decoded and checked per second, first message to last.
    pub msgs_per_sec: f64,
    /// Mean bytes of a message (its record's payload).
    pub mean_bytes: f64,
}

/// One run of `case` on a fresh ring: the sender pinned to `cores.0`, this receiver to `cores.1`.
///
/// # Errors
/// The ring or the peer cannot be made, a message does not decode to what it must be, or the
/// sender fails or goes away.
pub fn measure_messaging(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
) -> Result<Received, PeerError> {
    match case.variant.encoding() {
        Encoding::Raw => measure::<Raw>(case, cores, launcher),
        Encoding::Sbe => measure::<Sbe>(case, cores, launcher),
        Encoding::Struct => measure::<Struct>(case, cores, launcher),
        Encoding::HandCodec => measure::<HandCodec>(case, cores, launcher),
        Encoding::Serde => measure::<Serde>(case, cores, launcher),
    }
}

fn measure<W: Wire>(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
) -> Result<Received, PeerError> {
    let scratch = scratch_ring("messaging");
    let ring = Ring::create(scratch.path(), case.capacity)?;
    let mut consumer = ring.consumer()?;
    let task = PublishTask {
        ring: scratch.path().to_path_buf(),
        encoding: case.variant.encoding(),
        run: PeerRun {
            count: case.messages,
            core: cores.0,
        },
        java_ring: case.variant.java_ring(),
        java_warmup: case.java_warmup,
    };
    let (seconds, bytes) = peer::run_beside(
        launcher,
        case.sender_language(),
        &task,
        "sender",
        cores.1,
        |child| receive::<W>(&mut consumer, case.messages, Some(child)),
    )?;
    Ok(Received {
        msgs_per_sec: (case.messages - 1) as f64 / seconds,
        mean_bytes: bytes as f64 / case.messages as f64,
    })
}

/// Reads `count` messages, decoding and checking each; returns the seconds from the first to
/// the last and the payload bytes received. `sender`, when given, is watched: a sender that
/// exits before the last message ends the wait.
///
/// # Errors
/// A record of another type, a message that fails to decode or differs (the first one named),
/// a sender that exits early or stalls, or the ring's own errors.
pub fn receive<W: Wire>(
    consumer: &mut Consumer,
    count: u64,
    mut sender: Option<&mut Child>,
) -> Result<(f64, u64), PeerError> {
    let mut next = 0u64;
    let mut bytes = 0u64;
    let mut first = None;
    let mut bad: Option<String> = None;
    let mut empty = EmptyRing::new("sender", count);
    while next < count {
        let limit = (count - next) as usize;
        // Until the first message, the clock is read before each poll: the run starts when the
        // read that finds the first message starts, so that its messages count in the time.
        let started = first.is_none().then(Instant::now);
        let n = consumer.read(
            |type_id, payload| {
                let outcome = if type_id == W::TYPE_ID {
                    W::verify(next, payload)
                } else {
                    Err(format!("a record of type {type_id}, not {}", W::TYPE_ID))
                };
                if let Err(m) = outcome {
                    bad.get_or_insert_with(|| format!("message {next}: {m}"));
                }
                bytes += payload.len() as u64;
                next += 1;
            },
            limit,
        )?;
        if n > 0 {
            first = first.or(started);
            continue;
        }
        empty.idle(consumer, sender.as_deref_mut(), next)?;
    }
    let seconds = first.map_or(0.0, |t| t.elapsed().as_secs_f64());
    if let Some(m) = bad {
        return Err(PeerError::Mismatch(m));
    }
    Ok((seconds.max(1e-9), bytes))
}
