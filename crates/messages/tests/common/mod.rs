//! What the golden and hostile tests share: the golden values (Java's
//! `dev.sympathy.messages.GoldenValues` has the same) and the schema folder's files.

#![allow(dead_code)]

use std::path::PathBuf;

use sympathy_messages::{Instrument, Level, Order, PriceUpdate, Side, Symbol};

/// `schema/` of the checkout.
pub fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schema")
}

/// The golden order: the seed's.
pub fn golden_order() -> Order {
    Order::seed()
}

/// The golden price update: three levels, a full 8-character symbol, a negative quantity and a
/// venue with a non-ASCII character, so that every field and path shows in its bytes.
pub fn golden_price_update() -> PriceUpdate {
    PriceUpdate {
        sequence: 123_456_789_012,
        instrument: Instrument {
            id: -42,
            symbol: Symbol::new("SYMPATHY").unwrap(),
        },
        price: 1234.5625,
        quantity: -17,
        side: Side::Ask,
        levels: vec![
            Level {
                price: 1234.5,
                quantity: 100,
                orders: 3,
            },
            Level {
                price: 1234.25,
                quantity: 250,
                orders: 7,
            },
            Level {
                price: 1234.0,
                quantity: 1000,
                orders: 12,
            },
        ],
        venue: "Börse".to_string(),
    }
}

pub mod strategies {
    //! proptest strategies of the messages' values (no NaN prices: NaN != NaN).

    use proptest::prelude::*;
    use sympathy_messages::{Instrument, Level, Order, PriceUpdate, Side, Symbol};

    fn finite() -> impl Strategy<Value = f64> {
        any::<f64>().prop_filter("NaN != NaN", |f| !f.is_nan())
    }

    pub fn order() -> impl Strategy<Value = Order> {
        (
            any::<i64>(),
            any::<bool>(),
            any::<i32>(),
            any::<i32>(),
            proptest::array::uniform10(finite()),
            proptest::array::uniform10(any::<i64>()),
        )
            .prop_map(
                |(source_id, special, order_code, priority, prices, quantities)| Order {
                    source_id,
                    special,
                    order_code,
                    priority,
                    prices,
                    quantities,
                },
            )
    }

    pub fn symbol() -> impl Strategy<Value = Symbol> {
        "[ -~]{0,8}".prop_map(|s| Symbol::new(&s).unwrap())
    }

    pub fn level() -> impl Strategy<Value = Level> {
        (finite(), any::<i32>(), any::<i32>()).prop_map(|(price, quantity, orders)| Level {
            price,
            quantity,
            orders,
        })
    }

    pub fn price_update() -> impl Strategy<Value = PriceUpdate> {
        (
            any::<u64>(),
            any::<i64>(),
            symbol(),
            finite(),
            any::<i32>(),
            any::<bool>(),
            proptest::collection::vec(level(), 0..8),
            // Any UTF-8 up to the schema's 256 bytes (at most 4 bytes a character).
            "\\PC{0,64}",
        )
            .prop_map(
                |(sequence, id, symbol, price, quantity, ask, levels, venue)| PriceUpdate {
                    sequence,
                    instrument: Instrument { id, symbol },
                    price,
                    quantity,
                    side: if ask { Side::Ask } else { Side::Bid },
                    levels,
                    venue,
                },
            )
    }
}
