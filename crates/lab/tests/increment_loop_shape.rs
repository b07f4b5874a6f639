//! The Rust and C kernels of atomic-increment must run the same loops, those of the seed's C.
//!
//! - CAS: the seed's `do { value = counter; } while (!__sync_bool_compare_and_swap(...))`, which
//!   gcc compiles to `lock cmpxchg` followed by a conditional jump back to the retry. A Rust loop
//!   written as `if cas.is_ok() { tally }` was if-converted by LLVM into `sete`/`cmov` after the
//!   `lock cmpxchg`, with no branch on its outcome (docs/atomic-increment.md).
//! - lock-add: one locked add per iteration, as gcc emits it; LLVM unrolls a plain Rust loop
//!   into eight `lock incq` per branch.
//!
//! These tests disassemble the kernels linked into this very test binary; the lab crate is
//! built with `opt-level = 3` and without overflow checks even in test builds, as in release,
//! so it is the measured code. Needs `objdump` (GNU binutils) on the PATH.

mod common;

use common::disassemble;
use std::sync::atomic::AtomicU64;

use sympathy_lab::atomic_increment::{
    sympathy_rust_cas_bool, sympathy_rust_cas_val, sympathy_rust_lock_add,
};
use sympathy_lab::c_reference::{
    Tally, sympathy_c_cas_bool, sympathy_c_cas_val, sympathy_c_lock_add,
};

/// A Rust kernel and its C twin.
type Kernels = (
    fn(&AtomicU64, u64) -> Tally,
    unsafe extern "C" fn(*mut u64, u64) -> Tally,
);

/// Runs both languages' kernels of `variant` to 5 on one thread (which also links them into this
/// binary for `objdump`) and checks they did the same work.
fn run_both(variant: &str) {
    let (rust, c): Kernels = match variant {
        "cas_bool" => (sympathy_rust_cas_bool, sympathy_c_cas_bool),
        _ => (sympathy_rust_cas_val, sympathy_c_cas_val),
    };
    let (rust_counter, c_counter) = (AtomicU64::new(0), AtomicU64::new(0));
    let rust = rust(&rust_counter, 5);
    // SAFETY: the pointer is to a live, aligned u64 only this thread uses.
    let c = unsafe { c(c_counter.as_ptr(), 5) };
    assert_eq!(rust, c, "{variant}");
    assert_eq!(
        rust_counter.into_inner(),
        c_counter.into_inner(),
        "{variant}"
    );
}

/// The instruction mnemonics of `symbol`, e.g. `["mov", "lock cmpxchg", "jne", ...]`.
fn mnemonics(symbol: &str) -> Vec<String> {
    disassemble(symbol)
        .iter()
        .filter_map(|line| line.split('\t').nth(1))
        .map(|insn| {
            let mut words = insn.split_whitespace();
            match words.next() {
                Some("lock") => format!("lock {}", words.next().unwrap_or("")),
                Some(word) => word.to_string(),
                None => String::new(),
            }
        })
        .collect()
}

/// What a CAS kernel's loop does with the outcome of each of its `lock cmpxchg`s: the
/// instruction that follows each (test builds, with overflow checks, may unroll the loop).
fn after_each_cas(symbol: &str) -> Vec<String> {
    let code = mnemonics(symbol);
    let after: Vec<String> = code
        .iter()
        .enumerate()
        .filter(|(_, m)| m.starts_with("lock cmpxchg"))
        .map(|(i, _)| code.get(i + 1).cloned().unwrap_or_default())
        .collect();
    assert!(!after.is_empty(), "{symbol}: no lock cmpxchg: {code:?}");
    after
}

fn is_branch_on_zf(mnemonic: &str) -> bool {
    ["je", "jne", "jz", "jnz"].contains(&mnemonic)
}

fn assert_branches_on_the_cas(variant: &str) {
    run_both(variant);
    let rust = format!("sympathy_rust_{variant}");
    let c = format!("sympathy_c_{variant}");
    let (rust_next, c_next) = (after_each_cas(&rust), after_each_cas(&c));
    assert!(
        c_next.iter().all(|m| is_branch_on_zf(m)),
        "{c}: gcc no longer branches on the CAS ({c_next:?}): {:?}",
        mnemonics(&c)
    );
    assert!(
        rust_next.iter().all(|m| is_branch_on_zf(m)),
        "{rust}: the CAS's outcome is not branched on ({rust_next:?} after lock cmpxchg), so \
         the loop is not the C kernel's: {:?}",
        mnemonics(&rust)
    );
    for code in [mnemonics(&rust), mnemonics(&c)] {
        assert!(
            !code.iter().any(|m| m.starts_with("cmov") || m == "pause"),
            "{variant}: a cmov or pause in the loop: {code:?}"
        );
    }
}

#[test]
fn cas_bool_branches_on_the_cas_in_rust_as_in_c() {
    assert_branches_on_the_cas("cas_bool");
}

#[test]
fn cas_val_branches_on_the_cas_in_rust_as_in_c() {
    assert_branches_on_the_cas("cas_val");
}

#[test]
fn lock_add_makes_one_locked_add_per_loop_branch_in_rust_as_in_c() {
    let (rust_counter, c_counter) = (AtomicU64::new(0), AtomicU64::new(0));
    sympathy_rust_lock_add(&rust_counter, 9);
    // SAFETY: the pointer is to a live, aligned u64 only this thread uses.
    unsafe { sympathy_c_lock_add(c_counter.as_ptr(), 9) };
    assert_eq!(rust_counter.into_inner(), c_counter.into_inner());
    for symbol in ["sympathy_rust_lock_add", "sympathy_c_lock_add"] {
        let code = mnemonics(symbol);
        let locked = code.iter().filter(|m| m.starts_with("lock ")).count();
        assert_eq!(locked, 1, "{symbol}: one locked add expected: {code:?}");
    }
}
