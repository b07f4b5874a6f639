use super::*;
use proptest::prelude::*;

/// The model: the seed's loop over its trades, in Java `long` arithmetic.
fn model_costs(records: usize) -> Costs {
    let mut costs = Costs::default();
    for t in seed_trades(records) {
        costs.add(t.side, t.price, t.quantity);
    }
    costs
}

proptest! {
    #[test]
    fn closed_forms_match_the_seed_loop(records in 0usize..5000) {
        prop_assert_eq!(expected_costs(records), model_costs(records));
    }
}

#[test]
fn closed_forms_wrap_like_java_longs_at_the_seed_size() {
    // Sum of i^2 below 50M is ~4.2e22, far past i64: the seed's figures wrap.
    let n = SEED_RECORDS as u128;
    let exact_total = (n - 1) * n * (2 * n - 1) / 6;
    let c = expected_costs(SEED_RECORDS);
    assert_eq!(
        (c.buy as u64).wrapping_add(c.sell as u64),
        exact_total as u64
    );
    assert!(exact_total > i64::MAX as u128);
}

#[test]
fn every_layout_answers_the_query() {
    for variant in Variant::ALL {
        for records in [1, 2, 3, 1000] {
            let run = run_once(variant, records).unwrap();
            assert_eq!(run.costs, expected_costs(records), "{variant} {records}");
            assert!(run.total_ms() >= run.query_ms);
        }
    }
}

#[test]
fn flyweight_reads_back_every_field() {
    let table = FlyweightTable::build(3);
    let (venue, instrument) = codes();
    let t = table.get(1).unwrap();
    assert_eq!(
        (
            t.trade_id(),
            t.client_id(),
            t.venue_code(),
            t.instrument_code()
        ),
        (1, 1, venue, instrument)
    );
    assert_eq!((t.price(), t.quantity(), t.side()), (1, 1, SIDE_SELL));
    assert_eq!(table.get(0).unwrap().side(), SIDE_BUY);
    assert!(table.get(3).is_none());
    assert_eq!(table.0.len(), 3 * TradeLayout::RECORD_SIZE);
}

#[test]
fn layout_is_the_seeds_42_bytes() {
    assert_eq!(
        TradeLayout::SIDE + size_of::<u16>(),
        TradeLayout::RECORD_SIZE
    );
    assert_eq!(TradeLayout::QUANTITY + 8, TradeLayout::SIDE);
    assert_eq!(size_of::<Trade>(), 48);
}

#[test]
fn bad_record_counts_and_names_are_rejected() {
    assert!(matches!(
        run_once(Variant::Aos, 0),
        Err(TableError::BadRecords(0))
    ));
    assert!(matches!(
        run_once(Variant::Aos, MAX_RECORDS + 1),
        Err(TableError::BadRecords(_))
    ));
    assert!(matches!(
        run_once(Variant::Boxed, 1 << 39),
        Err(TableError::NotEnoughMemory(_))
    ));
}

#[test]
fn pack_follows_the_seed() {
    assert_eq!(pack(b"BHP"), Some(0x4248_5000));
    assert_eq!(pack(b"A"), Some(0x4100_0000));
    assert_eq!(pack(b""), None);
}
