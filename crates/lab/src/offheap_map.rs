//! Experiment **offheap-map**: the seed's users (a retail web application's millions of
//! registered users, each with a list of friends) in a heap `HashMap` and in the off-heap map
//! of `sympathy-map`, a memory-mapped file.
//!
//! A port of the "Serialization based Off-Heap" table of the `off-heap-serialisation` seed. One
//! run of a variant builds the map of `users` users (ids `0..users`, each
//! `sympathy_map::user::generate(id, users)`), timing the puts, then times `gets` lookups of
//! random ids, `latency_samples` lookups one by one, `traversals` friend-of-friend walks (a
//! user's friends, and each friend's friends: the seed's "traverse the social graph
//! quickly"), and for the off-heap map the time to close and reopen it. Every lookup checks the
//! user's id; the sums of the friend counts and of the friends' friends are checked against the
//! generator's (a mismatch is an error).
//!
//! | variant | the map | a lookup reads |
//! |---|---|---|
//! | `heap-hashmap` | `HashMap<u64, User>` (std's, SipHash), the seed's heap `HashMap` | the `User` object |
//! | `offheap-flyweight` | `sympathy_map::MapFile` in a file, users in the flyweight layout | the record in place through [`sympathy_map::user::UserView`] |
//!
//! The users to put are made in batches of [`BATCH`] outside the timed loop (the seed's
//! objects exist before they are put); a put of the heap map moves a `User` in, a put of the
//! off-heap map encodes one straight into its record ([`sympathy_map::Writer::put_with`]). The
//! codec is a type parameter ([`UserCodec`]): an SBE-encoded variant is one more
//! implementation of it.
//!
//! ```
//! use sympathy_lab::offheap_map::{Sizes, Variant, run_once};
//! let sizes = Sizes { users: 2_000, gets: 5_000, latency_samples: 1_000, traversals: 500 };
//! let run = run_once(Variant::OffheapFlyweight, &sizes, &std::env::temp_dir()).unwrap();
//! assert!(run.get_ops_per_sec > 0.0 && run.native_bytes > 0);
//! ```

use std::collections::HashMap;
use std::fmt;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sympathy_harness::counting_alloc;
use sympathy_map::user::{FlyweightCodec, User, UserCodec, friends_of, generate, map_config, mix};
use sympathy_map::{MapError, MapFile, Writer};

use crate::clock::{ns_per_tick, ticks_after, ticks_fenced};

/// Users made (untimed) before each timed run of puts.
pub const BATCH: u64 = 65_536;

/// The seed's population: 15M users.
pub const SEED_USERS: u64 = 15_000_000;

/// A map of the experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// `HashMap<u64, User>` on the heap.
    HeapHashMap,
    /// The off-heap map file, users in the flyweight layout.
    OffheapFlyweight,
}

sympathy_harness::catalog_variant!(Variant, "offheap-map");

impl Variant {
    /// Every variant, in the catalog's order.
    pub const ALL: [Variant; 2] = [Variant::HeapHashMap, Variant::OffheapFlyweight];

    /// The catalog's name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::HeapHashMap => "heap-hashmap",
            Variant::OffheapFlyweight => "offheap-flyweight",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How much one run does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Users in the map.
    pub users: u64,
    /// Lookups timed together (throughput).
    pub gets: u64,
    /// Lookups timed one by one (latency).
    pub latency_samples: u64,
    /// Friend-of-friend walks timed together.
    pub traversals: u64,
}

/// What one run measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunResult {
    /// Puts per second while building the map.
    pub put_ops_per_sec: f64,
    /// Lookups per second.
    pub get_ops_per_sec: f64,
    /// Lookup latency, median, ns (the fenced clock's own cost included).
    pub get_p50_ns: f64,
    /// Lookup latency, 99th percentile, ns.
    pub get_p99_ns: f64,
    /// Bytes the map holds on the heap (the allocator's live bytes after the build), if the
    /// counting allocator is installed.
    pub heap_bytes: Option<u64>,
    /// Bytes mapped from the map file (0 for the heap map).
    pub native_bytes: u64,
    /// Bytes the map uses: its heap bytes, or the file's header, slots and records in use.
    pub used_bytes: Option<u64>,
    /// Milliseconds to reopen the map file and read a user (off-heap only).
    pub reopen_ms: Option<f64>,
    /// Friend-of-friend walks per second.
    pub traversals_per_sec: f64,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum OffheapMapError {
    /// The map file failed.
    #[error(transparent)]
    Map(#[from] MapError),
    /// A value was not a well-formed user.
    #[error(transparent)]
    Codec(#[from] sympathy_map::user::CodecError),
    /// A lookup or a walk read something else than the generator made.
    #[error("{variant}: {what}")]
    Mismatch {
        /// The variant.
        variant: Variant,
        /// What differed.
        what: String,
    },
    /// Sizes the run cannot use.
    #[error("{0}")]
    BadSizes(String),
}

/// The reads the timed loops make, over either map.
trait UserStore {
    /// The id and friend count of `key`'s user, if present.
    fn id_and_friend_count(&self, key: u64) -> Result<Option<(u64, usize)>, OffheapMapError>;
    /// Calls `each` with every friend of `key`'s user; false if absent.
    fn for_each_friend(&self, key: u64, each: impl FnMut(u64)) -> Result<bool, OffheapMapError>;
}

impl UserStore for HashMap<u64, User> {
    #[inline]
    fn id_and_friend_count(&self, key: u64) -> Result<Option<(u64, usize)>, OffheapMapError> {
        Ok(self.get(&key).map(|u| (u.id, u.friends.len())))
    }

    #[inline]
    fn for_each_friend(&self, key: u64, each: impl FnMut(u64)) -> Result<bool, OffheapMapError> {
        Ok(match self.get(&key) {
            Some(u) => {
                u.friends.iter().copied().for_each(each);
                true
            }
            None => false,
        })
    }
}

/// The off-heap map with its codec.
struct Offheap<'a, C> {
    map: &'a MapFile,
    codec: C,
}

impl<C: UserCodec> UserStore for Offheap<'_, C> {
    #[inline]
    fn id_and_friend_count(&self, key: u64) -> Result<Option<(u64, usize)>, OffheapMapError> {
        Ok(match self.map.get(key)? {
            Some(bytes) => Some(self.codec.id_and_friend_count(bytes)?),
            None => None,
        })
    }

    #[inline]
    fn for_each_friend(&self, key: u64, each: impl FnMut(u64)) -> Result<bool, OffheapMapError> {
        Ok(match self.map.get(key)? {
            Some(bytes) => {
                self.codec.for_each_friend(bytes, each)?;
                true
            }
            None => false,
        })
    }
}

/// The `i`-th random id of a run's lookups (`stream` keeps the lookups, latency samples and
/// walks apart).
#[inline]
fn random_id(stream: u64, i: u64, users: u64) -> u64 {
    mix(i ^ stream.rotate_left(48)) % users
}

/// Builds the variant's map, measures it, and removes its file: one run.
///
/// # Errors
/// The map failed, or a lookup or walk read something the generator did not make.
pub fn run_once(variant: Variant, sizes: &Sizes, dir: &Path) -> Result<RunResult, OffheapMapError> {
    if sizes.users == 0 || sizes.gets == 0 || sizes.latency_samples == 0 || sizes.traversals == 0 {
        return Err(OffheapMapError::BadSizes(format!(
            "offheap-map: users, gets, latency samples and traversals must be at least 1: {sizes:?}"
        )));
    }
    match variant {
        Variant::HeapHashMap => {
            let mut put_time = PutClock::default();
            let (map, allocated) =
                counting_alloc::measure(|| build_heap(sizes.users, &mut put_time));
            let heap_bytes = allocated.map(|a| a.bytes.max(0) as u64);
            let mut r = measure(variant, &map, sizes, put_time)?;
            r.heap_bytes = heap_bytes;
            r.used_bytes = heap_bytes;
            Ok(r)
        }
        Variant::OffheapFlyweight => run_offheap(variant, FlyweightCodec, sizes, dir),
    }
}

/// A built map, for the criterion bench: lookups timed over a map built once.
pub struct Loaded {
    variant: Variant,
    users: u64,
    heap: Option<HashMap<u64, User>>,
    offheap: Option<(MapFile, Writer, RunFile)>,
}

impl Loaded {
    /// Builds the variant's map of `users` users (the off-heap one's file in `dir`, removed
    /// when this is dropped); the puts' time too: that of the timed puts ([`PutClock`]: all
    /// but an untimed first batch of a map of more than [`BATCH`] users) scaled to every put.
    ///
    /// # Errors
    /// The map failed.
    pub fn build(
        variant: Variant,
        users: u64,
        dir: &Path,
    ) -> Result<(Loaded, Duration), OffheapMapError> {
        let mut put_time = PutClock::default();
        let mut loaded = Loaded {
            variant,
            users,
            heap: None,
            offheap: None,
        };
        match variant {
            Variant::HeapHashMap => loaded.heap = Some(build_heap(users, &mut put_time)),
            Variant::OffheapFlyweight => {
                let file = RunFile(dir.join(format!(
                    "sympathy-offheap-map-bench-{}.map",
                    std::process::id()
                )));
                let _ = std::fs::remove_file(&file.0);
                let map = MapFile::create(&file.0, &map_config(users)?)?;
                let writer = build_offheap(&map, FlyweightCodec, users, &mut put_time)?;
                loaded.offheap = Some((map, writer, file));
            }
        }
        Ok((
            loaded,
            put_time
                .time
                .mul_f64(users as f64 / put_time.puts.max(1) as f64),
        ))
    }

    /// `count` lookups of random users of `stream` (each checked), timed together.
    ///
    /// # Errors
    /// A lookup read something the generator did not make.
    pub fn get_time(&self, stream: u64, count: u64) -> Result<Duration, OffheapMapError> {
        let elapsed = match (&self.heap, &self.offheap) {
            (Some(map), _) => lookups(self.variant, map, stream, count, self.users)?.0,
            (None, Some((map, _, _))) => {
                let store = Offheap {
                    map,
                    codec: FlyweightCodec,
                };
                lookups(self.variant, &store, stream, count, self.users)?.0
            }
            (None, None) => unreachable!("a Loaded holds one map"),
        };
        Ok(elapsed)
    }
}

/// The put loops' timer. The first batch of a map of more than [`BATCH`] users is put untimed,
/// in both languages: its puts warm the code (Java's runs the interpreter's and C1's code
/// first) and the map's first pages; the rate is over the puts timed after it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PutClock {
    time: Duration,
    puts: u64,
}

impl PutClock {
    /// Counts a batch of `n` puts starting at id `first` that took `elapsed`, unless it is the
    /// untimed first batch of a map of more than [`BATCH`] users.
    fn add(&mut self, first: u64, users: u64, n: u64, elapsed: Duration) {
        if first > 0 || users <= BATCH {
            self.time += elapsed;
            self.puts += n;
        }
    }

    /// Timed puts per second.
    fn rate(&self) -> f64 {
        self.puts as f64 / self.time.as_secs_f64()
    }
}

fn build_heap(users: u64, put_time: &mut PutClock) -> HashMap<u64, User> {
    let mut map = HashMap::new();
    let mut first = 0;
    while first < users {
        let last = (first + BATCH).min(users);
        let batch: Vec<User> = (first..last).map(|id| generate(id, users)).collect();
        let start = Instant::now();
        for user in batch {
            map.insert(user.id, user);
        }
        put_time.add(first, users, last - first, start.elapsed());
        first = last;
    }
    map
}

/// A file of the run, removed when dropped.
struct RunFile(PathBuf);

impl Drop for RunFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn run_offheap<C: UserCodec + Copy>(
    variant: Variant,
    codec: C,
    sizes: &Sizes,
    dir: &Path,
) -> Result<RunResult, OffheapMapError> {
    let file = RunFile(dir.join(format!(
        "sympathy-offheap-map-{}-{}.map",
        variant.name(),
        std::process::id()
    )));
    let _ = std::fs::remove_file(&file.0);
    let config = map_config(sizes.users)?.with_value_format(C::FORMAT);
    let mut put_time = PutClock::default();
    let (built, allocated) = counting_alloc::measure(|| -> Result<_, OffheapMapError> {
        let map = MapFile::create(&file.0, &config)?;
        let writer = build_offheap(&map, codec, sizes.users, &mut put_time)?;
        Ok((map, writer))
    });
    let (map, writer) = built?;
    let store = Offheap { map: &map, codec };
    let mut r = measure(variant, &store, sizes, put_time)?;
    let stats = map.stats()?;
    r.heap_bytes = allocated.map(|a| a.bytes.max(0) as u64);
    r.native_bytes = stats.file_length;
    r.used_bytes = Some(sympathy_map::layout::data_area_offset(stats.first_slots) + stats.data_end);
    // Reopen: the writer detaches, the mapping goes; then open (nothing rebuilt) and read one
    // user. The file's pages are still in the page cache: this is the cost of the open itself.
    drop(writer);
    drop(map);
    let start = Instant::now();
    let reopened = MapFile::open(&file.0)?;
    let found = Offheap {
        map: &reopened,
        codec,
    }
    .id_and_friend_count(0)?;
    r.reopen_ms = Some(start.elapsed().as_secs_f64() * 1e3);
    if found.map(|(id, _)| id) != Some(0) {
        return Err(mismatch(
            variant,
            "user 0 is missing after the reopen".into(),
        ));
    }
    Ok(r)
}

fn build_offheap<C: UserCodec>(
    map: &MapFile,
    codec: C,
    users: u64,
    put_time: &mut PutClock,
) -> Result<Writer, OffheapMapError> {
    let mut writer = map.writer()?;
    let mut first = 0;
    while first < users {
        let last = (first + BATCH).min(users);
        let batch: Vec<User> = (first..last).map(|id| generate(id, users)).collect();
        let start = Instant::now();
        for user in &batch {
            writer.put_with(user.id, codec.encoded_len(user), |bytes| {
                codec.encode(user, bytes)
            })?;
        }
        put_time.add(first, users, last - first, start.elapsed());
        first = last;
    }
    Ok(writer)
}

fn mismatch(variant: Variant, what: String) -> OffheapMapError {
    OffheapMapError::Mismatch { variant, what }
}

/// The gets, latency samples and walks over a built map.
fn measure(
    variant: Variant,
    store: &impl UserStore,
    sizes: &Sizes,
    put_time: PutClock,
) -> Result<RunResult, OffheapMapError> {
    let users = sizes.users;
    // Warm-up, untimed: the loops' first passes and the first touch of the pages.
    lookups(variant, store, 3, sizes.gets.min(100_000), users)?;
    let (elapsed, _) = lookups(variant, store, 1, sizes.gets, users)?;
    let get_ops_per_sec = sizes.gets as f64 / elapsed.as_secs_f64();
    // An untimed pass of the latency loop first, as Java's (whose loop would otherwise run its
    // first samples in the interpreter).
    latencies(variant, store, 6, sizes.latency_samples.min(10_000), users)?;
    let (get_p50_ns, get_p99_ns) = latencies(variant, store, 5, sizes.latency_samples, users)?;
    walks(variant, store, 4, sizes.traversals.min(10_000), users)?;
    let walk_time = walks(variant, store, 2, sizes.traversals, users)?;
    Ok(RunResult {
        put_ops_per_sec: put_time.rate(),
        get_ops_per_sec,
        get_p50_ns,
        get_p99_ns,
        heap_bytes: None,
        native_bytes: 0,
        used_bytes: None,
        reopen_ms: None,
        traversals_per_sec: sizes.traversals as f64 / walk_time.as_secs_f64(),
    })
}

/// `count` timed lookups of random ids of `stream`; checks every id and the friend counts'
/// sum against the generator's. Returns the time and that sum.
fn lookups(
    variant: Variant,
    store: &impl UserStore,
    stream: u64,
    count: u64,
    users: u64,
) -> Result<(Duration, u64), OffheapMapError> {
    let keys: Vec<u64> = (0..count).map(|i| random_id(stream, i, users)).collect();
    let expected: u64 = keys
        .iter()
        .map(|&k| friends_of(k, users).len() as u64)
        .sum();
    let mut sum = 0u64;
    let mut wrong = None;
    let start = Instant::now();
    for &key in &keys {
        match store.id_and_friend_count(black_box(key))? {
            Some((id, friends)) if id == key => sum += friends as u64,
            other => {
                wrong.get_or_insert((key, other));
            }
        }
    }
    let elapsed = start.elapsed();
    if let Some((key, found)) = wrong {
        return Err(mismatch(
            variant,
            format!("a lookup of user {key} found {found:?}"),
        ));
    }
    if black_box(sum) != expected {
        return Err(mismatch(
            variant,
            format!("the friend counts of {count} lookups sum to {sum}, expected {expected}"),
        ));
    }
    Ok((elapsed, sum))
}

/// `count` lookups of random ids of `stream` timed one by one: the median and 99th percentile
/// in ns, each less the clock's own cost ([`clock_cost_ticks`]), as Java's less `nanoTime`'s.
fn latencies(
    variant: Variant,
    store: &impl UserStore,
    stream: u64,
    count: u64,
    users: u64,
) -> Result<(f64, f64), OffheapMapError> {
    let rate = ns_per_tick();
    let cost = clock_cost_ticks();
    let mut samples = Vec::with_capacity(count as usize);
    for i in 0..count {
        let key = random_id(stream, i, users);
        let start = ticks_fenced();
        let found = store.id_and_friend_count(black_box(key))?;
        let took = ticks_after().wrapping_sub(start);
        if found.map(|(id, _)| id) != Some(key) {
            return Err(mismatch(
                variant,
                format!("a lookup of user {key} found {found:?}"),
            ));
        }
        samples.push(took.saturating_sub(cost));
    }
    samples.sort_unstable();
    let rank = |q: f64| samples[((q * count as f64).ceil() as usize).clamp(1, samples.len()) - 1];
    Ok((rank(0.50) as f64 * rate, rank(0.99) as f64 * rate))
}

/// The median cost in ticks of timing nothing (a fenced start, then the end), over 1,000
/// tries: what each latency sample carries beside its lookup.
fn clock_cost_ticks() -> u64 {
    let mut empty: Vec<u64> = (0..1_000)
        .map(|_| {
            let start = ticks_fenced();
            ticks_after().wrapping_sub(start)
        })
        .collect();
    empty.sort_unstable();
    empty[empty.len() / 2]
}

/// `count` friend-of-friend walks from random users of `stream`: each visits the user's
/// friends and, for each, its friends' ids; the sum of those ids is checked against the
/// generator's.
fn walks(
    variant: Variant,
    store: &impl UserStore,
    stream: u64,
    count: u64,
    users: u64,
) -> Result<Duration, OffheapMapError> {
    let starts: Vec<u64> = (0..count).map(|i| random_id(stream, i, users)).collect();
    let expected = starts.iter().fold(0u64, |acc, &u| {
        friends_of(u, users).fold(acc, |acc, f| {
            friends_of(f, users).fold(acc, |acc, ff| acc.wrapping_add(ff))
        })
    });
    let mut sum = 0u64;
    let mut missing = None;
    let start = Instant::now();
    for &user in &starts {
        let mut friends = [0u64; 16];
        let mut n = 0;
        if !store.for_each_friend(black_box(user), |f| {
            if n < friends.len() {
                friends[n] = f;
            }
            n += 1;
        })? {
            missing.get_or_insert(user);
        }
        for &friend in &friends[..n.min(friends.len())] {
            if !store.for_each_friend(friend, |ff| sum = sum.wrapping_add(ff))? {
                missing.get_or_insert(friend);
            }
        }
    }
    let elapsed = start.elapsed();
    if let Some(user) = missing {
        return Err(mismatch(
            variant,
            format!("user {user} is missing from a walk"),
        ));
    }
    if black_box(sum) != expected {
        return Err(mismatch(
            variant,
            format!("{count} walks summed the friends' friends to {sum}, expected {expected}"),
        ));
    }
    Ok(elapsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes() -> Sizes {
        Sizes {
            users: 3_000,
            gets: 10_000,
            latency_samples: 2_000,
            traversals: 1_000,
        }
    }

    #[test]
    fn both_variants_measure_and_verify() {
        for variant in Variant::ALL {
            let r = run_once(variant, &sizes(), &std::env::temp_dir()).unwrap();
            assert!(
                r.put_ops_per_sec > 0.0 && r.get_ops_per_sec > 0.0,
                "{variant}: {r:?}"
            );
            assert!(r.get_p50_ns <= r.get_p99_ns, "{variant}: {r:?}");
            assert!(r.traversals_per_sec > 0.0);
            match variant {
                Variant::HeapHashMap => assert_eq!((r.native_bytes, r.reopen_ms), (0, None)),
                Variant::OffheapFlyweight => {
                    assert!(r.native_bytes > 3_000 * 100, "{r:?}");
                    assert!(r.reopen_ms.is_some());
                    let used = r.used_bytes.unwrap() / 3_000;
                    assert!((100..200).contains(&used), "bytes per user: {used}");
                }
            }
        }
    }

    #[test]
    fn a_wrong_value_is_caught() {
        let mut map: HashMap<u64, User> = (0..100).map(|id| (id, generate(id, 100))).collect();
        map.get_mut(&7).unwrap().friends.push(1);
        let caught =
            (1..20).any(|stream| lookups(Variant::HeapHashMap, &map, stream, 200, 100).is_err());
        assert!(
            caught,
            "a user with an extra friend changes the friend counts' sum"
        );
        map.get_mut(&7).unwrap().id = 8;
        assert!(lookups(Variant::HeapHashMap, &map, 1, 2000, 100).is_err());
    }
}
