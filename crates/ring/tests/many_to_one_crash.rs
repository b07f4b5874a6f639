//! kill -9 of a many-to-one producer: in the middle of a claim (the child says when it holds
//! one, then is killed), and at random points of a stream of claims and copies. The consumer,
//! fed by a live producer in this process meanwhile, must unblock the dead claim after its
//! unblock time and go on: every message of both producers verified in per-producer order,
//! nothing torn, nothing lost of what the live producer wrote (see docs/verification.md).

mod common;
mod peers;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::TempPath;
use peers::{key, kill9, size_of, verify};
use sympathy_ring::{ManyToOneProducer, ManyToOneRing, RingError};

/// The child's settings: `path,type,count,mode` (mode `hold`: claim once more after `count`
/// messages and wait to be killed; `stream`: write without end).
const CHILD_ENV: &str = "SYMPATHY_MPSC_CHILD";
const CAPACITY: usize = 4096;
/// The live producer's type id; the child's is 2.
const LIVE: i32 = 1;
const CHILD: i32 = 2;
const PATIENCE: Duration = Duration::from_secs(30);

/// The hidden child: a many-to-one producer process, only when the parent sets the env var.
#[test]
#[cfg_attr(miri, ignore = "a child process of the crash tests")]
fn mpsc_child() {
    let Ok(settings) = std::env::var(CHILD_ENV) else {
        return;
    };
    let parts: Vec<&str> = settings.split(',').collect();
    let ring = ManyToOneRing::open(parts[0]).unwrap();
    let type_id: i32 = parts[1].parse().unwrap();
    let count: u64 = parts[2].parse().unwrap();
    let mut producer = ring.producer();
    let end = if parts[3] == "hold" { count } else { u64::MAX };
    let mut seq = 0;
    while seq < end {
        if write(&mut producer, type_id, seq, seq % 2 == 0, true).unwrap() {
            seq += 1;
        }
    }
    // Hold a claim: the parent kills this process inside it.
    let claim = loop {
        let k = key(type_id as u64, seq);
        match producer.try_claim(type_id, size_of(k, producer.max_message_length())) {
            Ok(claim) => break claim,
            Err(e) if e.is_full() => std::thread::yield_now(),
            Err(e) => panic!("{e}"),
        }
    };
    println!("claimed {seq}");
    std::thread::sleep(Duration::from_secs(600));
    drop(claim);
}

/// Writes message `seq` of producer `type_id` (a claim filled in place, or a copy); whether it
/// went in (false: the ring was full). A `dawdling` producer (the child) lingers inside its
/// claims, so that kills land there often.
fn write(
    producer: &mut ManyToOneProducer,
    type_id: i32,
    seq: u64,
    claim: bool,
    dawdling: bool,
) -> Result<bool, RingError> {
    let k = key(type_id as u64, seq);
    let size = size_of(k, producer.max_message_length());
    let pattern = sympathy_ring::pattern::Pattern::new(size);
    let outcome = if claim {
        producer.try_claim(type_id, size).map(|mut c| {
            pattern.fill(k, &mut c);
            if dawdling {
                for _ in 0..20_000 {
                    std::hint::spin_loop();
                }
            }
            c.commit();
        })
    } else {
        let mut buf = vec![0; size];
        pattern.fill(k, &mut buf);
        producer.try_write(type_id, &buf)
    };
    match outcome {
        Ok(()) => Ok(true),
        Err(e) if e.is_full() => Ok(false),
        Err(e) => Err(e),
    }
}

fn spawn_child(path: &Path, count: u64, mode: &str) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["mpsc_child", "--exact", "--nocapture", "--test-threads=1"])
        .env(
            CHILD_ENV,
            format!("{},{CHILD},{count},{mode}", path.display()),
        )
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Reads what both producers wrote, checking every message and each producer's order, until
/// the live producer's `live` messages are in and nothing more comes for twice the unblock
/// time; returns the count per producer `[live, child]` and the claims unblocked.
fn drain(ring: &ManyToOneRing, live: u64, unblock_after: Duration) -> ([u64; 2], u64) {
    let mut consumer = ring.consumer().unwrap();
    consumer.set_unblock_after(Some(unblock_after));
    let max = ring.max_message_length();
    let mut next = [0u64; 2];
    let start = Instant::now();
    let mut quiet_since = Instant::now();
    loop {
        let n = consumer
            .read(
                |type_id, bytes| {
                    let k = verify(type_id, bytes, max).unwrap();
                    let slot = &mut next[type_id as usize - 1];
                    assert_eq!(k, key(type_id as u64, *slot), "out of order");
                    *slot += 1;
                },
                256,
            )
            .unwrap();
        if n > 0 {
            quiet_since = Instant::now();
        } else if next[0] >= live && quiet_since.elapsed() > unblock_after * 2 {
            return (next, consumer.unblocked());
        }
        assert!(
            start.elapsed() < PATIENCE,
            "stuck: {next:?} at {} ({consumer:?})",
            consumer.position()
        );
        std::thread::yield_now();
    }
}

/// A producer killed inside a claim: the consumer unblocks the claim and reads the live
/// producer's messages behind it.
#[test]
#[cfg_attr(miri, ignore = "spawns and kills processes")]
fn a_producer_killed_inside_a_claim_is_unblocked_and_the_others_go_on() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let path = TempPath::new("mpsc-kill-claim");
    let ring = ManyToOneRing::create(&path.0, CAPACITY).unwrap();
    const BEFORE: u64 = 500;
    const LIVE_COUNT: u64 = 20_000;
    let mut child = spawn_child(&path.0, BEFORE, "hold");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // The consumer reads while the child writes its first messages (the ring holds ~100).
    let reader = {
        let ring = ring.clone();
        std::thread::spawn(move || drain(&ring, LIVE_COUNT, Duration::from_millis(200)))
    };
    // The test harness prints its own words first, on the same line.
    let said = lines
        .find(|line| line.as_ref().is_ok_and(|l| l.contains("claimed ")))
        .expect("the child said it holds a claim")
        .unwrap();
    assert!(said.ends_with(&format!("claimed {BEFORE}")), "{said}");
    kill9(&mut child);
    let mut live = ring.producer();
    let mut seq = 0;
    while seq < LIVE_COUNT {
        if write(&mut live, LIVE, seq, seq % 3 == 0, false).unwrap() {
            seq += 1;
        } else {
            std::thread::yield_now();
        }
    }
    let (counts, unblocked) = reader.join().unwrap();
    assert_eq!(counts, [LIVE_COUNT, BEFORE]);
    assert_eq!(unblocked, 1);
}

/// Producers killed at random points of a stream of claims and copies, a live producer
/// writing meanwhile: whatever each dead producer left, the consumer verifies every message it
/// gets, in order, and gets all of the live producer's.
#[test]
#[cfg_attr(miri, ignore = "spawns and kills processes")]
fn producers_killed_at_random_points_never_stall_or_tear_the_stream() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let iterations: u64 = std::env::var("SYMPATHY_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let seed = sympathy_ring::now_ms() as u64;
    eprintln!("kill delays from seed {seed}");
    for i in 0..iterations {
        let path = TempPath::new("mpsc-kill-stream");
        let ring = ManyToOneRing::create(&path.0, CAPACITY).unwrap();
        const LIVE_COUNT: u64 = 50_000;
        let reader = {
            let ring = ring.clone();
            std::thread::spawn(move || drain(&ring, LIVE_COUNT, Duration::from_millis(200)))
        };
        let mut child = spawn_child(&path.0, 0, "stream");
        let delay = 5 + (seed.wrapping_mul(i + 1).wrapping_mul(0x9E37_79B9) >> 7) % 40;
        std::thread::sleep(Duration::from_millis(delay));
        kill9(&mut child);
        let mut live = ring.producer();
        let mut seq = 0;
        while seq < LIVE_COUNT {
            if write(&mut live, LIVE, seq, seq % 2 == 1, false).unwrap() {
                seq += 1;
            } else {
                std::thread::yield_now();
            }
        }
        let (counts, unblocked) = reader.join().unwrap();
        assert_eq!(counts[0], LIVE_COUNT);
        eprintln!(
            "kill after {delay} ms: {} of the dead producer's messages delivered, {unblocked} \
             claims unblocked",
            counts[1]
        );
    }
}
