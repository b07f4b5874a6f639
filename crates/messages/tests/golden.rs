//! Golden files (as SBE's own baseline test does across languages): `schema/golden/*.java.sbe`
//! are written by Java's encoder (`GoldenTest` of java/messages) and decoded here field by
//! field; `schema/golden/*.rust.sbe` are this crate's encoding of the same values, which Java
//! decodes. Both encoders must also write the same bytes.
//!
//! After a deliberate change of the schema or the golden values, rewrite the Rust files with
//! `SYMPATHY_WRITE_GOLDEN=1 cargo test -p sympathy-messages --test golden` (and the Java ones
//! with `-Dsympathy.writeGolden=true` in java/messages' tests).

mod common;

use std::path::PathBuf;

use common::{golden_order, golden_price_update, schema_dir};
use sympathy_messages::{
    ORDER_LENGTH, PriceUpdateView, Side, decode_order, encode_order, encode_price_update,
};

fn golden(name: &str) -> PathBuf {
    schema_dir().join("golden").join(name)
}

fn read(name: &str) -> Vec<u8> {
    let path = golden(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Compares `ours` with the committed `name`, or writes it when asked to.
fn check_or_write(name: &str, ours: &[u8]) {
    if std::env::var_os("SYMPATHY_WRITE_GOLDEN").is_some() {
        std::fs::write(golden(name), ours).unwrap();
        return;
    }
    assert_eq!(
        read(name),
        ours,
        "{name}: this encoder's bytes changed; rewrite the file only if that is deliberate"
    );
}

#[test]
fn rust_encodes_the_golden_order_as_committed_and_as_java_does() {
    let mut buf = [0xA5u8; ORDER_LENGTH];
    let len = encode_order(&golden_order(), &mut buf).unwrap();
    assert_eq!(len, ORDER_LENGTH);
    check_or_write("order.rust.sbe", &buf);
    assert_eq!(
        read("order.java.sbe"),
        buf,
        "Java and Rust encode the order alike"
    );
}

#[test]
fn rust_decodes_javas_order_field_by_field() {
    let bytes = read("order.java.sbe");
    let order = decode_order(&bytes).unwrap();
    let want = golden_order();
    assert_eq!(order.source_id, 1010);
    assert!(order.special);
    assert_eq!(order.order_code, 777);
    assert_eq!(order.priority, 99);
    assert_eq!(order.prices, want.prices);
    assert_eq!(order.quantities, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
}

#[test]
fn rust_encodes_the_golden_price_update_as_committed_and_as_java_does() {
    let update = golden_price_update();
    let mut buf = vec![0xA5u8; update.as_ref().encoded_length()];
    let len = encode_price_update(&update.as_ref(), &mut buf).unwrap();
    assert_eq!(len, buf.len());
    check_or_write("price-update.rust.sbe", &buf);
    assert_eq!(
        read("price-update.java.sbe"),
        buf,
        "Java and Rust encode the price update alike"
    );
}

#[test]
fn rust_decodes_javas_price_update_field_by_field() {
    let bytes = read("price-update.java.sbe");
    let view = PriceUpdateView::new(&bytes).unwrap();
    assert_eq!(view.encoded_length(), bytes.len());
    assert_eq!(view.sequence(), 123_456_789_012);
    assert_eq!(view.instrument().id, -42);
    assert_eq!(view.instrument().symbol.as_str(), "SYMPATHY");
    assert_eq!(view.price(), 1234.5625);
    assert_eq!(view.quantity(), -17);
    assert_eq!(view.side(), Side::Ask);
    let levels: Vec<_> = view.levels().collect();
    assert_eq!(levels.len(), 3);
    assert_eq!(
        (levels[1].price, levels[1].quantity, levels[1].orders),
        (1234.25, 250, 7)
    );
    assert_eq!(levels, golden_price_update().levels);
    assert_eq!(view.venue(), "Börse");
    assert_eq!(view.to_owned(), golden_price_update());
}
