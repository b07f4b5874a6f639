use super::*;

fn run(variant: Variant, element: ElementKind, placement: Placement) -> Duration {
    QueueRun {
        variant,
        element,
        placement,
        count: if cfg!(miri) { 1_000 } else { 100_000 },
        capacity: 64,
    }
    .run(&PeerLaunch::Fork)
    .unwrap_or_else(|e| panic!("{} {}: {e}", variant.name(), placement.name()))
}

fn has_two_cores() -> bool {
    available_cores().len() >= 2
}

#[test]
fn every_in_process_variant_moves_every_value_in_order() {
    for variant in Variant::ALL {
        if variant == Variant::P1c1Ipc {
            continue; // forking from a multi-threaded test binary is not safe
        }
        for element in ElementKind::ALL {
            run(variant, element, Placement::SameCore);
            if has_two_cores() {
                run(variant, element, Placement::CrossCore);
            }
        }
    }
}

#[test]
fn consumer_rejects_a_value_out_of_sequence() {
    let err = variants_check(&[0u32, 1, 3]);
    assert!(
        matches!(err, Some(QueueRunError::OutOfOrder { position: 2, .. })),
        "{err:?}"
    );
}

#[test]
fn consumer_rejects_a_value_after_the_last() {
    let err = variants_check(&[0u32, 1, 2, 3]);
    assert!(
        matches!(err, Some(QueueRunError::ExtraValue { count: 3, .. })),
        "{err:?}"
    );
}

/// Feeds `values` to the consumer check of 3 expected values.
fn variants_check(values: &[u32]) -> Option<QueueRunError> {
    let mut iter = values.iter().copied();
    variants::consume_each::<u32>(3, || true, || iter.next()).err()
}

#[test]
fn a_consumer_that_waits_on_an_aborted_run_stops() {
    let err = variants::consume_each::<u32>(3, || true, || None).unwrap_err();
    assert!(matches!(err, QueueRunError::Aborted { received: 0 }));
}

#[test]
fn names_round_trip_and_bad_names_are_errors() {
    for p in Placement::ALL {
        assert_eq!(Placement::parse(p.name()), Ok(p));
    }
    for e in ElementKind::ALL {
        assert_eq!(ElementKind::parse(e.name()), Ok(e));
    }
    assert!(Placement::parse("cross").is_err());
}

#[test]
fn a_bad_capacity_is_an_error_not_a_panic() {
    let err = QueueRun {
        variant: Variant::P1c1,
        element: ElementKind::U32,
        placement: Placement::SameCore,
        count: 10,
        capacity: 100,
    }
    .run(&PeerLaunch::Fork)
    .unwrap_err();
    assert!(matches!(
        err,
        QueueRunError::Queue(QueueError::CapacityNotPowerOfTwo { capacity: 100 })
    ));
}

#[test]
fn a_pin_that_did_not_take_is_the_machines_doing_and_a_lost_value_is_not() {
    let refused = QueueRunError::Pin(PinError::Refused { core: 1 });
    assert!(refused.is_environmental());
    assert!(QueueRunError::PeerPinFailed.is_environmental());
    let missing = QueueRunError::Pin(PinError::NoSuchCore {
        core: 7,
        available: vec![0, 1],
    });
    assert!(
        !missing.is_environmental(),
        "a core that is not there is the user's mistake"
    );
    let lost = QueueRunError::OutOfOrder {
        position: 3,
        expected: "3".into(),
        found: "4".into(),
    };
    assert!(!lost.is_environmental());
}
