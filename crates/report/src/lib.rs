//! The Rust-vs-Java report of `sympathy compare`.
//!
//! Results of every language arrive as JSON Lines in the schema of `docs/results.md`. This crate
//! turns them into the side-by-side report:
//!
//! - [`parse_jsonl`]: one stream (`env` and `result` records), errors name `file:line`.
//! - [`Merged::from_streams`]: several streams (one per language and experiment) in one.
//! - [`Tables::build`]: pairs results by (experiment, variant, work params, metric), one row
//!   per pairing with a cell per language holding every round of `compare` (`conditions`,
//!   [`Conditions`]), the ratio of two languages as the median of the per-round ratios
//!   ([`Row::ratio`]), the hop probed around the runs ([`Row::hop`], [`Row::drifted`]) and the
//!   seed's published figure ([`figures_for`]).
//! - [`findings`]: one line per experiment, by the rule of its catalog entry (`headline`). What pairs comes from the experiment catalog
//!   (`sympathy_harness::catalog`, `experiments/*.toml`): which params describe the work, the
//!   Java names of variants named differently (dispatch: `mono`/`bi`/`mega` pair with
//!   `dyn-1`/`dyn-2`/`dyn-4`, [`pairing_variant`]), metric units and directions, and the seed
//!   figures.
//! - [`gaps`]: beside every row whose interval puts one side more than [`LARGE_GAP`] times
//!   behind, the cause and evidence from the catalog's `[[gaps]]` entries.
//! - back-pressure gets one more table, latency against offered load per variant and language,
//!   and in HTML a latency-vs-load line chart (p99, log scale).
//! - [`baseline::compare`]: the ratio new/old of every result line found in an older file.
//! - [`render`]: the banner, findings and tables in the terminal and `report.md`, a
//!   self-contained `report.html` with inline SVG bar charts, and the merged `results.jsonl`.
//!
//! # Examples
//!
//! ```
//! use sympathy_report::{parse_jsonl, Merged, Report, Tables};
//!
//! let rust = r#"{"kind":"env","language":"rust","cpu_model":"cpu","cores":2}
//! {"kind":"result","experiment":"ping-pong","language":"rust","variant":"xadd","params":{},"metric":"ns_per_hop","value":64.0,"unit":"ns","stats":{"runs":3,"median":64.0,"min":63.0,"max":66.0},"check":"ok"}"#;
//! let java = r#"{"kind":"result","experiment":"ping-pong","language":"java","variant":"xadd","params":{},"metric":"ns_per_hop","value":80.0,"unit":"ns","stats":{"runs":3,"median":80.0,"min":79.0,"max":82.0},"check":"ok"}"#;
//! let merged = Merged::from_streams(vec![
//!     parse_jsonl("rust.jsonl", rust).unwrap(),
//!     parse_jsonl("java.jsonl", java).unwrap(),
//! ]);
//! let tables = Tables::build(&merged);
//! let row = &tables.experiments[0].metrics[0].rows[0];
//! assert_eq!(row.java_over_rust(), Some(1.25));
//! let report = Report::new(merged);
//! assert!(report.markdown().contains("| xadd |"));
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

mod answer;
pub mod baseline;
mod chart;
mod ends;
mod failure;
mod findings;
mod gaps;
mod load_table;
mod merge;
mod parse;
mod record;
pub mod render;
mod seed_figures;
mod stats;
mod table;
mod words;

pub use answer::{Answer, answers};
pub use ends::{Ends, cell_ends, ends_of, mixed_ends};
pub use failure::retried_suffix;
pub use findings::{Finding, LessonStatus, findings};
pub use gaps::{Gap, LARGE_GAP, evidence_text, gaps};
pub use merge::{Merged, PairKey, pairing_variant, param_text, variant_label};
pub use parse::{ParseError, Stream, parse_jsonl, read_jsonl};
pub use record::{ComparisonRecord, Conditions, EnvRecord, ResultRecord, Source, Spread};
pub use render::{Report, RunFailure};
pub use seed_figures::{SeedFigure, figures_for};
pub use stats::{ENOUGH_PAIRS, PARITY_PERCENT, RatioInterval, Verdict, parity_bound};
pub use table::{
    COMPARED, Cell, DRIFT_LIMIT_PERCENT, ExperimentTable, HopRange, LANGUAGES, MetricTable,
    NOISY_SPREAD, Row, Tables, language_title, median, pair_ratios, round_ratios,
};
pub use words::{RatioReading, read_ratio};
