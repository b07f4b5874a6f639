//! The three kinds of memory a queue lives in: a heap allocation, an anonymous mapping, and a
//! mapped file shared by two processes. All of them hand out one base pointer, aligned to a
//! line, to [`QueueLayout::total_len`] zeroed (or validated) bytes.

use std::alloc::{self, Layout};
use std::fs::{File, OpenOptions};
use std::path::Path;
use std::ptr::NonNull;

use memmap2::{MmapMut, MmapOptions};

use crate::error::QueueError;
use crate::layout::QueueLayout;

/// Where a queue created in this process lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryKind {
    /// A zeroed heap allocation aligned to 128 bytes (`std::alloc`).
    Heap,
    /// An anonymous private mapping (`mmap(MAP_ANONYMOUS)`): off the heap, as the seed's
    /// off-heap queue, but not shared with another process.
    Anonymous,
}

/// Memory owned by a queue, released when the last handle drops.
pub(crate) enum Memory {
    Heap { ptr: NonNull<u8>, layout: Layout },
    Mapped { map: MmapMut, base: NonNull<u8> },
}

// SAFETY: `Memory` owns its bytes outright (a heap block or a mapping); the raw pointer is only
// an address into them, and all concurrent access goes through the queue's atomics.
unsafe impl Send for Memory {}
// SAFETY: as above; shared references hand out only the base address.
unsafe impl Sync for Memory {}

impl Memory {
    /// `len` zeroed bytes of the given kind, aligned to [`QueueLayout::LINE`].
    pub(crate) fn zeroed(kind: MemoryKind, len: usize) -> Result<Memory, QueueError> {
        match kind {
            MemoryKind::Heap => {
                let layout = Layout::from_size_align(len, QueueLayout::LINE).map_err(|e| {
                    QueueError::Memory {
                        bytes: len,
                        reason: e.to_string(),
                    }
                })?;
                // SAFETY: `layout` has a non-zero size (at least the header and counters).
                let raw = unsafe { alloc::alloc_zeroed(layout) };
                let ptr = NonNull::new(raw).ok_or_else(|| QueueError::Memory {
                    bytes: len,
                    reason: "the allocator returned null (out of memory)".into(),
                })?;
                Ok(Memory::Heap { ptr, layout })
            }
            MemoryKind::Anonymous => {
                let map =
                    MmapOptions::new()
                        .len(len)
                        .map_anon()
                        .map_err(|e| QueueError::Memory {
                            bytes: len,
                            reason: e.to_string(),
                        })?;
                Ok(Memory::from_map(map))
            }
        }
    }

    /// Creates (or truncates) `path` to `len` zeroed bytes and maps it shared.
    pub(crate) fn create_file(path: &Path, len: usize) -> Result<Memory, QueueError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| file_error(path, e))?;
        file.set_len(len as u64).map_err(|e| file_error(path, e))?;
        map_shared(path, &file)
    }

    /// Maps the existing file at `path` shared, whatever its length (the caller validates it).
    pub(crate) fn open_file(path: &Path) -> Result<Memory, QueueError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| file_error(path, e))?;
        let len = file.metadata().map_err(|e| file_error(path, e))?.len() as usize;
        if len < QueueLayout::SLOTS_OFFSET {
            return Err(QueueError::TooShort {
                len,
                min: QueueLayout::SLOTS_OFFSET,
            });
        }
        map_shared(path, &file)
    }

    fn from_map(mut map: MmapMut) -> Memory {
        let base = NonNull::new(map.as_mut_ptr()).expect("a mapping is never at address 0");
        Memory::Mapped { map, base }
    }

    /// The first byte; page- or line-aligned.
    pub(crate) fn base(&self) -> NonNull<u8> {
        match self {
            Memory::Heap { ptr, .. } => *ptr,
            Memory::Mapped { base, .. } => *base,
        }
    }

    /// Number of bytes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Memory::Heap { layout, .. } => layout.size(),
            Memory::Mapped { map, .. } => map.len(),
        }
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        if let Memory::Heap { ptr, layout } = self {
            // SAFETY: `ptr` came from `alloc_zeroed(layout)` and is freed once, here.
            unsafe { alloc::dealloc(ptr.as_ptr(), *layout) };
        }
    }
}

fn map_shared(path: &Path, file: &File) -> Result<Memory, QueueError> {
    // SAFETY: the queue file belongs to the two processes of one queue; its contract
    // (docs/queue-layout.md) forbids truncating or remapping it while mapped. The bytes are only
    // ever accessed through raw pointers and atomics, never as Rust references.
    let map = unsafe { MmapOptions::new().map_mut(file) }.map_err(|e| file_error(path, e))?;
    Ok(Memory::from_map(map))
}

fn file_error(path: &Path, e: std::io::Error) -> QueueError {
    QueueError::File {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}
