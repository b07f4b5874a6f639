//! The measuring loops of the cross-process experiments, over any pair of ring ends: a
//! consumer that reads and verifies `count` pattern messages timed from the first to the last
//! ([`consume_pattern`]: ipc's throughput, the bridge's), and a pinger that writes message `i`
//! and spins until its echo comes back ([`ping_loop`]: ipc's echo, the bridge's). What a loop
//! does while it waits (watch the processes it depends on, give up on a stall) is its caller's:
//! an `idle` or `look` closure, called out of the hot path.
//!
//! Round trips are timed with the CPU's time-stamp counter on x86_64 (`rdtsc`, converted with
//! the tick rate measured against `Instant` before the run): `Instant::now()` is a vDSO
//! `clock_gettime` that cost ~34 ns per call on the 2-core KVM guest, and about one whole call
//! falls inside every timed interval, against ~13 ns for `rdtsc` (this relies on an invariant
//! TSC, which the kernel's `tsc` clocksource implies). Elsewhere `Instant` is used.

use std::time::Instant;

use hdrhistogram::Histogram;
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Consumer, Producer};

use super::PeerError;
use crate::clock::{ns_per_tick, ticks};

/// Empty polls of the pinger between two calls of its `look`.
pub(crate) const LOOK_EVERY: u32 = 1 << 20;

/// Reads `count` messages of `size` bytes from `consumer`, checking message `i` against the
/// pattern of `i`; returns the seconds from the first message read to the last (at least 1 ns).
/// After each poll that read nothing it calls `idle(consumer, received)`, which waits as the
/// caller sees fit and fails the run when a peer is gone or late.
///
/// # Errors
/// The ring fails, `idle` fails, or a message is not the one expected (reported after the
/// last message, naming the first wrong one).
pub(crate) fn consume_pattern(
    consumer: &mut Consumer,
    size: usize,
    count: u64,
    mut idle: impl FnMut(&mut Consumer, u64) -> Result<(), PeerError>,
) -> Result<f64, PeerError> {
    let pattern = Pattern::new(size);
    let mut next = 0u64;
    let mut first = None;
    let mut bad: Option<String> = None;
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
        idle(consumer, next)?;
    }
    let seconds = first.map_or(0.0, |t| t.elapsed().as_secs_f64());
    if let Some(m) = bad {
        return Err(PeerError::Mismatch(m));
    }
    Ok(seconds.max(1e-9))
}

/// `warmup + count` round trips of `size`-byte messages, one in flight: message `i` written to
/// `producer`, then `consumer` polled until its echo arrives, which must match the pattern of
/// `i`. Returns the histogram of the last `count` round trips in nanoseconds. Every
/// [`LOOK_EVERY`] empty polls it calls `look(i)` (`i`: the round trip waited for), which fails
/// the run when the echo's side is gone or late.
///
/// # Errors
/// The ring fails (a full ping ring included: one message in flight never fills it), `look`
/// fails, or an echo is not the message sent (reported after the last round trip, naming the
/// first wrong one).
pub(crate) fn ping_loop(
    (producer, consumer): (&mut Producer, &mut Consumer),
    size: usize,
    count: u64,
    warmup: u64,
    mut look: impl FnMut(u64) -> Result<(), PeerError>,
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
            if idle.is_multiple_of(LOOK_EVERY) {
                look(i)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peer::scratch_ring;
    use sympathy_ring::Ring;

    /// The pinger checks every echo against its sequence number: an echo that returns message
    /// 3 with the pattern of another index fails the run, naming the message.
    #[test]
    fn an_echo_of_the_wrong_message_fails_the_run() {
        let (ping_file, pong_file) = (scratch_ring("test-ping"), scratch_ring("test-pong"));
        let ping = Ring::create(ping_file.path(), 4096).unwrap();
        let pong = Ring::create(pong_file.path(), 4096).unwrap();
        let (mut producer, mut consumer) = (ping.producer().unwrap(), pong.consumer().unwrap());
        let (mut from_ping, mut to_pong) = (ping.consumer().unwrap(), pong.producer().unwrap());
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
            ping_loop((&mut producer, &mut consumer), size, count, 0, |_| Ok(()))
        });
        match outcome {
            Err(PeerError::Mismatch(m)) => assert!(m.contains("echo of message 3"), "{m}"),
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }

    /// A consumer whose writer never writes gives up when its `idle` says so, with that error.
    #[test]
    fn a_consumer_stops_when_its_idle_fails() {
        let file = scratch_ring("test-idle");
        let ring = Ring::create(file.path(), 4096).unwrap();
        let mut consumer = ring.consumer().unwrap();
        let mut calls = 0;
        let outcome = consume_pattern(&mut consumer, 8, 5, |_, received| {
            calls += 1;
            if calls == 3 {
                Err(PeerError::Peer(format!("gone after {received}")))
            } else {
                Ok(())
            }
        });
        match outcome {
            Err(PeerError::Peer(m)) => assert_eq!(m, "gone after 0"),
            other => panic!("expected the idle's error, got {other:?}"),
        }
    }
}
