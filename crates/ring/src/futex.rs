//! The two futex operations the wake-up protocol needs ([`crate::wake`]), on a u32 word of the
//! shared mapping.
//!
//! - Linux: the raw `futex(2)` syscall, `FUTEX_WAIT` / `FUTEX_WAKE` **without**
//!   `FUTEX_PRIVATE_FLAG`: the word lies in a `MAP_SHARED` file mapping and the waker is another
//!   process, so the kernel must key the wait on the file page, not on this process's address
//!   space.
//! - Elsewhere, and under Miri: no futex. [`wait`] parks the thread for at most
//!   [`FALLBACK_PARK`] (a poll, like [`crate::Strategy::BackoffPark`]) and [`wake`] does nothing;
//!   the protocol stays correct because a waiter re-checks the ring after every return (a futex
//!   wait may return spuriously anyway), it only polls.
//! - Under loom: a model of the kernel (see [`model`]), so that a lost wake-up is a deadlock loom
//!   reports.
//!
//! A return from [`wait`] says nothing (woken, timed out, interrupted by a signal, or the word had
//! already changed): the caller re-checks.

use std::time::Duration;

#[cfg(not(all(loom, test)))]
use crate::primitive::AtomicU32;

/// The longest single park of the fallback wait where there is no futex.
pub(crate) const FALLBACK_PARK: Duration = Duration::from_micros(50);

/// Sleeps while `*word == expected`, for at most `timeout`, where the protocol guarantees a
/// wake-up once the word changes.
#[cfg(not(all(loom, test)))]
pub(crate) fn wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    sleep(word, expected, timeout);
}

/// Sleeps while `*word == expected`, for at most `timeout`, where no wake-up is guaranteed (a
/// waiter whose request the peer has not acknowledged): the timeout ends it. The same call as
/// [`wait`] but under loom, whose model does not sleep here.
#[cfg(not(all(loom, test)))]
pub(crate) fn wait_bounded(word: &AtomicU32, expected: u32, timeout: Duration) {
    sleep(word, expected, timeout);
}

/// `FUTEX_WAIT`.
#[cfg(all(target_os = "linux", not(miri), not(all(loom, test))))]
fn sleep(word: &AtomicU32, expected: u32, timeout: Duration) {
    let timeout = libc::timespec {
        tv_sec: timeout.as_secs().min(i32::MAX as u64) as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `word` is a live, 4-aligned u32 (an AtomicU32 in the mapping or on the heap) for
    // the whole call; FUTEX_WAIT only reads it and compares it with `expected` atomically with
    // queueing this thread, then sleeps for at most the relative `timeout`, which outlives the
    // call. The other arguments are ignored by FUTEX_WAIT. Errors (EAGAIN: the word changed;
    // EINTR; ETIMEDOUT) all mean "look again", which every caller does.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &timeout as *const libc::timespec,
            std::ptr::null::<u32>(),
            0u32,
        );
    }
}

/// Wakes the threads sleeping in [`wait`] on `word` (at most one per side, in any process).
#[cfg(all(target_os = "linux", not(miri), not(all(loom, test))))]
pub(crate) fn wake(word: &AtomicU32) {
    // SAFETY: `word` is a live, 4-aligned u32; FUTEX_WAKE does not access its value, it wakes the
    // waiters queued on its (shared-mapping) key. The trailing arguments are ignored.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            i32::MAX,
            std::ptr::null::<libc::timespec>(),
            std::ptr::null::<u32>(),
            0u32,
        );
    }
}

/// The fallback without a futex: a short park (a poll); see the module doc.
#[cfg(all(not(all(target_os = "linux", not(miri))), not(all(loom, test))))]
fn sleep(word: &AtomicU32, expected: u32, timeout: Duration) {
    let _ = (word, expected);
    std::thread::park_timeout(timeout.min(FALLBACK_PARK));
}

/// The fallback without a futex: nothing to wake, the waiter polls.
#[cfg(all(not(all(target_os = "linux", not(miri))), not(all(loom, test))))]
pub(crate) fn wake(word: &AtomicU32) {
    let _ = word;
}

#[cfg(all(loom, test))]
pub(crate) use model::{wait, wait_bounded, wake};

/// The kernel's futex under loom: one lock (the futex hash bucket's) and one condition variable.
/// `wait` compares the word and goes to sleep under the lock; `wake` takes the lock and wakes
/// every sleeper: as in the kernel, a wake that follows the word's change either finds the
/// sleeper queued or makes it see the new value.
///
/// [`wait`] sleeps until woken, with no timeout: a wake-up the protocol loses leaves the waiter
/// asleep, and loom reports the deadlock. [`wait_bounded`], where the protocol promises no
/// wake-up, is modelled as a sleep that may time out at once (a yield). One condition variable
/// serves every word: each model has a single sleeper.
#[cfg(all(loom, test))]
mod model {
    use std::time::Duration;

    use loom::sync::{Condvar, Mutex};

    use crate::primitive::{AtomicU32, Ordering};

    loom::lazy_static! {
        static ref KERNEL: (Mutex<()>, Condvar) = (Mutex::new(()), Condvar::new());
    }

    pub(crate) fn wait_bounded(_word: &AtomicU32, _expected: u32, _timeout: Duration) {
        loom::thread::yield_now();
    }

    pub(crate) fn wait(word: &AtomicU32, expected: u32, _timeout: Duration) {
        let (lock, sleepers) = &*KERNEL;
        let queued = lock.lock().unwrap();
        if word.load(Ordering::Relaxed) == expected {
            drop(sleepers.wait(queued).unwrap());
        }
    }

    pub(crate) fn wake(_word: &AtomicU32) {
        let (lock, sleepers) = &*KERNEL;
        let _bucket = lock.lock().unwrap();
        sleepers.notify_all();
    }
}
