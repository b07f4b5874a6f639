//! Receives COUNT SBE price updates from a ring file that a producer in another process creates
//! (`examples/java/PriceProducer.java`), each checked and read in place from the ring's memory,
//! and prints the first three and the last.
//!
//! `cargo run -p sympathy-examples --bin price_consumer -- /tmp/prices.ring 100000`

use std::time::{Duration, Instant};

use sympathy_messages::{MessageError, PriceUpdateView, Side};
use sympathy_ring::Ring;

/// One line per update, the same as the Java consumer prints.
fn describe(u: &PriceUpdateView<'_>) -> String {
    let side = if u.side() == Side::Bid { "bid" } else { "ask" };
    let levels = u.levels().len();
    let plural = if levels == 1 { "" } else { "s" };
    let (symbol, venue) = (u.instrument().symbol, u.venue());
    let (seq, price, quantity) = (u.sequence(), u.price(), u.quantity());
    format!("#{seq} {symbol} {side} {price:.2} x {quantity} ({levels} level{plural}) on {venue}")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: price_consumer RING_FILE [COUNT]")?;
    let count: u64 = args.next().map_or(Ok(1000), |n| n.parse())?;

    let deadline = Instant::now() + Duration::from_secs(30); // the producer creates the file
    while !std::path::Path::new(&path).exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let ring = Ring::open(&path)?; // waits for the file to be ready
    let mut consumer = ring.consumer()?;
    let (mut received, mut last, mut bad) = (0u64, String::new(), None::<MessageError>);
    while received < count {
        let n = consumer.read(
            |_type, payload| match PriceUpdateView::new(payload) {
                // Checked, then read in place: the payload is the ring's memory.
                Ok(update) => {
                    last = describe(&update);
                    if received < 3 {
                        println!("{last}");
                    }
                    received += 1;
                }
                Err(e) => bad = bad.take().or(Some(e)),
            },
            256,
        )?;
        if let Some(e) = bad {
            return Err(format!("message {received} is not a price update: {e}").into());
        }
        if n == 0 {
            std::thread::sleep(Duration::from_micros(50)); // empty: let the producer run
        }
    }
    println!("received {count} price updates, the last: {last}");
    Ok(())
}
