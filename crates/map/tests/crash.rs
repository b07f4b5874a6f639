//! kill -9 of the writer in the middle of puts and removes, many times
//! (`SYMPATHY_MAP_CRASH_ITERATIONS`, default 3; `ci/map-crash --iterations N`): a writer child
//! applies a [`Schedule`] and acknowledges each operation that returned; the parent kills it at
//! a random moment, then checks that the map opens, holds every acknowledged operation, holds
//! the one in progress whole or not at all, and never a torn value; that a new writer takes over
//! from the dead one, recounts (its count is then exact) and goes on. See docs/verification.md.
//! `java_crash.rs` kills a Java writer the same way.

mod common;
mod peers;

use std::time::Duration;

use common::TempPath;
use peers::{Ack, KillRng, check_after_kill, crash_iterations, kill9, spawn_writer, wait_for};
use sympathy_map::MapConfig;
use sympathy_map::stress::Schedule;

/// The hidden child: a writer process, only when the parent sets the env var.
#[test]
fn peer_child() {
    peers::child_main();
}

const KEYS: u64 = 4096;

#[test]
fn a_writer_killed_at_random_points_leaves_every_returned_put_and_none_torn() {
    if std::env::var(peers::PEER_ENV).is_ok() {
        return;
    }
    let mut rng = KillRng::from_env_or_clock();
    let schedule = Schedule::new(KEYS);
    let config = MapConfig {
        slots: 8192,
        data_capacity: 64 << 20,
        max_value_length: 128,
        value_format: 0,
    };
    let (mut total_ops, mut in_progress_applied) = (0, 0);
    for iteration in 0..crash_iterations() {
        let path = TempPath::new("crash");
        let ack_path = TempPath::new("crash-ack");
        sympathy_map::MapFile::create(&path.0, &config).unwrap();
        let ack = Ack::open(&ack_path.0);
        let mut child = spawn_writer(&path.0, &ack_path.0, KEYS, 0);
        wait_for(&ack, 1, Duration::from_secs(20));
        std::thread::sleep(Duration::from_micros(rng.below(30_000)));
        let dead = child.id() as i32;
        kill9(&mut child);
        let acked = ack.load();
        let applied = check_after_kill(&path.0, dead, acked, &schedule, KEYS, iteration);
        in_progress_applied += u64::from(applied);
        total_ops += acked;
    }
    eprintln!(
        "map crash: {} kill -9 iterations survived, {total_ops} acknowledged operations \
         verified, the operation in progress was applied in {in_progress_applied}",
        crash_iterations()
    );
}
