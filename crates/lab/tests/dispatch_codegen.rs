//! The `dyn-N` variants of dispatch must really call through the vtable: this test disassembles
//! their kernel `sympathy_rust_dispatch_dyn` as linked into this test binary (the lab crate is
//! built with `opt-level = 3` even here) and checks that the loop holds an indirect `call`, i.e.
//! that the compiler neither devirtualised nor inlined `Operation::map`.
//! Needs `objdump` (GNU binutils) on the PATH.

mod common;

use common::disassemble;

use sympathy_lab::dispatch::{Op, Operation, expected_value, sympathy_rust_dispatch_dyn};

#[test]
fn dyn_kernel_calls_through_the_vtable() {
    let ops: Vec<Box<dyn Operation + Send + Sync>> =
        Op::SEED_ORDER.iter().map(|op| op.boxed()).collect();
    let table: [&dyn Operation; 4] = std::array::from_fn(|i| &*ops[i] as &dyn Operation);
    let steps = Op::SEED_ORDER.map(Op::step);
    assert_eq!(
        sympathy_rust_dispatch_dyn(&table, 777, 1000),
        expected_value(777, steps, 1000)
    );
    let body = disassemble("sympathy_rust_dispatch_dyn");
    assert!(
        body.iter().any(|l| l.contains("call") && l.contains('*')),
        "no indirect call in sympathy_rust_dispatch_dyn:\n{}",
        body.join("\n")
    );
}
