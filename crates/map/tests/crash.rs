//! kill -9 of the writer in the middle of puts and removes, many times
//! (`SYMPATHY_MAP_CRASH_ITERATIONS`, default 3; `ci/map-crash --iterations N`): a writer child
//! applies a [`Schedule`] and acknowledges each operation that returned; the parent kills it at
//! a random moment, then checks that the map opens, holds every acknowledged operation, holds
//! the one in progress whole or not at all, and never a torn value; that a new writer takes over
//! from the dead one, recounts (its count is then exact) and goes on. See docs/verification.md.

mod common;
mod peers;

use std::time::Duration;

use common::TempPath;
use peers::{Ack, apply, kill9, model, observe, spawn_writer, step, wait_for};
use sympathy_map::stress::Schedule;
use sympathy_map::{MapConfig, MapFile, WriterState};

/// The hidden child: a writer process, only when the parent sets the env var.
#[test]
fn peer_child() {
    peers::child_main();
}

fn iterations() -> u64 {
    std::env::var("SYMPATHY_MAP_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// A small xorshift, seeded from the clock (printed, so `SYMPATHY_MAP_CRASH_SEED` replays it).
struct Rng(u64);

impl Rng {
    fn from_env_or_clock() -> Rng {
        let seed = std::env::var("SYMPATHY_MAP_CRASH_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| sympathy_mapped_now() | 1);
        eprintln!("map crash seed {seed} (SYMPATHY_MAP_CRASH_SEED={seed} replays the kill delays)");
        Rng(seed)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn sympathy_mapped_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
}

const KEYS: u64 = 4096;

#[test]
fn a_writer_killed_at_random_points_leaves_every_returned_put_and_none_torn() {
    if std::env::var(peers::PEER_ENV).is_ok() {
        return;
    }
    let mut rng = Rng::from_env_or_clock();
    let schedule = Schedule::new(KEYS);
    let config = MapConfig {
        slots: 8192,
        data_capacity: 64 << 20,
        max_value_length: 128,
        value_format: 0,
    };
    let (mut total_ops, mut in_progress_applied) = (0, 0);
    for iteration in 0..iterations() {
        let path = TempPath::new("crash");
        let ack_path = TempPath::new("crash-ack");
        MapFile::create(&path.0, &config).unwrap();
        let ack = Ack::open(&ack_path.0);
        let mut child = spawn_writer(&path.0, &ack_path.0, KEYS, 0);
        wait_for(&ack, 1, Duration::from_secs(20));
        std::thread::sleep(Duration::from_micros(rng.below(30_000)));
        let dead = child.id() as i32;
        kill9(&mut child);
        let acked = ack.load();

        // The map opens as it was left; the dead writer is seen as such.
        let map = MapFile::open(&path.0)
            .unwrap_or_else(|e| panic!("iteration {iteration}: after kill -9: {e}"));
        assert_eq!(map.writer_state(), WriterState::Dead { pid: dead });
        let before = model(&schedule, KEYS, acked);
        let mut after = before.clone();
        step(&mut after, &schedule, acked);
        let found = observe(&map, KEYS);
        let applied = found == after && found != before;
        assert!(
            found == before || found == after,
            "iteration {iteration}: after {acked} acknowledged operations the map holds \
             neither their state nor the next one's: {}",
            first_difference(&found, &before)
        );
        in_progress_applied += u64::from(applied);
        for entry in map.entries() {
            let (key, value) = entry.unwrap();
            assert!(key < KEYS);
            sympathy_map::stress::check_value(key, value).unwrap();
        }
        let present = found.iter().flatten().count() as u64;
        let counted = map.len();
        assert!(
            counted.abs_diff(present) <= 1,
            "iteration {iteration}: count {counted}, {present} keys present"
        );

        // A new writer takes over, recounts exactly, and goes on.
        let mut writer = map.writer().unwrap();
        assert_eq!(map.stats().recoveries, 1);
        assert_eq!(writer.len(), present, "iteration {iteration}: the recount");
        let mut state = found;
        let next = acked + u64::from(applied);
        for j in next..next + 1000 {
            apply(&mut writer, &schedule, j);
            step(&mut state, &schedule, j);
        }
        assert_eq!(observe(&map, KEYS), state);
        assert_eq!(writer.len(), state.iter().flatten().count() as u64);
        total_ops += acked;
    }
    eprintln!(
        "map crash: {} kill -9 iterations survived, {total_ops} acknowledged operations \
         verified, the operation in progress was applied in {in_progress_applied}",
        iterations()
    );
}

fn first_difference(found: &[Option<u64>], expected: &[Option<u64>]) -> String {
    found
        .iter()
        .zip(expected)
        .enumerate()
        .find(|(_, (f, e))| f != e)
        .map_or("no difference".into(), |(key, (f, e))| {
            format!("key {key} holds {f:?}, expected {e:?}")
        })
}
