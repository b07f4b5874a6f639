//! kill -9 of the writer in the middle of puts and removes, many times
//! (`SYMPATHY_MAP_CRASH_ITERATIONS`, default 3; `ci/map-crash --iterations N`): a writer child
//! applies the stress `Schedule` and acknowledges each operation that returned; the parent kills
//! it at a random moment, then checks that the map opens, holds every acknowledged operation,
//! holds the one in progress whole or not at all, and never a torn value; that a new writer takes
//! over from the dead one, recounts (its count is then exact) and goes on. See
//! docs/verification.md. `java_crash.rs` kills a Java writer the same way (`peers::kill_writers`).

mod common;
mod peers;

use std::time::Duration;

use peers::{CRASH_KEYS, crash_iterations, kill_writers, spawn_writer};
use sympathy_map::MapConfig;

/// The hidden child: a writer process, only when the parent sets the env var.
#[test]
fn peer_child() {
    peers::child_main();
}

#[test]
fn a_writer_killed_at_random_points_leaves_every_returned_put_and_none_torn() {
    kill_rust_writers(
        "crash",
        "map crash",
        Duration::from_millis(30),
        MapConfig {
            slots: 8192,
            data_capacity: 64 << 20,
            max_value_length: 128,
            value_format: 0,
        },
    );
}

/// The same, in a map created with the smallest table and data area: the schedule's keys make
/// the writer grow both again and again, so kills land in the middle of grows (a table filled and
/// not yet published, a file extended and its capacity not yet stored).
#[test]
fn a_writer_killed_while_the_map_grows_leaves_every_returned_put_and_none_torn() {
    kill_rust_writers(
        "crash-grow",
        "map crash while growing",
        // The grows come with the schedule's first keys: the kills come soon after them.
        Duration::from_millis(5),
        MapConfig {
            slots: 8,
            data_capacity: 256,
            max_value_length: 128,
            value_format: 0,
        },
    );
}

/// [`kill_writers`] of Rust writer children in maps of `config`, each killed within `max_delay`
/// of its first acknowledgement, then one line saying what was verified (`what` names the test
/// in it). Nothing in a writer child itself.
fn kill_rust_writers(tag: &str, what: &str, max_delay: Duration, config: MapConfig) {
    if std::env::var(peers::PEER_ENV).is_ok() {
        return;
    }
    let totals = kill_writers(
        tag,
        &config,
        Duration::from_secs(20),
        max_delay,
        |map, ack| spawn_writer(map, ack, CRASH_KEYS, 0),
    );
    eprintln!(
        "{what}: {} kill -9 iterations survived, {} acknowledged operations verified, the \
         operation in progress was applied in {}",
        crash_iterations(),
        totals.acknowledged,
        totals.in_progress_applied
    );
}
