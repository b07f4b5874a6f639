//! `sympathy ring` tools when the ring's file fails under it: truncated while mapped (a SIGBUS,
//! reported as such), a filesystem too small for it (refused at create, or before the first
//! write to a sparse file), and OS errors said once.

use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sympathy_ring::layout;

mod common;
use common::{sympathy, temp, text};

/// The tail position in a ring file of `capacity`, read from its trailer.
fn tail_of(path: &Path, capacity: usize) -> i64 {
    let file = std::fs::File::open(path).unwrap();
    let mut word = [0u8; 8];
    let at = layout::HEADER_LENGTH + capacity + layout::TAIL_POSITION_OFFSET;
    file.read_exact_at(&mut word, at as u64).unwrap();
    i64::from_le_bytes(word)
}

/// Truncates the ring under a running `ring` tool and checks it reports the SIGBUS.
fn truncated_under(args: &[&str], path: &Path, started: impl Fn() -> bool) {
    let child = Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Until the process is at work (bounded: it gives up on its own after its timeout).
    for _ in 0..30_000 {
        if started() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(0)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let s = text(&out);
    assert_eq!(out.status.code(), Some(3), "{s}");
    assert!(s.contains("SIGBUS"), "{s}");
    assert!(s.contains("truncated"), "{s}");
    assert!(s.contains(path.to_str().unwrap()), "{s}");
    assert!(s.contains("recreate the ring"), "{s}");
}

#[test]
fn a_producer_whose_ring_is_truncated_says_so_and_exits_3() {
    let path = temp("sigbus-producer");
    let p = path.to_str().unwrap();
    assert!(
        sympathy(&["ring", "create", p, "--capacity", "4096"])
            .status
            .success()
    );
    // No consumer: the producer fills the ring and waits on it, reading the head.
    truncated_under(
        &[
            "ring",
            "produce",
            p,
            "--count",
            "1000000",
            "--size",
            "8",
            "--timeout-ms",
            "60000",
        ],
        &path,
        || std::fs::metadata(&path).is_ok_and(|m| m.len() > 0) && tail_of(&path, 4096) > 0,
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_consumer_whose_ring_is_truncated_says_so_and_exits_3() {
    let path = temp("sigbus-consumer");
    let p = path.to_str().unwrap();
    assert!(
        sympathy(&["ring", "create", p, "--capacity", "4096"])
            .status
            .success()
    );
    // Waiting for messages that never come, with its pid in the header once attached.
    let consumer_pid = |path: &Path| {
        let mut word = [0u8; 4];
        std::fs::File::open(path)
            .unwrap()
            .read_exact_at(&mut word, layout::CONSUMER_PID_OFFSET as u64)
            .unwrap();
        i32::from_le_bytes(word)
    };
    truncated_under(
        &[
            "ring",
            "consume",
            p,
            "--count",
            "10",
            "--timeout-ms",
            "60000",
        ],
        &path,
        || consumer_pid(&path) != 0,
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn an_os_error_is_said_once() {
    let out = sympathy(&["ring", "consume", "/nonexistent-dir/ring", "--count", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out);
    assert_eq!(s.matches("No such file or directory").count(), 1, "{s}");
    assert!(
        s.contains("sympathy ring create /nonexistent-dir/ring"),
        "{s}"
    );
    let out = sympathy(&["ring", "create", "/nonexistent-dir/ring"]);
    let s = text(&out);
    assert_eq!(s.matches("No such file or directory").count(), 1, "{s}");
}

/// A tmpfs of `size` mounted for one test (needs root; otherwise the test says it skipped).
struct SmallFilesystem(PathBuf);

impl SmallFilesystem {
    fn mount(tag: &str, size: &str) -> Option<SmallFilesystem> {
        let dir = temp(&format!("fs-{tag}"));
        std::fs::create_dir_all(&dir).ok()?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output();
        if out.as_ref().is_ok_and(|o| o.status.success()) {
            return Some(SmallFilesystem(dir));
        }
        eprintln!("skipped: cannot mount a {size} tmpfs (needs root): {out:?}");
        let _ = std::fs::remove_dir(&dir);
        None
    }
}

impl Drop for SmallFilesystem {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

#[test]
fn create_on_a_full_filesystem_fails_naming_it_and_leaves_no_file() {
    let Some(fs) = SmallFilesystem::mount("create", "64k") else {
        return;
    };
    let path = fs.0.join("ring");
    let p = path.to_str().unwrap();
    let out = sympathy(&["ring", "create", p, "--capacity", "65536"]);
    let s = text(&out);
    assert_eq!(out.status.code(), Some(1), "{s}");
    assert!(s.contains("not enough space"), "{s}");
    assert!(s.contains(&format!("{} (tmpfs)", fs.0.display())), "{s}");
    assert!(s.contains("70400 bytes"), "{s}");
    assert!(s.contains("smaller capacity"), "{s}");
    assert!(!path.exists(), "{s}");
}

#[test]
fn produce_on_a_sparse_ring_of_a_full_filesystem_is_refused_before_writing() {
    let Some(fs) = SmallFilesystem::mount("sparse", "64k") else {
        return;
    };
    // The header page of a real ring, the rest a hole: what an older create left.
    let model = temp("sparse-model");
    let m = model.to_str().unwrap();
    assert!(
        sympathy(&["ring", "create", m, "--capacity", "65536"])
            .status
            .success()
    );
    let header = std::fs::read(&model).unwrap()[..layout::HEADER_LENGTH].to_vec();
    let _ = std::fs::remove_file(&model);
    let path = fs.0.join("sparse");
    std::fs::write(&path, header).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(layout::file_length(65536) as u64)
        .unwrap();
    // Fill the filesystem: on tmpfs even a read of a hole through a mapping takes a page, so
    // the open's own look at the trailer must come after the blocks are reserved.
    fill(&fs.0.join("filler"));
    let p = path.to_str().unwrap();
    for command in [
        &["ring", "produce", p, "--count", "10000", "--size", "8"][..],
        &["ring", "consume", p, "--count", "1", "--timeout-ms", "100"][..],
    ] {
        let out = sympathy(command);
        let s = text(&out);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {s}");
        assert!(s.contains("not enough space"), "{command:?}: {s}");
    }
}

/// Writes zeros into `path` until the filesystem is full.
fn fill(path: &std::path::Path) {
    use std::io::Write;
    let mut file = std::fs::File::create(path).unwrap();
    let block = [0u8; 4096];
    while file.write_all(&block).is_ok() {}
}
