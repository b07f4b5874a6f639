//! The tables of `report.html`: a metric table per experiment and metric (readable units, the
//! runs' spread beneath each figure, "drift" marks, ratios in words with their 95% interval, columns with nothing in them left out), and plain text tables.

use crate::chart::{LANGUAGE_NAMES, RowLabels, escape, range_text};
use crate::ends::{cell_ends, mixed_ends, side_name};
use crate::stats::{RatioInterval, Verdict};
use crate::table::{Cell, LANGUAGES, MetricTable, Row};
use crate::words::read_ratio;
use sympathy_harness::format;

/// A table of texts; columns from `numeric_from` on are right-aligned figures.
pub(super) fn text_table<const N: usize>(
    headers: [&str; N],
    numeric_from: usize,
    rows: &[[String; N]],
) -> String {
    let headers: Vec<(String, bool)> = headers
        .iter()
        .enumerate()
        .map(|(i, h)| (escape(h), i >= numeric_from))
        .collect();
    let rows: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| (String::new(), r.iter().map(|c| escape(c)).collect()))
        .collect();
    html_table(&headers, &rows)
}

/// A `<table>` of cells already in HTML: headers as (text, numeric), rows as (class, cells).
fn html_table(headers: &[(String, bool)], rows: &[(String, Vec<String>)]) -> String {
    let num = |numeric: bool| if numeric { " class=\"num\"" } else { "" };
    let mut out = String::from("<table>\n<thead><tr>");
    for (h, numeric) in headers {
        out.push_str(&format!("<th{}>{h}</th>", num(*numeric)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (class, cells) in rows {
        match class.as_str() {
            "" => out.push_str("<tr>"),
            c => out.push_str(&format!("<tr class=\"{c}\">")),
        }
        for (cell, (_, numeric)) in cells.iter().zip(headers) {
            out.push_str(&format!("<td{}>{cell}</td>", num(*numeric)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// A mark after a figure: `noisy` or `drift`.
pub(super) fn mark(kind: &str, why: &str) -> String {
    format!(
        " <span class=\"mark {kind}\" title=\"{}\">{kind}</span>",
        escape(why)
    )
}

/// A figure in readable units, with the "noisy" mark, and beneath it the runs' min..max and
/// the number of rounds.
fn cell_html(cell: &Cell, unit: &str) -> String {
    let mut out = format!(
        "<span class=\"figure\">{}</span>",
        escape(&format::quantity(cell.value, unit))
    );
    let spread = cell
        .spread()
        .filter(|s| s.runs > 1 && s.min < s.max)
        .map(|s| range_text(s.min, s.max, unit));
    let rounds = match cell.rounds().len() {
        n if n > 1 => Some(format!("{n} rounds")),
        _ => None,
    };
    let first = cell
        .first()
        .map(|f| format!("first {}", format::quantity(f, unit)));
    let beneath: Vec<String> = spread.into_iter().chain(first).chain(rounds).collect();
    out.push_str(&beneath_html(&beneath));
    out
}

/// The small line(s) beneath a figure; it breaks between `pieces`, never inside one.
fn beneath_html(pieces: &[String]) -> String {
    if pieces.is_empty() {
        return String::new();
    }
    let spans: Vec<String> = pieces
        .iter()
        .map(|p| format!("<span>{}</span>", escape(p)))
        .collect();
    format!("<span class=\"spread\">{}</span>", spans.join(" "))
}

/// A ratio in words ("Java 1.5x slower", or "inconclusive"), and beneath it its 95% interval
/// and rounds, in the same sense as the words ([`read_ratio`]).
fn ratio_html(ratio: &RatioInterval, table: &MetricTable, subject: &str, other: &str) -> String {
    let reading = read_ratio(ratio, table.better, &table.unit, subject, other);
    let class = match reading.verdict {
        Verdict::Inconclusive => "verdict inconclusive",
        _ => "verdict",
    };
    let pieces: Vec<String> = reading.detail.split(", ").map(str::to_string).collect();
    format!(
        "<span class=\"{class}\">{}</span>{}",
        escape(&reading.words),
        beneath_html(&pieces)
    )
}

/// The hop probes' range over the row's runs, marked when it drifted.
fn hop_html(row: &Row) -> Option<String> {
    let hop = row.hop()?;
    let mut out = format!(
        "<span class=\"figure\">{}</span>",
        escape(&range_text(hop.min_ns, hop.max_ns, "ns"))
    );
    if row.drifted() {
        out.push_str(&mark(
            "drift",
            "the hop moved more than 25% between the probes before and after a run",
        ));
    }
    Some(out)
}

/// One column: its header, whether it holds figures, one cell per row (`None`: nothing).
type Column = (&'static str, bool, Vec<Option<String>>);

/// The table of one metric: variant, the params that differ between rows, a column per
/// language, Java vs Rust and Rust vs C in words, the hop, the seed's figure. A column with
/// nothing in it is left out.
pub(super) fn metric_table(table: &MetricTable, labels: &RowLabels) -> String {
    let rows = &table.rows;
    let mut columns: Vec<Column> = vec![
        (
            "variant",
            false,
            labels.rows.iter().map(|(v, _)| Some(escape(v))).collect(),
        ),
        (
            "params",
            false,
            labels
                .rows
                .iter()
                .map(|(_, p)| (!p.is_empty()).then(|| escape(p)))
                .collect(),
        ),
    ];
    for (lang, name) in LANGUAGES.iter().zip(LANGUAGE_NAMES) {
        let cells = rows
            .iter()
            .map(|r| {
                r.cell(lang).map(|c| {
                    let ends = cell_ends(r, lang)
                        .filter(|_| mixed_ends(r))
                        .map(|e| format!("<span class=\"ends\">{}</span> ", escape(&e.text())));
                    format!("{}{}", ends.unwrap_or_default(), cell_html(c, &table.unit))
                })
            })
            .collect();
        columns.push((name, true, cells));
    }
    for (num, den, header) in [("java", "rust", "Java vs Rust"), ("rust", "c", "Rust vs C")] {
        let cells = rows
            .iter()
            .map(|r| {
                let (subject, other) = (side_name(r, num), side_name(r, den));
                if let Some(why) = r.parity_conflict(num, den) {
                    return Some(format!(
                        "<span class=\"unpaired\">not paired: {}</span>",
                        escape(&why)
                    ));
                }
                let ratio = r.ratio(num, den)?;
                Some(match r.phase_ratios(num, den) {
                    Some(phases) => phases
                        .iter()
                        .map(|(hop, p)| {
                            format!(
                                "<span class=\"phase\">hop {}:</span> {}",
                                escape(&format::quantity(*hop, "ns")),
                                ratio_html(p, table, &subject, &other)
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("<br>"),
                    None => ratio_html(&ratio, table, &subject, &other),
                })
            })
            .collect();
        columns.push((header, false, cells));
    }
    columns.push(("hop", true, rows.iter().map(hop_html).collect()));
    columns.push((
        "seed (hardware)",
        false,
        rows.iter()
            .map(|r| (!r.seed.is_empty()).then(|| escape(&r.seed_text())))
            .collect(),
    ));
    columns.retain(|(_, _, cells)| cells.iter().any(Option::is_some));
    let headers: Vec<(String, bool)> = columns
        .iter()
        .map(|(h, numeric, _)| (h.to_string(), *numeric))
        .collect();
    let body: Vec<(String, Vec<String>)> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let class = if row.drifted() { "drifted" } else { "" };
            let cells = columns
                .iter()
                .map(|(_, _, cells)| cells[i].clone().unwrap_or_else(|| "–".into()))
                .collect();
            (class.to_string(), cells)
        })
        .collect();
    html_table(&headers, &body)
}
