//! A 2 MiB-aligned anonymous memory region with explicit transparent-huge-page advice, so that
//! the memory-walk experiment can compare 4 KiB pages with 2 MiB pages on the same code path.

use std::fs;
use std::io;
use std::ptr::NonNull;

/// Size of an x86-64 huge page, and the alignment of every [`Region`].
pub const HUGE_PAGE_SIZE: usize = 2 * 1024 * 1024;

/// Anonymous, private, read-write memory of `len` bytes starting on a 2 MiB boundary, zeroed by
/// the kernel, unmapped on drop.
///
/// With `huge_pages` the region is advised `MADV_HUGEPAGE` (the kernel may back it with 2 MiB
/// pages when THP is `always` or `madvise`); without, it is advised `MADV_NOHUGEPAGE`, so that the
/// comparison means the same on a machine whose THP mode is `always`.
///
/// # Examples
/// ```
/// use sympathy_harness::region::Region;
/// let mut region = Region::map(4 * 1024 * 1024, false).unwrap();
/// let words = region.as_mut_slice::<i64>();
/// words[0] = 777;
/// assert_eq!(words.len(), 512 * 1024);
/// ```
pub struct Region {
    ptr: NonNull<u8>,
    len: usize,
    huge_pages: bool,
}

// SAFETY: the region is plain memory owned by this value; access goes through &self/&mut self.
unsafe impl Send for Region {}
// SAFETY: shared access only hands out shared slices.
unsafe impl Sync for Region {}

impl Region {
    /// Maps `len` bytes (`len` a positive multiple of [`HUGE_PAGE_SIZE`]).
    ///
    /// # Errors
    /// `InvalidInput` for a bad length; the OS error if `mmap` or `madvise` fails.
    pub fn map(len: usize, huge_pages: bool) -> io::Result<Region> {
        if len == 0 || !len.is_multiple_of(HUGE_PAGE_SIZE) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("region length {len} is not a positive multiple of 2 MiB"),
            ));
        }
        let padded = len.checked_add(HUGE_PAGE_SIZE).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "region length overflows")
        })?;
        // SAFETY: an anonymous private mapping with no address hint touches no existing memory.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                padded,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let start = raw as usize;
        let aligned = start.next_multiple_of(HUGE_PAGE_SIZE);
        let head = aligned - start;
        let tail = padded - head - len;
        // SAFETY: [start, start+head) and [aligned+len, start+padded) lie inside the mapping just
        // made and are not used by anyone; unmapping them leaves exactly [aligned, aligned+len).
        unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            if tail > 0 {
                libc::munmap((aligned + len) as *mut libc::c_void, tail);
            }
        }
        let region = Region {
            ptr: NonNull::new(aligned as *mut u8).expect("mmap never returns address 0 here"),
            len,
            huge_pages,
        };
        let advice = if huge_pages {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        // SAFETY: the range is exactly the mapping this Region owns.
        if unsafe { libc::madvise(region.ptr.as_ptr().cast(), len, advice) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(region)
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a region has at least one huge page's worth of bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the region was advised to use huge pages.
    pub fn huge_pages(&self) -> bool {
        self.huge_pages
    }

    /// The region as a slice of `T` (an integer type: every bit pattern is valid).
    pub fn as_slice<T: bytemuck_like::Pod>(&self) -> &[T] {
        // SAFETY: the mapping is 2 MiB-aligned (so aligned for any Pod integer), `len` bytes long,
        // initialised (zero-filled by the kernel) and every bit pattern is a valid T.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr().cast(), self.len / size_of::<T>()) }
    }

    /// The region as a mutable slice of `T` (an integer type: every bit pattern is valid).
    pub fn as_mut_slice<T: bytemuck_like::Pod>(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`, and `&mut self` makes this the only reference.
        unsafe {
            std::slice::from_raw_parts_mut(self.ptr.as_ptr().cast(), self.len / size_of::<T>())
        }
    }

    /// Bytes of this region the kernel currently backs with huge pages (`AnonHugePages` of its
    /// mapping in `/proc/self/smaps`), or `None` if that cannot be read. The mapping may have
    /// been merged with a neighbour of the same flags; the figure is then that of the merged one.
    pub fn huge_page_bytes(&self) -> Option<u64> {
        let smaps = fs::read_to_string("/proc/self/smaps").ok()?;
        anon_huge_pages_at(&smaps, self.ptr.as_ptr() as usize)
    }
}

/// `AnonHugePages` (bytes) of the mapping in `smaps` text that contains `addr`.
fn anon_huge_pages_at(smaps: &str, addr: usize) -> Option<u64> {
    let mut inside = false;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((lo, hi)) = first.split_once('-')
            && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        {
            inside = (lo..hi).contains(&addr);
            continue;
        }
        if inside && let Some(rest) = line.strip_prefix("AnonHugePages:") {
            let kib: u64 = rest.split_whitespace().next()?.parse().ok()?;
            return Some(kib * 1024);
        }
    }
    None
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: the range is exactly the mapping this Region owns; no slice outlives `self`.
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len);
        }
    }
}

/// Element types a [`Region`] can be viewed as: plain integers, valid for every bit pattern.
pub mod bytemuck_like {
    /// Plain old data: any bit pattern is a valid value.
    pub trait Pod: Copy + 'static {}
    impl Pod for u8 {}
    impl Pod for i32 {}
    impl Pod for u32 {}
    impl Pod for i64 {}
    impl Pod for u64 {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_is_aligned_zeroed_and_writable() {
        let mut region = Region::map(2 * HUGE_PAGE_SIZE, true).unwrap();
        assert_eq!(
            region.as_slice::<u8>().as_ptr() as usize % HUGE_PAGE_SIZE,
            0
        );
        assert!(region.as_slice::<i64>().iter().all(|&w| w == 0));
        let words = region.as_mut_slice::<i64>();
        let last = words.len() - 1;
        words[last] = 777;
        assert_eq!(region.as_slice::<i64>()[last], 777);
        assert!(region.huge_page_bytes().is_some());
    }

    #[test]
    fn bad_lengths_are_rejected() {
        assert!(Region::map(0, false).is_err());
        assert!(Region::map(HUGE_PAGE_SIZE + 4096, false).is_err());
    }

    #[test]
    fn smaps_lookup_finds_the_containing_mapping() {
        let smaps = "7f0000000000-7f0000400000 rw-p 00000000 00:00 0\nSize: 4096 kB\nAnonHugePages:      2048 kB\n\
                     7f0000400000-7f0000800000 rw-p 00000000 00:00 0\nAnonHugePages:         0 kB\n";
        assert_eq!(anon_huge_pages_at(smaps, 0x7f0000001000), Some(2048 * 1024));
        assert_eq!(anon_huge_pages_at(smaps, 0x7f0000400000), Some(0));
        assert_eq!(anon_huge_pages_at(smaps, 0x10), None);
    }
}
