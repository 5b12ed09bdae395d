//! A crawl where servers fail never loses what the catalog had, says what happened in its exit status,
//! and an index update never silently drops a large share of the tools agents could find.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};
use toolscout_indexer::IndexDir;
use toolscout_service::{Engine, EngineConfig};

use crate::support::{deps, run_ok, toolscout};

fn reference_server(name: &str) -> Value {
    let text =
        std::fs::read_to_string(deps().join("mcp-servers/mcpServers.json")).expect("run scripts/setup-mcp-servers.sh");
    let fixture: Value = serde_json::from_str(&text).expect("json");
    fixture["mcpServers"][name].clone()
}

fn crawl(dir: &Path, servers: Value, catalog: &Path, extra: &[&str]) -> (Output, Value) {
    let config = dir.join("mcp.json");
    std::fs::write(&config, json!({ "mcpServers": servers }).to_string()).expect("write config");
    let report = dir.join("report.json");
    let _ = std::fs::remove_file(&report);
    let out = toolscout()
        .args(["crawl", "--timeout", "15", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(catalog)
        .arg("--report")
        .arg(&report)
        .args(extra)
        .output()
        .expect("run toolscout crawl");
    let report = std::fs::read_to_string(&report).map(|t| serde_json::from_str(&t).expect("report json"));
    (out, report.unwrap_or(Value::Null))
}

fn outcome<'a>(report: &'a Value, server: &str) -> &'a Value {
    let servers = report["servers"].as_array().expect("servers");
    servers.iter().find(|s| s["server"] == server).unwrap_or_else(|| panic!("{server} not in {report}"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn servers_listing(idx: &Path) -> Value {
    let engine =
        Engine::with_embedder(idx, toolscout_test_support::embedder(), EngineConfig::default()).expect("engine");
    serde_json::to_value(engine.servers()).expect("GET /v1/servers body")
}

#[test]
fn failed_servers_keep_their_last_tools_and_mass_removal_is_refused() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let dir = scratch.path();
    let catalog = dir.join("catalog.jsonl");
    let idx = dir.join("idx");
    let (github, time) = (reference_server("github"), reference_server("time"));

    // 1. Everything answers: exit 0.
    let (out, _) = crawl(dir, json!({ "github": github, "time": time }), &catalog, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    run_ok(toolscout().args(["index", "--catalog"]).arg(&catalog).arg("--out").arg(&idx));
    let github_tools = servers_listing(&idx)["servers"][0]["tool_count"].as_u64().expect("tool_count");
    assert!(github_tools > 10, "github lists its tools");

    // 2. github now prints a banner on stdout and never answers: a partial crawl (exit 3) that keeps
    //    github's last known tools, marked stale, and says why it failed.
    let noisy = json!({"command": "sh", "args": ["-c", "echo starting the github bridge; exec sleep 120"]});
    let (out, report) = crawl(dir, json!({ "github": noisy, "time": time }), &catalog, &[]);
    assert_eq!(out.status.code(), Some(3), "a partial crawl is not a success: {}", stderr(&out));
    let failed = outcome(&report, "github");
    assert_eq!(failed["status"], "failed");
    let reason = failed["reason"].as_str().expect("reason");
    assert!(reason.contains("non-protocol") && reason.contains("starting the github bridge"), "{reason}");
    assert_eq!(failed["kept_stale"].as_u64(), Some(github_tools));
    assert!(stderr(&out).contains("marked stale"), "{}", stderr(&out));
    let text = std::fs::read_to_string(&catalog).expect("catalog");
    let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("row")).collect();
    assert_eq!(rows.len(), 2, "github is still in the catalog");
    assert!(rows[0]["stale"]["reason"].as_str().is_some_and(|r| r.starts_with("timeout")), "{}", rows[0]);
    assert!(rows[1].get("stale").is_none(), "time answered: not stale");

    // The index keeps serving github's tools and shows them as stale in GET /v1/servers.
    let built = run_ok(toolscout().args(["index", "--catalog"]).arg(&catalog).arg("--out").arg(&idx));
    assert!(stderr(&built).contains("-0 removed"), "{}", stderr(&built));
    let listing = servers_listing(&idx);
    let github_row = &listing["servers"][0];
    assert_eq!(github_row["server_id"], "github");
    assert!(github_row["stale"]["since"].is_string() && github_row["crawled_at"].is_string(), "{github_row}");
    assert_eq!(github_row["tool_count"].as_u64(), Some(github_tools));

    // 3. Every server fails: exit 1 and the catalog is byte for byte what it was.
    let before = std::fs::read(&catalog).expect("catalog");
    let broken = json!({"command": "/nonexistent/server"});
    let (out, _) = crawl(dir, json!({ "github": broken, "time": broken }), &catalog, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read(&catalog).expect("catalog"), before, "an all-failed crawl leaves the catalog alone");

    // 4. Pruning is explicit; the update that would drop most tools is refused until told.
    let (out, _) =
        crawl(dir, json!({ "github": broken, "time": time }), &catalog, &["--prune-stale", "--allow-partial"]);
    assert_eq!(out.status.code(), Some(0), "--allow-partial: {}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&catalog).expect("catalog").lines().count(), 1);
    let live = IndexDir::new(&idx).current().expect("live snapshot");
    let out = toolscout().args(["index", "--catalog"]).arg(&catalog).arg("--out").arg(&idx).output().expect("run");
    assert!(!out.status.success(), "removing github's tools is a mass removal");
    assert!(stderr(&out).contains("--allow-mass-removal"), "{}", stderr(&out));
    assert_eq!(IndexDir::new(&idx).current().expect("live"), live, "the live snapshot is unchanged");
    run_ok(toolscout().args(["index", "--allow-mass-removal", "--catalog"]).arg(&catalog).arg("--out").arg(&idx));
    assert_eq!(servers_listing(&idx)["servers"].as_array().map(Vec::len), Some(1));
}
