//! A cheap clock for timing single operations: the CPU's time-stamp counter on x86_64
//! (`rdtsc`, ~13 ns on the 2-core VM against ~34 ns for a `clock_gettime`), converted to
//! nanoseconds with a rate measured against `Instant`. This relies on an invariant TSC (every
//! x86_64 CPU of the last decade; the VM exposes one).
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

/// Nanoseconds per [`ticks`] tick, measured against `Instant` over 2 ms.
pub fn ns_per_tick() -> f64 {
    let (i0, t0) = (Instant::now(), ticks());
    while i0.elapsed() < Duration::from_millis(2) {
        std::hint::spin_loop();
    }
    let (i1, t1) = (Instant::now(), ticks());
    (i1 - i0).as_nanos() as f64 / t1.wrapping_sub(t0).max(1) as f64
}
