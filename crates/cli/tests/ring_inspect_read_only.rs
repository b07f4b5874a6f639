//! `sympathy ring inspect` only reads: it works on a ring this user may not write (run as the
//! unprivileged user 65534 when the tests run as root, whom file modes do not stop), leaves the
//! file's bytes as they were, and shows impossible positions instead of refusing the file.

use std::os::unix::fs::{FileExt, MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output};

/// A scratch folder any user may enter, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        let dir = std::env::temp_dir().join(format!("sympathy-cli-inspect-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sympathy(args: &[&str], as_nobody: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sympathy"));
    command.args(args);
    if as_nobody {
        command.uid(65534).gid(65534);
    }
    command.output().expect("the sympathy binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn inspect_reads_a_ring_it_may_not_write_and_never_writes_it() {
    let root = std::fs::metadata("/proc/self").unwrap().uid() == 0;
    let dir = Scratch::new();
    let path = dir.0.join("ring");
    let p = path.to_str().unwrap();
    let ok = |out: Output| assert!(out.status.success(), "{}", text(&out));
    ok(sympathy(
        &["ring", "create", p, "--capacity", "4096"],
        false,
    ));
    ok(sympathy(
        &["ring", "produce", p, "--count", "3", "--size", "20"],
        false,
    ));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&path).unwrap();

    let out = sympathy(&["ring", "inspect", p], root);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("message type 1"), "{}", text(&out));
    assert!(
        text(&out).contains("pending bytes       96"),
        "{}",
        text(&out)
    );
    let attach = sympathy(
        &["ring", "consume", p, "--count", "3", "--timeout-ms", "200"],
        root,
    );
    assert!(!attach.status.success(), "a reader-only user cannot attach");
    assert!(
        text(&attach).contains("permission denied"),
        "{}",
        text(&attach)
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "inspect changed the file"
    );

    // Impossible positions: shown, not refused (open would refuse them as corrupt).
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let trailer = 4096 + 4096;
    file.write_all_at(&(-64i64).to_le_bytes(), trailer + 384)
        .unwrap(); // head
    file.write_all_at(&(-32i64).to_le_bytes(), trailer + 128)
        .unwrap(); // tail
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = sympathy(&["ring", "inspect", p], root);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("positions           INVALID: corrupt ring"),
        "{}",
        text(&out)
    );
    assert!(!text(&out).contains("pending bytes"), "{}", text(&out));
}
