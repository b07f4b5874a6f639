//! Receives COUNT SBE price updates from a ring file that a producer in another process creates
//! (`examples/java/PriceProducer.java`), each checked and read in place from the ring's memory,
//! and prints the first three and the last. A message that is not a price update stops it with
//! that message's number and what is wrong, left in the ring unread (a controlled read that
//! aborts before it), as the Java consumer does.
//!
//! `cargo run -p sympathy-examples --bin price_consumer -- /tmp/prices.ring 100000`

use std::time::{Duration, Instant};

use sympathy_messages::{MessageError, PriceUpdateView, Side};
use sympathy_ring::{Action, Ring};

/// One line per update, the same as the Java consumer prints.
fn describe(u: &PriceUpdateView<'_>) -> String {
    let side = if u.side() == Side::Bid { "bid" } else { "ask" };
    let levels = u.levels().len();
    let plural = if levels == 1 { "" } else { "s" };
    let (symbol, venue) = (u.instrument().symbol, u.venue());
    let (seq, price, quantity) = (u.sequence(), u.price(), u.quantity());
    format!("#{seq} {symbol} {side} {price:.2} x {quantity} ({levels} level{plural}) on {venue}")
}

fn main() {
    if let Err(e) = run() {
        eprintln!("price_consumer: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
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
        let n = consumer.read_controlled(
            |_type, payload| match PriceUpdateView::new(payload) {
                // Checked, then read in place: the payload is the ring's memory.
                Ok(update) => {
                    last = describe(&update);
                    if received < 3 {
                        println!("{last}");
                    }
                    received += 1;
                    Action::Continue
                }
                // Not consumed: the head stays before it, for whoever looks next.
                Err(e) => {
                    bad = Some(e);
                    Action::Abort
                }
            },
            256,
        )?;
        if let Some(e) = bad {
            let number = received + 1;
            return Err(format!(
                "message {number} is not a price update ({e}); it is left in the ring, unread"
            )
            .into());
        }
        if n == 0 {
            std::thread::sleep(Duration::from_micros(50)); // empty: let the producer run
        }
    }
    println!("received {count} price updates, the last: {last}");
    Ok(())
}
