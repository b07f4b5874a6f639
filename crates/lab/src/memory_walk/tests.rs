use super::*;
use proptest::prelude::*;

const MIB: usize = 1024 * 1024;

#[test]
fn checksum_matches_the_seed_for_two_gib() {
    assert_eq!(expected_sum(2 * 1024 * MIB / LONG_SIZE), 208_574_349_312);
}

#[test]
fn every_scan_visits_every_element_once() {
    let mut array = WalkArray::new(4 * MIB, false).unwrap();
    for variant in [Variant::Linear, Variant::RandomPage, Variant::RandomHeap] {
        let run = array.run(variant).unwrap();
        assert_eq!(run.checksum, expected_sum(array.elements()), "{variant}");
        assert_eq!(run.ops, array.elements());
    }
}

#[test]
fn random_page_walk_stays_in_its_page_and_follows_the_seed() {
    // The seed's arithmetic from pos = -1: first index (514229 - 1) & (262144 - 1).
    let first = RandomPageWalk::next(0, usize::MAX, usize::MAX);
    assert_eq!(first, (PRIME_INC - 1) % WORDS_PER_PAGE);
    let next = RandomPageWalk::next(WORDS_PER_PAGE, first, usize::MAX);
    assert!((WORDS_PER_PAGE..2 * WORDS_PER_PAGE).contains(&next));
    assert_eq!(next - WORDS_PER_PAGE, (first + PRIME_INC) % WORDS_PER_PAGE);
}

#[test]
fn chases_visit_every_node_and_scans_still_work_after() {
    let mut array = WalkArray::new(4 * MIB, false).unwrap();
    for variant in [Variant::ChasePage, Variant::ChaseHeap] {
        let run = array.run(variant).unwrap();
        assert_eq!(run.ops, 4 * MIB / NODE_SIZE);
        // A second run reuses the cycle.
        assert_eq!(array.run(variant).unwrap().checksum, run.checksum);
    }
    let run = array.run(Variant::Linear).unwrap();
    assert_eq!(run.checksum, expected_sum(array.elements()));
}

#[test]
fn sweep_chases_sub_ranges_with_laps() {
    let mut array = WalkArray::new(2 * MIB, false).unwrap();
    let run = array.run_chase(Variant::ChaseHeap, 16 * 1024, 3).unwrap();
    assert_eq!(run.ops, 3 * 16 * 1024 / NODE_SIZE);
    assert!(array.run_chase(Variant::ChaseHeap, 3000, 1).is_err());
    assert!(array.run_chase(Variant::ChaseHeap, 4 * MIB, 1).is_err());
}

#[test]
fn broken_chain_is_reported_not_accepted() {
    let mut array = WalkArray::new(2 * MIB, false).unwrap();
    array.run(Variant::ChaseHeap).unwrap();
    // Short-circuit the cycle: the start node now links to itself.
    let Contents::Chain { start, .. } = array.contents else {
        panic!("a chase leaves a chain")
    };
    array.region.as_mut_slice::<i64>()[start] = start as i64;
    assert!(matches!(
        array.run(Variant::ChaseHeap),
        Err(WalkError::ChaseIncomplete { .. })
    ));
}

#[test]
fn bad_sizes_are_rejected() {
    for size in [0, 1, MIB, 3 * MIB, 6 * MIB, MAX_SIZE_BYTES * 2] {
        assert!(
            matches!(validate_size(size), Err(WalkError::BadSize(_))),
            "{size}"
        );
        assert!(WalkArray::new(size, false).is_err(), "{size}");
    }
    assert!(validate_size(2 * MIB).is_ok());
    assert!(validate_size(2048 * MIB).is_ok());
}

/// Follows the links from `start` as a simple model would: a Vec of visited flags.
fn cycle_length(words: &[i64], start: usize) -> Option<usize> {
    let mut seen = vec![false; words.len()];
    let mut pos = start;
    let mut length = 0;
    while !seen[pos] {
        seen[pos] = true;
        length += 1;
        pos = usize::try_from(words[pos])
            .ok()
            .filter(|&p| p < words.len())?;
    }
    (pos == start).then_some(length)
}

proptest! {
    #[test]
    fn chase_permutation_is_a_single_cycle(
        nodes in 1usize..2000,
        page in proptest::option::of(1usize..300),
        seed: u64,
    ) {
        let mut words = vec![-1i64; nodes * WORDS_PER_NODE];
        let order = chase_order(nodes, page, seed);
        let start = link(&mut words, &order);
        prop_assert_eq!(cycle_length(&words, start), Some(nodes));
        // Page-local orders keep each block of nodes together.
        if let Some(k) = page {
            for (i, &node) in order.iter().enumerate() {
                prop_assert_eq!(node as usize / k, i / k);
            }
        }
        // The timed chase agrees with the model.
        // SAFETY: `link` wrote an in-bounds cycle through every node.
        let (end, sum) = unsafe { chase(&words, start, nodes) };
        prop_assert_eq!(end, start);
        prop_assert_eq!(sum, chase_index_sum(nodes));
    }
}
