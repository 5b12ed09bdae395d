//! Fitting the engine's found / not-found decision on labelled queries (never on test sets).
//!
//! 1. Every query (and, when asked, its near-miss negative: the same request with its right tools left
//!    out) is run through the engine's stages; its best candidates by fused score become rows of
//!    [`toolscout_service::FEATURES`], labelled by whether the tool serves one of the query's groups.
//! 2. A logistic regression (linfa) is fitted on all rows: the probability that a tool serves the request.
//! 3. The two cuts are chosen on the same queries: the request cut with the best not-found F1 among those
//!    that cost at most `max_recall_drop` of recall@5, then the highest tool cut (≤ the request cut) that
//!    still keeps recall@5 within that drop — so answers carry as few tools the model judged irrelevant as
//!    recall allows.

use std::collections::HashSet;
use std::sync::Arc;

use linfa::prelude::*;
use linfa_logistic::LogisticRegression;
use ndarray_linfa::{Array1, Array2};
use serde::Serialize;
use toolscout_indexer::{CALIBRATION_VERSION, Calibration, DecisionModel, FitSummary};
use toolscout_service::{DiscoverParams, Engine, FEATURES};

use crate::queries::{Kind, Query, near_misses};
use crate::report::request_text;
use crate::{Error, Result};

/// One index with its labelled queries.
pub struct FitSet {
    /// How it is named in the calibration (`INDEX=QUERIES`).
    pub name: String,
    /// The engine over the index.
    pub engine: Arc<Engine>,
    /// Its labelled queries.
    pub queries: Vec<Query>,
}

/// How [`fit`] works.
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// Largest loss of recall@5 (absolute) the cuts may cost.
    pub max_recall_drop: f64,
    /// Candidates per query used as rows (best fused scores first).
    pub candidates: usize,
    /// Also fit on the near-miss negative of every answerable query.
    pub near_misses: bool,
    /// L2 regularization strength of the logistic regression.
    pub alpha: f64,
    /// Fit on these features only (ablation); `None`: all.
    pub features: Option<Vec<String>>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions { max_recall_drop: 0.02, candidates: 30, near_misses: true, alpha: 0.05, features: None }
    }
}

/// One point of the cut sweep: a request cut, the best tool cut for it, and what they give.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CurvePoint {
    /// The request cut.
    pub request_cut: f32,
    /// The highest tool cut within the recall budget (or equal to the request cut when none is).
    pub tool_cut: f32,
    /// Not-found precision.
    pub precision: f64,
    /// Not-found recall.
    pub recall: f64,
    /// Not-found F1.
    pub f1: f64,
    /// Group recall@5 of positive queries at these cuts.
    pub recall_at_5: f64,
    /// Whether the recall drop stays within the budget.
    pub within_budget: bool,
}

/// A fitted calibration and how it was reached.
#[derive(Debug, Clone, Serialize)]
pub struct FitReport {
    /// What goes into `calibration.json`.
    pub calibration: Calibration,
    /// Rows fitted on (positive, negative).
    pub rows: (usize, usize),
    /// The sweep over request cuts.
    pub curve: Vec<CurvePoint>,
}

/// A query's rows, ready for the sweep.
struct Judged {
    none: bool,
    groups: usize,
    /// Row indexes of its candidates.
    rows: Vec<usize>,
    /// The groups each row serves.
    serves: Vec<Vec<usize>>,
}

/// Fits a decision over `sets`. Every set's engine must use the same model and configuration.
pub fn fit(sets: &[FitSet], options: &FitOptions) -> Result<FitReport> {
    let first = sets.first().ok_or_else(|| Error::Calibration("no query sets given".into()))?;
    let model_id = first.engine.embedder().model_id().to_string();
    let engine_id = first.engine.config().fingerprint();
    if sets.iter().any(|s| s.engine.embedder().model_id() != model_id || s.engine.config().fingerprint() != engine_id) {
        return Err(Error::Calibration("all sets must use the same model and engine configuration".into()));
    }
    let chosen: Vec<usize> = match &options.features {
        None => (0..FEATURES.len()).collect(),
        Some(names) => names
            .iter()
            .map(|n| {
                FEATURES.iter().position(|f| f == n).ok_or_else(|| Error::Calibration(format!("unknown feature {n}")))
            })
            .collect::<Result<_>>()?,
    };

    // 1. Rows.
    let mut x: Vec<f64> = Vec::new();
    let mut y: Vec<bool> = Vec::new();
    let mut judged: Vec<Judged> = Vec::new();
    for set in sets {
        let mut queries = set.queries.clone();
        if options.near_misses {
            queries.extend(near_misses(&set.queries));
        }
        for q in &queries {
            let params = DiscoverParams { limit: Some(10), ..DiscoverParams::new(request_text(q)) };
            let exclude: Vec<(String, String)> = q.exclude.iter().map(|p| (p.server.clone(), p.tool.clone())).collect();
            let (examined, named) =
                set.engine.examine(&params, &exclude).map_err(|source| Error::Query { id: q.id.clone(), source })?;
            if named > 0 {
                continue; // a named tool decides by itself
            }
            let mut j =
                Judged { none: q.kind == Kind::None, groups: q.relevant.len(), rows: Vec::new(), serves: Vec::new() };
            for e in examined.iter().take(options.candidates) {
                let serves: Vec<usize> = (0..q.relevant.len())
                    .filter(|&g| q.relevant[g].iter().any(|p| p.server == e.server && p.tool == e.tool))
                    .collect();
                j.rows.push(y.len());
                y.push(!serves.is_empty());
                j.serves.push(serves);
                x.extend(chosen.iter().map(|&i| f64::from(e.features[i])));
            }
            judged.push(j);
        }
    }
    let positives = y.iter().filter(|&&b| b).count();
    if positives == 0 || positives == y.len() || !judged.iter().any(|j| j.none) {
        return Err(Error::Calibration("need positive queries whose tools are found, and `none` queries".into()));
    }

    // 2. The logistic regression.
    let records = Array2::from_shape_vec((y.len(), chosen.len()), x)
        .map_err(|e| Error::Calibration(format!("feature matrix: {e}")))?;
    let targets = Array1::from_vec(y.clone());
    let dataset = Dataset::new(records.clone(), targets);
    let fitted = LogisticRegression::default()
        .alpha(options.alpha)
        .max_iterations(500)
        .fit(&dataset)
        .map_err(|e| Error::Calibration(format!("logistic regression: {e}")))?;
    if !fitted.labels().pos.class {
        return Err(Error::Calibration("logistic regression took `false` as its positive class".into()));
    }
    let probability: Vec<f32> = fitted.predict_probabilities(&records).iter().map(|&p| p as f32).collect();

    // 3. The cuts.
    let sweep = Sweep::new(&judged, &probability);
    let grid: Vec<f32> = (1..100).map(|i| i as f32 / 100.0).collect();
    let no_cut = sweep.recall_at_5(0.0, 0.0);
    let curve: Vec<CurvePoint> = grid
        .iter()
        .map(|&rc| {
            let tc = grid
                .iter()
                .copied()
                .filter(|&tc| tc <= rc && no_cut - sweep.recall_at_5(rc, tc) <= options.max_recall_drop + 1e-9)
                .fold(None, |best: Option<f32>, tc| Some(best.map_or(tc, |b| b.max(tc))));
            let within_budget = tc.is_some();
            let tc = tc.unwrap_or(rc);
            let (precision, recall, f1) = sweep.not_found(rc);
            CurvePoint {
                request_cut: rc,
                tool_cut: tc,
                precision,
                recall,
                f1,
                recall_at_5: sweep.recall_at_5(rc, tc),
                within_budget,
            }
        })
        .collect();
    let best = curve
        .iter()
        .filter(|p| p.within_budget)
        .max_by(|a, b| a.f1.total_cmp(&b.f1).then(b.request_cut.total_cmp(&a.request_cut)))
        .cloned()
        .ok_or_else(|| Error::Calibration("no request cut keeps recall@5 within the allowed drop".into()))?;

    let calibration = Calibration {
        version: CALIBRATION_VERSION,
        model_id,
        engine: engine_id,
        decision: DecisionModel {
            features: chosen.iter().map(|&i| FEATURES[i].to_string()).collect(),
            weights: fitted.params().iter().map(|&w| w as f32).collect(),
            bias: fitted.intercept() as f32,
            tool_cut: best.tool_cut,
            request_cut: best.request_cut,
        },
        fitted: FitSummary {
            created_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            sets: sets.iter().map(|s| s.name.clone()).collect(),
            requests: (judged.iter().filter(|j| !j.none).count(), judged.iter().filter(|j| j.none).count()),
            not_found: (best.precision, best.recall, best.f1),
            recall_at_5: (best.recall_at_5, no_cut),
        },
    };
    Ok(FitReport { calibration, rows: (positives, y.len() - positives), curve })
}

/// The judged queries with each one's candidates sorted by probability, for fast sweeps.
struct Sweep {
    queries: Vec<SweepQuery>,
}

/// One query in a sweep.
struct SweepQuery {
    none: bool,
    groups: usize,
    /// Best probability of its candidates.
    best: f32,
    /// Its five most probable candidates: (probability, groups served).
    top: Vec<(f32, Vec<usize>)>,
}

impl Sweep {
    fn new(judged: &[Judged], probability: &[f32]) -> Sweep {
        let queries = judged
            .iter()
            .map(|j| {
                let mut rows: Vec<(f32, Vec<usize>)> =
                    j.rows.iter().zip(&j.serves).map(|(&r, s)| (probability[r], s.clone())).collect();
                rows.sort_by(|a, b| b.0.total_cmp(&a.0));
                let best = rows.first().map_or(0.0, |r| r.0);
                rows.truncate(5);
                SweepQuery { none: j.none, groups: j.groups, best, top: rows }
            })
            .collect();
        Sweep { queries }
    }

    /// Group recall@5 over positive queries at the cuts.
    fn recall_at_5(&self, request_cut: f32, tool_cut: f32) -> f64 {
        let (mut hit, mut total) = (0usize, 0usize);
        for q in &self.queries {
            if q.none {
                continue;
            }
            total += q.groups;
            if q.best < request_cut {
                continue;
            }
            let mut served = HashSet::new();
            for (i, (p, g)) in q.top.iter().enumerate() {
                if *p >= tool_cut || i == 0 {
                    served.extend(g.iter().copied());
                }
            }
            hit += served.len();
        }
        if total == 0 { 0.0 } else { hit as f64 / total as f64 }
    }

    /// Not-found precision, recall and F1 at a request cut.
    fn not_found(&self, request_cut: f32) -> (f64, f64, f64) {
        let said = self.queries.iter().filter(|q| q.best < request_cut).count() as f64;
        let right = self.queries.iter().filter(|q| q.best < request_cut && q.none).count() as f64;
        let none = self.queries.iter().filter(|q| q.none).count() as f64;
        let p = if said > 0.0 { right / said } else { 0.0 };
        let r = if none > 0.0 { right / none } else { 0.0 };
        (p, r, if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 })
    }
}
