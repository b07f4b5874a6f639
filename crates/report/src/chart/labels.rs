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
        RowLabels {
            common: join(common.iter().map(|(k, v)| format!("{k}={v}")).collect()),
            rows: rows
                .iter()
                .map(|row| {
                    let own = row
                        .key
                        .params
                        .iter()
                        .filter(|(k, _)| !common.contains_key(k.as_str()))
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect();
                    (
                        variant_label(&row.key.experiment, &row.key.variant),
                        join(own),
                    )
                })
                .collect(),
        }
    }
}
