//! ping-pong: two pinned threads bounce a counter, measuring the one-way latency of handing a
//! cache line from one core to another (the seed: "Inter Thread Latency").
//!
//! `ping` publishes 1, 2, ..., n on its counter, each after seeing `pong`'s counter catch up;
//! `pong` answers each value by publishing it on its own counter. A run is 2n one-way hops and
//! ends with both counters at n (verified). Unlike the seed, whose pong thread spun forever,
//! pong stops after n answers and ping times up to the last answer.
//!
//! Variants (names are part of the results interface):
//!
//! | variant | publication | wait loop | counters |
//! |---|---|---|---|
//! | `xadd` | locked add-and-fetch (the seed) | acquire load | one `CachePadded` each |
//! | `store-release` | release store, "lazySet" | acquire load | one `CachePadded` each |
//! | `store-release-spin-hint` | release store | acquire load + `spin_loop()` (`pause`) | one `CachePadded` each |
//! | `same-line` | release store | acquire load | both in one cache line |
//!
//! The C references (`csrc/ping_pong.c`) cover `xadd` and `store-release`.
//!
//! # Examples
//! ```
//! use sympathy_lab::c_reference::Language;
//! use sympathy_lab::ping_pong::{run, Variant};
//! let cores = sympathy_harness::pin::available_cores();
//! if cores.len() >= 2 {
//!     let outcome = run(Variant::StoreRelease, Language::Rust, (cores[0], cores[1]), 1_000).unwrap();
//!     assert_eq!(outcome.hops, 2_000);
//! }
//! ```

use std::fmt;
use std::hint::spin_loop;
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;
use thiserror::Error;

use crate::c_reference::{self, Kernel, Language};
use sympathy_harness::environmental::Classify;
use sympathy_harness::pin::{PinError, pin_current_thread};

/// The experiment's name in result lines.
pub const EXPERIMENT: &str = "ping-pong";

/// How the counters are published and laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Locked add-and-fetch, as the seed.
    Xadd,
    /// Release store / acquire load.
    StoreRelease,
    /// Release store / acquire load with a spin-loop hint while waiting.
    StoreReleaseSpinHint,
    /// Release store / acquire load with both counters in one cache line.
    SameLine,
}

sympathy_harness::catalog_variant!(Variant, EXPERIMENT);

impl Variant {
    /// Every variant, in reporting order.
    pub const ALL: [Variant; 4] = [
        Variant::Xadd,
        Variant::StoreRelease,
        Variant::StoreReleaseSpinHint,
        Variant::SameLine,
    ];

    /// The variant's name in result lines.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Xadd => "xadd",
            Variant::StoreRelease => "store-release",
            Variant::StoreReleaseSpinHint => "store-release-spin-hint",
            Variant::SameLine => "same-line",
        }
    }

    /// Whether a kernel in `language` exists (C covers `xadd` and `store-release`).
    pub fn has(self, language: Language) -> bool {
        language == Language::Rust || matches!(self, Variant::Xadd | Variant::StoreRelease)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Why a run could not be made or did not verify.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PingPongError {
    /// Both threads on one core would hand over only at scheduler time slices.
    #[error("ping and pong need two different cores, got {0} twice (e.g. --cores 0,1)")]
    SameCore(usize),
    /// Zero iterations measure nothing.
    #[error("the iteration count must be at least 1 (e.g. --iterations 1000000)")]
    ZeroIterations,
    /// The variant has no kernel in that language.
    #[error("{0} has no kernel: the variant is not written in that language")]
    NoKernel(Kernel<Variant>),
    /// A thread could not be pinned.
    #[error(transparent)]
    Pin(#[from] PinError),
    /// The counters did not both end at n: the run is not a result.
    #[error("check failed: {kernel} ended with ping {ping} and pong {pong}, expected {expected}")]
    CheckFailed {
        /// The kernel run.
        kernel: Kernel<Variant>,
        /// n.
        expected: u64,
        /// Ping's final counter.
        ping: u64,
        /// Pong's final counter.
        pong: u64,
    },
}

impl Classify for PingPongError {
    /// Only a failed pin is the machine's doing.
    fn is_environmental(&self) -> bool {
        matches!(self, PingPongError::Pin(pin) if pin.is_environmental())
    }
}

/// The outcome of one verified run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Ping's time from its first publication to seeing the last answer.
    pub elapsed: Duration,
    /// One-way hops made: 2n.
    pub hops: u64,
}

impl Outcome {
    /// Nanoseconds per one-way hop.
    pub fn ns_per_hop(&self) -> f64 {
        self.elapsed.as_nanos() as f64 / self.hops as f64
    }

    /// One-way hops per second.
    pub fn hops_per_sec(&self) -> f64 {
        self.hops as f64 / self.elapsed.as_secs_f64()
    }
}

/// The two counters on separate cache lines (and separate prefetch pairs).
#[derive(Default)]
struct Padded {
    ping: CachePadded<AtomicU64>,
    pong: CachePadded<AtomicU64>,
}

/// The two counters in one 64-byte line.
#[derive(Default)]
#[repr(C, align(64))]
struct SameLine {
    ping: AtomicU64,
    pong: AtomicU64,
}

/// Runs `variant` in `language` with ping pinned to `cores.0` and pong to `cores.1`, for
/// `iterations` round trips, and verifies both final counters.
///
/// # Errors
/// [`PingPongError`] for the same core twice, zero iterations, a variant without a kernel in
/// `language`, a failed pin, or a failed check.
pub fn run(
    variant: Variant,
    language: Language,
    cores: (usize, usize),
    iterations: u64,
) -> Result<Outcome, PingPongError> {
    if cores.0 == cores.1 {
        return Err(PingPongError::SameCore(cores.0));
    }
    if iterations == 0 {
        return Err(PingPongError::ZeroIterations);
    }
    if !variant.has(language) {
        return Err(PingPongError::NoKernel(Kernel { variant, language }));
    }
    let padded = Padded::default();
    let same_line = SameLine::default();
    let (ping, pong) = match variant {
        Variant::SameLine => (&same_line.ping, &same_line.pong),
        _ => (&*padded.ping, &*padded.pong),
    };
    let both_pinned = AtomicBool::new(true);
    let barrier = Barrier::new(2);
    let pinned_then_ready = |core| {
        let pinned = pin_current_thread(core);
        if pinned.is_err() {
            both_pinned.store(false, Ordering::Relaxed);
        }
        // The barrier orders both pin outcomes before either is read.
        barrier.wait();
        pinned.map(|()| both_pinned.load(Ordering::Relaxed))
    };

    let (ping_side, pong_side) = std::thread::scope(|s| {
        let pong_thread = s.spawn(|| {
            if pinned_then_ready(cores.1)? {
                pong_side(variant, language, pong, ping, iterations);
            }
            Ok::<(), PinError>(())
        });
        let ping_thread = s.spawn(|| {
            if !pinned_then_ready(cores.0)? {
                return Ok(Duration::ZERO);
            }
            let start = Instant::now();
            ping_side(variant, language, ping, pong, iterations);
            Ok::<Duration, PinError>(start.elapsed())
        });
        (
            ping_thread.join().expect("the ping thread panicked"),
            pong_thread.join().expect("the pong thread panicked"),
        )
    });
    let elapsed = ping_side?;
    pong_side?;
    let (ping, pong) = (ping.load(Ordering::Acquire), pong.load(Ordering::Acquire));
    if ping != iterations || pong != iterations {
        return Err(PingPongError::CheckFailed {
            kernel: Kernel { variant, language },
            expected: iterations,
            ping,
            pong,
        });
    }
    Ok(Outcome {
        elapsed,
        hops: 2 * iterations,
    })
}

fn ping_side(variant: Variant, language: Language, ping: &AtomicU64, pong: &AtomicU64, n: u64) {
    match (language, variant) {
        (Language::Rust, Variant::Xadd) => ping_xadd(ping, pong, n),
        (Language::Rust, Variant::StoreReleaseSpinHint) => ping_store::<true>(ping, pong, n),
        (Language::Rust, _) => ping_store::<false>(ping, pong, n),
        (Language::C, variant) => {
            // SAFETY: both pointers are live, aligned u64s for the whole call, accessed by
            // both threads only through atomic operations.
            unsafe {
                if variant == Variant::Xadd {
                    c_reference::sympathy_c_ping_xadd(ping.as_ptr(), pong.as_ptr(), n)
                } else {
                    c_reference::sympathy_c_ping_store_release(ping.as_ptr(), pong.as_ptr(), n)
                }
            }
        }
    }
}

fn pong_side(variant: Variant, language: Language, pong: &AtomicU64, ping: &AtomicU64, n: u64) {
    match (language, variant) {
        (Language::Rust, Variant::Xadd) => pong_xadd(pong, ping, n),
        (Language::Rust, Variant::StoreReleaseSpinHint) => pong_store::<true>(pong, ping, n),
        (Language::Rust, _) => pong_store::<false>(pong, ping, n),
        (Language::C, variant) => {
            // SAFETY: both pointers are live, aligned u64s for the whole call, accessed by
            // both threads only through atomic operations.
            unsafe {
                if variant == Variant::Xadd {
                    c_reference::sympathy_c_pong_xadd(pong.as_ptr(), ping.as_ptr(), n)
                } else {
                    c_reference::sympathy_c_pong_store_release(pong.as_ptr(), ping.as_ptr(), n)
                }
            }
        }
    }
}

/// Ping with locked add-and-fetch publications, as the seed.
#[inline(never)]
fn ping_xadd(ping: &AtomicU64, pong: &AtomicU64, n: u64) {
    let mut value = 0;
    while value < n {
        // SYNC POINT: pong-published
        while pong.load(Ordering::Acquire) != value {}
        // SYNC POINT: ping-published (a locked add is a full barrier)
        value = ping.fetch_add(1, Ordering::SeqCst) + 1;
    }
    // SYNC POINT: pong-published
    while pong.load(Ordering::Acquire) != n {}
}

/// Pong with locked add-and-fetch publications, as the seed.
#[inline(never)]
fn pong_xadd(pong: &AtomicU64, ping: &AtomicU64, n: u64) {
    let mut value = 0;
    while value < n {
        // SYNC POINT: ping-published
        while ping.load(Ordering::Acquire) == value {}
        // SYNC POINT: pong-published (a locked add is a full barrier)
        value = pong.fetch_add(1, Ordering::SeqCst) + 1;
    }
}

/// Ping with release-store publications; `HINT` adds `spin_loop()` to the wait.
#[inline(never)]
fn ping_store<const HINT: bool>(ping: &AtomicU64, pong: &AtomicU64, n: u64) {
    let mut value = 0;
    while value < n {
        // SYNC POINT: pong-published
        while pong.load(Ordering::Acquire) != value {
            if HINT {
                spin_loop();
            }
        }
        value += 1;
        // SYNC POINT: ping-published
        ping.store(value, Ordering::Release);
    }
    // SYNC POINT: pong-published
    while pong.load(Ordering::Acquire) != n {
        if HINT {
            spin_loop();
        }
    }
}

/// Pong with release-store publications; `HINT` adds `spin_loop()` to the wait.
#[inline(never)]
fn pong_store<const HINT: bool>(pong: &AtomicU64, ping: &AtomicU64, n: u64) {
    let mut value = 0;
    while value < n {
        // SYNC POINT: ping-published
        while ping.load(Ordering::Acquire) == value {
            if HINT {
                spin_loop();
            }
        }
        value += 1;
        // SYNC POINT: pong-published
        pong.store(value, Ordering::Release);
    }
}

/// Every ordered pair of distinct cores from `cores`, row by row: the cells of a latency matrix.
///
/// # Examples
/// ```
/// use sympathy_lab::ping_pong::core_pairs;
/// assert_eq!(core_pairs(&[0, 1]), vec![(0, 1), (1, 0)]);
/// ```
pub fn core_pairs(cores: &[usize]) -> Vec<(usize, usize)> {
    cores
        .iter()
        .flat_map(|&a| cores.iter().filter(move |&&b| b != a).map(move |&b| (a, b)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_harness::pin::available_cores;

    fn two_cores() -> Option<(usize, usize)> {
        let cores = available_cores();
        (cores.len() >= 2).then(|| (cores[0], cores[1]))
    }

    #[test]
    fn every_kernel_ends_with_both_counters_at_n() {
        let Some(cores) = two_cores() else {
            eprintln!("skipped: ping-pong needs two cores");
            return;
        };
        for language in Language::ALL {
            for variant in Variant::ALL.into_iter().filter(|v| v.has(language)) {
                let outcome = run(variant, language, cores, 20_000).unwrap();
                assert_eq!(outcome.hops, 40_000, "{variant} [{language}]");
                assert!(outcome.ns_per_hop() > 0.0);
                let swapped = run(variant, language, (cores.1, cores.0), 1).unwrap();
                assert_eq!(swapped.hops, 2);
            }
        }
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let core = available_cores()[0];
        assert_eq!(
            run(Variant::Xadd, Language::Rust, (core, core), 10),
            Err(PingPongError::SameCore(core))
        );
        assert_eq!(
            run(Variant::Xadd, Language::Rust, (0, 1), 0),
            Err(PingPongError::ZeroIterations)
        );
        assert!(matches!(
            run(Variant::SameLine, Language::C, (0, 1), 10),
            Err(PingPongError::NoKernel(_))
        ));
        let err = run(Variant::Xadd, Language::Rust, (core, 100_000), 10).unwrap_err();
        assert!(matches!(err, PingPongError::Pin(_)), "{err}");
    }

    #[test]
    fn matrix_cells_skip_the_diagonal() {
        assert_eq!(
            core_pairs(&[0, 1, 2]),
            vec![(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
        );
        assert!(core_pairs(&[3]).is_empty());
    }

    proptest::proptest! {
        #[test]
        fn matrix_cells_match_a_nested_loop(cores in proptest::collection::btree_set(0usize..256, 0..12)) {
            let cores: Vec<usize> = cores.into_iter().collect();
            let mut model = Vec::new();
            for &a in &cores {
                for &b in &cores {
                    if a != b {
                        model.push((a, b));
                    }
                }
            }
            proptest::prop_assert_eq!(core_pairs(&cores), model);
        }
    }

    #[test]
    fn same_line_counters_share_a_line() {
        let line = SameLine::default();
        let (a, b) = (line.ping.as_ptr() as usize, line.pong.as_ptr() as usize);
        assert_eq!(a / 64, b / 64);
        let padded = Padded::default();
        let (a, b) = (padded.ping.as_ptr() as usize, padded.pong.as_ptr() as usize);
        assert!(a.abs_diff(b) >= 64);
    }
}
