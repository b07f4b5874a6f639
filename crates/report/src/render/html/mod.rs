//! `report.html`: one self-contained page (inline CSS, inline SVG charts, no script, no link),
//! findings first: a banner naming failed runs, drifted rows and inconclusive ratios; a findings
//! panel, one line per experiment; a table of contents; then per experiment its tables and
//! charts; then the machine, the seed figures cited, the baseline, failures and warnings.

mod style;
mod tables;

use super::{
    ANSWER_NOTE, BASELINE_HEADERS, CONDITION_HEADERS, MACHINE_HEADERS, RUN_HEADERS, Report,
    baseline_texts, condition_rows, gaps_note, machine_rows, metric_title, run_rows,
};
use crate::answer::forest_rows;
use crate::chart::{self, FONT_STACK, RowLabels, escape};
use crate::ends::{MATRIX_HEADERS, matrix_rows};
use crate::findings::findings;
use crate::load_table;
use crate::table::ExperimentTable;
use sympathy_harness::catalog::catalog;
use tables::{metric_table, text_table};

/// How many names the banner lists before saying "and N more".
const BANNER_NAMES: usize = 8;

/// An id made of lower-case letters, digits and dashes.
fn slug(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn experiment_id(experiment: &str) -> String {
    format!("exp-{}", slug(experiment))
}

fn metric_id(experiment: &str, metric: &str) -> String {
    format!("exp-{}-{}", slug(experiment), slug(metric))
}

/// `names` joined by commas, the first [`BANNER_NAMES`] of them, then how many more.
fn some_names(names: &[String]) -> String {
    let shown = names
        .iter()
        .take(BANNER_NAMES)
        .map(|n| escape(n))
        .collect::<Vec<_>>()
        .join(", ");
    match names.len().saturating_sub(BANNER_NAMES) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// The banner: failed runs, drifted rows, inconclusive ratios and retried rows, each with the
/// rows it concerns and what to run; or that there are none.
fn banner(report: &Report) -> String {
    let items = report.attention();
    if items.is_empty() {
        return "<div id=\"banner\" class=\"banner ok\">Every run succeeded, no row drifted \
                and every ratio has a verdict.</div>\n"
            .into();
    }
    let lines: String = items
        .iter()
        .map(|item| {
            let mut line = format!(
                "<li><strong>{}</strong> ({}): {}",
                escape(&item.summary()),
                escape(item.why),
                some_names(&item.names)
            );
            if let Some(advice) = &item.advice {
                line.push_str(&format!(
                    ". To settle them: <code>{}</code>",
                    escape(advice)
                ));
            }
            line.push_str("</li>");
            line
        })
        .collect();
    format!("<div id=\"banner\" class=\"banner warn\">Read with care:<ul>{lines}</ul></div>\n")
}

/// The answer: one sentence per experiment and language pair, then the forest plot of every
/// paired row's ratio.
fn answer_panel(report: &Report) -> String {
    let mut out =
        String::from("<section id=\"answer\" class=\"findings\">\n<h2>The answer</h2>\n<ul>\n");
    for a in report.answers() {
        out.push_str(&format!(
            "<li><a href=\"#{}\"><strong>{}</strong></a>: {}</li>\n",
            experiment_id(&a.experiment),
            escape(&a.experiment),
            escape(&a.sentence)
        ));
    }
    out.push_str("</ul>\n");
    out.push_str(&format!(
        "<p class=\"note\">{}</p>\n",
        escape(ANSWER_NOTE.trim())
    ));
    if let Some(svg) = chart::forest_plot(
        "every paired row's cost ratio, by experiment (headline metric)",
        &forest_rows(&report.tables),
    ) {
        out.push_str(&figure(svg));
    }
    out.push_str("</section>\n");
    out
}

/// The seeds' lessons: one line per experiment that states one, linked to its section.
fn findings_panel(report: &Report) -> String {
    let mut out = String::from(
        "<section id=\"findings\" class=\"findings\">\n<h2>The seeds' lessons</h2>\n<ul>\n",
    );
    for f in findings(&report.tables) {
        let status = f
            .lesson
            .as_ref()
            .map(|(claim, status)| {
                format!(
                    "<span class=\"lesson {}\">{}</span> {}: ",
                    slug(status.text()),
                    escape(status.text()),
                    escape(claim)
                )
            })
            .unwrap_or_default();
        let mut line = format!(
            "<li><a href=\"#{}\"><strong>{}</strong></a>: {status}{}",
            experiment_id(&f.experiment),
            escape(&f.experiment),
            escape(&f.headline)
        );
        if !f.numbers.is_empty() {
            line.push_str(&format!(
                " <span class=\"numbers\">({})</span>",
                escape(&f.numbers)
            ));
        }
        if let Some(seed) = &f.seed {
            line.push_str(&format!(
                " <span class=\"seed\">The seed: {}</span>",
                escape(seed)
            ));
        }
        out.push_str(&line);
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n</section>\n");
    out
}

/// The sections after the experiments that this report has: (id, title).
fn closing_sections(report: &Report) -> Vec<(&'static str, String)> {
    let mut sections = vec![("machine", "Machine".to_string())];
    if !report.seed_figures_shown().is_empty() {
        sections.push(("seed-figures", "Seed figures".into()));
    }
    if let Some(b) = &report.baseline {
        sections.push(("baseline", format!("Against baseline {}", b.name)));
    }
    if !report.failures.is_empty() {
        sections.push(("failures", "Failed runs".into()));
    }
    if !report.warnings().is_empty() {
        sections.push(("warnings", "Warnings".into()));
    }
    sections
}

/// The table of contents: each experiment with its metrics, then the closing sections.
fn toc(report: &Report) -> String {
    let mut out = String::from("<nav id=\"toc\" class=\"toc\">\n<h2>Contents</h2>\n<ol>\n");
    for e in &report.tables.experiments {
        let metrics: Vec<String> = e
            .metrics
            .iter()
            .map(|m| {
                format!(
                    "<a href=\"#{}\">{}</a>",
                    metric_id(&e.experiment, &m.metric),
                    escape(&m.metric)
                )
            })
            .collect();
        out.push_str(&format!(
            "<li><a href=\"#{}\">{}</a><span class=\"metrics\">{}</span></li>\n",
            experiment_id(&e.experiment),
            escape(&e.experiment),
            metrics.join(", ")
        ));
    }
    for (id, title) in closing_sections(report) {
        out.push_str(&format!(
            "<li><a href=\"#{id}\">{}</a></li>\n",
            escape(&title)
        ));
    }
    out.push_str("</ol>\n</nav>\n");
    out
}

fn figure(svg: String) -> String {
    format!("<figure>\n{svg}\n</figure>\n")
}

/// One experiment: its purpose, then per metric its table and chart.
fn experiment_section(report: &Report, e: &ExperimentTable) -> String {
    let mut out = format!(
        "<section class=\"experiment\" id=\"{}\">\n<h2>{}</h2>\n",
        experiment_id(&e.experiment),
        escape(&e.experiment)
    );
    if let Some(spec) = catalog().experiment(&e.experiment) {
        out.push_str(&format!(
            "<p class=\"purpose\">{}</p>\n",
            escape(&spec.purpose)
        ));
    }
    for metric in &e.metrics {
        let title = metric_title(metric);
        out.push_str(&format!(
            "<h3 id=\"{}\">{}</h3>\n",
            metric_id(&e.experiment, &metric.metric),
            escape(&title)
        ));
        let labels = RowLabels::of(&metric.rows);
        if !labels.common.is_empty() {
            out.push_str(&format!(
                "<p class=\"params\">params of every row: <code>{}</code></p>\n",
                escape(&labels.common)
            ));
        }
        out.push_str(&metric_table(metric, &labels));
        let rows = matrix_rows(metric);
        if !rows.is_empty() {
            out.push_str("<p class=\"params\">Who sent what, each against Rust -&gt; Rust:</p>\n");
            out.push_str(&text_table(MATRIX_HEADERS, 2, &rows));
        }
        if let Some(svg) = chart::bar_chart(&format!("{}: {title}", e.experiment), metric) {
            out.push_str(&figure(svg));
        }
    }
    let gaps = crate::gaps::gaps(e);
    if !gaps.is_empty() {
        out.push_str(&format!(
            "<h3>why the gaps</h3>\n<p class=\"params\">{}</p>\n<ul class=\"gaps\">\n",
            escape(&gaps_note())
        ));
        for gap in &gaps {
            out.push_str(&format!("<li>{}</li>\n", escape(&gap.line(&e.experiment))));
        }
        out.push_str("</ul>\n");
    }
    let runs = run_rows(report, &e.experiment);
    if !runs.is_empty() {
        out.push_str("<h3>runs</h3>\n<p class=\"params\">What each run of the experiment cost \
                      (every row above comes from these runs; CPU counts its child processes).</p>\n");
        out.push_str(&text_table(RUN_HEADERS, 1, &runs));
    }
    if load_table::has_load_view(&e.experiment) {
        let points = load_table::load_points(&report.merged, &e.experiment);
        if !points.is_empty() {
            out.push_str("<h3 id=\"latency-vs-load\">latency vs load</h3>\n");
            if let Some(caption) = load_table::caption(&points) {
                out.push_str(&format!("<p>{}</p>\n", escape(&caption)));
            }
            out.push_str(&text_table(
                load_table::HEADERS,
                2,
                &load_table::texts(&points),
            ));
            if let Some(svg) = chart::latency_vs_load(&e.experiment, &points) {
                out.push_str(&figure(svg));
            }
        }
    }
    out.push_str("</section>\n");
    out
}

/// The seed figures cited in the tables, with their citations.
fn seed_figures(report: &Report) -> String {
    let mut out = String::from("<ul>\n");
    for shown in report.seed_figures_shown() {
        let f = shown.figure;
        out.push_str(&format!(
            "<li>{} {} <code>{}</code>{}: {} {} ({}; {}) {}</li>\n",
            escape(shown.experiment),
            escape(&shown.variant_label()),
            escape(&f.metric),
            match shown.params_label() {
                p if p.is_empty() => p,
                p => format!(" at {}", escape(&p)),
            },
            escape(&sympathy_harness::format::value(f.value)),
            escape(&f.language),
            escape(&f.hardware),
            escape(&f.citation),
            escape(&f.note),
        ));
    }
    out.push_str("</ul>\n");
    out
}

pub(super) fn render(report: &Report) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>sympathy compare</title>\n<style>\nbody{{font-family:{FONT_STACK}}}\n{}</style>\n\
         </head>\n<body>\n<h1>sympathy compare: Rust, Java and C side by side</h1>\n\
         <p class=\"lede\">Each figure is the median over the rounds, in readable units, with the \
         runs' min..max beneath it. A round runs both languages back to back; a ratio is taken \
         round by round, with its 95% interval beneath it in the same sense as its words, and \
         a word (faster, slower, on par) only when that interval allows it. Bars: Rust orange, \
         Java blue, C dark grey, the seed's published figure light grey; whiskers span the \
         runs.</p>\n",
        style::STYLE
    );
    out.push_str(&banner(report));
    out.push_str(&answer_panel(report));
    out.push_str(&findings_panel(report));
    out.push_str("<section id=\"conditions\">\n<h2>Conditions</h2>\n");
    out.push_str(&text_table(
        CONDITION_HEADERS,
        usize::MAX,
        &condition_rows(report),
    ));
    out.push_str("</section>\n");
    out.push_str(&toc(report));
    for e in &report.tables.experiments {
        out.push_str(&experiment_section(report, e));
    }
    for (id, title) in closing_sections(report) {
        out.push_str(&format!(
            "<section id=\"{id}\">\n<h2>{}</h2>\n",
            escape(&title)
        ));
        match id {
            "machine" => out.push_str(&text_table(
                MACHINE_HEADERS,
                usize::MAX,
                &machine_rows(&report.merged.envs),
            )),
            "seed-figures" => out.push_str(&seed_figures(report)),
            "baseline" => {
                if let Some(b) = &report.baseline {
                    out.push_str(&text_table(BASELINE_HEADERS, 5, &baseline_texts(b)));
                }
            }
            "failures" => {
                out.push_str("<ul>\n");
                for f in &report.failures {
                    out.push_str(&format!(
                        "<li class=\"failure\">{}</li>\n",
                        escape(&f.to_string())
                    ));
                }
                out.push_str("</ul>\n");
            }
            _ => {
                out.push_str("<ul>\n");
                for w in report.warnings() {
                    out.push_str(&format!("<li>{}</li>\n", escape(&w)));
                }
                out.push_str("</ul>\n");
            }
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use crate::{Merged, Report, parse_jsonl};

    /// The page of results of `metric` as (language, variant, value).
    fn html(metric: &str, lines: &[(&str, &str, f64)]) -> String {
        let text: Vec<String> = lines
            .iter()
            .map(|(lang, variant, value)| {
                format!(
                    r#"{{"kind":"result","experiment":"demo","language":"{lang}","variant":"{variant}","params":{{"size":64}},"metric":"{metric}","value":{value},"unit":"ns","stats":{{"runs":3,"median":{value},"min":{},"max":{}}},"check":"ok"}}"#,
                    value * 0.9,
                    value * 2.5
                )
            })
            .collect();
        Report::new(Merged::from_streams([
            parse_jsonl("t", &text.join("\n")).unwrap()
        ]))
        .html()
    }

    #[test]
    fn a_metric_without_direction_is_never_called_better() {
        let html = html("thread_share", &[("rust", "a", 0.5), ("java", "a", 0.4)]);
        assert!(html.contains("thread_share (ratio)"), "{html}");
        assert!(!html.contains("is better"), "{html}");
    }

    #[test]
    fn findings_come_first_and_wide_spans_get_a_log_axis() {
        let html = html("write_ns", &[("rust", "a", 9.0), ("java", "b", 1800.0)]);
        let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("{needle}"));
        assert!(at("id=\"banner\"") < at("id=\"answer\""));
        assert!(at("id=\"answer\"") < at("id=\"findings\""));
        assert!(at("id=\"findings\"") < at("id=\"conditions\""));
        assert!(at("id=\"conditions\"") < at("id=\"toc\""));
        assert!(at("id=\"toc\"") < at("class=\"experiment\""));
        assert!(html.contains("log scale"), "9 ns to 1.8 µs spans 200x");
        // The common param is said once, above the table and in the chart's header.
        assert!(html.contains("params of every row: <code>size=64</code>"));
        assert!(html.contains("params of every bar: size=64"));
        // No pair, no ratio: nothing for the banner to doubt, and no row is marked.
        assert!(html.contains("class=\"banner ok\""), "{html}");
        assert!(!html.contains("class=\"mark"), "{html}");
    }
}
