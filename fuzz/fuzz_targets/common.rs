//! Shared by the fuzz targets: a scratch file per process, and a workout of every reader of a
//! ring that opened (each must return, with an error at worst: a panic, a hang or an
//! out-of-bounds read is a finding).

use std::path::PathBuf;
use std::time::Duration;

use sympathy_ring::Ring;
use sympathy_ring::inspect::RingView;

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
