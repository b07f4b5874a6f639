//! Shared by the fuzz targets: a scratch file per process, a workout of every reader of a ring
//! that opened (each must return, with an error at worst: a panic, a hang or an out-of-bounds
//! read is a finding), and the ring file a `consumer_region` input stands for. The ring's tests
//! compile this file too and replay the committed corpus through it on stable
//! (crates/ring/tests/fuzz_corpus.rs).

use std::path::PathBuf;
use std::time::Duration;

use sympathy_ring::Ring;
use sympathy_ring::inspect::RingView;
use sympathy_ring::layout::*;

/// This process's scratch ring file (in /dev/shm when there is one: no disk writes).
pub fn scratch() -> PathBuf {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("sympathy-fuzz-{}", std::process::id()))
}

/// Writes `bytes` as the ring file, opens it read-only and inspects it, then opens it without
/// waiting and inspects, reads and writes as far as the ring allows.
pub fn open_and_use(bytes: &[u8]) {
    let path = scratch();
    std::fs::write(&path, bytes).unwrap();
    // The read-only view first: it skips the position checks, so its walk meets any head.
    if let Ok(view) = RingView::open_with_timeout(&path, Duration::ZERO) {
        std::hint::black_box(view.snapshot());
        std::hint::black_box(view.peek_records(64));
        std::hint::black_box(view.positions_error());
    }
    if let Ok(ring) = Ring::open_with_timeout(&path, Duration::ZERO) {
        std::hint::black_box(ring.snapshot());
        std::hint::black_box(ring.peek_records(64));
        if let Ok(mut consumer) = ring.consumer() {
            for _ in 0..4 {
                if consumer
                    .read(
                        |t, b| {
                            std::hint::black_box((t, b));
                        },
                        usize::MAX,
                    )
                    .is_err()
                {
                    break;
                }
            }
            let _ = consumer.try_read_one(|t, b| (t, b.len()));
        }
        if let Ok(mut producer) = ring.producer() {
            let _ = producer.try_write(1, &[7; 9]);
            if let Ok(mut claim) = producer.try_claim(2, 3) {
                claim.copy_from_slice(b"abc");
                claim.commit();
            }
        }
    }
    let _ = std::fs::remove_file(&path);
}

/// The ring file a `consumer_region` input stands for: 1 byte capacity choice, 8 bytes head,
/// 8 bytes tail, then the record area (zero-filled or cut to the capacity), behind a valid
/// header. `None` for an input shorter than 17 bytes.
pub fn region_file(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < 17 {
        return None;
    }
    let capacity = MIN_CAPACITY << (data[0] % 5); // 64..=1024
    let head = i64::from_le_bytes(data[1..9].try_into().unwrap());
    let tail = i64::from_le_bytes(data[9..17].try_into().unwrap());
    let area = &data[17..];
    let mut file = vec![0u8; file_length(capacity)];
    file[MAGIC_OFFSET..MAGIC_OFFSET + 8].copy_from_slice(&MAGIC.to_le_bytes());
    file[LAYOUT_VERSION_OFFSET..LAYOUT_VERSION_OFFSET + 4]
        .copy_from_slice(&LAYOUT_VERSION.to_le_bytes());
    file[READY_OFFSET..READY_OFFSET + 4].copy_from_slice(&READY.to_le_bytes());
    file[CAPACITY_OFFSET..CAPACITY_OFFSET + 8].copy_from_slice(&(capacity as u64).to_le_bytes());
    file[MAX_MESSAGE_LENGTH_OFFSET..MAX_MESSAGE_LENGTH_OFFSET + 4]
        .copy_from_slice(&(max_message_length(capacity) as i32).to_le_bytes());
    file[HEADER_LENGTH_OFFSET..HEADER_LENGTH_OFFSET + 4]
        .copy_from_slice(&(HEADER_LENGTH as u32).to_le_bytes());
    let n = area.len().min(capacity);
    file[HEADER_LENGTH..HEADER_LENGTH + n].copy_from_slice(&area[..n]);
    let trailer = HEADER_LENGTH + capacity;
    file[trailer + HEAD_POSITION_OFFSET..trailer + HEAD_POSITION_OFFSET + 8]
        .copy_from_slice(&head.to_le_bytes());
    file[trailer + TAIL_POSITION_OFFSET..trailer + TAIL_POSITION_OFFSET + 8]
        .copy_from_slice(&tail.to_le_bytes());
    Some(file)
}
