//! What a side can tell about its peer, with real processes: a stopped peer is stale and waited
//! for, never dead; a zombie is dead and its role can be taken over; a foreign peer that writes
//! only the Agrona ring region (no pid) is alive; a reused ring's old departure does not end a
//! new consumer's wait; a producer on a full ring outlives its consumer until a new one drains.
//! The test binary re-runs itself (`liveness_child`) as the peer process.

mod common;

use std::os::unix::fs::FileExt;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use common::TempPath;
use memmap2::MmapMut;
use sympathy_ring::layout::*;
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{PeerState, Ring, RingError, Role, Wait, now_ms, pid_alive};

const CHILD_ENV: &str = "SYMPATHY_RING_LIVENESS_CHILD";
const CAPACITY: usize = 4096;
const SIZE: usize = 16;
/// The stale limit of these tests: short, so that a stopped peer turns stale quickly.
const STALE: Duration = Duration::from_millis(100);

/// The child's body, when the parent starts this binary with CHILD_ENV = `role,path,count`.
/// - `produce-halves`: writes `count / 2` messages, waits for the file `path.go`, writes the
///   rest, detaches.
/// - `consume-forever`: reads and checks messages until killed.
#[test]
#[cfg_attr(miri, ignore = "a child process of the liveness tests")]
fn liveness_child() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let parts: Vec<&str> = spec.split(',').collect();
    let (role, path, count) = (parts[0], parts[1], parts[2].parse::<u64>().unwrap());
    let ring = Ring::open(path).unwrap();
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    match role {
        "produce-halves" => {
            let mut producer = ring.producer().unwrap();
            let mut buf = [0u8; SIZE];
            for i in 0..count {
                if i == count / 2 {
                    let go = format!("{path}.go");
                    while !Path::new(&go).exists() {
                        producer.heartbeat();
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
                Pattern::new(SIZE).fill(i, &mut buf);
                producer.write(1, &buf, &wait).unwrap();
            }
        }
        "consume-forever" => {
            let mut consumer = ring.consumer().unwrap();
            let mut next = 0u64;
            loop {
                consumer
                    .read_wait(
                        |_, bytes| {
                            Pattern::new(SIZE).check(next, bytes).unwrap();
                            next += 1;
                        },
                        4,
                        &wait,
                    )
                    .unwrap();
                std::thread::sleep(Duration::from_micros(200)); // a slow consumer
            }
        }
        _ => panic!("unknown role {role}"),
    }
}

/// A child process that is killed and reaped when the test ends, also when it fails (a stopped
/// child left behind would hold the test harness's output open).
struct Peer(Child);

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(role: &str, path: &Path, count: u64) -> Peer {
    Peer(
        Command::new(std::env::current_exe().unwrap())
            .args([
                "liveness_child",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, format!("{role},{},{count}", path.display()))
            .spawn()
            .unwrap(),
    )
}

/// The state letter of `/proc/<pid>/stat` (`S`, `T`, `Z`, ...).
fn proc_state(pid: u32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 1..];
    after.trim_start().chars().next().unwrap()
}

/// Sends `signal` to `child` and waits until its state letter says it took effect.
fn signal(child: &Child, signal: i32, until: impl Fn(char) -> bool) {
    // SAFETY: kill has no memory preconditions; the pid is our own unreaped child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    while !until(proc_state(child.id())) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Returns once the clock has moved past `t` (so that a time stored now differs from `t`).
fn after_ms(t: i64) {
    while now_ms() <= t {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn patch(path: &Path, offset: usize, bytes: &[u8]) {
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.write_all_at(bytes, offset as u64).unwrap();
}

/// A pid that cannot exist (above the kernel's pid_max limit of 2^22).
const NO_SUCH_PID: i32 = (1 << 30) - 7;

fn message(i: u64) -> [u8; SIZE] {
    let mut buf = [0u8; SIZE];
    Pattern::new(SIZE).fill(i, &mut buf);
    buf
}

#[test]
#[cfg_attr(miri, ignore = "spawns and stops processes")]
fn a_stopped_producer_is_stale_and_its_consumer_waits_until_it_resumes() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let path = TempPath::new("stopped-producer");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    let mut consumer = ring.consumer().unwrap();
    consumer.set_stale_limit(STALE);
    let mut peer = spawn("produce-halves", &path.0, 100);
    let child = &mut peer.0;
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    let mut next = 0u64;
    let mut take = |type_id: i32, bytes: &[u8]| {
        assert_eq!(type_id, 1);
        Pattern::new(SIZE).check(next, bytes).unwrap();
        next += 1;
    };
    let mut received = 0;
    while received < 50 {
        received += consumer.read_wait(&mut take, 64, &wait).unwrap();
    }
    signal(child, libc::SIGSTOP, |s| s == 'T');
    while !matches!(consumer.peer(), PeerState::Stale { .. }) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = child.id() as i32;
    assert!(matches!(
        ring.peer_with_stale_limit(Role::Producer, STALE),
        PeerState::Stale { pid: p, .. } if p == pid
    ));
    // A stopped producer is waited for, up to the consumer's own timeout (spinning: many polls,
    // so the consumer looks at its producer well before it).
    let short = Wait::spin_then_yield().timeout(Duration::from_millis(300));
    match consumer.read_wait(&mut take, 64, &short) {
        Err(RingError::Timeout { .. }) => {}
        other => panic!("a stale producer must be waited for, got {other:?}"),
    }
    signal(child, libc::SIGCONT, |s| s != 'T');
    std::fs::write(format!("{}.go", path.0.display()), b"").unwrap();
    while received < 100 {
        received += consumer.read_wait(&mut take, 64, &wait).unwrap();
    }
    assert!(child.wait().unwrap().success());
    let _ = std::fs::remove_file(format!("{}.go", path.0.display()));
    match consumer.read_wait(&mut take, 64, &wait) {
        Err(RingError::PeerDead { pid: 0, .. }) => {}
        other => panic!("the producer detached after its last message: {other:?}"),
    }
}

#[test]
#[cfg_attr(miri, ignore = "spawns and stops processes")]
fn a_stopped_consumer_is_stale_and_its_producer_waits_until_it_resumes() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let path = TempPath::new("stopped-consumer");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    let mut producer = ring.producer().unwrap();
    producer.set_stale_limit(STALE);
    let peer = spawn("consume-forever", &path.0, 0);
    let child = &peer.0;
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    // More than the ring holds: the consumer has attached and read by the end.
    for i in 0..300 {
        producer.write(1, &message(i), &wait).unwrap();
    }
    signal(child, libc::SIGSTOP, |s| s == 'T');
    let short = Wait::backoff().timeout(Duration::from_millis(300));
    let mut i = 300;
    let err = loop {
        match producer.write(1, &message(i), &short) {
            Ok(()) => i += 1,
            Err(e) => break e,
        }
    };
    assert!(matches!(err, RingError::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("stale"), "{err}");
    assert!(matches!(producer.peer(), PeerState::Stale { pid, .. } if pid == child.id() as i32));
    signal(child, libc::SIGCONT, |s| s != 'T');
    for i in i..i + 1000 {
        producer.write(1, &message(i), &wait).unwrap();
    }
}

#[test]
#[cfg_attr(miri, ignore = "spawns processes")]
fn a_zombie_is_dead_and_its_role_is_taken_over() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let mut zombie = Command::new("true").spawn().unwrap();
    while proc_state(zombie.id()) != 'Z' {
        std::thread::sleep(Duration::from_millis(1));
    }
    let pid = zombie.id() as i32;
    assert!(
        !pid_alive(pid),
        "an exited, unreaped process (a zombie) is not alive"
    );
    let path = TempPath::new("zombie");
    drop(Ring::create(&path.0, CAPACITY).unwrap());
    patch(&path.0, PRODUCER_PID_OFFSET, &pid.to_le_bytes());
    patch(&path.0, PRODUCER_HEARTBEAT_OFFSET, &now_ms().to_le_bytes());
    let ring = Ring::open(&path.0).unwrap();
    assert_eq!(ring.peer(Role::Producer), PeerState::Dead { pid });
    let producer = ring.producer().expect("a zombie's role is taken over");
    assert_eq!(ring.snapshot().producer_pid, std::process::id() as i32);
    drop(producer);
    zombie.wait().unwrap();
}

/// A foreign peer over the same file: only the Agrona ring region, as Agrona's
/// `OneToOneRingBuffer` or Aeron's C ring use it (no pid, no header page).
struct Foreign {
    map: MmapMut,
}

impl Foreign {
    fn over(path: &Path) -> Foreign {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        // SAFETY: a ring file of this test; every shared word is accessed atomically below.
        let map = unsafe { MmapMut::map_mut(&file) }.unwrap();
        assert_eq!(map.len(), file_length(CAPACITY));
        Foreign { map }
    }

    fn word(&self, offset: usize) -> &AtomicI64 {
        assert!(offset.is_multiple_of(8) && offset + 8 <= self.map.len());
        // SAFETY: in bounds and 8-aligned (checked above) in a page-aligned mapping that lives
        // as long as `self`; the peers access these words only atomically.
        unsafe { AtomicI64::from_ptr(self.map.as_ptr().add(offset).cast_mut().cast()) }
    }

    fn trailer(&self, offset: usize) -> &AtomicI64 {
        self.word(HEADER_LENGTH + CAPACITY + offset)
    }

    fn record(&self, index: usize) -> &AtomicI64 {
        self.word(HEADER_LENGTH + index)
    }

    /// Agrona's `consumerHeartbeatTime(now)`.
    fn consumer_heartbeat(&self) {
        self.trailer(CONSUMER_HEARTBEAT_OFFSET)
            .store(now_ms(), Ordering::Release);
    }

    /// Agrona's `read` of one message: returns its payload, or None when none is ready.
    fn read_one(&self) -> Option<Vec<u8>> {
        loop {
            let head = self.trailer(HEAD_POSITION_OFFSET).load(Ordering::Acquire);
            let index = head as usize & (CAPACITY - 1);
            let (length, type_id) = unpack_header(self.record(index).load(Ordering::Acquire));
            if length <= 0 {
                return None;
            }
            let payload = self.map
                [HEADER_LENGTH + index + 8..HEADER_LENGTH + index + length as usize]
                .to_vec();
            self.trailer(HEAD_POSITION_OFFSET).store(
                head + align_record(length as usize) as i64,
                Ordering::Release,
            );
            if type_id != PADDING_MSG_TYPE_ID {
                return Some(payload);
            }
        }
    }

    /// Agrona's `write` of one message that fits before the end of the area (no wrap).
    fn write(&mut self, type_id: i32, payload: &[u8]) {
        let tail = self.trailer(TAIL_POSITION_OFFSET).load(Ordering::Acquire);
        let index = tail as usize & (CAPACITY - 1);
        let aligned = align_record(payload.len() + RECORD_HEADER_LENGTH);
        assert!(index + aligned + 8 <= CAPACITY, "the test writes no wrap");
        self.record(index + aligned).store(0, Ordering::Relaxed);
        let at = HEADER_LENGTH + index + 8;
        self.map[at..at + payload.len()].copy_from_slice(payload);
        let header = pack_header((payload.len() + RECORD_HEADER_LENGTH) as i32, type_id);
        self.record(index).store(header, Ordering::Release);
        self.trailer(TAIL_POSITION_OFFSET)
            .store(tail + aligned as i64, Ordering::Release);
    }
}

#[test]
#[cfg_attr(miri, ignore = "maps a file")]
fn a_producer_never_gives_up_on_an_agrona_only_consumer() {
    let path = TempPath::new("foreign-consumer");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    // A consumer of ours came and went cleanly before.
    let detached = {
        drop(ring.consumer().unwrap());
        ring.snapshot().consumer_detached_ms
    };
    after_ms(detached);
    let foreign = Foreign::over(&path.0);
    foreign.consumer_heartbeat();
    let reader = std::thread::spawn(move || {
        let mut next = 0u64;
        while next < 2_000 {
            match foreign.read_one() {
                Some(bytes) => {
                    Pattern::new(SIZE).check(next, &bytes).unwrap();
                    next += 1;
                }
                None => std::thread::sleep(Duration::from_micros(100)),
            }
            if next.is_multiple_of(64) {
                foreign.consumer_heartbeat();
            }
        }
    });
    let mut producer = ring.producer().unwrap();
    assert!(
        matches!(producer.peer(), PeerState::Alive { pid: 0, .. }),
        "{:?}",
        producer.peer()
    );
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    for i in 0..2_000 {
        producer
            .write(1, &message(i), &wait)
            .unwrap_or_else(|e| panic!("message {i}: {e}"));
    }
    reader.join().unwrap();
}

#[test]
#[cfg_attr(miri, ignore = "maps a file")]
fn a_foreign_consumers_progress_is_a_sign_of_life() {
    let path = TempPath::new("foreign-progress");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    drop(ring.consumer().unwrap());
    after_ms(ring.snapshot().consumer_detached_ms);
    let mut producer = ring.producer().unwrap();
    assert_eq!(producer.peer(), PeerState::Detached);
    producer.try_write(1, &message(0)).unwrap();
    let foreign = Foreign::over(&path.0); // reads, never heartbeats
    assert!(foreign.read_one().is_some());
    assert!(
        matches!(producer.peer(), PeerState::Alive { pid: 0, .. }),
        "the head moved after the last detach: {:?}",
        producer.peer()
    );
}

#[test]
#[cfg_attr(miri, ignore = "maps a file")]
fn a_consumer_reads_an_agrona_only_producer_on_a_reused_ring() {
    let path = TempPath::new("foreign-producer");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    drop(ring.producer().unwrap()); // a producer of ours came and went
    after_ms(ring.snapshot().producer_detached_ms);
    let mut consumer = ring.consumer().unwrap();
    let mut foreign = Foreign::over(&path.0);
    let writer = std::thread::spawn(move || {
        for i in 0..20 {
            foreign.write(1, &message(i));
            std::thread::sleep(Duration::from_millis(15));
        }
    });
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    let mut next = 0u64;
    while next < 20 {
        consumer
            .read_wait(
                |_, bytes| {
                    Pattern::new(SIZE).check(next, bytes).unwrap();
                    next += 1;
                },
                8,
                &wait,
            )
            .unwrap_or_else(|e| panic!("after {next} messages: {e}"));
    }
    writer.join().unwrap();
    assert!(
        matches!(consumer.peer(), PeerState::Alive { pid: 0, .. }),
        "{:?}",
        consumer.peer()
    );
}

#[test]
#[cfg_attr(miri, ignore = "maps a file")]
fn a_consumer_on_a_reused_ring_waits_for_the_new_producer() {
    for previous in ["detached", "died"] {
        let path = TempPath::new("reused");
        let ring = Ring::create(&path.0, CAPACITY).unwrap();
        drop(ring.producer().unwrap());
        if previous == "died" {
            patch(&path.0, PRODUCER_PID_OFFSET, &NO_SUCH_PID.to_le_bytes());
        }
        after_ms(ring.snapshot().producer_detached_ms);
        let mut consumer = ring.consumer().unwrap();
        // Spinning: many polls, so the consumer looks at its producer well before the timeout.
        let short = Wait::spin_then_yield().timeout(Duration::from_millis(100));
        match consumer.read_wait(|_, _| {}, 8, &short) {
            Err(RingError::Timeout { .. }) => {}
            other => panic!("{previous} before this consumer attached: {other:?}"),
        }
        let writer_ring = ring.clone();
        let writer = std::thread::spawn(move || {
            let mut producer = writer_ring.producer().unwrap();
            let wait = Wait::backoff().timeout(Duration::from_secs(60));
            for i in 0..10 {
                producer.write(1, &message(i), &wait).unwrap();
            }
        });
        let wait = Wait::backoff().timeout(Duration::from_secs(60));
        let mut next = 0u64;
        let outcome = loop {
            let outcome = consumer.read_wait(
                |_, bytes| {
                    Pattern::new(SIZE).check(next, bytes).unwrap();
                    next += 1;
                },
                8,
                &wait,
            );
            if outcome.is_err() {
                break outcome;
            }
        };
        writer.join().unwrap();
        assert_eq!(next, 10, "{previous}");
        assert!(
            matches!(outcome, Err(RingError::PeerDead { pid: 0, .. })),
            "the new producer's detach ends the wait: {outcome:?}"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "maps a file")]
fn a_consumer_drains_what_a_dead_producer_left_and_reports_it() {
    let path = TempPath::new("left-behind");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    let mut producer = ring.producer().unwrap();
    for i in 0..5 {
        producer.try_write(1, &message(i)).unwrap();
    }
    std::mem::forget(producer); // no detach
    patch(&path.0, PRODUCER_PID_OFFSET, &NO_SUCH_PID.to_le_bytes());
    let mut consumer = ring.consumer().unwrap();
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    let mut got = 0;
    let outcome = loop {
        match consumer.read_wait(|_, _| got += 1, 2, &wait) {
            Ok(_) => {}
            Err(e) => break e,
        }
    };
    assert_eq!(got, 5);
    assert!(
        matches!(
            outcome,
            RingError::PeerDead {
                pid: NO_SUCH_PID,
                ..
            }
        ),
        "{outcome}"
    );
}

#[test]
#[cfg_attr(miri, ignore = "spawns and kills processes")]
fn a_producer_outlives_its_killed_consumer_and_a_new_one_drains_in_order() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let path = TempPath::new("killed-consumer");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    let mut producer = ring.producer().unwrap();
    let mut peer = spawn("consume-forever", &path.0, 0);
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    // More than the ring holds: the consumer has attached and read by the end.
    for i in 0..300 {
        producer.write(1, &message(i), &wait).unwrap();
    }
    peer.0.kill().unwrap();
    peer.0.wait().unwrap();
    // The ring fills; the dead consumer does not end the wait, only the producer's timeout.
    let short = Wait::backoff().timeout(Duration::from_millis(200));
    let mut i = 300;
    let err = loop {
        match producer.write(1, &message(i), &short) {
            Ok(()) => i += 1,
            Err(e) => break e,
        }
    };
    assert!(matches!(err, RingError::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("the consumer died"), "{err}");
    // A new consumer takes over, resumes at the ring's head and drains while the producer
    // carries on.
    let mut consumer = ring.consumer().unwrap();
    let head_seq = {
        let mut first = None;
        consumer
            .try_read_one(|_, bytes| {
                first = Some(u64::from_le_bytes(bytes[..8].try_into().unwrap()))
            })
            .unwrap();
        first.expect("a full ring has a message at its head")
    };
    let writer = std::thread::spawn(move || {
        for i in i..i + 2_000 {
            producer.write(1, &message(i), &wait).unwrap();
        }
        i + 2_000
    });
    let mut next = head_seq + 1;
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    let outcome = loop {
        let outcome = consumer.read_wait(
            |_, bytes| {
                Pattern::new(SIZE).check(next, bytes).unwrap();
                next += 1;
            },
            64,
            &wait,
        );
        if outcome.is_err() {
            break outcome;
        }
    };
    let end = writer.join().unwrap();
    assert_eq!(next, end, "every message from the head on, in order");
    assert!(
        matches!(outcome, Err(RingError::PeerDead { pid: 0, .. })),
        "{outcome:?}"
    );
}
