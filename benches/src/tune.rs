//! Tuning the engine's ranking knobs on dev sets by coordinate descent: vary one knob over its grid
//! while the others stay fixed, keep the best, repeat. The objective is the mean over the sets of
//! (group recall@5 + nDCG@5) / 2 of the ranking, whatever the decision (the decision is calibrated after,
//! by `toolscout calibrate`).

use std::sync::Arc;

use serde::Serialize;
use toolscout_service::{Engine, EngineConfig};

use toolscout_eval::{EngineRanker, Query, evaluate};

/// One evaluated configuration.
#[derive(Debug, Clone, Serialize)]
pub struct Trial {
    /// The knob changed and its value.
    pub change: String,
    /// The objective.
    pub objective: f64,
    /// Per set: (recall@5, nDCG@5).
    pub per_set: Vec<(f64, f64)>,
}

type Knob = (&'static str, Vec<f32>, fn(&mut EngineConfig, f32));

fn knobs() -> Vec<Knob> {
    vec![
        ("tool_dense", vec![0.35, 0.45, 0.55, 0.65, 0.75], |c, v| c.weights.tool_dense = v),
        ("tool_bm25", vec![0.0, 0.1, 0.2, 0.3, 0.4], |c, v| c.weights.tool_bm25 = v),
        ("server_dense", vec![0.0, 0.08, 0.15, 0.25, 0.35], |c, v| c.weights.server_dense = v),
        ("server_bm25", vec![0.0, 0.05, 0.1, 0.2], |c, v| c.weights.server_bm25 = v),
        ("bm25_k", vec![2.0, 4.0, 8.0, 16.0], |c, v| c.weights.bm25_k = v),
        ("top_servers", vec![2.0, 3.0, 5.0, 8.0], |c, v| c.top_servers = v as usize),
        ("max_per_server", vec![0.0, 2.0, 3.0, 4.0], |c, v| c.max_per_server = v as usize),
        ("multi_intent", vec![0.0, 1.0], |c, v| c.multi_intent = v > 0.5),
    ]
}

fn objective(
    engines: &[Arc<Engine>],
    sets: &[Vec<Query>],
    config: &EngineConfig,
) -> crate::Result<(f64, Vec<(f64, f64)>)> {
    let mut per_set = Vec::new();
    for (engine, queries) in engines.iter().zip(sets) {
        let ranker = EngineRanker::new(Arc::new(engine.reconfigured(config.clone()).map_err(|e| e.to_string())?));
        let (report, _) = evaluate(&ranker, queries, &[5]).map_err(|e| e.to_string())?;
        per_set.push((report.recall_at_no_threshold["5"], ndcg_no_decision(&report)));
    }
    let value = per_set.iter().map(|(r, n)| (r + n) / 2.0).sum::<f64>() / per_set.len().max(1) as f64;
    Ok((value, per_set))
}

/// Coordinate descent from `start` over `rounds`; returns the best configuration and every trial.
pub fn tune(
    engines: &[Arc<Engine>],
    sets: &[Vec<Query>],
    start: EngineConfig,
    rounds: usize,
) -> crate::Result<(EngineConfig, Vec<Trial>)> {
    let mut best = start;
    let (mut best_value, per_set) = objective(engines, sets, &best)?;
    let mut trials = vec![Trial { change: "start".into(), objective: best_value, per_set }];
    for _ in 0..rounds {
        let mut improved = false;
        for (name, grid, set) in knobs() {
            for v in grid {
                let mut candidate = best.clone();
                set(&mut candidate, v);
                let (value, per_set) = objective(engines, sets, &candidate)?;
                trials.push(Trial { change: format!("{name}={v}"), objective: value, per_set });
                if value > best_value + 1e-4 {
                    best_value = value;
                    best = candidate;
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
    Ok((best, trials))
}

/// nDCG@5 as reported (of found answers); tuning runs before calibration, so the decision in force is
/// whatever the index has, and the objective leans on recall without the decision.
fn ndcg_no_decision(report: &toolscout_eval::Report) -> f64 {
    report.ndcg_at_5
}
