//! [`Symbol`]: an instrument's ticker, printable ASCII NUL-padded to 8 bytes (the schema's
//! `char[8]`, US-ASCII).

use std::fmt;

use crate::MessageError;

/// Bytes of a symbol.
pub const SYMBOL_LENGTH: usize = 8;

/// A ticker symbol: up to 8 printable ASCII characters (0x20..=0x7E), NUL-padded.
///
/// ```
/// use sympathy_messages::Symbol;
/// let s = Symbol::new("AAPL")?;
/// assert_eq!(s.as_str(), "AAPL");
/// assert_eq!(s.bytes(), b"AAPL\0\0\0\0");
/// assert!(Symbol::new("TOO-LONG-X").is_err());
/// # Ok::<(), sympathy_messages::MessageError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "[u8; 8]", into = "[u8; 8]")
)]
pub struct Symbol([u8; SYMBOL_LENGTH]);

impl TryFrom<[u8; SYMBOL_LENGTH]> for Symbol {
    type Error = MessageError;

    fn try_from(bytes: [u8; SYMBOL_LENGTH]) -> Result<Symbol, MessageError> {
        Symbol::from_bytes(bytes)
    }
}

impl From<Symbol> for [u8; SYMBOL_LENGTH] {
    fn from(symbol: Symbol) -> [u8; SYMBOL_LENGTH] {
        symbol.0
    }
}

impl Symbol {
    /// The symbol `text`.
    ///
    /// # Errors
    /// [`MessageError::TooLong`] over 8 bytes, [`MessageError::BadSymbol`] for a character
    /// that is not printable ASCII.
    pub fn new(text: &str) -> Result<Symbol, MessageError> {
        if text.len() > SYMBOL_LENGTH {
            return Err(MessageError::TooLong {
                part: "symbol",
                len: text.len(),
                max: SYMBOL_LENGTH,
            });
        }
        let mut bytes = [0u8; SYMBOL_LENGTH];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Symbol::from_bytes(bytes)
    }

    /// The symbol whose encoded bytes are `bytes`.
    ///
    /// # Errors
    /// [`MessageError::BadSymbol`] unless `bytes` are printable ASCII followed only by NULs,
    /// naming the first byte before the last non-NUL one that is not printable ASCII (a NUL
    /// inside the symbol is one).
    #[inline]
    pub fn from_bytes(bytes: [u8; SYMBOL_LENGTH]) -> Result<Symbol, MessageError> {
        match first_bad(bytes) {
            None => Ok(Symbol(bytes)),
            Some(index) => Err(MessageError::BadSymbol {
                index,
                value: bytes[index],
            }),
        }
    }

    /// [`Symbol::from_bytes`] in a `const` context (`None` where it fails), for symbols known
    /// when a program compiles.
    ///
    /// ```
    /// use sympathy_messages::Symbol;
    /// const AAPL: Symbol = match Symbol::constant(*b"AAPL\0\0\0\0") {
    ///     Some(symbol) => symbol,
    ///     None => panic!("not a symbol"), // a compile error, never a run-time panic
    /// };
    /// assert_eq!(AAPL.as_str(), "AAPL");
    /// ```
    pub const fn constant(bytes: [u8; SYMBOL_LENGTH]) -> Option<Symbol> {
        match first_bad(bytes) {
            None => Some(Symbol(bytes)),
            Some(_) => None,
        }
    }

    /// A symbol of bytes already checked by [`Symbol::from_bytes`] (a view's, checked when made).
    #[inline(always)]
    pub(crate) fn checked(bytes: [u8; SYMBOL_LENGTH]) -> Symbol {
        Symbol(bytes)
    }

    /// The encoded bytes (NUL-padded).
    #[inline]
    pub fn bytes(&self) -> &[u8; SYMBOL_LENGTH] {
        &self.0
    }

    /// The characters before the padding.
    pub fn as_str(&self) -> &str {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(SYMBOL_LENGTH);
        // Printable ASCII (checked when made) is UTF-8.
        std::str::from_utf8(&self.0[..end]).unwrap_or_default()
    }
}

/// The index of the first byte before the NUL padding that is not printable ASCII, if any.
#[inline]
const fn first_bad(bytes: [u8; SYMBOL_LENGTH]) -> Option<usize> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Little-endian: the word's high zero bytes are the trailing NUL padding; the bytes before
    // it must all be in 0x20..=0x7E, checked eight at once: a byte's top bit says it is 0x80 or
    // more, ((b | 0x80) - 0x20) loses it below 0x20, (b & 0x7F) + 1 gains it at 0x7F (no byte
    // borrows from or carries into its neighbour).
    let word = u64::from_le_bytes(bytes);
    let text = SYMBOL_LENGTH - (word.leading_zeros() / 8) as usize;
    let text_mask = if text == SYMBOL_LENGTH {
        HIGH
    } else {
        HIGH & ((1u64 << (8 * text)) - 1)
    };
    let not_ascii = word & HIGH;
    let below = !((word | HIGH) - 0x20 * LOW) & HIGH;
    let delete = ((word & !HIGH) + LOW) & HIGH;
    let bad = (not_ascii | below | delete) & text_mask;
    if bad == 0 {
        None
    } else {
        Some((bad.trailing_zeros() / 8) as usize)
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}
