//! Where a request's time goes on any index: the engine's own stage times (`Engine::rank_timed`, the
//! code path of every request) over a query file, each query cold (the query cache cleared), with the
//! percentiles of each stage and the slowest requests' breakdown. For the 100K index, where the criterion
//! bench's fixtures do not reach:
//!
//! `cargo run --release -p toolscout-bench --example stages -- INDEX QUERIES.jsonl [N] [--intents-alone]`
//!
//! (`TOOLSCOUT_MODEL_DIR` / `ORT_DYLIB_PATH` as for the binary, else `.deps`; one session, one thread,
//! as one `serve` session runs; the first N queries, default all; `--intents-alone`: a compound request's
//! intents each embedded on their own, as before they were read in the request's context.)

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use toolscout_indexer::{EmbedderConfig, FastEmbedder};
use toolscout_service::{DiscoverParams, Engine, EngineConfig, StageTimes};

/// One measured request: total ms, its stage times, the query.
type Row<'a> = (f64, StageTimes, &'a str);
/// Reads one figure (ms) of a row.
type Figure<'f> = &'f dyn Fn(&Row<'_>) -> f64;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[(((sorted.len() - 1) as f64) * p).round() as usize]
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let alone = args.iter().any(|a| a == "--intents-alone");
    args.retain(|a| a != "--intents-alone");
    let [index, queries, rest @ ..] = args.as_slice() else {
        anyhow::bail!("usage: stages INDEX QUERIES.jsonl [N] [--intents-alone]");
    };
    let n: usize = rest.first().map(|s| s.parse()).transpose()?.unwrap_or(usize::MAX);
    let deps = PathBuf::from(".deps");
    let mut config = EmbedderConfig::installed(&deps);
    if let Ok(dir) = std::env::var("TOOLSCOUT_MODEL_DIR") {
        config.model_dir = dir.into();
    }
    if let Ok(lib) = std::env::var("ORT_DYLIB_PATH") {
        config.ort_dylib = lib.into();
    }
    config.sessions = 1;
    config.threads = 1;
    let embedder = Arc::new(FastEmbedder::load(&config)?);
    let started = Instant::now();
    let engine_config = EngineConfig { intents_in_context: !alone, ..EngineConfig::default() };
    let engine = Engine::with_embedder(std::path::Path::new(index), embedder, engine_config)?;
    eprintln!("engine opened in {:.1} s", started.elapsed().as_secs_f64());
    let mut texts = Vec::new();
    for line in std::fs::read_to_string(queries)?.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line)?;
        if let Some(q) = v.get("query").and_then(serde_json::Value::as_str) {
            texts.push(q.to_string());
        }
    }
    texts.truncate(n);
    // A warm-up pass (pages of the snapshot faulted in, as on a server that has run a while), then the
    // measured pass, cold for the model.
    for q in &texts {
        engine.rank_timed(&DiscoverParams::new(q.as_str()), &[])?;
    }
    let mut rows: Vec<Row<'_>> = Vec::new();
    for q in &texts {
        engine.clear_query_cache();
        let started = Instant::now();
        let (_, t) = engine.rank_timed(&DiscoverParams::new(q.as_str()), &[])?;
        rows.push((started.elapsed().as_secs_f64() * 1e3, t, q));
    }
    let column = |f: Figure<'_>| {
        let mut v: Vec<f64> = rows.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        (v.iter().sum::<f64>() / v.len() as f64, percentile(&v, 0.5), percentile(&v, 0.99), v[v.len() - 1])
    };
    println!("{} queries, cold; ms: mean / p50 / p99 / max", rows.len());
    let stages: [(&str, Figure<'_>); 5] = [
        ("total", &|r| r.0),
        ("embed", &|r| r.1.embed * 1e3),
        ("retrieve", &|r| r.1.retrieve * 1e3),
        ("score", &|r| r.1.score * 1e3),
        ("decide", &|r| r.1.decide * 1e3),
    ];
    for (name, f) in stages {
        let (mean, p50, p99, max) = column(f);
        println!("| {name} | {mean:.2} | {p50:.2} | {p99:.2} | {max:.2} |");
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("slowest: total ms = embed + retrieve + score + decide; passes, candidates; query");
    for (ms, t, q) in rows.iter().take(8) {
        println!(
            "  {ms:.1} = {:.1} + {:.1} + {:.1} + {:.1}; {} passes, {} candidates; {}",
            t.embed * 1e3,
            t.retrieve * 1e3,
            t.score * 1e3,
            t.decide * 1e3,
            t.passes,
            t.candidates,
            q.chars().take(70).collect::<String>()
        );
    }
    Ok(())
}
