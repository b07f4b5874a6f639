//! `sympathy ring` end to end: the ring file's tools, which the Java interop tests also drive.

use std::os::unix::fs::FileExt;
use std::path::PathBuf;

mod common;
use common::{sympathy, temp, text};

#[test]
fn layout_prints_the_descriptor_constants() {
    let out = ring(&["layout"]);
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
    create(p, "4096");
    let out = ring(&["produce", p, "--count", "5", "--size", "20"]);
    assert!(out.status.success(), "{}", text(&out));
    let inspect = ring(&["inspect", p]);
    assert!(
        text(&inspect).contains("message type 1"),
        "{}",
        text(&inspect)
    );
    // Flip byte 10 of message 1's payload (record at index 32, payload from 40).
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.write_all_at(&[0xff], 4096 + 32 + 8 + 10).unwrap();
    let out = ring(&["consume", p, "--count", "5", "--timeout-ms", "500"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("message 1"), "{}", text(&out));
    assert!(text(&out).contains("byte 10"), "{}", text(&out));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn consume_says_no_messages_yet_when_no_producer_came() {
    let path = temp("empty");
    let p = path.to_str().unwrap();
    assert!(ring(&["create", p]).status.success());
    let out = ring(&["consume", p, "--count", "1", "--timeout-ms", "100"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no messages yet"), "{}", text(&out));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn consume_reports_a_producer_that_left_early() {
    let path = temp("left");
    let p = path.to_str().unwrap();
    assert!(ring(&["create", p]).status.success());
    assert!(
        ring(&["produce", p, "--count", "3", "--size", "8"])
            .status
            .success()
    );
    let out = ring(&["consume", p, "--count", "10", "--timeout-ms", "5000"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("after 3 of 10"), "{}", text(&out));
}

#[test]
fn consume_on_a_reused_ring_waits_for_a_new_producer_and_says_so() {
    let path = temp("reused");
    let p = path.to_str().unwrap();
    assert!(ring(&["create", p]).status.success());
    for command in [
        &["ring", "produce", p, "--count", "3", "--size", "8"][..],
        &["ring", "consume", p, "--count", "3"][..],
    ] {
        let out = sympathy(command);
        assert!(out.status.success(), "{command:?}: {}", text(&out));
    }
    // The producer left before this consumer attached: not the end of its stream, a ring
    // waiting for the next producer.
    let out = ring(&["consume", p, "--count", "1", "--timeout-ms", "300"]);
    let s = text(&out);
    assert!(!out.status.success(), "{s}");
    assert!(
        s.contains("the last producer detached before this consumer attached"),
        "{s}"
    );
    assert!(s.contains("received 0 of 1"), "{s}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn random_sizes_for_a_time_then_until_detached_verifies_everything() {
    let path = temp("soak");
    let p = path.to_str().unwrap();
    create(p, "1048576");
    let out = ring(&[
        "produce", p, "--count", "300", "--size", "4..900", "--seed", "7",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let produced = text(&out);
    assert!(produced.contains("produced 300 messages"), "{produced}");
    let out = ring(&["consume", p, "--until-detached", "--timeout-ms", "5000"]);
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
    assert!(ring(&["create", p]).status.success());
    let out = ring(&["produce", p, "--seconds", "0", "--size", "8"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("produced 0 messages"), "{}", text(&out));
    let bad = ring(&["produce", p, "--count", "1", "--size", "9..8"]);
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
    create(p, "4096");
    let out = ring(&[
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
    assert!(s.contains("no consumer came; start one"), "{s}");
    assert!(s.contains("--timeout-ms 300"), "{s}");
    // Said once: the library's reason, not the CLI's own again.
    assert_eq!(s.matches("consumer").count(), 1, "{s}");
    let _ = std::fs::remove_file(&path);
}

/// `sympathy ring ARGS`.
fn ring(args: &[&str]) -> std::process::Output {
    sympathy(&[&["ring"], args].concat())
}

/// Creates the ring `p` of `capacity` bytes with `ring create`.
fn create(p: &str, capacity: &str) {
    let out = ring(&["create", p, "--capacity", capacity]);
    assert!(out.status.success(), "{}", text(&out));
}

/// The head position `ring inspect` shows (bytes consumed so far).
fn head_of(p: &str) -> i64 {
    let out = ring(&["inspect", p]);
    let s = text(&out);
    let trailer = s.lines().find(|l| l.starts_with("trailer")).expect(&s);
    let words: Vec<&str> = trailer.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "head").expect(trailer);
    words[at + 1].parse().expect(trailer)
}

/// A 4096-byte ring holding `count` 8-byte pattern messages (16-byte records).
fn ring_with_messages(tag: &str, count: u64) -> PathBuf {
    let path = temp(tag);
    let p = path.to_str().unwrap();
    let out = ring(&["create", p, "--capacity", "4096"]);
    assert!(out.status.success(), "{}", text(&out));
    let n = count.to_string();
    let out = ring(&["produce", p, "--count", &n, "--size", "8"]);
    assert!(out.status.success(), "{}", text(&out));
    path
}

#[test]
fn consume_takes_exactly_its_count_and_a_second_one_resumes_with_first() {
    let path = ring_with_messages("exact", 100);
    let p = path.to_str().unwrap();
    let out = ring(&["consume", p, "--count", "10", "--timeout-ms", "5000"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        head_of(p),
        10 * 16,
        "the head passes exactly the 10 verified"
    );
    let out = ring(&[
        "consume",
        p,
        "--first",
        "10",
        "--count",
        "90",
        "--timeout-ms",
        "5000",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("consumed and verified 90 messages"));
    assert_eq!(head_of(p), 100 * 16);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn consume_first_auto_takes_the_index_from_the_first_message() {
    let path = ring_with_messages("auto", 30);
    let p = path.to_str().unwrap();
    let out = ring(&["consume", p, "--count", "12", "--timeout-ms", "5000"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = ring(&[
        "consume",
        p,
        "--first",
        "auto",
        "--count",
        "18",
        "--timeout-ms",
        "5000",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(head_of(p), 30 * 16);
    // A restarted producer continues the stream, a restarted consumer follows it.
    let out = ring(&["produce", p, "--first", "30", "--count", "5", "--size", "8"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = ring(&["consume", p, "--first", "30", "--count", "5"]);
    assert!(out.status.success(), "{}", text(&out));
    let bad = ring(&["consume", p, "--first", "soon", "--count", "1"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    assert!(text(&bad).contains("or 'auto'"), "{}", text(&bad));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_mismatch_stays_unconsumed_at_the_head() {
    let path = ring_with_messages("mismatch", 20);
    let p = path.to_str().unwrap();
    // Message 5's record is at index 80, its payload (the index, little-endian) from 88.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.write_all_at(&[0x55], 4096 + 80 + 8).unwrap();
    let out = ring(&["consume", p, "--count", "20", "--timeout-ms", "5000"]);
    assert!(!out.status.success());
    let s = text(&out);
    assert!(s.contains("message 5 (type 1): byte 0"), "{s}");
    assert!(s.contains("5 messages before it were verified"), "{s}");
    assert!(s.contains("position 80"), "{s}");
    assert_eq!(head_of(p), 5 * 16, "the head stops at the bad message");
    // A wrong --first is a mismatch too, and consumes nothing.
    let out = ring(&["consume", p, "--first", "7", "--count", "1"]);
    assert!(text(&out).contains("message 7 (type 1)"), "{}", text(&out));
    assert_eq!(head_of(p), 5 * 16);
    // Repaired, the rest of the stream verifies from where it stopped.
    file.write_all_at(&[5], 4096 + 80 + 8).unwrap();
    let out = ring(&["consume", p, "--first", "auto", "--count", "15"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(head_of(p), 20 * 16);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn consume_refuses_a_message_under_four_bytes() {
    let path = temp("short");
    let p = path.to_str().unwrap();
    assert!(ring(&["create", p]).status.success());
    {
        let ring = sympathy_ring::Ring::open(&path).unwrap();
        let mut producer = ring.producer().unwrap();
        producer.try_write(1, &[0, 0, 0]).unwrap();
    }
    let out = ring(&["consume", p, "--count", "1", "--timeout-ms", "5000"]);
    assert!(!out.status.success(), "{}", text(&out));
    let s = text(&out);
    assert!(
        s.contains("message 0 (type 1): 3 bytes, test messages have at least 4"),
        "{s}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn the_ring_tools_answer_only_to_ring() {
    // `ipc` names the experiment (`sympathy run ipc`), never a group of tools.
    let old = sympathy(&["ipc", "layout"]);
    assert_eq!(old.status.code(), Some(2), "{}", text(&old));
    assert!(
        text(&old).contains("unrecognized subcommand 'ipc'"),
        "{}",
        text(&old)
    );
}

#[test]
fn sizes_and_counts_take_the_sidecars_suffixes() {
    // `java/sidecar create --capacity 1m` and the docs' commands: the same syntax here.
    let path = temp("suffixes");
    let p = path.to_str().unwrap();
    let out = ring(&["create", p, "--capacity", "1m"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("capacity 1048576 bytes"),
        "{}",
        text(&out)
    );
    let out = ring(&["produce", p, "--count", "2k", "--size", "8"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = ring(&["consume", p, "--count", "2_048"]);
    assert!(out.status.success(), "{}", text(&out));
    let _ = std::fs::remove_file(&path);

    let out = ring(&["create", p, "--capacity", "1mb"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("expected a whole number such as 65536, 64k or 1m, got '1mb'"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_futex_wait_on_both_sides_moves_every_message_through_a_small_ring() {
    // A 4 KiB ring and 20,000 messages: the producer sleeps on the full ring and the consumer
    // on the empty one, each woken by the other (`--wait futex`, as java/sidecar's).
    let path = temp("futex");
    let p = path.to_str().unwrap().to_string();
    create(&p, "4096");
    let consumer = {
        let p = p.clone();
        std::thread::spawn(move || {
            ring(&[
                "consume",
                &p,
                "--count",
                "20000",
                "--wait",
                "futex",
                "--timeout-ms",
                "30000",
            ])
        })
    };
    let produced = ring(&[
        "produce", &p, "--count", "20000", "--size", "16", "--wait", "futex",
    ]);
    let consumed = consumer.join().unwrap();
    assert!(produced.status.success(), "{}", text(&produced));
    assert!(consumed.status.success(), "{}", text(&consumed));
    assert!(
        text(&consumed).contains("consumed and verified 20000 messages"),
        "{}",
        text(&consumed)
    );
    let bad = ring(&["consume", &p, "--count", "1", "--wait", "sleep"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    let _ = std::fs::remove_file(&path);
}

/// Waits until a consumer has attached to the ring `p` (`ring inspect` shows its pid), so the
/// producers that follow write to a consumer that counts on them.
fn wait_for_consumer(p: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let s = text(&ring(&["inspect", p]));
        let pid = s
            .lines()
            .find_map(|l| l.strip_prefix("consumer"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|pid| pid.parse::<i32>().ok());
        if pid.is_some_and(|pid| pid != 0) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no consumer attached:\n{s}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Starts `ring consume p --count 2000 EXTRA...` on a thread once `p` exists, and waits until it
/// has attached.
fn consume_2000(p: &str, extra: &[&str]) -> std::thread::JoinHandle<std::process::Output> {
    let args: Vec<String> = ["consume", p, "--count", "2000"]
        .iter()
        .chain(extra)
        .map(|a| a.to_string())
        .collect();
    let consumer = std::thread::spawn(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ring(&args)
    });
    wait_for_consumer(p);
    consumer
}

#[test]
fn with_producer_restarts_a_consumer_waits_for_the_next_producer() {
    let path = temp("restarts");
    let p = path.to_str().unwrap();
    create(p, "65536");
    let consumer = consume_2000(p, &["--producer-restarts", "--timeout-ms", "10000"]);
    // The first producer writes half the stream and exits (detaching); the consumer drains the
    // ring and, counting on it, sees it leave; the next producer writes the rest.
    let first = ring(&["produce", p, "--count", "1000", "--size", "8"]);
    assert!(first.status.success(), "{}", text(&first));
    let second = ring(&[
        "produce", p, "--count", "1000", "--first", "1000", "--size", "8",
    ]);
    assert!(second.status.success(), "{}", text(&second));
    let out = consumer.join().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("consumed and verified 2000 messages"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn without_producer_restarts_a_producer_that_leaves_ends_the_read() {
    let path = temp("norestarts");
    let p = path.to_str().unwrap();
    create(p, "65536");
    let consumer = consume_2000(p, &["--timeout-ms", "10000"]);
    let first = ring(&["produce", p, "--count", "1000", "--size", "8"]);
    assert!(first.status.success(), "{}", text(&first));
    // The consumer counted on that producer: its leaving ends the read, before any other
    // producer comes.
    let out = consumer.join().unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("the producer is gone after 1000 of 2000 messages"),
        "{}",
        text(&out)
    );
    // --producer-restarts is for one-to-one rings.
    let mpsc = temp("restarts-mpsc");
    let m = mpsc.to_str().unwrap();
    let out = ring(&["create", m, "--kind", "mpsc"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = ring(&["consume", m, "--count", "1", "--producer-restarts"]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("--producer-restarts does not apply to"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&mpsc);
}
