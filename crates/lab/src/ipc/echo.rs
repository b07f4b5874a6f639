//! Round trip (`echo`, `echo-cross-*`): this process writes message `i` to a ping ring and spins
//! until an echo process (Rust, or Java for `echo-cross-*`) returns it on a pong ring, both
//! pinned; every echoed message is verified against the pattern of its sequence number `i`.
//! [`warmup_round_trips`] untimed round trips run first (the rule Java's pinger shares), long
//! enough to warm a Java echo's JIT and to map every page of both rings. The echo is started
//! through the [`PeerLauncher`]; a Rust echo runs [`echo_in_peer`].
//!
//! The pinger's loop is the peer layer's [`ping_loop`](crate::peer) (shared with the bridge's
//! echo), timed with the CPU's time-stamp counter; here it watches the echo process.

use std::time::Duration;

use hdrhistogram::Histogram;
use sympathy_harness::pin::pin_current_thread;
use sympathy_ring::layout::{RECORD_ALIGNMENT, RECORD_HEADER_LENGTH};
use sympathy_ring::{Ring, Role};

use super::{Case, EchoTask};
use crate::peer::{
    self, LOOK_EVERY, PeerError, PeerLauncher, PeerRun, Progress, ping_loop, scratch_ring,
};

/// Round trips of warm-up at the least, enough for C2 to have compiled a Java end's loops on a
/// 2-vCPU machine, where the JIT's threads take their time from the two spinning ends (Java's
/// `EchoLoop.MIN_WARMUP` is the same). At 100k, the ring's last C2 compilations landed in the
/// quick preset's timed part, and the p50 of one command's runs with a JVM end spread from 110
/// to 471 ns (100-160 ns at 1M, the hop fast).
pub const MIN_WARMUP: u64 = 1_000_000;
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
/// assert_eq!(warmup_round_trips(20_000_000, 262_144, 4), 2_000_000); // a tenth
/// assert_eq!(warmup_round_trips(2_000, 262_144, 4), 1_000_000); // the floor
/// assert_eq!(warmup_round_trips(2_000, 1 << 26, 4), 8_388_608); // two laps of 16-byte records
/// ```
pub fn warmup_round_trips(timed: u64, capacity: usize, size: usize) -> u64 {
    let record = (size + RECORD_HEADER_LENGTH).next_multiple_of(RECORD_ALIGNMENT) as u64;
    (timed / 10)
        .max(MIN_WARMUP)
        .max(WARMUP_LAPS * capacity as u64 / record)
}

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
        ping_loop(
            ends,
            case.size_bytes,
            case.messages,
            warmup,
            |i| match child.try_wait()? {
                Some(status) => Err(PeerError::Peer(format!(
                    "the echo process exited ({status}) at round trip {i}"
                ))),
                None => Ok(()),
            },
        )
    })
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
