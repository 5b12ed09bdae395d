//! The found / not-found decision: a model over the [`FEATURES`] of each candidate — a logistic
//! regression, blended with gradient-boosted trees when it has them — fitted by `toolscout calibrate` and stored in
//! the index folder (`calibration.json`, owned by the indexer's `IndexDir`), else the built-in one fitted
//! on the dev sets. A tool is kept when its probability reaches the tool cut; a request is `found` when its
//! best tool's probability reaches the request cut.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use toolscout_indexer::{Calibration, DecisionModel, IndexDir, PackedTrees};

use crate::features::{FEATURES, Features};
use crate::{Error, Result};

/// The calibration shipped in the binary (fitted on the dev sets with the default model and engine; see
/// BENCHMARKS.md for how).
const BUILT_IN: &str = include_str!("decision/built-in.json");

/// Where the decision in force came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionSource {
    /// The built-in calibration.
    BuiltIn,
    /// The index's `calibration.json`.
    Calibration,
    /// The built-in calibration with the request cut set by configuration.
    Config,
}

/// A decision model ready to score feature vectors.
#[derive(Debug, Clone)]
pub struct Decision {
    model: DecisionModel,
    /// For each model feature, its position in [`FEATURES`].
    positions: Vec<usize>,
    /// The model's trees, when it has them, packed for scoring (shared by every clone).
    trees: Option<Arc<PackedTrees>>,
    /// Where it came from.
    pub source: DecisionSource,
    /// The embedding model it was fitted for.
    pub fitted_for: String,
}

impl Decision {
    /// A decision from a stored model; every feature it names must be one this engine computes.
    pub fn new(model: DecisionModel, source: DecisionSource, fitted_for: String) -> Result<Decision> {
        if model.features.len() != model.weights.len() {
            return Err(Error::BadCalibration("features and weights differ in length".into()));
        }
        let positions: Vec<usize> = model
            .features
            .iter()
            .map(|f| {
                FEATURES
                    .iter()
                    .position(|g| g == f)
                    .ok_or_else(|| Error::BadCalibration(format!("unknown feature {f:?}")))
            })
            .collect::<Result<_>>()?;
        // The trees are held apart from the model, shared: cloning a decision copies no tree.
        let mut model = model;
        let trees = match model.trees.take() {
            None => None,
            Some(trees) => {
                trees.check(positions.len()).map_err(|e| Error::BadCalibration(format!("trees: {e}")))?;
                Some(Arc::new(PackedTrees::new(&trees)))
            }
        };
        Ok(Decision { model, positions, trees, source, fitted_for })
    }

    /// The built-in decision.
    pub fn built_in() -> Decision {
        let c: Calibration = serde_json::from_str(BUILT_IN).expect("the built-in calibration is checked by a test");
        Decision::new(c.decision, DecisionSource::BuiltIn, c.model_id).expect("checked by a test")
    }

    /// The decision for an index: its calibration when it has one (which must match `model_id` and
    /// `engine`), else the built-in one. `request_cut` overrides the request cut.
    pub fn for_index(dir: &IndexDir, model_id: &str, engine: &str, request_cut: Option<f32>) -> Result<Decision> {
        let mut decision = match dir.read_calibration()? {
            Some(c) => {
                let path = dir.calibration_path();
                if c.model_id != model_id {
                    return Err(Error::BadCalibration(format!(
                        "{} was fitted for model {}, but the index uses {model_id}; run `toolscout calibrate` again",
                        path.display(),
                        c.model_id
                    )));
                }
                if c.engine != engine {
                    return Err(Error::BadCalibration(format!(
                        "{} was fitted for engine configuration {}, but this engine is {engine}; run `toolscout \
                         calibrate` again",
                        path.display(),
                        c.engine
                    )));
                }
                Decision::new(c.decision, DecisionSource::Calibration, c.model_id)
                    .map_err(|e| Error::BadCalibration(format!("{}: {e}", path.display())))?
            }
            None => Decision::built_in(),
        };
        if let Some(cut) = request_cut {
            // A foreign cut keeps its ratio to the request cut: an operator who asks for twice the cut
            // gets it for requests in every language.
            let m = &mut decision.model;
            if let Some(foreign) = m.foreign_request_cut.as_mut() {
                *foreign = if m.request_cut > 0.0 { *foreign * cut / m.request_cut } else { cut };
            }
            m.request_cut = cut;
            decision.source = DecisionSource::Config;
        }
        Ok(decision)
    }

    /// The `catalog_size` feature of an index of `tools` tools: log10 of it, within the range of catalog
    /// sizes the decision was fitted on when it records one (at 100K tools the fitted weights, extrapolated
    /// from catalogs of 100 to 3,262 tools, put every probability several times lower: BENCHMARKS.md
    /// "The decision at 100K tools").
    pub fn catalog_size(&self, tools: usize) -> f32 {
        let size = (tools.max(1) as f32).log10();
        match self.model.catalog_sizes {
            Some([low, high]) if low <= high => size.clamp(low, high),
            _ => size,
        }
    }

    /// The same decision without a limit on the catalog size (calibration measures raw features).
    pub fn with_raw_catalog_size(&self) -> Decision {
        let mut d = self.clone();
        d.model.catalog_sizes = None;
        d
    }

    /// The probability that a tool with these features serves the request.
    pub fn probability(&self, f: &Features) -> f32 {
        self.probabilities(std::slice::from_ref(f))[0]
    }

    /// [`Decision::probability`] of each feature vector, in one call (the trees score a batch at once).
    pub fn probabilities(&self, rows: &[Features]) -> Vec<f32> {
        let logistic = |f: &Features| {
            let z =
                self.model.bias + self.positions.iter().zip(&self.model.weights).map(|(&i, w)| w * f[i]).sum::<f32>();
            1.0 / (1.0 + (-z).exp())
        };
        let Some(trees) = &self.trees else { return rows.iter().map(logistic).collect() };
        let share = self.model.trees_share.unwrap_or(1.0);
        let width = self.positions.len();
        let flat: Vec<f32> = rows.iter().flat_map(|f| self.positions.iter().map(|&i| f[i])).collect();
        trees
            .log_odds_of_rows(&flat, width)
            .into_iter()
            .zip(rows)
            .map(|(z, f)| {
                let p = 1.0 / (1.0 + (-(z as f32)).exp());
                if share >= 1.0 { p } else { blend_probabilities(p, logistic(f), share) }
            })
            .collect()
    }

    /// Whether the probability comes from boosted trees (else from the logistic weights).
    pub fn has_trees(&self) -> bool {
        self.trees.is_some()
    }

    /// Lowest probability of a delivered tool.
    pub fn tool_cut(&self) -> f32 {
        self.model.tool_cut
    }

    /// Lowest probability of a delivered tool relative to the best tool of its request.
    pub fn relative_cut(&self) -> f32 {
        self.model.relative_cut
    }

    /// Whether a tool of probability `p` is delivered in a request whose best tool has `best`.
    pub fn keeps(&self, p: f32, best: f32) -> bool {
        p >= self.model.tool_cut && p >= self.model.relative_cut * best
    }

    /// Lowest best-tool probability of a `found` answer.
    pub fn request_cut(&self) -> f32 {
        self.model.request_cut
    }

    /// The request cut for a request in English or not (`language.rs`).
    pub fn request_cut_for(&self, foreign: bool) -> f32 {
        match self.model.foreign_request_cut {
            Some(cut) if foreign => cut,
            _ => self.model.request_cut,
        }
    }

    /// The model, without its trees (held apart; see [`Decision::has_trees`]).
    pub fn model(&self) -> &DecisionModel {
        &self.model
    }
}

/// The probability whose log-odds are `share` of `trees`' and the rest `logistic`'s.
pub fn blend_probabilities(trees: f32, logistic: f32, share: f32) -> f32 {
    let logit = |p: f32| {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        (p / (1.0 - p)).ln()
    };
    let z = share * logit(trees) + (1.0 - share) * logit(logistic);
    1.0 / (1.0 + (-z).exp())
}

/// Fingerprint of everything that shapes the feature values of an engine configuration: a calibration
/// fitted under one fingerprint is refused under another.
pub(crate) fn fingerprint(config: &crate::EngineConfig) -> String {
    let w = &config.weights;
    let described = serde_json::json!({
        "features": FEATURES.as_slice(),
        "families": crate::actions::families().len(),
        "weights": [w.tool_dense, w.tool_bm25, w.server_dense, w.server_bm25, w.bm25_k],
        "top_servers": config.top_servers,
        "global_tools": config.global_tools,
        "multi_intent": config.multi_intent,
        "rerank_depth": config.rerank_depth,
        "max_per_server": config.max_per_server,
    });
    toolscout_indexer::content_hash(&serde_json::json!({"name": "engine", "description": described.to_string()}))[..16]
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_loads_and_unknown_features_are_refused() {
        let d = Decision::built_in();
        assert_eq!(d.source, DecisionSource::BuiltIn);
        assert!((0.0..=1.0).contains(&d.request_cut()));
        let bad = DecisionModel {
            features: vec!["nope".into()],
            weights: vec![1.0],
            bias: 0.0,
            tool_cut: 0.5,
            relative_cut: 0.0,
            request_cut: 0.5,
            foreign_request_cut: None,
            trees: None,
            trees_share: None,
            catalog_sizes: None,
        };
        assert!(Decision::new(bad, DecisionSource::Calibration, "m".into()).is_err());
    }

    #[test]
    fn a_catalog_larger_than_any_fitted_on_is_scored_as_the_largest_one() {
        let model = DecisionModel {
            features: vec!["catalog_size".into()],
            weights: vec![-1.0],
            bias: 0.0,
            tool_cut: 0.0,
            relative_cut: 0.0,
            request_cut: 0.04,
            foreign_request_cut: None,
            trees: None,
            trees_share: None,
            catalog_sizes: Some([2.0, 3.5]),
        };
        let d = Decision::new(model, DecisionSource::Calibration, "m".into()).expect("valid");
        assert_eq!(d.catalog_size(1_000), 3.0, "inside the range: log10 as it is");
        assert_eq!(d.catalog_size(100_000), 3.5, "100K tools: the largest fitted size");
        assert_eq!(d.catalog_size(10), 2.0);
        assert_eq!(d.catalog_size(0), 2.0, "an empty index counts as one tool, then the smallest size");
        let raw = d.with_raw_catalog_size();
        assert_eq!((raw.catalog_size(100_000), raw.catalog_size(10)), (5.0, 1.0), "calibration measures raw sizes");
        // The built-in decision was fitted on catalogs of 100 to 3,262 tools.
        let built_in = Decision::built_in();
        assert_eq!(built_in.catalog_size(100_000), (3_262f32).log10());
        assert_eq!(built_in.catalog_size(2_792), (2_792f32).log10(), "MCP-Zero's catalog is scored as before");
    }

    #[test]
    fn a_request_not_in_english_has_its_own_cut_and_an_override_keeps_the_ratio() {
        let model = DecisionModel {
            features: vec!["fused".into()],
            weights: vec![1.0],
            bias: 0.0,
            tool_cut: 0.0,
            relative_cut: 0.0,
            request_cut: 0.04,
            foreign_request_cut: Some(0.01),
            trees: None,
            trees_share: None,
            catalog_sizes: None,
        };
        let d = Decision::new(model.clone(), DecisionSource::Calibration, "m".into()).expect("valid");
        assert_eq!((d.request_cut_for(false), d.request_cut_for(true)), (0.04, 0.01));
        let dir = tempfile::tempdir().expect("tempdir");
        let index = IndexDir::new(dir.path());
        let overridden = Decision::for_index(&index, "m", "e", Some(0.08)).expect("built-in");
        let built_in = Decision::built_in();
        let ratio = built_in.request_cut_for(true) / built_in.request_cut_for(false);
        assert!((overridden.request_cut_for(false) - 0.08).abs() < 1e-6);
        assert!((overridden.request_cut_for(true) - 0.08 * ratio).abs() < 1e-6);
        // Without a foreign cut, every request has the one cut.
        let single = DecisionModel { foreign_request_cut: None, ..model };
        let d = Decision::new(single, DecisionSource::Calibration, "m".into()).expect("valid");
        assert_eq!(d.request_cut_for(true), 0.04);
    }

    #[test]
    fn probability_is_the_logistic_of_the_weighted_sum() {
        let model = DecisionModel {
            features: vec!["fused".into(), "action_conflict".into()],
            weights: vec![10.0, -4.0],
            bias: -3.0,
            tool_cut: 0.5,
            relative_cut: 0.2,
            request_cut: 0.5,
            foreign_request_cut: None,
            trees: None,
            trees_share: None,
            catalog_sizes: None,
        };
        let d = Decision::new(model, DecisionSource::Calibration, "m".into()).expect("valid");
        let mut f = [0.0; FEATURES.len()];
        f[FEATURES.iter().position(|n| *n == "fused").expect("fused")] = 0.3;
        assert!((d.probability(&f) - 0.5).abs() < 1e-6);
        f[FEATURES.iter().position(|n| *n == "action_conflict").expect("conflict")] = 1.0;
        assert!(d.probability(&f) < 0.05);
        assert!(d.keeps(0.5, 0.9) && !d.keeps(0.15, 0.9) && !d.keeps(0.4, 0.4));
    }

    #[test]
    fn trees_decide_when_present_reading_the_features_they_name() {
        use toolscout_indexer::{BoostedTrees, Tree};
        // Two stumps over the model's features (fused, action_conflict): +3 when fused ≥ 0.5, −3 below;
        // −4 on a conflict.
        let stump = |feature: u16, low: f32, high: f32, at: f32| Tree {
            feature: vec![feature, 0, 0],
            value: vec![at, low, high],
            left: vec![1, 0, 0],
            right: vec![2, 0, 0],
        };
        let trees = BoostedTrees { base: 0.0, trees: vec![stump(0, -3.0, 3.0, 0.5), stump(1, 0.0, -4.0, 0.5)] };
        let names = ["fused", "action_conflict"];
        let model = DecisionModel {
            features: names.iter().map(|f| f.to_string()).collect(),
            weights: vec![0.0, 0.0],
            bias: 0.0,
            tool_cut: 0.5,
            relative_cut: 0.0,
            request_cut: 0.5,
            foreign_request_cut: None,
            trees: Some(trees.clone()),
            trees_share: None,
            catalog_sizes: None,
        };
        let d = Decision::new(model.clone(), DecisionSource::Calibration, "m".into()).expect("valid");
        let row = |fused: f32, conflict: f32| {
            let mut f = [0.0; FEATURES.len()];
            f[FEATURES.iter().position(|n| *n == names[0]).expect("known")] = fused;
            f[FEATURES.iter().position(|n| *n == names[1]).expect("known")] = conflict;
            f
        };
        let sigmoid = |z: f32| 1.0 / (1.0 + (-z).exp());
        let p = d.probabilities(&[row(0.9, 0.0), row(0.9, 1.0), row(0.1, 0.0)]);
        for (got, want) in p.iter().zip([sigmoid(3.0), sigmoid(-1.0), sigmoid(-3.0)]) {
            assert!((got - want).abs() < 1e-6, "{p:?}");
        }
        assert_eq!(d.probability(&row(0.9, 0.0)), p[0]);
        // Half the log-odds from the trees, half from the logistic model (zero weights: log-odds 0).
        let half = Decision::new(
            DecisionModel { trees_share: Some(0.5), ..model.clone() },
            DecisionSource::Calibration,
            "m".into(),
        )
        .expect("valid");
        assert!((half.probability(&row(0.9, 0.0)) - sigmoid(1.5)).abs() < 1e-5);
        // Trees that read a feature the model does not name, or point outside themselves, are refused.
        let one_feature = DecisionModel { features: vec!["fused".into()], weights: vec![0.0], ..model.clone() };
        assert!(Decision::new(one_feature, DecisionSource::Calibration, "m".into()).is_err());
        let mut looping = trees;
        looping.trees[0].right[0] = 0;
        let broken = DecisionModel { trees: Some(looping), ..model };
        assert!(Decision::new(broken, DecisionSource::Calibration, "m".into()).is_err());
    }
}
