//! The messaging experiment's fixed layout of a price update (its `struct` and `hand-codec`
//! encodings, in both languages): 64 bytes, little-endian, one level (the top of the book) and
//! the venue NUL-padded to 8 bytes.
//!
//! ```text
//!  0          8               16         24       32     36  37   40
//!  +----------+---------------+----------+--------+------+---+----+
//!  | sequence | instrument id | symbol   | price  | qty  |sd | 0  |
//!  | u64      | i64           | [u8; 8]  | f64    | i32  |u8 | 3B |
//!  +----------+---------------+----------+--------+------+---+----+
//!  40             48      52       56              64
//!  +--------------+-------+--------+---------------+
//!  | level price  | level | level  | venue [u8; 8] |
//!  | f64          | qty   | orders | NUL-padded    |
//!  +--------------+-------+--------+---------------+
//! ```

use sympathy_messages::{Instrument, Level, PriceUpdateRef, Side, Symbol};
use zerocopy::byteorder::little_endian::{F64, I32, I64, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::sample::sample;
use super::wire::Wire;
use crate::cursor::{BufferTooSmall, Reader, Writer};

/// Offsets and size of the layout (the diagram above).
pub struct UpdateLayout;

impl UpdateLayout {
    /// `sequence` (u64).
    pub const SEQUENCE: usize = 0;
    /// The instrument's id (i64).
    pub const INSTRUMENT_ID: usize = 8;
    /// The instrument's symbol (8 bytes, NUL-padded).
    pub const SYMBOL: usize = 16;
    /// `price` (f64).
    pub const PRICE: usize = 24;
    /// `quantity` (i32).
    pub const QUANTITY: usize = 32;
    /// `side` (u8: 0 bid, 1 ask).
    pub const SIDE: usize = 36;
    /// The level's price (f64).
    pub const LEVEL_PRICE: usize = 40;
    /// The level's quantity (i32).
    pub const LEVEL_QUANTITY: usize = 48;
    /// The level's orders (i32).
    pub const LEVEL_ORDERS: usize = 52;
    /// The venue (8 bytes of UTF-8, NUL-padded).
    pub const VENUE: usize = 56;
    /// Bytes of one update.
    pub const SIZE: usize = 64;
    /// The most venue bytes.
    pub const VENUE_BYTES: usize = 8;
}

/// [`UpdateLayout`] as a `zerocopy` type (alignment 1: laid over any 64 bytes in place).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct UpdateRecord {
    sequence: U64,
    instrument_id: I64,
    symbol: [u8; 8],
    price: F64,
    quantity: I32,
    side: u8,
    pad: [u8; 3],
    level_price: F64,
    level_quantity: I32,
    level_orders: I32,
    venue: [u8; 8],
}

const _: () = assert!(size_of::<UpdateRecord>() == UpdateLayout::SIZE);

/// The one level and the padded venue of `update`, or why the layout cannot hold it.
#[inline(always)]
fn fixed_parts(update: &PriceUpdateRef<'_>) -> Result<(Level, [u8; 8]), String> {
    let [level] = update.levels else {
        return Err(format!(
            "the fixed layout holds one level, the update has {}",
            update.levels.len()
        ));
    };
    let venue = update.venue.as_bytes();
    if venue.len() > UpdateLayout::VENUE_BYTES {
        return Err(format!(
            "the fixed layout holds a venue of up to 8 bytes, not {}",
            venue.len()
        ));
    }
    let mut padded = [0u8; 8];
    padded[..venue.len()].copy_from_slice(venue);
    Ok((*level, padded))
}

/// The fields of one decoded record, compared with `expected` as a whole.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn compare(
    expected: &PriceUpdateRef<'_>,
    sequence: u64,
    instrument_id: i64,
    symbol: [u8; 8],
    price: f64,
    quantity: i32,
    side: u8,
    level: Level,
    venue: [u8; 8],
) -> Result<(), String> {
    let (want_level, want_venue) = fixed_parts(expected)?;
    let same = sequence == expected.sequence
        && instrument_id == expected.instrument.id
        && symbol == *expected.instrument.symbol.bytes()
        && price == expected.price
        && quantity == expected.quantity
        && side == expected.side.code()
        && level == want_level
        && venue == want_venue;
    if same {
        return Ok(());
    }
    let decoded = PriceUpdateRef {
        sequence,
        instrument: Instrument {
            id: instrument_id,
            symbol: Symbol::from_bytes(symbol).unwrap_or_default(),
        },
        price,
        quantity,
        side: Side::from_code(side).unwrap_or(Side::Bid),
        levels: &[level],
        venue: std::str::from_utf8(&venue).unwrap_or("?"),
    };
    Err(format!(
        "decoded {decoded:?} (side byte {side}), expected {expected:?}"
    ))
}

/// `struct`: the [`UpdateRecord`] view, fields set and read in place.
pub struct Struct;

impl Struct {
    /// Bytes of a record.
    pub const LENGTH: usize = UpdateLayout::SIZE;
}

impl Wire for Struct {
    const TYPE_ID: i32 = 3;
    const FIXED: Option<usize> = Some(UpdateLayout::SIZE);

    #[inline(always)]
    fn encode(seq: u64, buf: &mut [u8]) -> Result<usize, String> {
        let sample = sample(seq);
        let update = sample.as_ref();
        let (level, venue) = fixed_parts(&update)?;
        let len = buf.len();
        let (record, _) = UpdateRecord::mut_from_prefix(buf)
            .map_err(|_| format!("a {len}-byte record cannot hold the 64-byte struct"))?;
        record.sequence = U64::new(update.sequence);
        record.instrument_id = I64::new(update.instrument.id);
        record.symbol = *update.instrument.symbol.bytes();
        record.price = F64::new(update.price);
        record.quantity = I32::new(update.quantity);
        record.side = update.side.code();
        record.pad = [0; 3];
        record.level_price = F64::new(level.price);
        record.level_quantity = I32::new(level.quantity);
        record.level_orders = I32::new(level.orders);
        record.venue = venue;
        Ok(UpdateLayout::SIZE)
    }

    #[inline(always)]
    fn verify(seq: u64, bytes: &[u8]) -> Result<(), String> {
        let record = UpdateRecord::ref_from_bytes(bytes)
            .map_err(|_| format!("a {}-byte record is not the 64-byte struct", bytes.len()))?;
        let level = Level {
            price: record.level_price.get(),
            quantity: record.level_quantity.get(),
            orders: record.level_orders.get(),
        };
        compare(
            &sample(seq).as_ref(),
            record.sequence.get(),
            record.instrument_id.get(),
            record.symbol,
            record.price.get(),
            record.quantity.get(),
            record.side,
            level,
            record.venue,
        )
    }
}

/// `hand-codec`: the [`UpdateLayout`] field by field through a cursor that checks the bounds
/// of every access (the serialization experiment's cursor).
pub struct HandCodec;

impl Wire for HandCodec {
    const TYPE_ID: i32 = 4;
    const FIXED: Option<usize> = Some(UpdateLayout::SIZE);

    #[inline(always)]
    fn encode(seq: u64, buf: &mut [u8]) -> Result<usize, String> {
        let sample = sample(seq);
        let u = sample.as_ref();
        let (level, venue) = fixed_parts(&u)?;
        let mut w = Writer::<BufferTooSmall>::new(buf);
        let put = |w: &mut Writer<'_, BufferTooSmall>| -> Result<(), BufferTooSmall> {
            w.put(u.sequence.to_le_bytes())?;
            w.put(u.instrument.id.to_le_bytes())?;
            w.put(*u.instrument.symbol.bytes())?;
            w.put(u.price.to_le_bytes())?;
            w.put(u.quantity.to_le_bytes())?;
            w.put([u.side.code(), 0, 0, 0])?;
            w.put(level.price.to_le_bytes())?;
            w.put(level.quantity.to_le_bytes())?;
            w.put(level.orders.to_le_bytes())?;
            w.put(venue)
        };
        put(&mut w).map_err(|e| e.to_string())?;
        Ok(w.pos)
    }

    #[inline(always)]
    fn verify(seq: u64, bytes: &[u8]) -> Result<(), String> {
        if bytes.len() != UpdateLayout::SIZE {
            return Err(format!(
                "a {}-byte record is not the 64-byte layout",
                bytes.len()
            ));
        }
        let mut r = Reader::<BufferTooSmall>::new(bytes);
        let read = |r: &mut Reader<'_, BufferTooSmall>| -> Result<_, BufferTooSmall> {
            let sequence = u64::from_le_bytes(r.get()?);
            let instrument_id = i64::from_le_bytes(r.get()?);
            let symbol: [u8; 8] = r.get()?;
            let price = f64::from_le_bytes(r.get()?);
            let quantity = i32::from_le_bytes(r.get()?);
            let [side, _, _, _] = r.get::<4>()?;
            let level = Level {
                price: f64::from_le_bytes(r.get()?),
                quantity: i32::from_le_bytes(r.get()?),
                orders: i32::from_le_bytes(r.get()?),
            };
            let venue: [u8; 8] = r.get()?;
            Ok((
                sequence,
                instrument_id,
                symbol,
                price,
                quantity,
                side,
                level,
                venue,
            ))
        };
        let (sequence, instrument_id, symbol, price, quantity, side, level, venue) =
            read(&mut r).map_err(|e| e.to_string())?;
        compare(
            &sample(seq).as_ref(),
            sequence,
            instrument_id,
            symbol,
            price,
            quantity,
            side,
            level,
            venue,
        )
    }
}
