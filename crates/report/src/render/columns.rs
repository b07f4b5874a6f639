//! The text of a metric table, for the terminal and `report.md`: only the columns that have
//! something to show, the params common to every row lifted into the table's header line,
//! ratios in words with their per-round spread, the hop and the marks.

use crate::ends::{cell_ends, mixed_ends, side_name};
use crate::stats::RatioInterval;
use crate::table::{Cell, MetricTable, Row, language_title};
use crate::words::read_ratio;
use sympathy_harness::format;

/// A table as text: headers, which columns hold numbers (right-aligned), the rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextTable {
    /// The column headers.
    pub headers: Vec<String>,
    /// Per column, whether it is numeric.
    pub numeric: Vec<bool>,
    /// The cells, row by row.
    pub rows: Vec<Vec<String>>,
}

impl TextTable {
    /// A table of fixed width whose columns in `numeric` hold numbers.
    pub fn fixed<const N: usize>(
        headers: [&str; N],
        numeric: std::ops::Range<usize>,
        rows: Vec<[String; N]>,
    ) -> TextTable {
        TextTable {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            numeric: (0..N).map(|i| numeric.contains(&i)).collect(),
            rows: rows.into_iter().map(|r| r.to_vec()).collect(),
        }
    }
}

/// What the marks column says, one sentence per mark.
pub(crate) const MARKS_LEGEND: &str = "Marks: `drift` = in an experiment whose figures move \
with the cross-core hop, the hop moved more than 25% between the probes right before and after \
a run of the row; `retried N times` = a run was repeated because the machine was busy or, in a \
hop-dependent experiment, its hop drifted (the calmest attempt is kept).";

/// `Java 1.5x slower (95% CI 1.40..1.60, 3 rounds)`: the ratio `subject / other` as
/// [`read_ratio`] reads it.
pub(crate) fn ratio_text(
    table: &MetricTable,
    ratio: &RatioInterval,
    subject: &str,
    other: &str,
) -> String {
    read_ratio(ratio, table.better, &table.unit, subject, other).text()
}

/// `50.0..70.0 ns` (or `52.0 ns`): the range of a row's hop probes.
pub(crate) fn hop_text(row: &Row) -> Option<String> {
    let hop = row.hop()?;
    Some(if hop.min_ns == hop.max_ns {
        format::quantity(hop.min_ns, "ns")
    } else {
        let max = format::quantity(hop.max_ns, "ns");
        let min = format::quantity(hop.min_ns, "ns");
        match (min.strip_suffix(" ns"), max.ends_with(" ns")) {
            (Some(bare), true) => format!("{bare}..{max}"),
            _ => format!("{min}..{max}"),
        }
    })
}

/// The marks of a row: `drift`, `retried 2 times`, joined by `, `.
pub(crate) fn marks_text(row: &Row) -> String {
    let mut marks = Vec::new();
    if row.drifted() {
        marks.push("drift".to_string());
    }
    if let Some(ms) = row.jit_compiled_ms() {
        marks.push(format!("JIT compiled {ms:.0} ms while measured"));
    }
    let retries: u32 = row.present_cells().map(|(_, c)| c.retries()).sum();
    match retries {
        0 => {}
        1 => marks.push("retried 1 time".to_string()),
        n => marks.push(format!("retried {n} times")),
    }
    marks.join(", ")
}

/// A cell's figure, named by its ends when the row was measured between two languages
/// (`Java -> Rust: 74.0M msgs/s`).
pub(crate) fn cell_text(row: &Row, language: &str, cell: &Cell, unit: &str) -> String {
    match cell_ends(row, language) {
        Some(ends) if mixed_ends(row) => format!("{}: {}", ends.text(), cell.text(unit)),
        _ => cell.text(unit),
    }
}

/// One column: its header, whether numeric, and its text per row.
type Column = (String, bool, Vec<String>);

/// The columns of a metric table that have something to show.
pub(crate) fn metric_columns(table: &MetricTable) -> TextTable {
    let rows = &table.rows;
    let text_of = |f: &dyn Fn(&Row) -> Option<String>| -> Vec<String> {
        rows.iter()
            .map(|r| f(r).unwrap_or_else(|| "-".into()))
            .collect()
    };
    let mut columns: Vec<Column> = vec![(
        "variant".into(),
        false,
        rows.iter().map(Row::label).collect(),
    )];
    let params: Vec<String> = rows.iter().map(|r| table.row_params(r)).collect();
    if params.iter().any(|p| !p.is_empty()) {
        columns.push(("params".into(), false, params));
    }
    for language in crate::table::LANGUAGES {
        if table.has_language(language) {
            let cell = |r: &Row| {
                r.cell(language)
                    .map(|c: &Cell| cell_text(r, language, c, &table.unit))
            };
            columns.push((language_title(language).into(), true, text_of(&cell)));
        }
    }
    // The same pairs as the HTML tables: Java against Rust, Rust against the C reference.
    for (subject, other) in [("java", "rust"), ("rust", "c")] {
        if table.has_language(subject) && table.has_language(other) {
            let ratio = |r: &Row| {
                let (s, o) = (side_name(r, subject), side_name(r, other));
                match r.parity_conflict(subject, other) {
                    Some(why) => Some(format!("not paired: {why}")),
                    None => r
                        .ratio(subject, other)
                        .map(|x| ratio_text(table, &x, &s, &o)),
                }
            };
            columns.push((
                format!("{} vs {}", language_title(subject), language_title(other)),
                false,
                text_of(&ratio),
            ));
        }
    }
    let optional: [(&str, bool, Vec<String>); 3] = [
        ("hop", true, text_of(&hop_text)),
        ("marks", false, rows.iter().map(marks_text).collect()),
        (
            "seed (hardware)",
            false,
            text_of(&|r: &Row| (!r.seed.is_empty()).then(|| r.seed_text())),
        ),
    ];
    for (header, numeric, texts) in optional {
        if texts.iter().any(|t| !t.is_empty() && t != "-") {
            columns.push((header.into(), numeric, texts));
        }
    }
    TextTable {
        headers: columns.iter().map(|c| c.0.clone()).collect(),
        numeric: columns.iter().map(|c| c.1).collect(),
        rows: (0..rows.len())
            .map(|i| columns.iter().map(|c| c.2[i].clone()).collect())
            .collect(),
    }
}

/// The header line of a table's params common to every row (`None` when there are none).
pub(crate) fn common_params_text(table: &MetricTable) -> Option<String> {
    let common = table.common_params();
    (!common.is_empty()).then(|| {
        common
            .iter()
            .map(|(k, v)| crate::merge::param_text(k, v))
            .collect::<Vec<_>>()
            .join(" ")
    })
}
