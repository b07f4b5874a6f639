//! The mapped bytes of one ring and the only code that touches them.
//!
//! Accessor names say the memory ordering, as JCTools does: `lv_` load-acquire ("load
//! volatile"), `lp_` relaxed load ("load plain"), `so_` store-release ("store ordered"), `sp_`
//! relaxed store, `cas_` compare-and-swap. Every shared word is accessed atomically, so a peer
//! writing at any time (even a hostile one) cannot make a header read a data race. Payload bytes
//! are the exception: they are handed out as slices under the ring protocol's ownership rule
//! (the producer owns `[tail, head + capacity)`, the consumer owns `[head, tail)`).

use std::path::{Path, PathBuf};

use memmap2::MmapMut;

use crate::layout::*;
use crate::primitive::{AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering};

#[cfg(not(target_endian = "little"))]
compile_error!("the ring file is little-endian and this crate reads it natively");

/// One mapped ring file (or anonymous mapping): header page, record area and trailer.
pub(crate) struct Region {
    /// Keeps the mapping alive; never borrowed after construction.
    _map: MmapMut,
    /// Start of the mapping (page aligned).
    base: *mut u8,
    /// Start of the record area, `base + HEADER_LENGTH`.
    records: *mut u8,
    /// Start of the trailer, `records + capacity`.
    trailer: *mut u8,
    /// Bytes in the record area, a valid capacity (checked before construction).
    capacity: usize,
    /// The kind of ring: which trailer follows the record area.
    kind: Kind,
    /// `(capacity - 1) & !7`: masks any value into an 8-aligned record index whose 8-byte
    /// header lies inside the record area.
    index_mask: usize,
    /// The file, or `None` for anonymous memory.
    path: Option<PathBuf>,
    /// Under loom: the shared words, as loom atomics on the heap (see [`LoomWords`]).
    #[cfg(all(loom, test))]
    loom_words: LoomWords,
}

/// Under `--cfg loom`, every shared word of the region (header fields, trailer fields, record
/// headers) lives in this table of loom atomics instead of the mapping, because loom cannot make
/// an atomic over raw memory. The accessors below look words up by their byte offset from the
/// mapping's start, so the protocol code above them is unchanged. Payload bytes stay in the
/// mapping (loom does not track them; Miri and ThreadSanitizer check their ordering).
#[cfg(all(loom, test))]
struct LoomWords {
    /// `(offset, word)` for the u32 header fields.
    u32s: Vec<(usize, AtomicU32)>,
    /// `(offset, word)` for the i32 header fields.
    i32s: Vec<(usize, AtomicI32)>,
    /// `(offset, word)` for the u64 header fields.
    u64s: Vec<(usize, AtomicU64)>,
    /// `(offset, word)` for the i64 header and trailer fields.
    i64s: Vec<(usize, AtomicI64)>,
    /// One word per 8-byte slot of the record area (a record header may start at any of them).
    records: Vec<AtomicI64>,
}

#[cfg(all(loom, test))]
impl LoomWords {
    fn new(capacity: usize, kind: Kind) -> LoomWords {
        let trailer = HEADER_LENGTH + capacity;
        let u32s = [
            KIND_OFFSET,
            LAYOUT_VERSION_OFFSET,
            READY_OFFSET,
            HEADER_LENGTH_OFFSET,
            CONSUMER_WAKE_ARMED_OFFSET,
            CONSUMER_WAITING_OFFSET,
            CONSUMER_WAKE_SEQ_OFFSET,
            PRODUCER_WAKE_ARMED_OFFSET,
            PRODUCER_WAITING_OFFSET,
            PRODUCER_WAKE_SEQ_OFFSET,
        ];
        let i32s = [
            MAX_MESSAGE_LENGTH_OFFSET,
            PRODUCER_PID_OFFSET,
            CONSUMER_PID_OFFSET,
        ];
        let u64s = [MAGIC_OFFSET, CAPACITY_OFFSET];
        let mut i64s = vec![
            CREATION_TIME_OFFSET,
            PRODUCER_HEARTBEAT_OFFSET,
            PRODUCER_DETACHED_OFFSET,
            CONSUMER_DETACHED_OFFSET,
        ];
        i64s.extend(match kind {
            Kind::OneToOne | Kind::ManyToOne => vec![
                trailer + TAIL_POSITION_OFFSET,
                trailer + HEAD_CACHE_POSITION_OFFSET,
                trailer + HEAD_POSITION_OFFSET,
                trailer + CORRELATION_COUNTER_OFFSET,
                trailer + CONSUMER_HEARTBEAT_OFFSET,
            ],
            Kind::Broadcast => vec![
                trailer + BROADCAST_TAIL_INTENT_OFFSET,
                trailer + BROADCAST_TAIL_OFFSET,
                trailer + BROADCAST_LATEST_OFFSET,
            ],
        });
        LoomWords {
            u32s: u32s.iter().map(|&o| (o, AtomicU32::new(0))).collect(),
            i32s: i32s.iter().map(|&o| (o, AtomicI32::new(0))).collect(),
            u64s: u64s.iter().map(|&o| (o, AtomicU64::new(0))).collect(),
            i64s: i64s.iter().map(|&o| (o, AtomicI64::new(0))).collect(),
            records: (0..capacity / 8).map(|_| AtomicI64::new(0)).collect(),
        }
    }

    fn find<T>(table: &[(usize, T)], offset: usize) -> &T {
        match table.iter().find(|(o, _)| *o == offset) {
            Some((_, word)) => word,
            None => panic!("no loom word at offset {offset}: add it to LoomWords::new"),
        }
    }
}

// SAFETY: the raw pointers point into `_map`, which lives as long as the Region; every shared
// word is accessed through atomics, and payload bytes only under the ring's ownership protocol.
unsafe impl Send for Region {}
// SAFETY: as for Send: `&Region` only allows atomic accesses and protocol-owned payload access.
unsafe impl Sync for Region {}

impl Region {
    /// Wraps a mapping of exactly `kind.file_length(capacity)` bytes.
    ///
    /// The caller has checked `is_valid_capacity(capacity)` and the mapping's length.
    pub(crate) fn new(
        mut map: MmapMut,
        capacity: usize,
        kind: Kind,
        path: Option<PathBuf>,
    ) -> Region {
        assert!(
            is_valid_capacity(capacity),
            "capacity checked by the caller"
        );
        assert_eq!(
            map.len(),
            kind.file_length(capacity),
            "length checked by the caller"
        );
        let base = map.as_mut_ptr();
        // SAFETY: HEADER_LENGTH and HEADER_LENGTH + capacity are within the mapping of
        // kind.file_length(capacity) bytes (asserted above).
        let (records, trailer) = unsafe {
            let records = base.add(HEADER_LENGTH);
            (records, records.add(capacity))
        };
        Region {
            _map: map,
            base,
            records,
            trailer,
            capacity,
            kind,
            index_mask: (capacity - 1) & !(RECORD_ALIGNMENT - 1),
            path,
            #[cfg(all(loom, test))]
            loom_words: LoomWords::new(capacity, kind),
        }
    }

    /// Bytes in the record area.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// The kind of ring.
    #[inline]
    pub(crate) fn kind(&self) -> Kind {
        self.kind
    }

    /// The file, if any.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    // ---- typed words at fixed offsets -------------------------------------------------------

    #[cfg(not(all(loom, test)))]
    fn u32_at(&self, base: *mut u8, offset: usize) -> &AtomicU32 {
        debug_assert!(offset.is_multiple_of(4));
        // SAFETY: callers pass layout constants inside the header page or trailer, which are
        // 4-aligned in a page-aligned mapping that outlives &self; all accesses are atomic.
        unsafe { AtomicU32::from_ptr(base.add(offset).cast()) }
    }

    #[cfg(not(all(loom, test)))]
    fn i32_at(&self, base: *mut u8, offset: usize) -> &AtomicI32 {
        debug_assert!(offset.is_multiple_of(4));
        // SAFETY: as in u32_at.
        unsafe { AtomicI32::from_ptr(base.add(offset).cast()) }
    }

    #[cfg(not(all(loom, test)))]
    fn u64_at(&self, base: *mut u8, offset: usize) -> &AtomicU64 {
        debug_assert!(offset.is_multiple_of(8));
        // SAFETY: as in u32_at, with 8-aligned offsets.
        unsafe { AtomicU64::from_ptr(base.add(offset).cast()) }
    }

    #[cfg(not(all(loom, test)))]
    fn i64_at(&self, base: *mut u8, offset: usize) -> &AtomicI64 {
        debug_assert!(offset.is_multiple_of(8));
        // SAFETY: as in u64_at.
        unsafe { AtomicI64::from_ptr(base.add(offset).cast()) }
    }

    /// Under loom: the byte offset of `base + offset` from the mapping's start.
    #[cfg(all(loom, test))]
    fn loom_offset(&self, base: *mut u8, offset: usize) -> usize {
        base as usize - self.base as usize + offset
    }

    #[cfg(all(loom, test))]
    fn u32_at(&self, base: *mut u8, offset: usize) -> &AtomicU32 {
        LoomWords::find(&self.loom_words.u32s, self.loom_offset(base, offset))
    }

    #[cfg(all(loom, test))]
    fn i32_at(&self, base: *mut u8, offset: usize) -> &AtomicI32 {
        LoomWords::find(&self.loom_words.i32s, self.loom_offset(base, offset))
    }

    #[cfg(all(loom, test))]
    fn u64_at(&self, base: *mut u8, offset: usize) -> &AtomicU64 {
        LoomWords::find(&self.loom_words.u64s, self.loom_offset(base, offset))
    }

    #[cfg(all(loom, test))]
    fn i64_at(&self, base: *mut u8, offset: usize) -> &AtomicI64 {
        LoomWords::find(&self.loom_words.i64s, self.loom_offset(base, offset))
    }

    // ---- header page ------------------------------------------------------------------------

    pub(crate) fn lp_magic(&self) -> u64 {
        self.u64_at(self.base, MAGIC_OFFSET).load(Ordering::Relaxed)
    }
    pub(crate) fn lp_version(&self) -> u32 {
        self.u32_at(self.base, LAYOUT_VERSION_OFFSET)
            .load(Ordering::Relaxed)
    }
    pub(crate) fn lp_capacity(&self) -> u64 {
        self.u64_at(self.base, CAPACITY_OFFSET)
            .load(Ordering::Relaxed)
    }
    pub(crate) fn lp_max_message_length(&self) -> i32 {
        self.i32_at(self.base, MAX_MESSAGE_LENGTH_OFFSET)
            .load(Ordering::Relaxed)
    }
    pub(crate) fn lp_header_length(&self) -> u32 {
        self.u32_at(self.base, HEADER_LENGTH_OFFSET)
            .load(Ordering::Relaxed)
    }
    pub(crate) fn lp_creation_time(&self) -> i64 {
        self.i64_at(self.base, CREATION_TIME_OFFSET)
            .load(Ordering::Relaxed)
    }

    /// Writes every header field except `ready` (the creator, before publishing): the layout
    /// version of this region's kind, and the `kind` word where that version has one.
    pub(crate) fn sp_header(&self, capacity: usize, creation_time_ms: i64) {
        let b = self.base;
        self.u64_at(b, MAGIC_OFFSET).store(MAGIC, Ordering::Relaxed);
        let version = self.kind.layout_version();
        self.u32_at(b, LAYOUT_VERSION_OFFSET)
            .store(version, Ordering::Relaxed);
        if version >= KIND_LAYOUT_VERSION {
            self.u32_at(b, KIND_OFFSET)
                .store(self.kind.word(), Ordering::Relaxed);
        }
        self.u64_at(b, CAPACITY_OFFSET)
            .store(capacity as u64, Ordering::Relaxed);
        self.i32_at(b, MAX_MESSAGE_LENGTH_OFFSET)
            .store(max_message_length(capacity) as i32, Ordering::Relaxed);
        self.u32_at(b, HEADER_LENGTH_OFFSET)
            .store(HEADER_LENGTH as u32, Ordering::Relaxed);
        self.i64_at(b, CREATION_TIME_OFFSET)
            .store(creation_time_ms, Ordering::Relaxed);
    }

    /// SYNC POINT: ready. Publishes the header and zeroed ring region to attachers.
    pub(crate) fn so_ready(&self) {
        self.u32_at(self.base, READY_OFFSET)
            .store(READY, Ordering::Release);
    }

    /// SYNC POINT: ready. Pairs with [`Region::so_ready`].
    pub(crate) fn lv_ready(&self) -> u32 {
        self.u32_at(self.base, READY_OFFSET).load(Ordering::Acquire)
    }

    fn pid_word(&self, producer: bool) -> &AtomicI32 {
        let offset = if producer {
            PRODUCER_PID_OFFSET
        } else {
            CONSUMER_PID_OFFSET
        };
        self.i32_at(self.base, offset)
    }

    /// SYNC POINT: attach. Loads the producer (`true`) or consumer pid.
    pub(crate) fn lv_pid(&self, producer: bool) -> i32 {
        self.pid_word(producer).load(Ordering::Acquire)
    }

    /// SYNC POINT: attach. Swaps the pid from `current` to `new`; `Err` holds the pid found.
    pub(crate) fn cas_pid(&self, producer: bool, current: i32, new: i32) -> Result<i32, i32> {
        self.pid_word(producer)
            .compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
    }

    /// SYNC POINT: heartbeat. The producer's heartbeat (header) or the consumer's (Agrona
    /// trailer slot). Acquire: a heartbeat seen here makes the pid stored before it (the attach)
    /// visible to a pid load that follows.
    pub(crate) fn lv_heartbeat(&self, producer: bool) -> i64 {
        self.heartbeat_word(producer).load(Ordering::Acquire)
    }

    /// SYNC POINT: heartbeat. Stores a heartbeat (ms since the epoch). Release: it publishes the
    /// pid the attach stored before it (see [`crate::attach`]'s `peer_state`).
    pub(crate) fn so_heartbeat(&self, producer: bool, time_ms: i64) {
        self.heartbeat_word(producer)
            .store(time_ms, Ordering::Release);
    }

    /// SYNC POINT: detached. The heartbeat a side stored at its last clean detach (0: never).
    /// Loaded after the pid: a pid of 0 stored by a detach (acquire, SYNC POINT: attach) makes
    /// this detach's value visible here, so a clean detach is never mistaken for a foreign
    /// peer's heartbeat (see [`crate::attach`]'s `sight`).
    pub(crate) fn lv_detached(&self, producer: bool) -> i64 {
        self.detached_word(producer).load(Ordering::Acquire)
    }

    /// SYNC POINT: detached. A detach stores its heartbeat here before it gives the pid back
    /// (release; the pid's compare-and-swap to 0 orders it for the peer's look as well).
    pub(crate) fn so_detached(&self, producer: bool, time_ms: i64) {
        self.detached_word(producer)
            .store(time_ms, Ordering::Release);
    }

    fn detached_word(&self, producer: bool) -> &AtomicI64 {
        let offset = if producer {
            PRODUCER_DETACHED_OFFSET
        } else {
            CONSUMER_DETACHED_OFFSET
        };
        self.i64_at(self.base, offset)
    }

    fn heartbeat_word(&self, producer: bool) -> &AtomicI64 {
        if producer {
            self.i64_at(self.base, PRODUCER_HEARTBEAT_OFFSET)
        } else {
            self.ring_trailer_word(CONSUMER_HEARTBEAT_OFFSET)
        }
    }

    /// A u32 word of a wake-up block (header bytes 512..768), by its header offset: the futex
    /// words and flags of [`crate::wake`], which names the ordering of every access (its `SYNC
    /// POINT`s: wake-armed, wake-dekker, wake-seq).
    #[inline(always)]
    pub(crate) fn wake_word(&self, offset: usize) -> &AtomicU32 {
        debug_assert!((CONSUMER_WAKE_ARMED_OFFSET..=PRODUCER_WAKE_SEQ_OFFSET).contains(&offset));
        self.u32_at(self.base, offset)
    }

    // ---- trailer ----------------------------------------------------------------------------

    /// A word of the one-to-one / many-to-one trailer (a broadcast ring's trailer is shorter:
    /// its words are the `broadcast` accessors below).
    #[inline(always)]
    fn ring_trailer_word(&self, offset: usize) -> &AtomicI64 {
        debug_assert_ne!(
            self.kind,
            Kind::Broadcast,
            "a ring trailer word of a broadcast ring"
        );
        self.i64_at(self.trailer, offset)
    }

    /// SYNC POINT: tail. The producer's position, published after each record (Agrona's
    /// `putLongOrdered(tailPositionIndex, ..)`); read by `size()`-style observers.
    pub(crate) fn so_tail(&self, tail: i64) {
        self.ring_trailer_word(TAIL_POSITION_OFFSET)
            .store(tail, Ordering::Release);
    }

    /// SYNC POINT: tail. Pairs with [`Region::so_tail`].
    pub(crate) fn lv_tail(&self) -> i64 {
        self.ring_trailer_word(TAIL_POSITION_OFFSET)
            .load(Ordering::Acquire)
    }

    /// SYNC POINT: head. The consumer releases the bytes it has read, once per batch.
    pub(crate) fn so_head(&self, head: i64) {
        self.ring_trailer_word(HEAD_POSITION_OFFSET)
            .store(head, Ordering::Release);
    }

    /// SYNC POINT: head. Pairs with [`Region::so_head`]: the producer may reuse bytes before it.
    pub(crate) fn lv_head(&self) -> i64 {
        self.ring_trailer_word(HEAD_POSITION_OFFSET)
            .load(Ordering::Acquire)
    }

    /// The producer's cached head, kept in the trailer as Agrona does (relaxed: only the
    /// producer reads it, as a hint).
    pub(crate) fn sp_head_cache(&self, head: i64) {
        self.ring_trailer_word(HEAD_CACHE_POSITION_OFFSET)
            .store(head, Ordering::Relaxed);
    }

    /// The cached head (see [`Region::sp_head_cache`]).
    pub(crate) fn lp_head_cache(&self) -> i64 {
        self.ring_trailer_word(HEAD_CACHE_POSITION_OFFSET)
            .load(Ordering::Relaxed)
    }

    /// SYNC POINT: head-cache. A many-to-one producer shares the head it loaded with the other
    /// producers (Agrona's `putLongRelease(headCachePositionIndex, ..)`): release, so that a
    /// producer trusting the cached head also sees the consumer's zeroing of the bytes before
    /// it (the consumer's head release, acquired by the producer that cached it, comes first).
    pub(crate) fn so_head_cache(&self, head: i64) {
        self.ring_trailer_word(HEAD_CACHE_POSITION_OFFSET)
            .store(head, Ordering::Release);
    }

    /// SYNC POINT: head-cache. Pairs with [`Region::so_head_cache`].
    pub(crate) fn lv_head_cache(&self) -> i64 {
        self.ring_trailer_word(HEAD_CACHE_POSITION_OFFSET)
            .load(Ordering::Acquire)
    }

    /// SYNC POINT: tail-claim. A many-to-one producer's claim: moves the tail from `current` to
    /// `new` if no other producer moved it first (Agrona's `compareAndSetLong` on the tail).
    pub(crate) fn cas_tail(&self, current: i64, new: i64) -> bool {
        self.ring_trailer_word(TAIL_POSITION_OFFSET)
            .compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// The correlation counter (Agrona's `nextCorrelationId`, a fetch-and-add).
    pub(crate) fn next_correlation_id(&self) -> i64 {
        self.ring_trailer_word(CORRELATION_COUNTER_OFFSET)
            .fetch_add(1, Ordering::AcqRel)
    }

    /// The correlation counter's value, for inspection.
    pub(crate) fn lp_correlation_counter(&self) -> i64 {
        self.ring_trailer_word(CORRELATION_COUNTER_OFFSET)
            .load(Ordering::Relaxed)
    }

    // ---- broadcast trailer ------------------------------------------------------------------

    /// A word of a broadcast ring's trailer.
    #[inline(always)]
    fn broadcast_word(&self, offset: usize) -> &AtomicI64 {
        debug_assert_eq!(
            self.kind,
            Kind::Broadcast,
            "a broadcast word of another ring"
        );
        self.i64_at(self.trailer, offset)
    }

    /// SYNC POINT: tail-intent. The end of the record the transmitter is about to write, stored
    /// before any of its bytes and followed by a release fence (Agrona's `signalTailIntent`).
    pub(crate) fn so_tail_intent(&self, position: i64) {
        self.broadcast_word(BROADCAST_TAIL_INTENT_OFFSET)
            .store(position, Ordering::Release);
        crate::primitive::fence(Ordering::Release);
    }

    /// SYNC POINT: tail-intent. Pairs with [`Region::so_tail_intent`]: a receiver loads it
    /// after an acquire fence that follows its copy, to learn whether the copy may have been
    /// overwritten.
    pub(crate) fn lv_tail_intent(&self) -> i64 {
        self.broadcast_word(BROADCAST_TAIL_INTENT_OFFSET)
            .load(Ordering::Acquire)
    }

    /// SYNC POINT: broadcast-tail. The position past the last complete record.
    pub(crate) fn so_broadcast_tail(&self, position: i64) {
        self.broadcast_word(BROADCAST_TAIL_OFFSET)
            .store(position, Ordering::Release);
    }

    /// SYNC POINT: broadcast-tail. Pairs with [`Region::so_broadcast_tail`].
    pub(crate) fn lv_broadcast_tail(&self) -> i64 {
        self.broadcast_word(BROADCAST_TAIL_OFFSET)
            .load(Ordering::Acquire)
    }

    /// SYNC POINT: latest. The position of the last complete record.
    pub(crate) fn so_latest(&self, position: i64) {
        self.broadcast_word(BROADCAST_LATEST_OFFSET)
            .store(position, Ordering::Release);
    }

    /// SYNC POINT: latest. Pairs with [`Region::so_latest`].
    pub(crate) fn lv_latest(&self) -> i64 {
        self.broadcast_word(BROADCAST_LATEST_OFFSET)
            .load(Ordering::Acquire)
    }

    // ---- records ----------------------------------------------------------------------------

    #[inline]
    fn record_word(&self, index: usize) -> &AtomicI64 {
        // Masking keeps even a wrong index inside the record area and 8-aligned.
        let index = index & self.index_mask;
        #[cfg(all(loom, test))]
        return &self.loom_words.records[index / RECORD_ALIGNMENT];
        // SAFETY: index is 8-aligned and index + 8 <= capacity, so the word lies in the record
        // area of the live mapping; all accesses to record headers are atomic.
        #[cfg(not(all(loom, test)))]
        unsafe {
            AtomicI64::from_ptr(self.records.add(index).cast())
        }
    }

    /// SYNC POINT: record. Loads a record header; a positive length makes the payload visible.
    #[inline]
    pub(crate) fn lv_record(&self, index: usize) -> i64 {
        self.record_word(index).load(Ordering::Acquire)
    }

    /// SYNC POINT: record. Publishes a record header after its payload (Agrona's
    /// `putIntOrdered(lengthOffset, ..)`).
    #[inline]
    pub(crate) fn so_record(&self, index: usize, header: i64) {
        self.record_word(index).store(header, Ordering::Release);
    }

    /// Asks the core to fetch the cache line holding record-area byte `index` for writing
    /// (x86 `PREFETCHW`), so the producer's ownership requests for lines the consumer has read
    /// go out ahead of its stores instead of filling the store buffer. A hint: no effect on
    /// the ring's contents or ordering; a no-op on other targets and under Miri and loom.
    #[inline(always)]
    pub(crate) fn prefetch_for_write(&self, index: usize) {
        #[cfg(all(target_arch = "x86_64", not(miri), not(all(loom, test))))]
        {
            let line = self.records.wrapping_add(index & self.index_mask);
            // SAFETY: PREFETCHW never faults and changes no architectural state (it is a NOP
            // on cores without it); the address lies in the live mapping anyway.
            unsafe {
                core::arch::asm!("prefetchw byte ptr [{0}]", in(reg) line,
                    options(nostack, preserves_flags, readonly));
            }
        }
        #[cfg(not(all(target_arch = "x86_64", not(miri), not(all(loom, test)))))]
        let _ = index;
    }

    /// Stores a record header without ordering: pre-zeroing the next header, or a claim's
    /// negative length (both published by a later release).
    #[inline]
    pub(crate) fn sp_record(&self, index: usize, header: i64) {
        self.record_word(index).store(header, Ordering::Relaxed);
    }

    /// Loads the 8-byte word at record-area `index` (8-aligned) without ordering: a broadcast
    /// receiver's copy, which the transmitter may overwrite at any time (the tail-intent check
    /// after the copy tells), so every byte it reads is read atomically.
    #[inline]
    pub(crate) fn lp_word(&self, index: usize) -> u64 {
        self.record_word(index).load(Ordering::Relaxed) as u64
    }

    /// Stores the 8-byte word at record-area `index` (8-aligned) without ordering: a broadcast
    /// transmitter's bytes, read concurrently by receivers (see [`Region::lp_word`]).
    #[inline]
    pub(crate) fn sp_word(&self, index: usize, word: u64) {
        self.record_word(index)
            .store(word as i64, Ordering::Relaxed);
    }

    /// Zeroes `len` bytes (a multiple of 8) of the record area from `index` (8-aligned): what a
    /// many-to-one consumer has read, before it releases them (Agrona's `setMemory(headIndex,
    /// bytesRead, 0)`), so the next producer to claim them finds a zero header.
    ///
    /// The consumer owns these bytes until its head release (SYNC POINT: head) publishes the
    /// zeros with them.
    pub(crate) fn zero_records(&self, index: usize, len: usize) {
        debug_assert!(
            index.is_multiple_of(RECORD_ALIGNMENT) && len.is_multiple_of(RECORD_ALIGNMENT)
        );
        debug_assert!(index + len <= self.capacity);
        #[cfg(all(loom, test))]
        for at in (index..index + len).step_by(RECORD_ALIGNMENT) {
            self.record_word(at).store(0, Ordering::Relaxed);
        }
        // SAFETY: index + len <= capacity (the consumer read these records in this area); the
        // consumer owns the bytes until it releases the head, and no one else accesses them
        // until then.
        #[cfg(not(all(loom, test)))]
        unsafe {
            std::ptr::write_bytes(self.records.add(index), 0, len);
        }
    }

    /// The payload bytes of the record at `index`.
    ///
    /// # Safety
    /// `index + RECORD_HEADER_LENGTH + len <= capacity`, and the caller owns these bytes under
    /// the ring protocol for the lifetime of the slice (the consumer between reading a
    /// published header and releasing the head; the producer between claiming and publishing).
    #[inline]
    pub(crate) unsafe fn payload(&self, index: usize, len: usize) -> *mut u8 {
        debug_assert!(index + RECORD_HEADER_LENGTH + len <= self.capacity);
        // SAFETY: in bounds by the caller's contract.
        unsafe { self.records.add(index + RECORD_HEADER_LENGTH) }
    }

    /// The first byte of the record area (for bindings that fill claims in place; see
    /// `Producer::record_area`).
    #[cfg(feature = "bindings")]
    pub(crate) fn record_area_ptr(&self) -> *mut u8 {
        self.records
    }

    /// Copies `out.len()` bytes of the record area from `index` (for inspection; the bytes may
    /// change under a live producer).
    pub(crate) fn copy_out(&self, index: usize, out: &mut [u8]) {
        let len = out.len().min(self.capacity.saturating_sub(index));
        // SAFETY: index + len <= capacity; a volatile copy tolerates concurrent writers (the
        // bytes may be torn, which inspection reports as they are).
        unsafe {
            for (i, slot) in out[..len].iter_mut().enumerate() {
                *slot = std::ptr::read_volatile(self.records.add(index + i));
            }
        }
    }
}
