//! Two processes: a writer child applying a [`Schedule`] (puts, overwrites, removes) while this
//! process reads random keys for a while (`SYMPATHY_MAP_STRESS_SECONDS`, default 2) through its
//! own mapping, checking every value read (whole, never an older version after a newer one).
//! The cross-language pairs (a Rust writer and a Java reader, and the reverse) run the same
//! check through `sympathy map stress-*` and `java/sidecar map stress-*` (ci/map-verify).

mod common;
mod peers;

use std::time::{Duration, Instant};

use common::TempPath;
use peers::{Ack, kill9, spawn_paced_writer, wait_for};
use sympathy_map::stress::Verifier;
use sympathy_map::user::mix;
use sympathy_map::{MapConfig, MapFile};

#[test]
fn peer_child() {
    peers::child_main();
}

#[test]
fn a_reader_in_another_process_never_sees_a_torn_or_older_value() {
    if std::env::var(peers::PEER_ENV).is_ok() {
        return;
    }
    let seconds: u64 = std::env::var("SYMPATHY_MAP_STRESS_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    const KEYS: u64 = 1024;
    let path = TempPath::new("stress");
    let ack_path = TempPath::new("stress-ack");
    // Room for ~16M operations of ~64 bytes; the writer is paced to spread them over the test's
    // time (a full map would stop it, and the test would say so).
    let config = MapConfig {
        slots: 4096,
        data_capacity: 1 << 30,
        max_value_length: 128,
        value_format: 0,
    };
    MapFile::create(&path.0, &config).unwrap();
    let ack = Ack::open(&ack_path.0);
    let per_second = (config.data_capacity / 96) / seconds.max(1);
    let mut child = spawn_paced_writer(&path.0, &ack_path.0, KEYS, 0, per_second);
    wait_for(&ack, 1, Duration::from_secs(20));
    let map = MapFile::open_read_only(&path.0).unwrap();
    let mut verifier = Verifier::default();
    let start = Instant::now();
    let mut r = 1u64;
    while start.elapsed() < Duration::from_secs(seconds) {
        for _ in 0..1024 {
            r = mix(r);
            let key = r % KEYS;
            let value = map.get(key).unwrap();
            verifier
                .check(key, value)
                .unwrap_or_else(|e| panic!("after {} reads: {e}", verifier.reads));
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "the writer child stopped early ({status}) after {} operations",
                ack.load()
            );
        }
    }
    let written = ack.load();
    kill9(&mut child);
    eprintln!(
        "map stress: {} reads ({} hits) verified in another process while the writer made {written} \
         operations",
        verifier.reads, verifier.hits
    );
    assert!(verifier.hits > 0 && written > 1000);
}
