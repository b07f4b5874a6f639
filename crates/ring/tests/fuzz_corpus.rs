//! The fuzz targets' code (fuzz/fuzz_targets/common.rs, compiled here on stable) over their
//! committed corpus: every input keeps returning (an error at worst; never a panic or a hang),
//! and the targets' code cannot rot unseen between `ci/fuzz` runs, which build it on nightly.
//! `ci/fuzz` fuzzes; this replays.

#[path = "../../../fuzz/fuzz_targets/common.rs"]
mod common;

use std::path::Path;

/// The inputs of one target's committed corpus, in name order.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[test]
#[cfg_attr(miri, ignore = "maps a file, which Miri cannot do")]
fn the_committed_fuzz_corpus_replays_through_the_targets_code() {
    let open_inspect = corpus("open_inspect");
    assert!(
        !open_inspect.is_empty(),
        "fuzz/corpus/open_inspect is empty"
    );
    for input in &open_inspect {
        common::open_and_use(input);
    }
    let consumer_region = corpus("consumer_region");
    assert!(
        !consumer_region.is_empty(),
        "fuzz/corpus/consumer_region is empty"
    );
    for input in &consumer_region {
        let file =
            common::region_file(input).expect("a committed region input holds 17 bytes or more");
        common::open_and_use(&file);
    }
}
