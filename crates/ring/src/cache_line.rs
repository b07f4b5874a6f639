//! The crate's one cache-line size, for the code that works in whole lines (the producer's
//! prefetch, see `producer/mod.rs`, and the layout tests that check which words share a line).
//!
//! The file format's offsets are not derived from it: they are the format's own numbers, fixed
//! in `layout.rs` and `docs/ring-layout.md` whatever the machine (Agrona's trailer spaces
//! its fields `CACHE_LINE_LENGTH * 2` = 128 bytes apart, a 64-byte line counted twice).

/// Bytes in a cache line: the unit a core fetches, owns and hands over to another core, and
/// so the step between two prefetch hints (`PREFETCHW` takes one line).
///
/// 64 on x86-64 and on most ARM cores. Keeping two cores' hot words apart takes more than one
/// line on x86-64, though: from Sandy Bridge on, Intel's spatial (adjacent-line) prefetcher
/// completes every line it fetches into the L2 with the other line of its 128-byte-aligned pair,
/// so two lines of one pair behave as one for false sharing, and crossbeam's `CachePadded`
/// aligns to `2 * 64` = 128 bytes on x86-64 (also on aarch64, whose "big" cores have 128-byte
/// lines, and on powerpc64). This is why Agrona's trailer spaces its positions
/// `2 * CACHE_LINE` apart.
///
/// Sources (those crossbeam-utils' `CachePadded` cites):
/// - Intel 64 and IA-32 Architectures Optimization Reference Manual, "Data Prefetching"
///   (the spatial prefetcher):
///   <https://www.intel.com/content/dam/www/public/us/en/documents/manuals/64-ia-32-architectures-optimization-manual.pdf>
/// - folly's `hardware_destructive_interference_size`:
///   <https://github.com/facebook/folly/blob/1b5288e6eea6df074758f877c849b6e73bbb9fbb/folly/lang/Align.h#L107>
///
/// # Examples
/// The first line boundary at or after `from` (`CACHE_LINE` is a power of two):
/// ```text
/// let line = (from + CACHE_LINE - 1) & !(CACHE_LINE - 1);
/// ```
pub(crate) const CACHE_LINE: usize = 64;

const _: () = assert!(CACHE_LINE.is_power_of_two());
