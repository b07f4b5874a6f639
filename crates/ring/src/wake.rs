//! The opt-in idle wait: a side with nothing to do (a consumer on an empty ring, a producer on a
//! full one) sleeps in a futex wait on a word of its wake-up block in the header page, and its
//! peer wakes it after publishing. The protocol (also in `docs/ring-layout.md`):
//!
//! ```text
//! waiter (e.g. the consumer)                     waker (e.g. the producer), per publish
//! ---------------------------------------        -------------------------------------------
//! a = armed                (acquire)             publish (record header, tail: release)
//! a == 0?  armed = 1       (request)             if armed != 0:               (plain load)
//! S = wake_seq             (acquire)                 fence(SeqCst)            [wake-dekker]
//! waiting = 1                                        armed == 1? CAS 1 -> 2   (release: ack)
//! fence(SeqCst)            [wake-dekker]             if waiting != 0:
//! re-check the ring: progress? -> done                   wake_seq += 1        (release)
//! futex_wait(wake_seq, S, a == 2 ? slice                 futex_wake(wake_seq)
//!                        : bounded sleep)
//! waiting = 0; poll the ring again
//! ```
//!
//! Why no wake-up is lost once `armed == 2`. The two SeqCst fences order "waiter stores
//! `waiting`, then loads the ring" against "waker stores the ring, then loads `waiting`"
//! (Dekker): in the fences' total order one comes first, so either the waker sees `waiting == 1`
//! or the waiter's re-check sees the publish and does not sleep. A waker that sees `waiting == 1`
//! increments `wake_seq` before its `futex_wake`: a waiter that read `S` before the increment
//! either has not called `futex_wait` yet (the kernel then finds `wake_seq != S` and returns at
//! once) or is queued, and the wake finds it; the kernel orders its compare-and-queue against
//! the wake under its bucket lock.
//!
//! Why `armed`, and why its acknowledgement. Without `armed` the waker would pay the fence (~20-40
//! cycles, a StoreLoad barrier) after every publish, also on rings where nobody sleeps. With it, a
//! ring without a futex waiter costs one plain load of a line nobody writes (it stays shared in
//! the waker's cache) and a predictable branch. But that plain load is not ordered after the
//! publish, so it may miss a waiter that is just arming while the waiter's re-check misses the
//! publish. So a waiter's request (`armed = 1`) counts only once the waker has acknowledged it:
//! the first waker that sees 1 fences and swaps it to 2 with release; a waiter that reads 2
//! (acquire) knows that every publish before the acknowledgement is visible to its re-check, and
//! that every later one is followed by the fence and the look at `waiting` (the waker, having
//! stored 2, never reads `armed` as 0 again while the waiter is attached). Until then its sleeps
//! are bounded: 1 ms, doubling up to the slice, so an idle side costs no more while the peer is
//! silent. A side stays armed until it detaches, and clears a stale block left by a predecessor
//! when it attaches.
//!
//! Every sleep is also bounded by the wait's `slice`: the waiter looks at the ring, its peer's
//! liveness and its timeout at least that often, and a peer that does not know the wake-up block
//! (Agrona's `OneToOneRingBuffer`, Aeron's C ring, an older sympathy) is still served, one slice
//! late at worst.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use crate::error::RingError;
use crate::futex;
use crate::layout::*;
use crate::primitive::{AtomicU32, Ordering, fence};
use crate::region::Region;

/// The first sleep of a side whose request the peer has not acknowledged yet; each further
/// one doubles, up to the wait's slice (see the module doc).
pub(crate) const UNACKNOWLEDGED_SLEEP: Duration = Duration::from_millis(1);

/// `armed`: nobody sleeps on this block.
const DISARMED: u32 = 0;
/// `armed`: the side has asked to be woken; its peer has not seen it yet.
const REQUESTED: u32 = 1;
/// `armed`: the peer has seen the request and fences after every publish.
const ACKNOWLEDGED: u32 = 2;

/// Which side sleeps (whose wake-up block is used).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sleeper {
    /// The consumer, on an empty ring; woken by the producer after it publishes.
    Consumer,
    /// The producer, on a full ring; woken by the consumer after it releases the head.
    Producer,
}

impl Sleeper {
    /// `(armed, waiting, wake_seq)` header offsets of this side's block.
    fn block(self) -> (usize, usize, usize) {
        match self {
            Sleeper::Consumer => (
                CONSUMER_WAKE_ARMED_OFFSET,
                CONSUMER_WAITING_OFFSET,
                CONSUMER_WAKE_SEQ_OFFSET,
            ),
            Sleeper::Producer => (
                PRODUCER_WAKE_ARMED_OFFSET,
                PRODUCER_WAITING_OFFSET,
                PRODUCER_WAKE_SEQ_OFFSET,
            ),
        }
    }

    fn words(self, region: &Region) -> (&AtomicU32, &AtomicU32, &AtomicU32) {
        let (armed, waiting, seq) = self.block();
        (
            region.wake_word(armed),
            region.wake_word(waiting),
            region.wake_word(seq),
        )
    }
}

/// The waker's half, after every publish that may end the `sleeper`'s wait (the producer after a
/// record, the consumer after releasing the head). A plain load and a branch unless the sleeper
/// armed its block.
#[inline(always)]
pub(crate) fn wake(region: &Region, sleeper: Sleeper) {
    let (armed, _, _) = sleeper.words(region);
    // SYNC POINT: wake-armed (relaxed: a request it misses is not yet relied on; module doc)
    if armed.load(Ordering::Relaxed) != DISARMED {
        wake_armed(region, sleeper);
    }
}

#[cold]
#[inline(never)]
fn wake_armed(region: &Region, sleeper: Sleeper) {
    let (armed, waiting, seq) = sleeper.words(region);
    // SYNC POINT: wake-dekker. StoreLoad: the publish before this fence against the load of
    // `waiting` after it; pairs with the fence in Sleep::sleep (store `waiting`, fence, re-check).
    fence(Ordering::SeqCst);
    // SYNC POINT: wake-armed. Release: publishes everything before it (the publishes that did not
    // fence) to a waiter that acquires the acknowledgement.
    let _ = armed.compare_exchange(
        REQUESTED,
        ACKNOWLEDGED,
        Ordering::Release,
        Ordering::Relaxed,
    );
    if waiting.load(Ordering::Relaxed) != 0 {
        seq.fetch_add(1, Ordering::Release); // SYNC POINT: wake-seq
        futex::wake(seq);
    }
}

/// Clears the `sleeper`'s block: when a side attaches (a predecessor may have died armed or
/// asleep) and when it detaches (its peer stops fencing). Only that side stores 0 or 1 there.
pub(crate) fn disarm(region: &Region, sleeper: Sleeper) {
    let (armed, waiting, _) = sleeper.words(region);
    if armed.load(Ordering::Relaxed) != DISARMED || waiting.load(Ordering::Relaxed) != 0 {
        armed.store(DISARMED, Ordering::Relaxed); // SYNC POINT: wake-armed
        waiting.store(0, Ordering::Relaxed);
    }
}

/// The waiter's half: one side's wake-up block, for [`crate::Wait`]'s futex strategy.
pub(crate) struct Sleep {
    region: Arc<Region>,
    sleeper: Sleeper,
    /// The next sleep while the request is unacknowledged.
    unacknowledged: Cell<Duration>,
}

impl Sleep {
    pub(crate) fn new(region: Arc<Region>, sleeper: Sleeper) -> Sleep {
        Sleep {
            region,
            sleeper,
            unacknowledged: Cell::new(UNACKNOWLEDGED_SLEEP),
        }
    }

    /// One sleep of at most `slice`: arms the block if needed, announces the sleep, re-checks
    /// with `recheck` (the wait's attempt) and sleeps only if that made no progress. Returns the
    /// re-check's value when it succeeded; `Ok(None)` after a sleep (woken, timed out or
    /// interrupted: the caller polls again).
    ///
    /// # Errors
    /// The re-check's error.
    pub(crate) fn sleep<T>(
        &self,
        slice: Duration,
        recheck: impl FnOnce() -> Result<Option<T>, RingError>,
    ) -> Result<Option<T>, RingError> {
        let (armed, waiting, seq) = self.sleeper.words(&self.region);
        // SYNC POINT: wake-armed. Acquire: pairs with the waker's release of the acknowledgement.
        let state = armed.load(Ordering::Acquire);
        if state == DISARMED {
            armed.store(REQUESTED, Ordering::Relaxed); // SYNC POINT: wake-armed
        }
        let expected = seq.load(Ordering::Acquire); // SYNC POINT: wake-seq
        waiting.store(1, Ordering::Relaxed);
        /// Clears `waiting` however the sleep ends (a re-check error included).
        struct Awake<'a>(&'a AtomicU32);
        impl Drop for Awake<'_> {
            fn drop(&mut self) {
                self.0.store(0, Ordering::Relaxed);
            }
        }
        let _awake = Awake(waiting);
        // SYNC POINT: wake-dekker. StoreLoad: `waiting = 1` before this fence against the
        // re-check's loads after it; pairs with the fence in wake_armed (publish, fence, load).
        fence(Ordering::SeqCst);
        if let Some(value) = recheck()? {
            return Ok(Some(value));
        }
        if state == ACKNOWLEDGED {
            futex::wait(seq, expected, slice);
        } else {
            let bound = self.unacknowledged.get().min(slice);
            self.unacknowledged.set(bound.saturating_mul(2));
            futex::wait_bounded(seq, expected, bound);
        }
        Ok(None)
    }
}

/// One side's wake-up block as it is now, for tools and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WakeState {
    /// Whether the side sleeps with the futex wait (its peer then fences after publishing).
    pub armed: bool,
    /// Whether it is in, or about to enter, a sleep.
    pub waiting: bool,
    /// Its futex word: how many times its peer has woken it (wrapping).
    pub wake_seq: u32,
}

impl crate::Ring {
    /// The wake-up block of the producer or consumer (see [`crate::Strategy::Futex`]).
    ///
    /// # Examples
    /// ```
    /// use sympathy_ring::{Ring, Role};
    /// let ring = Ring::anonymous(64)?;
    /// let state = ring.wake_state(Role::Consumer);
    /// assert!(!state.armed && !state.waiting); // nobody sleeps on a new ring
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn wake_state(&self, role: crate::Role) -> WakeState {
        let sleeper = match role {
            crate::Role::Consumer => Sleeper::Consumer,
            crate::Role::Producer => Sleeper::Producer,
        };
        let (armed, waiting, seq) = sleeper.words(self.region());
        WakeState {
            armed: armed.load(Ordering::Relaxed) != 0,
            waiting: waiting.load(Ordering::Relaxed) != 0,
            wake_seq: seq.load(Ordering::Relaxed),
        }
    }
}
