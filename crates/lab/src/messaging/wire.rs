//! The encodings a price update crosses the ring in ([`Encoding`]), each a [`Wire`]: how
//! message `seq` is written into its record and how a receiver decodes a record and checks
//! every field against message `seq`.
//!
//! | encoding | ring type id | bytes | written | read |
//! |---|---:|---:|---|---|
//! | `raw` | 1 | 74 | the ring's test pattern of the SBE message's size, in place | every byte compared with the pattern |
//! | `sbe` | 2 | 74 | `sympathy_messages::encode_price_update`, in place | `PriceUpdateView` (checked), every field compared |
//! | `struct` | 3 | 64 | a `zerocopy` view of the [`UpdateLayout`], fields set in place | fields read in place, compared |
//! | `hand-codec` | 4 | 64 | the [`UpdateLayout`] through a bounds-checked cursor, in place | through the cursor, compared |
//! | `serde` | 5 | 40-45 | serde derive + postcard into a scratch buffer, then copied | `postcard::from_bytes` into an owned `PriceUpdate`, compared |
//!
//! Java uses the same type ids, and 6 for `java-serialization` (Java only).
//!
//! [`UpdateLayout`]: super::layout::UpdateLayout

use sympathy_messages::{PriceUpdate, PriceUpdateView, encode_price_update, price_update_length};
use sympathy_ring::pattern::Pattern;

use super::layout::{HandCodec, Struct};
use super::sample::sample;

/// Bytes of the experiment's SBE message (one level, a 4-byte venue): also the `raw` size.
pub const SBE_MESSAGE_BYTES: usize = price_update_length(1, 4);

/// How a price update is put on the ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// No encoding: the ring's pattern bytes of the SBE message's size (the ring's raw rate).
    Raw,
    /// SBE through the generated codecs.
    Sbe,
    /// A fixed 64-byte struct read and written in place.
    Struct,
    /// The same 64 bytes through a bounds-checked cursor.
    HandCodec,
    /// serde derive + postcard.
    Serde,
}

impl Encoding {
    /// Every encoding.
    pub const ALL: [Encoding; 5] = [
        Encoding::Raw,
        Encoding::Sbe,
        Encoding::Struct,
        Encoding::HandCodec,
        Encoding::Serde,
    ];

    /// The name on the command line of a peer (`--encoding`) and in the docs.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Raw => "raw",
            Encoding::Sbe => "sbe",
            Encoding::Struct => "struct",
            Encoding::HandCodec => "hand-codec",
            Encoding::Serde => "serde",
        }
    }

    /// The encoding called `name`.
    pub fn named(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The ring type id of its records.
    pub fn type_id(self) -> i32 {
        match self {
            Encoding::Raw => Raw::TYPE_ID,
            Encoding::Sbe => Sbe::TYPE_ID,
            Encoding::Struct => Struct::TYPE_ID,
            Encoding::HandCodec => HandCodec::TYPE_ID,
            Encoding::Serde => Serde::TYPE_ID,
        }
    }

    /// Bytes of message `seq` in this encoding.
    ///
    /// # Errors
    /// The encoding failed (a message that does not fit it).
    pub fn encoded_bytes(self, seq: u64) -> Result<usize, String> {
        let mut buf = [0u8; 512];
        match self {
            Encoding::Raw => Raw::encode(seq, &mut buf[..SBE_MESSAGE_BYTES]),
            Encoding::Sbe => Sbe::encode(seq, &mut buf[..SBE_MESSAGE_BYTES]),
            Encoding::Struct => Struct::encode(seq, &mut buf[..Struct::LENGTH]),
            Encoding::HandCodec => HandCodec::encode(seq, &mut buf[..Struct::LENGTH]),
            Encoding::Serde => Serde::encode(seq, &mut buf),
        }
    }
}

/// One way of writing price updates into ring records and reading them back.
pub trait Wire {
    /// The ring type id of its records.
    const TYPE_ID: i32;
    /// Bytes of every record when the length is fixed (records are then filled in place, in
    /// batches), `None` when each message has its own (encoded into scratch, then copied).
    const FIXED: Option<usize>;

    /// Writes message `seq` into `buf` (exactly its length when fixed); returns the bytes written.
    ///
    /// # Errors
    /// What the encoder refused (never, for the experiment's messages).
    fn encode(seq: u64, buf: &mut [u8]) -> Result<usize, String>;

    /// Decodes `bytes` and checks every field against message `seq`.
    ///
    /// # Errors
    /// What failed to decode or differed.
    fn verify(seq: u64, bytes: &[u8]) -> Result<(), String>;
}

/// `raw`: the ring's test pattern ([`sympathy_ring::pattern`]) of [`SBE_MESSAGE_BYTES`].
pub struct Raw;

/// The pattern of `raw`'s size (made once: it holds a template of its bytes).
fn raw_pattern() -> &'static Pattern {
    static PATTERN: std::sync::OnceLock<Pattern> = std::sync::OnceLock::new();
    PATTERN.get_or_init(|| Pattern::new(SBE_MESSAGE_BYTES))
}

impl Wire for Raw {
    const TYPE_ID: i32 = 1;
    const FIXED: Option<usize> = Some(SBE_MESSAGE_BYTES);

    #[inline(always)]
    fn encode(seq: u64, buf: &mut [u8]) -> Result<usize, String> {
        if buf.len() != SBE_MESSAGE_BYTES {
            return Err(format!(
                "raw messages are {SBE_MESSAGE_BYTES} bytes, not {}",
                buf.len()
            ));
        }
        raw_pattern().fill(seq, buf);
        Ok(buf.len())
    }

    #[inline(always)]
    fn verify(seq: u64, bytes: &[u8]) -> Result<(), String> {
        raw_pattern().check(seq, bytes).map_err(|m| m.to_string())
    }
}

/// `sbe`: `sympathy_messages`' checked encoder and [`PriceUpdateView`] over the generated codecs.
pub struct Sbe;

impl Wire for Sbe {
    const TYPE_ID: i32 = 2;
    const FIXED: Option<usize> = Some(SBE_MESSAGE_BYTES);

    #[inline(always)]
    fn encode(seq: u64, buf: &mut [u8]) -> Result<usize, String> {
        encode_price_update(&sample(seq).as_ref(), buf).map_err(|e| e.to_string())
    }

    #[inline(always)]
    fn verify(seq: u64, bytes: &[u8]) -> Result<(), String> {
        let view = PriceUpdateView::new(bytes).map_err(|e| e.to_string())?;
        let expected = sample(seq);
        let e = expected.as_ref();
        let mut levels = view.levels();
        let same = view.encoded_length() == bytes.len()
            && view.sequence() == e.sequence
            && view.instrument() == e.instrument
            && view.price() == e.price
            && view.quantity() == e.quantity
            && view.side() == e.side
            && levels.len() == e.levels.len()
            && e.levels.iter().all(|want| levels.next() == Some(*want))
            && view.venue_bytes() == e.venue.as_bytes();
        if same {
            Ok(())
        } else {
            Err(format!("decoded {:?}, expected {e:?}", view.to_owned()))
        }
    }
}

/// `serde`: serde derive + postcard (what a Rust program reaches for first).
pub struct Serde;

impl Wire for Serde {
    const TYPE_ID: i32 = 5;
    const FIXED: Option<usize> = None;

    #[inline(always)]
    fn encode(seq: u64, buf: &mut [u8]) -> Result<usize, String> {
        postcard::to_slice(&sample(seq).as_ref(), buf)
            .map(|written| written.len())
            .map_err(|e| e.to_string())
    }

    #[inline(always)]
    fn verify(seq: u64, bytes: &[u8]) -> Result<(), String> {
        let decoded: PriceUpdate = postcard::from_bytes(bytes).map_err(|e| e.to_string())?;
        let expected = sample(seq);
        if decoded.as_ref() == expected.as_ref() {
            Ok(())
        } else {
            Err(format!(
                "decoded {decoded:?}, expected {:?}",
                expected.as_ref()
            ))
        }
    }
}
