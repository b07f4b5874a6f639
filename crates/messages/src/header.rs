//! The SBE message header every message starts with, and the first checks of a decode.
//!
//! ```text
//!  0              2              4              6              8
//!  +--------------+--------------+--------------+--------------+
//!  | blockLength  |  templateId  |   schemaId   |   version    |   u16 little-endian each
//!  +--------------+--------------+--------------+--------------+
//! ```

use sympathy_sbe::message_header_codec::ENCODED_LENGTH;

use crate::MessageError;

/// Bytes of the message header.
pub const HEADER_LENGTH: usize = ENCODED_LENGTH;
/// The schema's id (`schema/sympathy-messages.xml`).
pub const SCHEMA_ID: u16 = sympathy_sbe::SBE_SCHEMA_ID;
/// The schema's version.
pub const SCHEMA_VERSION: u16 = sympathy_sbe::SBE_SCHEMA_VERSION;

/// Reads a little-endian u16 at `at` (the caller checked `at + 2 <= bytes.len()`).
#[inline(always)]
pub(crate) fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// Checks the header and that the root block fits: `Truncated`, `WrongSchema`,
/// `WrongTemplate`, `BadBlockLength`, in that order. Returns the block length the header
/// announces (at least `min_block`; a larger one is a newer schema's, its extra bytes skipped).
#[inline]
pub(crate) fn check_header(
    bytes: &[u8],
    template: u16,
    name: &'static str,
    min_block: u16,
) -> Result<u16, MessageError> {
    let len = bytes.len();
    if len < HEADER_LENGTH {
        return Err(MessageError::Truncated {
            part: "message header",
            needed: HEADER_LENGTH,
            len,
        });
    }
    let schema = u16_at(bytes, 4);
    if schema != SCHEMA_ID {
        return Err(MessageError::WrongSchema {
            found: schema,
            expected: SCHEMA_ID,
        });
    }
    let found = u16_at(bytes, 2);
    if found != template {
        return Err(MessageError::WrongTemplate {
            found,
            expected: template,
            name,
        });
    }
    let block = u16_at(bytes, 0);
    if block < min_block {
        return Err(MessageError::BadBlockLength {
            part: "message",
            found: block,
            min: min_block,
        });
    }
    let needed = HEADER_LENGTH + usize::from(block);
    if len < needed {
        return Err(MessageError::Truncated {
            part: "root block",
            needed,
            len,
        });
    }
    Ok(block)
}

/// `Ok` when `byte` is 0 or 1, else `BadEnum` naming `field`.
#[inline(always)]
pub(crate) fn check_flag(field: &'static str, byte: u8) -> Result<(), MessageError> {
    if byte > 1 {
        return Err(MessageError::BadEnum { field, value: byte });
    }
    Ok(())
}
