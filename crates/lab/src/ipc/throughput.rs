//! Throughput (`ring`, `ring-cross`): a producer process writes `count` pattern messages into
//! one ring file; a pinned thread of this process consumes and verifies every byte, timed from
//! the first message to the last. The producer is started through the [`PeerLauncher`]; a Rust
//! producer runs [`produce_in_peer`].
//!
//! A Rust producer writes each message through the one-message API (`Batch::try_write` for
//! small payloads, publishing up to `batch` messages at once; a claim per message over 64
//! bytes), or with [`WriteMode::Batch`] through `Producer::try_write_batch`, which fills up to
//! `batch` fixed-size messages in place and publishes them together.

use std::process::Child;

use sympathy_harness::pin::pin_current_thread;
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Consumer, Ring};

use super::{Case, ProduceTask, WriteMode};
use crate::peer::{
    self, EmptyRing, FullRing, PeerError, PeerLauncher, PeerRun, consume_pattern, scratch_ring,
};

/// One throughput run of `case` on a fresh ring: returns messages per second, first message to
/// last (`count - 1` intervals). The producer is pinned to `cores.0`, the consumer to `cores.1`.
/// (The calling thread stays unpinned so the producer process inherits an affinity mask that
/// lets it pin itself elsewhere.)
///
/// # Errors
/// The ring or peer cannot be made, a message is wrong, or the producer fails or goes away.
pub fn measure_throughput(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
) -> Result<f64, PeerError> {
    let scratch = scratch_ring("ring");
    let ring = Ring::create(scratch.path(), case.capacity)?;
    let mut consumer = ring.consumer()?;
    let task = ProduceTask {
        ring: scratch.path().to_path_buf(),
        size: case.size_bytes,
        run: PeerRun {
            count: case.messages,
            core: cores.0,
        },
        writes: case.writes,
        batch: case.batch,
    };
    let seconds = peer::run_beside(
        launcher,
        case.producer,
        &task,
        "producer",
        cores.1,
        |child| consume(&mut consumer, case.size_bytes, case.messages, child),
    )?;
    Ok((case.messages - 1) as f64 / seconds)
}

fn consume(
    consumer: &mut Consumer,
    size: usize,
    count: u64,
    child: &mut Child,
) -> Result<f64, PeerError> {
    let mut empty = EmptyRing::new("producer", count);
    consume_pattern(consumer, size, count, |consumer, received| {
        empty.idle(consumer, Some(&mut *child), received)
    })
}

/// The Rust producer process: pins itself, writes `task.run.count` pattern messages.
///
/// # Errors
/// Pinning or opening fails, the consumer goes away, or the ring stays full too long.
pub fn produce_in_peer(task: &ProduceTask) -> Result<(), PeerError> {
    pin_current_thread(task.run.core)?;
    let ring = Ring::open(&task.ring)?;
    let mut producer = ring.producer()?;
    let pattern = Pattern::new(task.size);
    let mut buf = vec![0u8; task.size];
    let mut i = 0u64;
    let mut full = FullRing::new("consumer");
    while i < task.run.count {
        let before = i;
        if task.writes == WriteMode::Batch {
            let max = (task.run.count - i).min(task.batch as u64) as usize;
            let first = i;
            let fill = |k: usize, payload: &mut [u8]| pattern.fill(first + k as u64, payload);
            i += producer.try_write_batch(1, task.size, max, fill)? as u64;
        } else if task.size > 64 {
            // Zero copy: fill the claimed bytes in place.
            while i < task.run.count {
                match producer.try_claim(1, task.size) {
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
            while i < task.run.count && batch.len() < task.batch {
                pattern.fill(i, &mut buf);
                match batch.try_write(1, &buf) {
                    Ok(()) => i += 1,
                    Err(e) if e.is_full() => break,
                    Err(e) => return Err(e.into()),
                }
            }
        }
        if i == before {
            full.idle(&mut producer, i)?;
        }
    }
    Ok(())
}
