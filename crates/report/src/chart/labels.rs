//! What names a row in a chart and a table: the params every row shares go in the header, each
//! row is labelled with its variant and the params that tell it apart.

use std::collections::BTreeMap;

use crate::merge::variant_label;
use crate::table::Row;

/// The labels of a table's rows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RowLabels {
    /// Params with the same value in every row, as `key=value` joined by spaces.
    pub common: String,
    /// Per row: the variant's label and the params that differ between rows.
    pub rows: Vec<(String, String)>,
}

impl RowLabels {
    /// The labels of `rows`.
    pub fn of(rows: &[Row]) -> RowLabels {
        let mut common: BTreeMap<&str, &str> = match rows.first() {
            Some(first) => first
                .key
                .params
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
            None => BTreeMap::new(),
        };
        for row in rows {
            common.retain(|k, v| row.key.params.get(*k).map(String::as_str) == Some(*v));
        }
        let join = |pairs: Vec<String>| pairs.join(" ");
        let mut labels = RowLabels {
            common: join(
                common
                    .iter()
                    .map(|(k, v)| crate::merge::param_text(k, v))
                    .collect(),
            ),
            rows: rows
                .iter()
                .map(|row| {
                    let own = row
                        .key
                        .params
                        .iter()
                        .filter(|(k, _)| !common.contains_key(k.as_str()))
                        .map(|(k, v)| crate::merge::param_text(k, v))
                        .collect();
                    (
                        variant_label(&row.key.experiment, &row.key.variant),
                        join(own),
                    )
                })
                .collect(),
        };
        // A second result of the same work has its own row: number the repeats.
        for i in 1..labels.rows.len() {
            let earlier = labels.rows[..i]
                .iter()
                .filter(|r| {
                    r.0.split(" #").next() == Some(&labels.rows[i].0) && r.1 == labels.rows[i].1
                })
                .count();
            if earlier > 0 {
                labels.rows[i].0 = format!("{} #{}", labels.rows[i].0, earlier + 1);
            }
        }
        labels
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Merged, Tables, parse_jsonl};

    #[test]
    fn shared_params_go_in_the_header_and_repeats_are_numbered() {
        let line = |variant: &str, size: u32| {
            format!(
                r#"{{"kind":"result","experiment":"demo","language":"rust","variant":"{variant}","params":{{"count":9,"size":{size}}},"metric":"write_ns","value":1.0,"unit":"ns","check":"ok"}}"#
            )
        };
        let text = [line("a", 1), line("a", 2), line("b", 1), line("b", 1)].join("\n");
        let tables = Tables::build(&Merged::from_streams([parse_jsonl("t", &text).unwrap()]));
        let labels = RowLabels::of(&tables.experiments[0].metrics[0].rows);
        assert_eq!(labels.common, "count=9");
        let names: Vec<(&str, &str)> = labels
            .rows
            .iter()
            .map(|(v, p)| (v.as_str(), p.as_str()))
            .collect();
        assert_eq!(
            names[..3],
            [("a", "size=1"), ("a", "size=2"), ("b", "size=1")]
        );
        if let Some(second) = names.get(3) {
            assert_eq!(*second, ("b #2", "size=1"), "a duplicate has its own row");
        }
    }
}
