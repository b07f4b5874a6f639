//! `sympathy map` end to end: sizes no map can hold are refused at once, before anything is
//! sized, created or walked; a killed or torn load is finished by `--resume`; a map that grows
//! under a load is watched, every key checked, from another process of either language.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::temp;

/// Runs `sympathy ARGS`; fails the test when it has not ended within 30 s (the sizing of a
/// map for 10^10 users once walked every id first). Returns the exit code and stderr.
fn sympathy_within_deadline(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sympathy binary runs");
    let start = Instant::now();
    while child.try_wait().expect("waiting on sympathy").is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sympathy {args:?} still ran after 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("sympathy's output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn sizes_no_map_holds_are_refused_at_once_and_create_nothing() {
    let path = temp("map-too-large");
    let p = path.to_str().unwrap();
    for (args, words) in [
        (
            vec!["map", "load-users", p, "--users", "10000000000"],
            "10000000000 entries do not fit one map",
        ),
        (
            vec!["map", "load-users", p, "--users", "18446744073709551615"],
            "entries do not fit one map",
        ),
        (
            vec![
                "map",
                "create",
                p,
                "--entries",
                "10",
                "--mean-value-length",
                "18446744073709551615",
            ],
            "mean value length of 18446744073709551615 bytes",
        ),
        (
            vec![
                "map",
                "create",
                p,
                "--entries",
                "2147483648",
                "--mean-value-length",
                "4096",
            ],
            "over the largest, 2^42 bytes",
        ),
    ] {
        let (code, stderr) = sympathy_within_deadline(&args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(!path.exists(), "{args:?} left {p} behind");
    }
}

#[test]
fn a_copy_too_small_for_the_live_keys_is_refused_and_leaves_nothing() {
    let source = temp("map-copy-source");
    let destination = temp("map-copy-destination");
    let (s, d) = (source.to_str().unwrap(), destination.to_str().unwrap());
    let (code, stderr) = sympathy_within_deadline(&["map", "load-users", s, "--users", "3000"]);
    assert_eq!(code, Some(0), "{stderr}");

    let (code, stderr) = sympathy_within_deadline(&[
        "map",
        "copy",
        s,
        d,
        "--slots",
        "1024",
        "--data-capacity",
        "65536",
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("too small for the 3000 keys") && stderr.contains("4096 slots"),
        "{stderr}"
    );
    assert!(!destination.exists(), "a refused copy left {d}");
    let dir = destination.parent().unwrap();
    let name = destination.file_name().unwrap().to_str().unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(name))
        .collect();
    assert!(leftovers.is_empty(), "a refused copy left {leftovers:?}");

    let (code, stderr) = sympathy_within_deadline(&["map", "copy", s, d]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stderr) = sympathy_within_deadline(&["map", "verify-users", d, "--users", "3000"]);
    assert_eq!(code, Some(0), "{stderr}");
    let _ = std::fs::remove_file(&source);
    let _ = std::fs::remove_file(&destination);
}

#[test]
fn stress_runs_over_no_keys_are_usage_errors() {
    // Java's stress commands refuse --keys 0 as a usage error too (exit status 2).
    let map = temp("stress-no-keys.map");
    let path = map.to_str().unwrap();
    for args in [
        &["map", "stress-write", path, "--keys", "0", "--ops", "10"][..],
        &[
            "map",
            "stress-read",
            path,
            "--keys",
            "0",
            "--seconds",
            "0.1",
        ][..],
    ] {
        let (code, stderr) = sympathy_within_deadline(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("--keys"), "{stderr}");
        assert!(!map.exists(), "{args:?} created the map");
    }
}

/// `tool map load-users` of `users` into `path`, killed (-9) once it has put a tenth of them,
/// then finished by a rerun with `--resume`: the map then holds exactly the users, and a second
/// `--resume` puts nothing and takes no data space.
fn a_killed_load_is_finished_by_resume(tool: &[&str]) {
    let users: u64 = 300_000;
    let map = temp(&format!("resume-{}.map", tool.len()));
    let path = map.to_str().unwrap().to_string();
    let n = users.to_string();
    let command = |extra: &[&str]| {
        let mut cmd = Command::new(tool[0]);
        // Its own process group, so that the kill reaches a JVM behind java/sidecar's bash.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.args(&tool[1..])
            .args(["map", "load-users", &path, "--users", &n])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    };
    let mut load = command(&[]).spawn().expect("load-users runs");
    // The header's count (offset 72) says how far the load is.
    let count = || {
        std::fs::read(&map)
            .ok()
            .filter(|b| b.len() >= 80)
            .map_or(0, |b| u64::from_le_bytes(b[72..80].try_into().unwrap()))
    };
    while load.try_wait().unwrap().is_none() && count() < users / 10 {
        std::thread::sleep(Duration::from_millis(1));
    }
    let group = format!("-{}", load.id());
    let _ = Command::new("kill").args(["-9", "--", &group]).status();
    let _ = load.wait();
    let resumed = command(&["--resume"]).output().unwrap();
    let said = String::from_utf8_lossy(&resumed.stdout).into_owned();
    assert!(
        resumed.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(said.contains("were there already"), "{said}");
    let (code, stderr) = sympathy_within_deadline(&["map", "verify-users", &path, "--users", &n]);
    assert_eq!(code, Some(0), "{stderr}");
    let again = command(&["--resume"]).output().unwrap();
    let again = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(
        again.contains(&format!("({users} were there already, 0 put)")),
        "{again}"
    );
    let data_bytes = |s: &str| s.rsplit(", ").next().unwrap().to_string();
    assert_eq!(data_bytes(&said), data_bytes(&again), "{said}\n{again}");
    let _ = std::fs::remove_file(&map);
}

/// `tool map load-users` of 1000 users, then one user's record torn (a byte of its e-mail changed
/// in the file, as a system crash after the last flush may leave it) and the header's `boot` set
/// to another boot (as after the restart): `verify-users` refuses it, and `load-users --resume`,
/// whose writer removes the torn record, puts that one user again.
fn a_torn_user_is_put_again_by_resume(tool: &[&str]) {
    let map = temp(&format!("torn-{}.map", tool.len()));
    let path = map.to_str().unwrap().to_string();
    let run = |args: &[&str]| {
        let out = Command::new(tool[0])
            .args(&tool[1..])
            .args(args)
            .output()
            .expect("the tool runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let (ok, said) = run(&["map", "load-users", &path, "--users", "1000"]);
    assert!(ok, "{said}");
    let mut bytes = std::fs::read(&map).unwrap();
    let needle = b"user500@";
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("user 500's e-mail is in the file");
    bytes[at + 1] ^= 0x20;
    // The header's boot (offset 96, docs/map-layout.md): the records were written in another.
    bytes[96..104].copy_from_slice(&1u64.to_le_bytes());
    std::fs::write(&map, bytes).unwrap();

    let (ok, said) = run(&["map", "verify-users", &path, "--users", "1000"]);
    assert!(!ok, "verify-users passed a torn user: {said}");
    assert!(
        said.contains("(key 500) does not match its checksum"),
        "{said}"
    );
    let (ok, said) = run(&["map", "load-users", &path, "--users", "1000", "--resume"]);
    assert!(ok, "{said}");
    assert!(
        said.contains(
            "removed 1 torn records (written after the last flush before the system crashed)"
        ) && said.contains("(999 were there already, 1 put)"),
        "{said}"
    );
    let (ok, said) = run(&["map", "verify-users", &path, "--users", "1000"]);
    assert!(ok, "{said}");
    let _ = std::fs::remove_file(&map);
}

#[test]
fn a_torn_user_is_put_again_by_a_rust_resume() {
    a_torn_user_is_put_again_by_resume(&[env!("CARGO_BIN_EXE_sympathy")]);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn a_torn_user_is_put_again_by_a_java_resume() {
    let sidecar = concat!(env!("CARGO_MANIFEST_DIR"), "/../../java/sidecar");
    a_torn_user_is_put_again_by_resume(&["bash", sidecar]);
}

#[test]
fn a_killed_rust_load_is_finished_by_resume() {
    a_killed_load_is_finished_by_resume(&[env!("CARGO_BIN_EXE_sympathy")]);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn a_killed_java_load_is_finished_by_resume() {
    let sidecar = concat!(env!("CARGO_MANIFEST_DIR"), "/../../java/sidecar");
    a_killed_load_is_finished_by_resume(&["bash", sidecar]);
}

/// `loader map load-users` of 200,000 users into a map created (by `loader`, empty) for 1,000,
/// so that the writer grows the table and the data area again and again, while `watcher map
/// watch-users`, in another process and started before the load, checks every counted user pass
/// after pass: both succeed, the watcher saw every key present and equal and mapped the grown
/// file again.
fn a_map_grows_under_a_watcher(loader: &[&str], watcher: &[&str]) {
    use std::io::BufRead;
    let map = temp(&format!("grow-{}-{}.map", loader.len(), watcher.len()));
    let _ = std::fs::remove_file(&map);
    let path = map.to_str().unwrap().to_string();
    let command = |tool: &[&str], args: &[&str]| {
        let mut cmd = Command::new(tool[0]);
        cmd.args(&tool[1..])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    };
    let users = "200000";
    let run = |tool: &[&str], args: &[&str]| {
        let out = command(tool, args).output().expect("the tool runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {text}");
        text
    };
    run(
        loader,
        &[
            "map",
            "load-users",
            &path,
            "--users",
            "0",
            "--initial-users",
            "1000",
        ],
    );
    let mut watch = command(
        watcher,
        &[
            "map",
            "watch-users",
            &path,
            "--users",
            users,
            "--timeout-seconds",
            "120",
        ],
    )
    .spawn()
    .expect("watch-users runs");
    // The watcher says when it has the map open: only then does the load begin.
    let mut lines = std::io::BufReader::new(watch.stdout.take().unwrap()).lines();
    let first = lines.next().expect("watch-users says it watches").unwrap();
    assert!(first.starts_with("watching "), "{first}");
    let loaded = run(loader, &["map", "load-users", &path, "--users", users]);
    assert!(loaded.contains("the table grew"), "{loaded}");
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let watched = watch.wait_with_output().expect("watch-users ends");
    let said = rest.join("\n") + &String::from_utf8_lossy(&watched.stderr);
    assert!(watched.status.success(), "{said}");
    assert!(
        said.contains("every key present and equal") && !said.contains("mapped the file 1 times"),
        "{said}"
    );
    let (code, stderr) =
        sympathy_within_deadline(&["map", "verify-users", &path, "--users", users]);
    assert_eq!(code, Some(0), "{stderr}");
    let _ = std::fs::remove_file(&map);
}

#[test]
fn a_map_rust_grows_is_watched_by_rust() {
    let rust = [env!("CARGO_BIN_EXE_sympathy")];
    a_map_grows_under_a_watcher(&rust, &rust);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn a_map_rust_grows_is_watched_by_java() {
    let sidecar = concat!(env!("CARGO_MANIFEST_DIR"), "/../../java/sidecar");
    a_map_grows_under_a_watcher(&[env!("CARGO_BIN_EXE_sympathy")], &["bash", sidecar]);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn a_map_java_grows_is_watched_by_rust() {
    let sidecar = concat!(env!("CARGO_MANIFEST_DIR"), "/../../java/sidecar");
    a_map_grows_under_a_watcher(&["bash", sidecar], &[env!("CARGO_BIN_EXE_sympathy")]);
}
