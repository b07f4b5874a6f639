//! The messages the experiment sends: price update `seq` is a function of `seq` alone, the same
//! in Rust and in Java (`MessageSample` of java/app), so a receiver in either language knows
//! what every message must decode to.
//!
//! ```
//! use sympathy_lab::messaging::sample;
//! let s = sample(5);
//! let update = s.as_ref();
//! assert_eq!(update.instrument.symbol.as_str(), "META");
//! assert_eq!((update.price, update.quantity, update.venue), (101.25, 6, "XNYS"));
//! assert_eq!(update.encoded_length(), 74); // one level, a 4-byte venue
//! ```

use sympathy_messages::{Instrument, Level, PriceUpdateRef, Side, Symbol};

/// The instruments' tickers, by `seq % 8`.
pub const SYMBOLS: [&str; 8] = [
    "AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "META", "TSLA", "NFLX",
];
/// The venues, by `seq % 4`.
pub const VENUES: [&str; 4] = ["XNAS", "XNYS", "BATS", "IEXG"];

/// Price update `seq`, its one level held inline (a venue is a constant).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// The update but its levels, which are `level` (`as_ref` lends them).
    update: PriceUpdateRef<'static>,
    level: [Level; 1],
}

impl Sample {
    /// The update, borrowed, as the encoders take it.
    #[inline(always)]
    pub fn as_ref(&self) -> PriceUpdateRef<'_> {
        PriceUpdateRef {
            levels: &self.level,
            ..self.update
        }
    }
}

/// The tickers as symbols, checked when this crate compiles.
const SYMBOL_VALUES: [Symbol; 8] = [
    symbol(*b"AAPL\0\0\0\0"),
    symbol(*b"MSFT\0\0\0\0"),
    symbol(*b"GOOG\0\0\0\0"),
    symbol(*b"AMZN\0\0\0\0"),
    symbol(*b"NVDA\0\0\0\0"),
    symbol(*b"META\0\0\0\0"),
    symbol(*b"TSLA\0\0\0\0"),
    symbol(*b"NFLX\0\0\0\0"),
];

/// A ticker known when this crate compiles (an invalid one fails the build, not a run).
const fn symbol(bytes: [u8; 8]) -> Symbol {
    match Symbol::constant(bytes) {
        Some(symbol) => symbol,
        None => panic!("a ticker of SYMBOL_VALUES is not printable ASCII"),
    }
}

/// Price update `seq`: instrument `1000 + seq % 8` with the `seq % 8`-th ticker, price
/// `100 + (seq % 1000) / 4`, quantity `seq % 500 + 1`, bid for even `seq`, ask for odd, one
/// level a quarter below the price with twice the quantity and `seq % 7 + 1` orders, the
/// `seq % 4`-th venue. Every value is exact in binary floating point, so both languages
/// compute the same bits.
#[inline(always)]
pub fn sample(seq: u64) -> Sample {
    let k = (seq % 8) as usize;
    // Below 1000: converted as a u32 (one instruction, where a u64 takes several).
    let thousandth = (seq % 1000) as u32;
    let price = 100.0 + f64::from(thousandth) * 0.25;
    let quantity = (thousandth % 500) as i32 + 1; // seq % 500
    Sample {
        update: PriceUpdateRef {
            sequence: seq,
            instrument: Instrument {
                id: 1000 + k as i64,
                symbol: SYMBOL_VALUES[k],
            },
            price,
            quantity,
            side: if seq.is_multiple_of(2) {
                Side::Bid
            } else {
                Side::Ask
            },
            levels: &[],
            venue: VENUES[(seq % 4) as usize],
        },
        level: [Level {
            price: price - 0.25,
            quantity: quantity * 2,
            orders: (seq % 7) as i32 + 1,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tickers_are_the_symbols() {
        for (text, symbol) in SYMBOLS.iter().zip(SYMBOL_VALUES) {
            assert_eq!(symbol.as_str(), *text);
        }
    }
}
