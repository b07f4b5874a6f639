//! [`MessageError`]: why bytes are not a message of the schema, or a message does not fit.

use thiserror::Error;

/// Why a message could not be encoded, or bytes could not be decoded as one.
///
/// Decoding checks the bytes in a fixed order before any field is read (header, root block,
/// enums and symbol, the levels group, the venue), so that the same hostile bytes get the same
/// answer in Rust and in Java (`dev.sympathy.messages.MessageFormatException`, whose `kind()`
/// is this error's [`MessageError::kind`]); `schema/hostile/` holds the shared cases.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MessageError {
    /// Encoding: the buffer is shorter than the encoded message.
    #[error(
        "buffer of {len} bytes is too small: the message needs {needed}; give it at least {needed} bytes"
    )]
    BufferTooSmall {
        /// Bytes the message needs.
        needed: usize,
        /// Bytes the buffer has.
        len: usize,
    },
    /// Decoding: the bytes end before a part of the message that its header or lengths announce.
    #[error("message truncated: the {part} needs {needed} bytes, the message has {len}")]
    Truncated {
        /// The part that does not fit (`message header`, `root block`, `levels`, `venue`, ...).
        part: &'static str,
        /// Bytes needed up to the end of that part.
        needed: usize,
        /// Bytes given.
        len: usize,
    },
    /// Decoding: the header's schema id is not this schema's.
    #[error("schema id {found} is not sympathy's ({expected}): not one of its messages")]
    WrongSchema {
        /// The id in the header.
        found: u16,
        /// This schema's id.
        expected: u16,
    },
    /// Decoding: the header announces another message.
    #[error("template id {found} is not the {name}'s ({expected})")]
    WrongTemplate {
        /// The id in the header.
        found: u16,
        /// The expected message's id.
        expected: u16,
        /// The expected message (`order`, `price update`).
        name: &'static str,
    },
    /// Decoding: a block is shorter than the schema's (a message of an older, smaller schema).
    #[error("the {part} block is {found} bytes, shorter than the schema's {min}")]
    BadBlockLength {
        /// `message` or `levels`.
        part: &'static str,
        /// The length in the bytes.
        found: u16,
        /// The schema's block length.
        min: u16,
    },
    /// Decoding: an enum field holds a value the schema does not list.
    #[error("{field} is {value}, not one of the schema's values")]
    BadEnum {
        /// `special` or `side`.
        field: &'static str,
        /// The byte found.
        value: u8,
    },
    /// Decoding or encoding: the instrument's symbol is not printable ASCII (0x20..=0x7E)
    /// followed by NUL padding.
    #[error(
        "the symbol is not printable ASCII followed by NUL padding: byte {index} is {value:#04x}"
    )]
    BadSymbol {
        /// The first offending byte's index (0..8).
        index: usize,
        /// Its value.
        value: u8,
    },
    /// Decoding or encoding: a variable part is longer than the schema allows.
    #[error("the {part} has {len} entries or bytes, more than the schema's {max}")]
    TooLong {
        /// `venue` or `levels`.
        part: &'static str,
        /// Its length.
        len: usize,
        /// The most allowed.
        max: usize,
    },
    /// Decoding: the venue's bytes are not UTF-8.
    #[error("the venue is not valid UTF-8")]
    BadUtf8,
    /// A generated codec refused its own state (never seen: a generator bug, reported rather
    /// than panicking).
    #[error("the generated SBE codec failed: {0}")]
    Codec(String),
}

impl MessageError {
    /// A stable, language-neutral name of the error (`truncated`, `wrong-schema`, ...), the
    /// same as Java's `MessageFormatException.kind()`.
    ///
    /// ```
    /// use sympathy_messages::{MessageError, decode_order};
    /// assert_eq!(decode_order(&[0; 4]).unwrap_err().kind(), "truncated");
    /// # let _ = MessageError::BadUtf8;
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            MessageError::BufferTooSmall { .. } => "buffer-too-small",
            MessageError::Truncated { .. } => "truncated",
            MessageError::WrongSchema { .. } => "wrong-schema",
            MessageError::WrongTemplate { .. } => "wrong-template",
            MessageError::BadBlockLength { .. } => "bad-block-length",
            MessageError::BadEnum { .. } => "bad-enum",
            MessageError::BadSymbol { .. } => "bad-symbol",
            MessageError::TooLong { .. } => "too-long",
            MessageError::BadUtf8 => "bad-utf8",
            MessageError::Codec(_) => "codec",
        }
    }
}

impl From<sympathy_sbe::SbeErr> for MessageError {
    fn from(e: sympathy_sbe::SbeErr) -> Self {
        MessageError::Codec(e.to_string())
    }
}
