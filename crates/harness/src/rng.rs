//! [`SplitMix64`]: the seeded generator of the experiments' shuffles and random ids, so a run's
//! inputs are the same on every machine and in every run with the same seed.

/// SplitMix64 (Steele, Lea and Flood): a tiny, well-mixed 64-bit generator, enough for shuffles
/// and random keys; not for anything secret.
///
/// ```
/// use sympathy_harness::rng::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next(), b.next());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose sequence `seed` fixes.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next value of the sequence.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound` (multiply-shift; the bias is negligible for shuffles and keys).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next() as u128 * bound as u128) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_values_of_seed_zero_are_splitmix64s() {
        // The reference sequence of SplitMix64 from seed 0 (as java.util.SplittableRandom's
        // mix64 of the golden-gamma steps gives it).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_below_its_bound() {
        let mut rng = SplitMix64::new(3);
        assert!((0..10_000).all(|_| rng.below(7) < 7));
        assert_eq!(SplitMix64::new(3).below(1), 0);
    }
}
