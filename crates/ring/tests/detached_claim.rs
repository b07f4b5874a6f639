//! `Producer::try_claim_detached`: a claim that outlives the borrow of its producer (the JNI
//! library keeps one between two native calls) publishes, aborts and orders like a `Claim`.

use sympathy_ring::Ring;

fn drain(consumer: &mut sympathy_ring::Consumer) -> Vec<(i32, Vec<u8>)> {
    let mut got = Vec::new();
    for _ in 0..3 {
        consumer
            .read(|t, bytes| got.push((t, bytes.to_vec())), usize::MAX)
            .unwrap();
    }
    got
}

#[test]
fn committed_detached_claim_is_delivered_in_ring_order() {
    let ring = Ring::anonymous(1024).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    let claim = producer.try_claim_detached(5, 3).unwrap();
    assert_eq!((claim.len(), claim.type_id()), (3, 5));
    assert_eq!(claim.payload_index(), 8, "the first record's payload");
    producer.try_write(1, b"later").unwrap(); // written after the claim: waits behind it
    assert!(drain(&mut consumer).is_empty(), "blocked at the open claim");
    producer.detached_payload(&claim).copy_from_slice(b"abc");
    producer.commit_detached(claim);
    assert_eq!(
        drain(&mut consumer),
        [(5, b"abc".to_vec()), (1, b"later".to_vec())]
    );
}

#[test]
fn aborted_detached_claim_is_skipped() {
    let ring = Ring::anonymous(1024).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    let claim = producer.try_claim_detached(5, 16).unwrap();
    producer.abort_detached(claim);
    producer.try_write(2, b"x").unwrap();
    assert_eq!(drain(&mut consumer), [(2, b"x".to_vec())]);
}

#[test]
fn record_area_holds_the_payload_at_the_claims_index() {
    let ring = Ring::anonymous(1024).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    producer.try_write(1, b"first").unwrap(); // 16 bytes: the claim's record starts at 16
    let claim = producer.try_claim_detached(3, 4).unwrap();
    let (area, capacity) = producer.record_area();
    assert_eq!((claim.payload_index(), capacity), (24, 1024));
    // SAFETY: [24, 28) is the payload of this producer's open claim, inside the record area.
    unsafe { std::ptr::copy_nonoverlapping(b"wxyz".as_ptr(), area.add(24), 4) };
    producer.commit_detached(claim);
    assert_eq!(
        drain(&mut consumer),
        [(1, b"first".to_vec()), (3, b"wxyz".to_vec())]
    );
}

#[test]
#[should_panic(expected = "must be finished by the producer that made it")]
fn a_claim_of_another_producer_is_refused() {
    let (a, b) = (Ring::anonymous(64).unwrap(), Ring::anonymous(64).unwrap());
    let (mut pa, mut pb) = (a.producer().unwrap(), b.producer().unwrap());
    let claim = pa.try_claim_detached(1, 4).unwrap();
    pb.commit_detached(claim);
}
