//! The hop probe: the machine's state in a few milliseconds, the one-way store-release hop
//! between two pinned cores. `sympathy compare` measures it right before and right after each
//! run and writes both into the run's results (`conditions` in `docs/results.md`), so a figure
//! measured while the hop moved (another process, a host's neighbour) says so.
//!
//! It is the `store-release` kernel of [`ping_pong`](crate::ping_pong), in
//! [`BATCHES`] short batches of [`ROUND_TRIPS_PER_BATCH`] round trips; the result is the median
//! batch, so one preempted batch does not move it.
//!
//! # Examples
//! ```
//! use sympathy_lab::hop_probe::{probe_cores, probe_hop_ns};
//! if let Some(cores) = probe_cores() {
//!     let hop = probe_hop_ns(cores).unwrap();
//!     assert!(hop > 0.0 && hop.is_finite());
//! }
//! ```

use sympathy_harness::Stats;
use sympathy_harness::pin::available_cores;

use crate::c_reference::Language;
use crate::ping_pong::{PingPongError, Variant, run};

/// Short batches per probe; the probe reports their median.
pub const BATCHES: usize = 5;

/// Round trips (two one-way hops each) per batch: about 0.1 to 1 ms at 30 to 300 ns a hop.
pub const ROUND_TRIPS_PER_BATCH: u64 = 2_000;

/// The two cores the probe runs on: the first two this process may use (cores 0 and 1 on an
/// unrestricted machine); `None` on fewer than two.
pub fn probe_cores() -> Option<(usize, usize)> {
    let cores = available_cores();
    (cores.len() >= 2).then(|| (cores[0], cores[1]))
}

/// Measures the one-way store-release hop between `cores` in nanoseconds: the median of
/// [`BATCHES`] verified ping-pong batches, each with both threads' pins checked.
///
/// # Errors
/// [`PingPongError`]: the same core twice, a pin that failed (environmental when the core was
/// taken), or a batch whose counters did not verify.
pub fn probe_hop_ns(cores: (usize, usize)) -> Result<f64, PingPongError> {
    let mut hops = Vec::with_capacity(BATCHES);
    for _ in 0..BATCHES {
        let outcome = run(
            Variant::StoreRelease,
            Language::Rust,
            cores,
            ROUND_TRIPS_PER_BATCH,
        )?;
        hops.push(outcome.ns_per_hop());
    }
    Ok(Stats::from_samples(&hops).map_or(f64::NAN, |s| s.median))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_measures_a_positive_hop() {
        let Some(cores) = probe_cores() else {
            eprintln!("skipped: the hop probe needs two cores");
            return;
        };
        assert_ne!(cores.0, cores.1);
        let hop = probe_hop_ns(cores).unwrap();
        assert!(hop.is_finite() && hop > 0.0, "{hop}");
    }

    #[test]
    fn the_same_core_twice_is_an_error() {
        let core = available_cores()[0];
        assert_eq!(
            probe_hop_ns((core, core)),
            Err(PingPongError::SameCore(core))
        );
    }
}
