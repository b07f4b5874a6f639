//! The serialization experiment's order (`Order` of the schema, template 1): an SBE message
//! whose 184-byte root block has the fields at the offsets of the shared hand-codec layout
//! (`docs/serialization.md`), so an encoded order is that layout behind the 8-byte header.
//!
//! ```text
//!  0        8               16      20      24  25                 32
//!  +--------+---------------+-------+-------+---+------------------+
//!  | header |   sourceId    | order | prio- |spc|  7 bytes unused  |
//!  | 8 B    |      i64      | Code  | rity  |u8 |  (written 0)     |
//!  +--------+---------------+-------+-------+---+------------------+
//!  32: prices, 10 x f64           112: quantities, 10 x i64       192
//! ```

use sympathy_sbe::boolean_type::BooleanType;
use sympathy_sbe::message_header_codec::MessageHeaderDecoder;
use sympathy_sbe::order_codec::{self, OrderDecoder, OrderEncoder};
use sympathy_sbe::{Encoder, ReadBuf, WriteBuf};

use crate::MessageError;
use crate::header::{HEADER_LENGTH, check_flag, check_header};

/// The order's template id.
pub const ORDER_TEMPLATE_ID: u16 = order_codec::SBE_TEMPLATE_ID;
/// Bytes of an encoded order: the header and the 184-byte block.
pub const ORDER_LENGTH: usize = HEADER_LENGTH + order_codec::SBE_BLOCK_LENGTH as usize;
/// Offset of `special` in the root block.
const SPECIAL_OFFSET: usize = 16;
/// The block's unused bytes after `special` (the encoder writes no field there).
const PAD: std::ops::Range<usize> = HEADER_LENGTH + 17..HEADER_LENGTH + 24;

/// The seed's `ObjectToBeSerialised` ("Native C/C++ Like Performance For Java Object
/// Serialisation"), fields in the seed's declaration order (the order serde writes them).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Order {
    /// `sourceId`.
    pub source_id: i64,
    /// `special`.
    pub special: bool,
    /// `orderCode`.
    pub order_code: i32,
    /// `priority`.
    pub priority: i32,
    /// `prices`: ten doubles.
    pub prices: [f64; 10],
    /// `quantities`: ten longs.
    pub quantities: [i64; 10],
}

impl Order {
    /// The seed's `ITEM`: `new ObjectToBeSerialised(1010L, true, 777, 99, {0.1, ..., 1.0},
    /// {1, ..., 10})`.
    pub fn seed() -> Order {
        Order {
            source_id: 1010,
            special: true,
            order_code: 777,
            priority: 99,
            prices: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
            quantities: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        }
    }
}

/// Encodes `order` at the start of `buf` with the generated `OrderEncoder`; returns the bytes
/// written, [`ORDER_LENGTH`].
///
/// # Errors
/// [`MessageError::BufferTooSmall`] when `buf` is shorter than [`ORDER_LENGTH`].
///
/// # Examples
/// ```
/// use sympathy_messages::{ORDER_LENGTH, Order, decode_order, encode_order};
/// let mut buf = [0u8; ORDER_LENGTH];
/// assert_eq!(encode_order(&Order::seed(), &mut buf)?, 192);
/// assert_eq!(decode_order(&buf)?, Order::seed());
/// # Ok::<(), sympathy_messages::MessageError>(())
/// ```
#[inline]
pub fn encode_order(order: &Order, buf: &mut [u8]) -> Result<usize, MessageError> {
    if buf.len() < ORDER_LENGTH {
        return Err(MessageError::BufferTooSmall {
            needed: ORDER_LENGTH,
            len: buf.len(),
        });
    }
    let encoder = OrderEncoder::default().wrap(WriteBuf::new(buf), HEADER_LENGTH);
    let mut encoder = encoder.header(0).parent()?;
    encoder
        .source_id(order.source_id)
        .order_code(order.order_code)
        .priority(order.priority)
        .special(if order.special {
            BooleanType::T
        } else {
            BooleanType::F
        })
        .prices(&order.prices)
        .quantities(&order.quantities);
    let end = encoder.get_limit();
    // The generator leaves bytes without a field as they were: zeroed, so that the bytes are
    // the shared layout's and the same in every language.
    buf[PAD].fill(0);
    Ok(end)
}

/// Checks that `buf` holds an order (header, block, `special`) and returns its block length.
#[inline]
fn check_order(buf: &[u8]) -> Result<u16, MessageError> {
    let block = check_header(
        buf,
        ORDER_TEMPLATE_ID,
        "order",
        order_codec::SBE_BLOCK_LENGTH,
    )?;
    check_flag("special", buf[HEADER_LENGTH + SPECIAL_OFFSET])?;
    Ok(block)
}

/// Decodes the order at the start of `buf` with the generated `OrderDecoder`, after checking
/// every length and enum it reads (bytes after the message are ignored).
///
/// # Errors
/// [`MessageError`]: `truncated`, `wrong-schema`, `wrong-template`, `bad-block-length`, or
/// `bad-enum` for a `special` byte other than 0 or 1.
#[inline]
pub fn decode_order(buf: &[u8]) -> Result<Order, MessageError> {
    check_order(buf)?;
    let header = MessageHeaderDecoder::default().wrap(ReadBuf::new(buf), 0);
    let decoder = OrderDecoder::default().header(header, 0);
    Ok(Order {
        source_id: decoder.source_id(),
        special: decoder.special() == BooleanType::T,
        order_code: decoder.order_code(),
        priority: decoder.priority(),
        prices: decoder.prices(),
        quantities: decoder.quantities(),
    })
}
