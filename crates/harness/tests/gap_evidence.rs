//! The instruction counts the catalog gives as evidence for a gap stay current: each must be
//! within `EVIDENCE_DRIFT_PERCENT` of the sum of its ids in the gates' committed baselines
//! (`crates/instructions/baseline.json` for Rust, `baseline-java.json` for Java), which
//! `ci/instructions` and `ci/java-instructions` keep within 5% of what the code does now. A change
//! that moves a hot path's count by more fails here until the cause beside the report's row is
//! measured again.

use std::collections::BTreeMap;
use std::path::Path;

use sympathy_harness::catalog::{EVIDENCE_DRIFT_PERCENT, Language, Measure, catalog};

/// The committed baseline of `language`'s instruction gate: instructions per message by id.
fn baseline(language: Language) -> BTreeMap<String, f64> {
    let file = match language {
        Language::Rust => "baseline.json",
        Language::Java => "baseline-java.json",
        Language::C => panic!("C has no instruction gate: give C's counts as a `figure`"),
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../instructions")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How far `catalog` is from `now`, in percent of `now`.
fn drift_percent(catalog: f64, now: f64) -> f64 {
    (catalog - now).abs() / now * 100.0
}

#[test]
fn every_instruction_count_of_a_gap_is_within_the_drift_limit_of_its_gate() {
    let mut baselines = BTreeMap::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in &catalog().experiments {
        for g in &e.gaps {
            for ev in g
                .evidence
                .iter()
                .filter(|ev| ev.measure == Measure::Instructions)
            {
                for (language, value) in ev.values() {
                    let ids = baselines
                        .entry(language)
                        .or_insert_with(|| baseline(language));
                    let mut sum = 0.0;
                    for id in &value.ids {
                        match ids.get(id) {
                            Some(count) => sum += count,
                            None => failures.push(format!(
                                "{} {} ({}): id `{id}` is not in {}'s instruction baseline",
                                e.name,
                                g.variant,
                                ev.what,
                                language.name()
                            )),
                        }
                    }
                    let drift = drift_percent(value.value, sum);
                    if drift > EVIDENCE_DRIFT_PERCENT {
                        failures.push(format!(
                            "{} {} ({}): {} says {} instructions, its gate's baseline {sum:.1} \
                             ({drift:.0}% apart, more than {EVIDENCE_DRIFT_PERCENT}%): measure the \
                             cause again and update experiments/{}.toml",
                            e.name,
                            g.variant,
                            ev.what,
                            language.name(),
                            value.value,
                            e.name
                        ));
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        checked >= 10,
        "only {checked} instruction counts in the catalog's gaps: the ring, queue and codec gaps give theirs"
    );
    println!("{checked} instruction counts of the catalog's gaps match their gates");
}

#[test]
fn drift_is_measured_against_the_gate() {
    assert_eq!(drift_percent(110.0, 100.0), 10.0);
    assert!(drift_percent(112.0, 100.0) > EVIDENCE_DRIFT_PERCENT);
    assert!(drift_percent(95.0, 100.0) < EVIDENCE_DRIFT_PERCENT);
}
