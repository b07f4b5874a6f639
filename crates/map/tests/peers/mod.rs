//! The child processes of the crash and stress tests: this test binary run again with
//! [`PEER_ENV`] set, as a writer that applies a [`Schedule`] and acknowledges each operation
//! that returned in a small mapped file, or as a reader that checks every value it reads.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use memmap2::MmapMut;
use sympathy_map::stress::{Op, Schedule, check_value, value_of};
use sympathy_map::{MapConfig, MapFile, Writer, WriterState};

use crate::common::TempPath;

/// Set in a child: `writer <map> <ack> <keys> <first-op> [<ops-per-second>]`.
pub const PEER_ENV: &str = "SYMPATHY_MAP_TEST_PEER";

/// The acknowledgement file: one u64, the number of operations that returned.
pub struct Ack {
    _map: MmapMut,
    word: *const AtomicU64,
}

impl Ack {
    /// Creates (zeroed) or opens the acknowledgement file at `path`.
    pub fn open(path: &Path) -> Ack {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .unwrap();
        file.set_len(4096).unwrap();
        // SAFETY: a file only these tests use; its one word is accessed atomically.
        let mut map = unsafe { MmapMut::map_mut(&file) }.unwrap();
        let word = map.as_mut_ptr().cast::<AtomicU64>();
        Ack { _map: map, word }
    }

    pub fn load(&self) -> u64 {
        // SAFETY: the mapping is page-aligned and lives as long as `self`.
        // SYNC POINT: stress-ack (acquire; pairs with the writer's release in `store`, or in the
        // Java writer's `StressAck.store`)
        unsafe { (*self.word).load(Ordering::Acquire) }
    }

    pub fn store(&self, done: u64) {
        // SAFETY: as in load.
        // SYNC POINT: stress-ack
        unsafe { (*self.word).store(done, Ordering::Release) }
    }
}

/// Applies operation `j` of `schedule` through `writer`.
pub fn apply(writer: &mut Writer, schedule: &Schedule, j: u64) {
    match schedule.op(j) {
        Op::Put { key, version } => {
            writer.put(key, &value_of(key, version)).unwrap();
        }
        Op::Remove { key } => {
            writer.remove(key).unwrap();
        }
    }
}

/// Starts a writer child that applies `schedule` (of `keys` keys) from operation `first` on,
/// for ever, acknowledging each operation in the file at `ack`.
pub fn spawn_writer(map: &Path, ack: &Path, keys: u64, first: u64) -> Child {
    spawn_paced_writer(map, ack, keys, first, 0)
}

/// [`spawn_writer`], at most `per_second` operations a second (0: as fast as it can), so that
/// a long run does not fill the map's data area.
pub fn spawn_paced_writer(map: &Path, ack: &Path, keys: u64, first: u64, per_second: u64) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "peer_child", "--nocapture", "--test-threads=1"])
        .env(
            PEER_ENV,
            format!(
                "writer {} {} {keys} {first} {per_second}",
                map.display(),
                ack.display()
            ),
        )
        .spawn()
        .unwrap()
}

/// The child's main: runs when [`PEER_ENV`] is set, never returns.
pub fn child_main() {
    let Ok(spec) = std::env::var(PEER_ENV) else {
        return;
    };
    let parts: Vec<&str> = spec.split(' ').collect();
    assert_eq!(parts[0], "writer", "{spec}");
    let map = MapFile::open(parts[1]).unwrap();
    let ack = Ack::open(Path::new(parts[2]));
    let schedule = Schedule::new(parts[3].parse().unwrap());
    let first: u64 = parts[4].parse().unwrap();
    let per_second: u64 = parts.get(5).map_or(0, |p| p.parse().unwrap());
    let mut j = first;
    let mut writer = map.writer().unwrap();
    let start = Instant::now();
    loop {
        apply(&mut writer, &schedule, j);
        j += 1;
        ack.store(j);
        if per_second > 0 && (j - first).is_multiple_of(1024) {
            let due = Duration::from_secs_f64((j - first) as f64 / per_second as f64);
            if let Some(ahead) = due.checked_sub(start.elapsed()) {
                std::thread::sleep(ahead);
            }
        }
    }
}

/// Waits until `ack` reaches `at_least`, or panics after `patience`.
pub fn wait_for(ack: &Ack, at_least: u64, patience: Duration) {
    let start = Instant::now();
    while ack.load() < at_least {
        assert!(start.elapsed() < patience, "the writer child never started");
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// kill -9, then reap.
pub fn kill9(child: &mut Child) {
    // SAFETY: a plain syscall on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let _ = child.wait();
}

/// The version each key holds after operations `0..ops` of `schedule` (None: absent).
pub fn model(schedule: &Schedule, keys: u64, ops: u64) -> Vec<Option<u64>> {
    let mut state = vec![None; keys as usize];
    for j in 0..ops {
        step(&mut state, schedule, j);
    }
    state
}

/// Applies operation `j` to a model.
pub fn step(state: &mut [Option<u64>], schedule: &Schedule, j: u64) {
    match schedule.op(j) {
        Op::Put { key, version } => state[key as usize] = Some(version),
        Op::Remove { key } => state[key as usize] = None,
    }
}

/// Every key's version in `map`, each value checked whole.
pub fn observe(map: &MapFile, keys: u64) -> Vec<Option<u64>> {
    (0..keys)
        .map(|key| {
            map.get(key)
                .unwrap()
                .map(|v| check_value(key, v).unwrap_or_else(|e| panic!("{e}")))
        })
        .collect()
}

/// Kill iterations of a crash test: `SYMPATHY_MAP_CRASH_ITERATIONS`, default 3
/// (`ci/map-crash --iterations N`).
pub fn crash_iterations() -> u64 {
    std::env::var("SYMPATHY_MAP_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// The kill delays: a small xorshift, seeded from the clock (printed, so
/// `SYMPATHY_MAP_CRASH_SEED` replays them).
pub struct KillRng(u64);

impl KillRng {
    pub fn from_env_or_clock() -> KillRng {
        let seed = std::env::var("SYMPATHY_MAP_CRASH_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
                    | 1
            });
        eprintln!("map crash seed {seed} (SYMPATHY_MAP_CRASH_SEED={seed} replays the kill delays)");
        KillRng(seed)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Keys of the crash tests' schedule.
pub const CRASH_KEYS: u64 = 4096;

/// What [`kill_writers`] verified: acknowledged operations, and the kills after which the
/// operation in progress was found applied.
pub struct KillTotals {
    pub acknowledged: u64,
    pub in_progress_applied: u64,
}

/// The crash tests' loop, [`crash_iterations`] times: a fresh map of `config` and an
/// acknowledgement file, a writer process from `spawn(map, ack)` applying the schedule of
/// [`CRASH_KEYS`] keys, killed with SIGKILL at a random moment below `max_delay` after its first
/// acknowledgement (which must come within `patience`), then [`check_after_kill`].
pub fn kill_writers(
    tag: &str,
    config: &MapConfig,
    patience: Duration,
    max_delay: Duration,
    mut spawn: impl FnMut(&Path, &Path) -> Child,
) -> KillTotals {
    let mut rng = KillRng::from_env_or_clock();
    let schedule = Schedule::new(CRASH_KEYS);
    let mut totals = KillTotals {
        acknowledged: 0,
        in_progress_applied: 0,
    };
    for iteration in 0..crash_iterations() {
        let path = TempPath::new(tag);
        let ack_path = TempPath::new(&format!("{tag}-ack"));
        MapFile::create(&path.0, config).unwrap();
        let ack = Ack::open(&ack_path.0);
        let mut child = spawn(&path.0, &ack_path.0);
        wait_for(&ack, 1, patience);
        std::thread::sleep(Duration::from_micros(
            rng.below(max_delay.as_micros() as u64),
        ));
        assert!(
            child.try_wait().unwrap().is_none(),
            "iteration {iteration}: the writer exited before its kill (its error is above)"
        );
        let dead = child.id() as i32;
        kill9(&mut child);
        let acked = ack.load();
        let applied = check_after_kill(&path.0, dead, acked, &schedule, CRASH_KEYS, iteration);
        totals.in_progress_applied += u64::from(applied);
        totals.acknowledged += acked;
    }
    totals
}

/// After a writer (`dead`, killed with SIGKILL) acknowledged `acked` operations of `schedule`:
/// checks that the map at `path` opens and sees the dead writer, holds every acknowledged
/// operation and the one in progress whole or not at all, never a torn value, a count within one
/// of the keys present; then that a new writer takes over, recounts exactly and goes on for 1000
/// operations. Returns whether the operation in progress had been applied.
pub fn check_after_kill(
    path: &Path,
    dead: i32,
    acked: u64,
    schedule: &Schedule,
    keys: u64,
    iteration: u64,
) -> bool {
    let map =
        MapFile::open(path).unwrap_or_else(|e| panic!("iteration {iteration}: after kill -9: {e}"));
    assert_eq!(map.writer_state(), WriterState::Dead { pid: dead });
    let before = model(schedule, keys, acked);
    let mut after = before.clone();
    step(&mut after, schedule, acked);
    let found = observe(&map, keys);
    let applied = found == after && found != before;
    assert!(
        found == before || found == after,
        "iteration {iteration}: after {acked} acknowledged operations the map holds \
         neither their state nor the next one's: {}",
        first_difference(&found, &before)
    );
    for entry in map.entries() {
        let (key, value) = entry.unwrap();
        assert!(key < keys);
        check_value(key, value).unwrap();
    }
    let present = found.iter().flatten().count() as u64;
    let counted = map.len();
    assert!(
        counted.abs_diff(present) <= 1,
        "iteration {iteration}: count {counted}, {present} keys present"
    );

    // A new writer takes over, recounts exactly, and goes on.
    let mut writer = map.writer().unwrap();
    assert_eq!(map.stats().unwrap().recoveries, 1);
    assert_eq!(writer.len(), present, "iteration {iteration}: the recount");
    let mut state = found;
    let next = acked + u64::from(applied);
    for j in next..next + 1000 {
        apply(&mut writer, schedule, j);
        step(&mut state, schedule, j);
    }
    assert_eq!(observe(&map, keys), state);
    assert_eq!(writer.len(), state.iter().flatten().count() as u64);
    applied
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
