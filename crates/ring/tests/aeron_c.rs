//! Live peers from Aeron's own C implementation (`aeron_mpsc_rb`, `aeron_broadcast_transmitter`,
//! `aeron_broadcast_receiver`, vendored unmodified in `tests/aeron_c/aeron`, see its NOTICE)
//! against our many-to-one and broadcast rings, in the same file at the same time: Aeron C
//! processes write what our Rust side reads and read what it writes, every message checked
//! byte for byte, each stream in order, nothing lost or duplicated.
//!
//! The C side is `tests/aeron_c/harness.c`, compiled here at test time with the system C
//! compiler (`$CC`, else `cc`, else `gcc`). Without one the tests say on stderr that they were
//! skipped, and pass. Every child process runs under a deadline: past it, it is killed and the
//! test fails with its output. Nothing here asserts on time.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use sympathy_ring::pattern::{self, Pattern};
use sympathy_ring::{BroadcastRing, ManyToOneRing, Receiver, RingError};

/// How long any one test may take before its peers are killed and it fails: far past what it
/// needs (a few seconds), so that only a hang trips it, even on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(120);

/// Messages per many-to-one producer.
const MPSC_COUNT: u64 = 30_000;
/// A small ring, so the producers wrap it many times and meet a full ring.
const MPSC_CAPACITY: usize = 64 * 1024;
/// Broadcast messages per test.
const BROADCAST_COUNT: u64 = 50_000;
/// Large enough that no lap can happen: 50,000 records of at most 72 bytes are 3.6 MB.
const BROADCAST_CAPACITY: usize = 8 * 1024 * 1024;
/// A broadcast ring the stream wraps many times (2.2 MB through 256 KiB).
const WRAP_CAPACITY: usize = 256 * 1024;
/// How often a paced receiver reports its position (as `PACE_EVERY` in harness.c).
const PACE_EVERY: u64 = 256;
/// The largest test message (sizes are 4..=64).
const MAX_SIZE: usize = 64;

/// The size of message `i` of type `type_id`: 4..=64 bytes (as `msg_size` in harness.c).
fn msg_size(i: u64, type_id: i32) -> usize {
    4 + ((i * 7 + type_id as u64 * 13) % 61) as usize
}

/// The type of broadcast message `i` (as `bcast_type` in harness.c).
fn bcast_type(i: u64) -> i32 {
    1 + (i % 5) as i32
}

// ---- the C harness -------------------------------------------------------------------------

/// The compiled harness, or why there is none: `Ok(None)` when no C compiler was found (the
/// tests skip), `Err` when one was found and the compile failed (the tests fail).
fn harness() -> Result<Option<&'static Path>, String> {
    static HARNESS: OnceLock<Result<Option<PathBuf>, String>> = OnceLock::new();
    match HARNESS.get_or_init(compile_harness) {
        Ok(path) => Ok(path.as_deref()),
        Err(e) => Err(e.clone()),
    }
}

/// The harness, or `None` after saying on stderr why the test is skipped.
fn harness_or_skip(test: &str) -> Option<&'static Path> {
    match harness() {
        Ok(Some(path)) => Some(path),
        Ok(None) => {
            // Straight to the process's stderr, past the test harness's output capture
            // (which takes `eprintln!`): a skip is reported even when the test passes.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: no C compiler found ($CC, cc, gcc) to build the Aeron C peer \
                 (tests/aeron_c/harness.c); install one to run the Aeron C live-peer tests"
            );
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn find_compiler() -> Option<String> {
    let from_env = std::env::var("CC").ok().filter(|cc| !cc.trim().is_empty());
    from_env
        .into_iter()
        .chain(["cc".to_string(), "gcc".to_string()])
        .find(|cc| {
            Command::new(cc)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
}

fn compile_harness() -> Result<Option<PathBuf>, String> {
    let Some(cc) = find_compiler() else {
        return Ok(None);
    };
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/aeron_c");
    let aeron = src.join("aeron");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("aeron_c");
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    // Built under a name of this process's own, then renamed into place: a test binary running
    // at the same time never executes a half-written file.
    let building = dir.join(format!("harness.{}.tmp", std::process::id()));
    let out = Command::new(&cc)
        .args(["-O2", "-std=gnu11", "-Wall"])
        .arg(format!("-I{}", aeron.display()))
        .arg("-o")
        .arg(&building)
        .arg(src.join("harness.c"))
        .arg(src.join("aeron_stubs.c"))
        .arg(aeron.join("concurrent/aeron_mpsc_rb.c"))
        .arg(aeron.join("concurrent/aeron_broadcast_transmitter.c"))
        .arg(aeron.join("concurrent/aeron_broadcast_receiver.c"))
        .arg(aeron.join("concurrent/aeron_atomic.c"))
        .output()
        .map_err(|e| format!("running {cc}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cc} could not build the Aeron C harness ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let harness = dir.join("harness");
    std::fs::rename(&building, &harness)
        .map_err(|e| format!("renaming {} into place: {e}", building.display()))?;
    Ok(Some(harness))
}

// ---- child processes under a deadline ------------------------------------------------------

/// One harness process: its stdout and stderr collected by two threads (stdout also line by
/// line through a channel, for the "ready" handshake and pacing), killed if dropped while it
/// runs.
struct Peer {
    name: String,
    child: Child,
    /// Its stdin, when it reads one (a paced transmitter).
    stdin: Option<ChildStdin>,
    output: Arc<Mutex<String>>,
    lines: mpsc::Receiver<String>,
    readers: Vec<JoinHandle<()>>,
}

impl Peer {
    fn spawn(harness: &Path, args: &[&str]) -> Peer {
        Peer::spawn_with_stdin(harness, args, false)
    }

    fn spawn_with_stdin(harness: &Path, args: &[&str], with_stdin: bool) -> Peer {
        let name = format!("harness {}", args.join(" "));
        let mut child = Command::new(harness)
            .args(args)
            .stdin(if with_stdin {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawning {name}: {e}"));
        let output = Arc::new(Mutex::new(String::new()));
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let out = output.clone();
        let stdout_reader = thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                out.lock().unwrap().push_str(&format!("{line}\n"));
                let _ = tx.send(line);
            }
        });
        let out = output.clone();
        let stderr_reader = thread::spawn(move || {
            let mut text = String::new();
            let _ = BufReader::new(stderr).read_to_string(&mut text);
            for line in text.lines() {
                out.lock().unwrap().push_str(&format!("stderr: {line}\n"));
            }
        });
        Peer {
            name,
            stdin: child.stdin.take(),
            child,
            output,
            lines,
            readers: vec![stdout_reader, stderr_reader],
        }
    }

    /// Writes `line` to its stdin. A child that went away is caught by the next check of its
    /// exit status.
    fn tell(&mut self, line: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "{line}").and_then(|()| stdin.flush());
        }
    }

    fn output(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// Kills the child (if it still runs), reaps it and waits for its output.
    fn kill_and_collect(&mut self) -> String {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        self.output()
    }

    /// Fails the test, with the child's output, if it has already exited unsuccessfully.
    fn check_not_failed(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            if !status.success() {
                self.fail(status);
            }
        }
    }

    fn fail(&mut self, status: ExitStatus) -> ! {
        let output = self.kill_and_collect();
        panic!("{} failed ({status}):\n{output}", self.name);
    }

    /// Waits for a stdout line starting with `prefix`, until `deadline`.
    fn wait_for_line(&mut self, prefix: &str, deadline: Instant) -> String {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return line,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    let output = self.kill_and_collect();
                    panic!(
                        "{} printed no {prefix:?} line within {DEADLINE:?}; killed. Output:\n{output}",
                        self.name
                    );
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().expect("wait");
                    let output = self.kill_and_collect();
                    panic!(
                        "{} exited ({status}) without a {prefix:?} line:\n{output}",
                        self.name
                    );
                }
            }
        }
    }

    /// Waits for the child to exit, until `deadline` (then kills it and fails); fails unless it
    /// exited with status 0. Returns its output.
    fn finish(mut self, deadline: Instant) -> String {
        loop {
            match self.child.try_wait().expect("try_wait") {
                Some(status) if status.success() => return self.kill_and_collect(),
                Some(status) => self.fail(status),
                None if Instant::now() >= deadline => {
                    let output = self.kill_and_collect();
                    panic!(
                        "{} still running after {DEADLINE:?}; killed. Output:\n{output}",
                        self.name
                    );
                }
                None => thread::sleep(Duration::from_millis(5)),
            }
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The value of `key=` in a harness summary line.
fn field(line: &str, key: &str) -> u64 {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key}= in {line:?}"))
}

/// A fresh ring path in the temp folder, removed when dropped.
struct TempPath(PathBuf);

impl TempPath {
    fn new(tag: &str) -> TempPath {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "sympathy-ring-aeron-c-{tag}-{}-{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        TempPath(path)
    }

    fn arg(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp path")
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Sets the flag when dropped: stops the test's own threads when it fails part-way.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Checks one received many-to-one message against its type's stream: it must be message
/// `next[type]` of that type, byte for byte.
fn check_in_order(next: &mut [u64], type_id: i32, bytes: &[u8], pattern: &Pattern) {
    let slot = usize::try_from(type_id)
        .ok()
        .filter(|&t| (1..next.len()).contains(&t))
        .unwrap_or_else(|| panic!("message of unexpected type {type_id}: {bytes:02x?}"));
    let i = next[slot];
    assert!(
        i < MPSC_COUNT,
        "type {type_id}: a message past the last ({i} already received): {bytes:02x?}"
    );
    assert_eq!(
        bytes.len(),
        msg_size(i, type_id),
        "type {type_id} message {i}: wrong size: {bytes:02x?}"
    );
    if let Err(e) = pattern.check_len(i, bytes) {
        panic!("type {type_id} message {i}: {e}: {bytes:02x?}");
    }
    next[slot] = i + 1;
}

/// A Rust many-to-one producer writing `MPSC_COUNT` messages of `type_id`, `try_write` and
/// `try_claim` in turn, retrying while full; gives up when `stop` is set or past the deadline.
fn rust_producer(
    ring: &ManyToOneRing,
    type_id: i32,
    stop: Arc<AtomicBool>,
    deadline: Instant,
) -> JoinHandle<Result<u64, String>> {
    let mut producer = ring.producer();
    thread::spawn(move || {
        let pattern = Pattern::new(MAX_SIZE);
        let mut buf = [0u8; MAX_SIZE];
        let mut full = 0u64;
        for i in 0..MPSC_COUNT {
            let size = msg_size(i, type_id);
            loop {
                let result = if i % 2 == 0 {
                    pattern.fill_len(i, &mut buf[..size]);
                    producer.try_write(type_id, &buf[..size])
                } else {
                    producer.try_claim(type_id, size).map(|mut claim| {
                        pattern.fill_len(i, &mut claim);
                        claim.commit();
                    })
                };
                match result {
                    Ok(()) => break,
                    Err(RingError::Full { .. }) => {
                        full += 1;
                        if stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
                            return Err(format!("type {type_id}: gave up at message {i}"));
                        }
                        thread::yield_now();
                    }
                    Err(e) => return Err(format!("type {type_id} message {i}: {e}")),
                }
            }
        }
        Ok(full)
    })
}

// ---- the tests -----------------------------------------------------------------------------

/// (a) Two Aeron C producer processes (types 1 and 2, `aeron_mpsc_rb_write` and
/// `aeron_mpsc_rb_try_claim` + `commit`) and a Rust producer thread (type 3) into our Rust
/// consumer, on a 64 KiB ring they wrap many times.
#[test]
fn aeron_c_producers_and_a_rust_producer_into_the_rust_consumer() {
    let Some(harness) =
        harness_or_skip("aeron_c_producers_and_a_rust_producer_into_the_rust_consumer")
    else {
        return;
    };
    let deadline = Instant::now() + DEADLINE;
    let path = TempPath::new("mpsc-in");
    let ring = ManyToOneRing::create(&path.0, MPSC_CAPACITY).unwrap();
    let mut consumer = ring.consumer().unwrap();
    // A stuck claim must fail the test, not be unblocked into padding.
    consumer.set_unblock_after(None);
    let count = MPSC_COUNT.to_string();
    let mut peers: Vec<Peer> = (1..=2)
        .map(|t: i32| {
            Peer::spawn(
                harness,
                &["mpsc-produce", path.arg(), &t.to_string(), &count],
            )
        })
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    let mut rust = Some(rust_producer(&ring, 3, stop.clone(), deadline));
    let mut rust_full = None;

    let pattern = Pattern::new(MAX_SIZE);
    let mut next = [0u64; 4];
    let mut polls = 0u64;
    while next[1..].iter().any(|&n| n < MPSC_COUNT) {
        let read = consumer
            .read(
                |t, bytes| check_in_order(&mut next, t, bytes, &pattern),
                256,
            )
            .unwrap();
        if read == 0 {
            polls += 1;
            if polls.is_multiple_of(256) {
                peers.iter_mut().for_each(Peer::check_not_failed);
                if rust.as_ref().is_some_and(JoinHandle::is_finished) {
                    let done = rust.take().unwrap().join().unwrap();
                    rust_full = Some(done.unwrap_or_else(|e| panic!("Rust producer: {e}")));
                }
                assert!(
                    Instant::now() < deadline,
                    "messages received per type after {DEADLINE:?}: {:?}",
                    &next[1..]
                );
            }
            thread::yield_now();
        }
    }
    let full = match rust {
        Some(handle) => handle
            .join()
            .unwrap()
            .unwrap_or_else(|e| panic!("Rust producer: {e}")),
        None => rust_full.expect("joined"),
    };
    for peer in peers {
        let out = peer.finish(deadline);
        let line = out.lines().find(|l| l.starts_with("produced")).unwrap();
        assert_eq!(field(line, "count"), MPSC_COUNT, "{out}");
        assert_eq!(field(line, "claimed"), MPSC_COUNT / 2, "{out}");
        eprintln!("Aeron C: {line}");
    }
    eprintln!("Rust producer (type 3): {MPSC_COUNT} messages, {full} full retries");
    // Every producer is done and every message was read: nothing may follow.
    assert_eq!(
        consumer
            .read(|t, b| panic!("extra type {t}: {b:02x?}"), 256)
            .unwrap(),
        0
    );
    assert_eq!(next, [0, MPSC_COUNT, MPSC_COUNT, MPSC_COUNT]);
}

/// (b) Two Rust producer threads (types 1 and 2) into the Aeron C consumer process
/// (`aeron_mpsc_rb_read`), which checks every message and each type's order.
#[test]
fn rust_producers_into_the_aeron_c_consumer() {
    let Some(harness) = harness_or_skip("rust_producers_into_the_aeron_c_consumer") else {
        return;
    };
    let deadline = Instant::now() + DEADLINE;
    let path = TempPath::new("mpsc-out");
    let ring = ManyToOneRing::create(&path.0, MPSC_CAPACITY).unwrap();
    let mut consumer = Peer::spawn(
        harness,
        &["mpsc-consume", path.arg(), &MPSC_COUNT.to_string(), "2"],
    );
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    let producers: Vec<_> = (1..=2)
        .map(|t| rust_producer(&ring, t, stop.clone(), deadline))
        .collect();
    while producers.iter().any(|p| !p.is_finished()) {
        consumer.check_not_failed();
        thread::sleep(Duration::from_millis(5));
    }
    for (t, p) in producers.into_iter().enumerate() {
        let full = p.join().unwrap().unwrap_or_else(|e| {
            let output = consumer.kill_and_collect();
            panic!("Rust producer: {e}; the Aeron C consumer's output:\n{output}")
        });
        eprintln!("Rust producer (type {}): {full} full retries", t + 1);
    }
    let out = consumer.finish(deadline);
    let line = out.lines().find(|l| l.starts_with("consumed")).unwrap();
    assert_eq!(field(line, "total"), 2 * MPSC_COUNT, "{out}");
    assert_eq!(field(line, "head"), field(line, "tail"), "{out}");
    eprintln!("Aeron C: {line}");
}

/// What a Rust receiver kept of a broadcast stream.
struct Kept {
    /// Messages handed out (each checked).
    messages: u64,
    /// Laps counted by the receiver.
    laps: u64,
}

/// Receives broadcast messages 0..`BROADCAST_COUNT` from `transmitter` (a harness process)
/// until the last one, checking each message kept byte for byte: while no lap intervenes,
/// each must be the one after the previous (the first one message 0); after a lap, any later
/// one. With `pace`, tells the transmitter its position every `PACE_EVERY` messages. Fails
/// when the transmitter fails or the deadline passes.
fn receive_from(
    receiver: &mut Receiver,
    transmitter: &mut Peer,
    deadline: Instant,
    pace: bool,
) -> Kept {
    let pattern = Pattern::new(MAX_SIZE);
    let (mut next, mut messages, mut in_order, mut polls) = (0u64, 0u64, true, 0u64);
    loop {
        let laps_before = receiver.lapped_count();
        let got = receiver.receive(|t, bytes| (t, bytes.to_vec())).unwrap();
        if receiver.lapped_count() != laps_before {
            // Lapped: what lay between the last message kept and the latest record is lost.
            in_order = false;
        }
        let Some((type_id, bytes)) = got else {
            polls += 1;
            if polls.is_multiple_of(256) {
                transmitter.check_not_failed();
                assert!(
                    Instant::now() < deadline,
                    "message {next} not received after {DEADLINE:?}"
                );
            }
            thread::yield_now();
            continue;
        };
        let i = pattern::index_of(&bytes)
            .unwrap_or_else(|| panic!("a message of {} bytes: {bytes:02x?}", bytes.len()));
        if in_order {
            assert_eq!(i, next, "message {next} due, found: {bytes:02x?}");
        } else {
            assert!(
                i >= next,
                "message {i} after a lap, {next} at least due: {bytes:02x?}"
            );
        }
        assert!(i < BROADCAST_COUNT, "a message past the last: {bytes:02x?}");
        assert_eq!(type_id, bcast_type(i), "message {i}: wrong type");
        assert_eq!(
            bytes.len(),
            msg_size(i, type_id),
            "message {i}: {bytes:02x?}"
        );
        if let Err(e) = pattern.check_len(i, &bytes) {
            panic!("message {i}: {e}: {bytes:02x?}");
        }
        messages += 1;
        next = i + 1;
        in_order = true;
        if pace && messages.is_multiple_of(PACE_EVERY) {
            transmitter.tell(&receiver.position().to_string());
        }
        if next == BROADCAST_COUNT {
            return Kept {
                messages,
                laps: receiver.lapped_count(),
            };
        }
    }
}

/// (c) The Aeron C broadcast transmitter process into our Rust receiver, which joined before
/// the first record; the ring is large enough that no lap can happen.
#[test]
fn aeron_c_transmitter_into_the_rust_receiver() {
    let Some(harness) = harness_or_skip("aeron_c_transmitter_into_the_rust_receiver") else {
        return;
    };
    let deadline = Instant::now() + DEADLINE;
    let path = TempPath::new("broadcast-in");
    let ring = BroadcastRing::create(&path.0, BROADCAST_CAPACITY).unwrap();
    let mut receiver = ring.receiver().unwrap();
    let count = BROADCAST_COUNT.to_string();
    let mut transmitter = Peer::spawn(harness, &["broadcast-transmit", path.arg(), &count]);
    let kept = receive_from(&mut receiver, &mut transmitter, deadline, false);
    let out = transmitter.finish(deadline);
    let line = out.lines().find(|l| l.starts_with("transmitted")).unwrap();
    assert_eq!(field(line, "count"), BROADCAST_COUNT, "{out}");
    // Every message, in order (see receive_from), none after the last.
    assert_eq!((kept.messages, kept.laps), (BROADCAST_COUNT, 0));
    assert_eq!(receiver.receive(|t, b| (t, b.to_vec())).unwrap(), None);
    assert_eq!(receiver.position(), field(line, "tail") as i64);
    eprintln!(
        "Aeron C: {line}; Rust receiver: {} messages, no lap",
        kept.messages
    );
}

/// (c') As (c) through a small ring the stream wraps many times, so that padding records
/// at the end of the area pass between the two implementations. The transmitter never waits
/// in Agrona's protocol, so the harness paces it: our receiver tells it its position on stdin
/// every `PACE_EVERY` messages, and it stays within half a capacity of it, which makes a lap
/// impossible: every message, in order.
#[test]
fn aeron_c_transmitter_wrapping_into_the_rust_receiver() {
    let Some(harness) = harness_or_skip("aeron_c_transmitter_wrapping_into_the_rust_receiver")
    else {
        return;
    };
    let deadline = Instant::now() + DEADLINE;
    let path = TempPath::new("broadcast-wrap-in");
    let ring = BroadcastRing::create(&path.0, WRAP_CAPACITY).unwrap();
    let mut receiver = ring.receiver().unwrap();
    let count = BROADCAST_COUNT.to_string();
    let mut transmitter = Peer::spawn_with_stdin(
        harness,
        &["broadcast-transmit", path.arg(), &count, "paced"],
        true,
    );
    let kept = receive_from(&mut receiver, &mut transmitter, deadline, true);
    let out = transmitter.finish(deadline);
    let line = out.lines().find(|l| l.starts_with("transmitted")).unwrap();
    assert!(
        field(line, "tail") > 4 * WRAP_CAPACITY as u64,
        "wrapped: {line}"
    );
    assert_eq!((kept.messages, kept.laps), (BROADCAST_COUNT, 0));
    assert_eq!(receiver.receive(|t, b| (t, b.to_vec())).unwrap(), None);
    assert_eq!(receiver.position(), field(line, "tail") as i64);
    eprintln!(
        "Aeron C: {line}; Rust receiver: {} messages, no lap",
        kept.messages
    );
}

/// (d) Our Rust transmitter into the Aeron C receiver process (`receive_next`, copy,
/// `validate`), which joined before the first record and checks every message and its order.
#[test]
fn rust_transmitter_into_the_aeron_c_receiver() {
    let Some(harness) = harness_or_skip("rust_transmitter_into_the_aeron_c_receiver") else {
        return;
    };
    let deadline = Instant::now() + DEADLINE;
    let path = TempPath::new("broadcast-out");
    let ring = BroadcastRing::create(&path.0, BROADCAST_CAPACITY).unwrap();
    let mut receiver = Peer::spawn(
        harness,
        &[
            "broadcast-receive",
            path.arg(),
            &BROADCAST_COUNT.to_string(),
        ],
    );
    // The receiver joins at the latest record: 0 here, before anything was transmitted.
    let ready = receiver.wait_for_line("ready", deadline);
    assert_eq!(field(&ready, "position"), 0, "{ready}");
    let mut transmitter = ring.transmitter().unwrap();
    let pattern = Pattern::new(MAX_SIZE);
    let mut buf = [0u8; MAX_SIZE];
    for i in 0..BROADCAST_COUNT {
        let type_id = bcast_type(i);
        let size = msg_size(i, type_id);
        pattern.fill_len(i, &mut buf[..size]);
        transmitter.transmit(type_id, &buf[..size]).unwrap();
    }
    let out = receiver.finish(deadline);
    let line = out.lines().find(|l| l.starts_with("received")).unwrap();
    assert_eq!(field(line, "received"), BROADCAST_COUNT, "{out}");
    assert_eq!(field(line, "lapped"), 0, "{out}");
    assert_eq!(field(line, "overrun"), 0, "{out}");
    assert_eq!(field(line, "last"), BROADCAST_COUNT - 1, "{out}");
    eprintln!("Aeron C: {line}");
}

/// (d') As (d) through a small ring the stream wraps many times (padding records at the end
/// of the area), our transmitter paced by the Aeron C receiver's position, which it prints
/// every `PACE_EVERY` messages: never more than half a capacity ahead, so no lap can happen:
/// every message, in order.
#[test]
fn rust_transmitter_wrapping_into_the_aeron_c_receiver() {
    let Some(harness) = harness_or_skip("rust_transmitter_wrapping_into_the_aeron_c_receiver")
    else {
        return;
    };
    let deadline = Instant::now() + DEADLINE;
    let path = TempPath::new("broadcast-wrap-out");
    let ring = BroadcastRing::create(&path.0, WRAP_CAPACITY).unwrap();
    let count = BROADCAST_COUNT.to_string();
    let mut receiver = Peer::spawn(harness, &["broadcast-receive", path.arg(), &count, "paced"]);
    let ready = receiver.wait_for_line("ready", deadline);
    assert_eq!(field(&ready, "position"), 0, "{ready}");
    let mut transmitter = ring.transmitter().unwrap();
    let pattern = Pattern::new(MAX_SIZE);
    let mut buf = [0u8; MAX_SIZE];
    let mut acked = 0i64;
    for i in 0..BROADCAST_COUNT {
        while transmitter.position() - acked > WRAP_CAPACITY as i64 / 2 {
            let line = receiver.wait_for_line("at ", deadline);
            acked = line["at ".len()..]
                .parse()
                .unwrap_or_else(|_| panic!("a position: {line:?}"));
        }
        let type_id = bcast_type(i);
        let size = msg_size(i, type_id);
        pattern.fill_len(i, &mut buf[..size]);
        transmitter.transmit(type_id, &buf[..size]).unwrap();
    }
    assert!(transmitter.position() > 4 * WRAP_CAPACITY as i64, "wrapped");
    let out = receiver.finish(deadline);
    let line = out.lines().find(|l| l.starts_with("received")).unwrap();
    assert_eq!(field(line, "received"), BROADCAST_COUNT, "{out}");
    assert_eq!(field(line, "lapped"), 0, "{out}");
    assert_eq!(field(line, "overrun"), 0, "{out}");
    assert_eq!(field(line, "last"), BROADCAST_COUNT - 1, "{out}");
    eprintln!("Aeron C: {line}");
}
