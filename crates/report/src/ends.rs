//! Who sent what: the two ends of a result measured between two processes (ipc, messaging),
//! read from its `producer` and `consumer` params, and the producer -> consumer matrix of a
//! throughput table.
//!
//! A cross-language row pairs a Rust result and a Java result whose ends are both in two
//! languages (ring-cross: Rust's figure was a Java producer feeding a Rust consumer, Java's the
//! reverse), so its cells are named by their ends, never by one language alone, and the
//! answer leaves it out ([`mixed_ends`]). The matrix puts every producer against every consumer
//! with each cell's ratio to Rust -> Rust, taken round by round.

use sympathy_harness::catalog::Better;

use crate::record::ResultRecord;
use crate::stats::RatioInterval;
use crate::table::{Cell, MetricTable, Row, language_title, pair_ratios};
use crate::words::read_ratio;

/// The two ends of a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ends {
    /// The producing (for an echo: pinging) process's side: `Rust`, `Java`, `Java (JNI)`.
    pub producer: String,
    /// The consuming (for an echo: echoing) process's side.
    pub consumer: String,
    /// Whether the result is a round trip (the producer pings, the consumer echoes).
    pub echo: bool,
}

impl Ends {
    /// `Java -> Rust`, or for an echo `Java pings, Rust echoes`.
    pub fn text(&self) -> String {
        if self.echo {
            format!("{} pings, {} echoes", self.producer, self.consumer)
        } else {
            format!("{} -> {}", self.producer, self.consumer)
        }
    }

    /// Whether both ends are Rust.
    fn rust_to_rust(&self) -> bool {
        self.producer == "Rust" && self.consumer == "Rust"
    }
}

/// A side as the report names it: the language, and for Java the ring it drives when the
/// variant says (`Java (JNI)` for an `-jni` variant); an end of several languages joined
/// (`rust+java`: `Rust + Java`).
fn side(language: &str, variant: &str) -> String {
    if language.contains('+') {
        // Several processes of different languages at this end (mpsc-mixed: `rust+java`).
        return language
            .split('+')
            .map(|l| side(l, variant))
            .collect::<Vec<_>>()
            .join(" + ");
    }
    let title = language_title(language);
    match (language, variant.rsplit('-').next()) {
        ("java", Some("jni")) => format!("{title} (JNI)"),
        _ => title.to_string(),
    }
}

/// The ends of `result`, when it carries `producer` and `consumer` params.
pub fn ends_of(result: &ResultRecord) -> Option<Ends> {
    let producer = result.params.get("producer")?;
    let consumer = result.params.get("consumer")?;
    Some(Ends {
        producer: side(producer, &result.variant),
        consumer: side(consumer, &result.variant),
        echo: result.variant.starts_with("echo"),
    })
}

/// The ends of `row`'s cell of `language` (its first round's).
pub fn cell_ends(row: &Row, language: &str) -> Option<Ends> {
    ends_of(row.cell(language)?.rounds().first()?)
}

/// Whether some cell of `row` was measured between processes of two languages.
pub fn mixed_ends(row: &Row) -> bool {
    row.present_cells()
        .filter_map(|(language, _)| cell_ends(row, language))
        .any(|e| e.producer.split(' ').next() != e.consumer.split(' ').next())
}

/// How the row's cell of `language` is named in a ratio: its ends when the row is
/// [mixed](mixed_ends), else the language.
pub fn side_name(row: &Row, language: &str) -> String {
    match cell_ends(row, language) {
        Some(ends) if mixed_ends(row) => ends.text(),
        _ => language_title(language).to_string(),
    }
}

/// One cell of a matrix: its ends, figure and ratio to Rust -> Rust.
#[derive(Debug, Clone)]
pub struct MatrixCell<'a> {
    /// Who sent what.
    pub ends: Ends,
    /// The figures.
    pub cell: &'a Cell,
    /// This cell over Rust -> Rust's, round by round (`None` for Rust -> Rust itself, or
    /// without a common round).
    pub to_rust: Option<RatioInterval>,
}

/// The producer -> consumer cells of one work (a variant family at one set of params).
#[derive(Debug, Clone)]
pub struct Matrix<'a> {
    /// `ring size_bytes=64`: the family and its params.
    pub work: String,
    /// Its cells, Rust -> Rust first.
    pub cells: Vec<MatrixCell<'a>>,
}

/// The family a variant belongs to: `ring-cross` is `ring` between languages.
fn family(variant: &str) -> &str {
    variant.find("-cross").map_or(variant, |at| &variant[..at])
}

/// The matrices of a throughput table whose results name their ends (none for other tables):
/// one per family and params (`sender` aside, which the ends say), every cell with its ratio
/// to Rust -> Rust.
pub fn matrices(table: &MetricTable) -> Vec<Matrix<'_>> {
    if table.better != Better::Higher {
        return Vec::new();
    }
    let mut out: Vec<Matrix<'_>> = Vec::new();
    for row in &table.rows {
        for (language, cell) in row.present_cells() {
            let Some(ends) = cell_ends(row, language) else {
                continue;
            };
            if ends.echo {
                continue;
            }
            let params: Vec<String> = row
                .key
                .params
                .iter()
                .filter(|(k, _)| k.as_str() != "sender")
                .map(|(k, v)| crate::merge::param_text(k, v))
                .collect();
            let work = format!("{} {}", family(&row.key.variant), params.join(" "))
                .trim_end()
                .to_string();
            let entry = MatrixCell {
                ends,
                cell,
                to_rust: None,
            };
            match out.iter_mut().find(|m| m.work == work) {
                Some(m) if !m.cells.iter().any(|c| c.ends == entry.ends) => m.cells.push(entry),
                Some(_) => {}
                None => out.push(Matrix {
                    work,
                    cells: vec![entry],
                }),
            }
        }
    }
    for matrix in &mut out {
        matrix.cells.sort_by_key(|c| {
            (
                !c.ends.rust_to_rust(),
                c.ends.producer.clone(),
                c.ends.consumer.clone(),
            )
        });
        let reference = matrix
            .cells
            .iter()
            .find(|c| c.ends.rust_to_rust())
            .map(|c| c.cell);
        for c in &mut matrix.cells {
            if !c.ends.rust_to_rust() {
                c.to_rust =
                    reference.and_then(|r| RatioInterval::of_pairs(&pair_ratios(c.cell, r)));
            }
        }
    }
    out.retain(|m| m.cells.len() > 1);
    out
}

/// Every matrix of `table` as text rows: the work, `producer -> consumer`, the figure, the
/// ratio to Rust -> Rust in words ([`read_ratio`]).
pub fn matrix_rows(table: &MetricTable) -> Vec<[String; 4]> {
    matrices(table)
        .iter()
        .flat_map(|m| matrix_texts(table, m))
        .collect()
}

/// A matrix as text rows: the work, `producer -> consumer`, figure, ratio to Rust -> Rust.
fn matrix_texts(table: &MetricTable, matrix: &Matrix<'_>) -> Vec<[String; 4]> {
    matrix
        .cells
        .iter()
        .map(|c| {
            let ratio = match &c.to_rust {
                Some(r) => {
                    read_ratio(r, table.better, &table.unit, &c.ends.text(), "Rust -> Rust").text()
                }
                None if c.ends.rust_to_rust() => "the reference".into(),
                None => "-".into(),
            };
            [
                matrix.work.clone(),
                c.ends.text(),
                c.cell.text(&table.unit),
                ratio,
            ]
        })
        .collect()
}

/// Headers of [`matrix_texts`].
pub const MATRIX_HEADERS: [&str; 4] = [
    "work",
    "producer -> consumer",
    "figure",
    "against Rust -> Rust",
];

#[cfg(test)]
mod tests {
    use super::side;

    #[test]
    fn an_end_of_several_languages_names_each() {
        assert_eq!(side("rust+java", "mpsc-mixed"), "Rust + Java");
        assert_eq!(side("java", "echo-cross-jni"), "Java (JNI)");
        assert_eq!(side("rust", "ring"), "Rust");
    }
}
