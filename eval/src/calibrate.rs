//! Fitting the engine's found / not-found decision on labelled queries (never on test sets).
//!
//! 1. Every query (and, where asked, its near-miss negative: the same request with its right tools left
//!    out) is run through the engine's stages; the candidates its decision scores (the best
//!    `rerank_depth` of each pass by fused score) become rows of [`toolscout_service::FEATURES`],
//!    labelled by whether the tool serves one of the query's groups.
//! 2. A logistic regression (linfa) is fitted on all rows: the probability that a tool serves the request;
//!    with [`FitOptions::trees`], gradient-boosted trees (perpetual) as well, blended with it in log-odds.
//! 3. The cuts are chosen on cross-fitted probabilities (each query judged by a model fitted without it):
//!    the request cut with the best not-found F1 among those that cost at most `max_recall_drop` of
//!    recall@5 (recall and F1 are means over the sets, so each set — catalog, style of request — weighs
//!    the same), then the highest tool cuts (absolute, then relative to the best tool) that cost no single
//!    set more than half a point more — so answers carry as few tools the model judged irrelevant as that
//!    allows, and no catalog pays for it. Requests not written in English (`toolscout_service::
//!    foreign_language`) are left out of that sweep: only the dense side reads them, so their
//!    probabilities run lower, and they get a request cut of their own — the best not-found F1 among the
//!    cuts that cost them at most the same recall budget, pooled over the sets (each holds only a few).

use std::collections::HashSet;
use std::sync::Arc;

use linfa::prelude::*;
use linfa_logistic::LogisticRegression;
use ndarray_linfa::{Array1, Array2};
use perpetual::objective::Objective;
use perpetual::{Matrix, PerpetualBooster};
use serde::Serialize;
use toolscout_indexer::{BoostedTrees, CALIBRATION_VERSION, Calibration, DecisionModel, FitSummary, Tree};
use toolscout_service::{DiscoverParams, Engine, FEATURES, blend_probabilities, foreign_language};

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
    /// Also fit on the near-miss negative of each answerable query (right tools left out). Worth it where
    /// the labels list every tool that serves a request; where they list one of several look-alikes
    /// (MetaTool's plugins), the "near miss" is often still served and only teaches noise.
    pub near_misses: bool,
}

/// How [`fit`] works.
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// Largest loss of recall@5 (absolute) the cuts may cost.
    pub max_recall_drop: f64,
    /// L2 regularization strength of the logistic regression.
    pub alpha: f64,
    /// Fit on these features only (ablation); `None`: all.
    pub features: Option<Vec<String>>,
    /// Also return every row fitted on (for analysis outside toolscout).
    pub keep_rows: bool,
    /// Fit gradient-boosted trees at this perpetual budget (higher: more trees, finer fit) and blend them
    /// into the decision; `None`: the logistic regression decides alone.
    pub trees: Option<f32>,
    /// The trees' share of the decision's log-odds; the logistic regression has the rest.
    pub trees_share: f32,
    /// Largest recall@5 loss (absolute, on any one set) the tool cuts may add to the request cut's.
    pub tool_cut_budget: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            max_recall_drop: 0.02,
            alpha: 0.05,
            features: None,
            keep_rows: false,
            trees: None,
            trees_share: 1.0,
            tool_cut_budget: TOOL_CUT_BUDGET,
        }
    }
}

/// One point of the cut sweep: a request cut, the tool cuts chosen with it, and what they give.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CurvePoint {
    /// The request cut.
    pub request_cut: f32,
    /// The highest absolute tool cut that costs no set more than the tool-cut budget of recall@5.
    pub tool_cut: f32,
    /// The highest relative tool cut that costs no set more than the budget, at that tool cut.
    pub relative_cut: f32,
    /// Not-found precision.
    pub precision: f64,
    /// Not-found recall.
    pub recall: f64,
    /// Not-found F1.
    pub f1: f64,
    /// Group recall@5 of positive queries at these cuts.
    pub recall_at_5: f64,
    /// Mean number of tools a found answer to a positive query delivers at these cuts.
    pub delivered: f64,
    /// Whether the recall drop stays within the budget.
    pub within_budget: bool,
}

/// The request cut for requests not written in English, and what it gives on them (all sets pooled).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ForeignFit {
    /// The cut.
    pub request_cut: f32,
    /// Answerable and `none` requests not in English.
    pub requests: (usize, usize),
    /// Not-found precision, recall and F1 on them at the cut.
    pub not_found: (f64, f64, f64),
    /// Their group recall@5 at the cut, and without a decision.
    pub recall_at_5: (f64, f64),
}

/// A fitted calibration and how it was reached.
#[derive(Debug, Clone, Serialize)]
pub struct FitReport {
    /// What goes into `calibration.json`.
    pub calibration: Calibration,
    /// Rows fitted on (positive, negative).
    pub rows: (usize, usize),
    /// The sweep over request cuts (requests in English).
    pub curve: Vec<CurvePoint>,
    /// The cut for requests not in English, when the sets held some of both kinds.
    pub foreign: Option<ForeignFit>,
    /// Every row fitted on, when asked for ([`FitOptions::keep_rows`]).
    #[serde(skip)]
    pub row_data: Vec<Row>,
}

/// One (request, candidate) row of a fit.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The set (`INDEX=QUERIES`).
    pub set: String,
    /// The query id (`~nm`: its near-miss negative).
    pub query: String,
    /// The request's kind.
    pub kind: Kind,
    /// The candidate's rank by fused score.
    pub rank: usize,
    /// Its server.
    pub server: String,
    /// Its tool.
    pub tool: String,
    /// Whether it serves one of the request's groups.
    pub label: bool,
    /// Its features, in [`FEATURES`] order.
    pub features: Vec<f32>,
}

/// A query's rows, ready for the sweep.
struct Judged {
    set: usize,
    none: bool,
    /// Not written in English.
    foreign: bool,
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

    // 1. Rows: every candidate the engine's decision scores (the best `rerank_depth` of each pass).
    let width = chosen.len();
    let mut rows = Rows { x: Vec::new(), y: Vec::new(), set: Vec::new(), fold: Vec::new() };
    let mut judged: Vec<Judged> = Vec::new();
    let mut row_data = Vec::new();
    let mut catalog_sizes: Option<[f32; 2]> = None;
    for (si, set) in sets.iter().enumerate() {
        let mut queries = set.queries.clone();
        if set.near_misses {
            queries.extend(near_misses(&set.queries));
        }
        // Features as measured, the catalog size not limited by the decision the engine was opened with.
        let engine = set.engine.with_decision(set.engine.decision().with_raw_catalog_size());
        let size = (engine.snapshot().tools.len().max(1) as f32).log10();
        catalog_sizes =
            Some(catalog_sizes.map_or([size, size], |[low, high]: [f32; 2]| [low.min(size), high.max(size)]));
        for q in &queries {
            let params = DiscoverParams { limit: Some(10), ..DiscoverParams::new(request_text(q)) };
            let exclude: Vec<(String, String)> = q.exclude.iter().map(|p| (p.server.clone(), p.tool.clone())).collect();
            let (examined, named) =
                engine.examine(&params, &exclude).map_err(|source| Error::Query { id: q.id.clone(), source })?;
            if named > 0 {
                continue; // a named tool decides by itself
            }
            // A query and its near miss share a fold, so cross-fitting never sees one while judging the other.
            let fold = fold_of(q.id.trim_end_matches("~nm"));
            let mut j = Judged {
                set: si,
                none: q.kind == Kind::None,
                foreign: foreign_language(&params.query),
                groups: q.relevant.len(),
                rows: Vec::new(),
                serves: Vec::new(),
            };
            for (rank, e) in examined.iter().enumerate() {
                let serves: Vec<usize> = (0..q.relevant.len())
                    .filter(|&g| q.relevant[g].iter().any(|p| p.server == e.server && p.tool == e.tool))
                    .collect();
                if options.keep_rows {
                    row_data.push(Row {
                        set: set.name.clone(),
                        query: q.id.clone(),
                        kind: q.kind,
                        rank,
                        server: e.server.clone(),
                        tool: e.tool.clone(),
                        label: !serves.is_empty(),
                        features: e.features.to_vec(),
                    });
                }
                j.rows.push(rows.y.len());
                rows.x.extend(chosen.iter().map(|&i| e.features[i]));
                rows.y.push(!serves.is_empty());
                rows.set.push(si);
                rows.fold.push(fold);
                j.serves.push(serves);
            }
            judged.push(j);
        }
    }
    let positives = rows.y.iter().filter(|&&b| b).count();
    if positives == 0 || positives == rows.y.len() || !judged.iter().any(|j| j.none) {
        return Err(Error::Calibration("need positive queries whose tools are found, and `none` queries".into()));
    }

    // 2. The logistic regression, on all rows; the cuts are chosen on cross-fitted probabilities (each
    // query judged by a model that never saw it), so they hold on requests the fit has not seen.
    let (weights, bias) = logistic(&rows, width, sets.len(), options.alpha, |_| true)?;
    let mut probability = vec![0f32; rows.y.len()];
    for fold in 0..FOLDS {
        let (w, b) = logistic(&rows, width, sets.len(), options.alpha, |i| rows.fold[i] != fold)?;
        for i in (0..rows.y.len()).filter(|&i| rows.fold[i] == fold) {
            probability[i] = predict(&rows.x[i * width..(i + 1) * width], &w, b);
        }
    }
    let trees = match options.trees {
        None => None,
        Some(budget) => {
            for fold in 0..FOLDS {
                let trees = boost(&rows, width, sets.len(), budget, |i| rows.fold[i] != fold)?;
                for i in (0..rows.y.len()).filter(|&i| rows.fold[i] == fold) {
                    let p = sigmoid(trees.log_odds(&rows.x[i * width..(i + 1) * width]));
                    probability[i] = blend_probabilities(p, probability[i], options.trees_share);
                }
            }
            Some(boost(&rows, width, sets.len(), budget, |_| true)?)
        }
    };

    // 3. The cuts, for requests in English; then the cut for the others.
    let sweep = Sweep::new(judged.iter().filter(|j| !j.foreign), &probability);
    let foreign_sweep = Sweep::new(judged.iter().filter(|j| j.foreign), &probability);
    let grid: Vec<f32> = (1..100).map(|i| i as f32 / 100.0).collect();
    let relative = [0.0f32, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5];
    let no_cut = sweep.recall_at_5(0.0, 0.0, 0.0);
    let within = |rc: f32| no_cut - sweep.recall_at_5(rc, 0.0, 0.0) <= options.max_recall_drop + 1e-9;
    // Tool cuts only where they are free: they may cost no set more than `tool_cut_budget` of recall@5
    // (half a point by default) on top of the request cut (a mean over sets would let them hide a large
    // loss on one catalog).
    let tools_free = |rc: f32, tc: f32, rel: f32| sweep.worst_set_drop(rc, tc, rel) <= options.tool_cut_budget + 1e-9;
    let curve: Vec<CurvePoint> = grid
        .iter()
        .map(|&rc| {
            let within_budget = within(rc);
            let tc = grid.iter().copied().filter(|&tc| tc <= rc && tools_free(rc, tc, 0.0)).fold(0.0, f32::max);
            let rel = relative.iter().copied().filter(|&rel| tools_free(rc, tc, rel)).fold(0.0, f32::max);
            let (precision, recall, f1) = sweep.not_found(rc);
            CurvePoint {
                request_cut: rc,
                tool_cut: tc,
                relative_cut: rel,
                precision,
                recall,
                f1,
                recall_at_5: sweep.recall_at_5(rc, tc, rel),
                delivered: sweep.delivered(rc, tc, rel),
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
    let foreign = foreign_sweep.foreign_cut(&best, options.max_recall_drop);

    let calibration = Calibration {
        version: CALIBRATION_VERSION,
        model_id,
        engine: engine_id,
        decision: DecisionModel {
            features: chosen.iter().map(|&i| FEATURES[i].to_string()).collect(),
            weights: weights.iter().map(|&w| w as f32).collect(),
            bias: bias as f32,
            tool_cut: best.tool_cut,
            relative_cut: best.relative_cut,
            request_cut: best.request_cut,
            foreign_request_cut: foreign.as_ref().map(|f| f.request_cut),
            trees_share: trees.as_ref().map(|_| options.trees_share),
            trees,
            catalog_sizes,
        },
        fitted: FitSummary {
            created_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            sets: sets.iter().map(|s| s.name.clone()).collect(),
            requests: (judged.iter().filter(|j| !j.none).count(), judged.iter().filter(|j| j.none).count()),
            not_found: (best.precision, best.recall, best.f1),
            recall_at_5: (best.recall_at_5, no_cut),
        },
    };
    Ok(FitReport { calibration, rows: (positives, rows.y.len() - positives), curve, foreign, row_data })
}

/// The judged queries with each one's candidates sorted by probability, for fast sweeps.
struct Sweep {
    queries: Vec<SweepQuery>,
}

/// One query in a sweep.
struct SweepQuery {
    set: usize,
    none: bool,
    groups: usize,
    /// Best probability of its candidates.
    best: f32,
    /// Its five most probable candidates: (probability, groups served).
    top: Vec<(f32, Vec<usize>)>,
}

impl SweepQuery {
    /// The candidates a found answer delivers at the cuts (the best one always).
    fn kept(&self, tool_cut: f32, relative_cut: f32) -> impl Iterator<Item = &(f32, Vec<usize>)> {
        self.top
            .iter()
            .enumerate()
            .filter(move |(i, (p, _))| *i == 0 || (*p >= tool_cut && *p >= relative_cut * self.best))
            .map(|(_, t)| t)
    }
}

/// Largest recall@5 loss (absolute, on any one set) the tool cuts may add to the request cut's, unless
/// [`FitOptions::tool_cut_budget`] says otherwise.
pub const TOOL_CUT_BUDGET: f64 = 0.005;

/// Folds of the cross-fitting that chooses the cuts.
const FOLDS: usize = 5;

/// The (request, candidate) rows of a fit.
struct Rows {
    /// Features, row after row, as the engine computes them.
    x: Vec<f32>,
    /// Serves the request?
    y: Vec<bool>,
    /// The set each row came from.
    set: Vec<usize>,
    /// The cross-fitting fold of each row's request.
    fold: Vec<usize>,
}

/// A stable fold for a query id.
fn fold_of(id: &str) -> usize {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)) as usize % FOLDS
}

/// Fits the logistic regression on the rows `take` keeps; returns the weights and bias of P(serves).
/// Each set weighs the same, whatever its size: its rows are repeated or thinned (deterministically,
/// evenly spread) to the median set's row count (linfa's logistic regression takes no sample weights).
fn logistic(
    rows: &Rows,
    width: usize,
    sets: usize,
    alpha: f64,
    take: impl Fn(usize) -> bool,
) -> Result<(Vec<f64>, f64)> {
    let mut by_set: Vec<Vec<usize>> = vec![Vec::new(); sets];
    for i in (0..rows.y.len()).filter(|&i| take(i)) {
        by_set[rows.set[i]].push(i);
    }
    let mut sizes: Vec<usize> = by_set.iter().map(Vec::len).filter(|&n| n > 0).collect();
    sizes.sort_unstable();
    let target = sizes.get(sizes.len() / 2).copied().unwrap_or(0).max(1);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for members in by_set.iter().filter(|m| !m.is_empty()) {
        for k in 0..target {
            let i = members[k * members.len() / target];
            x.extend(rows.x[i * width..(i + 1) * width].iter().map(|&v| f64::from(v)));
            y.push(rows.y[i]);
        }
    }
    let n = y.len();
    let records =
        Array2::from_shape_vec((n, width), x).map_err(|e| Error::Calibration(format!("feature matrix: {e}")))?;
    let fitted = LogisticRegression::default()
        .alpha(alpha)
        .max_iterations(500)
        .fit(&Dataset::new(records, Array1::from_vec(y)))
        .map_err(|e| Error::Calibration(format!("logistic regression: {e}")))?;
    // linfa models the probability of the more frequent class; P(serves) = σ(z) or 1 − σ(z) = σ(−z).
    let sign = if fitted.labels().pos.class { 1.0 } else { -1.0 };
    Ok((fitted.params().iter().map(|w| sign * w).collect(), sign * fitted.intercept()))
}

/// Fits gradient-boosted trees (perpetual, log loss) on the rows `take` keeps, each set weighing the same
/// (sample weights inverse to its row count), and converts them to the engine's compact form — checked to
/// give perpetual's own log-odds on every row.
fn boost(rows: &Rows, width: usize, sets: usize, budget: f32, take: impl Fn(usize) -> bool) -> Result<BoostedTrees> {
    let members: Vec<usize> = (0..rows.y.len()).filter(|&i| take(i)).collect();
    let mut per_set = vec![0usize; sets];
    for &i in &members {
        per_set[rows.set[i]] += 1;
    }
    let live = per_set.iter().filter(|&&n| n > 0).count().max(1) as f64;
    let n = members.len() as f64;
    let weight: Vec<f64> = members.iter().map(|&i| n / (live * per_set[rows.set[i]] as f64)).collect();
    let y: Vec<f64> = members.iter().map(|&i| f64::from(u8::from(rows.y[i]))).collect();
    // perpetual's matrices are column-major.
    let data: Vec<f64> =
        (0..width).flat_map(|c| members.iter().map(move |&i| f64::from(rows.x[i * width + c]))).collect();
    let matrix = Matrix::new(&data, members.len(), width);
    let mut booster = PerpetualBooster::default().set_objective(Objective::LogLoss).set_budget(budget);
    booster.fit(&matrix, &y, Some(&weight), None).map_err(|e| Error::Calibration(format!("boosted trees: {e}")))?;
    let trees = compact(&booster, width)?;
    let theirs = booster.predict(&matrix, true);
    for (k, &i) in members.iter().enumerate() {
        let ours = trees.log_odds(&rows.x[i * width..(i + 1) * width]);
        if (ours - theirs[k]).abs() > 1e-3 * (1.0 + theirs[k].abs()) {
            return Err(Error::Calibration(format!("compact trees give {ours}, perpetual {} on row {i}", theirs[k])));
        }
    }
    Ok(trees)
}

/// perpetual's trees in the engine's compact form ([`BoostedTrees`]): nodes renumbered root first, each
/// child after its parent.
fn compact(booster: &PerpetualBooster, width: usize) -> Result<BoostedTrees> {
    let bad = |what: String| Error::Calibration(format!("boosted trees: {what}"));
    if booster.regression_head.is_some() {
        return Err(bad("a regression head is not supported".into()));
    }
    let mut trees = Vec::new();
    for tree in booster.get_prediction_trees() {
        let mut out = Tree { feature: Vec::new(), value: Vec::new(), left: Vec::new(), right: Vec::new() };
        // Breadth first from the root, by perpetual's node numbers; a node's place is its pop order.
        let mut queue = std::collections::VecDeque::from([0usize]);
        while let Some(num) = queue.pop_front() {
            let node = tree.nodes.get(&num).ok_or_else(|| bad(format!("node {num} is missing")))?;
            let at = out.value.len();
            if node.is_leaf {
                out.feature.push(0);
                out.value.push(node.weight_value);
                out.left.push(0);
                out.right.push(0);
                continue;
            }
            if node.left_cats.is_some() || node.split_feature >= width {
                return Err(bad(format!("node {num} splits on categories or an unknown feature")));
            }
            let threshold = node.split_value as f32;
            if f64::from(threshold) != node.split_value {
                return Err(bad(format!("threshold {} is not an f32", node.split_value)));
            }
            out.feature.push(node.split_feature as u16);
            out.value.push(threshold);
            // Children get the next free places after everything already queued.
            let next = at + queue.len() + 1;
            out.left.push(next as u32);
            out.right.push(next as u32 + 1);
            queue.push_back(node.left_child);
            queue.push_back(node.right_child);
        }
        trees.push(out);
    }
    let trees = BoostedTrees { base: booster.base_score, trees };
    trees.check(width).map_err(bad)?;
    Ok(trees)
}

/// σ(z).
fn sigmoid(z: f64) -> f32 {
    (1.0 / (1.0 + (-z).exp())) as f32
}

/// σ(bias + w · x).
fn predict(x: &[f32], w: &[f64], bias: f64) -> f32 {
    let z = bias + x.iter().zip(w).map(|(&x, w)| f64::from(x) * w).sum::<f64>();
    (1.0 / (1.0 + (-z).exp())) as f32
}

impl Sweep {
    fn new<'a>(judged: impl Iterator<Item = &'a Judged>, probability: &[f32]) -> Sweep {
        let queries = judged
            .map(|j| {
                let mut rows: Vec<(f32, Vec<usize>)> =
                    j.rows.iter().zip(&j.serves).map(|(&r, s)| (probability[r], s.clone())).collect();
                rows.sort_by(|a, b| b.0.total_cmp(&a.0));
                let best = rows.first().map_or(0.0, |r| r.0);
                rows.truncate(5);
                SweepQuery { set: j.set, none: j.none, groups: j.groups, best, top: rows }
            })
            .collect();
        Sweep { queries }
    }

    /// The mean over sets of what `per_set` gives for each set's queries (sets for which it gives `None`
    /// do not count): every set weighs the same, so a large in-domain set cannot hide what the cuts cost
    /// on a small one closer to real requests.
    fn per_set(&self, per_set: impl Fn(&[&SweepQuery]) -> Option<f64>) -> f64 {
        let sets = self.queries.iter().map(|q| q.set).max().map_or(0, |m| m + 1);
        let values: Vec<f64> = (0..sets)
            .filter_map(|s| {
                let qs: Vec<&SweepQuery> = self.queries.iter().filter(|q| q.set == s).collect();
                per_set(&qs)
            })
            .collect();
        if values.is_empty() { 0.0 } else { values.iter().sum::<f64>() / values.len() as f64 }
    }

    /// Group recall@5 over positive queries at the cuts (mean over sets).
    fn recall_at_5(&self, request_cut: f32, tool_cut: f32, relative_cut: f32) -> f64 {
        self.per_set(|qs| Self::recall_of(qs, request_cut, tool_cut, relative_cut))
    }

    fn recall_of(queries: &[&SweepQuery], request_cut: f32, tool_cut: f32, relative_cut: f32) -> Option<f64> {
        let (mut hit, mut total) = (0usize, 0usize);
        for q in queries.iter().filter(|q| !q.none) {
            total += q.groups;
            if q.best < request_cut {
                continue;
            }
            let served: HashSet<usize> = q.kept(tool_cut, relative_cut).flat_map(|(_, g)| g.iter().copied()).collect();
            hit += served.len();
        }
        (total > 0).then(|| hit as f64 / total as f64)
    }

    /// The largest loss of recall@5 on one set that tool cuts add at a request cut.
    fn worst_set_drop(&self, request_cut: f32, tool_cut: f32, relative_cut: f32) -> f64 {
        let sets = self.queries.iter().map(|q| q.set).max().map_or(0, |m| m + 1);
        (0..sets)
            .filter_map(|s| {
                let qs: Vec<&SweepQuery> = self.queries.iter().filter(|q| q.set == s).collect();
                let base = Self::recall_of(&qs, request_cut, 0.0, 0.0)?;
                let cut = Self::recall_of(&qs, request_cut, tool_cut, relative_cut)?;
                Some(base - cut)
            })
            .fold(0.0, f64::max)
    }

    /// Mean number of tools a found answer to a positive query delivers at the cuts.
    fn delivered(&self, request_cut: f32, tool_cut: f32, relative_cut: f32) -> f64 {
        let found: Vec<&SweepQuery> = self.queries.iter().filter(|q| !q.none && q.best >= request_cut).collect();
        let n: usize = found.iter().map(|q| q.kept(tool_cut, relative_cut).count()).sum();
        if found.is_empty() { 0.0 } else { n as f64 / found.len() as f64 }
    }

    /// Not-found precision, recall and F1 of `queries` at a request cut (`None` without `none` queries).
    fn not_found_of(queries: &[&SweepQuery], request_cut: f32) -> Option<(f64, f64, f64)> {
        let none = queries.iter().filter(|q| q.none).count() as f64;
        if none == 0.0 {
            return None;
        }
        let said = queries.iter().filter(|q| q.best < request_cut).count() as f64;
        let right = queries.iter().filter(|q| q.best < request_cut && q.none).count() as f64;
        let p = if said > 0.0 { right / said } else { 0.0 };
        let r = right / none;
        Some((p, r, if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 }))
    }

    /// The request cut for requests not in English, all sets pooled, at most `english`'s request cut: the
    /// best not-found F1 among cuts (steps of 0.001) that cost these requests at most `budget` of
    /// recall@5. `None` when they hold no answerable or no `none` request.
    fn foreign_cut(&self, english: &CurvePoint, budget: f64) -> Option<ForeignFit> {
        let qs: Vec<&SweepQuery> = self.queries.iter().collect();
        let (tc, rel) = (english.tool_cut, english.relative_cut);
        let base = Self::recall_of(&qs, 0.0, tc, rel)?;
        Self::not_found_of(&qs, 0.0)?;
        let requests = (qs.iter().filter(|q| !q.none).count(), qs.iter().filter(|q| q.none).count());
        let steps = (english.request_cut * 1000.0).round() as usize;
        (0..=steps)
            .map(|i| i as f32 / 1000.0)
            .filter_map(|cut| {
                let recall_at_5 = Self::recall_of(&qs, cut, tc, rel)?;
                let not_found = Self::not_found_of(&qs, cut)?;
                (base - recall_at_5 <= budget + 1e-9).then_some(ForeignFit {
                    request_cut: cut,
                    requests,
                    not_found,
                    recall_at_5: (recall_at_5, base),
                })
            })
            .max_by(|a, b| a.not_found.2.total_cmp(&b.not_found.2).then(b.request_cut.total_cmp(&a.request_cut)))
    }

    /// Not-found precision, recall and F1 at a request cut (each the mean over sets with `none` queries).
    fn not_found(&self, request_cut: f32) -> (f64, f64, f64) {
        let of = |qs: &[&SweepQuery]| Self::not_found_of(qs, request_cut);
        (
            self.per_set(|qs| of(qs).map(|v| v.0)),
            self.per_set(|qs| of(qs).map(|v| v.1)),
            self.per_set(|qs| of(qs).map(|v| v.2)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(none: bool, best: f32) -> SweepQuery {
        let top = vec![(best, if none { Vec::new() } else { vec![0] })];
        SweepQuery { set: 0, none, groups: usize::from(!none), best, top }
    }

    #[test]
    fn the_foreign_cut_is_the_best_f1_that_keeps_their_recall_within_budget() {
        let sweep =
            Sweep { queries: vec![query(false, 0.005), query(false, 0.02), query(true, 0.001), query(true, 0.003)] };
        let english = CurvePoint {
            request_cut: 0.03,
            tool_cut: 0.0,
            relative_cut: 0.0,
            precision: 0.0,
            recall: 0.0,
            f1: 0.0,
            recall_at_5: 0.0,
            delivered: 0.0,
            within_budget: true,
        };
        // No recall may be lost: the lowest cut that says not_found to both `none` requests.
        let fit = sweep.foreign_cut(&english, 0.0).expect("both kinds present");
        assert!((fit.request_cut - 0.004).abs() < 1e-6, "{fit:?}");
        assert_eq!((fit.requests, fit.not_found.2), ((2, 2), 1.0));
        // Half the recall may go: still the best F1, and never above the English cut.
        let loose = sweep.foreign_cut(&english, 0.5).expect("both kinds present");
        assert!(loose.request_cut <= 0.03 && loose.not_found.2 == 1.0, "{loose:?}");
        // Without `none` requests there is nothing to fit.
        let answerable_only = Sweep { queries: vec![query(false, 0.005)] };
        assert!(answerable_only.foreign_cut(&english, 0.0).is_none());
    }

    #[test]
    fn boosted_trees_are_compacted_to_the_same_log_odds_and_learn_the_rule() {
        // Two sets; a row serves when its first feature is high and its second is not set.
        let (n, width) = (600, 2);
        let mut rows = Rows { x: Vec::new(), y: Vec::new(), set: Vec::new(), fold: Vec::new() };
        for i in 0..n {
            let (a, b) = ((i % 97) as f32 / 97.0, f32::from(u8::from(i % 3 == 0)));
            rows.x.extend([a, b]);
            rows.y.push(a > 0.6 && b == 0.0);
            rows.set.push(i % 2);
            rows.fold.push(i % FOLDS);
        }
        // `boost` itself fails when the compact form and perpetual disagree on any row.
        let trees = boost(&rows, width, 2, 0.5, |_| true).expect("fit");
        assert!(!trees.trees.is_empty());
        let p = |a: f32, b: f32| sigmoid(trees.log_odds(&[a, b]));
        assert!(
            p(0.9, 0.0) > 0.8 && p(0.9, 1.0) < 0.2 && p(0.2, 0.0) < 0.2,
            "{} {} {}",
            p(0.9, 0.0),
            p(0.9, 1.0),
            p(0.2, 0.0)
        );
        // Children come after their parents, inside the tree.
        assert!(trees.check(width).is_ok());
        // Tree after tree over all rows (the engine's way) gives each row's log-odds exactly.
        let batch = trees.log_odds_of_rows(&rows.x, width);
        assert!(batch.iter().enumerate().all(|(i, &z)| z == trees.log_odds(&rows.x[i * width..(i + 1) * width])));
    }
}
