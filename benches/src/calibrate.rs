//! Calibrating the not-found threshold from labelled queries.
//!
//! Each query is ranked once without a threshold; then every candidate threshold is scored: not-found
//! precision/recall/F1 (answering `not_found` is the positive class; `not_found` on a positive query is a
//! false positive) and group recall@5 of the positive queries. The chosen threshold maximizes F1 among
//! those that cost at most `max_recall_drop` of recall@5 compared to no threshold at all.

use serde::Serialize;

use crate::metrics::judge;
use crate::queries::{Kind, Query};
use crate::rankers::Ranker;

/// One point of the threshold sweep.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CurvePoint {
    /// The threshold.
    pub threshold: f32,
    /// Not-found precision.
    pub precision: f64,
    /// Not-found recall.
    pub recall: f64,
    /// Not-found F1.
    pub f1: f64,
    /// Group recall@5 of positive queries at this threshold.
    pub recall_at_5: f64,
}

/// The outcome of a calibration.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Calibration {
    /// The chosen threshold.
    pub threshold: f32,
    /// Its sweep point.
    pub chosen: CurvePoint,
    /// Group recall@5 with no threshold.
    pub recall_at_5_no_threshold: f64,
    /// Largest recall@5 drop allowed.
    pub max_recall_drop: f64,
    /// Queries used (positive, none).
    pub queries: (usize, usize),
    /// The whole sweep.
    pub curve: Vec<CurvePoint>,
}

struct Judged {
    none: bool,
    named: bool,
    best: f32,
    groups: usize,
    hit5: usize,
}

/// Calibrates over `(ranker, queries)` sets (one ranker per index; their scores must be comparable).
pub fn calibrate(sets: &[(&dyn Ranker, Vec<Query>)], max_recall_drop: f64) -> crate::Result<Calibration> {
    let mut judged = Vec::new();
    for (ranker, queries) in sets {
        for q in queries {
            let ranking = ranker.rank(&crate::report::request(q), 5)?;
            let outcome = judge(q, &ranking, true, &[5]);
            judged.push(Judged {
                none: q.kind == Kind::None,
                named: ranking.tools.iter().any(|t| t.named),
                best: ranking.best().unwrap_or(f32::MIN),
                groups: outcome.groups,
                hit5: outcome.groups_hit_no_threshold[0],
            });
        }
    }
    let n_none = judged.iter().filter(|j| j.none).count();
    let groups: usize = judged.iter().filter(|j| !j.none).map(|j| j.groups).sum();
    if n_none == 0 || groups == 0 {
        return Err("calibration needs both `none` queries and positive queries".into());
    }
    let recall_no_threshold = judged.iter().map(|j| j.hit5).sum::<usize>() as f64 / groups as f64;
    let curve: Vec<CurvePoint> = (0..=160)
        .map(|i| i as f32 * 0.005)
        .map(|t| {
            let found = |j: &Judged| j.named || j.best >= t;
            let said_none = judged.iter().filter(|j| !found(j)).count() as f64;
            let right = judged.iter().filter(|j| !found(j) && j.none).count() as f64;
            let precision = if said_none > 0.0 { right / said_none } else { 0.0 };
            let recall = right / n_none as f64;
            let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
            let kept: usize = judged.iter().filter(|j| !j.none && found(j)).map(|j| j.hit5).sum();
            CurvePoint { threshold: t, precision, recall, f1, recall_at_5: kept as f64 / groups as f64 }
        })
        .collect();
    let allowed = |p: &&CurvePoint| recall_no_threshold - p.recall_at_5 <= max_recall_drop + 1e-9;
    let chosen = curve
        .iter()
        .filter(allowed)
        .max_by(|a, b| a.f1.total_cmp(&b.f1).then(b.threshold.total_cmp(&a.threshold)))
        .cloned()
        .ok_or("no threshold keeps recall within the allowed drop")?;
    Ok(Calibration {
        threshold: chosen.threshold,
        chosen,
        recall_at_5_no_threshold: recall_no_threshold,
        max_recall_drop,
        queries: (judged.len() - n_none, n_none),
        curve,
    })
}
