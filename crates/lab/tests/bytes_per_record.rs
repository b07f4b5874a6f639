//! `bytes_per_record` measured through the counting allocator, installed here as the CLI does.

use sympathy_harness::counting_alloc::CountingAllocator;
use sympathy_lab::struct_table::{TradeLayout, Variant, bytes_per_record};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const RECORDS: usize = 100_000;

fn measured(variant: Variant) -> f64 {
    bytes_per_record(variant, RECORDS)
        .unwrap()
        .expect("the counting allocator is installed in this test binary")
}

#[test]
fn layouts_order_by_bytes_per_record() {
    let boxed = measured(Variant::Boxed);
    let aos = measured(Variant::Aos);
    let flyweight = measured(Variant::Flyweight);
    let soa = measured(Variant::Soa);
    // One block per trade plus a pointer costs more than the struct itself.
    assert!(boxed > aos + 8.0, "boxed {boxed} vs aos {aos}");
    // The array of structs carries 6 bytes of padding per record; the packed layouts do not.
    assert!(aos >= flyweight + 5.0, "aos {aos} vs flyweight {flyweight}");
    // Big blocks are page-rounded by malloc: within a fraction of a byte of the exact sizes.
    assert!((aos - 48.0).abs() < 0.5, "aos {aos}");
    assert!(
        (flyweight - TradeLayout::RECORD_SIZE as f64).abs() < 0.5,
        "flyweight {flyweight}"
    );
    assert!((soa - 42.0).abs() < 0.5, "soa {soa}");
    // glibc: a 48-byte request has 56 usable bytes; plus the 8-byte pointer in the Vec.
    assert!(boxed >= 56.0 + 8.0, "boxed {boxed}");
}
