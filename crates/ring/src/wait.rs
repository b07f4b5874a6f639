//! Wait strategies for callers that block on a full or empty ring, each with a timeout.

use std::time::{Duration, Instant};

use crossbeam_utils::Backoff;

use crate::error::RingError;
use crate::wake::Sleep;

/// How to wait between attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Retry at once, with a CPU spin hint: lowest latency, burns a core.
    BusySpin,
    /// Spin `spins` times, then yield the thread to the scheduler between attempts.
    SpinThenYield {
        /// Attempts before the first yield.
        spins: u32,
    },
    /// crossbeam-utils `Backoff` (exponential spin, then yield), then park for `park` between
    /// attempts once it is completed: gentle on a shared machine.
    BackoffPark {
        /// How long to park once backing off is exhausted.
        park: Duration,
    },
    /// Spin `spins` attempts, then sleep in a futex wait until the peer wakes this side (the
    /// opt-in idle wait: an idle side costs next to no CPU; the peer pays a fence per publish
    /// while this side is armed). Used by [`crate::Consumer::read_wait`] (woken by each
    /// published record) and [`crate::Producer::write`] (woken by each release of the head);
    /// the protocol is in `docs/ring-layout.md`. Linux only: elsewhere, under Miri, and in
    /// [`Wait::until`] (which has no ring to be woken through) a sleep is a 50 µs park, as
    /// [`Strategy::BackoffPark`].
    Futex {
        /// Attempts before the first sleep (a short burst of messages then costs no syscall).
        spins: u32,
        /// The longest one sleep lasts before the ring, the peer and the timeout are looked at
        /// again: also how late a message from a peer that never wakes (Agrona's ring, Aeron's,
        /// an older sympathy) is seen at worst.
        slice: Duration,
    },
}

/// A [`Strategy`] with an optional timeout.
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use sympathy_ring::{Ring, RingError, Wait};
/// let ring = Ring::anonymous(64)?;
/// let mut consumer = ring.consumer()?;
/// let wait = Wait::backoff().timeout(Duration::from_millis(5));
/// let outcome = consumer.read_wait(|_, _| {}, 1, &wait);
/// assert!(matches!(outcome, Err(RingError::Timeout { .. })));
/// # Ok::<(), RingError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait {
    /// How to wait between attempts.
    pub strategy: Strategy,
    /// Give up after this long; `None` waits forever.
    pub timeout: Option<Duration>,
}

impl Wait {
    /// Busy-spin, no timeout.
    pub fn busy_spin() -> Wait {
        Wait {
            strategy: Strategy::BusySpin,
            timeout: None,
        }
    }

    /// Spin 1000 attempts, then yield; no timeout.
    pub fn spin_then_yield() -> Wait {
        Wait {
            strategy: Strategy::SpinThenYield { spins: 1000 },
            timeout: None,
        }
    }

    /// Backoff, then park 50 µs at a time; no timeout.
    pub fn backoff() -> Wait {
        Wait {
            strategy: Strategy::BackoffPark {
                park: Duration::from_micros(50),
            },
            timeout: None,
        }
    }

    /// Spin 64 attempts, then sleep in a futex wait, woken by the peer or after 10 ms slices
    /// (see [`Strategy::Futex`]); no timeout.
    ///
    /// # Examples
    /// ```
    /// use sympathy_ring::{Ring, Wait};
    /// let ring = Ring::anonymous(1024)?;
    /// let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    /// let writer = std::thread::spawn(move || producer.try_write(1, b"wake up"));
    /// let mut got = Vec::new();
    /// consumer.read_wait(|_, bytes| got.extend_from_slice(bytes), 1, &Wait::futex())?;
    /// assert_eq!(got, b"wake up");
    /// writer.join().unwrap()?;
    /// # Ok::<(), sympathy_ring::RingError>(())
    /// ```
    pub fn futex() -> Wait {
        Wait {
            strategy: Strategy::Futex {
                spins: 64,
                slice: Duration::from_millis(10),
            },
            timeout: None,
        }
    }

    /// Failed attempts between two looks at the peer's liveness (and the caller's heartbeat) in
    /// [`crate::Consumer::read_wait`] and [`crate::Producer::write`]: a spinning wait polls
    /// millions of times a second, a sleeping one about once per slice.
    pub(crate) fn polls_per_peer_check(&self) -> u32 {
        match self.strategy {
            Strategy::Futex { spins, .. } => spins.clamp(8, 1024),
            _ => 1024,
        }
    }

    /// The same strategy, giving up after `timeout`.
    pub fn timeout(mut self, timeout: Duration) -> Wait {
        self.timeout = Some(timeout);
        self
    }

    /// Calls `attempt` until it returns `Ok(Some(_))` or an error, waiting between attempts.
    ///
    /// # Errors
    /// The attempt's error, or [`RingError::Timeout`] naming `what` was awaited.
    pub fn until<T>(
        &self,
        what: &'static str,
        attempt: impl FnMut() -> Result<Option<T>, RingError>,
    ) -> Result<T, RingError> {
        self.until_woken(what, None, attempt)
    }

    /// [`Wait::until`], sleeping in `sleep`'s futex wait when the strategy is
    /// [`Strategy::Futex`] (the attempt is the re-check after announcing the sleep).
    pub(crate) fn until_woken<T>(
        &self,
        what: &'static str,
        sleep: Option<&Sleep>,
        mut attempt: impl FnMut() -> Result<Option<T>, RingError>,
    ) -> Result<T, RingError> {
        let start = Instant::now();
        let backoff = Backoff::new();
        let mut attempts: u32 = 0;
        loop {
            if let Some(value) = attempt()? {
                return Ok(value);
            }
            attempts = attempts.wrapping_add(1);
            // Reading the clock costs ~20 ns: spinning strategies look every 64 attempts.
            let look = !matches!(self.strategy, Strategy::BusySpin) || attempts.is_multiple_of(64);
            if let (true, Some(timeout)) = (look, self.timeout) {
                let waited = start.elapsed();
                if waited >= timeout {
                    return Err(RingError::Timeout { waited, what });
                }
            }
            match self.strategy {
                Strategy::BusySpin => std::hint::spin_loop(),
                Strategy::SpinThenYield { spins } => {
                    if attempts < spins {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                Strategy::BackoffPark { park } => {
                    if backoff.is_completed() {
                        std::thread::park_timeout(park);
                    } else {
                        backoff.snooze();
                    }
                }
                Strategy::Futex { spins, slice } => {
                    if attempts < spins {
                        std::hint::spin_loop();
                        continue;
                    }
                    let slice = match self.timeout {
                        Some(timeout) => slice.min(timeout.saturating_sub(start.elapsed())),
                        None => slice,
                    };
                    match sleep {
                        Some(sleep) => {
                            if let Some(value) = sleep.sleep(slice, &mut attempt)? {
                                return Ok(value);
                            }
                        }
                        None => std::thread::park_timeout(slice.min(crate::futex::FALLBACK_PARK)),
                    }
                }
            }
        }
    }
}
