//! Self-contained HTML pages (`report.html`): one file with its style and script inline and
//! nothing fetched, so it opens from a CI artifact or a mail attachment as it is.
//!
//! [`Page`] owns the page's shape (summary cards, sortable tables, collapsible text, inline SVG
//! charts); [`crate::verify::html`], [`crate::corpus::html`] and [`crate::fuzz::html`] fill it
//! in from their models.

use crate::counts::{Counts, Distance};

/// Text made safe inside HTML elements and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An anchor id made of `s`'s letters and digits (others become `-`).
pub fn anchor(prefix: &str, s: &str) -> String {
    let body: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("{prefix}-{body}")
}

/// One table cell: its text (escaped when written), how it sorts, and an optional link.
#[derive(Debug, Clone)]
pub struct Cell {
    text: String,
    sort: Option<f64>,
    href: Option<String>,
    class: &'static str,
}

impl Cell {
    /// A text cell, sorted by its text.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell {
            text: s.into(),
            sort: None,
            href: None,
            class: "",
        }
    }

    /// A number, right-aligned and sorted numerically.
    pub fn num(n: u64) -> Cell {
        Cell {
            text: n.to_string(),
            sort: Some(n as f64),
            href: None,
            class: "n",
        }
    }

    /// Text that sorts by `rank` (a bucket label, seconds with a unit).
    pub fn ranked(s: impl Into<String>, rank: f64) -> Cell {
        Cell {
            text: s.into(),
            sort: Some(rank),
            href: None,
            class: "n",
        }
    }

    /// Monospaced text (a hex word, an id).
    pub fn code(s: impl Into<String>) -> Cell {
        Cell {
            class: "c",
            ..Cell::text(s)
        }
    }

    /// The same cell, linking to `href` (an `#anchor` on the page).
    pub fn link(mut self, href: impl Into<String>) -> Cell {
        self.href = Some(href.into());
        self
    }

    /// The same cell, highlighted as bad when `bad` (a nonzero mismatch count).
    pub fn bad_if(mut self, bad: bool) -> Cell {
        if bad {
            self.class = if self.class == "n" { "n bad" } else { "bad" };
        }
        self
    }
}

/// A column header: its title, and whether its cells are numbers.
#[derive(Debug, Clone, Copy)]
pub struct Col {
    /// The header text.
    pub title: &'static str,
    /// Right-aligned, numerically sorted.
    pub numeric: bool,
}

/// A text column.
pub const fn col(title: &'static str) -> Col {
    Col {
        title,
        numeric: false,
    }
}

/// A numeric column.
pub const fn num(title: &'static str) -> Col {
    Col {
        title,
        numeric: true,
    }
}

/// The columns of a row of verdict counts, in [`Counts`] order.
pub const VERDICT_COLS: [Col; 6] = [
    num("lanes"),
    num("match"),
    num("within tolerance"),
    num("adapted"),
    num("mismatch"),
    num("inconclusive"),
];

/// The cells under [`VERDICT_COLS`]; a nonzero mismatch count is highlighted.
pub fn verdict_cells(c: &Counts) -> [Cell; 6] {
    [
        Cell::num(c.lanes),
        Cell::num(c.matched),
        Cell::num(c.within),
        Cell::num(c.adapted),
        Cell::num(c.mismatch).bad_if(c.mismatch > 0),
        Cell::num(c.inconclusive),
    ]
}

/// A page being written.
#[derive(Debug, Clone)]
pub struct Page {
    title: String,
    body: String,
}

const STYLE: &str = "
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 24px 48px;color:#1b1f24;background:#fff}
h1{font-size:24px;margin:24px 0 4px}h2{font-size:19px;margin:32px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
h3{font-size:16px;margin:20px 0 6px}.sub{color:#57606a;margin:0 0 16px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}
.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;min-width:110px}
.card b{display:block;font-size:20px}.card span{color:#57606a;font-size:12px}
.card.bad{border-color:#cf222e;background:#ffebe9}.card.good{border-color:#1a7f37;background:#dafbe1}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;cursor:pointer;user-select:none;white-space:nowrap}
th[data-dir=asc]::after{content:' \\25B2'}th[data-dir=desc]::after{content:' \\25BC'}
td.n{text-align:right;font-variant-numeric:tabular-nums}td.c,.c{font-family:ui-monospace,monospace}
td.bad,td.n.bad{background:#ffebe9;color:#cf222e;font-weight:600}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:8px;overflow:auto;max-height:480px;font-size:12px;margin:4px 0}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.hist{display:inline-block;margin:4px 16px 12px 0;vertical-align:top}.hist div{font-size:12px}
.legend span{display:inline-block;margin-right:12px;font-size:12px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
details summary{cursor:pointer;color:#0969da}
";

/// Click a header to sort its table by that column; numbers sort by `data-v`.
const SCRIPT: &str = "
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th) {
    th.addEventListener('click', function () {
      var i = th.cellIndex, numeric = th.dataset.type === 'num';
      var up = th.dataset.dir !== 'asc';
      table.querySelectorAll('th').forEach(function (o) { delete o.dataset.dir; });
      th.dataset.dir = up ? 'asc' : 'desc';
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[i], y = b.cells[i], r;
        if (numeric) { r = parseFloat(x.dataset.v || '0') - parseFloat(y.dataset.v || '0'); }
        else { r = x.textContent.localeCompare(y.textContent); }
        return up ? r : -r;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
";

/// Verdict colours, in [`Counts`] order: match, within, adapted, mismatch, inconclusive.
const VERDICT_COLOURS: [(&str, &str); 5] = [
    ("match", "#2da44e"),
    ("within tolerance", "#54aeff"),
    ("adapted", "#bf8700"),
    ("mismatch", "#cf222e"),
    ("inconclusive", "#8c959f"),
];

impl Page {
    /// A page titled `title`, with `subtitle` under the heading.
    pub fn new(title: &str, subtitle: &str) -> Page {
        Page {
            title: title.to_string(),
            body: format!(
                "<h1>{}</h1>\n<p class=\"sub\">{}</p>\n",
                escape(title),
                escape(subtitle)
            ),
        }
    }

    /// A section heading, with an anchor.
    pub fn heading(&mut self, id: &str, text: &str) {
        self.body += &format!("<h2 id=\"{}\">{}</h2>\n", escape(id), escape(text));
    }

    /// A smaller heading, with an anchor.
    pub fn subheading(&mut self, id: &str, text: &str) {
        self.body += &format!("<h3 id=\"{}\">{}</h3>\n", escape(id), escape(text));
    }

    /// A paragraph of text.
    pub fn para(&mut self, text: &str) {
        self.body += &format!("<p>{}</p>\n", escape(text));
    }

    /// A bulleted list.
    pub fn list(&mut self, items: &[String]) {
        self.body += "<ul>\n";
        for i in items {
            self.body += &format!("<li>{}</li>\n", escape(i));
        }
        self.body += "</ul>\n";
    }

    /// Summary cards: (label, value, tone), tone `bad`, `good` or empty.
    pub fn cards(&mut self, cards: &[(&str, String, &str)]) {
        self.body += "<div class=\"cards\">\n";
        for (label, value, tone) in cards {
            self.body += &format!(
                "<div class=\"card {}\"><b>{}</b><span>{}</span></div>\n",
                tone,
                escape(value),
                escape(label)
            );
        }
        self.body += "</div>\n";
    }

    /// The five verdict counts as cards and a stacked bar.
    pub fn verdicts(&mut self, c: &Counts) {
        let pct = |n: u64| {
            if c.lanes == 0 {
                String::new()
            } else {
                format!(" ({:.2}%)", 100.0 * n as f64 / c.lanes as f64)
            }
        };
        let values = [c.matched, c.within, c.adapted, c.mismatch, c.inconclusive];
        let mut cards = vec![("lanes compared", c.lanes.to_string(), "")];
        for ((label, _), n) in VERDICT_COLOURS.iter().zip(values) {
            let tone = match *label {
                "mismatch" if n > 0 => "bad",
                "mismatch" => "good",
                _ => "",
            };
            cards.push((label, format!("{n}{}", pct(n)), tone));
        }
        self.cards(&cards);
        if c.lanes == 0 {
            return;
        }
        let (w, h) = (800.0, 18.0);
        let mut x = 0.0;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"verdicts\">"
        );
        for ((label, colour), n) in VERDICT_COLOURS.iter().zip(values) {
            let width = w * n as f64 / c.lanes as f64;
            if width > 0.0 {
                svg += &format!(
                    "<rect x=\"{x:.2}\" y=\"0\" width=\"{width:.2}\" height=\"{h}\" fill=\"{colour}\"><title>{label}: {n}</title></rect>"
                );
            }
            x += width;
        }
        svg += "</svg>";
        self.body += &format!("<div>{svg}</div>\n<div class=\"legend\">");
        for (label, colour) in VERDICT_COLOURS {
            self.body += &format!("<span><i style=\"background:{colour}\"></i>{label}</span>");
        }
        self.body += "</div>\n";
    }

    /// A table that sorts by any column when its header is clicked.
    pub fn table(&mut self, cols: &[Col], rows: &[Vec<Cell>]) {
        self.body += "<table class=\"sortable\"><thead><tr>";
        for c in cols {
            let ty = if c.numeric { "num" } else { "text" };
            self.body += &format!("<th data-type=\"{ty}\">{}</th>", escape(c.title));
        }
        self.body += "</tr></thead><tbody>\n";
        for row in rows {
            self.body += "<tr>";
            for cell in row {
                let v = cell
                    .sort
                    .map(|v| format!(" data-v=\"{v}\""))
                    .unwrap_or_default();
                let class = if cell.class.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"{}\"", cell.class)
                };
                let text = escape(&cell.text);
                let inner = match &cell.href {
                    Some(h) => format!("<a href=\"{}\">{text}</a>", escape(h)),
                    None => text,
                };
                self.body += &format!("<td{class}{v}>{inner}</td>");
            }
            self.body += "</tr>\n";
        }
        self.body += "</tbody></table>\n";
    }

    /// Preformatted text under a caption, folded when `open` is false.
    pub fn text_block(&mut self, caption: &str, text: &str, open: bool) {
        self.body += &format!(
            "<details{}><summary>{}</summary><pre>{}</pre></details>\n",
            if open { " open" } else { "" },
            escape(caption),
            escape(text)
        );
    }

    /// Two captioned text blocks side by side (a program and its translation).
    pub fn pair(&mut self, left: (&str, &str), right: (&str, &str)) {
        self.body += "<div class=\"pair\">";
        for (caption, text) in [left, right] {
            self.body += &format!(
                "<div><div>{}</div><pre>{}</pre></div>",
                escape(caption),
                escape(text)
            );
        }
        self.body += "</div>\n";
    }

    /// A histogram of [`Distance`] buckets (as [`crate::counts::Tally::distance`] holds them)
    /// as an inline SVG bar chart, bar heights on a log scale, each bar titled with its count.
    pub fn distance_histogram(&mut self, caption: &str, buckets: &[u64]) {
        let used: Vec<usize> = (0..buckets.len()).filter(|i| buckets[*i] > 0).collect();
        let (Some(&lo), Some(&hi)) = (used.first(), used.last()) else {
            return;
        };
        let top = buckets.iter().copied().max().unwrap_or(1).max(1) as f64;
        let (bar, gap, h, label_h) = (14.0, 2.0, 60.0, 44.0);
        let n = hi - lo + 1;
        let w = n as f64 * (bar + gap) + 8.0;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{:.0}\" role=\"img\" aria-label=\"{}\">",
            h + label_h,
            escape(caption)
        );
        for (j, i) in (lo..=hi).enumerate() {
            let count = buckets[i];
            let x = 4.0 + j as f64 * (bar + gap);
            let bh = if count == 0 {
                0.0
            } else {
                (h - 4.0) * ((count as f64).ln_1p() / top.ln_1p()).max(0.06)
            };
            let label = Distance::label(i);
            let colour = if i == Distance::Other.index() {
                "#8c959f"
            } else {
                "#0969da"
            };
            svg += &format!(
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar}\" height=\"{bh:.1}\" fill=\"{colour}\"><title>{} ULP: {count} lanes</title></rect>",
                h - bh,
                escape(&label)
            );
            svg += &format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" transform=\"rotate(60 {:.1} {:.1})\">{}</text>",
                x + 3.0,
                h + 8.0,
                x + 3.0,
                h + 8.0,
                escape(&label)
            );
        }
        svg += "</svg>";
        self.body += &format!(
            "<div class=\"hist\"><div>{}</div>{svg}</div>\n",
            escape(caption)
        );
    }

    /// The whole document.
    pub fn finish(self) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n{}<script>{SCRIPT}</script>\n</body></html>\n",
            escape(&self.title),
            self.body
        )
    }
}

/// A word as the report shows it: hex, and as a float when it reads as one.
pub fn word(w: u32) -> String {
    let f = f32::from_bits(w);
    if f.is_nan() {
        format!("0x{w:08x} (NaN)")
    } else {
        format!("0x{w:08x} ({f:e})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_tables_sort() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let mut p = Page::new("t <1>", "s");
        p.table(
            &[col("name"), num("lanes")],
            &[vec![
                Cell::text("<script>").link("#p-x"),
                Cell::num(7).bad_if(true),
            ]],
        );
        p.distance_histogram("add", &{
            let mut b = vec![0; Distance::BUCKETS];
            b[1] = 10;
            b[33] = 1;
            b
        });
        let html = p.finish();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<title>t &lt;1&gt;</title>"));
        assert!(html.contains("<a href=\"#p-x\">&lt;script&gt;</a>"));
        assert!(html.contains("<td class=\"n bad\" data-v=\"7\">7</td>"));
        assert!(html.contains("<th data-type=\"num\">lanes</th>"));
        // Buckets 1..=33 are drawn, the empty ones as zero-height bars.
        assert_eq!(html.matches("<rect ").count(), 33);
        assert!(html.contains("<title>1 ULP: 10 lanes</title>"));
        assert!(html.contains("<title>NaN/discard ULP: 1 lanes</title>"));
        // Nothing is fetched: no sources, no links off the page.
        assert!(!html.contains("src=") && !html.contains("href=\"http"));
        assert_eq!(anchor("p", "corpus:a/b.o"), "p-corpus-a-b-o");
        assert_eq!(word(0x3f80_0000), "0x3f800000 (1e0)");
    }
}
