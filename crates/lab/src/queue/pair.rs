//! Runs a producer and a consumer on two pinned threads and times the transfer.
//!
//! Both threads pin themselves (and verify the pin), meet at a barrier, and run; the time of a
//! transfer is from the earlier start to the later end, so the slower side decides it. A
//! consumer that sees a wrong value stops and raises the abort flag, which the producer checks
//! whenever it has to wait, so a failed run ends with an error instead of a hang.

use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Cores, Placement, QueueRunError};
use sympathy_harness::pin::pin_current_thread;

/// Spin hints a side that found the queue empty (or full) spends before it tries again,
/// cross-core (Java's `QueueThroughput` waits the same). Trying again at once pulls the other
/// side's cache line straight back: a P1C1 consumer that finds the queue empty reloads `tail` on
/// every retry, and the producer's next release store of `tail` must take the line back, so a
/// consumer as fast as its producer keeps the queue near empty and pays two line transfers per
/// message.
pub const SPINS_WHEN_WAITING: usize = 16;

/// What a producer or consumer loop consults when it has to wait.
pub struct Waiter<'a> {
    abort: &'a AtomicBool,
    yield_when_waiting: bool,
}

impl<'a> Waiter<'a> {
    /// A waiter for `placement`: cross-core spins, same-core yields the core to the peer.
    pub fn new(abort: &'a AtomicBool, placement: Placement) -> Waiter<'a> {
        Waiter {
            abort,
            yield_when_waiting: placement == Placement::SameCore,
        }
    }

    /// Waits a little (yield, or [`SPINS_WHEN_WAITING`] spin hints); returns `true` when the
    /// run was aborted.
    #[inline]
    pub fn wait(&self) -> bool {
        if self.yield_when_waiting {
            std::thread::yield_now();
        } else {
            for _ in 0..SPINS_WHEN_WAITING {
                std::hint::spin_loop();
            }
        }
        self.abort.load(Ordering::Relaxed)
    }

    /// Stops the peer: it sees `true` from its next [`Waiter::wait`].
    pub fn abort(&self) {
        self.abort.store(true, Ordering::Relaxed);
    }
}

/// What every variant's run is given: where its two threads run, how many values they move, and
/// the queue's capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    /// Same core or cross-core.
    pub placement: Placement,
    /// The producer's and the consumer's core.
    pub cores: Cores,
    /// Values to move.
    pub count: u64,
    /// The queue's capacity in elements.
    pub capacity: usize,
}

/// Runs `produce` and `consume` on threads pinned per `transfer`'s placement and cores and
/// returns the transfer's duration.
///
/// # Errors
/// A pin that fails or does not take effect, or the consumer's own error (wrong value, lost
/// values).
pub fn timed_pair<P, C>(
    transfer: Transfer,
    produce: P,
    consume: C,
) -> Result<Duration, QueueRunError>
where
    P: FnOnce(&Waiter) + Send,
    C: FnOnce(&Waiter) -> Result<(), QueueRunError> + Send,
{
    let Transfer {
        placement, cores, ..
    } = transfer;
    let abort = AtomicBool::new(false);
    let pinned = Barrier::new(2);
    let pin_failed = AtomicBool::new(false);
    let (abort, pinned, pin_failed) = (&abort, &pinned, &pin_failed);
    // Pins, meets the peer, and runs `body` unless either pin failed.
    let side = |core: usize| {
        let pin = pin_current_thread(core);
        if pin.is_err() {
            pin_failed.store(true, Ordering::Relaxed);
        }
        pinned.wait(); // the flag is written before and read after this barrier
        pin.map_err(QueueRunError::Pin)?;
        if pin_failed.load(Ordering::Relaxed) {
            return Err(QueueRunError::PeerPinFailed);
        }
        Ok(Waiter::new(abort, placement))
    };
    std::thread::scope(|scope| {
        let producer = scope.spawn(move || {
            let waiter = side(cores.producer)?;
            let start = Instant::now();
            produce(&waiter);
            Ok::<_, QueueRunError>((start, Instant::now()))
        });
        let consumer = scope.spawn(move || {
            let waiter = side(cores.consumer)?;
            let start = Instant::now();
            let outcome = consume(&waiter);
            if outcome.is_err() {
                waiter.abort();
            }
            outcome.map(|()| (start, Instant::now()))
        });
        let consumed = consumer.join().expect("the consumer thread panicked");
        let produced = producer.join().expect("the producer thread panicked");
        let (consumed, produced) = (consumed?, produced?);
        Ok(consumed.1.max(produced.1) - consumed.0.min(produced.0))
    })
}
