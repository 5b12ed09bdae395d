//! The A/B benchmark harness (`toolscout_bench::ab`): the task file against the real catalog, the agent
//! loop and its bookkeeping against a scripted OpenAI-compatible server (a declared test double), and a
//! small real run against llama.cpp's server with Gemma 3 270M (installed by scripts/setup-llm.sh).

mod llama;
mod scripted;

use std::path::Path;
use std::sync::OnceLock;

use toolscout_bench::ab::{AbBench, AbConfig, Arm, Endpoint};
use toolscout_test_support::{deps, embedder, root};

/// A config over the committed tasks and reference catalog, less `exclude`, against `base_url`.
fn config(base_url: &str, exclude: &[&str]) -> AbConfig {
    let name = if exclude.is_empty() { "ab-index".to_string() } else { format!("ab-index-no-{}", exclude.join("-")) };
    AbConfig {
        endpoint: Endpoint { base_url: base_url.to_string(), ..Endpoint::default() },
        tasks: root().join("data/ab/tasks.jsonl"),
        catalog: root().join("data/catalog/reference-servers.jsonl"),
        exclude_servers: exclude.iter().map(|s| s.to_string()).collect(),
        index_dir: Path::new(env!("CARGO_TARGET_TMPDIR")).join(name),
        ..AbConfig::default()
    }
}

/// The benchmark over the reference catalog less drawio (whose 7 tools carry 59 KB of schemas), shared by
/// the tests of this binary.
fn bench() -> &'static AbBench {
    static BENCH: OnceLock<AbBench> = OnceLock::new();
    BENCH.get_or_init(|| AbBench::prepare(&config("http://unused", &["drawio"]), embedder()).expect("prepare"))
}

#[test]
fn the_task_file_replays_against_the_real_catalog() {
    // prepare() checked every gold tool, alternative and replayed call against the catalog's schemas.
    let bench = bench();
    let tasks = bench.tasks();
    let cross = tasks.iter().filter(|t| t.gold.len() == 2).count();
    let domains: std::collections::BTreeSet<&str> = tasks.iter().map(|t| t.domain.as_str()).collect();
    eprintln!("{} tasks ({cross} with two tools) over {} tools; domains {domains:?}", tasks.len(), bench.tool_count());
    assert!(tasks.len() >= 40 && cross >= 8, "{} tasks, {cross} cross-domain", tasks.len());
    assert!(domains.len() >= 10, "{domains:?}");
    assert!(bench.tool_count() >= 100, "{} tools", bench.tool_count());
}

#[test]
fn discovery_delivers_the_gold_tools_for_their_needs() {
    let bench = bench();
    let (mut hit, mut total, mut missed) = (0, 0, Vec::new());
    for task in bench.tasks() {
        for gold in &task.gold {
            total += 1;
            let answer = bench.engine().search(&toolscout_service::DiscoverParams::new(&gold.need)).expect("search");
            if answer.tools.iter().any(|t| gold.accepts(&t.server_id, &t.name)) {
                hit += 1;
            } else {
                missed.push(format!("{}: {:?} -> {}/{}", task.id, gold.need, gold.server, gold.tool));
            }
        }
    }
    eprintln!("discovery delivered {hit}/{total} gold tools; missed: {missed:#?}");
    assert!(hit as f64 >= 0.9 * total as f64, "{hit}/{total}: {missed:#?}");
}

#[test]
fn the_arms_send_fixed_prefixes_of_very_different_size() {
    let bench = bench();
    let (a, b) = (bench.tools(Arm::Full), bench.tools(Arm::Discover));
    assert_eq!(a.as_array().map(Vec::len), Some(bench.tool_count()));
    assert_eq!(b.as_array().map(Vec::len), Some(2));
    let (a_bytes, b_bytes) = (a.to_string().len(), b.to_string().len());
    eprintln!("tools JSON: arm A {a_bytes} bytes, arm B {b_bytes} bytes");
    assert!(b_bytes * 20 < a_bytes, "{b_bytes} vs {a_bytes}");
    // The same tools array, byte for byte, every time (the cached prefix).
    assert_eq!(bench.tools(Arm::Full).to_string(), a.to_string());
}
