//! [`Wire`]: how message `seq` is written into its ring record in one encoding and how a
//! receiver decodes a record and checks every field against message `seq`; and the wires of
//! the encodings that need no layout of their own (`raw`, `sbe`, `serde`). The encodings by
//! name are [`Encoding`](super::Encoding) (encoding.rs); `struct` and `hand-codec` share the
//! 64-byte layout of layout.rs.

use sympathy_messages::{PriceUpdate, PriceUpdateView, encode_price_update, price_update_length};
use sympathy_ring::pattern::Pattern;

use super::sample::sample;

/// Bytes of the experiment's SBE message (one level, a 4-byte venue): also the `raw` size.
pub const SBE_MESSAGE_BYTES: usize = price_update_length(1, 4);

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
