//! Random messages round-trip through the checked encoders and decoders, at any offset of a
//! larger buffer; what does not fit is refused before anything is written.

mod common;

use common::strategies;
use proptest::prelude::*;
use sympathy_messages::{
    MAX_VENUE, MessageError, ORDER_LENGTH, Order, PriceUpdateView, decode_order, encode_order,
    encode_price_update,
};

proptest! {
    #[test]
    fn any_order_round_trips(order in strategies::order()) {
        let mut buf = [0u8; ORDER_LENGTH + 8];
        prop_assert_eq!(encode_order(&order, &mut buf)?, ORDER_LENGTH);
        prop_assert_eq!(decode_order(&buf)?, order);
    }

    #[test]
    fn any_price_update_round_trips_in_place(update in strategies::price_update(), at in 0usize..32) {
        let len = update.as_ref().encoded_length();
        let mut buf = vec![0x5Au8; at + len + 16];
        prop_assert_eq!(encode_price_update(&update.as_ref(), &mut buf[at..])?, len);
        let view = PriceUpdateView::new(&buf[at..at + len])?;
        prop_assert_eq!(view.encoded_length(), len);
        prop_assert_eq!(view.levels().len(), update.levels.len());
        prop_assert_eq!(view.to_owned(), update);
    }
}

#[test]
fn what_does_not_fit_is_refused_and_nothing_is_written() {
    let mut short = [7u8; ORDER_LENGTH - 1];
    assert_eq!(
        encode_order(&Order::seed(), &mut short),
        Err(MessageError::BufferTooSmall {
            needed: 192,
            len: 191
        })
    );
    assert!(short.iter().all(|&b| b == 7));
    let mut update = common::golden_price_update();
    let mut buf = vec![7u8; 107];
    let err = encode_price_update(&update.as_ref(), &mut buf).unwrap_err();
    assert_eq!(err.kind(), "buffer-too-small");
    assert!(buf.iter().all(|&b| b == 7));
    update.venue = "x".repeat(MAX_VENUE + 1);
    let mut big = vec![0u8; 1024];
    let err = encode_price_update(&update.as_ref(), &mut big).unwrap_err();
    assert_eq!(
        err,
        MessageError::TooLong {
            part: "venue",
            len: 257,
            max: 256
        }
    );
}

/// The eight-at-once check of a symbol's bytes gives what a byte-by-byte one gives.
#[test]
fn a_symbols_bytes_are_checked_as_one_by_one() {
    fn one_by_one(bytes: [u8; 8]) -> Result<(), (usize, u8)> {
        let text = 8 - bytes.iter().rev().take_while(|&&b| b == 0).count();
        match bytes[..text]
            .iter()
            .position(|b| !(0x20..=0x7E).contains(b))
        {
            Some(i) => Err((i, bytes[i])),
            None => Ok(()),
        }
    }
    let mut runner = proptest::test_runner::TestRunner::default();
    let interesting =
        proptest::sample::select(vec![0u8, 1, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0xFF]);
    runner
        .run(&proptest::array::uniform8(interesting), |bytes| {
            let got = sympathy_messages::Symbol::from_bytes(bytes)
                .map(drop)
                .map_err(|e| match e {
                    MessageError::BadSymbol { index, value } => (index, value),
                    other => panic!("{other}"),
                });
            prop_assert_eq!(got, one_by_one(bytes), "{:?}", bytes);
            Ok(())
        })
        .unwrap();
}
