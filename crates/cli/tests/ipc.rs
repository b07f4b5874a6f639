//! `sympathy ipc` end to end: the tools the Java interop tests will drive.

use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::process::{Command, Output};

fn sympathy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn temp(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("sympathy-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn layout_prints_the_descriptor_constants() {
    let out = sympathy(&["ipc", "layout"]);
    assert!(out.status.success());
    let s = text(&out);
    for line in [
        "HEADER_LENGTH=4096",
        "MAGIC=5138124842759706963",
        "READY_OFFSET=12",
        "PRODUCER_HEARTBEAT_OFFSET=136",
        "TRAILER_LENGTH=768",
        "CONSUMER_HEARTBEAT_OFFSET=640",
        "PADDING_MSG_TYPE_ID=-1",
    ] {
        assert!(s.lines().any(|l| l == line), "missing {line} in\n{s}");
    }
}

#[test]
fn produce_then_consume_verifies_and_a_corrupt_byte_is_named() {
    let path = temp("roundtrip");
    let p = path.to_str().unwrap();
    assert!(
        sympathy(&["ipc", "create", p, "--capacity", "4096"])
            .status
            .success()
    );
    let out = sympathy(&["ipc", "produce", p, "--count", "5", "--size", "20"]);
    assert!(out.status.success(), "{}", text(&out));
    let inspect = sympathy(&["ipc", "inspect", p]);
    assert!(
        text(&inspect).contains("message type 1"),
        "{}",
        text(&inspect)
    );
    // Flip byte 10 of message 1's payload (record at index 32, payload from 40).
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.write_all_at(&[0xff], 4096 + 32 + 8 + 10).unwrap();
    let out = sympathy(&["ipc", "consume", p, "--count", "5", "--timeout-ms", "500"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("message 1"), "{}", text(&out));
    assert!(text(&out).contains("byte 10"), "{}", text(&out));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn consume_says_no_messages_yet_when_no_producer_came() {
    let path = temp("empty");
    let p = path.to_str().unwrap();
    assert!(sympathy(&["ipc", "create", p]).status.success());
    let out = sympathy(&["ipc", "consume", p, "--count", "1", "--timeout-ms", "100"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no messages yet"), "{}", text(&out));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn consume_reports_a_producer_that_left_early() {
    let path = temp("left");
    let p = path.to_str().unwrap();
    assert!(sympathy(&["ipc", "create", p]).status.success());
    assert!(
        sympathy(&["ipc", "produce", p, "--count", "3", "--size", "8"])
            .status
            .success()
    );
    let out = sympathy(&["ipc", "consume", p, "--count", "10", "--timeout-ms", "5000"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("after 3 of 10"), "{}", text(&out));
}

#[test]
fn bench_and_latency_run_and_emit_the_schema() {
    let out = sympathy(&[
        "ipc", "bench", "--size", "64", "--count", "20000", "--runs", "1", "--json",
    ]);
    // On a machine with a single usable core the pair cannot be pinned: that is a clear error.
    if !out.status.success() {
        assert!(text(&out).contains("two distinct cores"), "{}", text(&out));
        return;
    }
    let s = text(&out);
    assert!(
        s.contains(r#""experiment":"ipc""#) && s.contains(r#""metric":"msgs_per_sec""#),
        "{s}"
    );
    assert!(
        s.contains(r#""producer":"rust""#) && s.contains(r#""size_bytes":64"#),
        "{s}"
    );
    let out = sympathy(&[
        "ipc", "latency", "--size", "8", "--count", "2000", "--runs", "1", "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(r#""metric":"rtt_p50_ns""#));
}

#[test]
fn bench_alternates_write_modes_and_reports_each() {
    let out = sympathy(&[
        "ipc",
        "bench",
        "--size",
        "8",
        "--count",
        "20000",
        "--runs",
        "2",
        "--json",
        "--writes",
        "per-message,write-batch",
    ]);
    if !out.status.success() {
        assert!(text(&out).contains("two distinct cores"), "{}", text(&out));
        return;
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rates: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(r#""metric":"msgs_per_sec""#))
        .collect();
    assert_eq!(rates.len(), 2, "{stdout}");
    assert!(
        rates[0].contains(r#""writes":"per-message""#),
        "{}",
        rates[0]
    );
    assert!(
        rates[1].contains(r#""writes":"write-batch""#),
        "{}",
        rates[1]
    );
    assert!(rates.iter().all(|l| l.contains(r#""runs":2"#)), "{stdout}");
    let human = String::from_utf8_lossy(&out.stderr);
    assert!(human.contains("ratio write-batch / per-message"), "{human}");
    let twice = sympathy(&["ipc", "bench", "--writes", "write-batch,write-batch"]);
    assert!(!twice.status.success());
    assert!(
        text(&twice).contains("names write-batch twice"),
        "{}",
        text(&twice)
    );
    let unknown = sympathy(&["ipc", "bench", "--writes", "sideways"]);
    assert_eq!(unknown.status.code(), Some(2), "{}", text(&unknown));
    assert!(text(&unknown).contains("choose per-message or write-batch"));
}

#[test]
fn random_sizes_for_a_time_then_until_detached_verifies_everything() {
    let path = temp("soak");
    let p = path.to_str().unwrap();
    assert!(
        sympathy(&["ipc", "create", p, "--capacity", "1048576"])
            .status
            .success()
    );
    let out = sympathy(&[
        "ipc", "produce", p, "--count", "300", "--size", "4..900", "--seed", "7",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let produced = text(&out);
    assert!(produced.contains("produced 300 messages"), "{produced}");
    let out = sympathy(&[
        "ipc",
        "consume",
        p,
        "--until-detached",
        "--timeout-ms",
        "5000",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    // The same byte count on both sides: every random size was verified.
    let bytes = |s: &str| {
        s.split('(')
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(bytes(&produced), bytes(&text(&out)), "{}", text(&out));
    assert!(text(&out).contains("consumed and verified 300 messages"));
    let _ = std::fs::remove_file(&path);

    let path = temp("timed");
    let p = path.to_str().unwrap();
    assert!(sympathy(&["ipc", "create", p]).status.success());
    let out = sympathy(&["ipc", "produce", p, "--seconds", "0", "--size", "8"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("produced 0 messages"), "{}", text(&out));
    let bad = sympathy(&["ipc", "produce", p, "--count", "1", "--size", "9..8"]);
    assert!(!bad.status.success());
    assert!(
        text(&bad).contains("MIN 9 is above MAX 8"),
        "{}",
        text(&bad)
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn produce_names_a_consumer_that_never_came_when_the_ring_stays_full() {
    let path = temp("noconsumer");
    let p = path.to_str().unwrap();
    assert!(
        sympathy(&["ipc", "create", p, "--capacity", "4096"])
            .status
            .success()
    );
    let out = sympathy(&[
        "ipc",
        "produce",
        p,
        "--count",
        "1000",
        "--size",
        "4",
        "--timeout-ms",
        "300",
    ]);
    assert!(!out.status.success());
    let s = text(&out);
    assert!(s.contains("no consumer has attached"), "{s}");
    assert!(s.contains("--timeout-ms 300"), "{s}");
    let _ = std::fs::remove_file(&path);
}
