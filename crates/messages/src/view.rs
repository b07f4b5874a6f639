//! [`PriceUpdateView`]: a price update read in place (zero copy) through the generated
//! `PriceUpdateDecoder`, after every length, enum and string it reads was checked.

use sympathy_sbe::ReadBuf;
use sympathy_sbe::price_update_codec::PriceUpdateDecoder;
use sympathy_sbe::price_update_codec::decoder::LevelsDecoder;

use crate::header::{HEADER_LENGTH, check_header, u16_at};
use crate::price_update::{
    GROUP_HEADER_LENGTH, LEVEL_LENGTH, MAX_VENUE, PRICE_UPDATE_BLOCK_LENGTH,
    PRICE_UPDATE_TEMPLATE_ID, VENUE_HEADER_LENGTH,
};
use crate::symbol::SYMBOL_LENGTH;
use crate::{Instrument, Level, MessageError, PriceUpdate, Side, Symbol};

/// Offset of the instrument's symbol in the root block.
const SYMBOL_OFFSET: usize = 16;
/// Offset of `side` in the root block.
const SIDE_OFFSET: usize = 36;

/// A checked price update in a byte slice (a ring record's payload, a file), read in place.
///
/// [`PriceUpdateView::new`] checks, in this order, the header (`truncated`, `wrong-schema`,
/// `wrong-template`, `bad-block-length`), the symbol (`bad-symbol`) and side (`bad-enum`) of
/// the root block, the levels group (`truncated`, `bad-block-length`) and the venue
/// (`truncated`, `too-long`, `bad-utf8`); the accessors then read through the generated
/// decoder and cannot fail. Java's `SbeMessages.checkPriceUpdate` makes the same checks in
/// the same order.
///
/// ```
/// use sympathy_messages::{PriceUpdateView, decode_price_update};
/// let err = PriceUpdateView::new(&[0u8; 6]).unwrap_err();
/// assert_eq!(err.kind(), "truncated");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct PriceUpdateView<'a> {
    /// The message's bytes, exactly (checked).
    buf: &'a [u8],
    /// The root block's length, from the header (at least the schema's).
    block: u16,
    /// The sender's schema version, from the header.
    version: u16,
    side: Side,
    levels: u16,
    /// Where the venue's bytes start in `buf` (checked to be UTF-8).
    venue_at: u32,
}

impl<'a> PriceUpdateView<'a> {
    /// Checks the price update at the start of `buf` (bytes after it are ignored).
    ///
    /// # Errors
    /// [`MessageError`] naming the first check that failed.
    #[inline]
    pub fn new(buf: &'a [u8]) -> Result<PriceUpdateView<'a>, MessageError> {
        let block = check_header(
            buf,
            PRICE_UPDATE_TEMPLATE_ID,
            "price update",
            PRICE_UPDATE_BLOCK_LENGTH,
        )?;
        let root = HEADER_LENGTH;
        Symbol::from_bytes(symbol_at(buf, root + SYMBOL_OFFSET))?;
        let side = Side::from_code(buf[root + SIDE_OFFSET])?;
        let len = buf.len();
        let group = root + usize::from(block);
        let truncated = |part, needed| MessageError::Truncated { part, needed, len };
        if len < group + GROUP_HEADER_LENGTH {
            return Err(truncated(
                "levels group header",
                group + GROUP_HEADER_LENGTH,
            ));
        }
        let level_length = u16_at(buf, group);
        if level_length < LEVEL_LENGTH {
            return Err(MessageError::BadBlockLength {
                part: "levels",
                found: level_length,
                min: LEVEL_LENGTH,
            });
        }
        let levels = usize::from(u16_at(buf, group + 2));
        let venue_at = group + GROUP_HEADER_LENGTH + levels * usize::from(level_length);
        if len < venue_at {
            return Err(truncated("levels", venue_at));
        }
        if len < venue_at + VENUE_HEADER_LENGTH {
            return Err(truncated("venue length", venue_at + VENUE_HEADER_LENGTH));
        }
        let venue_len = usize::from(u16_at(buf, venue_at));
        if venue_len > MAX_VENUE {
            return Err(MessageError::TooLong {
                part: "venue",
                len: venue_len,
                max: MAX_VENUE,
            });
        }
        let end = venue_at + VENUE_HEADER_LENGTH + venue_len;
        if len < end {
            return Err(truncated("venue", end));
        }
        let venue = &buf[venue_at + VENUE_HEADER_LENGTH..end];
        // ASCII is UTF-8; only other bytes need the full check.
        if !venue.is_ascii() && std::str::from_utf8(venue).is_err() {
            return Err(MessageError::BadUtf8);
        }
        // Checked: the generated decoder reads within `buf` only from here on. (The venue's
        // place is the one its `venue_decoder` finds after walking the group; the checks
        // computed it.) `end` fits in u32: it is at most 8 + 65535 + 4 + 65535 x 65535 + 2 + 256.
        Ok(PriceUpdateView {
            buf: &buf[..end],
            block,
            version: u16_at(buf, 6),
            side,
            levels: levels as u16,
            venue_at: (venue_at + VENUE_HEADER_LENGTH) as u32,
        })
    }

    /// The generated decoder over the message (wrapping sets four fields: cheap).
    #[inline(always)]
    fn decoder(&self) -> PriceUpdateDecoder<'a> {
        PriceUpdateDecoder::default().wrap(
            ReadBuf::new(self.buf),
            HEADER_LENGTH,
            self.block,
            self.version,
        )
    }

    /// Bytes of the message.
    #[inline]
    pub fn encoded_length(&self) -> usize {
        self.buf.len()
    }

    /// The sequence number.
    #[inline]
    pub fn sequence(&self) -> u64 {
        self.decoder().sequence()
    }

    /// The embedded instrument.
    #[inline]
    pub fn instrument(&self) -> Instrument {
        let decoder = self.decoder().instrument_decoder();
        Instrument {
            id: decoder.instrument_id(),
            // Checked by `new`.
            symbol: Symbol::checked(decoder.symbol()),
        }
    }

    /// The price.
    #[inline]
    pub fn price(&self) -> f64 {
        self.decoder().price()
    }

    /// The quantity.
    #[inline]
    pub fn quantity(&self) -> i32 {
        self.decoder().quantity()
    }

    /// The side.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The levels, in order.
    #[inline]
    pub fn levels(&self) -> Levels<'a> {
        Levels {
            decoder: self.decoder().levels_decoder(),
            remaining: usize::from(self.levels),
        }
    }

    /// The venue.
    #[inline]
    pub fn venue(&self) -> &'a str {
        // Checked by `new`: never the default.
        std::str::from_utf8(self.venue_bytes()).unwrap_or_default()
    }

    /// The venue's UTF-8 bytes, without converting them to `str` (checked by `new`).
    #[inline]
    pub fn venue_bytes(&self) -> &'a [u8] {
        &self.buf[self.venue_at as usize..]
    }

    /// The update as values (allocates its levels and venue).
    pub fn to_owned(&self) -> PriceUpdate {
        PriceUpdate {
            sequence: self.sequence(),
            instrument: self.instrument(),
            price: self.price(),
            quantity: self.quantity(),
            side: self.side(),
            levels: self.levels().collect(),
            venue: self.venue().to_string(),
        }
    }
}

/// The 8 symbol bytes at `at` (the caller checked that they are in `buf`).
#[inline(always)]
fn symbol_at(buf: &[u8], at: usize) -> [u8; SYMBOL_LENGTH] {
    let mut symbol = [0u8; SYMBOL_LENGTH];
    symbol.copy_from_slice(&buf[at..at + SYMBOL_LENGTH]);
    symbol
}

/// The levels of a [`PriceUpdateView`], read in place through the generated group decoder.
#[derive(Debug)]
pub struct Levels<'a> {
    decoder: LevelsDecoder<PriceUpdateDecoder<'a>>,
    remaining: usize,
}

impl Iterator for Levels<'_> {
    type Item = Level;

    #[inline]
    fn next(&mut self) -> Option<Level> {
        // Checked by the view: every announced level lies within the bytes.
        match self.decoder.advance() {
            Ok(Some(_)) => {
                self.remaining -= 1;
                Some(Level {
                    price: self.decoder.price(),
                    quantity: self.decoder.quantity(),
                    orders: self.decoder.orders(),
                })
            }
            _ => None,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Levels<'_> {}
