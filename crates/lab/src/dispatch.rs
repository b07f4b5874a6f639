//! dispatch: the seed's four `Operation`s called in a hot loop through static, dynamic and enum
//! dispatch.
//!
//! A port of `OperationPerfTest` from "Invoke Interface Optimisations" (Thompson, 2012): the
//! interface `Operation { int map(int value); }` with `StepIncOperation` (+7),
//! `StepDecOperation` (-3), `IncOperation` (+1) and `DecOperation` (-1), and the seed's loop
//! `value += operation.map(value)` over Java `int`s (wrapping), starting from 777, 50M
//! iterations per timed run. HotSpot inlines a call site that has seen one or two classes and
//! falls back to a virtual call beyond (the seed's step down from ~3.1G to ~275M ops/s);
//! Rust decides at compile time, which these variants show:
//!
//! | variant | call | implementations at the call site |
//! |---|---|---|
//! | `static` | generic `fn op_run<O: Operation>`, monomorphised and inlined | 1 (`StepInc`) |
//! | `inlined-1` | `match` over an `enum Op` read from the table each step: a check, then the inlined body (what HotSpot compiles a monomorphic site to; Java's `mono`) | 1 (`StepInc`) |
//! | `inlined-2` | the same over two operations alternating (Java's `bi`) | 2 |
//! | `dyn-1` | `&dyn Operation` through a vtable | 1 (`StepInc`) |
//! | `dyn-2` | `&dyn Operation` through a vtable | 2 (`StepInc`, `StepDec`, alternating) |
//! | `dyn-4` | `&dyn Operation` through a vtable | 4 (the seed's order, in turn) |
//! | `enum` | `match` over an `enum Op` of the four | 4 (in turn) |
//!
//! # Why the compiler can neither devirtualise nor fold the loop
//!
//! - The `dyn-N` variants all run one kernel, [`sympathy_rust_dispatch_dyn`] (`#[inline(never)]`,
//!   unmangled), which calls `table[i & 3].map(value)` through a four-entry table of
//!   `&dyn Operation`. The table is filled at run time, cycling over a
//!   `Vec<Box<dyn Operation>>` of the first N seed operations that has passed through
//!   [`black_box`]: neither the entries nor how many distinct ones there are is known to the
//!   compiler, so every call stays an indirect `call` through the vtable (a test,
//!   `crates/lab/tests/dispatch_codegen.rs`, disassembles the kernel and checks it). The machine
//!   code is the same for N = 1, 2, 4; only the data differs.
//! - `enum`, `inlined-1` and `inlined-2` ([`sympathy_rust_dispatch_enum`]) read their `Op`s
//!   from a table that went through `black_box` likewise; the compiler may turn the `match`
//!   into branches or a lookup, which is what enum dispatch buys. With one or two distinct
//!   operations in the table, it is the compiled form of an inline cache: a load of the
//!   receiver, a check, the inlined body, as HotSpot compiles Java's `mono` and `bi` sites,
//!   which therefore pair with them (`static` reads no receiver at all and pairs with nothing).
//! - The start value and the iteration count pass through `black_box` and the result is
//!   consumed by `black_box` and checked, so no run can be precomputed. `value = 2 * value + k`
//!   is a geometric recurrence, which LLVM's loop analysis does not sum in closed form.
//!
//! # The check
//!
//! With `value += op.map(value)`, i.e. `v <- 2v + k_i` modulo 2^32, the final value is
//! `2^n v0 + sum_i 2^(n-1-i) k_i (mod 2^32)` ([`expected_value`]), where only the last 32
//! steps contribute once n >= 32. Every run's result must equal it. The check thus proves the
//! loop ran its last 32 steps with the right operations in the right order, and the time of the
//! whole loop is what is measured.
//!
//! ```
//! use sympathy_lab::dispatch::{Variant, run};
//! let phase = run(Variant::Dyn4, 1_000_000).unwrap();
//! assert!(phase.ops_per_sec() > 0.0);
//! ```

use std::fmt;
use std::hint::black_box;
use std::time::{Duration, Instant};

use thiserror::Error;

/// The experiment's name in result lines.
pub const EXPERIMENT: &str = "dispatch";
/// The seed's `ITERATIONS`: calls per timed run.
pub const SEED_ITERATIONS: u64 = 50_000_000;
/// The seed's starting `value`.
pub const SEED_START: i32 = 777;

/// The seed's interface.
pub trait Operation {
    /// Maps a value (Java `int` arithmetic: wrapping).
    fn map(&self, value: i32) -> i32;
}

/// `StepIncOperation`: `value + 7`.
pub struct StepIncOperation;
/// `StepDecOperation`: `value - 3`.
pub struct StepDecOperation;
/// `IncOperation`: `value + 1`.
pub struct IncOperation;
/// `DecOperation`: `value - 1`.
pub struct DecOperation;

impl Operation for StepIncOperation {
    #[inline]
    fn map(&self, value: i32) -> i32 {
        value.wrapping_add(7)
    }
}

impl Operation for StepDecOperation {
    #[inline]
    fn map(&self, value: i32) -> i32 {
        value.wrapping_sub(3)
    }
}

impl Operation for IncOperation {
    #[inline]
    fn map(&self, value: i32) -> i32 {
        value.wrapping_add(1)
    }
}

impl Operation for DecOperation {
    #[inline]
    fn map(&self, value: i32) -> i32 {
        value.wrapping_sub(1)
    }
}

/// The four operations as one enum, for `match` dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// +7.
    StepInc,
    /// -3.
    StepDec,
    /// +1.
    Inc,
    /// -1.
    Dec,
}

impl Op {
    /// The seed's order of the operations (`operations[0..4]`).
    pub const SEED_ORDER: [Op; 4] = [Op::StepInc, Op::StepDec, Op::Inc, Op::Dec];

    /// What the operation adds to its argument.
    pub fn step(self) -> i32 {
        match self {
            Op::StepInc => 7,
            Op::StepDec => -3,
            Op::Inc => 1,
            Op::Dec => -1,
        }
    }

    /// The operation as a boxed trait object.
    pub fn boxed(self) -> Box<dyn Operation + Send + Sync> {
        match self {
            Op::StepInc => Box::new(StepIncOperation),
            Op::StepDec => Box::new(StepDecOperation),
            Op::Inc => Box::new(IncOperation),
            Op::Dec => Box::new(DecOperation),
        }
    }
}

impl Operation for Op {
    #[inline(always)]
    fn map(&self, value: i32) -> i32 {
        match self {
            Op::StepInc => value.wrapping_add(7),
            Op::StepDec => value.wrapping_sub(3),
            Op::Inc => value.wrapping_add(1),
            Op::Dec => value.wrapping_sub(1),
        }
    }
}

/// The seed's `opRun`, statically dispatched: monomorphised for `O`, `map` inlined.
#[inline(never)]
pub fn op_run_static<O: Operation>(operation: &O, mut value: i32, iterations: u64) -> i32 {
    for _ in 0..iterations {
        value = value.wrapping_add(operation.map(value));
    }
    value
}

/// The seed's `opRun` through `&dyn Operation`: call `i` goes to `table[i % 4]`.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn sympathy_rust_dispatch_dyn(
    table: &[&dyn Operation; 4],
    mut value: i32,
    iterations: u64,
) -> i32 {
    for i in 0..iterations {
        value = value.wrapping_add(table[(i & 3) as usize].map(value));
    }
    value
}

/// The seed's `opRun` through a `match`: call `i` applies `table[i % 4]`.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn sympathy_rust_dispatch_enum(table: &[Op; 4], mut value: i32, iterations: u64) -> i32 {
    for i in 0..iterations {
        value = value.wrapping_add(table[(i & 3) as usize].map(value));
    }
    value
}

/// The closed form of the loop: after `iterations` steps `v <- 2v + steps[i % 4]` from `start`,
/// `2^n start + sum_{i<n} 2^(n-1-i) steps[i % 4]` modulo 2^32 (only the last 32 terms survive).
///
/// ```
/// use sympathy_lab::dispatch::expected_value;
/// assert_eq!(expected_value(777, [7; 4], 1), 777 + 784);
/// assert_eq!(expected_value(777, [7; 4], 50_000_000), -7); // the fixed point of v <- 2v + 7
/// ```
pub fn expected_value(start: i32, steps: [i32; 4], iterations: u64) -> i32 {
    let mut acc: u32 = if iterations >= 32 {
        0
    } else {
        (start as u32) << iterations
    };
    for i in iterations.saturating_sub(32)..iterations {
        let k = steps[(i & 3) as usize] as u32;
        acc = acc.wrapping_add(k << (iterations - 1 - i));
    }
    acc as i32
}

/// The variants. Names are part of the results interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Generic (static) dispatch of `StepInc`.
    Static,
    /// `match` over an `Op` read from the table each step, one operation (Java's `mono`).
    Inlined1,
    /// `match` over an `Op` read from the table each step, two alternating (Java's `bi`).
    Inlined2,
    /// `dyn Operation`, one implementation.
    Dyn1,
    /// `dyn Operation`, two implementations alternating.
    Dyn2,
    /// `dyn Operation`, the four implementations in turn.
    Dyn4,
    /// `match` over the four, in turn.
    Enum,
}

sympathy_harness::catalog_variant!(Variant, EXPERIMENT);

impl Variant {
    /// Every variant, in report order.
    pub const ALL: [Variant; 7] = [
        Variant::Static,
        Variant::Inlined1,
        Variant::Inlined2,
        Variant::Dyn1,
        Variant::Dyn2,
        Variant::Dyn4,
        Variant::Enum,
    ];

    /// The variant's name in results.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Static => "static",
            Variant::Inlined1 => "inlined-1",
            Variant::Inlined2 => "inlined-2",
            Variant::Dyn1 => "dyn-1",
            Variant::Dyn2 => "dyn-2",
            Variant::Dyn4 => "dyn-4",
            Variant::Enum => "enum",
        }
    }

    /// How many implementations the call site sees (`params.implementations`).
    pub fn implementations(self) -> usize {
        match self {
            Variant::Static | Variant::Inlined1 | Variant::Dyn1 => 1,
            Variant::Inlined2 | Variant::Dyn2 => 2,
            Variant::Dyn4 | Variant::Enum => 4,
        }
    }

    /// The operation of call `i % 4`: the first `implementations()` seed operations in turn.
    pub fn schedule(self) -> [Op; 4] {
        let n = self.implementations();
        std::array::from_fn(|i| Op::SEED_ORDER[i % n])
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Why a run could not be made or did not verify.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DispatchError {
    /// Zero iterations measure nothing.
    #[error("the iteration count must be at least 1 (e.g. --iterations 50000000, the seed's)")]
    ZeroIterations,
    /// The final value differs from the closed form.
    #[error(
        "check failed: {variant} ended with value {actual} after {iterations} iterations, \
         the closed form gives {expected}"
    )]
    CheckFailed {
        /// The variant.
        variant: Variant,
        /// Iterations run.
        iterations: u64,
        /// The loop's result.
        actual: i32,
        /// [`expected_value`].
        expected: i32,
    },
}

/// One verified timed run (the seed's one line of `ops/sec`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phase {
    /// Calls made.
    pub iterations: u64,
    /// Time of the loop.
    pub elapsed: Duration,
    /// The verified final value.
    pub value: i32,
}

impl Phase {
    /// Calls per second.
    pub fn ops_per_sec(&self) -> f64 {
        self.iterations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs `variant` for `iterations` calls from [`SEED_START`], timed, and checks the final value
/// against [`expected_value`]. Runs on the calling thread: pin it first.
///
/// # Errors
/// [`DispatchError::ZeroIterations`], [`DispatchError::CheckFailed`].
pub fn run(variant: Variant, iterations: u64) -> Result<Phase, DispatchError> {
    if iterations == 0 {
        return Err(DispatchError::ZeroIterations);
    }
    let schedule = variant.schedule();
    let (start, n) = (black_box(SEED_START), black_box(iterations));
    let (elapsed, value) = match variant {
        Variant::Static => timed(|| op_run_static(black_box(&StepIncOperation), start, n)),
        Variant::Dyn1 | Variant::Dyn2 | Variant::Dyn4 => {
            // Built at run time and hidden from the optimiser: see the module docs.
            let operations: Vec<Box<dyn Operation + Send + Sync>> = black_box(
                Op::SEED_ORDER[..variant.implementations()]
                    .iter()
                    .map(|op| op.boxed())
                    .collect(),
            );
            let table: [&dyn Operation; 4] =
                std::array::from_fn(|i| &*operations[i % operations.len()] as &dyn Operation);
            let table = black_box(table);
            timed(|| sympathy_rust_dispatch_dyn(&table, start, n))
        }
        Variant::Enum | Variant::Inlined1 | Variant::Inlined2 => {
            let table = black_box(schedule);
            timed(|| sympathy_rust_dispatch_enum(&table, start, n))
        }
    };
    let expected = expected_value(SEED_START, schedule.map(Op::step), iterations);
    if value != expected {
        return Err(DispatchError::CheckFailed {
            variant,
            iterations,
            actual: value,
            expected,
        });
    }
    Ok(Phase {
        iterations,
        elapsed,
        value,
    })
}

fn timed(kernel: impl FnOnce() -> i32) -> (Duration, i32) {
    let start = Instant::now();
    let value = black_box(kernel());
    (start.elapsed(), value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The model: the seed's loop, one step at a time.
    fn model(start: i32, steps: [i32; 4], iterations: u64) -> i32 {
        let mut v = start;
        for i in 0..iterations {
            v = v.wrapping_add(v.wrapping_add(steps[(i & 3) as usize]));
        }
        v
    }

    proptest! {
        #[test]
        fn closed_form_matches_the_loop(
            start in any::<i32>(),
            steps in proptest::array::uniform4(-100i32..100),
            iterations in 0u64..200,
        ) {
            prop_assert_eq!(expected_value(start, steps, iterations), model(start, steps, iterations));
        }
    }

    #[test]
    fn every_variant_verifies_for_short_and_long_runs() {
        for variant in Variant::ALL {
            for iterations in [1, 2, 3, 5, 31, 32, 33, 1000, 100_003] {
                let phase = run(variant, iterations).unwrap();
                let steps = variant.schedule().map(Op::step);
                assert_eq!(
                    phase.value,
                    model(SEED_START, steps, iterations),
                    "{variant} {iterations}"
                );
            }
        }
    }

    #[test]
    fn schedules_cycle_the_first_n_seed_operations() {
        use Op::*;
        assert_eq!(Variant::Static.schedule(), [StepInc; 4]);
        assert_eq!(Variant::Dyn1.schedule(), [StepInc; 4]);
        assert_eq!(
            Variant::Dyn2.schedule(),
            [StepInc, StepDec, StepInc, StepDec]
        );
        assert_eq!(Variant::Dyn4.schedule(), Op::SEED_ORDER);
        assert_eq!(Variant::Enum.schedule(), Op::SEED_ORDER);
        assert_eq!(Variant::Inlined1.schedule(), [StepInc; 4]);
        assert_eq!(
            Variant::Inlined2.schedule(),
            [StepInc, StepDec, StepInc, StepDec]
        );
        for op in Op::SEED_ORDER {
            assert_eq!(op.boxed().map(10), op.map(10));
            assert_eq!(op.map(10), 10 + op.step());
        }
    }

    #[test]
    fn zero_iterations_are_an_error() {
        assert_eq!(run(Variant::Dyn1, 0), Err(DispatchError::ZeroIterations));
    }
}
