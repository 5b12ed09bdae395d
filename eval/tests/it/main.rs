//! The quick retrieval gate that runs in CI: the real engine and model against every baseline, in the
//! same run, on a dev set (what the defaults were tuned and calibrated on) AND on fixed slices of the
//! test splits (never used for tuning). Floors are relative: the engine must beat each baseline by a
//! stated margin on each set, and its not-found decision must beat answering `found` always. The measured
//! values are recorded in BENCHMARKS.md ("Quick gate").

use std::path::{Path, PathBuf};
use std::sync::Arc;

use toolscout_eval::{BASELINES, EngineRanker, Kind, Query, Report, baseline, evaluate, near_misses, read_queries};
use toolscout_service::{Engine, EngineConfig};
use toolscout_test_support::{embedder, index_of, root, shared};

/// Engine R@5 − best baseline R@5, at least (absolute).
const MARGIN_R5: f64 = 0.03;
/// Engine R@1 − best baseline R@1, at least.
const MARGIN_R1: f64 = 0.0;
/// Not-found F1 on the set with its near-miss negatives, at least (baselines never say not_found: 0).
const FLOOR_NONE_F1: f64 = 0.55;

fn index(name: &str, catalog: &Path) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("quick-gate-{name}"));
    index_of(catalog, &dir, embedder().as_ref())
}

fn queries(files: &[&str]) -> Vec<Query> {
    files.iter().flat_map(|f| read_queries(&root().join("data/eval").join(f)).expect("queries")).collect()
}

/// Every `step`-th query of each kind, from the first: a fixed slice that keeps the kind mix.
fn slice(all: Vec<Query>, step: usize) -> Vec<Query> {
    let mut seen = std::collections::HashMap::new();
    all.into_iter()
        .filter(|q| {
            let n = seen.entry(q.kind).or_insert(0usize);
            *n += 1;
            (*n - 1) % step == 0
        })
        .collect()
}

struct Measured {
    engine: Report,
    best_baseline_r1: (String, f64),
    best_baseline_r5: (String, f64),
    near_miss_f1: f64,
}

fn measure(label: &str, engine: &Arc<Engine>, dir: &Path, set: &[Query]) -> Measured {
    let ks = [1, 5];
    let (ours, _) = evaluate(&EngineRanker::new(engine.clone()), set, &ks).expect("engine eval");
    let mut with_nm = set.to_vec();
    with_nm.extend(near_misses(set));
    let (nm, _) = evaluate(&EngineRanker::new(engine.clone()), &with_nm, &ks).expect("near-miss eval");
    let mut best1 = (String::new(), f64::MIN);
    let mut best5 = (String::new(), f64::MIN);
    for name in BASELINES {
        let b = baseline(name, dir, embedder()).expect("baseline");
        let (r, _) = evaluate(b.as_ref(), set, &ks).expect("baseline eval");
        eprintln!("{label}: {name:<10} R@1 {:.3} R@5 {:.3}", r.recall_at["1"], r.recall_at["5"]);
        if r.recall_at["1"] > best1.1 {
            best1 = (name.to_string(), r.recall_at["1"]);
        }
        if r.recall_at["5"] > best5.1 {
            best5 = (name.to_string(), r.recall_at["5"]);
        }
    }
    eprintln!(
        "{label}: toolscout  R@1 {:.3} R@5 {:.3} (no decision {:.3}); with near misses: not-found P {:.3} R {:.3} \
         F1 {:.3}; {} queries ({} none), {} near misses",
        ours.recall_at["1"],
        ours.recall_at["5"],
        ours.recall_at_no_threshold["5"],
        nm.none.precision,
        nm.none.recall,
        nm.none.f1,
        set.len(),
        set.iter().filter(|q| q.kind == Kind::None).count(),
        with_nm.len() - set.len()
    );
    Measured { engine: ours, best_baseline_r1: best1, best_baseline_r5: best5, near_miss_f1: nm.none.f1 }
}

fn check(label: &str, m: &Measured) {
    let (r1, r5) = (m.engine.recall_at["1"], m.engine.recall_at["5"]);
    assert!(
        r5 >= m.best_baseline_r5.1 + MARGIN_R5,
        "{label}: engine R@5 {r5:.3} is not {MARGIN_R5} above {} ({:.3})",
        m.best_baseline_r5.0,
        m.best_baseline_r5.1
    );
    assert!(
        r1 >= m.best_baseline_r1.1 + MARGIN_R1,
        "{label}: engine R@1 {r1:.3} is below {} ({:.3})",
        m.best_baseline_r1.0,
        m.best_baseline_r1.1
    );
    assert!(m.near_miss_f1 >= FLOOR_NONE_F1, "{label}: not-found F1 with near misses {:.3}", m.near_miss_f1);
}

#[test]
fn quick_gate_dev_and_held_out_slices_beat_every_baseline() {
    let metatool_dir = index("metatool", &root().join("data/eval/metatool-catalog.jsonl"));
    let mcpzero_dir = index("mcpzero", &shared().join("data/mcp-zero-mcptools/mcp_tools.jsonl"));
    let open = |dir: &Path| Arc::new(Engine::with_embedder(dir, embedder(), EngineConfig::default()).expect("engine"));
    let (metatool, mcpzero) = (open(&metatool_dir), open(&mcpzero_dir));

    let sets: [(&str, &Arc<Engine>, &Path, Vec<Query>); 4] = [
        ("MetaTool dev-small", &metatool, &metatool_dir, queries(&["metatool-dev-small.jsonl"])),
        ("MetaTool test slice", &metatool, &metatool_dir, slice(queries(&["metatool-test.jsonl"]), 5)),
        ("MCP-Zero dev", &mcpzero, &mcpzero_dir, queries(&["mcpzero-dev.jsonl", "bfcl-none-dev.jsonl"])),
        (
            "MCP-Zero test slice",
            &mcpzero,
            &mcpzero_dir,
            slice(queries(&["mcpzero-test.jsonl", "bfcl-none-test.jsonl"]), 2),
        ),
    ];
    let mut failures = Vec::new();
    for (label, engine, dir, set) in &sets {
        let m = measure(label, engine, dir, set);
        if let Err(e) = std::panic::catch_unwind(|| check(label, &m)) {
            failures.push(e.downcast_ref::<String>().cloned().unwrap_or_else(|| format!("{label}: failed")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
