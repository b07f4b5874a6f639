//! `Consumer::read_controlled`: the handler decides, message by message, whether the read goes
//! on, stops after the message, or stops before it and leaves it at the head.

use std::time::Duration;

use sympathy_ring::{Action, Ring, Wait};

/// Writes messages `0..n`, one byte each (16-byte records).
fn ring_with(n: u8) -> (Ring, sympathy_ring::Producer, sympathy_ring::Consumer) {
    let ring = Ring::anonymous(1024).unwrap();
    let (mut producer, consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    for i in 0..n {
        producer.try_write(1, &[i]).unwrap();
    }
    (ring, producer, consumer)
}

#[test]
fn continue_reads_like_read_and_break_stops_after_the_message() {
    let (_ring, _producer, mut consumer) = ring_with(6);
    let mut seen = Vec::new();
    let n = consumer
        .read_controlled(
            |_, b| {
                seen.push(b[0]);
                if b[0] == 2 {
                    Action::Break
                } else {
                    Action::Continue
                }
            },
            100,
        )
        .unwrap();
    assert_eq!((n, &seen[..]), (3, &[0, 1, 2][..]));
    assert_eq!(consumer.position(), 3 * 16);
    let n = consumer
        .read_controlled(
            |_, b| {
                seen.push(b[0]);
                Action::Continue
            },
            100,
        )
        .unwrap();
    assert_eq!((n, &seen[..]), (3, &[0, 1, 2, 3, 4, 5][..]));
}

#[test]
fn abort_leaves_the_message_at_the_head_for_the_next_read() {
    let (_ring, _producer, mut consumer) = ring_with(5);
    let n = consumer
        .read_controlled(
            |_, b| {
                if b[0] == 3 {
                    Action::Abort
                } else {
                    Action::Continue
                }
            },
            100,
        )
        .unwrap();
    assert_eq!(n, 3);
    assert_eq!(
        consumer.position(),
        3 * 16,
        "the head stops before message 3"
    );
    // Aborting the first message of a read consumes nothing.
    assert_eq!(
        consumer.read_controlled(|_, _| Action::Abort, 100).unwrap(),
        0
    );
    assert_eq!(consumer.position(), 3 * 16);
    let mut rest = Vec::new();
    consumer.read(|_, b| rest.push(b[0]), 100).unwrap();
    assert_eq!(rest, [3, 4]);
}

#[test]
fn an_aborted_message_after_the_wrap_padding_keeps_the_padding_consumed() {
    // Capacity 128: seven 16-byte records, then one of 24 bytes does not fit the 16 left before
    // the end, so the producer pads them and writes it at index 0.
    let ring = Ring::anonymous(128).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    for i in 0..7u8 {
        producer.try_write(1, &[i]).unwrap();
    }
    assert_eq!(consumer.read(|_, _| {}, 100).unwrap(), 7);
    producer.try_write(1, &[9; 16]).unwrap();
    // The first read ends at the end of the area: the padding only.
    assert_eq!(
        consumer.read_controlled(|_, _| Action::Abort, 100).unwrap(),
        0
    );
    assert_eq!(consumer.position(), 128, "the padding is released");
    assert_eq!(
        consumer.read_controlled(|_, _| Action::Abort, 100).unwrap(),
        0
    );
    assert_eq!(consumer.position(), 128, "the message after it is not");
    assert_eq!(
        consumer.read(|_, b| assert_eq!(b, [9; 16]), 100).unwrap(),
        1
    );
    assert_eq!(consumer.position(), 128 + 24);
}

#[test]
fn the_waiting_read_returns_when_the_handler_stops_and_the_limit_holds() {
    let (_ring, _producer, mut consumer) = ring_with(4);
    let wait = Wait::backoff().timeout(Duration::from_secs(30));
    assert_eq!(
        consumer
            .read_controlled_wait(|_, _| Action::Abort, 100, &wait)
            .unwrap(),
        0
    );
    assert_eq!(
        consumer
            .read_controlled_wait(|_, _| Action::Continue, 3, &wait)
            .unwrap(),
        3
    );
    assert_eq!(consumer.position(), 3 * 16);
    let quick = Wait::backoff().timeout(Duration::from_millis(1));
    assert_eq!(
        consumer
            .read_controlled_wait(|_, _| Action::Break, 100, &quick)
            .unwrap(),
        1
    );
}
