//! Two processes over one ring file: the test binary re-runs itself as the producer child.

mod common;

use std::process::Command;
use std::time::Duration;

use common::TempPath;
use sympathy_ring::pattern::Pattern;
use sympathy_ring::{Ring, RingError, Role, Wait};

const CHILD_ENV: &str = "SYMPATHY_RING_TEST_CHILD";
const SIZES: [usize; 5] = [4, 9, 100, 8, 511];

/// The child's body: runs only when the parent test starts this binary with CHILD_ENV set.
/// `path,count,mode` where mode `detach` exits normally and `die` exits without detaching.
#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn child_producer() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let mut parts = spec.split(',');
    let path = parts.next().unwrap().to_string();
    let count: u64 = parts.next().unwrap().parse().unwrap();
    let mode = parts.next().unwrap().to_string();
    let ring = Ring::open(&path).unwrap();
    let mut producer = ring.producer().unwrap();
    let wait = Wait::spin_then_yield().timeout(Duration::from_secs(60));
    let mut buf = vec![0u8; 512];
    for i in 0..count {
        let size = SIZES[(i % 5) as usize];
        Pattern::new(size).fill(i, &mut buf[..size]);
        producer.write(7, &buf[..size], &wait).unwrap();
    }
    if mode == "die" {
        std::process::exit(0); // skips destructors: the pid stays in the header
    }
}

fn spawn_child(path: &std::path::Path, count: u64, mode: &str) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "child_producer",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, format!("{},{count},{mode}", path.display()))
        .spawn()
        .unwrap()
}

fn consume(ring: &Ring, expect: u64) -> Result<u64, (u64, RingError)> {
    let mut consumer = ring.consumer().unwrap();
    let wait = Wait::backoff().timeout(Duration::from_secs(60));
    let mut next = 0u64;
    while next < expect {
        let outcome = consumer.read_wait(
            |type_id, bytes| {
                assert_eq!(type_id, 7);
                let size = SIZES[(next % 5) as usize];
                if let Err(m) = Pattern::new(size).check(next, bytes) {
                    panic!("message {next}: {m}");
                }
                next += 1;
            },
            256,
            &wait,
        );
        if let Err(e) = outcome {
            return Err((next, e));
        }
    }
    Ok(next)
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn producer_process_delivers_every_byte() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let path = TempPath::new("process");
    let ring = Ring::create(&path.0, 8192).unwrap();
    let count = if cfg!(debug_assertions) {
        50_000
    } else {
        500_000
    };
    let mut child = spawn_child(&path.0, count, "detach");
    assert_eq!(consume(&ring, count).unwrap(), count);
    assert!(child.wait().unwrap().success());
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn consumer_tells_a_dead_producer_from_a_quiet_one() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let path = TempPath::new("dead");
    let ring = Ring::create(&path.0, 8192).unwrap();
    // Before any producer: no messages yet, not an error.
    let mut consumer = ring.consumer().unwrap();
    let quick = Wait::busy_spin().timeout(Duration::from_millis(20));
    assert!(matches!(
        consumer.read_wait(|_, _| {}, 1, &quick),
        Err(RingError::Timeout { .. })
    ));
    drop(consumer);
    let mut child = spawn_child(&path.0, 20, "die"); // fits: no wait on a consumer
    assert!(child.wait().unwrap().success());
    match consume(&ring, 1_000) {
        Err((got, RingError::PeerDead { role, pid, .. })) => {
            assert_eq!(got, 20, "every message before the death is delivered");
            assert_eq!(role, Role::Producer);
            assert_eq!(pid as u32, child.id());
        }
        other => panic!("expected PeerDead, got {other:?}"),
    }
}
