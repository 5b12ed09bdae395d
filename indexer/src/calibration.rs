//! `calibration.json`: how the engine decides `found` / `not_found` for one index, fitted on labelled
//! queries by `toolscout calibrate`. Typed and versioned; it records the embedding model and the engine
//! configuration it was fitted for, so a stale file is refused instead of quietly shifting decisions.

use serde::{Deserialize, Serialize};

/// Version of the calibration file this build reads and writes.
pub const CALIBRATION_VERSION: u32 = 2;

/// A fitted decision, as stored in the index folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// [`CALIBRATION_VERSION`] of the writer.
    pub version: u32,
    /// The embedding model the scores came from (`Embedder::model_id`).
    pub model_id: String,
    /// Fingerprint of the engine configuration the scores came from (the service computes it).
    pub engine: String,
    /// The decision itself.
    pub decision: DecisionModel,
    /// What it was fitted on and how it scored there.
    pub fitted: FitSummary,
}

impl Calibration {
    /// The file's text: indented, except with trees (one number per line would make it ten times larger).
    pub fn to_json(&self) -> String {
        let text = if self.decision.trees.is_some() {
            serde_json::to_string(self)
        } else {
            serde_json::to_string_pretty(self)
        };
        text.expect("a calibration serializes")
    }
}

/// A model over named features — logistic, `p = sigmoid(bias + Σ weights[i] · features[i])`, or the
/// boosted `trees` when it has them. A request is
/// `found` when its best tool's `p` reaches `request_cut` (`foreign_request_cut` for a request not in English); a tool is delivered when its `p` reaches
/// `tool_cut` and `relative_cut` times the best tool's `p`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionModel {
    /// Feature names, in the order of `weights` (the engine refuses a model whose features it lacks).
    pub features: Vec<String>,
    /// One weight per feature.
    pub weights: Vec<f32>,
    /// Intercept.
    pub bias: f32,
    /// Lowest probability of a delivered tool.
    pub tool_cut: f32,
    /// Lowest probability of a delivered tool relative to the request's best tool.
    pub relative_cut: f32,
    /// Lowest best-tool probability of a `found` answer.
    pub request_cut: f32,
    /// The same for a request not written in English (the service's `language.rs` tells): only the dense
    /// side reads it, so its probabilities run lower. `None`: `request_cut`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foreign_request_cut: Option<f32>,
    /// Gradient-boosted trees over the same `features`: when present, `p` is the sigmoid of `trees_share`
    /// of their log-odds plus the rest of the logistic model's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trees: Option<BoostedTrees>,
    /// With `trees`: their share of the log-odds (`None`: all of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trees_share: Option<f32>,
    /// The range of the `catalog_size` feature (log10 of the tools in the index) over the catalogs it was
    /// fitted on: a larger (or smaller) catalog is scored as one at the nearer end of it, not by
    /// extrapolating the fitted weights (`None`: not limited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_sizes: Option<[f32; 2]>,
}

/// Gradient-boosted trees in the compact form the engine evaluates (`toolscout calibrate` converts them
/// from the fitting library's own form and checks that both give the same log-odds): the log-odds of a
/// feature row are `base` plus, in each tree, the value of the leaf the row reaches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoostedTrees {
    /// Log-odds before any tree.
    pub base: f64,
    /// The trees.
    pub trees: Vec<Tree>,
}

/// One tree, node `0` its root, as parallel arrays (one entry per node). At a split node `i` a row goes to
/// `left[i]` when its feature `feature[i]` is below `value[i]`, else (also when it is NaN) to `right[i]`;
/// a node whose `left` is `0` is a leaf (the root is no node's child) and `value` holds its log-odds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tree {
    /// The feature a split node reads (an index into the row).
    pub feature: Vec<u16>,
    /// Split threshold, or leaf value.
    pub value: Vec<f32>,
    /// Child for rows below the threshold; `0` at a leaf.
    pub left: Vec<u32>,
    /// Child for the others.
    pub right: Vec<u32>,
}

impl BoostedTrees {
    /// Checks the shape: parallel arrays of one length, children inside the tree and after their parent
    /// (so every walk ends), features inside a row of `width`.
    pub fn check(&self, width: usize) -> Result<(), String> {
        for (t, tree) in self.trees.iter().enumerate() {
            let n = tree.value.len();
            if n == 0 || tree.feature.len() != n || tree.left.len() != n || tree.right.len() != n {
                return Err(format!("tree {t}: arrays of different lengths, or empty"));
            }
            for i in (0..n).filter(|&i| tree.left[i] != 0) {
                let (l, r) = (tree.left[i] as usize, tree.right[i] as usize);
                if l <= i || r <= i || l >= n || r >= n || usize::from(tree.feature[i]) >= width {
                    return Err(format!("tree {t}: node {i} points outside the tree or the features"));
                }
            }
        }
        Ok(())
    }

    /// The log-odds of one row (its features in the model's order); the shape must have passed
    /// [`BoostedTrees::check`] for the row's width.
    pub fn log_odds(&self, row: &[f32]) -> f64 {
        self.trees.iter().fold(self.base, |z, tree| z + f64::from(tree.leaf(row)))
    }

    /// [`BoostedTrees::log_odds`] of each row of `rows` (`width` features each, row after row), tree after
    /// tree so that one tree stays in cache over all the rows; the same sums in the same order.
    pub fn log_odds_of_rows(&self, rows: &[f32], width: usize) -> Vec<f64> {
        let width = width.max(1);
        let mut z = vec![self.base; rows.len() / width];
        for tree in &self.trees {
            for (z, row) in z.iter_mut().zip(rows.chunks_exact(width)) {
                *z += f64::from(tree.leaf(row));
            }
        }
        z
    }
}

impl Tree {
    /// The value of the leaf `row` reaches.
    fn leaf(&self, row: &[f32]) -> f32 {
        let mut i = 0;
        while self.left[i] != 0 {
            i = if row[usize::from(self.feature[i])] < self.value[i] { self.left[i] } else { self.right[i] } as usize;
        }
        self.value[i]
    }
}

/// Provenance and dev-set scores of a calibration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitSummary {
    /// When it was fitted (RFC 3339).
    pub created_at: String,
    /// The query sets it was fitted on (`INDEX=QUERIES`).
    pub sets: Vec<String>,
    /// Positive and `none` requests used.
    pub requests: (usize, usize),
    /// Not-found precision, recall and F1 on those sets at the chosen cuts.
    pub not_found: (f64, f64, f64),
    /// Group recall@5 at the chosen cuts, and with every answer `found`.
    pub recall_at_5: (f64, f64),
}
