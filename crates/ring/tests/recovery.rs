//! A producer that stops in the middle of a claim (as if killed: the claim is leaked, never
//! committed nor aborted) leaves a negative length in the ring. A new producer attaching after it
//! resumes from the trailer's tail and overwrites the unfinished record; the consumer then
//! delivers every message the new producer writes. These in-process cases pin the states the
//! kill -9 harness (`tests/crash.rs`) reaches at random.

use sympathy_ring::{Ring, RingError};

fn drain(consumer: &mut sympathy_ring::Consumer) -> Vec<Vec<u8>> {
    let mut got = Vec::new();
    for _ in 0..4 {
        consumer
            .read(|_, bytes| got.push(bytes.to_vec()), usize::MAX)
            .unwrap();
    }
    got
}

#[test]
fn unfinished_claim_blocks_the_consumer_until_a_new_producer_overwrites_it() {
    let ring = Ring::anonymous(1024).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let mut producer = ring.producer().unwrap();
    producer.try_write(1, b"before").unwrap();
    std::mem::forget(producer.try_claim(1, 5).unwrap()); // dies mid-claim
    drop(producer);
    assert_eq!(drain(&mut consumer), [b"before".to_vec()]);
    assert_eq!(
        drain(&mut consumer),
        Vec::<Vec<u8>>::new(),
        "claim is never delivered"
    );
    let mut producer = ring.producer().unwrap();
    producer.try_write(1, b"after").unwrap();
    assert_eq!(drain(&mut consumer), [b"after".to_vec()]);
}

#[test]
fn unfinished_claim_after_padding_lets_a_new_producer_resume() {
    // Capacity 64: 8-byte messages take 16 bytes; the 4th claim at index 48 wraps (padding 16).
    let ring = Ring::anonymous(64).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let mut producer = ring.producer().unwrap();
    for i in 0..3u8 {
        producer.try_write(1, &[i; 8]).unwrap();
    }
    assert_eq!(drain(&mut consumer).len(), 3);
    std::mem::forget(producer.try_claim(1, 8).unwrap()); // padding published, claim at 0 left
    drop(producer);
    assert!(
        drain(&mut consumer).is_empty(),
        "the consumer skips the padding and waits"
    );
    // The consumer's head is now past the padding; the new producer must still attach.
    let mut producer = match ring.producer() {
        Ok(p) => p,
        Err(e @ RingError::CorruptRecord { .. }) => panic!("resume after a wrap: {e}"),
        Err(e) => panic!("{e}"),
    };
    producer.try_write(1, &[9; 8]).unwrap();
    assert_eq!(drain(&mut consumer), [vec![9u8; 8]]);
}

#[test]
fn unfinished_batch_is_never_delivered_and_a_new_producer_resumes() {
    let ring = Ring::anonymous(1024).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let mut producer = ring.producer().unwrap();
    let mut batch = producer.batch();
    for i in 0..5u8 {
        batch.try_write(1, &[i; 3]).unwrap();
    }
    std::mem::forget(batch); // dies before finishing the batch
    drop(producer);
    assert!(
        drain(&mut consumer).is_empty(),
        "no part of an unfinished batch is delivered"
    );
    let mut producer = ring.producer().unwrap();
    producer.try_write(1, b"x").unwrap();
    assert_eq!(drain(&mut consumer), [b"x".to_vec()]);
}

/// A producer killed after publishing a record's header but before storing the trailer's tail
/// (simulated by rolling the tail back in the file): the next producer must not overwrite the
/// published record, whether or not the consumer has read it yet.
#[test]
#[cfg_attr(miri, ignore = "maps a file, which Miri cannot do")]
fn published_record_past_the_trailer_tail_is_kept() {
    use std::os::unix::fs::FileExt;
    use sympathy_ring::layout::*;
    for consumed_first in [false, true] {
        let path = std::env::temp_dir().join(format!(
            "sympathy-ring-recovery-{}-{consumed_first}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        let ring = Ring::create(&path, 1024).unwrap();
        let mut consumer = ring.consumer().unwrap();
        let mut producer = ring.producer().unwrap();
        producer.try_write(1, b"first").unwrap();
        producer.try_write(1, b"second").unwrap();
        drop(producer);
        // Roll the tail back to the start of "second": its header is published, its tail not.
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let second_at = align_record(RECORD_HEADER_LENGTH + 5) as i64;
        file.write_all_at(
            &second_at.to_le_bytes(),
            (HEADER_LENGTH + 1024 + TAIL_POSITION_OFFSET) as u64,
        )
        .unwrap();
        let mut got = Vec::new();
        if consumed_first {
            got = drain(&mut consumer); // head now past the trailer's tail
        }
        let mut producer = ring.producer().expect("a new producer resumes");
        producer.try_write(1, b"third").unwrap();
        got.extend(drain(&mut consumer));
        assert_eq!(
            got,
            [b"first".to_vec(), b"second".to_vec(), b"third".to_vec()]
        );
        drop((producer, consumer, ring));
        std::fs::remove_file(&path).unwrap();
    }
}

/// A producer that stores the tail when it claims (Agrona, the Java ring) and died inside a
/// claim leaves a negative length below the trailer's tail; a producer taking over turns it
/// into padding so the consumer is not blocked forever (Agrona's `unblock`).
#[test]
#[cfg_attr(miri, ignore = "maps a file, which Miri cannot do")]
fn claim_left_below_the_tail_by_an_agrona_style_producer_is_unblocked() {
    use std::os::unix::fs::FileExt;
    use sympathy_ring::layout::*;
    let path = std::env::temp_dir().join(format!("sympathy-ring-unblock-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let ring = Ring::create(&path, 1024).unwrap();
    let mut consumer = ring.consumer().unwrap();
    let mut producer = ring.producer().unwrap();
    producer.try_write(1, b"first").unwrap(); // 16 bytes at 0
    drop(producer);
    // Agrona-style death: the claim's tail is stored (32) and its length is negative at 16.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let put = |offset: usize, bytes: &[u8]| file.write_all_at(bytes, offset as u64).unwrap();
    put(HEADER_LENGTH + 16, &pack_header(-13, 3).to_le_bytes());
    put(
        HEADER_LENGTH + 1024 + TAIL_POSITION_OFFSET,
        &32i64.to_le_bytes(),
    );
    assert_eq!(drain(&mut consumer), [b"first".to_vec()]);
    assert!(drain(&mut consumer).is_empty(), "blocked at the dead claim");
    let mut producer = ring.producer().unwrap();
    producer.try_write(1, b"after").unwrap();
    assert_eq!(drain(&mut consumer), [b"after".to_vec()]);
    drop((producer, consumer, ring));
    std::fs::remove_file(&path).unwrap();
}
