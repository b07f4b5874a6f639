//! `--baseline old.jsonl`: the ratio new/old of every result line, matched on language,
//! experiment, variant, every parameter and metric.

use std::collections::{BTreeMap, HashMap};

use crate::merge::Merged;
use crate::record::ResultRecord;

/// One new result next to its baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineLine {
    /// The new result.
    pub new: ResultRecord,
    /// The baseline's value for the same line, if it had one.
    pub old: Option<f64>,
}

impl BaselineLine {
    /// new / old, when the baseline had the line and its value is not zero.
    pub fn ratio(&self) -> Option<f64> {
        self.old.filter(|o| *o != 0.0).map(|o| self.new.value / o)
    }
}

/// The comparison of a run with its baseline.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Baseline {
    /// The file the baseline was read from.
    pub name: String,
    /// Every new result, in order, with its old value.
    pub lines: Vec<BaselineLine>,
    /// Baseline results the new run did not produce.
    pub missing: Vec<ResultRecord>,
}

type LineKey = (String, String, String, BTreeMap<String, String>, String);

fn key(r: &ResultRecord) -> LineKey {
    (
        r.language.clone(),
        r.experiment.clone(),
        r.variant.clone(),
        r.params.clone(),
        r.metric.clone(),
    )
}

/// Matches every result of `new` with the first result of `old` on the same line.
///
/// # Examples
/// ```
/// use sympathy_report::{baseline, parse_jsonl, Merged};
/// let line = |v: f64| format!(r#"{{"kind":"result","experiment":"e","language":"rust","variant":"v","params":{{}},"metric":"ns_per_op","value":{v},"unit":"ns"}}"#);
/// let old = Merged::from_streams([parse_jsonl("old", &line(10.0)).unwrap()]);
/// let new = Merged::from_streams([parse_jsonl("new", &line(12.0)).unwrap()]);
/// let b = baseline::compare("old.jsonl", &new, &old);
/// assert_eq!(b.lines[0].ratio(), Some(1.2));
/// ```
pub fn compare(name: &str, new: &Merged, old: &Merged) -> Baseline {
    let mut old_values: HashMap<LineKey, &ResultRecord> = HashMap::new();
    for r in &old.results {
        old_values.entry(key(r)).or_insert(r);
    }
    let lines: Vec<BaselineLine> = new
        .results
        .iter()
        .map(|r| BaselineLine {
            new: r.clone(),
            old: old_values.get(&key(r)).map(|o| o.value),
        })
        .collect();
    let new_keys: std::collections::HashSet<LineKey> = new.results.iter().map(key).collect();
    let mut seen = std::collections::HashSet::new();
    let missing = old
        .results
        .iter()
        .filter(|r| !new_keys.contains(&key(r)) && seen.insert(key(r)))
        .cloned()
        .collect();
    Baseline {
        name: name.to_string(),
        lines,
        missing,
    }
}
