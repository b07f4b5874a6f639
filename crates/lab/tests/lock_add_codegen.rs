//! The `lock-add` variant of atomic-increment must compile to a locked add of 1 whose result is
//! unused (`lock add $1` or `lock inc`), not to `lock xadd`: this test disassembles the kernels
//! linked into this very test binary with `objdump` and checks the instruction.
//!
//! The lab crate is built with `opt-level = 3` even in test builds (root `Cargo.toml`,
//! `[profile.dev.package.sympathy-lab]`), so the code checked here is the code that is measured.
//! Needs `objdump` (GNU binutils) on the PATH.

mod common;

use common::disassemble;
use std::sync::atomic::AtomicU64;

use sympathy_lab::atomic_increment::{sympathy_rust_lock_add, sympathy_rust_lock_xadd};
use sympathy_lab::c_reference::sympathy_c_lock_add;

fn is_locked_add_of_one(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    (line.contains("lock add") && line.contains("$0x1,")) || line.contains("lock inc")
}

fn assert_locked_add_of_one(symbol: &str) {
    let body = disassemble(symbol);
    assert!(
        body.iter().any(|l| is_locked_add_of_one(l)),
        "{symbol} has no `lock add $0x1`/`lock inc`:\n{}",
        body.join("\n")
    );
    assert!(
        !body
            .iter()
            .any(|l| l.contains("xadd") || l.contains("cmpxchg")),
        "{symbol} uses the result of its increment:\n{}",
        body.join("\n")
    );
}

#[test]
fn rust_lock_add_compiles_to_a_locked_add_of_one() {
    let counter = AtomicU64::new(0);
    sympathy_rust_lock_add(&counter, 3);
    assert_eq!(counter.into_inner(), 3);
    assert_locked_add_of_one("sympathy_rust_lock_add");
}

#[test]
fn c_lock_add_compiles_to_a_locked_add_of_one() {
    let counter = AtomicU64::new(0);
    // SAFETY: the pointer is to a live, aligned u64 only this thread uses.
    unsafe { sympathy_c_lock_add(counter.as_ptr(), 3) };
    assert_eq!(counter.into_inner(), 3);
    assert_locked_add_of_one("sympathy_c_lock_add");
}

#[test]
fn rust_lock_xadd_uses_the_result() {
    let counter = AtomicU64::new(0);
    assert_eq!(sympathy_rust_lock_xadd(&counter, 5).increments, 5);
    let body = disassemble("sympathy_rust_lock_xadd");
    assert!(
        body.iter().any(|l| l.contains("lock xadd")),
        "{}",
        body.join("\n")
    );
}
