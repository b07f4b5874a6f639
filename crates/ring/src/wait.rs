//! Wait strategies for callers that block on a full or empty ring, each with a timeout.

use std::time::{Duration, Instant};

use crossbeam_utils::Backoff;

use crate::error::RingError;

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
            }
        }
    }
}
