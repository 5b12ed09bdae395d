//! The pure per-candidate code of a query, no model and no index: `fuse` over 1,000 candidates' signals
//! against the baseline of summing one signal (the floor any fusion pays), the 384-dimension cosine the
//! engine computes twice per candidate (what fusion sits next to), the top-5 selection, the decision
//! model's probability over a feature vector (the built-in logistic model), and the multi-intent split of
//! a request. Every loop checks its result against the value
//! computed once at setup. Cheap: ~30 s.
//!
//! `cargo bench -p toolscout-bench --bench fusion` (full), `-- --test` (smoke).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use toolscout_service::{Decision, FEATURES, Features, FusionWeights, Signals, fuse, intents};

/// Candidates per query in these benches (the engine scores ~100–300 per pass).
const N: usize = 1000;
const DIM: usize = 384;

/// Deterministic pseudo-random numbers in [0, 1) (no `rand` dependency for this).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn signals() -> Vec<Signals> {
    let mut r = Lcg(7);
    (0..N)
        .map(|_| Signals {
            tool_dense: r.next() * 2.0 - 1.0,
            // about half the candidates have no BM25 match
            tool_bm25: if r.next() < 0.5 { 0.0 } else { r.next() * 30.0 },
            server_dense: r.next() * 2.0 - 1.0,
            server_bm25: if r.next() < 0.5 { 0.0 } else { r.next() * 30.0 },
        })
        .collect()
}

fn unit_vectors(n: usize) -> Vec<Vec<f32>> {
    let mut r = Lcg(11);
    (0..n)
        .map(|_| {
            let v: Vec<f32> = (0..DIM).map(|_| r.next() - 0.5).collect();
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.into_iter().map(|x| x / norm).collect()
        })
        .collect()
}

fn requests() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/eval/livemcpbench.jsonl");
    let text = std::fs::read_to_string(&path).expect("livemcpbench.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json line");
            v["query"].as_str().expect("query").to_string()
        })
        .collect()
}

/// Mean time per call of every bench, for the ratios.
static MEANS: Mutex<BTreeMap<String, (Duration, u64)>> = Mutex::new(BTreeMap::new());

fn timed<R>(id: &str, iters: u64, mut run: impl FnMut() -> R, mut check: impl FnMut(R)) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let t = Instant::now();
        let r = black_box(run());
        total += t.elapsed();
        check(r);
    }
    let mut means = MEANS.lock().expect("means");
    let e = means.entry(id.to_string()).or_default();
    e.0 += total;
    e.1 += iters;
    total
}

fn top5(scores: &[f32]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    idx.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    idx.truncate(5);
    idx
}

fn benches(c: &mut Criterion) {
    let s = signals();
    let w = FusionWeights::default();
    let fused: Vec<f32> = s.iter().map(|x| fuse(x, &w)).collect();
    let fused_sum: f32 = fused.iter().sum();
    let dense_sum: f32 = s.iter().map(|x| x.tool_dense).sum();
    let best = top5(&fused);
    let decision = Decision::built_in();
    let features: Vec<Features> = s
        .iter()
        .zip(&fused)
        .map(|(x, &f)| {
            let mut v = [0.0; FEATURES.len()];
            for (i, slot) in v.iter_mut().enumerate() {
                *slot = match i % 4 {
                    0 => x.tool_dense,
                    1 => x.server_dense,
                    2 => f,
                    _ => (x.tool_bm25 / 10.0).min(1.0),
                };
            }
            v
        })
        .collect();
    let accepted = features.iter().filter(|f| decision.probability(f) >= decision.request_cut()).count();
    let query = unit_vectors(1).remove(0);
    let vectors = unit_vectors(N);
    let cos_sum: f32 = vectors.iter().map(|v| toolscout_indexer::cosine(&query, v)).sum();
    let requests = requests();
    let pieces: usize = requests.iter().map(|r| intents(r).len()).sum();

    let mut g = c.benchmark_group("fusion");
    g.sample_size(20).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("sum-tool-dense/n1000", |b| {
        b.iter_custom(|n| {
            timed(
                "sum-tool-dense",
                n,
                || s.iter().map(|x| black_box(x.tool_dense)).sum::<f32>(),
                |r| assert_eq!(r, dense_sum),
            )
        })
    });
    g.bench_function("fuse/n1000", |b| {
        b.iter_custom(|n| {
            timed("fuse", n, || s.iter().map(|x| fuse(black_box(x), &w)).sum::<f32>(), |r| assert_eq!(r, fused_sum))
        })
    });
    g.bench_function("fuse-top5/n1000", |b| {
        b.iter_custom(|n| {
            timed(
                "fuse-top5",
                n,
                || top5(&s.iter().map(|x| fuse(black_box(x), &w)).collect::<Vec<_>>()),
                |r| assert_eq!(r, best),
            )
        })
    });
    g.bench_function("cosine384/n1000", |b| {
        b.iter_custom(|n| {
            timed(
                "cosine384",
                n,
                || vectors.iter().map(|v| toolscout_indexer::cosine(black_box(&query), v)).sum::<f32>(),
                |r| assert_eq!(r, cos_sum),
            )
        })
    });
    g.bench_function("decision/n1000", |b| {
        b.iter_custom(|n| {
            timed(
                "decision",
                n,
                || features.iter().filter(|f| decision.probability(black_box(f)) >= decision.request_cut()).count(),
                |r| assert_eq!(r, accepted),
            )
        })
    });
    g.throughput(Throughput::Elements(requests.len() as u64));
    g.bench_function("intents/livemcpbench", |b| {
        b.iter_custom(|n| {
            timed(
                "intents",
                n,
                || requests.iter().map(|r| intents(black_box(r)).len()).sum::<usize>(),
                |r| assert_eq!(r, pieces),
            )
        })
    });
    g.finish();
}

fn report() {
    let means = MEANS.lock().expect("means");
    let mean = |id: &str| means.get(id).filter(|(_, n)| *n > 0).map(|(t, n)| t.as_secs_f64() / *n as f64);
    if means.is_empty() {
        return;
    }
    println!("\nfusion, mean per call over {N} candidates (µs) and ratios:");
    for id in ["sum-tool-dense", "fuse", "fuse-top5", "cosine384", "decision"] {
        if let Some(m) = mean(id) {
            let vs = mean("sum-tool-dense").map(|b| format!("{:.1}x sum-tool-dense", m / b)).unwrap_or_default();
            println!("  {id:<16} {:>9.2} µs  {:>6.2} ns/candidate  {vs}", m * 1e6, m * 1e9 / N as f64);
        }
    }
    if let (Some(f), Some(c)) = (mean("fuse"), mean("cosine384")) {
        println!("  one candidate costs 2 cosines + 1 fuse: fuse is {:.0}% of it", 100.0 * f / (f + 2.0 * c));
    }
    if let Some(m) = mean("intents") {
        println!("  intents: {:.2} µs per LiveMCPBench request", m * 1e6 / requests().len() as f64);
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
    report();
}
