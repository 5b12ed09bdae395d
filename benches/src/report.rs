//! Running a ranker over a query file and aggregating the judgements into a report.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;

use serde::Serialize;

use crate::metrics::{QueryOutcome, judge};
use crate::queries::{Kind, Query};
use crate::rankers::Ranker;

/// Not-found precision, recall and F1 (answering `not_found` is the positive class).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NoneScores {
    /// Of the `not_found` answers, the share that were right.
    pub precision: f64,
    /// Of the `none` queries, the share answered `not_found`.
    pub recall: f64,
    /// Harmonic mean.
    pub f1: f64,
    /// The threshold used (null: the ranker has none).
    pub threshold: Option<f32>,
}

/// Latency percentiles in milliseconds.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Latency {
    /// Median.
    pub p50: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// One ranker over one query file.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    /// Ranker name.
    pub ranker: String,
    /// Queries run.
    pub n_queries: usize,
    /// Queries with relevant tools.
    pub n_positive: usize,
    /// `none` queries.
    pub n_none: usize,
    /// Group recall per k over positive queries (with the not-found decision).
    pub recall_at: BTreeMap<String, f64>,
    /// Group recall per k if every answer were `found`.
    pub recall_at_no_threshold: BTreeMap<String, f64>,
    /// Share of positive queries with every group hit, per k.
    pub success_at: BTreeMap<String, f64>,
    /// Group recall at the server level, per k.
    pub server_recall_at: BTreeMap<String, f64>,
    /// Mean nDCG@5 over positive queries.
    pub ndcg_at_5: f64,
    /// Mean reciprocal rank over positive queries.
    pub mrr: f64,
    /// Not-found scores.
    pub none: NoneScores,
    /// Search latency.
    pub latency_ms: Latency,
}

/// The text sent for a query: cut at the engine's limit (one LiveMCPBench task pastes an 18 KB base64
/// image; every ranker gets the same cut text).
pub(crate) fn request(q: &Query) -> String {
    q.query.chars().take(toolscout_service::MAX_QUERY_CHARS).collect()
}

/// Runs `ranker` over `queries`, judging at each k of `ks`.
pub fn evaluate(ranker: &dyn Ranker, queries: &[Query], ks: &[usize]) -> crate::Result<(Report, Vec<QueryOutcome>)> {
    let k_max = ks.iter().copied().max().unwrap_or(5).max(5);
    let threshold = ranker.threshold();
    let mut outcomes = Vec::new();
    let mut latencies = Vec::new();
    for q in queries {
        let started = Instant::now();
        let ranking = ranker.rank(&request(q), k_max).map_err(|e| format!("query {}: {e}", q.id))?;
        latencies.push(started.elapsed().as_secs_f64() * 1000.0);
        let found = ranking.found_at(threshold);
        outcomes.push(judge(q, &ranking, found, ks));
    }
    Ok((aggregate(&ranker.name(), &outcomes, ks, threshold, &mut latencies), outcomes))
}

fn aggregate(
    name: &str,
    outcomes: &[QueryOutcome],
    ks: &[usize],
    threshold: Option<f32>,
    latencies: &mut [f64],
) -> Report {
    let positives: Vec<&QueryOutcome> = outcomes.iter().filter(|o| o.kind != Kind::None).collect();
    let groups: usize = positives.iter().map(|o| o.groups).sum();
    let per_k = |f: &dyn Fn(&QueryOutcome, usize) -> f64, denom: f64| -> BTreeMap<String, f64> {
        ks.iter()
            .enumerate()
            .map(|(i, k)| {
                (k.to_string(), if denom > 0.0 { positives.iter().map(|o| f(o, i)).sum::<f64>() / denom } else { 0.0 })
            })
            .collect()
    };
    let n_pos = positives.len() as f64;
    let recall_at = per_k(&|o, i| o.groups_hit[i] as f64, groups as f64);
    let recall_at_no_threshold = per_k(&|o, i| o.groups_hit_no_threshold[i] as f64, groups as f64);
    let success_at = per_k(&|o, i| f64::from(u8::from(o.groups_hit[i] == o.groups)), n_pos);
    let server_recall_at = per_k(&|o, i| o.servers_hit[i] as f64, groups as f64);
    let mean = |f: &dyn Fn(&QueryOutcome) -> f64| {
        if n_pos > 0.0 { positives.iter().map(|o| f(o)).sum::<f64>() / n_pos } else { 0.0 }
    };
    let said_none = outcomes.iter().filter(|o| !o.found).count() as f64;
    let right_none = outcomes.iter().filter(|o| !o.found && o.kind == Kind::None).count() as f64;
    let n_none = outcomes.iter().filter(|o| o.kind == Kind::None).count();
    let precision = if said_none > 0.0 { right_none / said_none } else { 0.0 };
    let recall = if n_none > 0 { right_none / n_none as f64 } else { 0.0 };
    let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
    latencies.sort_by(f64::total_cmp);
    let pct = |p: f64| latencies.get(((latencies.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(0.0);
    Report {
        ranker: name.to_string(),
        n_queries: outcomes.len(),
        n_positive: positives.len(),
        n_none,
        recall_at,
        recall_at_no_threshold,
        success_at,
        server_recall_at,
        ndcg_at_5: mean(&|o| o.ndcg5),
        mrr: mean(&|o| o.rr),
        none: NoneScores { precision, recall, f1, threshold },
        latency_ms: Latency { p50: pct(0.5), p99: pct(0.99) },
    }
}

/// Every query's ranked answer, with the pairs that serve a group marked `*`, for inspection.
pub fn show(ranker: &dyn Ranker, queries: &[Query], k: usize) -> crate::Result<String> {
    let mut out = String::new();
    for q in queries {
        let ranking = ranker.rank(&request(q), k)?;
        let found = ranking.found_at(ranker.threshold());
        let _ = writeln!(out, "{} [{:?}] {} -> {}", q.id, q.kind, q.query, if found { "found" } else { "NOT FOUND" });
        for (i, t) in ranking.tools.iter().enumerate() {
            let good = q.relevant.iter().any(|g| g.iter().any(|p| p.server == t.server && p.tool == t.tool));
            let _ =
                writeln!(out, "  {}{:>2}. {:.3} {}/{}", if good { "*" } else { " " }, i + 1, t.score, t.server, t.tool);
        }
        let missed: Vec<String> = q
            .relevant
            .iter()
            .filter(|g| !ranking.tools.iter().any(|t| g.iter().any(|p| p.server == t.server && p.tool == t.tool)))
            .map(|g| g.iter().take(3).map(|p| format!("{}/{}", p.server, p.tool)).collect::<Vec<_>>().join(" | "))
            .collect();
        for m in missed {
            let _ = writeln!(out, "     missing: {m}");
        }
    }
    Ok(out)
}
