//! atomic-increment: T pinned threads increment one shared counter to N.
//!
//! The seed ("Further Adventures With CAS Instructions And Micro Benchmarking") found that with
//! two or more threads this test mostly measures how long a core keeps the counter's cache line
//! before another core takes it: so besides the time per increment, every run reports each
//! thread's share of the increments and, for the kernels that see the counter's value, the
//! handoffs (times a thread had to take the line back), from which the mean number of increments
//! per hold follows.
//!
//! Variants (names are part of the results interface):
//!
//! | variant | loop | instruction |
//! |---|---|---|
//! | `lock-add` | increments claimed 256 at a time until N are claimed, result unused | `lock add`/`lock inc` |
//! | `lock-xadd` | increment until the returned value reaches N | `lock xadd` |
//! | `cas-bool` | re-read, compare-and-swap, retry on failure | `lock cmpxchg` |
//! | `cas-val` | compare-and-swap fed with the value a failure witnessed | `lock cmpxchg` |
//! | `sharded` | one `CachePadded` counter per thread, claimed as `lock-add`, summed at the end | `lock add` (uncontended) |
//!
//! Each Rust kernel is `#[inline(never)]` and unmangled (`sympathy_rust_<variant>`), so its code
//! can be read with `objdump -d --disassemble=sympathy_rust_lock_add target/release/sympathy`;
//! a test asserts that `lock-add` really is a `lock add`/`lock inc` of 1. The C references
//! (`csrc/atomic_increment.c`) run the same four shared-counter loops.
//!
//! # Examples
//! ```
//! use sympathy_lab::atomic_increment::{run, Variant};
//! use sympathy_lab::c_reference::Language;
//! let cores = sympathy_harness::pin::available_cores();
//! let outcome = run(Variant::LockXadd, Language::Rust, &cores[..1], 10_000).unwrap();
//! assert_eq!(outcome.final_count, 10_000);
//! assert_eq!(outcome.tallies[0].increments, 10_000);
//! ```

use std::fmt;
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;
use sympathy_harness::environmental::Classify;
use thiserror::Error;

use crate::c_reference::{self, Kernel, Language, Tally};
use sympathy_harness::pin::{PinError, pin_current_thread};

/// The experiment's name in result lines.
pub const EXPERIMENT: &str = "atomic-increment";

/// How the threads increment the counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Fixed share per thread, result unused: `lock add`.
    LockAdd,
    /// Increment until the returned value says N was reached: `lock xadd`.
    LockXadd,
    /// Compare-and-swap retry loop that re-reads the counter.
    CasBool,
    /// Compare-and-swap loop fed with the witnessed value.
    CasVal,
    /// One cache-padded counter per thread, summed.
    Sharded,
}

sympathy_harness::catalog_variant!(Variant, EXPERIMENT);

impl Variant {
    /// Every variant, in reporting order.
    pub const ALL: [Variant; 5] = [
        Variant::LockAdd,
        Variant::LockXadd,
        Variant::CasBool,
        Variant::CasVal,
        Variant::Sharded,
    ];

    /// The variant's name in result lines.
    pub fn name(self) -> &'static str {
        match self {
            Variant::LockAdd => "lock-add",
            Variant::LockXadd => "lock-xadd",
            Variant::CasBool => "cas-bool",
            Variant::CasVal => "cas-val",
            Variant::Sharded => "sharded",
        }
    }

    /// Whether a kernel in `language` exists (the C references cover the shared counter only).
    pub fn has(self, language: Language) -> bool {
        language == Language::Rust || self != Variant::Sharded
    }

    /// Whether the kernel sees the counter's value, and so can count handoffs.
    pub fn witnesses_value(self) -> bool {
        matches!(self, Variant::LockXadd | Variant::CasBool | Variant::CasVal)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Why a run could not be made or did not verify.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AtomicIncrementError {
    /// No threads were asked for.
    #[error("no cores given: atomic-increment needs at least one thread (e.g. --threads 1)")]
    NoThreads,
    /// A count of zero measures nothing.
    #[error("the count must be at least 1 (e.g. --count 1000000)")]
    ZeroCount,
    /// The same core was given twice: two pinned threads would time-share it.
    #[error("core {0} is listed twice; each thread needs its own core")]
    DuplicateCore(usize),
    /// The variant has no kernel in that language.
    #[error("{0} has no kernel: the variant is not written in that language")]
    NoKernel(Kernel<Variant>),
    /// A thread could not be pinned.
    #[error(transparent)]
    Pin(#[from] PinError),
    /// The final count or the threads' tallies disagree with N: the run is not a result.
    #[error(
        "check failed: {kernel} ended with counter {actual} and tallies summing \
         to {tallied}, expected {expected}"
    )]
    CheckFailed {
        /// The kernel run.
        kernel: Kernel<Variant>,
        /// N.
        expected: u64,
        /// The final counter (or sum of shards).
        actual: u64,
        /// The sum of the threads' own increment counts.
        tallied: u64,
    },
}

impl Classify for AtomicIncrementError {
    /// Only a failed pin is the machine's doing; a count that does not add up never is.
    fn is_environmental(&self) -> bool {
        matches!(self, AtomicIncrementError::Pin(pin) if pin.is_environmental())
    }
}

/// The outcome of one verified run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// From the first thread's start to the last thread's end.
    pub elapsed: Duration,
    /// The final counter (sum of the shards for `sharded`); always N for a returned outcome.
    pub final_count: u64,
    /// What each thread did, in thread order (thread i ran on `cores[i]`).
    pub tallies: Vec<Tally>,
}

impl Outcome {
    /// Nanoseconds per increment over the whole run.
    pub fn ns_per_op(&self) -> f64 {
        self.elapsed.as_nanos() as f64 / self.final_count as f64
    }

    /// Each thread's fraction of the increments; they sum to 1.
    pub fn shares(&self) -> Vec<f64> {
        self.tallies
            .iter()
            .map(|t| t.increments as f64 / self.final_count as f64)
            .collect()
    }

    /// Mean increments a thread made in a row before another thread's increment came between:
    /// how long a core kept the cache line. `None` when the kernel does not witness the value.
    pub fn ops_per_handoff(&self) -> Option<f64> {
        let handoffs: u64 = self.tallies.iter().map(|t| t.handoffs).sum();
        (handoffs > 0).then(|| self.final_count as f64 / handoffs as f64)
    }
}

/// Runs `variant` in `language` with one thread pinned to each of `cores`, incrementing to
/// `count`, and verifies the final count and the threads' tallies.
///
/// # Errors
/// [`AtomicIncrementError`] for an empty or duplicated core list, a zero count, a variant without
/// a kernel in `language`, a failed pin, or a failed check.
pub fn run(
    variant: Variant,
    language: Language,
    cores: &[usize],
    count: u64,
) -> Result<Outcome, AtomicIncrementError> {
    if cores.is_empty() {
        return Err(AtomicIncrementError::NoThreads);
    }
    if count == 0 {
        return Err(AtomicIncrementError::ZeroCount);
    }
    if let Some(core) = first_duplicate(cores) {
        return Err(AtomicIncrementError::DuplicateCore(core));
    }
    if !variant.has(language) {
        return Err(AtomicIncrementError::NoKernel(Kernel { variant, language }));
    }
    let threads = cores.len();
    let counter = CachePadded::new(AtomicU64::new(0));
    let shards: Vec<CachePadded<AtomicU64>> = (0..threads)
        .map(|_| CachePadded::new(AtomicU64::new(0)))
        .collect();
    let claims = CachePadded::new(AtomicU64::new(0));
    let all_pinned = AtomicBool::new(true);
    let barrier = Barrier::new(threads);

    let results: Vec<Result<(Instant, Instant, Tally), PinError>> = std::thread::scope(|s| {
        let handles: Vec<_> = cores
            .iter()
            .enumerate()
            .map(|(index, &core)| {
                let (counter, shard, claims, all_pinned, barrier) =
                    (&counter, &shards[index], &claims, &all_pinned, &barrier);
                s.spawn(move || {
                    let pinned = pin_current_thread(core);
                    if pinned.is_err() {
                        all_pinned.store(false, Ordering::Relaxed);
                    }
                    // The barrier orders every thread's pin outcome before anyone reads it.
                    barrier.wait();
                    pinned?;
                    if !all_pinned.load(Ordering::Relaxed) {
                        return Ok((Instant::now(), Instant::now(), Tally::default()));
                    }
                    let start = Instant::now();
                    let tally = increment(variant, language, counter, shard, claims, count);
                    Ok((start, Instant::now(), tally))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a kernel thread panicked"))
            .collect()
    });

    let mut spans = Vec::with_capacity(threads);
    for result in results {
        spans.push(result?);
    }
    let start = spans
        .iter()
        .map(|s| s.0)
        .min()
        .expect("at least one thread");
    let end = spans
        .iter()
        .map(|s| s.1)
        .max()
        .expect("at least one thread");
    let tallies: Vec<Tally> = spans.iter().map(|s| s.2).collect();
    let final_count = match variant {
        Variant::Sharded => shards.iter().map(|s| s.load(Ordering::Relaxed)).sum(),
        _ => counter.load(Ordering::Relaxed),
    };
    let tallied: u64 = tallies.iter().map(|t| t.increments).sum();
    if final_count != count || tallied != count {
        return Err(AtomicIncrementError::CheckFailed {
            kernel: Kernel { variant, language },
            expected: count,
            actual: final_count,
            tallied,
        });
    }
    Ok(Outcome {
        elapsed: end - start,
        final_count,
        tallies,
    })
}

/// Increments a thread of a kernel that does not read the counter (`lock-add`, `sharded`)
/// claims at a time from the run's shared claim counter: every thread keeps incrementing until
/// the run's `count` is claimed, as the threads of the kernels that read the counter do, so no
/// thread finishes its part early and runs the rest uncontended, and each thread's share is
/// measured, not set (Java's threads run until the iteration ends). One claim per 256
/// increments costs a contended `lock xadd` on a line of its own, under 1% of the increments.
pub const CLAIM: u64 = 256;

/// Runs `kernel(n)` on chunks of up to [`CLAIM`] increments claimed from `claims` until
/// `target` increments are claimed; the tally counts what this thread made.
fn claimed(claims: &AtomicU64, target: u64, mut kernel: impl FnMut(u64)) -> Tally {
    let mut made = 0;
    loop {
        // Relaxed: the claim counter orders nothing; the final counts are read after the
        // threads are joined.
        let first = claims.fetch_add(CLAIM, Ordering::Relaxed);
        if first >= target {
            break;
        }
        let n = CLAIM.min(target - first);
        kernel(n);
        made += n;
    }
    Tally {
        increments: made,
        handoffs: 0,
    }
}

fn first_duplicate(cores: &[usize]) -> Option<usize> {
    cores
        .iter()
        .enumerate()
        .find(|(i, c)| cores[..*i].contains(c))
        .map(|(_, &c)| c)
}

/// Dispatches to one kernel; called once per thread, outside the timed loop's hot path (the
/// kernels that do not read the counter once per [`CLAIM`]).
fn increment(
    variant: Variant,
    language: Language,
    counter: &AtomicU64,
    shard: &AtomicU64,
    claims: &AtomicU64,
    target: u64,
) -> Tally {
    match (language, variant) {
        (Language::Rust, Variant::LockAdd) => {
            claimed(claims, target, |n| sympathy_rust_lock_add(counter, n))
        }
        (Language::Rust, Variant::LockXadd) => sympathy_rust_lock_xadd(counter, target),
        (Language::Rust, Variant::CasBool) => sympathy_rust_cas_bool(counter, target),
        (Language::Rust, Variant::CasVal) => sympathy_rust_cas_val(counter, target),
        (_, Variant::Sharded) => claimed(claims, target, |n| sympathy_rust_sharded(shard, n)),
        (Language::C, variant) => {
            let counter = counter.as_ptr();
            // SAFETY: `counter` points to a live, aligned u64 that every thread of this run
            // accesses only through atomic operations (Rust atomics here, GCC `__atomic`/`__sync`
            // builtins in C), for the whole call.
            unsafe {
                match variant {
                    Variant::LockAdd => claimed(claims, target, |n| {
                        c_reference::sympathy_c_lock_add(counter, n)
                    }),
                    Variant::LockXadd => c_reference::sympathy_c_lock_xadd(counter, target),
                    Variant::CasBool => c_reference::sympathy_c_cas_bool(counter, target),
                    _ => c_reference::sympathy_c_cas_val(counter, target),
                }
            }
        }
    }
}

// The kernels. `Relaxed` is enough: the counter carries no other data, and on x86-64 every
// ordering compiles to the same locked instruction. The final values are read after the
// threads are joined, which orders them.

/// `n` increments whose result is unused: must compile to `lock add`/`lock inc` of 1, one per
/// iteration of a count-down loop, as gcc compiles the seed's `run_add`
/// (`lock addq $0x1; sub $0x1; jne`).
///
/// Left alone, LLVM unrolls this loop eight times (eight `lock incq` per branch); an empty
/// `asm!` that takes the count in a register hides the trip count from it, so the loop keeps
/// the C shape, and costs no instruction.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn sympathy_rust_lock_add(counter: &AtomicU64, n: u64) {
    let mut left = n;
    while left != 0 {
        counter.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the template is empty: no instruction runs, no memory or flag is touched
        // (`nomem`, `nostack`, `preserves_flags`); `left` only passes through a register.
        unsafe {
            std::arch::asm!("/* {0} */", inout(reg) left, options(nomem, nostack, preserves_flags));
        }
        left -= 1;
    }
}

/// Fetch-and-add until the returned value reaches `target`; an increment past it (another
/// thread made the last one) is given back.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn sympathy_rust_lock_xadd(counter: &AtomicU64, target: u64) -> Tally {
    let mut tally = Tally::default();
    let mut expected = u64::MAX;
    loop {
        let old = counter.fetch_add(1, Ordering::Relaxed);
        if old + 1 >= target {
            if old < target {
                tally.handoffs += u64::from(old != expected);
                tally.increments += 1;
            } else {
                counter.fetch_sub(1, Ordering::Relaxed);
            }
            return tally;
        }
        tally.handoffs += u64::from(old != expected);
        expected = old + 1;
        tally.increments += 1;
    }
}

/// Re-read the counter and compare-and-swap it one higher, until it reaches `target`: the seed's
/// `run_cas`, `do { value = counter; } while (!__sync_bool_compare_and_swap(...))`.
///
/// The retry is its own inner loop that a failed CAS jumps back into, as in C. Written as one
/// loop with `if cas.is_ok() { tally }`, LLVM if-converts the tally into `sete`/`cmov` and the
/// CAS's outcome is never branched on, a different loop from gcc's `lock cmpxchg; jne` (see
/// docs/atomic-increment.md); `tests/increment_loop_shape.rs` checks the branch.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn sympathy_rust_cas_bool(counter: &AtomicU64, target: u64) -> Tally {
    let mut tally = Tally::default();
    let mut expected = u64::MAX;
    loop {
        let value = loop {
            let value = counter.load(Ordering::Relaxed);
            if value >= target {
                return tally;
            }
            if counter
                .compare_exchange(value, value + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
            {
                break value;
            }
        };
        tally.handoffs += u64::from(value != expected);
        expected = value + 1;
        tally.increments += 1;
    }
}

/// Compare-and-swap whose failure feeds the witnessed value into the next attempt, until the
/// counter reaches `target` (the seed's `run_cas2`, without its extra failing CAS per
/// increment: see docs/atomic-increment.md).
///
/// A failed CAS jumps straight back to the bound check and the next attempt, as gcc's
/// `lock cmpxchg; jne` does for the C reference.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn sympathy_rust_cas_val(counter: &AtomicU64, target: u64) -> Tally {
    let mut tally = Tally::default();
    let mut expected = u64::MAX;
    let mut value = counter.load(Ordering::Relaxed);
    while value < target {
        if let Err(witnessed) =
            counter.compare_exchange(value, value + 1, Ordering::Relaxed, Ordering::Relaxed)
        {
            value = witnessed;
            continue;
        }
        tally.handoffs += u64::from(value != expected);
        expected = value + 1;
        tally.increments += 1;
        value += 1;
    }
    tally
}

/// `n` increments of this thread's own cache-padded shard.
#[inline(never)]
#[unsafe(no_mangle)]
pub fn sympathy_rust_sharded(shard: &AtomicU64, n: u64) {
    for _ in 0..n {
        shard.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_harness::pin::available_cores;

    fn cores(threads: usize) -> Vec<usize> {
        available_cores().into_iter().take(threads).collect()
    }

    #[test]
    fn only_a_pin_that_did_not_take_is_the_machines_doing() {
        let refused = AtomicIncrementError::Pin(PinError::Refused { core: 1 });
        assert!(refused.is_environmental());
        assert!(!AtomicIncrementError::ZeroCount.is_environmental());
        let wrong = AtomicIncrementError::CheckFailed {
            kernel: Kernel {
                variant: Variant::CasBool,
                language: Language::Rust,
            },
            actual: 9,
            tallied: 9,
            expected: 10,
        };
        assert!(
            !wrong.is_environmental(),
            "a count that does not add up is never retried"
        );
    }

    #[test]
    fn every_kernel_reaches_exactly_the_count() {
        let all = available_cores().len();
        for language in Language::ALL {
            for variant in Variant::ALL.into_iter().filter(|v| v.has(language)) {
                for threads in 1..=all {
                    let outcome = run(variant, language, &cores(threads), 200_003).unwrap();
                    assert_eq!(outcome.final_count, 200_003, "{variant} [{language}]");
                    assert_eq!(outcome.tallies.len(), threads);
                }
            }
        }
    }

    #[test]
    fn shares_sum_to_one() {
        let all = available_cores().len();
        for variant in Variant::ALL {
            let outcome = run(variant, Language::Rust, &cores(all), 100_000).unwrap();
            let sum: f64 = outcome.shares().iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "{variant}: shares sum to {sum}");
        }
    }

    #[test]
    fn a_single_thread_keeps_the_line_for_the_whole_run() {
        let outcome = run(Variant::CasVal, Language::Rust, &cores(1), 5_000).unwrap();
        assert_eq!(outcome.tallies[0].handoffs, 1);
        assert_eq!(outcome.ops_per_handoff(), Some(5_000.0));
        assert_eq!(outcome.shares(), vec![1.0]);
    }

    #[test]
    fn c_and_rust_kernels_tally_the_same_counts() {
        for variant in [
            Variant::LockAdd,
            Variant::LockXadd,
            Variant::CasBool,
            Variant::CasVal,
        ] {
            let rust = run(variant, Language::Rust, &cores(1), 77_777).unwrap();
            let c = run(variant, Language::C, &cores(1), 77_777).unwrap();
            assert_eq!(rust.final_count, c.final_count);
            assert_eq!(rust.tallies, c.tallies, "{variant}");
        }
    }

    #[test]
    fn contended_c_and_rust_kernels_do_the_same_work() {
        // Every thread that incremented took the line at least once, and never more often than
        // it incremented; the threads' increments add up to the count in both languages.
        let cores = cores(available_cores().len().min(2));
        for variant in Variant::ALL.into_iter().filter(|v| v.witnesses_value()) {
            for language in Language::ALL {
                let outcome = run(variant, language, &cores, 300_007).unwrap();
                assert_eq!(outcome.final_count, 300_007, "{variant} [{language}]");
                for tally in &outcome.tallies {
                    assert!(tally.handoffs <= tally.increments, "{variant} [{language}]");
                    assert_eq!(
                        tally.handoffs == 0,
                        tally.increments == 0,
                        "{variant} [{language}]: {tally:?}"
                    );
                }
                assert!(
                    outcome.ops_per_handoff().is_some(),
                    "{variant} [{language}]"
                );
            }
        }
    }

    #[test]
    fn claims_stop_at_the_target_and_leave_no_remainder() {
        let claims = AtomicU64::new(0);
        let mut chunks = Vec::new();
        let tally = claimed(&claims, 2 * CLAIM + 5, |n| chunks.push(n));
        assert_eq!(chunks, vec![CLAIM, CLAIM, 5]);
        assert_eq!(tally.increments, 2 * CLAIM + 5);
        let late = claimed(&claims, 2 * CLAIM + 5, |_| panic!("nothing left to claim"));
        assert_eq!(late.increments, 0);
    }

    #[test]
    fn every_thread_of_lock_add_and_sharded_shares_the_work_and_the_count_is_exact() {
        let cores = cores(2);
        if cores.len() < 2 {
            return;
        }
        for variant in [Variant::LockAdd, Variant::Sharded] {
            let outcome = run(variant, Language::Rust, &cores, 1_000_000).unwrap();
            assert_eq!(outcome.final_count, 1_000_000, "{variant}");
            let made: u64 = outcome.tallies.iter().map(|t| t.increments).sum();
            assert_eq!(made, 1_000_000, "{variant}: the tallies add up");
        }
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let one = cores(1);
        assert_eq!(
            run(Variant::LockAdd, Language::Rust, &[], 10),
            Err(AtomicIncrementError::NoThreads)
        );
        assert_eq!(
            run(Variant::LockAdd, Language::Rust, &one, 0),
            Err(AtomicIncrementError::ZeroCount)
        );
        assert_eq!(
            run(Variant::LockAdd, Language::Rust, &[one[0], one[0]], 10),
            Err(AtomicIncrementError::DuplicateCore(one[0]))
        );
        assert!(matches!(
            run(Variant::Sharded, Language::C, &one, 10),
            Err(AtomicIncrementError::NoKernel(_))
        ));
        let err = run(Variant::LockAdd, Language::Rust, &[100_000], 10).unwrap_err();
        assert!(err.to_string().contains("--cores"), "{err}");
    }

    proptest::proptest! {
        #[test]
        fn claimed_chunks_add_up_to_the_target(target in 1u64..100_000) {
            let claims = AtomicU64::new(0);
            let mut made = 0;
            let tally = claimed(&claims, target, |n| made += n);
            proptest::prop_assert_eq!(tally.increments, target);
            proptest::prop_assert_eq!(made, target);
        }
    }
}
