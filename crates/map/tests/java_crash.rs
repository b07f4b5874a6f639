//! kill -9 of a Java writer in the middle of puts and removes: `java/sidecar map stress-write
//! --ack` applies the stress schedule through the FFM map and acknowledges each operation that
//! returned, as the Rust writer of `crash.rs` does; the test kills it at a random moment and
//! checks the file as `crash.rs` does (every acknowledged operation there, the one in progress
//! whole or not at all, no torn value, a Rust writer taking over). Needs the Java build (a JDK
//! and Maven): `ci/map-verify` runs it with `--ignored`; iterations as `crash.rs`
//! (`SYMPATHY_MAP_CRASH_ITERATIONS`, default 3).

mod common;
mod peers;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use peers::{CRASH_KEYS, crash_iterations, kill_writers};
use sympathy_map::MapConfig;

fn sidecar() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../java/sidecar")
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/map-verify runs it"]
fn a_java_writer_killed_at_random_points_leaves_every_returned_put_and_none_torn() {
    // Room for far more operations than a writer makes before its kill (~100 bytes each).
    let config = MapConfig {
        slots: 8192,
        data_capacity: 256 << 20,
        max_value_length: 128,
        value_format: 0,
    };
    // The JVM starts in well under a minute; its first operations run interpreted, then
    // compiled: the kill comes within 100 ms of the first acknowledgement.
    let totals = kill_writers(
        "java-crash",
        &config,
        Duration::from_secs(60),
        Duration::from_millis(100),
        |map, ack| {
            Command::new(sidecar())
                .args(["map", "stress-write"])
                .arg(map)
                .args([
                    "--keys",
                    &CRASH_KEYS.to_string(),
                    "--ops",
                    "1000000000",
                    "--ack",
                ])
                .arg(ack)
                .stdout(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("{}: {e}", sidecar().display()))
        },
    );
    eprintln!(
        "map java crash: {} kill -9 iterations of a Java writer survived, {} acknowledged \
         operations verified, the operation in progress was applied in {}",
        crash_iterations(),
        totals.acknowledged,
        totals.in_progress_applied
    );
}
