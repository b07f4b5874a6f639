use std::collections::BTreeSet;

use sympathy_ring::Ring;

use super::layout::{HandCodec, Struct, UpdateLayout};
use super::*;

/// Encodes message `seq` with `W` into a buffer of its length (or a large one).
fn encode<W: Wire>(seq: u64) -> Vec<u8> {
    let mut buf = vec![0xEEu8; W::FIXED.unwrap_or(512)];
    let len = W::encode(seq, &mut buf).unwrap();
    buf.truncate(len);
    buf
}

/// Every byte offset of `W`'s message `seq` whose change `verify` catches.
fn caught<W: Wire>(seq: u64) -> BTreeSet<usize> {
    let bytes = encode::<W>(seq);
    (0..bytes.len())
        .filter(|&at| {
            let mut changed = bytes.clone();
            changed[at] ^= 0x41;
            W::verify(seq, &changed).is_err()
        })
        .collect()
}

#[test]
fn every_encoding_decodes_what_it_encodes() {
    for seq in [0, 1, 2, 7, 999, 1000, 123_456_789, u64::MAX / 3] {
        assert_eq!(Raw::verify(seq, &encode::<Raw>(seq)), Ok(()));
        assert_eq!(Sbe::verify(seq, &encode::<Sbe>(seq)), Ok(()));
        assert_eq!(Struct::verify(seq, &encode::<Struct>(seq)), Ok(()));
        assert_eq!(HandCodec::verify(seq, &encode::<HandCodec>(seq)), Ok(()));
        assert_eq!(Serde::verify(seq, &encode::<Serde>(seq)), Ok(()));
        // A message checked against another's sequence number differs.
        assert!(Sbe::verify(seq + 1, &encode::<Sbe>(seq)).is_err());
        assert!(Struct::verify(seq + 1, &encode::<Struct>(seq)).is_err());
        assert!(Serde::verify(seq + 1, &encode::<Serde>(seq)).is_err());
    }
}

#[test]
fn every_changed_byte_of_a_field_is_caught() {
    // SBE: every byte but the header's version (6..8: the sender's schema version, which a
    // decoder takes as it comes) and the root block's three unused ones (8 + 37..40).
    let sbe: BTreeSet<usize> = (0..SBE_MESSAGE_BYTES)
        .filter(|at| !(6..8).contains(at) && !(45..48).contains(at))
        .collect();
    assert_eq!(caught::<Sbe>(12_345), sbe);
    // The fixed layout: every byte but the three after `side`.
    let fixed: BTreeSet<usize> = (0..UpdateLayout::SIZE)
        .filter(|at| !(37..40).contains(at))
        .collect();
    assert_eq!(caught::<Struct>(12_345), fixed);
    assert_eq!(caught::<HandCodec>(12_345), fixed);
    let raw: BTreeSet<usize> = (0..SBE_MESSAGE_BYTES).collect();
    assert_eq!(caught::<Raw>(12_345), raw);
}

#[test]
fn the_struct_and_hand_codec_write_the_documented_bytes() {
    let seq = 5;
    let bytes = encode::<Struct>(seq);
    assert_eq!(bytes, encode::<HandCodec>(seq));
    let at = |o: usize, n: usize| &bytes[o..o + n];
    assert_eq!(at(UpdateLayout::SEQUENCE, 8), 5u64.to_le_bytes());
    assert_eq!(at(UpdateLayout::INSTRUMENT_ID, 8), 1005i64.to_le_bytes());
    assert_eq!(at(UpdateLayout::SYMBOL, 8), b"META\0\0\0\0");
    assert_eq!(at(UpdateLayout::PRICE, 8), 101.25f64.to_le_bytes());
    assert_eq!(at(UpdateLayout::QUANTITY, 4), 6i32.to_le_bytes());
    assert_eq!(at(UpdateLayout::SIDE, 4), [1, 0, 0, 0]);
    assert_eq!(at(UpdateLayout::LEVEL_PRICE, 8), 101.0f64.to_le_bytes());
    assert_eq!(at(UpdateLayout::LEVEL_QUANTITY, 4), 12i32.to_le_bytes());
    assert_eq!(at(UpdateLayout::LEVEL_ORDERS, 4), 6i32.to_le_bytes());
    assert_eq!(at(UpdateLayout::VENUE, 8), b"XNYS\0\0\0\0");
}

#[test]
fn message_sizes_are_the_documented_ones() {
    assert_eq!(SBE_MESSAGE_BYTES, 74);
    assert_eq!(Encoding::Sbe.encoded_bytes(3), Ok(74));
    assert_eq!(Encoding::Raw.encoded_bytes(3), Ok(74));
    assert_eq!(Encoding::Struct.encoded_bytes(3), Ok(64));
    let serde = Encoding::Serde.encoded_bytes(999_999).unwrap();
    assert!((38..=48).contains(&serde), "{serde}");
    let ids: BTreeSet<i32> = Encoding::ALL.iter().map(|e| e.type_id()).collect();
    assert_eq!(
        ids.len(),
        Encoding::ALL.len(),
        "one ring type id per encoding"
    );
}

/// Sender and receiver as two threads of this process over an anonymous ring small enough to
/// wrap many times: every encoding's messages arrive, decode and check.
#[test]
fn every_encoding_crosses_a_ring_between_two_threads() {
    fn cross<W: Wire>(count: u64) {
        let ring = Ring::anonymous(4096).unwrap();
        let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
        std::thread::scope(|s| {
            s.spawn(|| publish::<W>(&mut producer, count).unwrap());
            let (_, bytes) = receive::<W>(&mut consumer, count, None).unwrap();
            assert!(bytes >= count * 38);
        });
    }
    cross::<Raw>(5000);
    cross::<Sbe>(5000);
    cross::<Struct>(5000);
    cross::<HandCodec>(5000);
    cross::<Serde>(5000);
}

#[test]
fn a_receiver_names_the_first_message_that_differs() {
    let ring = Ring::anonymous(4096).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    producer.try_write(Sbe::TYPE_ID, &encode::<Sbe>(0)).unwrap();
    let mut wrong = encode::<Sbe>(1);
    wrong[8 + 24] ^= 1; // the price
    producer.try_write(Sbe::TYPE_ID, &wrong).unwrap();
    producer
        .try_write(Struct::TYPE_ID, &encode::<Struct>(2))
        .unwrap();
    let err = receive::<Sbe>(&mut consumer, 3, None).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("message 1: decoded"), "{text}");
}
