//! Sends COUNT SBE price updates over a ring file to a consumer in another process
//! (`examples/java/PriceConsumer.java`). Each update is encoded in place into the record the ring
//! hands out (a claim), then published: no copy.
//!
//! `cargo run -p sympathy-examples --bin price_producer -- /tmp/prices.ring 100000`

use std::time::Duration;

use sympathy_messages::{
    Instrument, Level, PRICE_UPDATE_TEMPLATE_ID, PriceUpdateRef, Side, Symbol, encode_price_update,
};
use sympathy_ring::Ring;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: price_producer RING_FILE [COUNT]")?;
    let count: u64 = args.next().map_or(Ok(1000), |n| n.parse())?;

    let ring = Ring::create(&path, 64 * 1024)?; // 64 KiB of records; the consumer opens the file
    let mut producer = ring.producer()?;
    let instrument = Instrument {
        id: 1,
        symbol: Symbol::new("AAPL")?,
    };
    for k in 0..count {
        let price = 100.0 + (k % 100) as f64 * 0.25;
        let quantity = 10 + (k % 90) as i32;
        let levels = [Level {
            price: price - 0.25,
            quantity: quantity * 2,
            orders: 3,
        }];
        let side = if k % 2 == 0 { Side::Bid } else { Side::Ask };
        let update = PriceUpdateRef {
            sequence: k,
            instrument,
            price,
            quantity,
            side,
            levels: &levels,
            venue: "XNAS",
        };
        loop {
            // The record's type is the SBE template id; its length the message's.
            match producer.try_claim(i32::from(PRICE_UPDATE_TEMPLATE_ID), update.encoded_length()) {
                Ok(mut claim) => {
                    encode_price_update(&update, &mut claim)?; // straight into the ring
                    claim.commit();
                    break;
                }
                Err(e) if e.is_full() => std::thread::sleep(Duration::from_micros(50)), // back pressure
                Err(e) => return Err(e.into()),
            }
        }
    }
    println!("sent {count} price updates to {path}");
    Ok(())
}
