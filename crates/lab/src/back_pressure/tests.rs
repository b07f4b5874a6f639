use super::*;
use sympathy_harness::pin::available_cores;

fn two_cores() -> Option<Vec<usize>> {
    let cores = available_cores();
    (cores.len() >= 2).then(|| cores[..2].to_vec())
}

#[test]
fn littles_law_sizes_the_queue() {
    let c = Config::new(Variant::Bounded, 0.8, 10, &[0, 1]).unwrap();
    assert_eq!(c.workers(), 1);
    assert_eq!(c.queue_len(), 100);
    assert_eq!(c.arrival_per_sec(), 80_000);
    assert_eq!(c.bound_ns(), 1_010_000);
    let three = Config::new(Variant::Bounded, 1.5, 10, &[0, 1, 2, 3]).unwrap();
    assert_eq!((three.queue_len(), three.arrival_per_sec()), (300, 450_000));
    assert_eq!(three.scheduled(450_000), Duration::from_secs(1));
}

#[test]
fn bad_setups_are_errors() {
    let err = |cores: &[usize], load: f64, count: u64| {
        Config::new(Variant::Bounded, load, count, cores).unwrap_err()
    };
    assert_eq!(
        err(&[0], 0.5, 10),
        BackPressureError::NotEnoughCores(vec![0])
    );
    assert_eq!(err(&[0, 0], 0.5, 10), BackPressureError::DuplicateCore(0));
    assert_eq!(err(&[0, 1], 0.5, 0), BackPressureError::ZeroCount);
    assert_eq!(err(&[0, 1], -1.0, 10), BackPressureError::BadLoad(-1.0));
    assert!(matches!(
        err(&[0, 1], f64::NAN, 10),
        BackPressureError::BadLoad(_)
    ));
}

#[test]
fn every_request_is_accounted_for_below_and_above_capacity() {
    let Some(cores) = two_cores() else {
        eprintln!("skipped: back-pressure needs two cores");
        return;
    };
    for variant in Variant::ALL {
        for load in [0.5, 2.0] {
            let config = Config::new(variant, load, 2_000, &cores).unwrap();
            // measure, not run: a loaded test machine may miss the latency bound, which is a
            // timing outcome; the accounting must hold regardless.
            let o = measure(&config).unwrap();
            assert_eq!(o.completed + o.rejected, 2_000, "{variant} {load}");
            assert_eq!(o.latencies_ns.len() as u64, o.completed);
            assert!(o.latencies_ns.windows(2).all(|w| w[0] <= w[1]));
            // Every completed request was served for at least the service time.
            assert!(o.latencies_ns[0] >= config.service_ns, "{variant} {load}");
            // The time in the system is measured for the same requests, and never exceeds
            // the latency from the schedule (admission is not before the schedule).
            assert_eq!(o.in_system_ns.len() as u64, o.completed);
            assert!(o.in_system_ns[0] >= config.service_ns, "{variant} {load}");
            assert!(o.in_system_percentile(1.0) <= o.max(), "{variant} {load}");
            if variant == Variant::Unbounded {
                assert_eq!(o.rejected, 0);
            }
        }
    }
}

#[test]
fn an_overloaded_bounded_queue_rejects() {
    let Some(cores) = two_cores() else {
        return;
    };
    // At 3x capacity with a 100-slot queue, 3000 requests cannot all be accepted: the queue
    // and the worker hold at most 100 + 1 + what the worker serves meanwhile (~1/3).
    let config = Config::new(Variant::Bounded, 3.0, 3_000, &cores).unwrap();
    let o = measure(&config).unwrap();
    assert!(o.rejected > 0, "{o:?}");
}

#[test]
fn the_check_catches_lost_requests_and_a_missed_bound() {
    let config = Config::new(Variant::Bounded, 1.2, 3, &[0, 1]).unwrap();
    let outcome = |latencies: Vec<u64>, rejected| Outcome {
        generated: 3,
        completed: latencies.len() as u64,
        rejected,
        in_system_ns: latencies.clone(),
        latencies_ns: latencies,
        generator_late_ns: 0,
        elapsed: Duration::ZERO,
    };
    // The bound is 1.01 ms; the check accepts 5% more (1_060_500 ns), not a nanosecond more.
    assert_eq!(config.checked_bound_ns(), 1_060_500);
    assert_eq!(
        outcome(vec![10_000, 20_000, 1_060_500], 0).check(&config),
        Ok(())
    );
    let lost = outcome(vec![10_000, 20_000], 0).check(&config);
    assert!(matches!(lost, Err(BackPressureError::Lost { .. })));
    assert!(
        !lost.unwrap_err().is_environmental(),
        "lost requests are a real failure, never retried"
    );
    let missed = outcome(vec![10_000, 1_060_501], 1)
        .check(&config)
        .unwrap_err();
    assert!(missed.to_string().contains("overloaded"), "{missed}");
    assert!(
        missed.is_environmental(),
        "a missed bound is the machine's doing"
    );
    let unbounded = Config {
        variant: Variant::Unbounded,
        ..config
    };
    assert_eq!(outcome(vec![5_000_000], 2).check(&unbounded), Ok(()));
}

#[test]
fn the_bound_applies_to_the_time_in_the_system_not_to_a_late_generator() {
    let config = Config::new(Variant::Bounded, 1.2, 2, &[0, 1]).unwrap();
    // The generator was 3 ms late: the latencies from the schedule exceed the bound, but
    // the queue served what it admitted within it.
    let late_generator = Outcome {
        generated: 2,
        completed: 2,
        rejected: 0,
        latencies_ns: vec![3_010_000, 3_020_000],
        in_system_ns: vec![10_000, 20_000],
        generator_late_ns: 3_000_000,
        elapsed: Duration::ZERO,
    };
    assert_eq!(late_generator.check(&config), Ok(()));
    let slow_workers = Outcome {
        in_system_ns: vec![10_000, 1_500_000],
        ..late_generator
    };
    let missed = slow_workers.check(&config).unwrap_err();
    assert!(
        matches!(
            missed,
            BackPressureError::BoundMissed {
                p99_ns: 1_500_000,
                ..
            }
        ),
        "{missed}"
    );
    assert!(missed.to_string().contains("3000000 ns late"), "{missed}");
}
