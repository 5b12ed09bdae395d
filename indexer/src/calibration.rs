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

/// A logistic model over named features: `p = sigmoid(bias + Σ weights[i] · features[i])`. A request is
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
