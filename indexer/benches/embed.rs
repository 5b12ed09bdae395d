//! ONNX Runtime session options for embedding queries, measured side by side in one run (issue 15):
//! intra-op threads, spinning, and the size of the session pool, on real requests (the hand-written
//! independent sets and LiveMCPBench tasks), each embedded on its own as a cold query is.
//!
//! 1. One caller: per-query latency for each (threads, spinning) setting of a single session.
//! 2. Two callers at once (what a server sees under load): throughput and per-call latency, one session
//!    with two threads against two sessions with one thread each.
//! 3. A compound request (two intents): one padded batch on one session against each intent on its own
//!    session at the same time.
//!
//! `cargo bench -p toolscout-indexer --bench embed` (release; ~2 minutes). `cargo test --benches` runs a
//! few queries of one setting, to prove it runs.

use std::time::Instant;

use toolscout_indexer::{Embedder, EmbedderConfig, FastEmbedder};

fn queries() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/eval");
    let mut out = Vec::new();
    for file in ["indep-mcpzero.jsonl", "indep-livemcp.jsonl", "livemcpbench.jsonl"] {
        let text = std::fs::read_to_string(root.join(file)).expect("evaluation queries");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            if let Some(q) = v.get("query").and_then(serde_json::Value::as_str) {
                out.push(q.to_string());
            }
        }
    }
    out
}

fn load(threads: usize, sessions: usize, spinning: bool) -> FastEmbedder {
    let config =
        EmbedderConfig { threads, sessions, spinning, ..EmbedderConfig::installed(&toolscout_test_support::deps()) };
    FastEmbedder::load(&config).expect("the model (scripts/setup-models.sh)")
}

/// mean / p50 / p99 in ms.
fn summary(mut ms: Vec<f64>) -> (f64, f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (ms.iter().sum::<f64>() / ms.len() as f64, at(0.5), at(0.99))
}

fn timed(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let full = std::env::args().any(|a| a == "--bench");
    let mut qs = queries();
    if !full {
        qs.truncate(6);
    }
    let rounds = if full { 2 } else { 1 };

    println!("1. one caller, one query at a time ({} queries × {rounds} rounds, after a warm-up)", qs.len());
    println!("| threads | spinning | mean ms | p50 ms | p99 ms |");
    println!("|---:|---|---:|---:|---:|");
    let settings: &[(usize, bool)] = if full { &[(1, false), (2, false), (1, true), (2, true)] } else { &[(2, false)] };
    for &(threads, spinning) in settings {
        let e = load(threads, 1, spinning);
        for q in qs.iter().take(20) {
            e.embed_query(q).expect("embeds");
        }
        let mut ms = Vec::new();
        for _ in 0..rounds {
            for q in &qs {
                ms.push(timed(|| {
                    e.embed_query(q).expect("embeds");
                }));
            }
        }
        let (mean, p50, p99) = summary(ms);
        println!("| {threads} | {} | {mean:.2} | {p50:.2} | {p99:.2} |", if spinning { "on" } else { "off" });
    }
    if !full {
        return;
    }

    println!("\n2. two callers at once, each embedding half of the queries ({} queries × {rounds})", qs.len());
    println!("| sessions × threads | queries/s | per-call mean ms | p50 ms | p99 ms |");
    println!("|---|---:|---:|---:|---:|");
    for &(sessions, threads) in &[(1usize, 2usize), (2, 1), (2, 2)] {
        let e = load(threads, sessions, false);
        for q in qs.iter().take(20) {
            e.embed_query(q).expect("embeds");
        }
        let halves: Vec<&[String]> = qs.chunks(qs.len().div_ceil(2)).collect();
        let start = Instant::now();
        let ms: Vec<f64> = std::thread::scope(|scope| {
            let handles: Vec<_> = halves
                .iter()
                .map(|half| {
                    let e = &e;
                    scope.spawn(move || {
                        let mut ms = Vec::new();
                        for _ in 0..rounds {
                            for q in *half {
                                ms.push(timed(|| {
                                    e.embed_query(q).expect("embeds");
                                }));
                            }
                        }
                        ms
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().expect("caller")).collect()
        });
        let per_s = ms.len() as f64 / start.elapsed().as_secs_f64();
        let (mean, p50, p99) = summary(ms);
        println!("| {sessions} × {threads} | {per_s:.0} | {mean:.2} | {p50:.2} | {p99:.2} |");
    }

    println!("\n3. compound requests: two intents per request, one caller ({} requests × {rounds})", qs.len() / 2);
    println!("| how | mean ms | p50 ms | p99 ms |");
    println!("|---|---:|---:|---:|");
    let pairs: Vec<Vec<String>> = qs.chunks_exact(2).map(<[String]>::to_vec).collect();
    for (label, sessions, threads) in [
        ("one padded batch, 1 session × 2 threads", 1usize, 2usize),
        ("in parallel, 2 sessions × 1 thread", 2, 1),
        ("in parallel, 2 sessions × 2 threads", 2, 2),
    ] {
        let e = load(threads, sessions, false);
        for p in pairs.iter().take(10) {
            e.embed_queries(p).expect("embeds");
        }
        let mut ms = Vec::new();
        for _ in 0..rounds {
            for p in &pairs {
                ms.push(timed(|| {
                    assert_eq!(e.embed_queries(p).expect("embeds").len(), 2);
                }));
            }
        }
        let (mean, p50, p99) = summary(ms);
        println!("| {label} | {mean:.2} | {p50:.2} | {p99:.2} |");
    }
}
