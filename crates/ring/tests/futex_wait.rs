//! The opt-in idle wait (`Wait::futex()`): a consumer asleep on an empty ring is woken by each
//! published record, a producer asleep on a full ring by each release of the head, and the
//! wake-up blocks in the header page say who sleeps. The sleeps here last up to an hour
//! (`SLICE`): a lost wake-up would leave a side asleep, so the watchdog fails the test instead
//! of letting it hang.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sympathy_ring::{Ring, Role, Strategy, Wait};

/// Longer than any test: only a wake-up ends a sleep (but the first, 1 ms, after arming).
const SLICE: Duration = Duration::from_secs(3600);

/// A futex wait that never gives up on its own.
fn sleep_until_woken() -> Wait {
    Wait {
        strategy: Strategy::Futex {
            spins: 0,
            slice: SLICE,
        },
        timeout: None,
    }
}

/// Fails the test (the whole process) if `done` is not set within five minutes: a side asleep
/// for that long lost its wake-up.
fn watchdog(what: &'static str) -> Arc<AtomicBool> {
    let done = Arc::new(AtomicBool::new(false));
    let seen = done.clone();
    std::thread::spawn(move || {
        for _ in 0..3000 {
            if seen.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!("{what}: still asleep after five minutes: a lost wake-up");
        std::process::exit(101);
    });
    done
}

/// Every `k`-th message the writer pauses, so the reader goes to sleep again and again.
fn pause_now_and_then(k: u64) {
    if k.is_multiple_of(7) {
        std::thread::sleep(Duration::from_micros(200));
    } else if k.is_multiple_of(3) {
        std::thread::yield_now();
    }
}

#[test]
fn a_sleeping_consumer_is_woken_by_every_write() {
    const COUNT: u64 = 3000;
    let done = watchdog("consumer");
    let path = common::TempPath::new("futex-consumer");
    let ring = Ring::create(&path.0, 4096).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let writer_ring = Ring::open(&path.0).unwrap();
    let writer = std::thread::spawn(move || {
        let mut producer = writer_ring.producer().unwrap();
        for k in 0..COUNT {
            pause_now_and_then(k);
            producer
                .write(1, &k.to_le_bytes(), &Wait::backoff())
                .unwrap();
        }
    });
    let mut next = 0u64;
    while next < COUNT {
        consumer
            .read_wait(
                |_, bytes| {
                    assert_eq!(u64::from_le_bytes(bytes.try_into().unwrap()), next);
                    next += 1;
                },
                64,
                &sleep_until_woken(),
            )
            .unwrap();
    }
    writer.join().unwrap();
    done.store(true, Ordering::Relaxed);
    let state = ring.wake_state(Role::Consumer);
    assert!(state.armed && !state.waiting, "{state:?}");
    assert!(state.wake_seq > 0, "the producer never had to wake it");
    drop(consumer);
    assert!(!ring.wake_state(Role::Consumer).armed);
}

#[test]
fn a_producer_sleeping_on_a_full_ring_is_woken_by_every_release() {
    const COUNT: u64 = 3000;
    let done = watchdog("producer");
    let ring = Ring::anonymous(256).unwrap();
    let mut producer = ring.producer().unwrap();
    let mut consumer = ring.consumer().unwrap();
    let reader = std::thread::spawn(move || {
        let mut next = 0u64;
        let mut k = 0;
        while next < COUNT {
            k += 1;
            pause_now_and_then(k);
            consumer
                .read(
                    |_, bytes| {
                        assert_eq!(u64::from_le_bytes(bytes.try_into().unwrap()), next);
                        next += 1;
                    },
                    3,
                )
                .unwrap();
        }
    });
    for k in 0..COUNT {
        producer
            .write(1, &k.to_le_bytes(), &sleep_until_woken())
            .unwrap();
    }
    reader.join().unwrap();
    done.store(true, Ordering::Relaxed);
    let state = ring.wake_state(Role::Producer);
    assert!(state.armed && !state.waiting, "{state:?}");
    assert!(state.wake_seq > 0, "the consumer never had to wake it");
}

#[test]
fn the_header_shows_a_consumer_asleep_and_nothing_once_it_leaves() {
    let ring = Ring::anonymous(1024).unwrap();
    let mut producer = ring.producer().unwrap();
    let mut consumer = ring.consumer().unwrap();
    let reader = std::thread::spawn(move || {
        let mut got = 0;
        consumer
            .read_wait(|_, _| got += 1, 8, &sleep_until_woken())
            .unwrap();
        got
    });
    while !ring.wake_state(Role::Consumer).waiting {
        std::thread::yield_now();
    }
    assert!(ring.wake_state(Role::Consumer).armed);
    producer.try_write(1, b"wake").unwrap();
    assert_eq!(reader.join().unwrap(), 1);
    assert_eq!(
        ring.wake_state(Role::Consumer),
        sympathy_ring::WakeState {
            armed: false,
            waiting: false,
            wake_seq: ring.wake_state(Role::Consumer).wake_seq
        },
        "a consumer that left clears its block"
    );
}

#[test]
fn rings_without_a_futex_waiter_leave_the_wake_up_blocks_zero() {
    let ring = Ring::anonymous(1024).unwrap();
    let mut producer = ring.producer().unwrap();
    let mut consumer = ring.consumer().unwrap();
    for k in 0..100u32 {
        producer
            .write(1, &k.to_le_bytes(), &Wait::backoff())
            .unwrap();
        consumer
            .read_wait(|_, _| {}, 8, &Wait::spin_then_yield())
            .unwrap();
    }
    for role in [Role::Consumer, Role::Producer] {
        assert_eq!(
            ring.wake_state(role),
            sympathy_ring::WakeState {
                armed: false,
                waiting: false,
                wake_seq: 0
            }
        );
    }
}

#[test]
fn a_futex_wait_still_times_out_and_sees_a_dead_peer() {
    let ring = Ring::anonymous(1024).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let wait = Wait::futex().timeout(Duration::from_millis(30));
    let outcome = consumer.read_wait(|_, _| {}, 8, &wait);
    assert!(
        matches!(outcome, Err(sympathy_ring::RingError::Timeout { .. })),
        "{outcome:?}"
    );
    let producer = ring.producer().unwrap();
    drop(producer);
    let outcome = consumer.read_wait(|_, _| {}, 8, &Wait::futex());
    assert!(
        matches!(outcome, Err(sympathy_ring::RingError::PeerDead { .. })),
        "{outcome:?}"
    );
}
