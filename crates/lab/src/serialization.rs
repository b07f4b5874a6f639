//! serialization: the seed's order object written to bytes and read back, 1M times.
//!
//! A port of `TestSerialisationPerf` from "Native C/C++ Like Performance For Java Object
//! Serialisation" (Thompson, 2012). The object is the seed's `ObjectToBeSerialised` ([`Order`]:
//! `sourceId 1010, special true, orderCode 777, priority 99, prices 0.1..1.0, quantities 1..10`).
//! Where the seed wrote its one item `count` times into one buffer, a run here cycles through
//! [`INPUTS`] orders ([`inputs`]: the seed's item and 255 orders Java's `SplittableRandom(9)`
//! draws, the same bits in both languages), as Java's benchmark does: a batch of 256 is encoded
//! into 256 slots (timed: `write_ns` per encode), decoded from them into 256 orders (timed:
//! `read_ns` per decode), then every decoded order is compared with its original, all fields,
//! outside the timer. The work inside each timer is the codec's alone, in both languages, and
//! the run's parity facts say so (`inputs`, `working_set_bytes`, `timer`). A mismatch or a
//! decode error is an error, never a result.
//!
//! | variant | codec | encoded bytes |
//! |---|---|---|
//! | `serde-binary` | serde derive + postcard (varint integers) into a fixed buffer | 97 |
//! | `hand-codec` | hand-written, every put/get bounds-checked, the [`OrderLayout`] (the seed's `ByteBuffer`) | 184 |
//! | `zero-copy` | a `zerocopy` view of the [`OrderLayout`] laid over the bytes, fields set and read in place (the seed's `Unsafe`) | 184 |
//! | `ring-claim` | the `zero-copy` view over a record claimed in a `sympathy-ring` (anonymous memory): claim, encode in place, commit; the consumer decodes in place in its read handler | 184 (+8 header) |
//! | `sbe` | the SBE message `Order` of `schema/sympathy-messages.xml` through the codecs the SBE tool generated (`sympathy-sbe`), checked by `sympathy-messages`: the 8-byte message header, then the [`OrderLayout`] | 192 |
//!
//! The byte layout of `hand-codec`, `zero-copy` and `ring-claim` (and of Java's `byte-buffer`,
//! `unsafe`, `ffm`, `ring-claim`) is [`OrderLayout`], documented in `docs/serialization.md`.
//!
//! ```
//! use sympathy_lab::serialization::{Variant, run};
//! let trips = run(Variant::ZeroCopy, 1000).unwrap();
//! assert_eq!(trips.encoded_bytes, 184);
//! assert!(trips.write_ns > 0.0 && trips.read_ns > 0.0);
//! ```

use std::fmt;
use std::hint::black_box;
use std::time::{Duration, Instant};

use sympathy_messages::{MessageError, decode_order, encode_order};
use sympathy_ring::{Ring, RingError};
use thiserror::Error;
use zerocopy::byteorder::little_endian::{F64, I32, I64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

mod inputs;

use crate::cursor::{BufferTooSmall, Reader, Writer};

pub use inputs::{INPUTS, inputs, same_order};

/// The experiment's name in result lines.
pub const EXPERIMENT: &str = "serialization";
/// What each timer of a run holds, in both languages (the `timer` parity fact): the encodes of a
/// batch, or its decodes; the check of the decoded orders runs after the read timer stops.
pub const TIMER: &str = "encode | decode, check after";
/// The seed's `REPETITIONS`: round trips per run.
pub const SEED_COUNT: usize = 1_000_000;
/// Bytes the serde buffer offers (the seed's `ByteBuffer.allocate(1024)`).
pub const BUFFER_BYTES: usize = 1024;

/// The seed's `ObjectToBeSerialised`, fields in the seed's declaration order (the order serde
/// writes them); `Order::seed()` is the seed's `ITEM`. Its home is `sympathy-messages`, whose
/// SBE codec is the `sbe` variant.
pub use sympathy_messages::Order;

/// The fixed little-endian layout of one order (184 bytes), shared by the `hand-codec`,
/// `zero-copy` and `ring-claim` variants here and by Java's `byte-buffer`, `unsafe`, `ffm` and
/// `ring-claim`:
///
/// ```text
///  0               8       12      16  17                    24
///  +---------------+-------+-------+---+---------------------+
///  |   source_id   | order | prio- |spc|     7 pad bytes     |
///  |      i64      | _code | rity  |u8 |       (zero)        |
///  +---------------+-------+-------+---+---------------------+
///  24                                                      104
///  +--------------------------------------------------------+
///  |              prices: 10 x f64 (IEEE 754)               |
///  +--------------------------------------------------------+
///  104                                                     184
///  +--------------------------------------------------------+
///  |              quantities: 10 x i64                      |
///  +--------------------------------------------------------+
/// ```
///
/// `special` is 0 or 1; any other byte is a decode error. Every multi-byte field is
/// little-endian and 8-byte fields sit at multiples of 8.
pub struct OrderLayout;

impl OrderLayout {
    /// Offset of `source_id` (i64).
    pub const SOURCE_ID: usize = 0;
    /// Offset of `order_code` (i32).
    pub const ORDER_CODE: usize = 8;
    /// Offset of `priority` (i32).
    pub const PRIORITY: usize = 12;
    /// Offset of `special` (u8: 0 or 1).
    pub const SPECIAL: usize = 16;
    /// Offset of `prices` (10 x f64).
    pub const PRICES: usize = 24;
    /// Offset of `quantities` (10 x i64).
    pub const QUANTITIES: usize = 104;
    /// Bytes per order: 184.
    pub const SIZE: usize = 184;
}

/// [`OrderLayout`] as a `zerocopy` type: little-endian, alignment 1, so it can be laid over
/// any 184 bytes (a buffer, a ring record) and read or written in place.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct OrderRecord {
    source_id: I64,
    order_code: I32,
    priority: I32,
    special: u8,
    pad: [u8; 7],
    prices: [F64; 10],
    quantities: [I64; 10],
}

const _: () = assert!(size_of::<OrderRecord>() == OrderLayout::SIZE);

impl OrderRecord {
    /// Writes every field of `order` in place (padding zeroed).
    #[inline(always)]
    pub fn set(&mut self, order: &Order) {
        self.source_id = I64::new(order.source_id);
        self.order_code = I32::new(order.order_code);
        self.priority = I32::new(order.priority);
        self.special = u8::from(order.special);
        self.pad = [0; 7];
        for (dst, &src) in self.prices.iter_mut().zip(&order.prices) {
            *dst = F64::new(src);
        }
        for (dst, &src) in self.quantities.iter_mut().zip(&order.quantities) {
            *dst = I64::new(src);
        }
    }

    /// Reads every field into an [`Order`].
    ///
    /// # Errors
    /// [`CodecError::BadSpecial`] when the `special` byte is neither 0 nor 1.
    #[inline(always)]
    pub fn get(&self) -> Result<Order, CodecError> {
        Ok(Order {
            source_id: self.source_id.get(),
            special: decode_special(self.special)?,
            order_code: self.order_code.get(),
            priority: self.priority.get(),
            prices: self.prices.map(F64::get),
            quantities: self.quantities.map(I64::get),
        })
    }
}

#[inline(always)]
fn decode_special(byte: u8) -> Result<bool, CodecError> {
    match byte {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(CodecError::BadSpecial(other)),
    }
}

/// Why an order could not be encoded or decoded.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CodecError {
    /// The buffer is shorter than the encoding.
    #[error("buffer of {len} bytes is too small: the order needs {needed}")]
    BufferTooSmall {
        /// Bytes needed (at least).
        needed: usize,
        /// Bytes the buffer has.
        len: usize,
    },
    /// The `special` byte is neither 0 nor 1.
    #[error("special byte is {0}, not 0 or 1")]
    BadSpecial(u8),
    /// postcard refused the bytes or the buffer.
    #[error("postcard: {0}")]
    Postcard(String),
    /// The SBE codec refused the buffer or the bytes. (Boxed: a `MessageError` is larger than
    /// the other variants, and a larger error makes every codec's `Result` larger, which the
    /// instruction-count gate measured as +14% instructions in the hand codec's decode.)
    #[error("sbe: {0}")]
    Sbe(Box<MessageError>),
}

impl From<BufferTooSmall> for CodecError {
    #[inline(always)]
    fn from(e: BufferTooSmall) -> CodecError {
        CodecError::BufferTooSmall {
            needed: e.needed,
            len: e.len,
        }
    }
}

impl From<MessageError> for CodecError {
    fn from(e: MessageError) -> CodecError {
        CodecError::Sbe(Box::new(e))
    }
}

/// One way of turning an [`Order`] into bytes and back.
pub trait Codec {
    /// Bytes from one slot of a run to the next: room for the longest encoding of any order
    /// (a fixed layout's size, or postcard's longest, 201 bytes, rounded up to 8).
    const SLOT_BYTES: usize;

    /// Encodes `order` at the start of `buf`; returns the bytes written.
    ///
    /// # Errors
    /// [`CodecError::BufferTooSmall`] (or a postcard error) when `buf` is too short.
    fn encode(order: &Order, buf: &mut [u8]) -> Result<usize, CodecError>;

    /// Decodes an order from the start of `buf`.
    ///
    /// # Errors
    /// [`CodecError`] when `buf` is too short or holds an invalid encoding.
    fn decode(buf: &[u8]) -> Result<Order, CodecError>;
}

/// `serde-binary`: serde derive, postcard format (varint integers, bools as one byte, floats as
/// 8 little-endian bytes, fixed arrays without a length).
pub struct SerdeBinary;

impl Codec for SerdeBinary {
    const SLOT_BYTES: usize = 208;

    #[inline]
    fn encode(order: &Order, buf: &mut [u8]) -> Result<usize, CodecError> {
        postcard::to_slice(order, buf)
            .map(|written| written.len())
            .map_err(|e| CodecError::Postcard(e.to_string()))
    }

    #[inline]
    fn decode(buf: &[u8]) -> Result<Order, CodecError> {
        postcard::from_bytes(buf).map_err(|e| CodecError::Postcard(e.to_string()))
    }
}

/// `hand-codec`: the [`OrderLayout`] written and read field by field through a cursor that
/// checks the bounds of every access, as `java.nio.ByteBuffer` does.
pub struct HandCodec;

impl Codec for HandCodec {
    const SLOT_BYTES: usize = OrderLayout::SIZE;

    #[inline]
    fn encode(order: &Order, buf: &mut [u8]) -> Result<usize, CodecError> {
        let mut w = Writer::<CodecError>::new(buf);
        w.put(order.source_id.to_le_bytes())?;
        w.put(order.order_code.to_le_bytes())?;
        w.put(order.priority.to_le_bytes())?;
        w.put([u8::from(order.special)])?;
        w.put([0u8; 7])?;
        for price in order.prices {
            w.put(price.to_le_bytes())?;
        }
        for quantity in order.quantities {
            w.put(quantity.to_le_bytes())?;
        }
        Ok(w.pos)
    }

    #[inline]
    fn decode(buf: &[u8]) -> Result<Order, CodecError> {
        let mut r = Reader::<CodecError>::new(buf);
        let source_id = i64::from_le_bytes(r.get()?);
        let order_code = i32::from_le_bytes(r.get()?);
        let priority = i32::from_le_bytes(r.get()?);
        let [special] = r.get::<1>()?;
        let _pad: [u8; 7] = r.get()?;
        let mut prices = [0.0; 10];
        for price in &mut prices {
            *price = f64::from_le_bytes(r.get()?);
        }
        let mut quantities = [0; 10];
        for quantity in &mut quantities {
            *quantity = i64::from_le_bytes(r.get()?);
        }
        Ok(Order {
            source_id,
            special: decode_special(special)?,
            order_code,
            priority,
            prices,
            quantities,
        })
    }
}

/// `zero-copy`: an [`OrderRecord`] view laid over the bytes (one length check), fields set and
/// read in place.
pub struct ZeroCopy;

impl Codec for ZeroCopy {
    const SLOT_BYTES: usize = OrderLayout::SIZE;

    #[inline]
    fn encode(order: &Order, buf: &mut [u8]) -> Result<usize, CodecError> {
        let len = buf.len();
        let (record, _) =
            OrderRecord::mut_from_prefix(buf).map_err(|_| CodecError::BufferTooSmall {
                needed: OrderLayout::SIZE,
                len,
            })?;
        record.set(order);
        Ok(OrderLayout::SIZE)
    }

    #[inline]
    fn decode(buf: &[u8]) -> Result<Order, CodecError> {
        let (record, _) =
            OrderRecord::ref_from_prefix(buf).map_err(|_| CodecError::BufferTooSmall {
                needed: OrderLayout::SIZE,
                len: buf.len(),
            })?;
        record.get()
    }
}

/// `sbe`: the SBE message `Order` (`schema/sympathy-messages.xml`) through the generated
/// codecs, checked by `sympathy-messages` (every length and enum checked before a field is
/// read): the 8-byte header, then the 184 bytes of the [`OrderLayout`].
pub struct Sbe;

impl Codec for Sbe {
    const SLOT_BYTES: usize = sympathy_messages::HEADER_LENGTH + OrderLayout::SIZE;

    #[inline]
    fn encode(order: &Order, buf: &mut [u8]) -> Result<usize, CodecError> {
        Ok(encode_order(order, buf)?)
    }

    #[inline]
    fn decode(buf: &[u8]) -> Result<Order, CodecError> {
        Ok(decode_order(buf)?)
    }
}

/// The variants. Names are part of the results interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// [`SerdeBinary`].
    SerdeBinary,
    /// [`HandCodec`].
    HandCodec,
    /// [`ZeroCopy`].
    ZeroCopy,
    /// [`ZeroCopy`] over claimed records of a `sympathy-ring`.
    RingClaim,
    /// [`Sbe`].
    Sbe,
}

sympathy_harness::catalog_variant!(Variant, EXPERIMENT);

impl Variant {
    /// Every variant, in report order.
    pub const ALL: [Variant; 5] = [
        Variant::SerdeBinary,
        Variant::HandCodec,
        Variant::ZeroCopy,
        Variant::RingClaim,
        Variant::Sbe,
    ];

    /// The variant's name in results.
    pub fn name(self) -> &'static str {
        match self {
            Variant::SerdeBinary => "serde-binary",
            Variant::HandCodec => "hand-codec",
            Variant::ZeroCopy => "zero-copy",
            Variant::RingClaim => "ring-claim",
            Variant::Sbe => "sbe",
        }
    }

    /// The byte format it writes (the `format` parity fact): `postcard`, `order-layout` (the
    /// shared 184 bytes of [`OrderLayout`]) or `sbe`. Java's variants of the same format say
    /// the same; its `java-serialization` says `java.io`, so it never pairs with postcard.
    pub fn format(self) -> &'static str {
        match self {
            Variant::SerdeBinary => "postcard",
            Variant::HandCodec | Variant::ZeroCopy | Variant::RingClaim => "order-layout",
            Variant::Sbe => "sbe",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Why a run could not be made or did not verify.
#[derive(Debug, Error)]
pub enum SerializationError {
    /// A count of zero measures nothing.
    #[error("the count must be at least 1 (e.g. --count 1000000, the seed's)")]
    ZeroCount,
    /// Encoding or decoding failed.
    #[error("{variant}: {source}")]
    Codec {
        /// The variant.
        variant: Variant,
        /// What failed.
        source: CodecError,
    },
    /// A decoded order differs from the original: the run is not a result.
    #[error(
        "check failed: {variant}: {mismatches} of {count} decoded orders differ from the original"
    )]
    Mismatch {
        /// The variant.
        variant: Variant,
        /// Decoded orders that differed.
        mismatches: usize,
        /// Round trips made.
        count: usize,
    },
    /// The consumer read a different number of records than were written.
    #[error("check failed: ring-claim wrote {written} records and read {read}")]
    Lost {
        /// Records committed.
        written: usize,
        /// Records handed to the read handler.
        read: usize,
    },
    /// The ring failed.
    #[error("ring-claim: {0}")]
    Ring(#[from] RingError),
}

/// The outcome of one verified run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundTrips {
    /// Nanoseconds per encode.
    pub write_ns: f64,
    /// Nanoseconds per decode (the check of the decoded orders runs after the timer).
    pub read_ns: f64,
    /// Bytes of the seed's item encoded (the payload; a ring record adds its 8-byte header):
    /// the seed's measure of a format's size.
    pub encoded_bytes: usize,
    /// Bytes the [`INPUTS`] orders take encoded, the slots each timed loop writes or reads (the
    /// `working_set_bytes` parity fact).
    pub working_set_bytes: usize,
}

/// Writes then reads `count` orders with `variant`, cycling through the [`inputs`] in batches
/// of [`INPUTS`], timed, checking every decoded order against its original after the timer.
///
/// Runs on the calling thread: pin it first (the CLI and benches use
/// [`sympathy_harness::pin::run_pinned`]).
///
/// # Errors
/// [`SerializationError`]: a zero count, a codec or ring failure, or a failed check.
pub fn run(variant: Variant, count: usize) -> Result<RoundTrips, SerializationError> {
    if count == 0 {
        return Err(SerializationError::ZeroCount);
    }
    let orders = inputs();
    match variant {
        Variant::SerdeBinary => run_codec::<SerdeBinary>(variant, &orders, count),
        Variant::HandCodec => run_codec::<HandCodec>(variant, &orders, count),
        Variant::ZeroCopy => run_codec::<ZeroCopy>(variant, &orders, count),
        Variant::RingClaim => run_ring(&orders, count),
        Variant::Sbe => run_codec::<Sbe>(variant, &orders, count),
    }
}

fn per_op(elapsed: Duration, count: usize) -> f64 {
    elapsed.as_nanos() as f64 / count as f64
}

/// Decoded orders that differ from their originals (bit for bit, [`same_order`]).
fn mismatches(originals: &[Order], decoded: &[Order]) -> usize {
    originals
        .iter()
        .zip(decoded)
        .filter(|(a, b)| !same_order(a, b))
        .count()
}

/// Batches of up to [`INPUTS`] orders: encoded into their slots (timed), decoded into
/// `decoded` (timed), then checked (untimed), until `count` round trips are done.
fn run_codec<C: Codec>(
    variant: Variant,
    orders: &[Order],
    count: usize,
) -> Result<RoundTrips, SerializationError> {
    let codec = |source| SerializationError::Codec { variant, source };
    let mut slots = vec![0u8; orders.len() * C::SLOT_BYTES];
    let mut lengths = vec![0usize; orders.len()];
    let mut decoded = vec![Order::seed(); orders.len()];
    let (mut write, mut read, mut wrong) = (Duration::ZERO, Duration::ZERO, 0);
    let mut done = 0;
    while done < count {
        let n = orders.len().min(count - done);
        write += write_batch::<C>(&orders[..n], &mut slots, &mut lengths).map_err(codec)?;
        read += read_batch::<C>(&slots, &lengths[..n], &mut decoded[..n]).map_err(codec)?;
        wrong += mismatches(&orders[..n], &decoded[..n]);
        done += n;
    }
    if wrong != 0 {
        return Err(SerializationError::Mismatch {
            variant,
            mismatches: wrong,
            count,
        });
    }
    let mut seed_item = [0u8; BUFFER_BYTES];
    Ok(RoundTrips {
        write_ns: per_op(write, count),
        read_ns: per_op(read, count),
        encoded_bytes: C::encode(&orders[0], &mut seed_item).map_err(codec)?,
        working_set_bytes: lengths.iter().sum(),
    })
}

/// Encodes `orders[i]` into slot `i` of `slots` (each slot passes through `black_box`, so no
/// store can be dropped), recording each length; returns the time taken.
#[inline(never)]
fn write_batch<C: Codec>(
    orders: &[Order],
    slots: &mut [u8],
    lengths: &mut [usize],
) -> Result<Duration, CodecError> {
    let start = Instant::now();
    for ((order, slot), len) in orders
        .iter()
        .zip(slots.chunks_exact_mut(C::SLOT_BYTES))
        .zip(lengths.iter_mut())
    {
        *len = C::encode(black_box(order), black_box(slot))?;
    }
    Ok(start.elapsed())
}

/// Decodes slot `i` (its first `lengths[i]` bytes) into `decoded[i]`; returns the time taken.
#[inline(never)]
fn read_batch<C: Codec>(
    slots: &[u8],
    lengths: &[usize],
    decoded: &mut [Order],
) -> Result<Duration, CodecError> {
    let start = Instant::now();
    for ((slot, &len), out) in slots
        .chunks_exact(C::SLOT_BYTES)
        .zip(lengths)
        .zip(decoded.iter_mut())
    {
        *out = black_box(C::decode(black_box(&slot[..len]))?);
    }
    Ok(start.elapsed())
}

/// Type id of the order records in the ring.
const ORDER_TYPE_ID: i32 = 1;
/// Bytes of the ring's record area: room for more than one batch of 192-byte records.
const RING_CAPACITY: usize = 128 * 1024;

/// `ring-claim`: batches of [`INPUTS`] orders, each claimed, encoded in place and committed
/// (timed as writes), then read back by the consumer, each decoded in place in the read
/// handler into `decoded` (timed as reads), then checked (untimed).
fn run_ring(orders: &[Order], count: usize) -> Result<RoundTrips, SerializationError> {
    let variant = Variant::RingClaim;
    let ring = Ring::anonymous(RING_CAPACITY)?;
    let (mut producer, mut consumer) = (ring.producer()?, ring.consumer()?);
    let (mut write, mut read) = (Duration::ZERO, Duration::ZERO);
    let (mut written, mut handled, mut wrong) = (0usize, 0usize, 0usize);
    let mut decoded = vec![Order::seed(); orders.len()];
    let mut decode_error = None;
    while written < count {
        let batch = orders.len().min(count - written);
        let start = Instant::now();
        for order in &orders[..batch] {
            let mut claim = producer.try_claim(ORDER_TYPE_ID, OrderLayout::SIZE)?;
            ZeroCopy::encode(black_box(order), &mut claim)
                .map_err(|source| SerializationError::Codec { variant, source })?;
            claim.commit();
        }
        write += start.elapsed();
        written += batch;
        let start = Instant::now();
        // A read stops at the end of the ring; one that meets only the padding before a wrap
        // hands out nothing, so only two empty reads in a row mean the records are missing.
        let (mut empty_reads, mut next) = (0, 0);
        while handled < written && empty_reads < 2 {
            let n = consumer.read(
                |_, payload| match (ZeroCopy::decode(payload), decoded.get_mut(next)) {
                    (Ok(order), Some(slot)) => {
                        *slot = black_box(order);
                        next += 1;
                    }
                    (Ok(_), None) => next += 1,
                    (Err(e), _) => decode_error = Some(e),
                },
                written - handled,
            )?;
            empty_reads = if n == 0 { empty_reads + 1 } else { 0 };
            handled += n;
        }
        read += start.elapsed();
        if let Some(source) = decode_error.take() {
            return Err(SerializationError::Codec { variant, source });
        }
        if handled != written || next != batch {
            return Err(SerializationError::Lost {
                written,
                read: handled,
            });
        }
        wrong += mismatches(&orders[..batch], &decoded[..batch]);
    }
    if wrong != 0 {
        return Err(SerializationError::Mismatch {
            variant,
            mismatches: wrong,
            count,
        });
    }
    Ok(RoundTrips {
        write_ns: per_op(write, count),
        read_ns: per_op(read, count),
        encoded_bytes: OrderLayout::SIZE,
        working_set_bytes: orders.len() * OrderLayout::SIZE,
    })
}

#[cfg(test)]
mod tests;
