//! Importers on the real public catalogs in `../shared/data`.

use toolscout_indexer::{import_catalog, import_catalog_str};

use toolscout_test_support::shared;

#[test]
fn livemcpbench_keeps_real_tools_verbatim() {
    let path = shared().join("data/livemcpbench/tools.json");
    let (catalog, warnings) = import_catalog(&path, None).expect("import");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(catalog.servers.len(), 70);
    assert_eq!(catalog.tool_count(), 527);
    let raw: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    let first = &raw[0];
    let server = &catalog.servers[0];
    assert_eq!(server.name, first["name"].as_str().expect("name"));
    let (_, launch) = first["tools"].as_object().expect("tools").iter().next().expect("one launch");
    assert_eq!(server.tools[0].tool, launch["tools"][0], "tool object must be verbatim");
    assert!(catalog.servers.iter().all(|s| s.tools.iter().all(|t| t.derived.is_none())));
}

#[test]
fn mcp_zero_same_named_servers_get_distinct_ids_and_derived_schemas() {
    let (catalog, warnings) =
        import_catalog(&shared().join("data/mcp-zero-mcptools/mcp_tools.jsonl"), None).expect("import");
    assert_eq!(catalog.servers.len(), 308);
    // 2,797 tools upstream, 5 of them repeat a name within their server: kept the first, with a warning.
    assert_eq!(catalog.tool_count() + 5, 2797);
    assert_eq!(warnings.iter().filter(|w| w.contains("duplicate tool name")).count(), 5);
    let aws: Vec<_> = catalog.servers.iter().filter(|s| s.name == "AWS").collect();
    assert!(aws.len() >= 2, "AWS appears more than once upstream");
    let mut ids: Vec<_> = catalog.servers.iter().map(|s| s.server_id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 308, "server ids are unique");
    let tool = &catalog.servers.iter().find(|s| s.name == "AgentQL").expect("AgentQL").tools[0];
    assert!(tool.derived.as_deref().is_some_and(|d| d.contains("parameter")));
    assert_eq!(tool.tool["inputSchema"]["properties"]["url"]["type"], "string");
    assert_eq!(tool.tool["inputSchema"]["required"], serde_json::json!(["url", "prompt"]));
}

#[test]
fn docker_registry_and_crawl_dump_import() {
    let (docker, _) =
        import_catalog(&shared().join("data/docker-mcp-registry/servers_with_tools.jsonl"), None).expect("docker");
    assert_eq!(docker.servers.len(), 28);
    assert!(docker.tool_count() > 700);
    let derived = docker.servers.iter().flat_map(|s| &s.tools).filter(|t| t.derived.is_some()).count();
    assert!(derived > 0 && derived < docker.tool_count());
    let (crawl, warnings) = import_catalog(&shared().join("mcp-crawl.json"), None).expect("crawl dump");
    assert!(crawl.tool_count() > 3000, "{}", crawl.tool_count());
    assert!(warnings.iter().any(|w| w.contains("did not list tools")), "failed servers are reported");
}

#[test]
fn garbage_is_a_clear_error() {
    let check = |text: &str, needle: &str| {
        let err = import_catalog_str(text, "x.jsonl", None).expect_err("garbage").to_string();
        assert!(err.contains(needle), "{err:?} should mention {needle:?}");
    };
    check("\u{0}\u{1}binary", "cannot tell the catalog format");
    check("[{\"name\": 1", "not valid JSON");
    check("{\"server_id\":\"a\",\"source\":{}}\n", "line 1");
    let err = import_catalog_str("{\"name\":\"x\",\"summary\":\"s\"}\n{oops\n", "z.jsonl", None).expect_err("bad line");
    assert!(err.to_string().contains("z.jsonl line 2"), "{err}");
}
