//! Bounds-checked cursors over a byte slice, as `java.nio.ByteBuffer` checks every access: the
//! hand codecs of the serialization and messaging experiments write and read their fixed
//! layouts field by field through them.
//!
//! A cursor fails with its user's own error type `E` (anything made `From` a [`BufferTooSmall`]),
//! built where the access fails: the serialization codecs' `CodecError` is returned as it was
//! before the cursors were shared (the instruction-count gate measured a conversion at each `?`
//! as +12% instructions in the hand codec's decode).
//!
//! ```ignore
//! let mut buf = [0u8; 12];
//! let mut w = Writer::<BufferTooSmall>::new(&mut buf);
//! w.put(7u64.to_le_bytes())?;
//! w.put(9i32.to_le_bytes())?;
//! let mut r = Reader::<BufferTooSmall>::new(&buf);
//! assert_eq!(u64::from_le_bytes(r.get()?), 7);
//! ```

use std::marker::PhantomData;

use thiserror::Error;

/// A put or get past the end of the slice.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("buffer of {len} bytes is too small: the layout needs {needed}")]
pub struct BufferTooSmall {
    /// Bytes needed (at least).
    pub needed: usize,
    /// Bytes the buffer has.
    pub len: usize,
}

/// A write cursor over a byte slice; every put checks that it fits.
pub(crate) struct Writer<'a, E> {
    buf: &'a mut [u8],
    /// Bytes written so far.
    pub(crate) pos: usize,
    error: PhantomData<E>,
}

impl<'a, E: From<BufferTooSmall>> Writer<'a, E> {
    /// A cursor at the start of `buf`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        Writer {
            buf,
            pos: 0,
            error: PhantomData,
        }
    }

    /// Writes `bytes` at the cursor and moves past them.
    #[inline(always)]
    pub(crate) fn put<const N: usize>(&mut self, bytes: [u8; N]) -> Result<(), E> {
        let len = self.buf.len();
        let dst = self
            .buf
            .get_mut(self.pos..self.pos + N)
            .ok_or(E::from(BufferTooSmall {
                needed: self.pos + N,
                len,
            }))?;
        dst.copy_from_slice(&bytes);
        self.pos += N;
        Ok(())
    }
}

/// A read cursor over a byte slice; every get checks that it is in bounds.
pub(crate) struct Reader<'a, E> {
    buf: &'a [u8],
    pos: usize,
    error: PhantomData<E>,
}

impl<'a, E: From<BufferTooSmall>> Reader<'a, E> {
    /// A cursor at the start of `buf`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Reader {
            buf,
            pos: 0,
            error: PhantomData,
        }
    }

    /// The `N` bytes at the cursor; moves past them.
    #[inline(always)]
    pub(crate) fn get<const N: usize>(&mut self) -> Result<[u8; N], E> {
        let src = self
            .buf
            .get(self.pos..self.pos + N)
            .ok_or(E::from(BufferTooSmall {
                needed: self.pos + N,
                len: self.buf.len(),
            }))?;
        self.pos += N;
        Ok(src.try_into().expect("the range is N bytes long"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_put_or_get_past_the_end_says_how_many_bytes_it_needed() {
        let mut buf = [0u8; 10];
        let mut w = Writer::<BufferTooSmall>::new(&mut buf);
        w.put(7u64.to_le_bytes()).unwrap();
        assert_eq!(
            w.put(1u32.to_le_bytes()),
            Err(BufferTooSmall {
                needed: 12,
                len: 10
            })
        );
        assert_eq!(w.pos, 8, "a failed put does not move the cursor");
        let mut r = Reader::<BufferTooSmall>::new(&buf);
        assert_eq!(u64::from_le_bytes(r.get().unwrap()), 7);
        assert_eq!(
            r.get::<4>(),
            Err(BufferTooSmall {
                needed: 12,
                len: 10
            })
        );
    }
}
