//! The broadcast ring: receivers join at the latest record, get every record in order while
//! they keep up, count laps and rejoin when they do not, and never hand out a record the
//! transmitter overwrote while they copied it.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::TempPath;
use sympathy_ring::layout;
use sympathy_ring::pattern::{self, Pattern};
use sympathy_ring::{BroadcastRing, RingError};

/// Receivers that keep up get every record in order, across the wrap (padding skipped).
#[test]
fn receivers_that_keep_up_get_every_record_in_order() {
    let ring = BroadcastRing::anonymous(1024).unwrap();
    let mut transmitter = ring.transmitter().unwrap();
    let mut receivers = [ring.receiver().unwrap(), ring.receiver().unwrap()];
    let pattern = Pattern::new(100);
    let mut buf = [0u8; 100];
    for i in 0..5_000u64 {
        let size = 4 + (i as usize * 13) % 97;
        pattern.fill_len(i, &mut buf[..size]);
        transmitter
            .transmit(1 + (i % 3) as i32, &buf[..size])
            .unwrap();
        for r in receivers.iter_mut() {
            let (type_id, len) = r
                .receive(|t, b| {
                    pattern.check_len(i, b).unwrap();
                    (t, b.len())
                })
                .unwrap()
                .expect("a record");
            assert_eq!((type_id, len), (1 + (i % 3) as i32, size));
            assert_eq!(r.receive(|_, _| ()).unwrap(), None);
        }
    }
    assert!(receivers.iter().all(|r| r.lapped_count() == 0));
}

/// A new receiver starts at the latest record; one lapped by the transmitter counts the lap
/// and goes on from the latest record.
#[test]
fn a_lapped_receiver_counts_the_lap_and_rejoins_at_the_latest() {
    let ring = BroadcastRing::anonymous(256).unwrap();
    let mut transmitter = ring.transmitter().unwrap();
    let mut slow = ring.receiver().unwrap();
    for i in 0..3u64 {
        transmitter.transmit(1, &i.to_le_bytes()).unwrap();
    }
    let index = |r: &mut sympathy_ring::Receiver| {
        r.receive(|_, b| u64::from_le_bytes(b.try_into().unwrap()))
            .unwrap()
    };
    assert_eq!(index(&mut slow), Some(0));
    let mut late = ring.receiver().unwrap();
    assert_eq!(index(&mut late), Some(2), "joins at the latest record");
    for i in 3..100u64 {
        transmitter.transmit(1, &i.to_le_bytes()).unwrap();
    }
    assert_eq!(index(&mut slow), Some(99), "lapped: rejoined at the latest");
    assert_eq!(slow.lapped_count(), 1);
    assert_eq!(index(&mut slow), None);
}

/// The transmitter at full speed on one thread, a receiver on another checking every record it
/// is handed against the pattern: whatever it misses to laps, what it gets is intact and in
/// increasing order.
#[test]
fn a_receiver_racing_the_transmitter_never_hands_out_an_overwritten_record() {
    let ring = BroadcastRing::anonymous(512).unwrap();
    let mut transmitter = ring.transmitter().unwrap();
    let mut receiver = ring.receiver().unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let stop = done.clone();
    let sender = std::thread::spawn(move || {
        let pattern = Pattern::new(60);
        let mut buf = [0u8; 60];
        for i in 0..2_000_000u64 {
            let size = 8 + (i as usize % 53);
            pattern.fill_len(i, &mut buf[..size]);
            transmitter.transmit(1, &buf[..size]).unwrap();
        }
        stop.store(true, Ordering::Release);
    });
    let pattern = Pattern::new(60);
    let (mut received, mut last) = (0u64, None::<u64>);
    while !done.load(Ordering::Acquire) {
        let got = receiver
            .receive(|_, b| {
                let i = pattern::index_of(b).unwrap();
                pattern.check_len(i, b).map(|()| i)
            })
            .unwrap();
        if let Some(outcome) = got {
            let i = outcome.expect("an intact record");
            assert!(last.is_none_or(|l| i > l), "{i} after {last:?}");
            last = Some(i);
            received += 1;
        }
    }
    sender.join().unwrap();
    assert!(received > 0);
    eprintln!("received {received}, lapped {}", receiver.lapped_count());
}

/// A restarted transmitter resumes after the last complete record; receivers see no gap.
#[test]
fn a_new_transmitter_resumes_after_the_last_record() {
    let path = TempPath::new("broadcast-resume");
    let ring = BroadcastRing::create(&path.0, 1024).unwrap();
    let mut receiver = ring.receiver().unwrap();
    let mut first = ring.transmitter().unwrap();
    assert_eq!(
        ring.transmitter().unwrap_err().kind(),
        "already-attached",
        "one transmitter at a time"
    );
    first.transmit(1, b"one").unwrap();
    drop(first);
    let mut second = BroadcastRing::open(&path.0).unwrap().transmitter().unwrap();
    second.transmit(1, b"two").unwrap();
    let mut got = Vec::new();
    while let Some(b) = receiver.receive(|_, b| b.to_vec()).unwrap() {
        got.push(b);
    }
    assert_eq!(got, [b"one".to_vec(), b"two".to_vec()]);
}

/// Records no transmitter writes, found intact, are corrupt; impossible trailers are refused.
#[test]
fn hostile_records_and_positions_are_refused() {
    let path = TempPath::new("broadcast-hostile");
    let ring = BroadcastRing::create(&path.0, 1024).unwrap();
    ring.transmitter().unwrap().transmit(1, b"fine").unwrap();
    let record = layout::HEADER_LENGTH;
    let trailer = layout::HEADER_LENGTH + 1024;
    let cases: [(usize, i64, &str); 3] = [
        // length 4: shorter than the header
        (
            record,
            layout::pack_header(4, 1),
            "shorter than the 8-byte header",
        ),
        // type 0
        (record, layout::pack_header(12, 0), "neither a message type"),
        // a record running past the end of the area
        (record, layout::pack_header(2000, 1), "exceeds"),
    ];
    for (offset, value, says) in cases {
        let bytes = std::fs::read(&path.0).unwrap();
        let mut hostile = bytes.clone();
        hostile[offset..offset + 8].copy_from_slice(&value.to_le_bytes());
        std::fs::write(&path.0, &hostile).unwrap();
        let mut receiver = BroadcastRing::open(&path.0).unwrap().receiver().unwrap();
        let e = receiver.receive(|_, _| ()).unwrap_err();
        assert_eq!(e.kind(), "corrupt-record", "{e}");
        assert!(e.to_string().contains(says), "{e}");
        std::fs::write(&path.0, &bytes).unwrap();
    }
    let mut bytes = std::fs::read(&path.0).unwrap();
    let tail = trailer + layout::BROADCAST_TAIL_OFFSET;
    bytes[tail..tail + 8].copy_from_slice(&12i64.to_le_bytes());
    std::fs::write(&path.0, &bytes).unwrap();
    let e = BroadcastRing::open(&path.0).unwrap_err();
    assert!(matches!(e, RingError::CorruptRecord { .. }), "{e}");
}

/// Type ids below 1 and payloads over capacity / 8 are refused, as by the other kinds.
#[test]
fn bad_messages_are_refused() {
    let ring = BroadcastRing::anonymous(1024).unwrap();
    let mut transmitter = ring.transmitter().unwrap();
    assert_eq!(
        transmitter.transmit(0, b"x").unwrap_err().kind(),
        "invalid-type-id"
    );
    assert_eq!(
        transmitter.transmit(1, &[0; 129]).unwrap_err().kind(),
        "message-too-long"
    );
    transmitter.transmit(1, &[0; 128]).unwrap();
}
