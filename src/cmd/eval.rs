//! `toolscout eval`: retrieval quality on a labelled query file, the engine beside the baselines.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use toolscout_eval::{
    BASELINES, EngineRanker, HtmlReport, Ranker, baseline, evaluate, html_report, near_misses, read_queries, show,
};

use crate::args::EngineArgs;
use crate::human;

/// Evaluate retrieval on a labelled query file (engine and/or baselines, side by side).
#[derive(Args, Debug)]
pub(crate) struct EvalArgs {
    /// Index folder.
    #[arg(long, env = "TOOLSCOUT_INDEX")]
    index: PathBuf,
    /// Query file (JSONL: id, query, relevant groups, kind, optional exclude); repeatable (pooled).
    #[arg(long, required = true)]
    queries: Vec<PathBuf>,
    /// Also ask every answerable query again with its right tools left out: the answer must be not_found.
    #[arg(long)]
    near_miss: bool,
    /// Only the near-miss negatives (no positive queries).
    #[arg(long, conflicts_with = "near_miss")]
    near_miss_only: bool,
    /// Cut-offs for recall/success.
    #[arg(long, value_delimiter = ',', default_value = "1,3,5,10")]
    k: Vec<usize>,
    /// Run a baseline instead of the engine: bm25-flat, dense-flat, mcp-zero, or `all` (engine + every baseline);
    /// also `dense-f16` / `dense-int8` (dense-flat over quantised vectors, to measure what quantising costs).
    #[arg(long)]
    baseline: Option<String>,
    /// Print every query's answer instead of the metrics.
    #[arg(long)]
    show: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Also write a self-contained HTML report: recall@k curves, the not-found calibration curve, the
    /// per-query table.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) async fn run(a: EvalArgs) -> Result<ExitCode> {
    let mut queries = Vec::new();
    for path in &a.queries {
        queries.extend(read_queries(path)?);
    }
    if a.near_miss_only {
        queries = near_misses(&queries);
    } else if a.near_miss {
        let extra = near_misses(&queries);
        queries.extend(extra);
    }
    let engine = Arc::new(a.engine.open(&a.index)?);
    let names: Vec<&str> = match a.baseline.as_deref() {
        None => vec!["toolscout"],
        Some("all") => std::iter::once("toolscout").chain(BASELINES).collect(),
        Some(name) => vec![name],
    };
    let mut rankers: Vec<Box<dyn Ranker>> = Vec::new();
    for name in names {
        rankers.push(if name == "toolscout" {
            Box::new(EngineRanker::new(engine.clone()))
        } else {
            baseline(name, &a.index, engine.embedder().clone())?
        });
    }
    let mut reports = Vec::new();
    let mut first_outcomes = None;
    for ranker in &rankers {
        ranker.reset();
        if a.show {
            print!("{}", show(ranker.as_ref(), &queries, a.k.iter().copied().max().unwrap_or(5))?);
            continue;
        }
        let (report, outcomes) = evaluate(ranker.as_ref(), &queries, &a.k)?;
        reports.push(report);
        first_outcomes.get_or_insert(outcomes);
    }
    if let (Some(path), Some(outcomes)) = (&a.html, &first_outcomes) {
        let title: Vec<String> = a.queries.iter().map(|q| q.display().to_string()).collect();
        let cut = (reports[0].ranker == "toolscout").then(|| engine.decision().request_cut());
        let page = html_report(&HtmlReport {
            title: &format!("{} on {}", title.join(" + "), a.index.display()),
            reports: &reports,
            ks: &a.k,
            queries: &queries,
            outcomes,
            cut,
        });
        toolscout_indexer::write_atomic(path, page.as_bytes())?;
        eprintln!("report: {}", path.display());
    }
    if a.json && reports.len() == 1 {
        println!("{}", serde_json::to_string_pretty(&reports[0])?);
    } else if a.json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
    } else if !a.show {
        print!("{}", human::eval_table(&reports, &a.k));
    }
    Ok(ExitCode::SUCCESS)
}
