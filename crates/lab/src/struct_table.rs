//! Experiment 4, **struct-table**: the same 50M-trade table in four memory layouts.
//!
//! A port of `TestJavaMemoryLayout` and `TestDirectMemoryLayout` from "Compact Off-Heap
//! Structures/Tuples In Java" (Thompson). Each run builds a table of `records` trades, filled as
//! the seed does (trade `i` has `tradeId = price = quantity = i`, `clientId = 1`, venue `XLON`,
//! instrument `BHP`, side `'B'` for even `i` and `'S'` for odd), then sums `price * quantity` of
//! the buys and of the sells. Both sums (Java `long` arithmetic: wrapping) are checked against
//! their closed form ([`expected_costs`]).
//!
//! | variant | layout | seed |
//! |---|---|---|
//! | `boxed` | `Vec<Box<Trade>>`: one heap block per trade behind a pointer | the Java object array |
//! | `aos` | `Vec<Trade>`: structs side by side (48 bytes each with padding) | (what a value type gives) |
//! | `flyweight` | one block of packed 42-byte records read through a flyweight | the `Unsafe` off-heap table |
//! | `soa` | one `Vec` per field | (column store) |
//!
//! ```
//! use sympathy_lab::struct_table::{Variant, expected_costs, run_once};
//! let run = run_once(Variant::Flyweight, 1000).unwrap();
//! assert_eq!(run.costs, expected_costs(1000));
//! ```

use std::fmt;
use std::hint::black_box;
use std::time::Instant;

use sympathy_harness::counting_alloc;
use sympathy_harness::memory::{NotEnoughMemory, ensure_available};

/// The seed's record count.
pub const SEED_RECORDS: usize = 50_000_000;
/// Largest table accepted: 2^40 records (the closed forms are exact in `u128` up to there).
pub const MAX_RECORDS: usize = 1 << 40;
/// `side` of a buy (Java `char` `'B'`).
pub const SIDE_BUY: u16 = b'B' as u16;
/// `side` of a sell (Java `char` `'S'`).
pub const SIDE_SELL: u16 = b'S' as u16;

/// One trade, as the seed's `JavaMemoryTrade` (Rust reorders nothing that matters here: 42
/// bytes of fields, padded to 48).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trade {
    /// Trade id (`i`).
    pub trade_id: i64,
    /// Client id (1).
    pub client_id: i64,
    /// Venue code, [`pack`]ed (`XLON`).
    pub venue_code: i32,
    /// Instrument code, [`pack`]ed (`BHP`).
    pub instrument_code: i32,
    /// Price (`i`).
    pub price: i64,
    /// Quantity (`i`).
    pub quantity: i64,
    /// [`SIDE_BUY`] or [`SIDE_SELL`].
    pub side: u16,
}

/// The seed's `pack`: up to four ASCII bytes into an `int`, first byte highest
/// (`"BHP"` is `B<<24 | H<<16 | P<<8`). `None` for an empty or longer code.
///
/// ```
/// use sympathy_lab::struct_table::pack;
/// assert_eq!(pack(b"BHP"), Some(0x4248_5000));
/// assert_eq!(pack(b"XLON"), Some(0x584C_4F4E));
/// assert_eq!(pack(b"TOOLONG"), None);
/// ```
pub fn pack(code: &[u8]) -> Option<i32> {
    if code.is_empty() || code.len() > 4 {
        return None;
    }
    // Java widens a byte with sign extension: `(int) value[3]`.
    Some(code.iter().enumerate().fold(0i32, |acc, (k, &b)| {
        acc | ((b as i8 as i32) << (24 - 8 * k as u32))
    }))
}

/// Trade `i` of the table, as the seed's `init` fills it.
#[inline(always)]
pub fn seed_trade(i: usize, venue_code: i32, instrument_code: i32) -> Trade {
    Trade {
        trade_id: i as i64,
        client_id: 1,
        venue_code,
        instrument_code,
        price: i as i64,
        quantity: i as i64,
        side: if i & 1 == 0 { SIDE_BUY } else { SIDE_SELL },
    }
}

fn codes() -> (i32, i32) {
    (
        pack(b"XLON").expect("4-byte code"),
        pack(b"BHP").expect("3-byte code"),
    )
}

/// The table's `records` trades in order, as the seed's `init` fills them.
pub fn seed_trades(records: usize) -> impl Iterator<Item = Trade> {
    let (venue, instrument) = codes();
    (0..records).map(move |i| seed_trade(i, venue, instrument))
}

/// The query's result: total `price * quantity` of the buys and of the sells (wrapping, as Java
/// `long` arithmetic; 50M records overflow it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Costs {
    /// Sum over buys.
    pub buy: i64,
    /// Sum over sells.
    pub sell: i64,
}

impl Costs {
    /// The query over `trades`.
    #[inline(always)]
    fn of<'a>(trades: impl IntoIterator<Item = &'a Trade>) -> Costs {
        let mut costs = Costs::default();
        for trade in trades {
            costs.add(trade.side, trade.price, trade.quantity);
        }
        costs
    }

    #[inline(always)]
    fn add(&mut self, side: u16, price: i64, quantity: i64) {
        let cost = price.wrapping_mul(quantity);
        if side == SIDE_BUY {
            self.buy = self.buy.wrapping_add(cost);
        } else {
            self.sell = self.sell.wrapping_add(cost);
        }
    }
}

/// The closed forms of the query over `records` seed trades: buys are the even `i`, so
/// `buyCost = sum (2k)^2 = 2(m-1)m(2m-1)/3` with `m = ceil(n/2)`; sells the odd `i`, so
/// `sellCost = sum (2k+1)^2 = p(2p-1)(2p+1)/3` with `p = floor(n/2)`; both taken mod 2^64 as
/// Java's `long` sum does.
///
/// ```
/// use sympathy_lab::struct_table::expected_costs;
/// let c = expected_costs(5); // buys 0,2,4; sells 1,3
/// assert_eq!((c.buy, c.sell), (0 + 4 + 16, 1 + 9));
/// ```
pub fn expected_costs(records: usize) -> Costs {
    let n = records as u128;
    let m = n.div_ceil(2);
    let p = n / 2;
    let buy = if m == 0 {
        0
    } else {
        2 * (m - 1) * m * (2 * m - 1) / 3
    };
    let sell = if p == 0 {
        0
    } else {
        p * (2 * p - 1) * (2 * p + 1) / 3
    };
    Costs {
        buy: buy as u64 as i64,
        sell: sell as u64 as i64,
    }
}

/// A table layout: built from the seed's trades, queried for [`Costs`].
pub trait TradeTable: Sized {
    /// Builds the table of `records` seed trades.
    fn build(records: usize) -> Self;
    /// The seed's query: buy and sell cost over every record.
    fn costs(&self) -> Costs;
}

/// `boxed`: one heap allocation per trade, a `Vec` of pointers to them (Java's `Trade[]`).
#[allow(
    clippy::vec_box,
    reason = "one heap block per trade is the point of this layout"
)]
pub struct BoxedTable(Vec<Box<Trade>>);

impl TradeTable for BoxedTable {
    fn build(records: usize) -> BoxedTable {
        BoxedTable(seed_trades(records).map(Box::new).collect())
    }

    #[inline(never)]
    fn costs(&self) -> Costs {
        Costs::of(self.0.iter().map(Box::as_ref))
    }
}

/// `aos`: an array of structs, `Vec<Trade>` (48 bytes per record with padding).
pub struct AosTable(Vec<Trade>);

impl TradeTable for AosTable {
    fn build(records: usize) -> AosTable {
        AosTable(seed_trades(records).collect())
    }

    #[inline(never)]
    fn costs(&self) -> Costs {
        Costs::of(&self.0)
    }
}

/// Layout of one packed trade record of the `flyweight` table (the seed's `DirectMemoryTrade`
/// offsets), fields in native byte order as `sun.misc.Unsafe` writes them, no padding:
///
/// ```text
///  0               8               16      20      24              32              40  42
///  +---------------+---------------+-------+-------+---------------+---------------+---+
///  |   trade_id    |   client_id   | venue | instr |     price     |   quantity    |sd |
///  |     i64       |     i64       |  i32  |  i32  |      i64      |      i64      |u16|
///  +---------------+---------------+-------+-------+---------------+---------------+---+
/// ```
pub struct TradeLayout;

impl TradeLayout {
    /// Offset of `trade_id` (i64).
    pub const TRADE_ID: usize = 0;
    /// Offset of `client_id` (i64).
    pub const CLIENT_ID: usize = 8;
    /// Offset of `venue_code` (i32).
    pub const VENUE_CODE: usize = 16;
    /// Offset of `instrument_code` (i32).
    pub const INSTRUMENT_CODE: usize = 20;
    /// Offset of `price` (i64).
    pub const PRICE: usize = 24;
    /// Offset of `quantity` (i64).
    pub const QUANTITY: usize = 32;
    /// Offset of `side` (u16).
    pub const SIDE: usize = 40;
    /// Bytes per record: 42.
    pub const RECORD_SIZE: usize = 42;
}

/// A read-only flyweight over one packed record.
#[derive(Clone, Copy)]
pub struct TradeView<'a>(&'a [u8; TradeLayout::RECORD_SIZE]);

/// A writing flyweight over one packed record.
pub struct TradeViewMut<'a>(&'a mut [u8; TradeLayout::RECORD_SIZE]);

/// [`TradeView`]'s getters, one `#[inline(always)]` method a field: `name: type = OFFSET` reads
/// the field at `TradeLayout::OFFSET` in native byte order.
macro_rules! getters {
    ($($name:ident: $ty:ty = $offset:ident),* $(,)?) => {
        impl TradeView<'_> {
            $(
                #[doc = concat!("`", stringify!($name), "`.")]
                #[inline(always)]
                pub fn $name(&self) -> $ty {
                    const N: usize = size_of::<$ty>();
                    let mut raw = [0u8; N];
                    raw.copy_from_slice(&self.0[TradeLayout::$offset..TradeLayout::$offset + N]);
                    <$ty>::from_ne_bytes(raw)
                }
            )*
        }
    };
}

getters! {
    trade_id: i64 = TRADE_ID,
    client_id: i64 = CLIENT_ID,
    venue_code: i32 = VENUE_CODE,
    instrument_code: i32 = INSTRUMENT_CODE,
    price: i64 = PRICE,
    quantity: i64 = QUANTITY,
    side: u16 = SIDE,
}

impl TradeViewMut<'_> {
    /// Writes every field of `trade` (the seed's run of setters).
    #[inline(always)]
    pub fn set(&mut self, trade: &Trade) {
        let b = &mut *self.0;
        b[TradeLayout::TRADE_ID..][..8].copy_from_slice(&trade.trade_id.to_ne_bytes());
        b[TradeLayout::CLIENT_ID..][..8].copy_from_slice(&trade.client_id.to_ne_bytes());
        b[TradeLayout::VENUE_CODE..][..4].copy_from_slice(&trade.venue_code.to_ne_bytes());
        b[TradeLayout::INSTRUMENT_CODE..][..4]
            .copy_from_slice(&trade.instrument_code.to_ne_bytes());
        b[TradeLayout::PRICE..][..8].copy_from_slice(&trade.price.to_ne_bytes());
        b[TradeLayout::QUANTITY..][..8].copy_from_slice(&trade.quantity.to_ne_bytes());
        b[TradeLayout::SIDE..][..2].copy_from_slice(&trade.side.to_ne_bytes());
    }
}

/// `flyweight`: packed 42-byte records in one allocation, read through [`TradeView`].
pub struct FlyweightTable(Box<[u8]>);

impl FlyweightTable {
    /// The flyweight over record `index`, or `None` past the end.
    pub fn get(&self, index: usize) -> Option<TradeView<'_>> {
        let start = index.checked_mul(TradeLayout::RECORD_SIZE)?;
        let bytes = self.0.get(start..start + TradeLayout::RECORD_SIZE)?;
        Some(TradeView(bytes.try_into().ok()?))
    }

    /// Every record's flyweight, in order.
    pub fn iter(&self) -> impl Iterator<Item = TradeView<'_>> {
        self.0.chunks_exact(TradeLayout::RECORD_SIZE).map(|chunk| {
            TradeView(
                chunk
                    .try_into()
                    .expect("chunks_exact yields RECORD_SIZE bytes"),
            )
        })
    }
}

impl TradeTable for FlyweightTable {
    fn build(records: usize) -> FlyweightTable {
        let mut bytes = vec![0u8; records * TradeLayout::RECORD_SIZE].into_boxed_slice();
        let chunks = bytes.chunks_exact_mut(TradeLayout::RECORD_SIZE);
        for (chunk, trade) in chunks.zip(seed_trades(records)) {
            let record = chunk
                .try_into()
                .expect("chunks_exact_mut yields RECORD_SIZE bytes");
            TradeViewMut(record).set(&trade);
        }
        FlyweightTable(bytes)
    }

    #[inline(never)]
    fn costs(&self) -> Costs {
        let mut costs = Costs::default();
        for trade in self.iter() {
            costs.add(trade.side(), trade.price(), trade.quantity());
        }
        costs
    }
}

/// `soa`: a structure of arrays, one `Vec` per field.
pub struct SoaTable {
    /// `trade_id` column.
    pub trade_id: Vec<i64>,
    /// `client_id` column.
    pub client_id: Vec<i64>,
    /// `venue_code` column.
    pub venue_code: Vec<i32>,
    /// `instrument_code` column.
    pub instrument_code: Vec<i32>,
    /// `price` column.
    pub price: Vec<i64>,
    /// `quantity` column.
    pub quantity: Vec<i64>,
    /// `side` column.
    pub side: Vec<u16>,
}

impl TradeTable for SoaTable {
    fn build(records: usize) -> SoaTable {
        let (venue, instrument) = codes();
        let mut table = SoaTable {
            trade_id: vec![0; records],
            client_id: vec![0; records],
            venue_code: vec![0; records],
            instrument_code: vec![0; records],
            price: vec![0; records],
            quantity: vec![0; records],
            side: vec![0; records],
        };
        // One loop writing every column, as the seed's init writes every field of a trade;
        // re-slicing to `records` lets the compiler drop the bounds checks.
        let trade_id = &mut table.trade_id[..records];
        let client_id = &mut table.client_id[..records];
        let venue_code = &mut table.venue_code[..records];
        let instrument_code = &mut table.instrument_code[..records];
        let price = &mut table.price[..records];
        let quantity = &mut table.quantity[..records];
        let side = &mut table.side[..records];
        for i in 0..records {
            let t = seed_trade(i, venue, instrument);
            trade_id[i] = t.trade_id;
            client_id[i] = t.client_id;
            venue_code[i] = t.venue_code;
            instrument_code[i] = t.instrument_code;
            price[i] = t.price;
            quantity[i] = t.quantity;
            side[i] = t.side;
        }
        table
    }

    #[inline(never)]
    fn costs(&self) -> Costs {
        let mut costs = Costs::default();
        let n = self.side.len();
        let (price, quantity) = (&self.price[..n], &self.quantity[..n]);
        for i in 0..n {
            costs.add(self.side[i], price[i], quantity[i]);
        }
        costs
    }
}

/// The four layouts. Names are part of the results interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// [`BoxedTable`].
    Boxed,
    /// [`AosTable`].
    Aos,
    /// [`FlyweightTable`].
    Flyweight,
    /// [`SoaTable`].
    Soa,
}

sympathy_harness::catalog_variant!(Variant, "struct-table");

impl Variant {
    /// Every variant, in report order.
    pub const ALL: [Variant; 4] = [
        Variant::Boxed,
        Variant::Aos,
        Variant::Flyweight,
        Variant::Soa,
    ];

    /// The variant's name in results.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Boxed => "boxed",
            Variant::Aos => "aos",
            Variant::Flyweight => "flyweight",
            Variant::Soa => "soa",
        }
    }

    /// A generous estimate of the bytes per record (for the memory check before building):
    /// glibc's 64-byte chunk plus the pointer for `boxed`, the record size otherwise.
    pub fn estimated_bytes_per_record(self) -> usize {
        match self {
            Variant::Boxed => 72,
            Variant::Aos => size_of::<Trade>(),
            Variant::Flyweight | Variant::Soa => TradeLayout::RECORD_SIZE,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// What can go wrong in a struct-table run.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// A record count of zero or beyond [`MAX_RECORDS`].
    #[error(
        "record count {0} is not supported: use 1 to 2^40 records (e.g. --records 1000000; the seed used 50000000)"
    )]
    BadRecords(usize),
    /// The table would not fit in memory.
    #[error(transparent)]
    NotEnoughMemory(#[from] NotEnoughMemory),
    /// The query's sums differ from the closed form.
    #[error(
        "{variant}: buyCost {} / sellCost {} != expected {} / {} for {records} records",
        actual.buy, actual.sell, expected.buy, expected.sell
    )]
    CostMismatch {
        /// The layout.
        variant: Variant,
        /// Records in the table.
        records: usize,
        /// What the query returned.
        actual: Costs,
        /// The closed form.
        expected: Costs,
    },
}

/// Checks a record count and that the table fits in the available memory.
///
/// # Errors
/// [`TableError::BadRecords`], [`TableError::NotEnoughMemory`].
pub fn check_records(variant: Variant, records: usize) -> Result<(), TableError> {
    if records == 0 || records > MAX_RECORDS {
        return Err(TableError::BadRecords(records));
    }
    let needed = records as u64 * variant.estimated_bytes_per_record() as u64;
    ensure_available(
        needed,
        &format!("struct-table `{variant}` with {records} records"),
        "use fewer --records or --quick",
    )?;
    Ok(())
}

/// One timed run: build, then query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableRun {
    /// Milliseconds to build the table (allocation and fill).
    pub init_ms: f64,
    /// Milliseconds to run the query.
    pub query_ms: f64,
    /// The verified query result.
    pub costs: Costs,
}

impl TableRun {
    /// `init_ms + query_ms`: what the seed's single duration measured.
    pub fn total_ms(&self) -> f64 {
        self.init_ms + self.query_ms
    }
}

fn timed<T: TradeTable>(variant: Variant, records: usize) -> Result<TableRun, TableError> {
    let start = Instant::now();
    let table = T::build(records);
    let built = Instant::now();
    let costs = black_box(&table).costs();
    let done = Instant::now();
    // Freeing (the seed's System.gc() between runs) is outside the timing.
    drop(table);
    let expected = expected_costs(records);
    if costs != expected {
        return Err(TableError::CostMismatch {
            variant,
            records,
            actual: costs,
            expected,
        });
    }
    Ok(TableRun {
        init_ms: (built - start).as_secs_f64() * 1e3,
        query_ms: (done - built).as_secs_f64() * 1e3,
        costs,
    })
}

/// Builds and queries a `variant` table of `records` trades once, timed, and verifies the costs.
///
/// # Errors
/// [`TableError::BadRecords`], [`TableError::NotEnoughMemory`], [`TableError::CostMismatch`].
pub fn run_once(variant: Variant, records: usize) -> Result<TableRun, TableError> {
    check_records(variant, records)?;
    match variant {
        Variant::Boxed => timed::<BoxedTable>(variant, records),
        Variant::Aos => timed::<AosTable>(variant, records),
        Variant::Flyweight => timed::<FlyweightTable>(variant, records),
        Variant::Soa => timed::<SoaTable>(variant, records),
    }
}

fn allocated_per_record<T: TradeTable>(records: usize) -> Option<f64> {
    let (table, allocated) = counting_alloc::measure(|| T::build(records));
    drop(table);
    allocated.map(|a| a.bytes as f64 / records as f64)
}

/// Bytes per record of a `variant` table of `records` trades, measured through
/// [`counting_alloc::CountingAllocator`] (usable bytes of every block the build left allocated,
/// divided by `records`), or `None` when that allocator is not installed. Builds an untimed table.
///
/// # Errors
/// [`TableError::BadRecords`], [`TableError::NotEnoughMemory`].
pub fn bytes_per_record(variant: Variant, records: usize) -> Result<Option<f64>, TableError> {
    check_records(variant, records)?;
    Ok(match variant {
        Variant::Boxed => allocated_per_record::<BoxedTable>(records),
        Variant::Aos => allocated_per_record::<AosTable>(records),
        Variant::Flyweight => allocated_per_record::<FlyweightTable>(records),
        Variant::Soa => allocated_per_record::<SoaTable>(records),
    })
}

#[cfg(test)]
mod tests;
