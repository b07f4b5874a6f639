use super::*;
use proptest::prelude::*;

fn any_order() -> impl Strategy<Value = Order> {
    (
        any::<i64>(),
        any::<bool>(),
        any::<i32>(),
        any::<i32>(),
        proptest::array::uniform10(any::<f64>().prop_filter("NaN != NaN", |f| !f.is_nan())),
        proptest::array::uniform10(any::<i64>()),
    )
        .prop_map(
            |(source_id, special, order_code, priority, prices, quantities)| Order {
                source_id,
                special,
                order_code,
                priority,
                prices,
                quantities,
            },
        )
}

/// The model of the fixed layout: each field's bytes at its documented offset.
fn model_bytes(o: &Order) -> Vec<u8> {
    let mut b = vec![0u8; OrderLayout::SIZE];
    b[OrderLayout::SOURCE_ID..][..8].copy_from_slice(&o.source_id.to_le_bytes());
    b[OrderLayout::ORDER_CODE..][..4].copy_from_slice(&o.order_code.to_le_bytes());
    b[OrderLayout::PRIORITY..][..4].copy_from_slice(&o.priority.to_le_bytes());
    b[OrderLayout::SPECIAL] = u8::from(o.special);
    for i in 0..10 {
        b[OrderLayout::PRICES + 8 * i..][..8].copy_from_slice(&o.prices[i].to_le_bytes());
        b[OrderLayout::QUANTITIES + 8 * i..][..8].copy_from_slice(&o.quantities[i].to_le_bytes());
    }
    b
}

fn round_trip<C: Codec>(o: &Order) -> (Vec<u8>, Order) {
    let mut buf = vec![0xAAu8; BUFFER_BYTES];
    let len = C::encode(o, &mut buf).unwrap();
    buf.truncate(len);
    let back = C::decode(&buf).unwrap();
    (buf, back)
}

proptest! {
    #[test]
    fn every_codec_round_trips_any_order(o in any_order()) {
        prop_assert_eq!(round_trip::<SerdeBinary>(&o).1, o);
        let (hand, back) = round_trip::<HandCodec>(&o);
        prop_assert_eq!(back, o);
        let (zero, back) = round_trip::<ZeroCopy>(&o);
        prop_assert_eq!(back, o);
        // Both fixed-layout codecs write exactly the documented bytes.
        prop_assert_eq!(&hand, &model_bytes(&o));
        prop_assert_eq!(&zero, &model_bytes(&o));
        // SBE: the message header, then the same layout.
        let (sbe, back) = round_trip::<Sbe>(&o);
        prop_assert_eq!(back, o);
        prop_assert_eq!(&sbe[..8], &[184, 0, 1, 0, 77, 0, 0, 0]);
        prop_assert_eq!(&sbe[8..], &model_bytes(&o)[..]);
    }
}

#[test]
fn layout_offsets_follow_the_spec() {
    assert_eq!(OrderLayout::PRIORITY, OrderLayout::ORDER_CODE + 4);
    assert_eq!(OrderLayout::PRICES, OrderLayout::SPECIAL + 8);
    assert_eq!(OrderLayout::QUANTITIES, OrderLayout::PRICES + 80);
    assert_eq!(OrderLayout::SIZE, OrderLayout::QUANTITIES + 80);
    let bytes = model_bytes(&Order::seed());
    assert_eq!(&bytes[..8], &1010i64.to_le_bytes());
    assert_eq!(bytes[OrderLayout::SPECIAL], 1);
    assert_eq!(&bytes[OrderLayout::QUANTITIES + 72..], &10i64.to_le_bytes());
}

#[test]
fn serde_binary_is_the_compact_varint_encoding() {
    let (bytes, _) = round_trip::<SerdeBinary>(&Order::seed());
    // sourceId 2, special 1, orderCode 2, priority 2, prices 80, quantities 10 x 1.
    assert_eq!(bytes.len(), 97);
}

#[test]
fn short_buffers_and_bad_bytes_are_errors() {
    let o = Order::seed();
    let mut short = [0u8; 100];
    assert_eq!(
        HandCodec::encode(&o, &mut short),
        Err(CodecError::BufferTooSmall {
            needed: 104,
            len: 100
        })
    );
    assert!(matches!(
        ZeroCopy::encode(&o, &mut short),
        Err(CodecError::BufferTooSmall { needed: 184, .. })
    ));
    assert!(SerdeBinary::encode(&o, &mut short[..10]).is_err());
    let mut bytes = model_bytes(&o);
    assert!(HandCodec::decode(&bytes[..183]).is_err());
    assert!(ZeroCopy::decode(&bytes[..183]).is_err());
    assert!(matches!(
        Sbe::encode(&o, &mut short),
        Err(CodecError::Sbe(e)) if matches!(*e, MessageError::BufferTooSmall { needed: 192, .. })
    ));
    let mut sbe = [0u8; 192];
    Sbe::encode(&o, &mut sbe).unwrap();
    assert_eq!(
        Sbe::decode(&sbe[..191]).unwrap_err().to_string(),
        "sbe: message truncated: the root block needs 192 bytes, the message has 191"
    );
    sbe[8 + OrderLayout::SPECIAL] = 2;
    assert_eq!(
        Sbe::decode(&sbe),
        Err(CodecError::Sbe(Box::new(MessageError::BadEnum {
            field: "special",
            value: 2
        })))
    );
    bytes[OrderLayout::SPECIAL] = 2;
    assert_eq!(HandCodec::decode(&bytes), Err(CodecError::BadSpecial(2)));
    assert_eq!(ZeroCopy::decode(&bytes), Err(CodecError::BadSpecial(2)));
}

#[test]
fn every_variant_runs_and_checks() {
    for variant in Variant::ALL {
        // 600 ring records wrap the 128 KiB ring and end on a partial batch.
        let trips = run(variant, 600).unwrap();
        assert!(trips.write_ns > 0.0 && trips.read_ns > 0.0, "{variant}");
        let expected = match variant {
            Variant::SerdeBinary => 97,
            Variant::Sbe => 192,
            _ => 184,
        };
        assert_eq!(trips.encoded_bytes, expected, "{variant}");
    }
    assert!(matches!(
        run(Variant::ZeroCopy, 0),
        Err(SerializationError::ZeroCount)
    ));
}

#[test]
fn a_corrupted_slot_fails_the_check() {
    let orders = inputs();
    let mut slots = vec![0u8; orders.len() * ZeroCopy::SLOT_BYTES];
    let mut lengths = vec![0; orders.len()];
    write_batch::<ZeroCopy>(&orders, &mut slots, &mut lengths).unwrap();
    slots[5 * ZeroCopy::SLOT_BYTES + OrderLayout::PRICES] ^= 1;
    let mut decoded = vec![Order::seed(); orders.len()];
    read_batch::<ZeroCopy>(&slots, &lengths, &mut decoded).unwrap();
    assert_eq!(mismatches(&orders, &decoded), 1, "only order 5 differs");
}

#[test]
fn every_timed_loop_cycles_through_the_same_inputs_as_java() {
    let trips = run(Variant::HandCodec, 1000).unwrap();
    assert_eq!(trips.working_set_bytes, INPUTS * OrderLayout::SIZE);
    let serde = run(Variant::SerdeBinary, 300).unwrap();
    assert!(
        serde.working_set_bytes > INPUTS * 97,
        "random orders take longer varints than the seed's item: {}",
        serde.working_set_bytes
    );
}
