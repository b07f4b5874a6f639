//! The terminal form, within [`WIDTH`] columns: the first screen (the banner, the answer, the
//! seeds' lessons, the conditions), then per experiment and metric a compact table (each
//! language's median and the ratios' verdicts), then the baseline and the failures. The spreads,
//! intervals, hops, marks and seed figures are in `report.md` and `report.html`.

use super::columns::TextTable;
use super::{
    BASELINE_HEADERS, Report, baseline_missing, baseline_texts, condition_rows, metric_title,
};
use crate::ends::{cell_ends, mixed_ends, side_name};
use crate::table::{COMPARED, LANGUAGES, MetricTable, Row, language_title};
use crate::words::read_ratio;
use sympathy_harness::format;

/// The widest a line of the terminal form gets.
pub(crate) const WIDTH: usize = 120;

/// `text` wrapped at spaces into lines of at most [`WIDTH`] columns, the first starting with
/// `first`, the others with `rest` (a hanging indent); a word longer than a line is cut.
fn wrap(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut fresh = true;
    for word in text.split_whitespace() {
        let extra = usize::from(!fresh);
        if !fresh && line.chars().count() + extra + word.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        let room = WIDTH.saturating_sub(line.chars().count()).max(1);
        if word.chars().count() > room {
            let cut: String = word.chars().take(room.saturating_sub(1)).collect();
            line.push_str(&format!("{cut}…"));
        } else {
            line.push_str(word);
        }
        fresh = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// `cell` cut to `width` characters, `…` marking the cut.
fn fit(cell: &str, width: usize) -> String {
    if cell.chars().count() <= width {
        cell.to_string()
    } else {
        let keep: String = cell.chars().take(width.saturating_sub(1)).collect();
        format!("{keep}…")
    }
}

/// Column-aligned text table, two spaces between columns, numbers right-aligned; the widest
/// text columns are cut (`…`) until a line fits [`WIDTH`].
fn table(t: &TextTable) -> String {
    let mut widths: Vec<usize> = t.headers.iter().map(|h| h.chars().count()).collect();
    for row in &t.rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let n = widths.len();
    let total = |widths: &[usize]| 2 + widths.iter().sum::<usize>() + 2 * n.saturating_sub(1);
    while total(&widths) > WIDTH {
        let widest = (0..n)
            .filter(|i| !t.numeric[*i])
            .max_by_key(|i| widths[*i])
            .or_else(|| (0..n).max_by_key(|i| widths[*i]));
        match widest {
            Some(i) if widths[i] > 8 => widths[i] -= 1,
            _ => break,
        }
    }
    let line = |cells: &[String], align: bool| {
        let mut s = String::from("  ");
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            let cell = fit(cell, *w);
            let pad = " ".repeat(w - cell.chars().count());
            if align && t.numeric[i] {
                s.push_str(&pad);
                s.push_str(&cell);
            } else {
                s.push_str(&cell);
                if i + 1 < n {
                    s.push_str(&pad);
                }
            }
            if i + 1 < n {
                s.push_str("  ");
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&t.headers, false);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&line(&rule, false));
    for row in &t.rows {
        out.push_str(&line(row, true));
    }
    out
}

/// A metric table in brief: the row (variant and the params that tell it apart), each
/// language's median, and each ratio's verdict in words (`2.0x slower`, `on par`,
/// `inconclusive`), the subject named where the row's ends are two languages.
fn brief(table: &MetricTable) -> TextTable {
    let languages: Vec<&str> = LANGUAGES
        .into_iter()
        .filter(|l| table.has_language(l))
        .collect();
    let pairs: Vec<(&str, &str)> = COMPARED
        .into_iter()
        .filter(|(a, b)| table.has_language(a) && table.has_language(b))
        .collect();
    let mut headers = vec!["row".to_string()];
    headers.extend(languages.iter().map(|l| language_title(l).to_string()));
    headers.extend(
        pairs
            .iter()
            .map(|(a, b)| format!("{} vs {}", language_title(a), language_title(b))),
    );
    let mut numeric = vec![false];
    numeric.extend(languages.iter().map(|_| true));
    numeric.extend(pairs.iter().map(|_| false));
    let verdict = |row: &Row, (num, den): (&str, &str)| -> String {
        if let Some(why) = row.parity_conflict(num, den) {
            return format!("not paired: {why}");
        }
        let Some(ratio) = row.ratio(num, den) else {
            return "-".into();
        };
        let (subject, other) = (side_name(row, num), side_name(row, den));
        let reading = read_ratio(&ratio, table.better, &table.unit, &subject, &other);
        match reading.words.strip_prefix(&format!("{subject} ")) {
            Some(rest) if subject == language_title(num) => rest.to_string(),
            _ => reading.words,
        }
    };
    let rows = table
        .rows
        .iter()
        .map(|row| {
            let label = match table.row_params(row) {
                p if p.is_empty() => row.label(),
                p => format!("{} {p}", row.label()),
            };
            let mut cells = vec![label];
            cells.extend(languages.iter().map(|l| {
                let Some(c) = row.cell(l) else {
                    return "-".into();
                };
                let figure = format::quantity(c.value, &table.unit);
                match cell_ends(row, l) {
                    Some(ends) if mixed_ends(row) => format!("{}: {figure}", ends.text()),
                    _ => figure,
                }
            }));
            cells.extend(pairs.iter().map(|p| verdict(row, *p)));
            cells
        })
        .collect();
    TextTable {
        headers,
        numeric,
        rows,
    }
}

pub(super) fn render(report: &Report) -> String {
    let mut out = wrap(&report.banner(), "sympathy compare: ", "  ");
    for item in report.attention() {
        out.push_str(&wrap(&item.brief_line(), "  ! ", "    "));
    }
    out.push_str("\n== the answer\n");
    for a in report.answers() {
        out.push_str(&wrap(
            &format!("{}: {}", a.experiment, a.sentence),
            "  ",
            "    ",
        ));
    }
    out.push_str("\n== the seeds' lessons\n");
    for f in report.findings() {
        out.push_str(&wrap(
            &format!("{}: {}", f.experiment, f.text()),
            "  ",
            "    ",
        ));
    }
    out.push_str("\n== conditions\n");
    for [what, value] in condition_rows(report) {
        out.push_str(&wrap(&value, &format!("  {what:<24} "), &" ".repeat(27)));
    }
    out.push_str(&wrap(
        "Below, each language's median and each ratio's verdict; report.md and report.html \
         add the spreads, the 95% intervals, the hop, the runs' cost and the seeds' figures.",
        "\n",
        "",
    ));
    for experiment in &report.tables.experiments {
        out.push_str(&format!("\n== {}\n", experiment.experiment));
        for metric in &experiment.metrics {
            out.push_str(&format!("-- {}\n", metric_title(metric)));
            out.push_str(&table(&brief(metric)));
        }
        for gap in crate::gaps::gaps(experiment) {
            out.push_str(&wrap(&gap.line(&experiment.experiment), "  why: ", "    "));
        }
    }
    if let Some(b) = &report.baseline {
        out.push_str(&format!("\n== against baseline {}\n", b.name));
        out.push_str(&table(&TextTable::fixed(
            BASELINE_HEADERS,
            5..8,
            baseline_texts(b),
        )));
        for missing in baseline_missing(b) {
            out.push_str(&format!("  not in this run: {missing}\n"));
        }
    }
    if !report.failures.is_empty() {
        out.push_str(&format!("\n== {} run(s) failed\n", report.failures.len()));
        for f in &report.failures {
            out.push_str(&wrap(&f.to_string(), "  ", "    "));
        }
    }
    for w in report.warnings() {
        out.push_str(&wrap(&w, "warning: ", "  "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_wraps_with_a_hanging_indent_within_the_width() {
        let text = "word ".repeat(60);
        let wrapped = wrap(&text, "  ! ", "    ");
        assert!(wrapped.lines().count() > 2);
        assert!(wrapped.lines().all(|l| l.chars().count() <= WIDTH));
        assert!(wrapped.starts_with("  ! word"));
        assert!(wrapped.lines().skip(1).all(|l| l.starts_with("    word")));
        let long = "x".repeat(300);
        assert!(
            wrap(&long, "", "")
                .lines()
                .all(|l| l.chars().count() <= WIDTH)
        );
    }

    #[test]
    fn a_wide_table_is_cut_to_the_width() {
        let t = TextTable {
            headers: vec!["row".into(), "Rust".into(), "Java vs Rust".into()],
            numeric: vec![false, true, false],
            rows: vec![vec!["a".repeat(90), "1.0 ns".into(), "b".repeat(60)]],
        };
        let text = table(&t);
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        assert!(text.contains('…'));
    }
}
