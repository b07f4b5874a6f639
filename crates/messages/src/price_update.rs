//! The seed's price update (`PriceUpdate` of the schema, template 2): a root block with the
//! embedded instrument, a repeating group of book levels and a variable-length venue.
//!
//! ```text
//!  0        8          16               24         32       40     44  45   48
//!  +--------+----------+----------------+----------+--------+------+---+----+
//!  | header | sequence | instrument: id | symbol   | price  | qty  |sd | 0  |  root block
//!  | 8 B    | u64      | i64            | char[8]  | f64    | i32  |u8 | 3B |  (40 bytes)
//!  +--------+----------+----------------+----------+--------+------+---+----+
//!  48: levels group header: blockLength u16 (16), numInGroup u16 (n)
//!  52: n x { price f64 | quantity i32 | orders i32 }           16 bytes each
//!  52 + 16n: venue length u16, then that many UTF-8 bytes (at most 256)
//! ```
//!
//! One level and a 4-byte venue make 74 bytes, the messaging experiment's message.

use sympathy_sbe::price_update_codec::encoder::LevelsEncoder;
use sympathy_sbe::price_update_codec::{self, PriceUpdateEncoder};
use sympathy_sbe::{Encoder, WriteBuf};

use crate::header::HEADER_LENGTH;
use crate::{MessageError, PriceUpdateView, Symbol};

/// The price update's template id.
pub const PRICE_UPDATE_TEMPLATE_ID: u16 = price_update_codec::SBE_TEMPLATE_ID;
/// Bytes of the root block.
pub const PRICE_UPDATE_BLOCK_LENGTH: u16 = price_update_codec::SBE_BLOCK_LENGTH;
/// Bytes of one level.
pub const LEVEL_LENGTH: u16 = 16;
/// Bytes of the levels group's header.
pub const GROUP_HEADER_LENGTH: usize = 4;
/// Bytes of the venue's length prefix.
pub const VENUE_HEADER_LENGTH: usize = 2;
/// The most venue bytes (the schema's `maxValue` of the venue's length).
pub const MAX_VENUE: usize = 256;
/// The most levels (the group's `numInGroup` is a u16).
pub const MAX_LEVELS: usize = u16::MAX as usize;
/// The root block's unused bytes after `side` (the encoder writes no field there).
const PAD: std::ops::Range<usize> = HEADER_LENGTH + 37..HEADER_LENGTH + 40;

/// A tradable instrument (e.g. a stock), embedded in a price update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Instrument {
    /// Its id.
    pub id: i64,
    /// Its ticker.
    pub symbol: Symbol,
}

/// Which side of the book an update is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// The buy side (0).
    Bid,
    /// The sell side (1).
    Ask,
}

impl Side {
    /// The byte the schema encodes it as.
    #[inline]
    pub fn code(self) -> u8 {
        match self {
            Side::Bid => 0,
            Side::Ask => 1,
        }
    }

    /// The side encoded as `code`.
    ///
    /// # Errors
    /// [`MessageError::BadEnum`] for a byte other than 0 or 1.
    #[inline]
    pub fn from_code(code: u8) -> Result<Side, MessageError> {
        match code {
            0 => Ok(Side::Bid),
            1 => Ok(Side::Ask),
            value => Err(MessageError::BadEnum {
                field: "side",
                value,
            }),
        }
    }

    fn sbe(self) -> sympathy_sbe::side::Side {
        match self {
            Side::Bid => sympathy_sbe::side::Side::Bid,
            Side::Ask => sympathy_sbe::side::Side::Ask,
        }
    }
}

/// One level of the book: a price, the quantity at it and how many orders make it up.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Level {
    /// The level's price.
    pub price: f64,
    /// The quantity at that price.
    pub quantity: i32,
    /// Orders at that price.
    pub orders: i32,
}

/// A price update, owned (what a decode into values returns).
///
/// ```
/// use sympathy_messages::{Instrument, Level, PriceUpdate, Side, Symbol};
/// let update = PriceUpdate {
///     sequence: 7,
///     instrument: Instrument { id: 42, symbol: Symbol::new("AAPL")? },
///     price: 101.25,
///     quantity: 300,
///     side: Side::Bid,
///     levels: vec![Level { price: 101.0, quantity: 500, orders: 3 }],
///     venue: "XNAS".to_string(),
/// };
/// assert_eq!(update.as_ref().encoded_length(), 74);
/// # Ok::<(), sympathy_messages::MessageError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PriceUpdate {
    /// The update's sequence number.
    pub sequence: u64,
    /// The instrument it prices.
    pub instrument: Instrument,
    /// The price.
    pub price: f64,
    /// The quantity.
    pub quantity: i32,
    /// The side.
    pub side: Side,
    /// The book's levels (the repeating group).
    pub levels: Vec<Level>,
    /// Where it trades (the variable-length field).
    pub venue: String,
}

impl PriceUpdate {
    /// The same update, borrowed (what the encoders take).
    pub fn as_ref(&self) -> PriceUpdateRef<'_> {
        PriceUpdateRef {
            sequence: self.sequence,
            instrument: self.instrument,
            price: self.price,
            quantity: self.quantity,
            side: self.side,
            levels: &self.levels,
            venue: &self.venue,
        }
    }
}

/// A price update whose levels and venue are borrowed: what the encoders take, so that
/// encoding allocates nothing. Serializes (with the `serde` feature) exactly as
/// [`PriceUpdate`] does.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PriceUpdateRef<'a> {
    /// The update's sequence number.
    pub sequence: u64,
    /// The instrument it prices.
    pub instrument: Instrument,
    /// The price.
    pub price: f64,
    /// The quantity.
    pub quantity: i32,
    /// The side.
    pub side: Side,
    /// The book's levels.
    pub levels: &'a [Level],
    /// Where it trades.
    pub venue: &'a str,
}

impl PriceUpdateRef<'_> {
    /// Bytes of its SBE encoding: header, block, group header and levels, venue.
    #[inline]
    pub fn encoded_length(&self) -> usize {
        price_update_length(self.levels.len(), self.venue.len())
    }

    /// An owned copy.
    pub fn to_owned(&self) -> PriceUpdate {
        PriceUpdate {
            sequence: self.sequence,
            instrument: self.instrument,
            price: self.price,
            quantity: self.quantity,
            side: self.side,
            levels: self.levels.to_vec(),
            venue: self.venue.to_string(),
        }
    }
}

/// Bytes of an encoded price update with `levels` levels and a `venue`-byte venue.
///
/// ```
/// assert_eq!(sympathy_messages::price_update_length(1, 4), 74);
/// ```
#[inline]
pub const fn price_update_length(levels: usize, venue: usize) -> usize {
    HEADER_LENGTH
        + PRICE_UPDATE_BLOCK_LENGTH as usize
        + GROUP_HEADER_LENGTH
        + levels * LEVEL_LENGTH as usize
        + VENUE_HEADER_LENGTH
        + venue
}

/// Encodes `update` at the start of `buf` with the generated `PriceUpdateEncoder` (in place:
/// `buf` may be a ring claim); returns the bytes written, `update.encoded_length()`.
///
/// # Errors
/// [`MessageError::TooLong`] for more than [`MAX_LEVELS`] levels or a venue over
/// [`MAX_VENUE`] bytes, [`MessageError::BufferTooSmall`] when `buf` is shorter than the
/// encoding. Nothing is written then.
///
/// # Examples
/// ```
/// use sympathy_messages::{Instrument, PriceUpdateRef, PriceUpdateView, Side, Symbol,
///     encode_price_update};
/// let update = PriceUpdateRef {
///     sequence: 1, instrument: Instrument { id: 9, symbol: Symbol::new("MSFT")? },
///     price: 410.5, quantity: 10, side: Side::Ask, levels: &[], venue: "XNYS",
/// };
/// let mut buf = [0u8; 128];
/// let len = encode_price_update(&update, &mut buf)?;
/// let view = PriceUpdateView::new(&buf[..len])?;
/// assert_eq!((view.sequence(), view.venue()), (1, "XNYS"));
/// # Ok::<(), sympathy_messages::MessageError>(())
/// ```
#[inline]
pub fn encode_price_update(
    update: &PriceUpdateRef<'_>,
    buf: &mut [u8],
) -> Result<usize, MessageError> {
    if update.levels.len() > MAX_LEVELS {
        return Err(MessageError::TooLong {
            part: "levels",
            len: update.levels.len(),
            max: MAX_LEVELS,
        });
    }
    if update.venue.len() > MAX_VENUE {
        return Err(MessageError::TooLong {
            part: "venue",
            len: update.venue.len(),
            max: MAX_VENUE,
        });
    }
    let needed = update.encoded_length();
    if buf.len() < needed {
        return Err(MessageError::BufferTooSmall {
            needed,
            len: buf.len(),
        });
    }
    let encoder = PriceUpdateEncoder::default().wrap(WriteBuf::new(buf), HEADER_LENGTH);
    let mut encoder = encoder.header(0).parent()?;
    encoder.sequence(update.sequence);
    let mut instrument = encoder.instrument_encoder();
    instrument
        .instrument_id(update.instrument.id)
        .symbol(update.instrument.symbol.bytes());
    let mut encoder = instrument.parent()?;
    encoder
        .price(update.price)
        .quantity(update.quantity)
        .side(update.side.sbe());
    // Checked above: at most u16::MAX levels.
    let count = update.levels.len() as u16;
    let mut levels = encoder.levels_encoder(count, LevelsEncoder::default());
    for level in update.levels {
        levels.advance()?;
        levels
            .price(level.price)
            .quantity(level.quantity)
            .orders(level.orders);
    }
    let mut encoder = levels.parent()?;
    encoder.venue(update.venue);
    let end = encoder.get_limit();
    // The generator leaves bytes without a field as they were: zeroed, so that the bytes are
    // the same in every language.
    buf[PAD].fill(0);
    Ok(end)
}

/// Decodes the price update at the start of `buf` into values (allocating its levels and
/// venue); [`PriceUpdateView`] reads one in place instead.
///
/// # Errors
/// As [`PriceUpdateView::new`].
pub fn decode_price_update(buf: &[u8]) -> Result<PriceUpdate, MessageError> {
    PriceUpdateView::new(buf).map(|view| view.to_owned())
}
