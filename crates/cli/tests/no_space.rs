//! A create larger than the free space leaves other programs their room: on a 64 MiB tmpfs that
//! another process keeps writing files to, every oversize `map create` and `ring create` is
//! refused at once with the numbers, a create that fits takes its file but never the margin
//! kept free, and the other process never meets `ENOSPC`.
//!
//! Mounting needs root (the development VM and ci run tests as root); elsewhere the tests say so
//! and skip. The Java commands' case is `#[ignore]`d: it needs the Java build, and
//! ci/java-test runs it with `--ignored`.

#[path = "common/processes.rs"]
mod processes;
#[path = "../../ring/tests/small_filesystem/mod.rs"]
mod small_filesystem;

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use processes::{Proc, TempDir, describe, sidecar, sidecar_built, sympathy};
use small_filesystem::SmallFilesystem;

/// The filesystem: Docker's default /dev/shm.
const FILESYSTEM: &str = "64m";
/// Bytes of each file the other program writes; it keeps [`FILES_KEPT`] of them.
const FILE_BYTES: usize = 256 << 10;
const FILES_KEPT: u64 = 8;

/// Another program writing to the filesystem all along: it writes a file, removes the one
/// [`FILES_KEPT`] before it, and counts the writes that failed for want of space.
struct OtherProgram {
    stop: std::sync::Arc<AtomicBool>,
    thread: Option<JoinHandle<(u64, Vec<String>)>>,
}

impl OtherProgram {
    fn start(dir: PathBuf) -> OtherProgram {
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut failures = Vec::new();
            let written = AtomicU64::new(0);
            let bytes = vec![7u8; FILE_BYTES];
            let file = |n: u64| dir.join(format!("other-{n}"));
            let mut n = 0u64;
            while !stopped.load(Ordering::Relaxed) {
                match std::fs::write(file(n), &bytes) {
                    Ok(()) => {
                        written.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) if e.kind() == ErrorKind::StorageFull => {
                        failures.push(format!("write {n}: {e}"));
                    }
                    Err(e) => failures.push(format!("write {n}: {e}")),
                }
                if n >= FILES_KEPT {
                    let _ = std::fs::remove_file(file(n - FILES_KEPT));
                }
                n += 1;
                std::thread::sleep(Duration::from_micros(200));
            }
            (written.into_inner(), failures)
        });
        OtherProgram {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops it: the files it wrote, and every write that failed.
    fn finish(mut self) -> (u64, Vec<String>) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread
            .take()
            .expect("finished once")
            .join()
            .expect("the writer thread panicked")
    }
}

impl Drop for OtherProgram {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temp path")
}

/// Runs `cmd`, which must fail saying the filesystem has no room and what it keeps free, and
/// leave no file at `path`.
fn refused(cmd: Command, path: &Path, scratch: &TempDir) {
    let what = describe(&cmd);
    let done = Proc::spawn(&what, cmd, scratch, Duration::from_secs(60))
        .wait()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = &done.stderr;
    assert!(
        !done.status.success(),
        "{what} succeeded:\n{}",
        done.report()
    );
    assert!(
        stderr.contains("not enough space for the")
            && stderr.contains("stay free for other programs")
            && stderr.contains("(tmpfs)"),
        "{what} failed otherwise:\n{}",
        done.report()
    );
    assert!(!path.exists(), "{what} left {}", path.display());
}

/// Runs `cmd`, which must succeed.
fn made(cmd: Command, scratch: &TempDir) {
    let what = describe(&cmd);
    let done = Proc::spawn(&what, cmd, scratch, Duration::from_secs(60))
        .wait()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(done.status.success(), "{what} failed:\n{}", done.report());
}

/// The creates of one language's command line, `tool`, while another program writes.
fn creates_leave_room(tool: fn(&[&str]) -> Command) {
    let Some(fs) = SmallFilesystem::mount(FILESYSTEM) else {
        return;
    };
    let scratch = TempDir::new("no-space");
    let other = OtherProgram::start(fs.dir().to_path_buf());
    let (big_map, big_ring) = (fs.dir().join("big.map"), fs.dir().join("big.ring"));
    let one_gib = (1u64 << 30).to_string();
    refused(
        tool(&[
            "map",
            "create",
            s(&big_map),
            "--slots",
            "8",
            "--data-capacity",
            &one_gib,
        ]),
        &big_map,
        &scratch,
    );
    refused(
        tool(&["ring", "create", s(&big_ring), "--capacity", "1g"]),
        &big_ring,
        &scratch,
    );
    // 32 MiB fit beside the other program's files and the 4 MiB kept free; a second 32 MiB
    // does not, and is refused before it takes anything.
    let (fits, second) = (fs.dir().join("fits.ring"), fs.dir().join("second.ring"));
    made(
        tool(&["ring", "create", s(&fits), "--capacity", "32m"]),
        &scratch,
    );
    refused(
        tool(&["ring", "create", s(&second), "--capacity", "32m"]),
        &second,
        &scratch,
    );
    let (written, failures) = other.finish();
    assert!(
        failures.is_empty(),
        "the other program could not write {} times: {failures:?}",
        failures.len()
    );
    assert!(written > 0, "the other program wrote nothing meanwhile");
    eprintln!("the other program wrote {written} files of {FILE_BYTES} bytes meanwhile");
}

#[test]
fn rust_creates_leave_room_for_other_programs() {
    creates_leave_room(sympathy);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn java_creates_leave_room_for_other_programs() {
    sidecar_built();
    creates_leave_room(sidecar);
}
