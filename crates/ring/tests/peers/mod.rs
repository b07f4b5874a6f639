//! Producer and consumer child processes for the crash and soak tests: the test binary re-runs
//! itself (`peer_child`) with `SYMPATHY_RING_PEER` set to `role,path,epoch,count`.
//!
//! Messages verify themselves: the first 8 bytes of every payload are its key
//! `epoch << 40 | seq`, its size is a function of the key, and every byte follows
//! [`Pattern`]. A reader can check any message it is handed without knowing where it starts.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Consumer, Producer, Ring, RingError, Role, Wait};

pub const PEER_ENV: &str = "SYMPATHY_RING_PEER";
/// Capacity of the rings in these tests: small, so the producer wraps constantly.
pub const CAPACITY: usize = 4096;

/// The key of message `seq` of producer epoch `epoch`.
pub fn key(epoch: u64, seq: u64) -> u64 {
    (epoch << 40) | seq
}

/// The payload size of the message with this key: 8..=max, spread by a hash.
pub fn size_of(key: u64, max: usize) -> usize {
    let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    8 + (h as usize % (max - 7))
}

/// Checks one delivered message; returns its key.
pub fn verify(type_id: i32, bytes: &[u8], max: usize) -> Result<u64, String> {
    if bytes.len() < 8 {
        return Err(format!(
            "message of {} bytes, shorter than its key",
            bytes.len()
        ));
    }
    let key = u64::from_le_bytes(bytes[..8].try_into().unwrap());
    let (epoch, seq) = (key >> 40, key & ((1 << 40) - 1));
    if type_id as u64 != epoch {
        return Err(format!(
            "type {type_id} but key {key:#x} (epoch {epoch}, seq {seq})"
        ));
    }
    if bytes.len() != size_of(key, max) {
        return Err(format!(
            "message {epoch}/{seq}: {} bytes, expected {}",
            bytes.len(),
            size_of(key, max)
        ));
    }
    Pattern::new(bytes.len())
        .check(key, bytes)
        .map_err(|m| format!("message {epoch}/{seq} torn: {m}"))?;
    Ok(key)
}

/// Spin-loop iterations between two 16-byte pieces of a claim: the crash tests' producer
/// dawdles inside claims so that kills land there often.
pub static CLAIM_SPINS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Writes messages `first..first + count` of `epoch`, mixing copies, claims filled slowly
/// (to be killed inside them) and batches. Returns the next seq.
pub fn produce(
    producer: &mut Producer,
    epoch: u64,
    first: u64,
    count: u64,
    wait: &Wait,
) -> Result<u64, RingError> {
    let max = producer.max_message_length();
    let mut buf = vec![0u8; max];
    let mut seq = first;
    let end = first.saturating_add(count);
    while seq < end {
        let k = key(epoch, seq);
        let size = size_of(k, max);
        match seq % 4 {
            0 | 1 => {
                Pattern::new(size).fill(k, &mut buf[..size]);
                // Not `Producer::write`: it waits out a consumer that is gone (a new one may
                // come) until its timeout; these tests want the survivor to notice at once.
                wait.until("room in the ring", || {
                    match producer.try_write(epoch as i32, &buf[..size]) {
                        Ok(()) => Ok(Some(())),
                        Err(e) if e.is_full() => {
                            RingError::peer_gone(producer.peer(), Role::Consumer)
                                .map_or(Ok(None), Err)
                        }
                        Err(e) => Err(e),
                    }
                })?;
                seq += 1;
            }
            2 => {
                let full = match producer.try_claim(epoch as i32, size) {
                    Ok(mut claim) => {
                        // Fill in pieces, slowly: a kill lands inside a claim often.
                        let mut whole = vec![0u8; size];
                        Pattern::new(size).fill(k, &mut whole);
                        let spins = CLAIM_SPINS.load(std::sync::atomic::Ordering::Relaxed);
                        for (dst, src) in claim.chunks_mut(16).zip(whole.chunks(16)) {
                            dst.copy_from_slice(src);
                            for _ in 0..spins {
                                std::hint::spin_loop();
                            }
                        }
                        claim.commit();
                        seq += 1;
                        false
                    }
                    Err(e) if e.is_full() => true,
                    Err(e) => return Err(e),
                };
                if full {
                    if let Some(dead) = RingError::peer_gone(producer.peer(), Role::Consumer) {
                        return Err(dead);
                    }
                    std::thread::yield_now();
                }
            }
            _ => {
                let mut batch = producer.batch();
                while seq < end && batch.len() < 8 {
                    let k = key(epoch, seq);
                    let size = size_of(k, max);
                    Pattern::new(size).fill(k, &mut buf[..size]);
                    if batch.try_write(epoch as i32, &buf[..size]).is_err() {
                        break;
                    }
                    seq += 1;
                }
                if batch.finish() == 0 {
                    if let Some(dead) = RingError::peer_gone(producer.peer(), Role::Consumer) {
                        return Err(dead);
                    }
                    std::thread::yield_now();
                }
            }
        }
    }
    Ok(seq)
}

/// Tracks the keys a consumer is handed: per epoch, seqs are contiguous; a new epoch (a
/// producer that took over) starts anywhere at or after 0 only if `resume_anywhere`.
#[derive(Debug, Default)]
pub struct Checker {
    /// The key expected next, once known.
    pub next: Option<u64>,
    /// Messages verified.
    pub messages: u64,
    /// Payload bytes verified.
    pub bytes: u64,
}

impl Checker {
    /// Checks one message: whole, untorn, and in sequence within its epoch; a higher epoch
    /// starts at seq 0.
    pub fn check(&mut self, type_id: i32, bytes: &[u8], max: usize) -> Result<(), String> {
        let key = verify(type_id, bytes, max)?;
        if let Some(next) = self.next {
            let new_epoch = key >> 40 > next >> 40 && key & ((1 << 40) - 1) == 0;
            if key != next && !new_epoch {
                return Err(format!("expected key {next:#x}, got {key:#x}"));
            }
        }
        self.next = Some(key + 1);
        self.messages += 1;
        self.bytes += bytes.len() as u64;
        Ok(())
    }
}

/// Reads until `until` says stop or the producer is gone (PeerDead/detached) and the ring is
/// drained; every message checked.
pub fn consume(
    consumer: &mut Consumer,
    checker: &mut Checker,
    max: usize,
    limit: u64,
    wait: &Wait,
) -> Result<(), RingError> {
    let mut failure = None;
    while checker.messages < limit {
        consumer.read_wait(
            |t, b| {
                if failure.is_none()
                    && let Err(e) = checker.check(t, b, max)
                {
                    failure = Some(e);
                }
            },
            64,
            wait,
        )?;
        if let Some(f) = failure.take() {
            panic!("consumer: {f}");
        }
    }
    Ok(())
}

/// Spawns this test binary as a peer.
pub fn spawn(role: &str, path: &Path, epoch: u64, count: u64) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "peer_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
            "--include-ignored",
        ])
        .env(
            PEER_ENV,
            format!("{role},{},{epoch},{count}", path.display()),
        )
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The child's body (called from each test binary's `peer_child` test).
pub fn child_main() {
    let Ok(spec) = std::env::var(PEER_ENV) else {
        return;
    };
    let parts: Vec<&str> = spec.split(',').collect();
    let (role, path) = (parts[0], parts[1]);
    let epoch: u64 = parts[2].parse().unwrap();
    let count: u64 = parts[3].parse().unwrap();
    let ring = Ring::open(path).unwrap();
    let max = ring.max_message_length();
    let wait = Wait::spin_then_yield().timeout(Duration::from_secs(30));
    match role {
        "produce" => {
            CLAIM_SPINS.store(2_000, std::sync::atomic::Ordering::Relaxed);
            let mut producer = ring.producer().unwrap();
            let end = produce(&mut producer, epoch, 0, count, &wait).unwrap();
            println!("produced {end}");
        }
        "produce-for-ms" => {
            // Produce until `count` ms have passed, then detach: the consumer drains and stops.
            let mut producer = ring.producer().unwrap();
            let start = std::time::Instant::now();
            let mut seq = 0;
            while start.elapsed() < Duration::from_millis(count) {
                seq = produce(&mut producer, epoch, seq, 256, &wait).unwrap();
            }
            println!("produced {seq}");
        }
        "consume" => {
            let mut consumer = ring.consumer().unwrap();
            let mut checker = Checker::default();
            match consume(&mut consumer, &mut checker, max, count, &wait) {
                Ok(()) | Err(RingError::PeerDead { .. }) => {}
                Err(e) => panic!("consumer: {e}"),
            }
            println!(
                "verified {} messages {} bytes",
                checker.messages, checker.bytes
            );
        }
        _ => panic!("unknown role {role}"),
    }
    std::process::exit(0);
}

/// Resident memory of a process in KiB (`VmRSS` in /proc), if it still runs.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Sends SIGKILL (`Child::kill` on Unix) and reaps the child; panics if it had already
/// exited on its own (a child that found a bad message exits with a panic before the kill).
pub fn kill9(child: &mut Child) {
    use std::os::unix::process::ExitStatusExt;
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        status.signal(),
        Some(9),
        "child {} ended by itself: {status}",
        child.id()
    );
}
