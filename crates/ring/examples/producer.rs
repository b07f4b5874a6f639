//! The producer half of "Use the ring from your program" (docs/ring.md): creates a ring file and
//! writes `count` messages ("message 0", "message 1", ...), waiting while the ring is full. Its
//! consumer is `java/examples/RingConsumerExample.java`; `ci/ring-examples` runs the two.
//!
//! `cargo run -p sympathy-ring --example producer -- /tmp/demo.ring 1000`

use std::time::Duration;

use sympathy_ring::{Ring, Wait};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: producer RING_FILE [COUNT]")?;
    let count: u64 = args.next().map_or(Ok(1000), |n| n.parse())?;

    let ring = Ring::create(&path, 64 * 1024)?; // 64 KiB of records; the peer opens the file
    let mut producer = ring.producer()?;
    let wait = Wait::backoff().timeout(Duration::from_secs(30));
    for k in 0..count {
        let message = format!("message {k}");
        producer.write(1, message.as_bytes(), &wait)?; // type 1; waits while the ring is full
    }
    println!("sent {count} messages to {path}");
    Ok(())
}
