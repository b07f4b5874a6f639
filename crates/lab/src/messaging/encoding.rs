//! [`Encoding`]: the encodings a price update crosses the ring in, by name, each one [`Wire`].
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

use super::layout::{HandCodec, Struct};
use super::wire::{Raw, SBE_MESSAGE_BYTES, Sbe, Serde, Wire};

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

/// `--encoding sbe`: an encoding by [name](Encoding::name), as a command line gives it.
impl std::str::FromStr for Encoding {
    type Err = String;

    fn from_str(text: &str) -> Result<Encoding, String> {
        Encoding::named(text).ok_or_else(|| {
            let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
            format!(
                "'{text}' is not an encoding: use one of {}",
                names.join(", ")
            )
        })
    }
}
