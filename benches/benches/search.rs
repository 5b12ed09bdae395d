//! Query latency: the full two-level hybrid engine against the flat baselines (bm25-flat, dense-flat,
//! mcp-zero) on the same index, in the same run, and the cost of each stage of a query (embedding, BM25,
//! HNSW, fusion, serialization), at 527 tools (LiveMCPBench) and 2,792 tools (MCP-Zero).
//!
//! Every call is timed on its own (criterion's `iter_custom`), so besides criterion's means the run ends
//! with a table of p50 / p90 / p99 per bench and the ratios against the baselines — the numbers
//! BENCHMARKS.md records. Results are checked inside the loop against the answers computed at setup
//! (whose recall against the labelled queries is checked once), so a fast wrong answer fails.
//! "cold" means the engine's query-vector cache is cleared before each call (outside the timed part).
//! The engine's own stages (embed, retrieve, score, decide) are timed by the engine itself
//! (`Engine::rank_timed`, the same code path as every request) and printed as a breakdown; the stage
//! benches here time only the index's building blocks (model, BM25, HNSW, flat scan), never a copy of
//! the engine's logic.
//!
//! Indexes are built once into `CARGO_TARGET_TMPDIR` (incremental: the first run embeds ~3,700 documents,
//! 1–3 minutes; later runs reuse the vectors), in the folders every test and bench shares per catalog
//! (`catalog_index_dir`: the quick gate has built MCP-Zero's by the time CI runs this, the build bench
//! LiveMCPBench's). `TOOLSCOUT_DEPS` (default `.deps`) and `TOOLSCOUT_SHARED`
//! (default `../shared`) locate the model and the public catalogs, as in the tests.
//!
//! `cargo bench -p toolscout-bench --bench search` (full, ~5 min), `-- --test` (smoke), `-- live` (one catalog).

use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode};
use toolscout_eval::{Answer, Kind, Query, Ranker, baseline, read_queries};
use toolscout_indexer::{
    Ann, BoostedTrees, BuildOptions, Calibration, Embedder, EmbedderConfig, FastEmbedder, IndexDir, PackedTrees, Part,
    Snapshot, build, flat_top_k, from_halves, import_catalog,
};
use toolscout_service::{
    DiscoverParams, DiscoverResponse, Engine, EngineConfig, FEATURES, IntentPart, MAX_QUERY_CHARS, StageTimes, Status,
    intent_parts, intents,
};

/// Tools per answer in every bench (`…/k5`).
const K: usize = 5;
/// What the engine asks of each building block (stages/retrieve.rs: `SERVER_CANDIDATES`, `global_tools`).
const SERVER_K: usize = 30;
const TOOL_ANN_K: usize = 50;
const TOOL_BM25_K: usize = 100;

// ---------------------------------------------------------------- fixtures

use toolscout_test_support::{catalog_index_dir, root, shared};

/// The model as the engine loads it by default (2 ONNX Runtime threads).
fn embedder() -> Arc<dyn Embedder> {
    toolscout_test_support::embedder()
}

/// The same model on one thread (what a query costs without intra-op parallelism).
fn embedder_1thread() -> &'static FastEmbedder {
    static EMBEDDER: OnceLock<FastEmbedder> = OnceLock::new();
    EMBEDDER.get_or_init(|| {
        let config = EmbedderConfig { threads: 1, ..EmbedderConfig::installed(&toolscout_test_support::deps()) };
        FastEmbedder::load(&config).expect("embedding model")
    })
}

/// One catalog, indexed, with its query set and everything the benches compare.
struct Fixture {
    /// Stable name in bench ids.
    name: &'static str,
    dir: PathBuf,
    engine: Arc<Engine>,
    /// The live snapshot, opened separately for the stage benches.
    snapshot: Snapshot,
    queries: Vec<Query>,
    /// Query vectors (cold-embedded once).
    vectors: Vec<Vec<f32>>,
    /// The engine's answers at setup.
    answers: Vec<DiscoverResponse>,
}

struct Catalog {
    name: &'static str,
    catalog: PathBuf,
    queries: Vec<&'static str>,
    /// Floor on the share of positive queries whose gold tool the engine puts in its top 5 at setup.
    floor: f64,
}

fn catalogs() -> [Catalog; 2] {
    [
        Catalog {
            name: "live",
            catalog: shared().join("data/livemcpbench/tools.json"),
            queries: vec!["livemcpbench.jsonl"],
            floor: 0.25,
        },
        Catalog {
            name: "mcpzero",
            catalog: shared().join("data/mcp-zero-mcptools/mcp_tools.jsonl"),
            queries: vec!["mcpzero-test.jsonl", "mcpzero-dev.jsonl", "bfcl-none-test.jsonl"],
            floor: 0.6,
        },
    ]
}

fn fixture(name: &str) -> &'static Fixture {
    static LIVE: OnceLock<Fixture> = OnceLock::new();
    static MCPZERO: OnceLock<Fixture> = OnceLock::new();
    let cell = if name == "live" { &LIVE } else { &MCPZERO };
    let fx: &'static Fixture = cell.get_or_init(|| {
        let spec = catalogs().into_iter().find(|c| c.name == name).expect("known catalog");
        load(&spec)
    });
    let mut used = FIXTURES_USED.lock().expect("fixtures");
    if !used.iter().any(|f| f.name == fx.name) {
        used.push(fx);
    }
    fx
}

/// The fixtures some bench loaded (the report breaks their engine's stages down).
static FIXTURES_USED: Mutex<Vec<&'static Fixture>> = Mutex::new(Vec::new());

fn load(spec: &Catalog) -> Fixture {
    let embedder = embedder();
    let dir = catalog_index_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), spec.name);
    let started = Instant::now();
    let (catalog, _) = import_catalog(&spec.catalog, None).expect("catalog");
    let manifest = build(&catalog, embedder.as_ref(), &IndexDir::new(&dir), &BuildOptions::default()).expect("build");
    eprintln!(
        "[setup] {}: {} servers / {} tools indexed in {:.1}s ({} embedded, {} reused)",
        spec.name,
        manifest.servers,
        manifest.tools,
        started.elapsed().as_secs_f64(),
        manifest.build.embedded,
        manifest.build.reused
    );
    let engine = Arc::new(Engine::with_embedder(&dir, embedder.clone(), EngineConfig::default()).expect("engine"));
    let snapshot = Snapshot::open(&IndexDir::new(&dir)).expect("snapshot");
    let mut queries = Vec::new();
    for file in &spec.queries {
        queries.extend(read_queries(&root().join("data/eval").join(file)).expect("queries"));
    }
    // As the evaluation does: one LiveMCPBench task is longer than the API accepts.
    for q in &mut queries {
        q.query = q.query.chars().take(MAX_QUERY_CHARS).collect();
    }
    let vectors: Vec<Vec<f32>> = queries.iter().map(|q| embedder.embed_query(&q.query).expect("embed")).collect();
    let answers: Vec<DiscoverResponse> =
        queries.iter().map(|q| engine.search(&params(&q.query)).expect("search")).collect();

    // The answers the loops are checked against must be good ones: recall of the gold tools at setup
    // (delivered tools of found answers only; `closest` does not count).
    let positives: Vec<(&Query, &DiscoverResponse)> =
        queries.iter().zip(&answers).filter(|(q, _)| q.kind != Kind::None).collect();
    let hit = positives
        .iter()
        .filter(|(q, a)| {
            let top: Vec<&ToolHitRef> = a.tools.iter().take(K).collect();
            q.relevant.iter().flatten().any(|p| top.iter().any(|t| t.server == p.server && t.name == p.tool))
        })
        .count();
    let share = hit as f64 / positives.len().max(1) as f64;
    let passes: usize = queries.iter().map(|q| 1 + intents(&q.query).len()).sum();
    eprintln!(
        "[setup] {}: {} queries ({} positive, gold tool in top {K}: {:.3}), {:.2} retrieval passes per query \
         (multi-intent), load average {}",
        spec.name,
        queries.len(),
        positives.len(),
        share,
        passes as f64 / queries.len() as f64,
        loadavg()
    );
    assert!(share >= spec.floor, "{}: gold tool in top {K} for {share:.3} < {} of the queries", spec.name, spec.floor);
    Fixture { name: spec.name, dir, engine, snapshot, queries, vectors, answers }
}

type ToolHitRef = toolscout_service::ToolHit;

fn params(query: &str) -> DiscoverParams {
    let mut p = DiscoverParams::new(query);
    p.limit = Some(K);
    p
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

// ---------------------------------------------------------------- timing

/// Every timed call of every bench, in seconds, by bench id, with the number of queries it cycles through
/// (for the percentile table, which only counts complete rounds over the queries).
static SAMPLES: Mutex<BTreeMap<String, (usize, Vec<f64>)>> = Mutex::new(BTreeMap::new());

/// Benches `call` over the fixture's queries in turn: `prepare` runs untimed before each call, `check`
/// untimed after it (it asserts on the result).
fn bench<S, P, R>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    catalog: &'static str,
    id: &str,
    mut state: impl FnMut(&'static Fixture) -> S,
    mut prepare: impl FnMut(&S, &Fixture, usize) -> P,
    mut call: impl FnMut(&S, &Fixture, usize, P) -> R,
    mut check: impl FnMut(&S, &Fixture, usize, R),
) {
    let full_id = format!("search/{catalog}/{id}");
    let mut cell: Option<S> = None;
    let mut next = 0usize;
    group.bench_function(id, |b| {
        let fx = fixture(catalog);
        let s = cell.get_or_insert_with(|| state(fx));
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut times = Vec::with_capacity(iters as usize);
            for _ in 0..iters {
                let i = next % fx.queries.len();
                next += 1;
                let p = prepare(s, fx, i);
                let t = Instant::now();
                let r = black_box(call(s, fx, i, p));
                let d = t.elapsed();
                total += d;
                times.push(d.as_secs_f64());
                check(s, fx, i, r);
            }
            let mut samples = SAMPLES.lock().expect("samples");
            let entry = samples.entry(full_id.clone()).or_insert_with(|| (fx.queries.len(), Vec::new()));
            entry.1.extend(times);
            total
        })
    });
}

/// Benches that embed a query (milliseconds per call): flat sampling, long enough for about two rounds
/// over the queries, so every query counts the same in the percentiles.
fn slow(g: &mut BenchmarkGroup<'_, WallTime>) {
    g.sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(6));
}

/// Benches without the model (tens of microseconds to a few milliseconds per call).
fn fast(g: &mut BenchmarkGroup<'_, WallTime>) {
    g.sampling_mode(SamplingMode::Auto).measurement_time(Duration::from_secs(2));
}

fn no_state(_: &'static Fixture) {}
fn no_prepare(_: &(), _: &Fixture, _: usize) {}
fn cold(_: &(), fx: &Fixture, _: usize) {
    fx.engine.clear_query_cache();
}

// ---------------------------------------------------------------- benches

fn rankers(c: &mut Criterion, catalog: &'static str) {
    let mut g = c.benchmark_group(format!("search/{catalog}"));
    g.sample_size(20).warm_up_time(Duration::from_millis(500));

    // The engine as served: all passes, fusion, threshold, response (query cache cold).
    let engine_check = |_: &(), fx: &Fixture, i: usize, r: DiscoverResponse| check_answer(fx, i, &r);
    slow(&mut g);
    bench(&mut g, catalog, "hybrid/k5", no_state, cold, |_, fx, i, ()| search(&fx.engine, fx, i), engine_check);
    // The same with every query vector cached: what is left when embedding costs nothing.
    fast(&mut g);
    bench(
        &mut g,
        catalog,
        "hybrid-warm/k5",
        |fx| {
            for q in &fx.queries {
                fx.engine.search(&params(&q.query)).expect("warm");
            }
        },
        no_prepare,
        |_, fx, i, ()| search(&fx.engine, fx, i),
        engine_check,
    );
    // One pass per request (multi-intent off): the cost of the extra intent passes.
    slow(&mut g);
    bench(
        &mut g,
        catalog,
        "hybrid-1pass/k5",
        |fx| {
            let config = EngineConfig { multi_intent: false, ..EngineConfig::default() };
            let engine = fx.engine.reconfigured(config).expect("reconfigured");
            let answers: Vec<DiscoverResponse> =
                fx.queries.iter().map(|q| engine.search(&params(&q.query)).expect("search")).collect();
            (engine, answers)
        },
        |(e, _), _, _| e.clear_query_cache(),
        |(e, _), fx, i, ()| e.search(&params(&fx.queries[i].query)).expect("search"),
        |(_, answers), _, i, r| assert_same_top(&answers[i], &r),
    );

    // Baselines on the same index (cold: each embeds its query).
    for name in ["bm25-flat", "dense-flat", "mcp-zero"] {
        if name == "bm25-flat" {
            fast(&mut g);
        } else {
            slow(&mut g);
        }
        bench(
            &mut g,
            catalog,
            &format!("{name}/k5"),
            |fx| {
                let started = Instant::now();
                let ranker = baseline(name, &fx.dir, fx.engine.embedder().clone()).expect("baseline");
                let expected: Vec<Answer> = fx.queries.iter().map(|q| ranked(ranker.as_ref(), &q.query)).collect();
                eprintln!("[setup] {catalog}: baseline {name} ready in {:.1}s", started.elapsed().as_secs_f64());
                (ranker, expected)
            },
            |(r, _), _, _| r.reset(),
            |(r, _), fx, i, ()| ranked(r.as_ref(), &fx.queries[i].query),
            |(_, expected), _, i, r| {
                let want = &expected[i].ranking;
                assert_eq!(want.is_empty(), r.ranking.is_empty(), "baseline {name} query {i}");
                if let Some(first) = want.first() {
                    assert!(r.ranking.iter().any(|t| t.server == first.server && t.tool == first.tool), "query {i}");
                }
            },
        );
    }
    g.finish();
}

fn stages(c: &mut Criterion, catalog: &'static str) {
    let mut g = c.benchmark_group(format!("search/{catalog}"));
    g.sample_size(20).warm_up_time(Duration::from_millis(500));

    let dim_check = |_: &(), fx: &Fixture, _: usize, v: Vec<f32>| {
        assert_eq!(v.len(), fx.vectors[0].len());
        let norm: f32 = v.iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-3, "unit vector, got |v|² = {norm}");
    };
    let embed =
        |_: &(), fx: &Fixture, i: usize, ()| fx.engine.embedder().embed_query(&fx.queries[i].query).expect("embed");
    slow(&mut g);
    bench(&mut g, catalog, "stage/embed-cold", no_state, no_prepare, embed, dim_check);
    bench(
        &mut g,
        catalog,
        "stage/embed-cold-1thread",
        |_| {
            embedder_1thread();
        },
        no_prepare,
        |_, fx, i, ()| embedder_1thread().embed_query(&fx.queries[i].query).expect("embed"),
        dim_check,
    );

    // What the engine embeds for one request: the whole text and each intent, one call each, against all
    // of them in one batch (what the engine does: the same vectors).
    let passes = |fx: &'static Fixture| {
        fx.queries.iter().map(|q| std::iter::once(q.query.clone()).chain(intents(&q.query)).collect()).collect()
    };
    let same_count = |texts: &Vec<Vec<String>>, _: &Fixture, i: usize, v: Vec<Vec<f32>>| {
        assert_eq!(v.len(), texts[i].len());
        assert!(v.iter().all(|x| x.len() == v[0].len()));
    };
    bench(
        &mut g,
        catalog,
        "stage/embed-passes-serial",
        passes,
        |_, _, _| (),
        |texts: &Vec<Vec<String>>, fx, i, ()| {
            texts[i].iter().map(|t| fx.engine.embedder().embed_query(t).expect("embed")).collect::<Vec<_>>()
        },
        same_count,
    );
    bench(
        &mut g,
        catalog,
        "stage/embed-passes-batched",
        passes,
        |_, _, _| (),
        |texts: &Vec<Vec<String>>, fx, i, ()| fx.engine.embedder().embed_queries(&texts[i]).expect("embed"),
        same_count,
    );
    // The engine's way since intents are read in context: the whole text once, each intent pooled from
    // its tokens (the light member still embeds each intent alone).
    bench(
        &mut g,
        catalog,
        "stage/embed-passes-in-context",
        |fx| fx.queries.iter().map(|q| intent_parts(&q.query)).collect::<Vec<_>>(),
        |_, _, _| (),
        |parts: &Vec<Vec<IntentPart>>, fx, i, ()| {
            let spans: Vec<Part<'_>> = parts[i].iter().map(|p| Part { text: &p.text, spans: &p.spans }).collect();
            fx.engine.embedder().embed_in_context(&fx.queries[i].query, &spans).expect("embed")
        },
        |parts, _, i, v: Vec<Vec<f32>>| assert_eq!(v.len(), parts[i].len() + 1),
    );

    // BM25 (tantivy), as many hits as the engine asks for; the hit count must not change.
    fast(&mut g);
    for (id, k, servers) in [("stage/bm25-tools-k100", TOOL_BM25_K, false), ("stage/bm25-servers-k30", SERVER_K, true)]
    {
        bench(
            &mut g,
            catalog,
            id,
            move |fx| fx.queries.iter().map(|q| bm25(fx, servers, &q.query, k).len()).collect::<Vec<_>>(),
            |_, _, _| (),
            move |_, fx, i, ()| bm25(fx, servers, &fx.queries[i].query, k),
            |expected, _, i, hits| assert_eq!(hits.len(), expected[i], "query {i}"),
        );
    }

    // HNSW, and the exact scan it replaces (the baseline: same vectors, every one compared).
    for (id, k, servers) in [("stage/hnsw-tools-k50", TOOL_ANN_K, false), ("stage/hnsw-servers-k30", SERVER_K, true)] {
        bench(
            &mut g,
            catalog,
            id,
            // Snapshots below `FLAT_BELOW` vectors carry no graph: the bench builds one from the same vectors.
            move |fx| {
                let s = &fx.snapshot;
                let vectors: Vec<Vec<f32>> = if servers {
                    (0..s.servers.len()).map(|j| from_halves(s.server_vector(j))).collect()
                } else {
                    (0..s.tools.len()).map(|j| from_halves(s.tool_vector(j))).collect()
                };
                let vectors: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
                let exact: Vec<Vec<usize>> = (0..fx.queries.len()).map(|i| exact(fx, servers, i, k)).collect();
                (Ann::build(&vectors), exact)
            },
            |_, _, _| (),
            // Scored exactly from the snapshot's vectors, as `Snapshot::nearest_*` does.
            move |(ann, _), fx, i, ()| {
                let (s, q) = (&fx.snapshot, &fx.vectors[i]);
                let score =
                    |j: u32| if servers { s.server_cosine(q, j as usize) } else { s.tool_cosine(q, j as usize) };
                ann.search(k, score).into_iter().map(|h| h.id as usize).collect::<Vec<_>>()
            },
            move |(_, exact), _, i, got: Vec<usize>| {
                assert_eq!(got.len(), exact[i].len().min(k), "query {i}");
                // Approximate (its graph is built in a random order, so one query may miss even its
                // nearest vector), but a working graph finds most of the true top k; a broken one finds
                // next to none of them (k of thousands by chance).
                let found = got.iter().filter(|j| exact[i].contains(j)).count();
                assert!(2 * found >= got.len(), "query {i}: HNSW found {found} of the true top {}", got.len());
            },
        );
    }
    fast(&mut g);
    bench(
        &mut g,
        catalog,
        "stage/flat-scan-tools-k50",
        no_state,
        no_prepare,
        |_, fx, i, ()| exact(fx, false, i, TOOL_ANN_K),
        |_, fx, i, got| assert_eq!(got[0], exact(fx, false, i, 1)[0]),
    );
    // The same scan over the vectors widened to f32 (how snapshots stored them before format 6): what
    // reading halves costs a query.
    bench(
        &mut g,
        catalog,
        "stage/flat-scan-tools-k50-f32",
        |fx| (0..fx.snapshot.tools.len()).map(|j| from_halves(fx.snapshot.tool_vector(j))).collect::<Vec<_>>(),
        |_, _, _| (),
        |wide, fx, i, ()| flat_top_k(wide.iter().map(Vec::as_slice), &fx.vectors[i], TOOL_ANN_K),
        |_, fx, i, got| assert_eq!(got[0].id as usize, exact(fx, false, i, 1)[0]),
    );

    // The response as the REST API writes it.
    bench(
        &mut g,
        catalog,
        "stage/serialize",
        |fx| fx.answers.iter().map(|a| serde_json::to_vec(a).expect("json").len()).collect::<Vec<_>>(),
        |_, _, _| (),
        |_, fx, i, ()| serde_json::to_vec(&fx.answers[i]).expect("json"),
        |len, _, i, bytes| assert_eq!(bytes.len(), len[i], "query {i}"),
    );

    // The built-in decision's boosted trees over each query's real feature rows (its candidates as
    // `Engine::examine` computes them): as stored in `calibration.json` (parallel arrays per tree) and
    // packed as the engine scores them (`PackedTrees`: one array of nodes). Same log-odds, checked.
    for packed in [false, true] {
        bench(
            &mut g,
            catalog,
            if packed { "stage/trees-packed" } else { "stage/trees-stored" },
            tree_rows,
            |_, _, _| (),
            move |(stored, fast, width, rows, _), _, i, ()| {
                if packed { fast.log_odds_of_rows(&rows[i], *width) } else { stored.log_odds_of_rows(&rows[i], *width) }
            },
            |(_, _, _, _, want), _, i, got: Vec<f64>| assert_eq!(got, want[i], "query {i}"),
        );
    }
    g.finish();
}

/// The built-in trees, stored and packed, the row width, each query's feature rows in the model's order,
/// and their log-odds computed once.
type TreeRows = (BoostedTrees, PackedTrees, usize, Vec<Vec<f32>>, Vec<Vec<f64>>);

fn tree_rows(fx: &'static Fixture) -> TreeRows {
    let text = std::fs::read_to_string(root().join("service/src/decision/built-in.json")).expect("built-in");
    let calibration: Calibration = serde_json::from_str(&text).expect("built-in calibration");
    let model = calibration.decision;
    let stored = model.trees.expect("the built-in decision has trees");
    let positions: Vec<usize> = model
        .features
        .iter()
        .map(|f| FEATURES.iter().position(|g| g == f).expect("a feature the engine computes"))
        .collect();
    let rows: Vec<Vec<f32>> = fx
        .queries
        .iter()
        .map(|q| {
            let (examined, _) = fx.engine.examine(&params(&q.query), &[]).expect("examine");
            examined.iter().flat_map(|e| positions.iter().map(|&p| e.features[p]).collect::<Vec<_>>()).collect()
        })
        .collect();
    let width = positions.len();
    let want = rows.iter().map(|r| stored.log_odds_of_rows(r, width)).collect();
    let packed = PackedTrees::new(&stored);
    (stored, packed, width, rows, want)
}

fn search(engine: &Engine, fx: &Fixture, i: usize) -> DiscoverResponse {
    engine.search(&params(&fx.queries[i].query)).expect("search")
}

fn check_answer(fx: &Fixture, i: usize, r: &DiscoverResponse) {
    assert_same_top(&fx.answers[i], r);
}

/// Same decision, and the best tool found at setup is still in the answer.
fn assert_same_top(want: &DiscoverResponse, got: &DiscoverResponse) {
    assert_eq!(want.status, got.status, "query {:?}", want.query);
    let list = |r: &DiscoverResponse| if r.status == Status::Found { r.tools.clone() } else { r.closest.clone() };
    if let Some(first) = list(want).first() {
        assert!(
            list(got).iter().any(|t| t.server_id == first.server_id && t.name == first.name),
            "query {:?}: {} lost",
            want.query,
            first.name
        );
    }
}

fn ranked(r: &dyn Ranker, query: &str) -> Answer {
    r.answer(query, &[], K).expect("rank")
}

fn bm25(fx: &Fixture, servers: bool, query: &str, k: usize) -> Vec<(u32, f32)> {
    let index = if servers { &fx.snapshot.server_bm25 } else { &fx.snapshot.tool_bm25 };
    index.search(query, k).expect("bm25").into_iter().map(|h| (h.id, h.score)).collect()
}

/// Exact top `k` by cosine over every stored vector.
fn exact(fx: &Fixture, servers: bool, i: usize, k: usize) -> Vec<usize> {
    let s = &fx.snapshot;
    let n = if servers { s.servers.len() } else { s.tools.len() };
    let q = &fx.vectors[i];
    let mut scored: Vec<(usize, f32)> =
        (0..n).map(|j| (j, if servers { s.server_cosine(q, j) } else { s.tool_cosine(q, j) })).collect();
    let k = k.min(n);
    if k < n {
        scored.select_nth_unstable_by(k, |a, b| b.1.total_cmp(&a.1));
        scored.truncate(k);
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.into_iter().map(|(j, _)| j).collect()
}

/// The engine's own stage times over every query (cold), averaged: where a request's time goes.
fn stage_breakdown(fx: &Fixture) -> (StageTimes, usize) {
    let mut sum = StageTimes::default();
    for q in &fx.queries {
        fx.engine.clear_query_cache();
        let (_, t) = fx.engine.rank_timed(&params(&q.query), &[]).expect("rank");
        sum.embed += t.embed;
        sum.retrieve += t.retrieve;
        sum.score += t.score;
        sum.decide += t.decide;
        sum.candidates += t.candidates;
        sum.passes += t.passes;
    }
    (sum, fx.queries.len())
}

// ---------------------------------------------------------------- report

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// Per-call latency of every bench that ran, and the ratios of the engine against the baselines.
fn report() {
    let samples = SAMPLES.lock().expect("samples");
    if samples.is_empty() {
        return;
    }
    println!(
        "\nper-call latency (ms) over complete rounds of the query set (warm-up included), load average {}",
        loadavg()
    );
    println!(
        "{:<40} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "bench", "calls", "rounds", "mean", "p50", "p90", "p99", "max"
    );
    let mut stats: HashMap<String, (f64, f64, f64)> = HashMap::new();
    for (id, (n, times)) in samples.iter() {
        // Calls go through the queries in order from the first, so whole rounds weigh every query the same.
        let rounds = times.len() / n;
        let mut t = if rounds > 0 { times[..rounds * n].to_vec() } else { times.clone() };
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        let (p50, p90, p99) = (percentile(&t, 0.5), percentile(&t, 0.9), percentile(&t, 0.99));
        let max = t[t.len() - 1];
        let rounds = if rounds > 0 { rounds.to_string() } else { format!("{}/{n}", times.len()) };
        println!(
            "{id:<40} {:>7} {:>7} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.3}",
            t.len(),
            rounds,
            mean * 1e3,
            p50 * 1e3,
            p90 * 1e3,
            p99 * 1e3,
            max * 1e3
        );
        stats.insert(id.clone(), (mean, p50, p99));
    }
    for catalog in ["live", "mcpzero"] {
        let get = |id: &str| stats.get(&format!("search/{catalog}/{id}")).copied();
        let Some(hybrid) = get("hybrid/k5") else { continue };
        println!("\nratios, {catalog}: hybrid/k5 mean / p50 / p99 over …");
        for other in ["bm25-flat/k5", "dense-flat/k5", "mcp-zero/k5", "hybrid-1pass/k5", "hybrid-warm/k5"] {
            if let Some(o) = get(other) {
                println!("  {other:<18} {:>7.2}x {:>7.2}x {:>7.2}x", hybrid.0 / o.0, hybrid.1 / o.1, hybrid.2 / o.2);
            }
        }
        if let Some(fx) = FIXTURES_USED.lock().expect("fixtures").iter().find(|f| f.name == catalog) {
            let (t, n) = stage_breakdown(fx);
            let n = n.max(1) as f64;
            let total = (t.embed + t.retrieve + t.score + t.decide) / n;
            println!(
                "  engine stages (Engine::rank_timed, cold, mean over {} queries; {:.1} passes, {:.0} candidates):",
                n,
                t.passes as f64 / n,
                t.candidates as f64 / n
            );
            for (stage, secs) in
                [("embed", t.embed), ("retrieve", t.retrieve), ("score", t.score), ("decide", t.decide)]
            {
                println!("    {stage:<10} {:>8.3} ms {:>6.1}%", secs / n * 1e3, 100.0 * secs / n / total);
            }
        }
        if let (Some(ann), Some(flat)) = (get("stage/hnsw-tools-k50"), get("stage/flat-scan-tools-k50")) {
            println!("  hnsw-tools-k50 / flat-scan-tools-k50 (mean): {:.2}x", ann.0 / flat.0);
        }
        println!("  stage means as a share of hybrid/k5 mean ({:.3} ms):", hybrid.0 * 1e3);
        for stage in [
            "stage/embed-cold",
            "stage/embed-cold-1thread",
            "stage/embed-passes-serial",
            "stage/embed-passes-batched",
            "stage/bm25-tools-k100",
            "stage/bm25-servers-k30",
            "stage/hnsw-tools-k50",
            "stage/hnsw-servers-k30",
            "stage/flat-scan-tools-k50",
            "stage/flat-scan-tools-k50-f32",
            "stage/serialize",
            "stage/trees-stored",
            "stage/trees-packed",
            "hybrid-warm/k5",
        ] {
            if let Some(s) = get(stage) {
                println!("    {stage:<26} {:>8.3} ms {:>6.1}%", s.0 * 1e3, 100.0 * s.0 / hybrid.0);
            }
        }
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    eprintln!("[search] load average at start: {}", loadavg());
    for catalog in ["live", "mcpzero"] {
        rankers(&mut c, catalog);
        stages(&mut c, catalog);
    }
    c.final_summary();
    report();
}
