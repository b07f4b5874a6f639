//! A side that waits (an empty ring for the consumer, a full one for the producer) keeps its
//! heartbeat fresh: a peer that is late to start (a JVM) must not find it stale and take it for
//! hung (stale is never dead, but a stale peer is reported as paused or hung). The consumer counts
//! every read, empty ones too; the producer's `write` beats while the ring stays full (it did
//! not before: its heartbeat aged while it waited for a late consumer).

use std::time::Duration;
use sympathy_ring::{Ring, RingError, Wait};

const NAP: Duration = Duration::from_millis(30);

#[test]
fn a_consumer_waiting_for_messages_keeps_beating() {
    let ring = Ring::anonymous(1024).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let attached = ring.snapshot().consumer_heartbeat_ms;
    std::thread::sleep(NAP);
    let wait = Wait::busy_spin().timeout(NAP);
    let outcome = consumer.read_wait(|_, _| {}, 8, &wait);
    assert!(
        matches!(outcome, Err(RingError::Timeout { .. })),
        "{outcome:?}"
    );
    let after = ring.snapshot().consumer_heartbeat_ms;
    assert!(
        after >= attached + NAP.as_millis() as i64,
        "{attached} -> {after}"
    );
}

#[test]
fn a_producer_waiting_for_room_keeps_beating() {
    let ring = Ring::anonymous(64).unwrap();
    let mut producer = ring.producer().unwrap();
    while producer.try_write(1, &[0; 8]).is_ok() {}
    let attached = ring.snapshot().producer_heartbeat_ms;
    std::thread::sleep(NAP);
    let wait = Wait::busy_spin().timeout(NAP);
    let outcome = producer.write(1, &[0; 8], &wait);
    assert!(
        matches!(outcome, Err(RingError::Timeout { .. })),
        "{outcome:?}"
    );
    let after = ring.snapshot().producer_heartbeat_ms;
    assert!(
        after >= attached + NAP.as_millis() as i64,
        "{attached} -> {after}"
    );
}
