//! The text of a metric table, for the terminal and `report.md`: only the columns that have
//! something to show, the params common to every row lifted into the table's header line,
//! ratios in words with their per-round spread, the hop and the marks.

use crate::table::{Cell, MetricTable, RoundRatio, Row, language_title};
use sympathy_harness::catalog::Better;
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
pub(crate) const MARKS_LEGEND: &str = "Marks: `noisy` = a cell's runs spread more than 2x \
(largest over smallest; the languages named); `drift` = the one-way hop between two cores moved \
more than 25% between the probes right before and after a run of the row; `retried N times` = a \
run was repeated because the machine was busy.";

/// `Java 1.5x slower (1.40..1.60, 3 rounds)`: a round-by-round ratio in words, with the
/// spread of the per-round ratios, in the words' sense (a ratio 0.5 read as "2.0x faster" has
/// its spread inverted too), when more than one round had both figures.
pub(crate) fn ratio_text(
    table: &MetricTable,
    ratio: RoundRatio,
    subject: &str,
    other: &str,
) -> String {
    let words = format::ratio_words_in(ratio.median, table.better, &table.unit, subject, other);
    if ratio.rounds < 2 {
        return words;
    }
    let inverted =
        table.better != Better::Neither && ratio.median < 1.0 && !words.ends_with(" on par");
    let (low, high) = if inverted {
        (1.0 / ratio.max, 1.0 / ratio.min)
    } else {
        (ratio.min, ratio.max)
    };
    format!("{words} ({low:.2}..{high:.2}, {} rounds)", ratio.rounds)
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

/// The marks of a row: `noisy (Rust, Java)`, `drift`, `retried 2 times`, joined by `, `.
pub(crate) fn marks_text(row: &Row) -> String {
    let mut marks = Vec::new();
    let noisy: Vec<&str> = row
        .present_cells()
        .filter(|(_, c)| c.noisy())
        .map(|(l, _)| language_title(l))
        .collect();
    if !noisy.is_empty() {
        marks.push(format!("noisy ({})", noisy.join(", ")));
    }
    if row.drifted() {
        marks.push("drift".to_string());
    }
    let retries: u32 = row.present_cells().map(|(_, c)| c.retries()).sum();
    match retries {
        0 => {}
        1 => marks.push("retried 1 time".to_string()),
        n => marks.push(format!("retried {n} times")),
    }
    marks.join(", ")
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
            let cell = |r: &Row| r.cell(language).map(|c: &Cell| c.text(&table.unit));
            columns.push((language_title(language).into(), true, text_of(&cell)));
        }
    }
    // The same pairs as the HTML tables: Java against Rust, Rust against the C reference.
    for (subject, other) in [("java", "rust"), ("rust", "c")] {
        if table.has_language(subject) && table.has_language(other) {
            let (s, o) = (language_title(subject), language_title(other));
            let ratio = |r: &Row| r.ratio(subject, other).map(|x| ratio_text(table, x, s, o));
            columns.push((format!("{s} vs {o}"), false, text_of(&ratio)));
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
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    })
}
