//! A cheap clock for timing single operations: the CPU's time-stamp counter on x86_64
//! (`rdtsc`, ~13 ns on the 2-core VM against ~34 ns for a `clock_gettime`), converted to
//! nanoseconds with a rate measured against `Instant`. This relies on an invariant TSC (every
//! x86_64 CPU of the last decade; the VM exposes one).
//!
//!
//! `rdtsc` alone may run before the loads of the operation it closes have completed: time one
//! operation between [`ticks_fenced`] and [`ticks_after`], which wait for the instructions
//! before them.
//!
//! ```
//! use sympathy_lab::clock::{ns_per_tick, ticks};
//! let rate = ns_per_tick();
//! let start = ticks();
//! let elapsed_ns = ticks().wrapping_sub(start) as f64 * rate;
//! assert!(elapsed_ns >= 0.0 && rate > 0.0);
//! ```

use std::time::{Duration, Instant};

/// A timestamp in ticks of [`ns_per_tick`]: the time-stamp counter on x86_64, else nanoseconds
/// since the first call.
#[inline(always)]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `rdtsc` exists on every x86_64 CPU and only reads the counter.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        static BASE: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        BASE.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// A timestamp taken after every earlier instruction has completed and before any later one
/// starts (`rdtscp`, then `lfence`): the end of a timed operation, whose loads `rdtsc` alone
/// could run ahead of. Pair it with [`ticks_fenced`] at the start. Ticks of [`ns_per_tick`].
#[inline(always)]
pub fn ticks_after() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut aux = 0u32;
        // SAFETY: `rdtscp` and `lfence` exist on every x86_64 CPU of the last decade (the
        // invariant TSC this module assumes implies rdtscp); they only read the counter and
        // order instructions.
        unsafe {
            let t = core::arch::x86_64::__rdtscp(&mut aux);
            core::arch::x86_64::_mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        ticks()
    }
}

/// A timestamp taken once every earlier instruction has completed (`lfence`, then `rdtsc`): the
/// start of a timed operation. Ticks of [`ns_per_tick`].
#[inline(always)]
pub fn ticks_fenced() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: as in ticks_after.
        unsafe {
            core::arch::x86_64::_mm_lfence();
            core::arch::x86_64::_rdtsc()
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        ticks()
    }
}

/// Nanoseconds per [`ticks`] tick, measured against `Instant` over 2 ms.
pub fn ns_per_tick() -> f64 {
    let (i0, t0) = (Instant::now(), ticks());
    while i0.elapsed() < Duration::from_millis(2) {
        std::hint::spin_loop();
    }
    let (i1, t1) = (Instant::now(), ticks());
    (i1 - i0).as_nanos() as f64 / t1.wrapping_sub(t0).max(1) as f64
}
