//! Thread pinning that is checked: a pin that did not take effect is an error, never a silent
//! fallback to an unpinned thread.
//!
//! ```
//! use sympathy_affinity::{available_cores, current_affinity, pin_current_thread};
//! let core = available_cores()[0];
//! pin_current_thread(core).unwrap();
//! assert_eq!(current_affinity(), vec![core]);
//! ```

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

use std::sync::atomic::{AtomicUsize, Ordering};

use thiserror::Error;

/// Why a thread could not be pinned.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PinError {
    /// The core id is not one this process may run on.
    #[error(
        "core {core} is not available to this process (available: {available:?}); \
         pick cores from that list, e.g. with --cores 0,1"
    )]
    NoSuchCore {
        /// The requested core.
        core: usize,
        /// The cores this process may use.
        available: Vec<usize>,
    },
    /// The kernel refused the affinity change.
    #[error("could not pin the thread to core {core}: the kernel refused sched_setaffinity")]
    Refused {
        /// The requested core.
        core: usize,
    },
    /// The affinity mask read back after pinning is not exactly the requested core.
    #[error("pinning to core {core} did not take effect: the thread may still run on {actual:?}")]
    NotEffective {
        /// The requested core.
        core: usize,
        /// The cores the thread's mask allows.
        actual: Vec<usize>,
    },
}

/// The cores this process may run on, in ascending order: the affinity mask of its main thread.
///
/// Not the calling thread's mask: a thread started by a pinned thread inherits that one core,
/// yet may still be pinned anywhere the process may run (a JVM's pong thread started by its
/// pinned ping thread, say).
pub fn available_cores() -> Vec<usize> {
    // SAFETY: getpid has no preconditions.
    let main_thread = unsafe { libc::getpid() };
    affinity_of(main_thread)
}

/// Pins the calling thread to `core` and verifies, by reading the affinity mask back, that the
/// thread can now run on that core alone.
///
/// # Errors
/// [`PinError`] when the core does not exist for this process, the kernel refuses, or the mask
/// read back differs.
pub fn pin_current_thread(core: usize) -> Result<(), PinError> {
    let available = available_cores();
    if !available.contains(&core) {
        return Err(PinError::NoSuchCore { core, available });
    }
    if !core_affinity::set_for_current(core_affinity::CoreId { id: core }) {
        return Err(PinError::Refused { core });
    }
    let actual = current_affinity();
    if actual != [core] {
        return Err(PinError::NotEffective { core, actual });
    }
    PINNED_THREADS.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

/// Threads this process pinned (and read back) so far: a count only, read when results are
/// written, so no other memory is published through it.
static PINNED_THREADS: AtomicUsize = AtomicUsize::new(0);

/// Whether this process pinned some thread and read the pin back: the `pinned` parity fact of
/// its results. A pin that fails is an error ([`PinError`]), never an unpinned run, so one
/// pinned thread means every measured thread that asked for a core got it.
///
/// ```
/// use sympathy_affinity::{available_cores, pin_current_thread, pinned_any};
/// pin_current_thread(available_cores()[0]).unwrap();
/// assert!(pinned_any());
/// ```
pub fn pinned_any() -> bool {
    PINNED_THREADS.load(Ordering::Relaxed) > 0
}

/// Runs `work` on a new thread pinned (and verified, as [`pin_current_thread`]) to `core`, and
/// returns its result; the calling thread's own affinity is left alone. A panic in `work` is
/// resumed on the calling thread.
///
/// # Errors
/// [`PinError`] when the pin fails; `work` is then not run.
///
/// # Examples
/// ```
/// use sympathy_affinity::{available_cores, current_affinity, run_pinned};
/// let core = available_cores()[0];
/// assert_eq!(run_pinned(core, current_affinity).unwrap(), vec![core]);
/// ```
pub fn run_pinned<T: Send>(core: usize, work: impl FnOnce() -> T + Send) -> Result<T, PinError> {
    std::thread::scope(|s| {
        s.spawn(move || {
            pin_current_thread(core)?;
            Ok(work())
        })
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The cores the calling thread's affinity mask allows.
pub fn current_affinity() -> Vec<usize> {
    affinity_of(0)
}

/// The cores the affinity mask of thread `tid` allows (0: the calling thread), ascending.
fn affinity_of(tid: libc::pid_t) -> Vec<usize> {
    // SAFETY: cpu_set_t is a plain bit array for which all-zero is a valid (empty) value.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `tid` is 0 (the calling thread) or this process's own pid; the size and pointer
    // describe `set`, which lives for the whole call.
    let rc = unsafe { libc::sched_getaffinity(tid, size_of::<libc::cpu_set_t>(), &mut set) };
    if rc != 0 {
        return Vec::new();
    }
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `cpu` is below CPU_SETSIZE, the number of bits in `set`.
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect()
}

/// Parses a core list such as `0,1` or `0-3,6`.
///
/// # Errors
/// A message naming the part that is not a core number or range.
///
/// # Examples
/// ```
/// use sympathy_affinity::parse_core_list;
/// assert_eq!(parse_core_list("0-2,5").unwrap(), vec![0, 1, 2, 5]);
/// assert!(parse_core_list("0,x").is_err());
/// ```
pub fn parse_core_list(text: &str) -> Result<Vec<usize>, String> {
    let mut cores = Vec::new();
    for part in text.split(',').map(str::trim) {
        let bad = || format!("'{part}' in '{text}' is not a core number or range like 0-3");
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) =
                    (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
                if a > b {
                    return Err(bad());
                }
                cores.extend(a..=b);
            }
            None => cores.push(part.parse().map_err(|_| bad())?),
        }
    }
    Ok(cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinning_to_an_available_core_is_verified() {
        let core = *available_cores().first().expect("at least one core");
        std::thread::spawn(move || {
            pin_current_thread(core).unwrap();
            assert_eq!(current_affinity(), vec![core]);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_thread_started_by_a_pinned_thread_can_pin_elsewhere() {
        let cores = available_cores();
        let (Some(&first), Some(&last)) = (cores.first(), cores.last()) else {
            panic!("no core available");
        };
        std::thread::spawn(move || {
            pin_current_thread(first).unwrap();
            // The child inherits the one-core mask, yet the process may still use `last`.
            std::thread::spawn(move || {
                pin_current_thread(last).unwrap();
                assert_eq!(current_affinity(), vec![last]);
            })
            .join()
            .unwrap();
        })
        .join()
        .unwrap();
    }

    #[test]
    fn pinning_to_a_missing_core_is_an_error() {
        let err = std::thread::spawn(|| pin_current_thread(100_000))
            .join()
            .unwrap()
            .unwrap_err();
        assert!(matches!(err, PinError::NoSuchCore { core: 100_000, .. }));
        assert!(err.to_string().contains("--cores"));
    }

    #[test]
    fn core_lists_parse_ranges_and_reject_garbage() {
        assert_eq!(parse_core_list("1").unwrap(), vec![1]);
        assert_eq!(parse_core_list("0-1,3").unwrap(), vec![0, 1, 3]);
        assert!(parse_core_list("3-1").is_err());
        assert!(parse_core_list("").is_err());
    }
}
