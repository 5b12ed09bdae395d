//! The `discover_tools` MCP server, client and server in one process over an in-memory duplex pipe,
//! with a real engine over real servers' tools; and cache-stable delivery of what it finds.

mod delivery;

use std::path::Path;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::{Value, json};
use toolscout_indexer::{BuildOptions, Catalog, IndexDir, build, import_catalog};
use toolscout_meta_tool::{DISCOVER_DESCRIPTION, DiscoverServer};
use toolscout_service::{Engine, EngineConfig};

fn engine(dir: &Path) -> Arc<Engine> {
    engine_with(dir, &["slack", "time", "google-maps", "github"])
}

fn engine_with(dir: &Path, keep: &[&str]) -> Arc<Engine> {
    let embedder = toolscout_test_support::embedder();
    let (catalog, _) = import_catalog(&toolscout_test_support::reference_catalog(), None).expect("fixture");
    let catalog =
        Catalog { servers: catalog.servers.into_iter().filter(|s| keep.contains(&s.name.as_str())).collect() };
    build(&catalog, embedder.as_ref(), &IndexDir::new(dir), &BuildOptions::default()).expect("build");
    Arc::new(Engine::with_embedder(dir, embedder, EngineConfig::default()).expect("engine"))
}

fn text(result: &CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect::<Vec<_>>().join("\n")
}

async fn call(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>, args: Value) -> CallToolResult {
    let args = args.as_object().expect("object").clone();
    client.call_tool(CallToolRequestParams::new("discover_tools").with_arguments(args)).await.expect("call")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_tool_verbatim_schemas_and_no_repeats() {
    let dir = tempfile::tempdir().expect("tempdir");
    let engine = engine(dir.path());
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    let server = tokio::spawn(async move {
        let running = DiscoverServer::new(engine).serve(server_side).await.expect("serve");
        running.waiting().await.expect("wait");
    });
    let client = ().serve(client_side).await.expect("client");

    let tools = client.list_all_tools().await.expect("list");
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "discover_tools");
    assert_eq!(tools[0].description.as_deref(), Some(DISCOVER_DESCRIPTION));
    // ~4 characters per token: the whole tool definition stays near 250 tokens.
    let size = serde_json::to_string(&tools[0]).expect("json").len();
    assert!(size < 1400, "discover_tools definition is {size} bytes");

    let first = call(&client, json!({"need": "send a message to a slack channel", "limit": 3})).await;
    assert_eq!(first.is_error, Some(false));
    let structured = first.structured_content.clone().expect("structured content");
    assert_eq!(structured["status"], "found");
    let delivered = structured["tools"].as_array().expect("tools").clone();
    assert!(!delivered.is_empty());
    let post = delivered.iter().find(|t| t["name"] == "slack_post_message").expect("slack_post_message delivered");
    // Verbatim: the definition equals the crawled one, and the text carries it byte for byte.
    let fixture = std::fs::read_to_string(toolscout_test_support::reference_catalog()).expect("read");
    let original = fixture
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json"))
        .flat_map(|s| s["tools"].as_array().cloned().unwrap_or_default())
        .find(|t| t["name"] == "slack_post_message")
        .expect("in fixture");
    assert_eq!(post["tool"], original["tool"]);
    assert!(text(&first).contains(&serde_json::to_string(&original["tool"]).expect("json")));

    // The same need again: nothing is delivered twice.
    let second = call(&client, json!({"need": "send a message to a slack channel", "limit": 3})).await;
    let s2 = second.structured_content.clone().expect("structured");
    assert_eq!(s2["tools"], json!([]));
    assert_eq!(s2["already_loaded"].as_array().expect("already").len(), delivered.len());
    assert!(text(&second).contains("already loaded"));
    assert!(text(&second).contains("slack/slack_post_message"));

    // Nothing fits: an explicit not_found with the closest servers.
    let none = call(&client, json!({"need": "bake sourdough bread in my oven"})).await;
    assert_eq!(none.is_error, Some(false));
    assert_eq!(none.structured_content.clone().expect("structured")["status"], "not_found");
    assert!(text(&none).starts_with("not_found"));
    // The closest tools are named so that one can be loaded by that name.
    let closest = none.structured_content.clone().expect("structured")["closest_tools"][0].clone();
    let name = format!("{}/{}", closest["server_id"].as_str().expect("id"), closest["name"].as_str().expect("name"));
    assert!(text(&none).contains(&name) && text(&none).contains("by that exact name"), "{}", text(&none));
    let by_name = call(&client, json!({"need": name})).await;
    let loaded = by_name.structured_content.clone().expect("structured");
    assert_eq!(loaded["status"], "found", "{loaded}");
    assert_eq!(loaded["tools"][0]["name"], closest["name"], "{loaded}");

    // A need the engine cannot use is a tool error the model can read and fix.
    let bad = call(&client, json!({"need": "   "})).await;
    assert_eq!(bad.is_error, Some(true));
    assert!(text(&bad).contains("empty"));
    let bad = call(&client, json!({"need": "x", "limit": 99})).await;
    assert_eq!(bad.is_error, Some(true));
    // Arguments of the wrong type are rejected by rmcp before we run, as a tool error the model can read.
    let args = json!({"need": 42}).as_object().expect("object").clone();
    let refused =
        client.call_tool(CallToolRequestParams::new("discover_tools").with_arguments(args)).await.expect("a result");
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    assert!(text(&refused).contains("expected a string"), "{}", text(&refused));

    client.cancel().await.expect("cancel");
    server.await.expect("server task");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_tool_forwards_delivered_tools_to_the_real_server() {
    let deps = toolscout_test_support::deps();
    let hosts = toolscout_indexer::HostConfig::read(&deps.join("mcp-servers/mcpServers.json"))
        .expect("run scripts/setup-mcp-servers.sh");
    let dir = tempfile::tempdir().expect("tempdir");
    let engine = engine_with(dir.path(), &["everything", "time"]);
    let proxy = Arc::new(toolscout_meta_tool::Proxy::new(hosts, std::time::Duration::from_secs(30)));
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    let server_proxy = proxy.clone();
    let server = tokio::spawn(async move {
        let running = DiscoverServer::with_proxy(engine, server_proxy).serve(server_side).await.expect("serve");
        running.waiting().await.expect("wait");
    });
    let client = ().serve(client_side).await.expect("client");
    let mut names: Vec<String> =
        client.list_all_tools().await.expect("list").iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(names, ["call_tool", "discover_tools"]);

    let call_tool = |args: Value| {
        let args = args.as_object().expect("object").clone();
        client.call_tool(CallToolRequestParams::new("call_tool").with_arguments(args))
    };
    // Not delivered yet: refused.
    let refused = call_tool(json!({"server": "everything", "tool": "get-sum", "arguments": {"a": 1, "b": 2}}))
        .await
        .expect("call");
    assert_eq!(refused.is_error, Some(true));
    assert!(text(&refused).contains("discover_tools"), "{}", text(&refused));
    // Deliver it, then call it for real.
    let found = call(&client, json!({"need": "get-sum"})).await;
    assert!(found.structured_content.expect("structured")["tools"].to_string().contains("get-sum"));
    let sum = call_tool(json!({"server": "everything", "tool": "get-sum", "arguments": {"a": 1200, "b": 34}}))
        .await
        .expect("call");
    assert_ne!(sum.is_error, Some(true), "{sum:?}");
    assert!(text(&sum).contains("1234"), "the real server added them: {}", text(&sum));
    // Arguments that break the declared schema never reach the server.
    let bad = call_tool(json!({"server": "everything", "tool": "get-sum", "arguments": {"a": "one", "b": 2}}))
        .await
        .expect("call");
    assert_eq!(bad.is_error, Some(true));
    assert!(text(&bad).contains("input schema"), "{}", text(&bad));

    client.cancel().await.expect("cancel");
    server.await.expect("server task");
    proxy.shutdown().await;
}
