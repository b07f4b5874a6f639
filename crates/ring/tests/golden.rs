//! A golden fixture: a 64-byte ring laid out by hand from Agrona's rules (see
//! docs/ring-layout.md), read back exactly; and the same bytes produced by our producer.
//!
//! The story the bytes tell: three 8-byte messages of type 9 (payload 0xEE x 8) were written at
//! indices 0, 16, 32 and an empty one at 48, and all four consumed (head = 56). Then
//! `(5, "abc")`, a 16-byte record, did not fit in the 8 bytes left before the end, so a padding
//! record (length 8, type -1) fills 56..64 and the message starts at 0; `(2, [1..=8])` follows
//! at 16, and the header at 32 is pre-zeroed. (A record that fits the end exactly takes it
//! without padding: see the last test.)

mod common;

use common::TempPath;
use sympathy_ring::layout::*;
use sympathy_ring::{Ring, RingError};

const CAPACITY: usize = 64;

/// A region holding `area` followed by a trailer with the tail, head and producer's head cache.
fn region(area: &[u8; CAPACITY], tail: i64, head: i64, head_cache: i64) -> Vec<u8> {
    let mut r = vec![0u8; CAPACITY + TRAILER_LENGTH];
    r[..CAPACITY].copy_from_slice(area);
    let trailer = CAPACITY;
    r[trailer + 128..trailer + 136].copy_from_slice(&tail.to_le_bytes());
    r[trailer + 256..trailer + 264].copy_from_slice(&head.to_le_bytes());
    r[trailer + 384..trailer + 392].copy_from_slice(&head_cache.to_le_bytes());
    r
}

/// The record area and trailer, byte by byte.
fn hand_built_region() -> Vec<u8> {
    #[rustfmt::skip]
    let area: [u8; CAPACITY] = [
        // index 0: length 11 (8 + "abc"), type 5, "abc", then 5 stale bytes of the old record
        0x0b, 0x00, 0x00, 0x00,  0x05, 0x00, 0x00, 0x00,
        b'a', b'b', b'c', 0xee,  0xee, 0xee, 0xee, 0xee,
        // index 16: length 16, type 2, payload 1..=8
        0x10, 0x00, 0x00, 0x00,  0x02, 0x00, 0x00, 0x00,
        0x01, 0x02, 0x03, 0x04,  0x05, 0x06, 0x07, 0x08,
        // index 32: the pre-zeroed next header, then the stale payload of the old record
        0x00, 0x00, 0x00, 0x00,  0x00, 0x00, 0x00, 0x00,
        0xee, 0xee, 0xee, 0xee,  0xee, 0xee, 0xee, 0xee,
        // index 48: the consumed empty message: length 8, type 9
        0x08, 0x00, 0x00, 0x00,  0x09, 0x00, 0x00, 0x00,
        // index 56: padding to the end: length 8, type -1
        0x08, 0x00, 0x00, 0x00,  0xff, 0xff, 0xff, 0xff,
    ];
    // tail 96 = 56 + 8 (padding) + 16 + 16; head 56; the producer's head cache 56.
    region(&area, 96, 56, 56)
}

fn hand_built_header() -> Vec<u8> {
    let mut h = vec![0u8; HEADER_LENGTH];
    h[0..8].copy_from_slice(b"SYMPRING");
    h[8..12].copy_from_slice(&1u32.to_le_bytes()); // layout version
    h[12..16].copy_from_slice(&1u32.to_le_bytes()); // ready
    h[16..24].copy_from_slice(&64u64.to_le_bytes()); // capacity
    h[24..28].copy_from_slice(&8i32.to_le_bytes()); // max message length = 64 / 8
    h[28..32].copy_from_slice(&4096u32.to_le_bytes()); // header length
    h[32..40].copy_from_slice(&1_700_000_000_000i64.to_le_bytes()); // creation time
    h
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn hand_built_ring_reads_back_exactly() {
    let path = TempPath::new("golden");
    let mut file = hand_built_header();
    file.extend(hand_built_region());
    assert_eq!(file.len(), file_length(CAPACITY));
    std::fs::write(&path.0, &file).unwrap();

    let ring = Ring::open(&path.0).unwrap();
    let snap = ring.snapshot();
    assert_eq!(
        (
            snap.capacity,
            snap.max_message_length,
            snap.creation_time_ms
        ),
        (64, 8, 1_700_000_000_000)
    );
    assert_eq!((snap.head, snap.tail, snap.head_cache), (56, 96, 56));
    let peek: Vec<(i64, usize, i32, i32)> = ring
        .peek_records(10)
        .iter()
        .map(|r| (r.position, r.index, r.length, r.type_id))
        .collect();
    assert_eq!(peek, [(56, 56, 8, -1), (64, 0, 11, 5), (80, 16, 16, 2)]);

    let mut consumer = ring.consumer().unwrap();
    let mut got = Vec::new();
    // First read: the padding at the end of the area (no message); second: both messages.
    for _ in 0..3 {
        consumer.read(|t, b| got.push((t, b.to_vec())), 10).unwrap();
    }
    assert_eq!(got, [(5, b"abc".to_vec()), (2, (1..=8).collect())]);
    assert_eq!(consumer.position(), 96);
}

#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn our_producer_writes_the_hand_built_bytes() {
    let path = TempPath::new("golden-write");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    {
        let mut producer = ring.producer().unwrap();
        let mut consumer = ring.consumer().unwrap();
        for _ in 0..3 {
            producer.try_write(9, &[0xee; 8]).unwrap();
        }
        producer.try_write(9, &[]).unwrap();
        assert_eq!(consumer.read(|_, _| {}, 10).unwrap(), 4);
        producer.try_write(5, b"abc").unwrap();
        producer.try_write(2, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    }
    let file = std::fs::read(&path.0).unwrap();
    let mut region = file[HEADER_LENGTH..].to_vec();
    // The consumer's heartbeat is a wall-clock time: blank it before comparing.
    let hb = CAPACITY + CONSUMER_HEARTBEAT_OFFSET;
    assert_ne!(
        region[hb..hb + 8],
        [0; 8],
        "the consumer heartbeat is written"
    );
    region[hb..hb + 8].fill(0);
    assert_eq!(region, hand_built_region());
    // And the header page, but for the creation time, the producer's heartbeat and the detach
    // records (wall-clock times, written by the detaches above).
    let mut header = file[..HEADER_LENGTH].to_vec();
    header[32..40].copy_from_slice(&1_700_000_000_000i64.to_le_bytes());
    for at in [
        PRODUCER_HEARTBEAT_OFFSET,
        PRODUCER_DETACHED_OFFSET,
        CONSUMER_DETACHED_OFFSET,
    ] {
        assert_ne!(header[at..at + 8], [0; 8], "header word {at} is written");
        header[at..at + 8].fill(0);
    }
    assert_eq!(header, hand_built_header());
}

/// Agrona's `claimCapacity` special case ("message fits within the end of the buffer"): a record
/// whose aligned length equals the bytes left before the end takes them, with no padding, and
/// the header pre-zeroed for the next record is the one at index 0.
#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn a_record_that_exactly_fills_the_end_takes_it_without_padding() {
    let path = TempPath::new("golden-exact-fit");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    let mut producer = ring.producer().unwrap();
    let mut consumer = ring.consumer().unwrap();
    for _ in 0..3 {
        producer.try_write(9, &[0xee; 8]).unwrap();
    }
    assert_eq!(consumer.read(|_, _| {}, 10).unwrap(), 3);
    // 16 bytes are left before the end (48..64): an 8-byte payload needs exactly 16.
    producer.try_write(7, &[0x11; 8]).unwrap();
    let file = std::fs::read(&path.0).unwrap();
    let area = &file[HEADER_LENGTH..HEADER_LENGTH + CAPACITY];
    assert_eq!(
        area[48..52],
        16i32.to_le_bytes(),
        "the record's length at 48"
    );
    assert_eq!(
        area[52..56],
        7i32.to_le_bytes(),
        "its type, not padding's -1"
    );
    assert_eq!(area[56..64], [0x11; 8]);
    assert_eq!(area[0..8], [0; 8], "the next header, at 0, is pre-zeroed");
    let tail = HEADER_LENGTH + CAPACITY + TAIL_POSITION_OFFSET;
    assert_eq!(file[tail..tail + 8], 64i64.to_le_bytes(), "tail = 48 + 16");
    // The next record starts at 0, and both read back in order.
    producer.try_write(8, &[0x22; 8]).unwrap();
    let mut seen = Vec::new();
    // One read stops at the end of the area (as Agrona's): the second takes the record at 0.
    for _ in 0..2 {
        consumer
            .read(
                |type_id, payload| seen.push((type_id, payload.to_vec())),
                10,
            )
            .unwrap();
    }
    assert_eq!(seen, [(7, vec![0x11; 8]), (8, vec![0x22; 8])]);
    assert_eq!(consumer.position(), 80);
}

/// The area after the full-at-the-wrap story of [`full_at_the_wrap`]: records of type 9 at 0,
/// 16, 32 (8-byte payloads of 0xEE) and 48 (empty), the one at 0 consumed (head 16). A
/// 16-byte record does not fit the 8 bytes before the end, and index 0 has only the 16 bytes
/// before the head: Agrona's `claimCapacity` still pads the end (length 8, type -1 at 56),
/// zeroes the header at 0 and moves the tail past the padding (64), then reports the ring full.
fn full_at_the_wrap_region() -> Vec<u8> {
    #[rustfmt::skip]
    let area: [u8; CAPACITY] = [
        // index 0: the consumed record's header, zeroed for the record that will start here
        0x00, 0x00, 0x00, 0x00,  0x00, 0x00, 0x00, 0x00,
        0xee, 0xee, 0xee, 0xee,  0xee, 0xee, 0xee, 0xee,
        // index 16 and 32: unread records, length 16, type 9
        0x10, 0x00, 0x00, 0x00,  0x09, 0x00, 0x00, 0x00,
        0xee, 0xee, 0xee, 0xee,  0xee, 0xee, 0xee, 0xee,
        0x10, 0x00, 0x00, 0x00,  0x09, 0x00, 0x00, 0x00,
        0xee, 0xee, 0xee, 0xee,  0xee, 0xee, 0xee, 0xee,
        // index 48: the unread empty message: length 8, type 9
        0x08, 0x00, 0x00, 0x00,  0x09, 0x00, 0x00, 0x00,
        // index 56: padding to the end: length 8, type -1
        0x08, 0x00, 0x00, 0x00,  0xff, 0xff, 0xff, 0xff,
    ];
    // tail 64 = 56 + 8 (padding); head 16; the head cache refreshed to 16 by the refused write.
    region(&area, 64, 16, 16)
}

/// How a producer is asked to write the record that is refused at the wrap.
#[derive(Debug, Clone, Copy)]
enum Refused {
    Write,
    Claim,
    Batch,
    WriteBatch,
}

/// Runs the story of [`full_at_the_wrap_region`] with the refused record written by `how`, and
/// returns the ring region (the consumer's heartbeat blanked) and the producer's position.
fn full_at_the_wrap(how: Refused) -> (Vec<u8>, i64) {
    let path = TempPath::new("golden-full-wrap");
    let ring = Ring::create(&path.0, CAPACITY).unwrap();
    let position;
    {
        let mut producer = ring.producer().unwrap();
        let mut consumer = ring.consumer().unwrap();
        for _ in 0..3 {
            producer.try_write(9, &[0xee; 8]).unwrap();
        }
        producer.try_write(9, &[]).unwrap();
        assert_eq!(consumer.read(|_, _| {}, 1).unwrap(), 1);
        let refused = match how {
            Refused::Write => producer.try_write(7, &[0x11; 8]).unwrap_err(),
            Refused::Claim => producer.try_claim(7, 8).map(|_| ()).unwrap_err(),
            Refused::Batch => {
                let mut batch = producer.batch();
                let e = batch.try_write(7, &[0x11; 8]).unwrap_err();
                assert_eq!(batch.finish(), 0);
                e
            }
            Refused::WriteBatch => {
                let n = producer
                    .try_write_batch(7, 8, 3, |_, p| p.fill(0x11))
                    .unwrap();
                assert_eq!(n, 0, "nothing fits at index 0");
                RingError::Full {
                    required: 24,
                    available: 16,
                }
            }
        };
        assert!(refused.is_full(), "{how:?}: {refused}");
        position = producer.position();
    }
    let file = std::fs::read(&path.0).unwrap();
    let mut region = file[HEADER_LENGTH..].to_vec();
    let hb = CAPACITY + CONSUMER_HEARTBEAT_OFFSET;
    region[hb..hb + 8].fill(0);
    (region, position)
}

/// Full at the wrap, Agrona's way (`OneToOneRingBuffer.claimCapacity` in 2.x, Aeron's
/// `aeron_spsc_rb_claim_capacity`): the padding is written and the tail moved past it before
/// the write is refused, whichever way the record was asked for. The consumer skips the
/// padding, and the next write starts at index 0.
#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn full_at_the_wrap_pads_the_end_and_moves_the_tail_as_agrona() {
    for how in [
        Refused::Write,
        Refused::Claim,
        Refused::Batch,
        Refused::WriteBatch,
    ] {
        let (region, position) = full_at_the_wrap(how);
        assert_eq!(position, 64, "{how:?}: the producer moved past the padding");
        assert!(
            region == full_at_the_wrap_region(),
            "{how:?}: the ring region differs from Agrona's:\n{:02x?}\nwanted\n{:02x?}",
            &region[..CAPACITY + 400],
            &full_at_the_wrap_region()[..CAPACITY + 400]
        );
    }
}

/// After the padding a full-at-the-wrap write left, the stream goes on at index 0 once the
/// consumer has read past it, and every message arrives once.
#[test]
#[cfg_attr(miri, ignore = "maps a file or spawns a process, which Miri cannot do")]
fn the_write_after_a_full_wrap_starts_at_index_0() {
    let ring = Ring::anonymous(CAPACITY).unwrap();
    let (mut producer, mut consumer) = (ring.producer().unwrap(), ring.consumer().unwrap());
    for k in 0..3 {
        producer.try_write(9, &[k; 8]).unwrap();
    }
    producer.try_write(9, &[]).unwrap();
    let mut seen = Vec::new();
    consumer.read(|t, b| seen.push((t, b.to_vec())), 1).unwrap();
    assert!(producer.try_write(7, &[0x11; 8]).unwrap_err().is_full());
    assert_eq!(producer.position(), 64);
    for _ in 0..2 {
        consumer
            .read(|t, b| seen.push((t, b.to_vec())), 10)
            .unwrap();
    }
    assert_eq!(consumer.position(), 64, "read past the padding");
    producer.try_write(7, &[0x11; 8]).unwrap();
    consumer
        .read(|t, b| seen.push((t, b.to_vec())), 10)
        .unwrap();
    assert_eq!(
        seen,
        [
            (9, vec![0; 8]),
            (9, vec![1; 8]),
            (9, vec![2; 8]),
            (9, vec![]),
            (7, vec![0x11; 8])
        ]
    );
    assert_eq!(consumer.position(), 80);
}
