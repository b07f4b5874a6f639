//! sympathy's typed messages: the values of `schema/sympathy-messages.xml` and their checked,
//! zero-copy SBE encode and decode, over the codecs the SBE tool generates (`sympathy-sbe`,
//! `crates/sbe`). Java's twin is `dev.sympathy.messages` (`java/messages`); both write the
//! same bytes, checked against each other by the golden files of `schema/golden/` and a
//! proptest through a Java process (`docs/messaging.md`).
//!
//! - [`Order`]: the serialization experiment's order, [`encode_order`] / [`decode_order`].
//! - [`PriceUpdate`] (owned) and [`PriceUpdateRef`] (borrowed levels and venue): the seed's
//!   price update with its embedded [`Instrument`], a repeating group of [`Level`]s and a
//!   variable-length venue; [`encode_price_update`] writes one in place (a ring claim),
//!   [`PriceUpdateView`] reads one in place after checking it.
//! - [`MessageError`]: every way bytes are not a message, typed, with the same
//!   [`kind`](MessageError::kind) as Java's `MessageFormatException` for the same bytes.
//!
//! A decode never panics and never reads outside its slice: every length and enum it reads is
//! checked first (the generated decoders index slices and would panic on a short one).
//!
//! ```
//! use sympathy_messages::{Instrument, Level, PriceUpdateRef, PriceUpdateView, Side, Symbol,
//!     encode_price_update};
//! let levels = [Level { price: 99.5, quantity: 200, orders: 4 }];
//! let update = PriceUpdateRef {
//!     sequence: 1,
//!     instrument: Instrument { id: 1001, symbol: Symbol::new("AAPL")? },
//!     price: 99.75,
//!     quantity: 100,
//!     side: Side::Bid,
//!     levels: &levels,
//!     venue: "XNAS",
//! };
//! let mut buf = [0u8; 128];
//! let len = encode_price_update(&update, &mut buf)?;   // in place: buf may be a ring claim
//! let view = PriceUpdateView::new(&buf[..len])?;        // checked, then read in place
//! assert_eq!(view.instrument().symbol.as_str(), "AAPL");
//! assert_eq!(view.levels().next(), Some(levels[0]));
//! assert_eq!(view.to_owned().as_ref(), update);
//! # Ok::<(), sympathy_messages::MessageError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod header;
mod order;
mod price_update;
mod symbol;
mod view;

pub use error::MessageError;
pub use header::{HEADER_LENGTH, SCHEMA_ID, SCHEMA_VERSION};
pub use order::{ORDER_LENGTH, ORDER_TEMPLATE_ID, Order, decode_order, encode_order};
pub use price_update::{
    GROUP_HEADER_LENGTH, Instrument, LEVEL_LENGTH, Level, MAX_LEVELS, MAX_VENUE,
    PRICE_UPDATE_BLOCK_LENGTH, PRICE_UPDATE_TEMPLATE_ID, PriceUpdate, PriceUpdateRef, Side,
    VENUE_HEADER_LENGTH, decode_price_update, encode_price_update, price_update_length,
};
pub use symbol::{SYMBOL_LENGTH, Symbol};
pub use view::{Levels, PriceUpdateView};
