//! Text the CLI prints for people (the `--json` output is the REST shape instead).

use std::fmt::Write;
use std::path::Path;

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
            CrawlOutcome::Failed { failure, seconds } => {
                let _ = writeln!(
                    s,
                    "  FAILED {:<24} at {} after {seconds:.1}s: {}",
                    failure.server, failure.stage, failure.reason
                );
            }
        }
    }
    s
}

pub(crate) fn index_summary(m: &Manifest, out: &Path) -> String {
    format!(
        "indexed {} servers, {} tools -> {} (snapshot {}, model {}, {} embedded, {} reused, {:.1}s)",
        m.servers,
        m.tools,
        out.display(),
        m.snapshot_id,
        m.model_id,
        m.build.embedded,
        m.build.reused,
        m.build.seconds
    )
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
                let _ = writeln!(s, "{:>2}. {:.3}  {}/{}  {desc}", i + 1, t.score, t.server, t.name);
            }
        }
        Status::NotFound => {
            let _ = writeln!(s, "not found (best score below threshold {:.3}). Closest:", a.threshold);
            for t in &a.closest {
                let _ = writeln!(s, "    {:.3}  {}/{}", t.score, t.server, t.name);
            }
        }
    }
    s
}
