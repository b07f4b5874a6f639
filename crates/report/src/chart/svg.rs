//! Writing SVG by hand: escaping, text measured by estimate, wrapping, and an element writer.
//!
//! Text is laid out with a generous estimate of glyph widths (no font file is read), so the
//! charts render the same on any machine and text given room by the estimate is never clipped.

use std::fmt::Write;

/// The font stack of the page and its charts: the platform's UI font, then common fallbacks.
pub(crate) const FONT_STACK: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, \
'Helvetica Neue', 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/// `text` with `&`, `<`, `>` and `"` escaped, for HTML and SVG alike: `a<b` is `a&lt;b`.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Estimated width in px of `text` at font size `size` px (a wide average glyph, 0.62 em).
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.62
}

/// `text` broken at spaces into at most `max_lines` lines of at most `max_width` px; a word
/// longer than a line is cut. Returns the lines and whether anything was cut short (the last
/// line then ends with `…`, and the caller shows the whole text as a tooltip).
pub(super) fn wrap(text: &str, size: f64, max_width: f64, max_lines: usize) -> (Vec<String>, bool) {
    let max_chars = ((max_width / (size * 0.62)).floor() as usize).max(4);
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        let joined = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if joined.chars().count() <= max_chars {
            current = joined;
        } else {
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            current = word.to_string();
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    let mut cut = lines.len() > max_lines;
    lines.truncate(max_lines);
    for (i, line) in lines.iter_mut().enumerate() {
        let last = i + 1 == max_lines;
        if line.chars().count() > max_chars || (cut && last) {
            let keep: String = line.chars().take(max_chars - 1).collect();
            *line = format!("{}…", keep.trim_end());
            cut = true;
        }
    }
    (lines, cut)
}

/// How a piece of text is drawn.
#[derive(Debug, Clone, Copy)]
pub(super) struct TextStyle {
    /// Font size, px (never under 12).
    pub size: f64,
    /// Fill colour.
    pub fill: &'static str,
    /// Bold or not.
    pub bold: bool,
}

/// Chart titles.
pub(super) const TITLE: TextStyle = TextStyle {
    size: 14.0,
    fill: "#1a1a1a",
    bold: true,
};
/// Group labels.
pub(super) const LABEL: TextStyle = TextStyle {
    size: 13.0,
    fill: "#1a1a1a",
    bold: false,
};
/// Notes, ticks, params and legends.
pub(super) const NOTE: TextStyle = TextStyle {
    size: 12.0,
    fill: "#4a4a4a",
    bold: false,
};

/// Where a text's x is: its start, middle or end.
#[derive(Debug, Clone, Copy)]
pub(super) enum Anchor {
    Start,
    Middle,
    End,
}

/// An SVG document being written, sized by its view box and scaled to the page's width.
pub(super) struct Svg {
    out: String,
}

impl Svg {
    /// Opens an `<svg>` of `width` x `height` user units, at most `width` px wide on the page
    /// and narrower on a narrower page; `title` names it for screen readers and tooltips.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" \
             width=\"{width:.0}\" height=\"{height:.0}\" \
             style=\"width:100%;max-width:{width:.0}px;height:auto\" role=\"img\" \
             font-family=\"{}\"><title>{}</title>\n",
            FONT_STACK,
            escape(title)
        );
        Svg { out }
    }

    /// A text at (`x`, `y`: its baseline), with a tooltip when `tooltip` is given.
    pub fn text(
        &mut self,
        (x, y): (f64, f64),
        style: TextStyle,
        anchor: Anchor,
        text: &str,
        tooltip: Option<&str>,
    ) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let weight = if style.bold {
            " font-weight=\"600\""
        } else {
            ""
        };
        let tip = tooltip
            .map(|t| format!("<title>{}</title>", escape(t)))
            .unwrap_or_default();
        let _ = writeln!(
            self.out,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{}\" fill=\"{}\" text-anchor=\"{anchor}\"{weight}>{tip}{}</text>",
            style.size,
            style.fill,
            escape(text)
        );
    }

    /// A filled rectangle, with a tooltip when `tooltip` is given.
    pub fn rect(&mut self, (x, y, w, h): (f64, f64, f64, f64), fill: &str, tooltip: Option<&str>) {
        let _ = write!(
            self.out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"{fill}\""
        );
        match tooltip {
            Some(t) => {
                let _ = writeln!(self.out, "><title>{}</title></rect>", escape(t));
            }
            None => self.out.push_str("/>\n"),
        }
    }

    /// A line from `a` to `b`; `dash` is an SVG dash array (`""` for solid).
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: &str, width: f64, dash: &str) {
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = writeln!(
            self.out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>",
            a.0, a.1, b.0, b.1
        );
    }

    /// Markup written as is (already escaped).
    pub fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
    }

    /// The finished `<svg>` element.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }

    #[test]
    fn long_text_wraps_then_is_cut_with_an_ellipsis() {
        let (lines, cut) = wrap("short words only", 13.0, 300.0, 2);
        assert_eq!((lines, cut), (vec!["short words only".to_string()], false));
        let text = "placement=cross-core count=10000000 payload=256 producers=4 consumers=4";
        let (lines, cut) = wrap(text, 13.0, 120.0, 2);
        assert_eq!(lines.len(), 2);
        assert!(cut);
        assert!(lines[1].ends_with('…'), "{lines:?}");
        assert!(
            lines.iter().all(|l| text_width(l, 13.0) <= 120.0 + 8.0),
            "{lines:?}"
        );
    }
}
