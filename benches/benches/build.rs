//! Index build time for the LiveMCPBench catalog (70 servers / 527 tools, 597 documents): a full build
//! (every document embedded) and an incremental rebuild of an unchanged catalog, against the baseline of
//! embedding the same documents alone — so the ratio shows what HNSW, tantivy and the snapshot writes
//! add on top of the model. Throughput is in embedded documents per second.
//!
//! Builds go to `CARGO_TARGET_TMPDIR/index-live`, the folder the search bench then reuses. A full build
//! takes 20–50 s here (2 shared cores), so this bench runs criterion's minimum of 10 samples in flat
//! sampling mode, and the embedding baseline runs on every 4th document (6–12 min in all; `-- --quick`:
//! one run of each, ~2 min).
//! The 2,792-tool MCP-Zero build is a documented command in BENCHMARKS.md (`toolscout index --full`),
//! not a bench: ten samples of it would take half an hour.
//!
//! `cargo bench -p toolscout-bench --bench build` (full), `-- --test` (smoke: one build of each kind).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput};
use toolscout_indexer::{
    BuildOptions, Catalog, Embedder, EmbedderConfig, FastEmbedder, IndexDir, build, import_catalog, server_text,
    tool_text,
};
use toolscout_test_support::{catalog_index_dir, shared};

/// The catalog and the documents a full build embeds (servers, then tools). Cheap: no model.
struct Input {
    catalog: Catalog,
    texts: Vec<String>,
    /// Every 4th document: the embedding baseline (a full build is nearly all embedding, so the baseline
    /// runs on a quarter of the documents to keep the bench short; compare docs/s, not times).
    sample: Vec<String>,
    dir: PathBuf,
}

fn input() -> &'static Input {
    static INPUT: OnceLock<Input> = OnceLock::new();
    INPUT.get_or_init(|| {
        let (catalog, _) = import_catalog(&shared().join("data/livemcpbench/tools.json"), None).expect("catalog");
        let mut texts: Vec<String> = catalog.servers.iter().map(|s| server_text(s).embed).collect();
        texts.extend(catalog.servers.iter().flat_map(|s| s.tools.iter().map(move |t| tool_text(s, t).embed)));
        let sample = texts.iter().step_by(4).cloned().collect();
        let dir = catalog_index_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "live");
        Input { catalog, texts, sample, dir }
    })
}

/// The model, loaded once, when a bench first needs it.
fn embedder() -> &'static FastEmbedder {
    static EMBEDDER: OnceLock<FastEmbedder> = OnceLock::new();
    EMBEDDER.get_or_init(|| {
        let config = EmbedderConfig::installed(&toolscout_test_support::deps());
        let embedder = FastEmbedder::load(&config).expect("embedding model (run scripts/setup-models.sh)");
        let fx = input();
        eprintln!(
            "[setup] {} servers / {} tools: {} documents, load average {}",
            fx.catalog.servers.len(),
            fx.catalog.tool_count(),
            fx.texts.len(),
            loadavg()
        );
        embedder
    })
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// Seconds of every timed build, by bench id.
static SAMPLES: Mutex<Vec<(String, f64)>> = Mutex::new(Vec::new());

fn timed<R>(id: &str, iters: u64, mut run: impl FnMut() -> R, mut check: impl FnMut(R)) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let t = Instant::now();
        let r = black_box(run());
        let d = t.elapsed();
        total += d;
        SAMPLES.lock().expect("samples").push((id.to_string(), d.as_secs_f64()));
        check(r);
    }
    total
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("build/live");
    g.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(100));
    // Criterion stretches the measurement to fit its 10 samples; this only keeps it from warning.
    g.measurement_time(Duration::from_secs(20));

    let fx = input();
    let docs = fx.texts.len();
    g.throughput(Throughput::Elements(fx.sample.len() as u64));
    g.bench_function("embed-only", |b| {
        let model = embedder();
        b.iter_custom(|iters| {
            timed(
                "build/live/embed-only",
                iters,
                || model.embed_documents(&fx.sample).expect("embed"),
                |v| {
                    assert_eq!(v.len(), fx.sample.len());
                    assert!(v.iter().all(|x| x.len() == model.dim()));
                },
            )
        })
    });
    g.throughput(Throughput::Elements(docs as u64));
    g.bench_function("full", |b| {
        let model = embedder();
        let options = BuildOptions { incremental: false, ..BuildOptions::default() };
        b.iter_custom(|iters| {
            timed(
                "build/live/full",
                iters,
                || build(&fx.catalog, model, &IndexDir::new(&fx.dir), &options).expect("build"),
                |m| {
                    assert_eq!((m.build.embedded, m.build.reused), (docs, 0));
                    assert_eq!(m.tools, fx.catalog.tool_count());
                },
            )
        })
    });
    g.finish();

    // Nothing is embedded here, so no throughput.
    let mut g = c.benchmark_group("build/live");
    g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(10));
    let mut primed = false;
    g.bench_function("incremental-unchanged", |b| {
        let model = embedder();
        let options = BuildOptions::default();
        if !primed {
            // A snapshot of this catalog to be incremental against.
            build(&fx.catalog, model, &IndexDir::new(&fx.dir), &options).expect("build");
            primed = true;
        }
        b.iter_custom(|iters| {
            timed(
                "build/live/incremental-unchanged",
                iters,
                || build(&fx.catalog, model, &IndexDir::new(&fx.dir), &options).expect("build"),
                |m| assert_eq!((m.build.embedded, m.build.reused), (0, docs)),
            )
        })
    });
    g.finish();
}

fn report() {
    let samples = SAMPLES.lock().expect("samples");
    if samples.is_empty() {
        return;
    }
    let fx = input();
    println!("\nbuild times (s; every timed build), load average {}", loadavg());
    println!("{:<36} {:>6} {:>8} {:>8} {:>8} {:>10}", "bench", "runs", "mean", "min", "max", "docs/s");
    let mut means = Vec::new();
    for id in ["build/live/embed-only", "build/live/full", "build/live/incremental-unchanged"] {
        let t: Vec<f64> = samples.iter().filter(|(i, _)| i == id).map(|(_, s)| *s).collect();
        if t.is_empty() {
            continue;
        }
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        let min = t.iter().copied().fold(f64::INFINITY, f64::min);
        let max = t.iter().copied().fold(0.0, f64::max);
        let docs = match id {
            "build/live/embed-only" => Some(fx.sample.len()),
            "build/live/full" => Some(fx.texts.len()),
            _ => None,
        };
        let rate = docs.map(|d| format!("{:.1}", d as f64 / mean)).unwrap_or_else(|| "-".into());
        println!("{id:<36} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>10}", t.len(), mean, min, max, rate);
        means.push((id, mean, docs.map(|d| d as f64 / mean)));
    }
    let get = |id: &str| means.iter().find(|(i, _, _)| *i == id).map(|(_, m, r)| (*m, *r));
    if let (Some((_, Some(full))), Some((_, Some(embed)))) = (get("build/live/full"), get("build/live/embed-only")) {
        println!(
            "docs/s, full build / embedding alone: {:.2}x (embedding would be {:.0}% of a full build)",
            full / embed,
            100.0 * full / embed
        );
    }
    if let (Some((full, _)), Some((inc, _))) = (get("build/live/full"), get("build/live/incremental-unchanged")) {
        println!("ratio full / incremental-unchanged: {:.1}x", full / inc);
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    eprintln!("[build] load average at start: {}", loadavg());
    benches(&mut c);
    c.final_summary();
    report();
}
