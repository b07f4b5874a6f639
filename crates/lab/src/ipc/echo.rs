//! Round trip (`echo`, `echo-cross-*`): this process writes message `i` to a ping ring and spins
//! until an echo process (Rust, or Java for `echo-cross-*`) returns it on a pong ring, both
//! pinned; every echoed message is verified against the pattern of its sequence number `i`.
//! [`warmup_round_trips`] untimed round trips run first (the rule Java's pinger shares), long
//! enough to warm a Java echo's JIT and to map every page of both rings. The echo is started
//! through the [`PeerLauncher`]; a Rust echo runs [`echo_in_peer`].
//!
//! Round trips are timed with the CPU's time-stamp counter on x86_64 (`rdtsc`, converted with
//! the tick rate measured against `Instant` before the run): `Instant::now()` is a vDSO
//! `clock_gettime` that cost ~34 ns per call on the 2-core KVM guest, and about one whole call
//! falls inside every timed interval, against ~13 ns for `rdtsc` (this relies on an invariant
//! TSC, which the kernel's `tsc` clocksource implies). Elsewhere `Instant` is used.

use std::process::Child;
use std::time::Duration;

use hdrhistogram::Histogram;
use sympathy_harness::pin::pin_current_thread;
use sympathy_ring::layout::{RECORD_ALIGNMENT, RECORD_HEADER_LENGTH};
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Consumer, Producer, Ring, Role};

use super::{Case, EchoTask};
use crate::clock::{ns_per_tick, ticks};
use crate::peer::{self, PeerError, PeerLauncher, PeerRun, Progress, scratch_ring};

/// Round trips of warm-up at the least: a Java echo's loop is compiled by C2 well before.
pub const MIN_WARMUP: u64 = 100_000;
/// Laps of each ring the warm-up makes at the least: every page mapped, the wrap-around taken.
pub const WARMUP_LAPS: u64 = 2;

/// The untimed round trips before `timed` timed ones of `size`-byte messages over rings of
/// `capacity` bytes: the most of a tenth of `timed`, [`MIN_WARMUP`] and [`WARMUP_LAPS`] laps
/// of a ring (Java's `EchoLoop.warmup` is the same rule). A tenth alone left a quick run's
/// 10k warm-up round trips short of one lap of a 256 KiB ring: the first lap's page faults
/// (one per 256 round trips, ~4 µs each) and a Java echo's JIT fell in the timed part.
///
/// # Examples
/// ```
/// use sympathy_lab::ipc::warmup_round_trips;
/// assert_eq!(warmup_round_trips(1_000_000, 262_144, 4), 100_000); // a tenth
/// assert_eq!(warmup_round_trips(2_000, 262_144, 4), 100_000); // the floor
/// assert_eq!(warmup_round_trips(2_000, 1 << 26, 4), 8_388_608); // two laps of 16-byte records
/// ```
pub fn warmup_round_trips(timed: u64, capacity: usize, size: usize) -> u64 {
    let record = (size + RECORD_HEADER_LENGTH).next_multiple_of(RECORD_ALIGNMENT) as u64;
    (timed / 10)
        .max(MIN_WARMUP)
        .max(WARMUP_LAPS * capacity as u64 / record)
}

/// Polls between two looks at whether the peer is still there.
const LOOK_EVERY: u32 = 1 << 20;
/// How long the echo waits for a ping before giving up.
const NO_PING_LIMIT: Duration = Duration::from_secs(120);

/// One echo run of `case` on fresh rings: the histogram of `case.messages` timed round trips
/// in nanoseconds. This process pings from `cores.0`, the echo runs on `cores.1`.
///
/// # Errors
/// A ring or the echo cannot be made, an echo is wrong, or the echo process fails.
pub fn measure_echo(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
) -> Result<Histogram<u64>, PeerError> {
    let (ping_file, pong_file) = (scratch_ring("ping"), scratch_ring("pong"));
    let ping = Ring::create(ping_file.path(), case.capacity)?;
    let pong = Ring::create(pong_file.path(), case.capacity)?;
    let mut producer = ping.producer()?;
    let mut consumer = pong.consumer()?;
    let warmup = warmup_round_trips(case.messages, case.capacity, case.size_bytes);
    let task = EchoTask {
        ping: ping_file.path().to_path_buf(),
        pong: pong_file.path().to_path_buf(),
        run: PeerRun {
            count: case.messages + warmup,
            core: cores.1,
        },
        java_ring: case.variant.java_ring(),
    };
    peer::run_beside(launcher, case.consumer, &task, "echo", cores.0, |child| {
        let ends = (&mut producer, &mut consumer);
        ping_loop(ends, case.size_bytes, case.messages, warmup, child)
    })
}

fn ping_loop(
    (producer, consumer): (&mut Producer, &mut Consumer),
    size: usize,
    count: u64,
    warmup: u64,
    child: &mut Child,
) -> Result<Histogram<u64>, PeerError> {
    let histogram_error = |e: &dyn std::fmt::Display| PeerError::Histogram(e.to_string());
    let pattern = Pattern::new(size);
    let mut h = Histogram::<u64>::new(3).map_err(|e| histogram_error(&e))?;
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
                return Err(PeerError::Peer(format!(
                    "the echo process exited ({status}) at round trip {i}"
                )));
            }
            std::hint::spin_loop();
        }
        let rtt = (ticks().wrapping_sub(start) as f64 * ns_per_tick) as u64;
        if i >= warmup {
            h.record(rtt.max(1)).map_err(|e| histogram_error(&e))?;
        }
    }
    if let Some(m) = bad {
        return Err(PeerError::Mismatch(m));
    }
    Ok(h)
}

/// The Rust echo process: pins itself and sends every ping back on the pong ring.
///
/// # Errors
/// Pinning or opening fails, the pinging process goes away, or no ping comes for too long.
pub fn echo_in_peer(task: &EchoTask) -> Result<(), PeerError> {
    pin_current_thread(task.run.core)?;
    let mut consumer = Ring::open(&task.ping)?.consumer()?;
    let mut producer = Ring::open(&task.pong)?.producer()?;
    let mut echoed = 0u64;
    let mut idle: u32 = 0;
    let mut progress = Progress::new();
    while echoed < task.run.count {
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
            if let Some(e) = sympathy_ring::RingError::peer_gone(consumer.peer(), Role::Producer) {
                return Err(e.into());
            }
            if progress.stalled(echoed, NO_PING_LIMIT) {
                return Err(PeerError::Peer(format!(
                    "no ping for {NO_PING_LIMIT:?} ({echoed} of {} echoed)",
                    task.run.count
                )));
            }
        }
        std::hint::spin_loop();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pinger checks every echo against its sequence number: an echo process that returns
    /// message 3 with the pattern of another index fails the run, naming the message.
    #[test]
    fn an_echo_of_the_wrong_message_fails_the_run() {
        let (ping_file, pong_file) = (scratch_ring("test-ping"), scratch_ring("test-pong"));
        let ping = Ring::create(ping_file.path(), 4096).unwrap();
        let pong = Ring::create(pong_file.path(), 4096).unwrap();
        let (mut producer, mut consumer) = (ping.producer().unwrap(), pong.consumer().unwrap());
        let (mut from_ping, mut to_pong) = (ping.consumer().unwrap(), pong.producer().unwrap());
        // A live stand-in for the echo process, which the pinger looks at while it waits.
        let mut child = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .unwrap();
        let (size, count) = (8, 10u64);
        let outcome = std::thread::scope(|s| {
            s.spawn(move || {
                let pattern = Pattern::new(size);
                let mut wrong = vec![0u8; size];
                let mut echoed = 0u64;
                while echoed < count {
                    let n = from_ping
                        .read(
                            |type_id, bytes| {
                                let out = if echoed == 3 {
                                    pattern.fill(echoed + 1, &mut wrong);
                                    &wrong[..]
                                } else {
                                    bytes
                                };
                                to_pong.try_write(type_id, out).unwrap();
                            },
                            1,
                        )
                        .unwrap();
                    echoed += n as u64;
                }
            });
            ping_loop((&mut producer, &mut consumer), size, count, 0, &mut child)
        });
        let _ = child.kill();
        let _ = child.wait();
        match outcome {
            Err(PeerError::Mismatch(m)) => assert!(m.contains("echo of message 3"), "{m}"),
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }
}
