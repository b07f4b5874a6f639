//! Experiment 3, **memory-walk**: the cost of a memory access depends on the access pattern.
//!
//! A port of `TestMemoryAccessPatterns` from "Memory Access Patterns Are Important" (Thompson):
//! an `i64` array filled with 777 is summed in three orders, and the sum must be
//! `777 x elements` (208574349312 for 2 GiB):
//!
//! - `linear`: every word in order; the prefetchers stream it ([`Variant::Linear`]).
//! - `random-page`: a pseudo-random order inside each 2 MiB page (stride 514229 words, masked to
//!   the page), pages in order: the TLB hits, the caches mostly miss ([`Variant::RandomPage`]).
//! - `random-heap`: the same stride over the whole array: cache and TLB misses
//!   ([`Variant::RandomHeap`]).
//!
//! The seed's random walks compute the next index without loading anything, so the CPU overlaps
//! many misses: they measure throughput, not latency. Beyond the seed, the *chase* variants make
//! every load depend on the one before: the array is cut into 64-byte nodes (one cache line) and
//! the first word of each node holds the word index of the next node of a random cyclic
//! permutation of all nodes (`chase-heap`), or of the nodes page by page (`chase-page`).
//! [`sweep_sizes`] lists the working-set sizes of the latency staircase (L1, L2, L3, DRAM).
//!
//! ```
//! use sympathy_lab::memory_walk::{Variant, WalkArray, expected_sum};
//! let mut array = WalkArray::new(4 * 1024 * 1024, false).unwrap();
//! let run = array.run(Variant::RandomPage).unwrap();
//! assert_eq!(run.checksum, expected_sum(array.elements()));
//! assert!(run.ns_per_op > 0.0);
//! ```

use std::fmt;
use std::hint::black_box;
use std::time::{Duration, Instant};

use sympathy_harness::memory::{NotEnoughMemory, ensure_available};
use sympathy_harness::region::{HUGE_PAGE_SIZE, Region};
use sympathy_harness::rng::SplitMix64;

/// Bytes in one array element (a Java `long`).
pub const LONG_SIZE: usize = 8;
/// The seed's page: 2 MiB, the x86-64 huge page.
pub const PAGE_SIZE: usize = HUGE_PAGE_SIZE;
/// Array words per 2 MiB page (262144).
pub const WORDS_PER_PAGE: usize = PAGE_SIZE / LONG_SIZE;
/// The seed's stride: the Fibonacci prime 514229 (odd, so it visits every word of a
/// power-of-two range before repeating).
pub const PRIME_INC: usize = 514_229;
/// The value every element holds for the scan walks.
pub const FILL_VALUE: i64 = 777;
/// Bytes in one chase node: one cache line.
pub const NODE_SIZE: usize = 64;
/// Array words per chase node.
pub const WORDS_PER_NODE: usize = NODE_SIZE / LONG_SIZE;
/// Smallest working set of the latency sweep (well inside any L1d).
pub const MIN_SWEEP_BYTES: usize = 16 * 1024;
/// Largest array accepted: 2^38 bytes (256 GiB), so that node indices fit in `u32`.
pub const MAX_SIZE_BYTES: usize = 1 << 38;

/// One way of walking the array. Names are part of the results interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Every word in order (the seed's `LINEAR_WALK`).
    Linear,
    /// Stride 514229 masked to the current 2 MiB page (the seed's `RANDOM_PAGE_WALK`).
    RandomPage,
    /// Stride 514229 masked to the whole array (the seed's `RANDOM_HEAP_WALK`).
    RandomHeap,
    /// Dependent loads through a random cycle of the nodes of each page in turn.
    ChasePage,
    /// Dependent loads through a random cycle of all nodes of the array.
    ChaseHeap,
}

sympathy_harness::catalog_variant!(Variant, "memory-walk");

impl Variant {
    /// Every variant, in the order a run reports them.
    pub const ALL: [Variant; 5] = [
        Variant::Linear,
        Variant::RandomPage,
        Variant::RandomHeap,
        Variant::ChasePage,
        Variant::ChaseHeap,
    ];

    /// The variant's name in results (`linear`, `random-page`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Linear => "linear",
            Variant::RandomPage => "random-page",
            Variant::RandomHeap => "random-heap",
            Variant::ChasePage => "chase-page",
            Variant::ChaseHeap => "chase-heap",
        }
    }

    /// Whether the variant is a dependent pointer chase (one op per node, not per word).
    pub fn is_chase(self) -> bool {
        matches!(self, Variant::ChasePage | Variant::ChaseHeap)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// What can go wrong in a memory walk.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// The array size is not a power of two of at least 2 MiB (the seed's masks need that).
    #[error(
        "array size {0} bytes is not supported: use a power of two from 2 MiB to 256 GiB (e.g. --size-mib 64, 1024, 2048)"
    )]
    BadSize(usize),
    /// The array would not fit in memory.
    #[error(transparent)]
    NotEnoughMemory(#[from] NotEnoughMemory),
    /// mmap/madvise failed.
    #[error("could not map the walk array: {0}")]
    Map(#[from] std::io::Error),
    /// A scan walk summed to the wrong value: it did not visit every element exactly once.
    #[error("{variant}: checksum {actual} != expected {expected} (777 x {elements} elements)")]
    ChecksumMismatch {
        /// The walk.
        variant: Variant,
        /// The sum found.
        actual: i64,
        /// 777 x elements.
        expected: i64,
        /// Elements in the array.
        elements: usize,
    },
    /// A chase did not come back to its start having visited every node.
    #[error(
        "{variant}: the chase over {nodes} nodes did not visit every node (ended at word {end}, index sum {sum} != {expected_sum})"
    )]
    ChaseIncomplete {
        /// The walk.
        variant: Variant,
        /// Nodes in the cycle.
        nodes: usize,
        /// Word index the chase ended on.
        end: usize,
        /// Sum of the word indices visited.
        sum: u64,
        /// The sum a full cycle gives.
        expected_sum: u64,
    },
}

/// 777 x `elements`: what every scan walk must sum to.
///
/// ```
/// use sympathy_lab::memory_walk::expected_sum;
/// assert_eq!(expected_sum(2 * 1024 * 1024 * 1024 / 8), 208_574_349_312);
/// ```
pub fn expected_sum(elements: usize) -> i64 {
    FILL_VALUE * elements as i64
}

/// Checks an array size: a power of two from [`PAGE_SIZE`] to [`MAX_SIZE_BYTES`].
///
/// # Errors
/// [`WalkError::BadSize`].
pub fn validate_size(size_bytes: usize) -> Result<(), WalkError> {
    if size_bytes.is_power_of_two() && (PAGE_SIZE..=MAX_SIZE_BYTES).contains(&size_bytes) {
        Ok(())
    } else {
        Err(WalkError::BadSize(size_bytes))
    }
}

/// The working-set sizes of the latency sweep: powers of two from [`MIN_SWEEP_BYTES`] to
/// `max_bytes`.
///
/// ```
/// use sympathy_lab::memory_walk::sweep_sizes;
/// assert_eq!(sweep_sizes(64 * 1024), [16 * 1024, 32 * 1024, 64 * 1024]);
/// ```
pub fn sweep_sizes(max_bytes: usize) -> Vec<usize> {
    std::iter::successors(Some(MIN_SWEEP_BYTES), |&s| s.checked_mul(2))
        .take_while(|&s| s <= max_bytes)
        .collect()
}

/// One timed walk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WalkRun {
    /// Nanoseconds per element visited (per word for scans, per node for chases).
    pub ns_per_op: f64,
    /// Elements visited.
    pub ops: usize,
    /// Time the walk took (setup and verification excluded).
    pub elapsed: Duration,
    /// The verified checksum (sum of words for scans, sum of visited word indices for chases).
    pub checksum: i64,
}

/// What the array currently holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Contents {
    /// Every word is 777.
    Filled,
    /// A chase cycle of `variant` over the first `bytes` bytes, starting at word `start`.
    Chain {
        variant: Variant,
        bytes: usize,
        start: usize,
    },
}

/// The walked array: `size_bytes` of `i64` in a 2 MiB-aligned [`Region`].
pub struct WalkArray {
    region: Region,
    contents: Contents,
}

impl WalkArray {
    /// Maps and fills an array of `size_bytes` (a power of two, at least 2 MiB), after checking
    /// that it fits in the available memory.
    ///
    /// # Errors
    /// [`WalkError::BadSize`], [`WalkError::NotEnoughMemory`], [`WalkError::Map`].
    pub fn new(size_bytes: usize, huge_pages: bool) -> Result<WalkArray, WalkError> {
        validate_size(size_bytes)?;
        // The chase's node order (u32 per node) is built beside the array.
        let needed = size_bytes + size_bytes / NODE_SIZE * size_of::<u32>();
        ensure_available(
            needed as u64,
            &format!("memory-walk array of {} MiB", size_bytes >> 20),
            "use a smaller --size-mib (a power of two) or --quick",
        )?;
        let mut array = WalkArray {
            region: Region::map(size_bytes, huge_pages)?,
            contents: Contents::Chain {
                variant: Variant::Linear,
                bytes: 0,
                start: 0,
            },
        };
        array.fill();
        Ok(array)
    }

    /// Elements (i64 words) in the array.
    pub fn elements(&self) -> usize {
        self.region.len() / LONG_SIZE
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.region.len()
    }

    /// The underlying region (for its huge-page figures).
    pub fn region(&self) -> &Region {
        &self.region
    }

    fn fill(&mut self) {
        self.region.as_mut_slice::<i64>().fill(FILL_VALUE);
        self.contents = Contents::Filled;
    }

    /// Times one walk of `variant` over the whole array and verifies it. Chase variants build
    /// their cycle first (untimed) and reuse it in later runs; scans refill the array with 777
    /// (untimed) if a chase overwrote it.
    ///
    /// # Errors
    /// [`WalkError::ChecksumMismatch`] or [`WalkError::ChaseIncomplete`] if the walk did not
    /// visit every element exactly once.
    pub fn run(&mut self, variant: Variant) -> Result<WalkRun, WalkError> {
        if variant.is_chase() {
            self.run_chase(variant, self.size_bytes(), 1)
        } else {
            self.run_scan(variant)
        }
    }

    fn run_scan(&mut self, variant: Variant) -> Result<WalkRun, WalkError> {
        if self.contents != Contents::Filled {
            self.fill();
        }
        let memory = black_box(self.region.as_slice::<i64>());
        let start = Instant::now();
        let sum = match variant {
            Variant::Linear => scan::<LinearWalk>(memory),
            Variant::RandomPage => scan::<RandomPageWalk>(memory),
            _ => scan::<RandomHeapWalk>(memory),
        };
        let elapsed = start.elapsed();
        let expected = expected_sum(memory.len());
        if sum != expected {
            return Err(WalkError::ChecksumMismatch {
                variant,
                actual: sum,
                expected,
                elements: memory.len(),
            });
        }
        Ok(WalkRun {
            ns_per_op: elapsed.as_nanos() as f64 / memory.len() as f64,
            ops: memory.len(),
            elapsed,
            checksum: sum,
        })
    }

    /// Times a chase of `variant` over the first `bytes` bytes (a power of two, at least one
    /// node) going `laps` times round its cycle, and verifies it came back to its start having
    /// visited every node. Used by the sweep with `variant = ChaseHeap`.
    ///
    /// # Errors
    /// [`WalkError::BadSize`] for a bad `bytes`; [`WalkError::ChaseIncomplete`].
    pub fn run_chase(
        &mut self,
        variant: Variant,
        bytes: usize,
        laps: usize,
    ) -> Result<WalkRun, WalkError> {
        if !bytes.is_power_of_two() || bytes < NODE_SIZE || bytes > self.size_bytes() {
            return Err(WalkError::BadSize(bytes));
        }
        let start_word = match self.contents {
            Contents::Chain {
                variant: v,
                bytes: b,
                start,
            } if v == variant && b == bytes => start,
            _ => {
                let page_nodes = (variant == Variant::ChasePage).then_some(PAGE_SIZE / NODE_SIZE);
                let words = &mut self.region.as_mut_slice::<i64>()[..bytes / LONG_SIZE];
                let order = chase_order(bytes / NODE_SIZE, page_nodes, SEED);
                let start = link(words, &order);
                self.contents = Contents::Chain {
                    variant,
                    bytes,
                    start,
                };
                start
            }
        };
        let words = black_box(&self.region.as_slice::<i64>()[..bytes / LONG_SIZE]);
        let nodes = bytes / NODE_SIZE;
        let steps = nodes * laps.max(1);
        let start = Instant::now();
        // SAFETY: `words` holds a cycle written by `link` (contents is Chain for these bytes and
        // nothing wrote the region since): every node's first word is the in-bounds word index
        // of a node, and `start_word` is one of them.
        let (end, sum) = unsafe { chase(words, start_word, steps) };
        let elapsed = start.elapsed();
        let expected = chase_index_sum(nodes).wrapping_mul(laps.max(1) as u64);
        if end != start_word || sum != expected {
            return Err(WalkError::ChaseIncomplete {
                variant,
                nodes,
                end,
                sum,
                expected_sum: expected,
            });
        }
        Ok(WalkRun {
            ns_per_op: elapsed.as_nanos() as f64 / steps as f64,
            ops: steps,
            elapsed,
            checksum: sum as i64,
        })
    }
}

/// Seed of the chase permutations: fixed, so every run and language walks the same cycle.
pub const SEED: u64 = 0x5EED_0F5E_ED0F_C4A5;

/// How the seed's walks pick the next index from the previous one. Monomorphised per walk, as
/// the JIT inlines the seed's `StrideType.next` for the one stride type a JVM runs.
trait Stride {
    /// Next word index; `pos` is the previous one (`usize::MAX`, i.e. -1, before the first).
    fn next(page_offset: usize, pos: usize, array_mask: usize) -> usize;
}

struct LinearWalk;
impl Stride for LinearWalk {
    #[inline(always)]
    fn next(_page_offset: usize, pos: usize, array_mask: usize) -> usize {
        pos.wrapping_add(1) & array_mask
    }
}

struct RandomPageWalk;
impl Stride for RandomPageWalk {
    #[inline(always)]
    fn next(page_offset: usize, pos: usize, _array_mask: usize) -> usize {
        page_offset + (pos.wrapping_add(PRIME_INC) & (WORDS_PER_PAGE - 1))
    }
}

struct RandomHeapWalk;
impl Stride for RandomHeapWalk {
    #[inline(always)]
    fn next(_page_offset: usize, pos: usize, array_mask: usize) -> usize {
        pos.wrapping_add(PRIME_INC) & array_mask
    }
}

/// The seed's `perfTest` loop: pages in order, `WORDS_PER_PAGE` steps per page, each step's
/// index from `S::next`. `memory.len()` must be a power of two multiple of `WORDS_PER_PAGE`.
#[inline(never)]
fn scan<S: Stride>(memory: &[i64]) -> i64 {
    let len = memory.len();
    assert!(len.is_power_of_two() && len.is_multiple_of(WORDS_PER_PAGE));
    let array_mask = len - 1;
    let mut pos = usize::MAX;
    let mut result = 0i64;
    let mut page_offset = 0;
    while page_offset < len {
        for _ in 0..WORDS_PER_PAGE {
            pos = S::next(page_offset, pos, array_mask);
            debug_assert!(pos < len);
            // SAFETY: every stride yields an index below `len`: `& array_mask` is below
            // len = array_mask + 1; the page walk is page_offset + (x & (WORDS_PER_PAGE - 1))
            // with page_offset <= len - WORDS_PER_PAGE (len is a multiple of WORDS_PER_PAGE).
            result += unsafe { *memory.get_unchecked(pos) };
        }
        page_offset += WORDS_PER_PAGE;
    }
    result
}

/// Follows `steps` links from word `start`; returns the word it ends on and the wrapping sum of
/// the word indices it visited (the start included, the end not).
///
/// # Safety
/// Every word reachable from `start` by following links must be an in-bounds index of `words`.
#[inline(never)]
unsafe fn chase(words: &[i64], start: usize, steps: usize) -> (usize, u64) {
    let mut pos = start;
    let mut sum = 0u64;
    for _ in 0..steps {
        sum = sum.wrapping_add(pos as u64);
        debug_assert!(pos < words.len());
        // SAFETY: the caller guarantees `pos`, reached by following links, is in bounds.
        pos = unsafe { *words.get_unchecked(pos) } as usize;
    }
    (pos, sum)
}

/// The index sum of one full lap: every node's first word index, 8 x (0 + 1 + ... + nodes-1).
fn chase_index_sum(nodes: usize) -> u64 {
    let n = nodes as u64;
    let pairs = if n.is_multiple_of(2) {
        (n / 2).wrapping_mul(n.saturating_sub(1))
    } else {
        n.wrapping_mul((n - 1) / 2)
    };
    (WORDS_PER_NODE as u64).wrapping_mul(pairs)
}

/// A visiting order of `nodes` nodes: a random permutation of all of them, or with
/// `page_nodes = Some(k)`, a random permutation of each block of `k` nodes in block order.
/// Linking the order cyclically (see [`link`]) makes one cycle through every node.
///
/// ```
/// use sympathy_lab::memory_walk::chase_order;
/// let order = chase_order(8, Some(4), 1);
/// let mut first: Vec<u32> = order[..4].to_vec();
/// first.sort();
/// assert_eq!(first, [0, 1, 2, 3]);
/// ```
pub fn chase_order(nodes: usize, page_nodes: Option<usize>, seed: u64) -> Vec<u32> {
    assert!(
        nodes <= u32::MAX as usize + 1,
        "node indices must fit in u32"
    );
    let mut order: Vec<u32> = (0..nodes).map(|i| i as u32).collect();
    let mut rng = SplitMix64::new(seed);
    let block = page_nodes.unwrap_or(nodes).max(1);
    for chunk in order.chunks_mut(block) {
        // Fisher-Yates.
        for i in (1..chunk.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            chunk.swap(i, j);
        }
    }
    order
}

/// Writes the cycle `order[0] -> order[1] -> ... -> order[0]` into the first word of each node
/// (as the word index of the next node's first word) and returns the word index of `order[0]`.
/// The other words of each node are left as they are.
///
/// # Panics
/// If `order` names a node beyond `words` (never for an order from [`chase_order`] over
/// `words.len() / WORDS_PER_NODE` nodes).
pub fn link(words: &mut [i64], order: &[u32]) -> usize {
    let word = |node: u32| node as usize * WORDS_PER_NODE;
    for pair in order.windows(2) {
        words[word(pair[0])] = word(pair[1]) as i64;
    }
    if let (Some(&first), Some(&last)) = (order.first(), order.last()) {
        words[word(last)] = word(first) as i64;
        word(first)
    } else {
        0
    }
}

#[cfg(test)]
mod tests;
