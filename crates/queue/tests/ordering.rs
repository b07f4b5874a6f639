//! Two threads, and two processes, pass a sequence through the queue; the consumer checks that
//! it sees every value once, in order.

mod common;

use std::process::Command;

use common::{KINDS, Kind, count, make};
use sympathy_queue::{Consumer, Producer, create_file};

fn produce(producer: &mut Producer<u64>, n: u64) {
    let mut next = 0;
    while next < n {
        if producer.offer(next).is_ok() {
            next += 1;
        }
        std::hint::spin_loop();
    }
}

fn produce_batches(producer: &mut Producer<u64>, n: u64) {
    let mut next = 0;
    while next < n {
        let max = (n - next).min(37) as usize;
        producer.offer_batch(max, || {
            next += 1;
            next - 1
        });
        std::hint::spin_loop();
    }
}

fn consume(consumer: &mut Consumer<u64>, n: u64, batch: bool) {
    let mut expected = 0;
    while expected < n {
        if batch {
            consumer.poll_batch(29, |v| {
                assert_eq!(v, expected, "out of order or lost");
                expected += 1;
            });
        } else if let Some(v) = consumer.poll() {
            assert_eq!(v, expected, "out of order or lost");
            expected += 1;
        }
        std::hint::spin_loop();
    }
    assert_eq!(consumer.poll(), None, "a value beyond the last one arrived");
}

fn two_threads(kind: Kind, batch: bool) {
    let n = count(200_000);
    let (mut producer, mut consumer, _dir) = make::<u64>(kind, 64);
    let worker = std::thread::spawn(move || consume(&mut consumer, n, batch));
    if batch {
        produce_batches(&mut producer, n);
    } else {
        produce(&mut producer, n);
    }
    worker.join().unwrap();
    assert_eq!(producer.pending(), 0);
}

#[test]
fn two_threads_see_every_value_in_order_on_the_heap() {
    two_threads(KINDS[0], false);
    two_threads(KINDS[0], true);
}

#[test]
#[cfg_attr(miri, ignore)] // Miri cannot mmap
fn two_threads_see_every_value_in_order_off_heap() {
    two_threads(KINDS[1], false);
    two_threads(KINDS[1], true);
}

#[test]
#[cfg_attr(miri, ignore)] // Miri cannot mmap
fn two_threads_see_every_value_in_order_through_a_file() {
    two_threads(KINDS[2], false);
    two_threads(KINDS[2], true);
}

const CHILD_FILE: &str = "SYMPATHY_QUEUE_TEST_FILE";
const CHILD_COUNT: u64 = 200_000;

/// The consumer half of `two_processes_see_every_value_in_order`, run in a child process; it
/// does nothing when run without the parent's environment variable.
#[test]
#[ignore = "run by two_processes_see_every_value_in_order in a child process"]
fn child_consumer() {
    let Ok(path) = std::env::var(CHILD_FILE) else {
        return;
    };
    let mut consumer = Consumer::<u64>::attach(&path).unwrap();
    consume(&mut consumer, CHILD_COUNT, true);
}

#[test]
#[cfg_attr(miri, ignore)] // Miri cannot spawn processes
fn two_processes_see_every_value_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::queue_path(&dir);
    create_file::<u64>(&path, 256).unwrap();
    let mut producer = Producer::<u64>::attach(&path).unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_consumer", "--ignored", "--nocapture"])
        .env(CHILD_FILE, &path)
        .spawn()
        .unwrap();
    while !producer.consumer_attached() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the consumer process exited before attaching: {status}");
        }
        std::thread::yield_now();
    }
    produce(&mut producer, CHILD_COUNT);
    let status = child.wait().unwrap();
    assert!(status.success(), "the consumer process failed: {status}");
    assert_eq!(producer.pending(), 0);
    assert!(
        !producer.consumer_attached(),
        "the consumer detached on exit"
    );
}
