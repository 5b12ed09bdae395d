//! The official MCP Registry as a crawl source: committed `server.json` entries (written from the public
//! schema) for servers the tests install from npm, crawled for real inside `unshare -n` from the
//! installed packages (`--npm-prefix`: nothing fetched); an inactive entry is skipped, one that needs an
//! API key the registry cannot give is reported, and the catalog keeps the registry provenance.

use serde_json::Value;

use crate::support::{deps, root, toolscout};

#[test]
fn registry_entries_are_crawled_with_their_provenance() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("registry.jsonl");
    let run = toolscout()
        .args(["crawl", "--registry"])
        .arg(root().join("tests/registry"))
        .arg("--npm-prefix")
        .arg(deps().join("mcp-servers"))
        .args(["--isolate", "--timeout", "90", "--out"])
        .arg(&out)
        .output()
        .expect("crawl");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("skipped io.github.example/retired-server"), "{stderr}");
    assert!(
        stderr.contains("not crawlable io.github.example/weather-keyed") && stderr.contains("WEATHER_API_KEY"),
        "{stderr}"
    );
    let servers: Vec<Value> = std::fs::read_to_string(&out)
        .expect("catalog")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    let names: Vec<&str> = servers.iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    for (name, registry_name, tool) in [
        ("server-memory", "io.github.modelcontextprotocol/server-memory@2026.8.31", "create_entities"),
        ("time-mcp", "io.github.yokingma/time-mcp@1.0.6", "current_time"),
    ] {
        let s = servers.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("{name} in {names:?}"));
        assert_eq!(s["source"]["kind"], "registry", "{s}");
        let origin = s["source"]["origin"].as_str().expect("origin");
        assert!(origin.starts_with(registry_name) && origin.contains("installed"), "{origin}");
        assert!(!origin.contains(&deps().display().to_string()), "no machine path in provenance: {origin}");
        let tools: Vec<&str> =
            s["tools"].as_array().expect("tools").iter().filter_map(|t| t["name"].as_str()).collect();
        assert!(tools.contains(&tool), "{name}: {tools:?}");
    }
}
