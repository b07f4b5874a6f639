//! The elements the queue experiment sends: the sequence `0, 1, 2, ...` encoded as a u32, a
//! u64 or a small struct, so that the consumer can check each value cheaply.

use sympathy_queue::Element;

/// An element made from, and checked against, its position in the sequence.
pub trait Message: Element + Sync + PartialEq + std::fmt::Debug {
    /// Name in `params.element`.
    const NAME: &'static str;
    /// The value sent at position `seq` (a u32 wraps after 2^32 values; the check still holds).
    fn from_seq(seq: u64) -> Self;
}

impl Message for u32 {
    const NAME: &'static str = "u32";
    #[inline(always)]
    fn from_seq(seq: u64) -> u32 {
        seq as u32
    }
}

impl Message for u64 {
    const NAME: &'static str = "u64";
    #[inline(always)]
    fn from_seq(seq: u64) -> u64 {
        seq
    }
}

/// A 16-byte market-data tick: the small fixed struct of the experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Tick {
    /// Position in the sequence.
    pub seq: u64,
    /// Price in ticks (derived from `seq`).
    pub price: u32,
    /// Quantity (derived from `seq`).
    pub quantity: u32,
}

// SAFETY: repr(C) of u64, u32, u32: 16 bytes, no padding, every bit pattern valid.
unsafe impl Element for Tick {}

impl Message for Tick {
    const NAME: &'static str = "tick";
    #[inline(always)]
    fn from_seq(seq: u64) -> Tick {
        Tick {
            seq,
            price: seq as u32 ^ 0x5555,
            quantity: (seq as u32 & 0xff) + 1,
        }
    }
}

/// Which element type a run sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementKind {
    /// `u32` (4 bytes), as the seed.
    U32,
    /// `u64` (8 bytes).
    U64,
    /// [`Tick`] (16 bytes).
    Tick,
}

impl ElementKind {
    /// Every element kind.
    pub const ALL: [ElementKind; 3] = [ElementKind::U32, ElementKind::U64, ElementKind::Tick];

    /// Name in `params.element` and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ElementKind::U32 => u32::NAME,
            ElementKind::U64 => u64::NAME,
            ElementKind::Tick => Tick::NAME,
        }
    }

    /// Bytes of one element.
    pub fn bytes(self) -> usize {
        match self {
            ElementKind::U32 => size_of::<u32>(),
            ElementKind::U64 => size_of::<u64>(),
            ElementKind::Tick => size_of::<Tick>(),
        }
    }

    /// Parses a name from [`ElementKind::name`].
    ///
    /// # Errors
    /// A message listing the valid names.
    pub fn parse(text: &str) -> Result<ElementKind, String> {
        ElementKind::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| format!("unknown element '{text}'; use one of u32, u64, tick"))
    }
}
