//! The hostile inputs shared with Java (`schema/hostile/cases.txt`): every case gets the answer
//! the file gives, which Java's `HostileTest` checks too; and no bytes at all make a decoder
//! panic or read past its slice (proptest).

mod common;

use proptest::prelude::*;
use sympathy_messages::{PriceUpdateView, decode_order, decode_price_update};

/// `(message, kind, bytes, description)` per case of the file.
fn cases() -> Vec<(String, String, Vec<u8>, String)> {
    let path = common::schema_dir().join("hostile/cases.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (fields, description) = line.split_once('#').unwrap_or((line, ""));
            let fields: Vec<&str> = fields.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "{line}");
            let hex = fields[2];
            let bytes = if hex == "-" {
                Vec::new()
            } else {
                (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect()
            };
            (
                fields[0].to_string(),
                fields[1].to_string(),
                bytes,
                description.trim().to_string(),
            )
        })
        .collect()
}

/// `ok`, or the error's kind.
fn answer(message: &str, bytes: &[u8]) -> String {
    let outcome = match message {
        "order" => decode_order(bytes).map(drop),
        "price-update" => decode_price_update(bytes).map(drop),
        other => panic!("unknown message `{other}`"),
    };
    outcome.map_or_else(|e| e.kind().to_string(), |()| "ok".to_string())
}

#[test]
fn every_shared_case_gets_the_files_answer() {
    let cases = cases();
    assert!(cases.len() >= 30, "{}", cases.len());
    for (message, kind, bytes, description) in &cases {
        assert_eq!(&answer(message, bytes), kind, "{message}: {description}");
    }
    let kinds: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.1.as_str()).collect();
    for kind in [
        "ok",
        "truncated",
        "wrong-schema",
        "wrong-template",
        "bad-block-length",
        "bad-enum",
        "bad-symbol",
        "too-long",
        "bad-utf8",
    ] {
        assert!(kinds.contains(kind), "no case of {kind}");
    }
}

#[test]
fn every_truncation_of_a_golden_message_is_an_error_not_a_panic() {
    for (message, name) in [
        ("order", "order.java.sbe"),
        ("price-update", "price-update.java.sbe"),
    ] {
        let bytes = std::fs::read(common::schema_dir().join("golden").join(name)).unwrap();
        for len in 0..bytes.len() {
            assert_eq!(
                answer(message, &bytes[..len]),
                "truncated",
                "{name}[..{len}]"
            );
        }
        assert_eq!(answer(message, &bytes), "ok");
    }
}

proptest! {
    #[test]
    fn no_bytes_make_a_decoder_panic(bytes in proptest::collection::vec(any::<u8>(), 0..160)) {
        let _ = decode_order(&bytes);
        let _ = PriceUpdateView::new(&bytes).map(|v| (v.to_owned(), v.levels().count()));
    }

    #[test]
    fn no_change_to_a_golden_message_makes_a_decoder_panic(
        at in 0usize..108, value in any::<u8>(), cut in 0usize..=108,
    ) {
        let mut bytes = std::fs::read(common::schema_dir().join("golden/price-update.rust.sbe")).unwrap();
        bytes[at] = value;
        bytes.truncate(cut);
        let _ = PriceUpdateView::new(&bytes).map(|v| v.to_owned());
    }
}
