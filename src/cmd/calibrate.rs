//! `toolscout calibrate`: fit the found / not-found decision on labelled queries and install it.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use toolscout_eval::{FitOptions, FitSet, fit, read_queries};
use toolscout_indexer::IndexDir;
use toolscout_service::Engine;

use crate::args::{EngineArgs, Workload, parse_set};
use crate::human;

/// Fit the found / not-found decision from labelled queries (dev sets, never test sets).
#[derive(Args, Debug)]
pub(crate) struct CalibrateArgs {
    /// INDEX=QUERIES pairs; all are pooled, each set weighing the same. Append `+near-misses` to also fit
    /// on the near-miss negative of each answerable query of that set (its right tools left out): use it
    /// where the labels list every tool that serves a request.
    #[arg(long = "set", required = true)]
    sets: Vec<String>,
    /// Largest loss of recall@5 (absolute) the decision may cost.
    #[arg(long, default_value_t = 0.02)]
    max_recall_drop: f64,
    /// Fit on these features only (comma-separated; ablation).
    #[arg(long, value_delimiter = ',')]
    features: Option<Vec<String>>,
    /// Leave these features out (comma-separated; ablation).
    #[arg(long, value_delimiter = ',')]
    without: Vec<String>,
    /// Write calibration.json into these index folders.
    #[arg(long)]
    write: Vec<PathBuf>,
    /// Write the calibration to this file as well.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the whole result as JSON (with the sweep).
    #[arg(long)]
    json: bool,
    /// Let gradient-boosted trees decide, fitted at this budget (perpetual's: higher fits finer, with more
    /// trees); without it the logistic regression decides.
    #[arg(long, value_name = "BUDGET")]
    trees: Option<f32>,
    /// With `--trees`: their share of the decision's log-odds, the logistic regression's the rest.
    #[arg(long, default_value_t = 1.0)]
    trees_share: f32,
    /// Largest loss of recall@5 (absolute, on any one set) the tool cuts may add to the request cut's.
    #[arg(long, default_value_t = toolscout_eval::TOOL_CUT_BUDGET)]
    tool_cut_budget: f64,
    /// Write every (request, candidate) row fitted on to this JSONL file, for analysis.
    #[arg(long)]
    rows: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) async fn run(a: CalibrateArgs) -> Result<ExitCode> {
    let embedder = a.engine.model.embedder(Workload::Batch)?;
    let config = a.engine.config()?;
    let mut sets = Vec::new();
    for spec in &a.sets {
        let (pair, near_misses) = match spec.strip_suffix("+near-misses") {
            Some(pair) => (pair, true),
            None => (spec.as_str(), false),
        };
        let (index, queries) = parse_set(pair).map_err(anyhow::Error::msg)?;
        let engine = Engine::with_embedder(&index, embedder.clone(), config.clone())
            .with_context(|| format!("opening index {}", index.display()))?;
        sets.push(FitSet {
            name: spec.clone(),
            engine: Arc::new(engine),
            queries: read_queries(&queries)?,
            near_misses,
        });
    }
    let features = match (&a.features, a.without.is_empty()) {
        (Some(f), _) => Some(f.clone()),
        (None, true) => None,
        (None, false) => Some(
            toolscout_service::FEATURES
                .iter()
                .filter(|f| !a.without.iter().any(|w| w == *f))
                .map(|f| f.to_string())
                .collect(),
        ),
    };
    let options = FitOptions {
        max_recall_drop: a.max_recall_drop,
        features,
        keep_rows: a.rows.is_some(),
        trees: a.trees,
        trees_share: a.trees_share,
        tool_cut_budget: a.tool_cut_budget,
        ..FitOptions::default()
    };
    let report = tokio::task::spawn_blocking(move || fit(&sets, &options)).await??;
    for dir in &a.write {
        IndexDir::new(dir).write_calibration(&report.calibration)?;
        eprintln!("wrote {}", IndexDir::new(dir).calibration_path().display());
    }
    if let Some(path) = &a.rows {
        let mut text = String::new();
        for row in &report.row_data {
            text.push_str(&serde_json::to_string(row)?);
            text.push('\n');
        }
        toolscout_indexer::write_atomic(path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &a.out {
        let text = report.calibration.to_json();
        toolscout_indexer::write_atomic(path, format!("{text}\n").as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", human::calibration(&report));
    }
    Ok(ExitCode::SUCCESS)
}
