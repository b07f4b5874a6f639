//! Soak: a producer process and a consumer process exchange random-size messages for a while
//! (`SYMPATHY_SOAK_SECONDS`, default 2; `ci/soak --minutes M`); the consumer verifies every byte
//! of every message and their sequence, the counts must match, and both processes' resident
//! memory must stay flat (growth after warm-up within [`RSS_SLACK_KIB`]).

mod common;
mod peers;

use std::io::Read;
use std::time::{Duration, Instant};

use common::TempPath;
use sympathy_ring::Ring;

/// The hidden child: a producer or consumer process, only when the parent sets the env var.
#[test]
#[cfg_attr(miri, ignore = "a child process of the soak test")]
fn peer_child() {
    peers::child_main();
}

/// Resident memory may grow this much after warm-up (allocator noise), not more.
const RSS_SLACK_KIB: u64 = 2048;

fn output(child: &mut std::process::Child) -> String {
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    out
}

/// The number after `word` in the child's report line.
fn number_after(out: &str, word: &str) -> u64 {
    let mut it = out.split_whitespace();
    while let Some(w) = it.next() {
        if w == word {
            return it.next().unwrap().parse().unwrap();
        }
    }
    panic!("no {word:?} in {out:?}");
}

#[test]
#[cfg_attr(miri, ignore = "spawns processes")]
fn soak_verifies_every_byte_with_flat_memory() {
    if std::env::var(peers::PEER_ENV).is_ok() {
        return;
    }
    let seconds: u64 = std::env::var("SYMPATHY_SOAK_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let path = TempPath::new("soak");
    drop(Ring::create(&path.0, 64 * 1024).unwrap());
    let mut consumer = peers::spawn("consume", &path.0, 1, u64::MAX);
    let mut producer = peers::spawn("produce-for-ms", &path.0, 1, seconds * 1000);
    let start = Instant::now();
    let warm_up = Duration::from_millis((seconds * 1000 / 4).clamp(500, 60_000));
    let (mut warm, mut peak) = (None::<(u64, u64)>, (0u64, 0u64));
    while producer.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(200));
        let (Some(p), Some(c)) = (peers::rss_kib(producer.id()), peers::rss_kib(consumer.id()))
        else {
            continue;
        };
        if start.elapsed() >= warm_up {
            let w = *warm.get_or_insert((p, c));
            peak = (peak.0.max(p), peak.1.max(c));
            assert!(
                p <= w.0 + RSS_SLACK_KIB && c <= w.1 + RSS_SLACK_KIB,
                "RSS grew: producer {} -> {p} KiB, consumer {} -> {c} KiB",
                w.0,
                w.1
            );
        }
    }
    let produced_out = output(&mut producer);
    assert!(producer.wait().unwrap().success());
    let consumed_out = output(&mut consumer);
    assert!(
        consumer.wait().unwrap().success(),
        "consumer: {consumed_out}"
    );
    let produced = number_after(&produced_out, "produced");
    let verified = number_after(&consumed_out, "verified");
    let bytes = number_after(&consumed_out, "messages");
    assert_eq!(verified, produced, "every message produced was verified");
    let (w, p) = (warm.unwrap_or_default(), peak);
    eprintln!(
        "soak: {:.1} s, {verified} messages ({:.1} MiB) verified byte for byte; RSS after \
         warm-up producer {} -> peak {} KiB, consumer {} -> peak {} KiB",
        start.elapsed().as_secs_f64(),
        bytes as f64 / (1 << 20) as f64,
        w.0,
        p.0,
        w.1,
        p.1
    );
}
