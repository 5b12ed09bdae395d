//! Text the CLI prints for people (the `--json` output is the REST shape instead).

use std::fmt::Write;
use std::path::Path;

use toolscout_eval::{FitReport, Report};
use toolscout_indexer::{CrawlOutcome, CrawlReport, Manifest};
use toolscout_service::{DiscoverResponse, Status};

pub(crate) fn crawl_summary(report: &CrawlReport, out: &Path) -> String {
    let mut s = String::new();
    let ok: Vec<_> = report.servers.iter().filter(|o| matches!(o, CrawlOutcome::Ok { .. })).collect();
    let tools: usize =
        report.servers.iter().map(|o| if let CrawlOutcome::Ok { tools, .. } = o { *tools } else { 0 }).sum();
    let _ = writeln!(s, "crawled {}/{} servers, {tools} tools -> {}", ok.len(), report.servers.len(), out.display());
    for o in &report.servers {
        match o {
            CrawlOutcome::Ok { server, tools, stdout_noise, warnings, seconds, .. } => {
                let _ = write!(s, "  ok     {server:<24} {tools:>4} tools {seconds:>6.1}s");
                if *stdout_noise > 0 {
                    let _ = write!(s, "  ({stdout_noise} non-protocol stdout lines skipped)");
                }
                let _ = writeln!(s);
                for w in warnings {
                    let _ = writeln!(s, "         warning: {w}");
                }
            }
            CrawlOutcome::Failed { failure, kept_stale, seconds } => {
                let _ = writeln!(
                    s,
                    "  FAILED {:<24} at {} after {seconds:.1}s: {}",
                    failure.server, failure.stage, failure.reason
                );
                if let Some(kept) = kept_stale {
                    let _ = writeln!(
                        s,
                        "         kept its {kept} last known tools, marked stale (--prune-stale drops them)"
                    );
                }
            }
        }
    }
    s
}

pub(crate) fn index_summary(m: &Manifest, out: &Path) -> String {
    let p = &m.build.pins;
    let mut held = String::new();
    for key in p.changed.iter().chain(&p.new_server) {
        held.push_str(&format!("\n  held back until approved: {key}"));
    }
    format!(
        "indexed {} servers, {} tools -> {} (snapshot {}, model {}; tools +{} added, {} changed, -{} removed; {} embedded, {} reused, {:.1}s)",
        m.servers,
        m.tools,
        out.display(),
        m.snapshot_id,
        m.model_id,
        m.build.added,
        m.build.changed,
        m.build.removed,
        m.build.embedded,
        m.build.reused,
        m.build.seconds
    ) + &kept_graphs(m)
        + &updated_bm25(m)
        + &held
}

/// "; graphs kept (N changed points scored exactly)" when an update kept the previous graphs.
fn kept_graphs(m: &Manifest) -> String {
    if m.build.graphs_kept == 0 {
        return String::new();
    }
    let stale: usize = m.graph_stale.values().map(Vec::len).sum();
    format!(
        "\n  {} graph(s) kept from the previous snapshot ({stale} changed point(s) scored exactly)",
        m.build.graphs_kept
    )
}

/// "; BM25 updated in place" when an update rewrote only the changed documents of the live BM25 indexes.
fn updated_bm25(m: &Manifest) -> String {
    match m.build.bm25_updated {
        0 => String::new(),
        n => format!("\n  {n} BM25 index(es) updated from the previous snapshot (changed documents written again)"),
    }
}

pub(crate) fn answer(a: &DiscoverResponse) -> String {
    let mut s = String::new();
    for note in &a.notes {
        let _ = writeln!(s, "note: {note}");
    }
    match a.status {
        Status::Found => {
            for (i, t) in a.tools.iter().enumerate() {
                let desc = serde_json::from_str::<serde_json::Value>(t.tool.get())
                    .ok()
                    .and_then(|v| v.get("description").and_then(|d| d.as_str()).map(str::to_string))
                    .unwrap_or_default();
                let desc: String = desc.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(100).collect();
                let _ =
                    writeln!(s, "{:>2}. {:.2} {:.3}  {}/{}  {desc}", i + 1, t.confidence, t.score, t.server, t.name);
            }
        }
        Status::NotFound => {
            let _ = writeln!(s, "not found (request cut {:.2}).", a.threshold);
            if let Some(reason) = &a.reason {
                let _ = writeln!(s, "{reason}");
            }
            let _ = writeln!(s, "Closest:");
            for t in &a.closest {
                let _ = writeln!(s, "    {:.2} {:.3}  {}/{}", t.confidence, t.score, t.server_id, t.name);
            }
        }
    }
    s
}

pub(crate) fn eval_table(reports: &[Report], ks: &[usize]) -> String {
    let mut s = String::new();
    let Some(first) = reports.first() else { return s };
    let _ = writeln!(s, "{} queries ({} positive, {} none)", first.n_queries, first.n_positive, first.n_none);
    let mut header = format!("{:<12}", "ranker");
    for k in ks {
        header.push_str(&format!(" {:>6}", format!("R@{k}")));
    }
    header.push_str(&format!(
        " {:>7} {:>7} {:>7} {:>6} {:>17} {:>9} {:>15}",
        "R@5noT", "srvR@5", "nDCG@5", "MRR", "none P/R/F1", "tools/irr", "p50/p99 ms"
    ));
    let _ = writeln!(s, "{header}");
    for r in reports {
        let mut line = format!("{:<12}", r.ranker);
        for k in ks {
            line.push_str(&format!(" {:>6.3}", r.recall_at.get(&k.to_string()).copied().unwrap_or(0.0)));
        }
        let get = |m: &std::collections::BTreeMap<String, f64>| m.get("5").copied().unwrap_or(0.0);
        line.push_str(&format!(
            " {:>7.3} {:>7.3} {:>7.3} {:>6.3} {:>17} {:>9} {:>15}",
            get(&r.recall_at_no_threshold),
            get(&r.server_recall_at),
            r.ndcg_at_5,
            r.mrr,
            format!("{:.2}/{:.2}/{:.2}", r.none.precision, r.none.recall, r.none.f1),
            format!("{:.1}/{:.2}", r.delivered_per_answer, r.irrelevant_share),
            format!("{:.1}/{:.1}", r.latency_ms.p50, r.latency_ms.p99),
        ));
        let _ = writeln!(s, "{line}");
        if let Some(also) = &r.recall_at_also_serves {
            let at: Vec<String> =
                ks.iter().map(|k| format!("R@{k} {:.3}", also.get(&k.to_string()).copied().unwrap_or(0.0))).collect();
            let _ = writeln!(s, "{:<12} counting the tools that may also serve: {}", "", at.join(", "));
        }
    }
    s
}

pub(crate) fn calibration(r: &FitReport) -> String {
    let c = &r.calibration;
    let d = &c.decision;
    let f = &c.fitted;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "request cut {:.2}, tool cut {:.2} (and {:.2} of the best): not-found P {:.3} R {:.3} F1 {:.3}; recall@5 {:.3} \
         (without the decision {:.3}); {} positive, {} none requests; {} positive and {} negative rows",
        d.request_cut,
        d.tool_cut,
        d.relative_cut,
        f.not_found.0,
        f.not_found.1,
        f.not_found.2,
        f.recall_at_5.0,
        f.recall_at_5.1,
        f.requests.0,
        f.requests.1,
        r.rows.0,
        r.rows.1
    );
    if let Some(f) = &r.foreign {
        let _ = writeln!(
            s,
            "requests not in English: request cut {:.3} ({} answerable, {} none): not-found P {:.3} R {:.3} F1 {:.3}; \
             recall@5 {:.3} (without the decision {:.3})",
            f.request_cut,
            f.requests.0,
            f.requests.1,
            f.not_found.0,
            f.not_found.1,
            f.not_found.2,
            f.recall_at_5.0,
            f.recall_at_5.1
        );
    }
    if let Some(t) = &d.trees {
        let nodes: usize = t.trees.iter().map(|t| t.value.len()).sum();
        let share = d.trees_share.unwrap_or(1.0);
        let _ = writeln!(s, "boosted trees: {} trees, {nodes} nodes, {share:.2} of the log-odds", t.trees.len());
    }
    let _ = writeln!(s, "logistic weights (bias {:+.3}):", d.bias);
    for (name, w) in d.features.iter().zip(&d.weights) {
        let _ = writeln!(s, "  {name:<22} {w:+.3}");
    }
    let _ = writeln!(
        s,
        "{:>11} {:>8} {:>8} {:>7} {:>7} {:>7} {:>7} {:>6}",
        "request cut", "tool cut", "relative", "P", "R", "F1", "R@5", "tools"
    );
    for p in r.curve.iter().step_by(5) {
        let _ = writeln!(
            s,
            "{:>11.2} {:>8.2} {:>8.2} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>6.2}{}",
            p.request_cut,
            p.tool_cut,
            p.relative_cut,
            p.precision,
            p.recall,
            p.f1,
            p.recall_at_5,
            p.delivered,
            if p.within_budget { "" } else { "  (over the recall budget)" }
        );
    }
    s
}
