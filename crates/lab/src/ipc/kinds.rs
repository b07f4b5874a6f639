//! Throughput on the other ring kinds (`mpsc`, `mpsc-mixed`, `broadcast`): several peer
//! processes around one ring file.
//!
//! - many-to-one: `producers` producer processes ([`MpscProduceTask`]), producer `t` writing
//!   its share of `count` pattern messages as type `t + 1`; a pinned thread of this process
//!   consumes and verifies every stream in order, timed from the first message to the last.
//! - broadcast: one transmitter process ([`TransmitTask`]) and `receivers` receivers: a pinned
//!   thread of this process and `receivers - 1` receiver processes ([`ReceiveTask`]), each
//!   verifying every message in order, each timed from its first message to its last. The
//!   ring holds the whole run (the transmitter never waits), so no receiver can be lapped; a
//!   lap fails the run.
//!
//! Every peer starts the same way: it pins itself, opens the ring (a receiver joins it), prints
//! `ready` on its standard output and waits for a `go` line on its standard input; this process
//! sends `go` to all of them at once from its pinned thread, so the producers start together and
//! none is timed alone. A receiver process prints `elapsed_ns=N` when done. The Java sidecar's
//! `run ipc-peer mpsc-producer|transmitter|receiver` peers keep the same protocol.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use sympathy_harness::catalog::Language;
use sympathy_harness::pin::pin_current_thread;
use sympathy_ring::layout::{BROADCAST_TRAILER_LENGTH, Kind};
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{BroadcastRing, ManyToOneConsumer, ManyToOneRing, Receiver, RingError, Role};

use super::{Case, MpscProduceTask, ReceiveTask, TransmitTask, Variant};
use crate::peer::{PeerError, PeerLauncher, PeerRun, PeerTask, Progress, scratch_ring};

/// How long a ring may stay full, or empty with a writer alive, before a run fails.
const NO_PROGRESS_LIMIT: Duration = Duration::from_secs(120);

/// Idle polls between two rounds of slow checks.
const CHECK_EVERY: u32 = 1 << 16;

/// One many-to-one or broadcast run of `case` on a fresh ring: returns the messages per second
/// the result reports (the consumer's; the slowest receiver's) and a note for the human line
/// (each receiver's rate).
///
/// # Errors
/// The ring or a peer cannot be made, a message is wrong, a receiver was lapped, or a peer
/// fails or goes away.
pub fn measure_kind(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
) -> Result<(f64, String), PeerError> {
    if case.variant == Variant::Broadcast {
        let rates = measure_broadcast(case, cores, launcher)?;
        let slowest = rates.iter().copied().fold(f64::INFINITY, f64::min);
        let each: Vec<String> = rates
            .iter()
            .map(|r| sympathy_harness::format::value(*r))
            .collect();
        let note = if rates.len() > 1 {
            format!(" (slowest of receivers {})", each.join(", "))
        } else {
            String::new()
        };
        Ok((slowest, note))
    } else {
        Ok((measure_many_to_one(case, cores, launcher)?, String::new()))
    }
}

/// `count` split over `parts` producers as evenly as it goes (the first ones one more).
pub fn split_count(count: u64, parts: usize) -> Vec<u64> {
    let parts = parts.max(1) as u64;
    (0..parts)
        .map(|t| count / parts + u64::from(t < count % parts))
        .collect()
}

fn measure_many_to_one(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
) -> Result<f64, PeerError> {
    let scratch = scratch_ring("mpsc");
    let ring = ManyToOneRing::create(scratch.path(), case.capacity)?;
    let mut consumer = ring.consumer()?;
    let languages = case.producer_languages();
    let counts = split_count(case.messages, languages.len());
    let mut peers = Peers::default();
    for (t, (&language, &count)) in languages.iter().zip(&counts).enumerate() {
        let task = MpscProduceTask {
            ring: scratch.path().to_path_buf(),
            size: case.size_bytes,
            type_id: t as i32 + 1,
            run: PeerRun {
                count,
                core: cores.0,
            },
        };
        peers.start(launcher, language, &task, format!("producer {}", t + 1))?;
    }
    peers.await_ready()?;
    let seconds = on_pinned_thread(cores.1, "consumer", || {
        peers.go()?;
        consume_streams(&mut consumer, case.size_bytes, &counts, &mut peers)
    })?;
    peers.finish()?;
    Ok((case.messages - 1) as f64 / seconds)
}

/// Reads and verifies every producer's stream in order (type `t + 1` carries stream `t`'s
/// pattern indices 0, 1, ...) until each has sent its count; returns the seconds from the
/// first message to the last.
fn consume_streams(
    consumer: &mut ManyToOneConsumer,
    size: usize,
    counts: &[u64],
    peers: &mut Peers,
) -> Result<f64, PeerError> {
    let pattern = Pattern::new(size);
    let total: u64 = counts.iter().sum();
    let mut next = vec![0u64; counts.len()];
    let mut received = 0u64;
    let mut first = None;
    let mut bad: Option<String> = None;
    let mut watch = Watch::new("producers", total);
    while received < total {
        let n = consumer.read(
            |type_id, bytes| {
                let stream = usize::try_from(type_id - 1)
                    .ok()
                    .filter(|&t| t < counts.len());
                match stream {
                    Some(t) => {
                        if let Err(m) = pattern.check(next[t], bytes) {
                            bad.get_or_insert_with(|| {
                                format!("message {} of producer {type_id}: {m}", next[t])
                            });
                        }
                        next[t] += 1;
                    }
                    None => {
                        bad.get_or_insert_with(|| {
                            format!("a message of type {type_id}, from no producer")
                        });
                    }
                }
                received += 1;
            },
            1 << 16,
        )?;
        if n > 0 {
            if first.is_none() {
                first = Some(Instant::now());
            }
            if bad.is_some() {
                break;
            }
            continue;
        }
        if watch.idle(received) {
            consumer.heartbeat();
            watch.check(received, peers)?;
        }
    }
    let seconds = first.map_or(0.0, |t| t.elapsed().as_secs_f64());
    if let Some(m) = bad {
        return Err(PeerError::Mismatch(m));
    }
    if let Some(t) = (0..counts.len()).find(|&t| next[t] != counts[t]) {
        return Err(PeerError::Mismatch(format!(
            "producer {} sent {} messages, expected {}",
            t + 1,
            next[t],
            counts[t]
        )));
    }
    if consumer.unblocked() > 0 {
        return Err(PeerError::Peer(format!(
            "{} claims were unblocked (a producer stalled inside one)",
            consumer.unblocked()
        )));
    }
    Ok(seconds.max(1e-9))
}

/// The receivers' messages per second (this process's first, then each receiver process's).
fn measure_broadcast(
    case: &Case,
    cores: (usize, usize),
    launcher: &dyn PeerLauncher,
) -> Result<Vec<f64>, PeerError> {
    let scratch = scratch_ring("broadcast");
    let ring = BroadcastRing::create(scratch.path(), case.capacity)?;
    prefault(scratch.path(), case.capacity)?;
    let mut receiver = ring.receiver()?;
    let mut peers = Peers::default();
    for r in 1..case.peers {
        let task = ReceiveTask {
            ring: scratch.path().to_path_buf(),
            size: case.size_bytes,
            run: PeerRun {
                count: case.messages,
                core: cores.1,
            },
        };
        peers.start(
            launcher,
            case.consumer,
            &task,
            format!("receiver {}", r + 1),
        )?;
    }
    let task = TransmitTask {
        ring: scratch.path().to_path_buf(),
        size: case.size_bytes,
        run: PeerRun {
            count: case.messages,
            core: cores.0,
        },
    };
    peers.start(launcher, case.producer, &task, "transmitter".to_string())?;
    peers.await_ready()?;
    let seconds = on_pinned_thread(cores.1, "receiver", || {
        peers.go()?;
        let mut watch = Watch::new("transmitter", case.messages);
        receive_all(&mut receiver, case.size_bytes, case.messages, |received| {
            watch.check(received, &mut peers)
        })
    })?;
    let outputs = peers.finish()?;
    let intervals = (case.messages - 1) as f64;
    let mut rates = vec![intervals / seconds];
    for (role, out) in outputs
        .iter()
        .filter(|(role, _)| role.starts_with("receiver"))
    {
        let nanos = out
            .lines()
            .find_map(|l| l.strip_prefix("elapsed_ns="))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .ok_or_else(|| PeerError::Peer(format!("the {role} printed no elapsed_ns= line")))?;
        rates.push(intervals / (nanos.max(1) as f64 / 1e9));
    }
    Ok(rates)
}

/// Allocates the ring file's record area up front (writes its zeros through the file), so that
/// the run's first touches of a 64 MiB ring are minor faults, not page allocations: only while
/// nothing writes the ring yet.
fn prefault(path: &Path, capacity: usize) -> Result<(), PeerError> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    let start = Kind::Broadcast.file_length(capacity) - capacity - BROADCAST_TRAILER_LENGTH;
    let zeros = vec![0u8; (1 << 20).min(capacity)];
    let mut at = 0;
    while at < capacity {
        let n = zeros.len().min(capacity - at);
        file.write_all_at(&zeros[..n], (start + at) as u64)?;
        at += n;
    }
    Ok(())
}

/// Receives and verifies `count` messages (pattern indices 0, 1, ... in order) from a receiver
/// that joined before the first; returns the seconds from the first message to the last.
/// `check(received)` runs every [`CHECK_EVERY`] empty polls (a watch on the transmitter).
fn receive_all(
    receiver: &mut Receiver,
    size: usize,
    count: u64,
    mut check: impl FnMut(u64) -> Result<(), PeerError>,
) -> Result<f64, PeerError> {
    let pattern = Pattern::new(size);
    let mut next = 0u64;
    let mut first = None;
    let mut idle = 0u32;
    while next < count {
        let got =
            receiver.receive(|_, bytes| pattern.check(next, bytes).map_err(|m| m.to_string()))?;
        if receiver.lapped_count() > 0 {
            return Err(PeerError::Peer(format!(
                "the receiver was lapped after {next} of {count} messages: the run must fit in \
                 half the ring (a larger --capacity or a smaller --count)"
            )));
        }
        match got {
            Some(Ok(())) => {
                if first.is_none() {
                    first = Some(Instant::now());
                }
                next += 1;
            }
            Some(Err(m)) => return Err(PeerError::Mismatch(format!("message {next}: {m}"))),
            None => {
                idle = idle.wrapping_add(1);
                if idle.is_multiple_of(CHECK_EVERY) {
                    check(next)?;
                }
                std::hint::spin_loop();
            }
        }
    }
    Ok(first.map_or(0.0, |t| t.elapsed().as_secs_f64()).max(1e-9))
}

/// Runs `work` on a thread pinned to `core` and returns its result (the calling thread stays
/// unpinned, so the peers it started keep their own affinity).
fn on_pinned_thread<T: Send>(
    core: usize,
    role: &str,
    work: impl FnOnce() -> Result<T, PeerError> + Send,
) -> Result<T, PeerError> {
    std::thread::scope(|s| {
        s.spawn(|| {
            pin_current_thread(core)?;
            work()
        })
        .join()
        .unwrap_or_else(|_| Err(PeerError::Peer(format!("the {role} thread panicked"))))
    })
}

/// A reader's watch on its writers while nothing comes: every [`CHECK_EVERY`] empty polls
/// ([`Watch::idle`]), [`Watch::check`] fails when a writer process failed, when every writer
/// exited before the last message, or when nothing came for [`NO_PROGRESS_LIMIT`].
struct Watch {
    idle: u32,
    exited: bool,
    progress: Progress,
    writers: &'static str,
    count: u64,
}

impl Watch {
    fn new(writers: &'static str, count: u64) -> Watch {
        Watch {
            idle: 0,
            exited: false,
            progress: Progress::new(),
            writers,
            count,
        }
    }

    /// One empty poll; true when the slow checks are due.
    #[inline]
    fn idle(&mut self, _received: u64) -> bool {
        self.idle = self.idle.wrapping_add(1);
        std::hint::spin_loop();
        self.idle.is_multiple_of(CHECK_EVERY)
    }

    #[cold]
    fn check(&mut self, received: u64, peers: &mut Peers) -> Result<(), PeerError> {
        let count = self.count;
        if peers.all_exited()? {
            // One round of checks after seeing them exit: nothing more is coming.
            if self.exited {
                return Err(PeerError::Peer(format!(
                    "the {} exited after {received} of {count} messages",
                    self.writers
                )));
            }
            self.exited = true;
        }
        if self.progress.stalled(received, NO_PROGRESS_LIMIT) {
            return Err(PeerError::Peer(format!(
                "the {} sent nothing for {NO_PROGRESS_LIMIT:?} ({received} of {count} messages \
                 received)",
                self.writers
            )));
        }
        Ok(())
    }
}

/// One peer process: its role (`producer 2`, `transmitter`), standard input and output.
struct Peer {
    role: String,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    done: bool,
}

/// The peer processes of one run; those not finished are killed when dropped, so that no peer
/// outlives a failed measurement.
#[derive(Default)]
struct Peers(Vec<Peer>);

impl Peers {
    /// Starts `task` in a `language` process with piped standard input and output.
    fn start(
        &mut self,
        launcher: &dyn PeerLauncher,
        language: Language,
        task: &dyn PeerTask,
        role: String,
    ) -> Result<(), PeerError> {
        let mut command = launcher.command(language, task)?;
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        let mut child = command.spawn().map_err(|e| {
            PeerError::Peer(format!(
                "cannot start the {} {role} process ({command:?}): {e}",
                language.name()
            ))
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(PeerError::Peer(format!("the {role} process has no pipes")));
        };
        self.0.push(Peer {
            role,
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            done: false,
        });
        Ok(())
    }

    /// Waits for every peer's `ready` line.
    fn await_ready(&mut self) -> Result<(), PeerError> {
        for peer in &mut self.0 {
            let mut line = String::new();
            loop {
                line.clear();
                if peer.stdout.read_line(&mut line)? == 0 {
                    let status = peer.child.wait()?;
                    peer.done = true;
                    return Err(PeerError::Peer(format!(
                        "the {} process exited before it was ready ({status}; its message is above)",
                        peer.role
                    )));
                }
                if line.trim() == "ready" {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Tells every peer to start.
    fn go(&mut self) -> Result<(), PeerError> {
        for peer in &mut self.0 {
            if let Some(mut stdin) = peer.stdin.take() {
                stdin.write_all(b"go\n")?;
                stdin.flush()?;
            }
        }
        Ok(())
    }

    /// Whether every peer has exited; an error when one failed.
    fn all_exited(&mut self) -> Result<bool, PeerError> {
        let mut all = true;
        for peer in &mut self.0 {
            match peer.child.try_wait()? {
                Some(status) if !status.success() => {
                    peer.done = true;
                    return Err(PeerError::Peer(format!(
                        "the {} process failed ({status}; its message is above)",
                        peer.role
                    )));
                }
                Some(_) => {}
                None => all = false,
            }
        }
        Ok(all)
    }

    /// Waits for every peer; returns each one's role and the rest of its standard output.
    fn finish(&mut self) -> Result<Vec<(String, String)>, PeerError> {
        let mut outputs = Vec::new();
        for peer in &mut self.0 {
            let mut out = String::new();
            peer.stdout.read_to_string(&mut out)?;
            let status = peer.child.wait()?;
            peer.done = true;
            if !status.success() {
                return Err(PeerError::Peer(format!(
                    "the {} process failed ({status}; its message is above)",
                    peer.role
                )));
            }
            outputs.push((peer.role.clone(), out));
        }
        Ok(outputs)
    }
}

impl Drop for Peers {
    fn drop(&mut self) {
        for peer in self.0.iter_mut().filter(|p| !p.done) {
            let _ = peer.child.kill();
            let _ = peer.child.wait();
        }
    }
}

/// A peer's start: `ready` on standard output, then wait for the `go` line on standard input.
///
/// # Errors
/// Standard input closed without `go` (the measuring process gave up).
fn ready_then_go() -> Result<(), PeerError> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")?;
    out.flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    if line.trim() != "go" {
        return Err(PeerError::Peer(
            "the measuring process called the run off before `go`".into(),
        ));
    }
    Ok(())
}

/// The Rust producer process of a many-to-one run: pins itself, opens the ring, waits for `go`,
/// writes its `count` pattern messages as its type, waiting while the ring is full.
///
/// # Errors
/// Pinning or opening fails, the consumer goes away, or the ring stays full too long.
pub fn mpsc_produce_in_peer(task: &MpscProduceTask) -> Result<(), PeerError> {
    pin_current_thread(task.run.core)?;
    let ring = ManyToOneRing::open(&task.ring)?;
    let mut producer = ring.producer();
    let pattern = Pattern::new(task.size);
    let mut buf = vec![0u8; task.size];
    ready_then_go()?;
    let mut idle = 0u32;
    let mut progress = Progress::new();
    for i in 0..task.run.count {
        pattern.fill(i, &mut buf);
        loop {
            match producer.try_write(task.type_id, &buf) {
                Ok(()) => break,
                Err(RingError::Full { .. }) => {
                    idle = idle.wrapping_add(1);
                    if idle.is_multiple_of(CHECK_EVERY) {
                        if let Some(e) = RingError::peer_gone(ring.consumer_state(), Role::Consumer)
                        {
                            return Err(e.into());
                        }
                        if progress.stalled(i, NO_PROGRESS_LIMIT) {
                            return Err(PeerError::Peer(format!(
                                "the ring stayed full for {NO_PROGRESS_LIMIT:?} (consumer stuck?)"
                            )));
                        }
                    }
                    std::hint::spin_loop();
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// The Rust transmitter process of a broadcast run: pins itself, opens the ring, waits for
/// `go`, transmits its `count` pattern messages (never waiting).
///
/// # Errors
/// Pinning, opening or attaching fails.
pub fn transmit_in_peer(task: &TransmitTask) -> Result<(), PeerError> {
    pin_current_thread(task.run.core)?;
    let ring = BroadcastRing::open(&task.ring)?;
    let mut transmitter = ring.transmitter()?;
    let pattern = Pattern::new(task.size);
    let mut buf = vec![0u8; task.size];
    ready_then_go()?;
    for i in 0..task.run.count {
        pattern.fill(i, &mut buf);
        transmitter.transmit(1, &buf)?;
    }
    Ok(())
}

/// A Rust receiver process of a broadcast run: pins itself, joins the ring (before the first
/// message), waits for `go`, receives and verifies `count` messages, prints `elapsed_ns=N`
/// (its first message to its last).
///
/// # Errors
/// Pinning or opening fails, it joined after the first message, a message is wrong, it was
/// lapped, or the transmitter goes away.
pub fn receive_in_peer(task: &ReceiveTask) -> Result<(), PeerError> {
    pin_current_thread(task.run.core)?;
    let ring = BroadcastRing::open(&task.ring)?;
    let mut receiver = ring.receiver()?;
    if receiver.position() != 0 {
        return Err(PeerError::Peer(format!(
            "the receiver joined at position {}, after the first message",
            receiver.position()
        )));
    }
    ready_then_go()?;
    let mut progress = Progress::new();
    let count = task.run.count;
    let seconds = receive_all(&mut receiver, task.size, count, |received| {
        // Before the first message the transmitter may still be attaching.
        if received > 0
            && let Some(e) = RingError::peer_gone(ring.transmitter_state(), Role::Producer)
        {
            return Err(e.into());
        }
        if progress.stalled(received, NO_PROGRESS_LIMIT) {
            return Err(PeerError::Peer(format!(
                "the transmitter sent nothing for {NO_PROGRESS_LIMIT:?} ({received} of {count} \
                 messages received)"
            )));
        }
        Ok(())
    })?;
    println!("elapsed_ns={}", (seconds * 1e9) as u64);
    Ok(())
}
