//! kill -9 at random points: a producer child in the middle of claims, copies and batches, and
//! a consumer child in the middle of a batch, many times (`SYMPATHY_CRASH_ITERATIONS`, default
//! 3; `ci/crash --iterations N`). After each kill the survivor detects the dead peer, no torn or
//! partial message is ever delivered (every message verifies against its key's pattern and
//! arrives in sequence), and a restarted peer resumes (a producer takes over the dead pid and
//! continues) or drains (a consumer reads what is left). See docs/verification.md.

mod common;
mod peers;

use std::time::{Duration, Instant};

use common::TempPath;
use peers::{CAPACITY, Checker, consume, kill9, produce, spawn};
use sympathy_ring::{PeerState, Ring, RingError, Role, Wait};

/// The hidden child: a producer or consumer process, only when the parent sets the env var.
#[test]
#[cfg_attr(miri, ignore = "a child process of the crash tests")]
fn peer_child() {
    peers::child_main();
}

fn iterations() -> u64 {
    std::env::var("SYMPATHY_CRASH_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// A small xorshift, seeded from the clock (the seed is printed so a failure can be replayed
/// with `SYMPATHY_CRASH_SEED`).
struct Rng(u64);

impl Rng {
    fn from_env_or_clock() -> Rng {
        let seed = std::env::var("SYMPATHY_CRASH_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| sympathy_ring::now_ms() as u64 | 1);
        eprintln!("crash seed {seed} (SYMPATHY_CRASH_SEED={seed} replays it)");
        Rng(seed)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

const PATIENCE: Duration = Duration::from_secs(30);

#[test]
#[cfg_attr(miri, ignore = "spawns and kills processes")]
fn producer_killed_at_random_points_never_tears_a_message_and_can_be_replaced() {
    if std::env::var(peers::PEER_ENV).is_ok() {
        return;
    }
    let mut rng = Rng::from_env_or_clock();
    let (mut delivered, mut killed_in_claim) = (0u64, 0u64);
    for iteration in 0..iterations() {
        let path = TempPath::new("crash-producer");
        let ring = Ring::create(&path.0, CAPACITY).unwrap();
        let max = ring.max_message_length();
        let mut consumer = ring.consumer().unwrap();
        let mut checker = Checker::default();
        let mut child = spawn("produce", &path.0, 1, u64::MAX);
        while ring.peer(Role::Producer) == PeerState::NeverAttached {
            std::thread::yield_now();
        }
        // Consume for a random while, then kill the producer wherever it is.
        let until = Instant::now() + Duration::from_micros(rng.below(40_000));
        while Instant::now() < until {
            consumer
                .read(|t, b| checker.check(t, b, max).unwrap(), 64)
                .unwrap();
        }
        let dead_pid = child.id() as i32;
        kill9(&mut child);
        // The survivor drains what was published and then reports the dead producer.
        let wait = Wait::backoff().timeout(PATIENCE);
        match consume(&mut consumer, &mut checker, max, u64::MAX, &wait) {
            Err(RingError::PeerDead {
                role: Role::Producer,
                pid,
                ..
            }) => assert_eq!(pid, dead_pid),
            other => panic!("iteration {iteration}: expected PeerDead, got {other:?}"),
        }
        assert_eq!(ring.peer(Role::Producer), PeerState::Dead { pid: dead_pid });
        // A claim left in progress shows as a negative length at the drained consumer's head.
        let at_head = ring.peek_records(1);
        killed_in_claim += u64::from(at_head.first().is_some_and(|r| r.length < 0));
        // A new producer takes over the dead pid and continues; every message arrives.
        let before = checker.messages;
        let more = 1 + rng.below(2_000);
        let mut replacement = spawn("produce", &path.0, 2, more);
        consume(&mut consumer, &mut checker, max, before + more, &wait)
            .unwrap_or_else(|e| panic!("iteration {iteration}: after restart: {e}"));
        assert!(replacement.wait().unwrap().success());
        assert_eq!(
            checker.next,
            Some(peers::key(2, more)),
            "the replacement's last message"
        );
        delivered += checker.messages;
    }
    eprintln!(
        "crash/producer: {} iterations survived, {delivered} messages verified, \
         {killed_in_claim} kills left a claim in progress",
        iterations()
    );
}

#[test]
#[cfg_attr(miri, ignore = "spawns and kills processes")]
fn consumer_killed_at_random_points_is_detected_and_a_new_consumer_drains() {
    if std::env::var(peers::PEER_ENV).is_ok() {
        return;
    }
    let mut rng = Rng::from_env_or_clock();
    let mut delivered = 0u64;
    for iteration in 0..iterations() {
        let path = TempPath::new("crash-consumer");
        let ring = Ring::create(&path.0, CAPACITY).unwrap();
        let max = ring.max_message_length();
        let mut producer = ring.producer().unwrap();
        let mut child = spawn("consume", &path.0, 1, u64::MAX);
        while ring.peer(Role::Consumer) == PeerState::NeverAttached {
            std::thread::yield_now();
        }
        // Produce for a random while (the child verifies), then kill the consumer.
        let wait = Wait::spin_then_yield().timeout(PATIENCE);
        let until = Instant::now() + Duration::from_micros(rng.below(40_000));
        let mut seq = 0;
        while Instant::now() < until {
            seq = produce(&mut producer, 1, seq, 64, &wait).unwrap();
        }
        let dead_pid = child.id() as i32;
        kill9(&mut child);
        // The survivor: writing into a full ring reports the dead consumer.
        match produce(&mut producer, 1, seq, u64::MAX, &wait) {
            Err(RingError::PeerDead {
                role: Role::Consumer,
                pid,
                ..
            }) => assert_eq!(pid, dead_pid),
            other => panic!("iteration {iteration}: expected PeerDead, got {other:?}"),
        }
        let written = producer.position();
        // A new consumer takes over and drains from the last released head: the batch the dead
        // consumer was handed but never released is delivered again (at-least-once), whole.
        let mut consumer = ring.consumer().unwrap();
        let mut checker = Checker::default();
        let mut drained = 0;
        loop {
            let n = consumer
                .read(|t, b| checker.check(t, b, max).unwrap(), 64)
                .unwrap();
            drained += n;
            if n == 0 && consumer.position() == written {
                break;
            }
        }
        assert!(drained > 0, "a full ring drains");
        // And the producer carries on with the new consumer.
        let next = checker.next.unwrap();
        let resume_at = next & ((1 << 40) - 1);
        let mut seq = resume_at;
        while seq < resume_at + 100 {
            seq = produce(&mut producer, 1, seq, 2, &wait).unwrap();
            while checker.next != Some(peers::key(1, seq)) {
                consumer
                    .read(|t, b| checker.check(t, b, max).unwrap(), 64)
                    .unwrap();
            }
        }
        delivered += checker.messages;
    }
    eprintln!(
        "crash/consumer: {} iterations survived, {delivered} messages verified after restarts",
        iterations()
    );
}
