//! Running a ranker over a query file and aggregating the judgements into a report.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;

use serde::Serialize;

use crate::metrics::{QueryOutcome, judge};
use crate::queries::{Kind, Query};
use crate::rankers::Ranker;
use crate::{Error, Result};

/// Not-found precision, recall and F1 (answering `not_found` is the positive class).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NoneScores {
    /// Of the `not_found` answers, the share that were right.
    pub precision: f64,
    /// Of the `none` queries, the share answered `not_found`.
    pub recall: f64,
    /// Harmonic mean.
    pub f1: f64,
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
    /// Group recall per k counting the tools a query lists in `also_serves` as right (a query without
    /// them counts as in `recall_at`); absent when no query lists any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall_at_also_serves: Option<BTreeMap<String, f64>>,
    /// Share of positive queries with every group hit, per k.
    pub success_at: BTreeMap<String, f64>,
    /// Group recall at the server level, per k.
    pub server_recall_at: BTreeMap<String, f64>,
    /// Mean nDCG@5 over positive queries.
    pub ndcg_at_5: f64,
    /// Mean reciprocal rank over positive queries.
    pub mrr: f64,
    /// Mean number of tools delivered by a `found` answer to a positive query.
    pub delivered_per_answer: f64,
    /// Share of the tools delivered to positive queries that serve none of their groups.
    pub irrelevant_share: f64,
    /// Not-found scores.
    pub none: NoneScores,
    /// Search latency.
    pub latency_ms: Latency,
}

/// The text sent for a query: cut at the engine's limit (one LiveMCPBench task pastes an 18 KB base64
/// image; every ranker gets the same cut text).
pub fn request_text(q: &Query) -> String {
    q.query.chars().take(toolscout_service::MAX_QUERY_CHARS).collect()
}

/// Runs `ranker` over `queries`, judging at each k of `ks`.
pub fn evaluate(ranker: &dyn Ranker, queries: &[Query], ks: &[usize]) -> Result<(Report, Vec<QueryOutcome>)> {
    let k_max = ks.iter().copied().max().unwrap_or(5).max(5);
    let mut outcomes = Vec::new();
    let mut latencies = Vec::new();
    // Drawn only when stderr is a terminal.
    let bar =
        indicatif::ProgressBar::with_draw_target(Some(queries.len() as u64), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(ranker.name());
    for q in queries {
        bar.inc(1);
        let started = Instant::now();
        let answer = ranker.answer(&request_text(q), &q.exclude, k_max).map_err(|e| match e {
            Error::Engine(source) => Error::Query { id: q.id.clone(), source },
            other => other,
        })?;
        latencies.push(started.elapsed().as_secs_f64() * 1000.0);
        outcomes.push(judge(q, &answer, ks));
    }
    bar.finish_and_clear();
    Ok((aggregate(&ranker.name(), &outcomes, ks, &mut latencies), outcomes))
}

fn aggregate(name: &str, outcomes: &[QueryOutcome], ks: &[usize], latencies: &mut [f64]) -> Report {
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
    let recall_at_also_serves = positives.iter().any(|o| o.groups_hit_also_serves.is_some()).then(|| {
        per_k(&|o, i| o.groups_hit_also_serves.as_ref().map_or(o.groups_hit[i], |h| h[i]) as f64, groups as f64)
    });
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
    let delivered: usize = positives.iter().map(|o| o.delivered).sum();
    let answered = positives.iter().filter(|o| o.found).count();
    let irrelevant: usize = positives.iter().map(|o| o.irrelevant_delivered).sum();
    latencies.sort_by(f64::total_cmp);
    let pct = |p: f64| latencies.get(((latencies.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(0.0);
    Report {
        ranker: name.to_string(),
        n_queries: outcomes.len(),
        n_positive: positives.len(),
        n_none,
        recall_at,
        recall_at_no_threshold,
        recall_at_also_serves,
        success_at,
        server_recall_at,
        ndcg_at_5: mean(&|o| o.ndcg5),
        mrr: mean(&|o| o.rr),
        delivered_per_answer: if answered > 0 { delivered as f64 / answered as f64 } else { 0.0 },
        irrelevant_share: if delivered > 0 { irrelevant as f64 / delivered as f64 } else { 0.0 },
        none: NoneScores { precision, recall, f1 },
        latency_ms: Latency { p50: pct(0.5), p99: pct(0.99) },
    }
}

/// Every query's answer, with the pairs that serve a group marked `*` and delivered tools marked `>`,
/// for inspection.
pub fn show(ranker: &dyn Ranker, queries: &[Query], k: usize) -> Result<String> {
    let mut out = String::new();
    for q in queries {
        let answer = ranker.answer(&request_text(q), &q.exclude, k)?;
        let verdict = if answer.found { "found" } else { "NOT FOUND" };
        let _ = writeln!(out, "{} [{:?}] {} -> {verdict}", q.id, q.kind, q.query);
        for (i, t) in answer.ranking.iter().enumerate() {
            let good = q.relevant.iter().any(|g| g.iter().any(|p| p.server == t.server && p.tool == t.tool));
            let sent = answer.delivered.iter().any(|d| d.server == t.server && d.tool == t.tool);
            let mark = format!("{}{}", if good { "*" } else { " " }, if sent { ">" } else { " " });
            let _ = writeln!(out, "  {mark}{:>2}. {:.3} {}/{}", i + 1, t.score, t.server, t.tool);
        }
        let missed: Vec<String> = q
            .relevant
            .iter()
            .filter(|g| !answer.ranking.iter().any(|t| g.iter().any(|p| p.server == t.server && p.tool == t.tool)))
            .map(|g| g.iter().take(3).map(|p| format!("{}/{}", p.server, p.tool)).collect::<Vec<_>>().join(" | "))
            .collect();
        for m in missed {
            let _ = writeln!(out, "     missing: {m}");
        }
    }
    Ok(out)
}
