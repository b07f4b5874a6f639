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

use common::TempPath;
use peers::{Ack, KillRng, check_after_kill, crash_iterations, kill9, wait_for};
use sympathy_map::stress::Schedule;
use sympathy_map::{MapConfig, MapFile};

const KEYS: u64 = 4096;

fn sidecar() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../java/sidecar")
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/map-verify runs it"]
fn a_java_writer_killed_at_random_points_leaves_every_returned_put_and_none_torn() {
    let mut rng = KillRng::from_env_or_clock();
    let schedule = Schedule::new(KEYS);
    // Room for far more operations than a writer makes before its kill (~100 bytes each).
    let config = MapConfig {
        slots: 8192,
        data_capacity: 256 << 20,
        max_value_length: 128,
        value_format: 0,
    };
    let (mut total_ops, mut in_progress_applied) = (0, 0);
    for iteration in 0..crash_iterations() {
        let path = TempPath::new("java-crash");
        let ack_path = TempPath::new("java-crash-ack");
        MapFile::create(&path.0, &config).unwrap();
        let ack = Ack::open(&ack_path.0);
        let mut child = Command::new(sidecar())
            .args(["map", "stress-write"])
            .arg(&path.0)
            .args(["--keys", &KEYS.to_string(), "--ops", "1000000000", "--ack"])
            .arg(&ack_path.0)
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", sidecar().display()));
        wait_for(&ack, 1, Duration::from_secs(60));
        // The JVM's first operations run interpreted, then compiled: kill within 100 ms.
        std::thread::sleep(Duration::from_micros(rng.below(100_000)));
        assert!(
            child.try_wait().unwrap().is_none(),
            "iteration {iteration}: the Java writer exited before its kill (its error is above)"
        );
        let dead = child.id() as i32;
        kill9(&mut child);
        let acked = ack.load();
        let applied = check_after_kill(&path.0, dead, acked, &schedule, KEYS, iteration);
        in_progress_applied += u64::from(applied);
        total_ops += acked;
    }
    eprintln!(
        "map java crash: {} kill -9 iterations of a Java writer survived, {total_ops} \
         acknowledged operations verified, the operation in progress was applied in \
         {in_progress_applied}",
        crash_iterations()
    );
}
