//! What may travel through a queue: plain data of a fixed size.

/// A fixed-size, plain-data element: `Copy`, no pointers, no padding, and every bit pattern a
/// valid value, so that a slot can be read whatever another process wrote into it.
///
/// # Safety
/// Implement only for types that are `#[repr(C)]` (or primitive), contain no padding bytes, no
/// references or pointers, and for which every bit pattern is a valid value (integers, floats,
/// arrays and `#[repr(C)]` structs of those, without padding). The size must be non-zero and
/// the alignment at most 128 bytes (checked at compile time).
///
/// # Examples
/// ```
/// use sympathy_queue::Element;
/// #[derive(Clone, Copy)]
/// #[repr(C)]
/// struct Tick { seq: u64, price: u32, quantity: u32 }
/// // SAFETY: repr(C), integers only, 16 bytes without padding.
/// unsafe impl Element for Tick {}
/// ```
pub unsafe trait Element: Copy + Send + 'static {
    /// Evaluated by every constructor: fails the build for a zero-sized or over-aligned type.
    const ASSERT_LAYOUT: () = assert!(
        size_of::<Self>() > 0 && align_of::<Self>() <= crate::QueueLayout::LINE,
        "an Element must be non-empty and at most 128-byte aligned"
    );
}

macro_rules! plain_element {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive number: no padding, every bit pattern valid.
        unsafe impl Element for $t {}
    )*};
}

plain_element!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128, f32, f64);

// SAFETY: an array of plain elements is plain: no padding between elements of one type.
unsafe impl<T: Element, const N: usize> Element for [T; N] {}
