//! The cost of the hot path without a second core: one thread writes a batch, then reads it.
//! `cargo run --release -p sympathy-ring --example hot_path [size]`
//! Prints ns per message (write + read) for batches of 256; the best of 5 trials, as a rough
//! upper bound on what the code itself costs (no cache-line transfers between cores).

use std::time::Instant;

use sympathy_ring::Ring;

fn main() -> Result<(), sympathy_ring::RingError> {
    let size: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let ring = Ring::anonymous(256 << 10)?;
    let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    let payload = vec![7u8; size];
    let rounds = 20_000;
    for trial in 0..5 {
        let mut sum = 0u64;
        let start = Instant::now();
        for _ in 0..rounds {
            let mut batch = producer.batch();
            for _ in 0..256 {
                batch.try_write(1, &payload)?;
            }
            batch.finish();
            let mut n = 0;
            while n < 256 {
                n += consumer.read(|_, b| sum += b[0] as u64, usize::MAX)?;
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (rounds * 256) as f64;
        assert_eq!(sum, 7 * rounds * 256);
        println!("trial {trial}: {ns:.2} ns/msg (write + read, {size}-byte payload)");
    }
    Ok(())
}
