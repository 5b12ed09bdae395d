//! A self-contained HTML report of an evaluation (inline SVG and CSS: no script, no file or network
//! reference): recall@k curves of every ranker, the not-found calibration curve of the first ranker
//! (precision and recall of `not_found` against the cut on the best tool's confidence, with the cut in
//! force marked), and the per-query table. Pure code.

use std::fmt::Write;

use crate::metrics::QueryOutcome;
use crate::queries::{Kind, Query};
use crate::report::Report;

/// Line colours, one per ranker (and per curve).
const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

/// What the report shows.
#[derive(Debug)]
pub struct HtmlReport<'a> {
    /// Its title (the query files).
    pub title: &'a str,
    /// Every ranker's aggregate, the first being the one decided on (the engine).
    pub reports: &'a [Report],
    /// The cut-offs of `recall_at`.
    pub ks: &'a [usize],
    /// The queries, in the order of `outcomes`.
    pub queries: &'a [Query],
    /// The first ranker's outcome per query.
    pub outcomes: &'a [QueryOutcome],
    /// The request cut in force (the first ranker's), if it has one.
    pub cut: Option<f32>,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A line chart: `series` of `(name, points)` with x and y in [0, 1] after scaling by the axes.
struct Chart<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    x_max: f64,
    x_ticks: Vec<f64>,
    series: Vec<(String, Vec<(f64, f64)>)>,
    marker: Option<(f64, String)>,
}

impl Chart<'_> {
    fn svg(&self) -> String {
        let (w, h, left, bottom, top, right) = (560.0, 320.0, 50.0, 40.0, 30.0, 150.0);
        let (pw, ph) = (w - left - right, h - top - bottom);
        let x = |v: f64| left + v / self.x_max * pw;
        let y = |v: f64| top + (1.0 - v) * ph;
        let mut s = String::new();
        let _ = write!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img"><title>{t}</title>
<text x="{left}" y="18" font-size="14" font-weight="bold">{t}</text>
<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fafafa" stroke="#999"/>"##,
            t = escape(self.title)
        );
        for i in 0..=4 {
            let v = f64::from(i) / 4.0;
            let _ = write!(
                s,
                r##"<line x1="{left}" x2="{}" y1="{yy}" y2="{yy}" stroke="#ddd"/><text x="{}" y="{}" font-size="11" text-anchor="end">{v:.2}</text>"##,
                left + pw,
                left - 4.0,
                y(v) + 4.0,
                yy = y(v)
            );
        }
        for &t in &self.x_ticks {
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" font-size="11" text-anchor="middle">{t}</text>"##,
                x(t),
                top + ph + 14.0
            );
        }
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text><text x="12" y="{}" font-size="12" transform="rotate(-90 12 {})" text-anchor="middle">{}</text>"##,
            left + pw / 2.0,
            h - 6.0,
            escape(self.x_label),
            top + ph / 2.0,
            top + ph / 2.0,
            escape(self.y_label)
        );
        if let Some((at, label)) = &self.marker {
            let _ = write!(
                s,
                r##"<line x1="{xx}" x2="{xx}" y1="{top}" y2="{}" stroke="#000" stroke-dasharray="4 3"/><text x="{}" y="{}" font-size="11">{}</text>"##,
                top + ph,
                x(*at) + 3.0,
                top + 12.0,
                escape(label),
                xx = x(*at)
            );
        }
        for (i, (name, points)) in self.series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let pts: Vec<String> = points.iter().map(|&(a, b)| format!("{:.1},{:.1}", x(a), y(b))).collect();
            let _ = write!(
                s,
                r##"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2.5"/>"##,
                pts.join(" ")
            );
            for &(a, b) in points.iter().filter(|_| points.len() <= 12) {
                let _ = write!(s, r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"/>"##, x(a), y(b));
            }
            let ly = top + 14.0 + 18.0 * i as f64;
            let _ = write!(
                s,
                r##"<rect x="{}" y="{}" width="14" height="4" fill="{colour}"/><text x="{}" y="{}" font-size="12">{}</text>"##,
                left + pw + 10.0,
                ly - 4.0,
                left + pw + 30.0,
                ly,
                escape(name)
            );
        }
        s.push_str("</svg>");
        s
    }
}

/// Precision and recall of `not_found` if it were answered exactly when the best confidence is below
/// `cut`, over `outcomes` (answerable and `none` queries).
fn not_found_at(outcomes: &[QueryOutcome], cut: f32) -> (f64, f64) {
    let said: Vec<&QueryOutcome> = outcomes.iter().filter(|o| o.best_confidence < cut).collect();
    let right = said.iter().filter(|o| o.kind == Kind::None).count();
    let none = outcomes.iter().filter(|o| o.kind == Kind::None).count();
    let precision = if said.is_empty() { 1.0 } else { right as f64 / said.len() as f64 };
    let recall = if none == 0 { 0.0 } else { right as f64 / none as f64 };
    (precision, recall)
}

/// The whole page.
pub fn html_report(r: &HtmlReport<'_>) -> String {
    let k_max = r.ks.iter().copied().max().unwrap_or(10) as f64;
    let recall = Chart {
        title: "Recall@k (with the not-found decision)",
        x_label: "k",
        y_label: "recall",
        x_max: k_max,
        x_ticks: r.ks.iter().map(|&k| k as f64).collect(),
        series: r
            .reports
            .iter()
            .map(|rep| {
                let pts = r.ks.iter().map(|k| (*k as f64, rep.recall_at.get(&k.to_string()).copied().unwrap_or(0.0)));
                (rep.ranker.clone(), pts.collect())
            })
            .collect(),
        marker: None,
    };
    let cuts: Vec<f32> = (0..=100).map(|i| i as f32 / 100.0).collect();
    let engine = r.reports.first().map_or("engine", |rep| rep.ranker.as_str());
    let calibration = Chart {
        title: &format!("not_found of {engine} against the cut on the best confidence"),
        x_label: "cut (best tool's confidence)",
        y_label: "precision / recall",
        x_max: 1.0,
        x_ticks: vec![0.0, 0.25, 0.5, 0.75, 1.0],
        series: vec![
            ("precision".to_string(), cuts.iter().map(|&c| (f64::from(c), not_found_at(r.outcomes, c).0)).collect()),
            ("recall".to_string(), cuts.iter().map(|&c| (f64::from(c), not_found_at(r.outcomes, c).1)).collect()),
        ],
        marker: r.cut.map(|c| (f64::from(c), format!("in force: {c:.2}"))),
    }
    .svg();
    let mut page = String::new();
    let _ = write!(
        page,
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>toolscout eval: {t}</title>
<style>body{{font-family:sans-serif;margin:24px;color:#222}}table{{border-collapse:collapse;font-size:12px}}
td,th{{border:1px solid #ccc;padding:3px 6px;text-align:left}}th{{background:#eee}}.ok{{background:#e6f4ea}}
.miss{{background:#fce8e6}}.charts{{display:flex;flex-wrap:wrap;gap:24px}}</style></head><body>
<h1>toolscout eval</h1><p>{t}</p><h2>Summary</h2><table><tr><th>ranker</th><th>queries</th>"#,
        t = escape(r.title)
    );
    for k in r.ks {
        let _ = write!(page, "<th>R@{k}</th>");
    }
    page.push_str("<th>nDCG@5</th><th>not-found P</th><th>not-found R</th><th>p50 ms</th></tr>");
    for rep in r.reports {
        let _ = write!(page, "<tr><td>{}</td><td>{}</td>", escape(&rep.ranker), rep.n_queries);
        for k in r.ks {
            let _ = write!(page, "<td>{:.3}</td>", rep.recall_at.get(&k.to_string()).copied().unwrap_or(0.0));
        }
        let _ = write!(
            page,
            "<td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td>{:.1}</td></tr>",
            rep.ndcg_at_5, rep.none.precision, rep.none.recall, rep.latency_ms.p50
        );
    }
    let _ = write!(
        page,
        r#"</table><h2>Curves</h2><div class="charts">{}{calibration}</div><h2>Queries ({engine})</h2>
<table><tr><th>id</th><th>query</th><th>kind</th><th>answer</th><th>groups hit @{}</th><th>best confidence</th><th>top tool</th></tr>"#,
        recall.svg(),
        r.ks.last().copied().unwrap_or(0)
    );
    for (q, o) in r.queries.iter().zip(r.outcomes) {
        let good = match o.kind {
            Kind::None => !o.found,
            _ => o.found && o.groups_hit.last().copied().unwrap_or(0) == o.groups,
        };
        let _ = write!(
            page,
            r#"<tr class="{}"><td>{}</td><td>{}</td><td>{:?}</td><td>{}</td><td>{}/{}</td><td>{:.3}</td><td>{}</td></tr>"#,
            if good { "ok" } else { "miss" },
            escape(&q.id),
            escape(&q.query),
            o.kind,
            if o.found { "found" } else { "not_found" },
            o.groups_hit.last().copied().unwrap_or(0),
            o.groups,
            o.best_confidence,
            escape(o.top.as_deref().unwrap_or("")),
        );
    }
    page.push_str("</table></body></html>\n");
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(kind: Kind, confidence: f32) -> QueryOutcome {
        QueryOutcome {
            kind,
            found: true,
            groups_hit: vec![1],
            groups_hit_no_threshold: vec![1],
            groups_hit_also_serves: None,
            servers_hit: vec![1],
            groups: usize::from(kind != Kind::None),
            ndcg5: 1.0,
            rr: 1.0,
            delivered: 1,
            irrelevant_delivered: 0,
            best_confidence: confidence,
            top: None,
        }
    }

    #[test]
    fn the_calibration_curve_counts_not_found_answers() {
        let outcomes = [outcome(Kind::None, 0.1), outcome(Kind::Single, 0.2), outcome(Kind::None, 0.9)];
        assert_eq!(not_found_at(&outcomes, 0.0), (1.0, 0.0));
        assert_eq!(not_found_at(&outcomes, 0.15), (1.0, 0.5));
        assert_eq!(not_found_at(&outcomes, 0.5), (0.5, 0.5));
        assert_eq!(not_found_at(&outcomes, 1.0), (2.0 / 3.0, 1.0));
    }
}
