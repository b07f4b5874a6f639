//! The orders a serialization run cycles through, the same in Rust and Java: the seed's item
//! and [`INPUTS`]` - 1` orders drawn from `java.util.SplittableRandom(9)` exactly as Java's
//! `Order.random` draws them, so both languages encode the same 256 orders, bit for bit.

use super::Order;

/// Distinct orders one run cycles through (Java's `OrderCodec.BATCH`): a batch of this many is
/// written, then read back, then checked, until `count` round trips are done.
pub const INPUTS: usize = 256;

/// The seed of the generator (Java's `new SplittableRandom(9)` in `Serialization.open`).
const SEED: i64 = 9;

/// [`INPUTS`] orders: the seed's item first, then orders drawn as Java's `Order.random` draws
/// them from `SplittableRandom(9)` (a price is an arbitrary bit pattern one time in four, NaNs
/// included, else a uniform double times 1e6).
///
/// ```
/// use sympathy_lab::serialization::{INPUTS, Order, inputs};
/// let orders = inputs();
/// assert_eq!(orders.len(), INPUTS);
/// assert_eq!(orders[0], Order::seed());
/// assert_eq!(orders[1].source_id, 5668365654269925049); // what Java draws
/// ```
pub fn inputs() -> Vec<Order> {
    let mut random = SplittableRandom::new(SEED);
    std::iter::once(Order::seed())
        .chain((1..INPUTS).map(|_| random.order()))
        .collect()
}

/// Whether two orders are equal field by field, doubles compared by their bits (as Java's
/// `Arrays.equals(double[], double[])` does, so a NaN price equals itself).
pub fn same_order(a: &Order, b: &Order) -> bool {
    a.source_id == b.source_id
        && a.special == b.special
        && a.order_code == b.order_code
        && a.priority == b.priority
        && a.quantities == b.quantities
        && a.prices.map(f64::to_bits) == b.prices.map(f64::to_bits)
}

/// A port of `java.util.SplittableRandom` (JDK 17+) for one unsplit generator: the methods
/// Java's `Order.random` calls, each giving what Java's gives for the same seed.
struct SplittableRandom {
    seed: u64,
}

impl SplittableRandom {
    const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

    fn new(seed: i64) -> SplittableRandom {
        SplittableRandom { seed: seed as u64 }
    }

    fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(Self::GOLDEN_GAMMA);
        self.seed
    }

    fn mix64(z: u64) -> u64 {
        let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn mix32(z: u64) -> i32 {
        let z = (z ^ (z >> 33)).wrapping_mul(0x62a9_d9ed_7997_05f5);
        ((z ^ (z >> 28)).wrapping_mul(0xcb24_d0a5_c88c_35b3) >> 32) as u32 as i32
    }

    fn next_long(&mut self) -> i64 {
        Self::mix64(self.next_seed()) as i64
    }

    fn next_int(&mut self) -> i32 {
        Self::mix32(self.next_seed())
    }

    /// `nextInt(bound)` for a power-of-two bound (the only kind drawn here).
    fn next_int_below_power_of_two(&mut self, bound: i32) -> i32 {
        debug_assert!(bound > 0 && bound & (bound - 1) == 0);
        self.next_int() & (bound - 1)
    }

    fn next_double(&mut self) -> f64 {
        (Self::mix64(self.next_seed()) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    fn next_boolean(&mut self) -> bool {
        self.next_int() < 0
    }

    /// Java's `Order.random(this)`: the arrays first, then the scalars in argument order.
    fn order(&mut self) -> Order {
        let mut prices = [0.0; 10];
        let mut quantities = [0; 10];
        for (price, quantity) in prices.iter_mut().zip(&mut quantities) {
            *price = if self.next_int_below_power_of_two(4) == 0 {
                f64::from_bits(self.next_long() as u64)
            } else {
                self.next_double() * 1e6
            };
            *quantity = self.next_long();
        }
        Order {
            source_id: self.next_long(),
            special: self.next_boolean(),
            order_code: self.next_int(),
            priority: self.next_int(),
            prices,
            quantities,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Java 25: `new SplittableRandom(9)`: nextLong, nextInt, nextInt(4), the bits of
    /// nextDouble, nextBoolean.
    #[test]
    fn draws_what_java_draws() {
        let mut r = SplittableRandom::new(9);
        assert_eq!(r.next_long(), -5859373336115519388);
        assert_eq!(r.next_int(), -237406641);
        assert_eq!(r.next_int_below_power_of_two(4), 2);
        assert_eq!(r.next_double().to_bits(), 4605244192851158572);
        assert!(!r.next_boolean());
    }

    /// Java 25: the first `Order.random(new SplittableRandom(9))`.
    #[test]
    fn the_first_random_order_is_javas() {
        let o = SplittableRandom::new(9).order();
        assert_eq!(o.source_id, 5668365654269925049);
        assert!(!o.special);
        assert_eq!((o.order_code, o.priority), (1240564858, -82632610));
        assert_eq!(o.prices[0].to_bits(), 4694695632121746392);
        assert_eq!(o.prices[9].to_bits(), 4693706120711462771);
        assert_eq!(
            (o.quantities[0], o.quantities[9]),
            (4894335158745139638, -5488843440134591405)
        );
    }

    #[test]
    fn orders_with_the_same_bits_are_the_same_even_with_nan_prices() {
        let mut a = Order::seed();
        a.prices[3] = f64::NAN;
        assert!(same_order(&a, &a.clone()));
        let mut b = a;
        b.prices[3] = 0.0;
        assert!(!same_order(&a, &b));
    }
}
