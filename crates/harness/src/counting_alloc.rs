//! A global allocator wrapper that counts the bytes the allocator really hands out, so that
//! `bytes_per_record` is measured, not guessed from `size_of`.
//!
//! [`CountingAllocator`] forwards every call to [`std::alloc::System`] (malloc on Linux). While
//! counting is on (inside [`measure`]) it adds, for each live block, the allocator's **usable
//! size** of that block (`malloc_usable_size`: the requested size rounded up to malloc's size
//! classes) and subtracts it again on free. For a `Box` of a 48-byte struct glibc reports 56
//! usable bytes, which is what shows the per-object cost; glibc's 8-byte chunk header comes on
//! top of that and is not counted (it is not visible through any allocator call). Outside
//! [`measure`] the wrapper costs one relaxed load per call, so timed runs are not disturbed.
//!
//! The counters are global: measure on one thread while no other thread allocates.
//!
//! A binary opts in with
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: sympathy_harness::counting_alloc::CountingAllocator =
//!     sympathy_harness::counting_alloc::CountingAllocator;
//! ```
//! (the `sympathy` CLI does). Without it, [`measure`] reports `None`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// The counting wrapper around [`System`]; install it with `#[global_allocator]`.
pub struct CountingAllocator;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);
static LIVE_BLOCKS: AtomicIsize = AtomicIsize::new(0);

/// What a closure left allocated when it returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocated {
    /// Usable bytes of the blocks still live (allocated minus freed) when the closure returned.
    pub bytes: isize,
    /// Number of blocks still live.
    pub blocks: isize,
}

/// Usable size of a block that `System` returned for `layout`.
fn usable_size(ptr: *mut u8, layout: Layout) -> isize {
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        let _ = layout;
        // SAFETY: `ptr` is a live block returned by System, i.e. by malloc/posix_memalign.
        (unsafe { libc::malloc_usable_size(ptr.cast()) }) as isize
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    {
        let _ = ptr;
        layout.size() as isize
    }
}

fn count_alloc(ptr: *mut u8, layout: Layout) {
    if !ptr.is_null() && COUNTING.load(Ordering::Relaxed) {
        LIVE_BYTES.fetch_add(usable_size(ptr, layout), Ordering::Relaxed);
        LIVE_BLOCKS.fetch_add(1, Ordering::Relaxed);
    }
}

fn count_free(ptr: *mut u8, layout: Layout) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE_BYTES.fetch_sub(usable_size(ptr, layout), Ordering::Relaxed);
        LIVE_BLOCKS.fetch_sub(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to System; the counting only reads the blocks'
// metadata through malloc_usable_size and never touches their contents.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds GlobalAlloc::alloc's contract, which System shares.
        let ptr = unsafe { System.alloc(layout) };
        count_alloc(ptr, layout);
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for alloc.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        count_alloc(ptr, layout);
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count_free(ptr, layout);
        // SAFETY: the caller passes a block this allocator (i.e. System) returned, with its layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_free(ptr, layout);
        // SAFETY: the caller upholds GlobalAlloc::realloc's contract, which System shares.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if new.is_null() {
            // The old block is still live: count it back.
            count_alloc(ptr, layout);
        } else {
            // SAFETY: realloc's contract guarantees `new_size` with `layout`'s alignment is valid.
            let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            count_alloc(new, new_layout);
        }
        new
    }
}

/// Runs `build` with counting on and returns its value with what it left allocated, or `None`
/// for the count when [`CountingAllocator`] is not this binary's global allocator.
///
/// # Examples
/// ```
/// use sympathy_harness::counting_alloc::measure;
/// let (v, allocated) = measure(|| vec![0u64; 1000]);
/// assert_eq!(v.len(), 1000);
/// // Doc tests do not install the allocator, so nothing was counted.
/// assert!(allocated.is_none());
/// ```
pub fn measure<T>(build: impl FnOnce() -> T) -> (T, Option<Allocated>) {
    COUNTING.store(true, Ordering::Relaxed);
    let installed = {
        let before = LIVE_BLOCKS.load(Ordering::Relaxed);
        let probe = std::hint::black_box(Box::new(0u64));
        let counted = LIVE_BLOCKS.load(Ordering::Relaxed) != before;
        drop(probe);
        counted
    };
    let bytes_before = LIVE_BYTES.load(Ordering::Relaxed);
    let blocks_before = LIVE_BLOCKS.load(Ordering::Relaxed);
    let value = build();
    let allocated = Allocated {
        bytes: LIVE_BYTES.load(Ordering::Relaxed) - bytes_before,
        blocks: LIVE_BLOCKS.load(Ordering::Relaxed) - blocks_before,
    };
    COUNTING.store(false, Ordering::Relaxed);
    (value, installed.then_some(allocated))
}
