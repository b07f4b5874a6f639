//! What a `SIGBUS` means to a process with a ring (or a map) mapped, said before it exits.
//!
//! Touching a page of a mapped file that no longer exists (the file was truncated under the
//! mapping) or that the filesystem cannot allocate (it ran out of space for a hole of a sparse
//! file) raises `SIGBUS`, and the shell shows only "Bus error". The handler installed here
//! writes what happened and what to do, and exits with [`EXIT_CODE`].

use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// The exit status after a `SIGBUS` in a mapped ring (1 is a failure reported as an error,
/// 2 a bad command line).
pub const EXIT_CODE: i32 = 3;

/// The message, formatted once at install time so the handler only writes bytes.
static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static MESSAGE_LEN: AtomicUsize = AtomicUsize::new(0);

/// Installs the handler for this process, naming `path` (the ring file, if there is one) in
/// its message. Later calls replace the message.
pub fn report_on_sigbus(path: Option<&Path>) {
    let ring = path.map_or_else(|| "a ring file".to_string(), |p| p.display().to_string());
    let message = format!(
        "error: {ring}: the ring's memory became inaccessible (SIGBUS): the file was truncated \
         or resized while mapped, or its filesystem ran out of space for a page being written. \
         Stop the peers, recreate the ring (`sympathy ring create`) on a filesystem with room \
         for it (`df`; a container's /dev/shm: `docker run --shm-size`), and never truncate or \
         resize a ring file in use\n"
    );
    install(message);
}

/// Installs the handler for a process with a map file mapped (`sympathy map`, `serve-map`),
/// naming `path` if there is one.
pub fn report_on_sigbus_in_map(path: Option<&Path>) {
    let map = path.map_or_else(|| "a map file".to_string(), |p| p.display().to_string());
    install(format!(
        "error: {map}: the map's memory became inaccessible (SIGBUS): the file was truncated or \
         resized while mapped, or its filesystem ran out of space for a page being written. Stop \
         the processes using it, restore the map from a copy or rebuild it on a filesystem with \
         room for it (`df`), and never truncate or resize a map file in use\n"
    ));
}

/// Installs the handler with `message`.
fn install(message: String) {
    let bytes: &'static mut [u8] = Box::leak(message.into_bytes().into_boxed_slice());
    MESSAGE_LEN.store(0, Ordering::SeqCst);
    MESSAGE.store(bytes.as_mut_ptr(), Ordering::SeqCst);
    MESSAGE_LEN.store(bytes.len(), Ordering::SeqCst);
    // SAFETY: sigaction is plain old data; all zeros is a valid value (empty mask, no flags).
    let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
    action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: `action` is initialised and outlives the calls; the handler only calls the
    // async-signal-safe write(2) and _exit(2).
    unsafe {
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

extern "C" fn on_sigbus(_signal: libc::c_int) {
    let (ptr, len) = (
        MESSAGE.load(Ordering::SeqCst),
        MESSAGE_LEN.load(Ordering::SeqCst),
    );
    if !ptr.is_null() {
        // SAFETY: `ptr..ptr + len` is the leaked message, never freed; write(2) and _exit(2)
        // are async-signal-safe.
        unsafe {
            libc::write(libc::STDERR_FILENO, ptr.cast(), len);
        }
    }
    // SAFETY: ends the process at once, without running anything else in the handler.
    unsafe { libc::_exit(EXIT_CODE) }
}
