//! `toolscout mcp` as a real MCP server: over stdio, spawned by an rmcp client, and over Streamable
//! HTTP, crawled by toolscout's own crawler.

use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::json;
use toolscout_indexer::{CrawlOptions, HostConfig, INSTALLED_MODEL, INSTALLED_ORT, LaunchSpec, crawl};

use crate::support::{deps, index};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_session_discovers_and_does_not_repeat() {
    let idx = index();
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolscout")).configure(|c| {
        c.arg("mcp")
            .arg("--index")
            .arg(&idx)
            .env("TOOLSCOUT_MODEL_DIR", deps().join(INSTALLED_MODEL))
            .env("ORT_DYLIB_PATH", deps().join(INSTALLED_ORT));
    });
    let client = ().serve(TokioChildProcess::new(command).expect("spawn")).await.expect("initialize");
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("toolscout"));
    let tools = client.list_all_tools().await.expect("list");
    assert_eq!(tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>(), ["discover_tools"]);

    let args =
        json!({"need": "take a screenshot of the web page in the browser"}).as_object().cloned().expect("object");
    let first = client
        .call_tool(CallToolRequestParams::new("discover_tools").with_arguments(args.clone()))
        .await
        .expect("call");
    let structured = first.structured_content.expect("structured");
    assert_eq!(structured["status"], "found");
    assert_eq!(structured["tools"][0]["name"], "browser_take_screenshot");
    assert_eq!(structured["tools"][0]["tool"]["name"], "browser_take_screenshot");
    let again =
        client.call_tool(CallToolRequestParams::new("discover_tools").with_arguments(args)).await.expect("call");
    let structured = again.structured_content.expect("structured");
    assert_eq!(structured["tools"], json!([]), "already delivered in this session");
    client.cancel().await.expect("cancel");
}

/// The handshake does not wait for the model and the index: they load on a thread of their own. A model
/// that cannot load is then no silent hang or dead process to the host, but a tool error that says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handshake_comes_first_and_a_model_that_cannot_load_is_a_tool_error() {
    let idx = index();
    let empty = tempfile::tempdir().expect("tempdir");
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolscout")).configure(|c| {
        c.arg("mcp")
            .arg("--index")
            .arg(&idx)
            .env("TOOLSCOUT_MODEL_DIR", empty.path())
            .env("ORT_DYLIB_PATH", deps().join(INSTALLED_ORT))
            .stderr(std::process::Stdio::null());
    });
    let client = ().serve(TokioChildProcess::new(command).expect("spawn")).await.expect("initialize");
    let tools = client.list_all_tools().await.expect("list");
    assert_eq!(tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>(), ["discover_tools"]);
    let args = json!({"need": "take a screenshot"}).as_object().cloned().expect("object");
    for _ in 0..2 {
        let answer = client
            .call_tool(CallToolRequestParams::new("discover_tools").with_arguments(args.clone()))
            .await
            .expect("an answer, not a dropped session");
        assert_eq!(answer.is_error, Some(true), "{answer:?}");
        let text = format!("{:?}", answer.content);
        assert!(text.contains("cannot answer") && text.contains("model.onnx"), "{text}");
    }
    client.cancel().await.expect("cancel");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamable_http_server_is_crawlable() {
    let idx = index();
    // The server binds port 0 itself and prints the address it got (no port handed over, no race).
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolscout"))
        .arg("mcp")
        .arg("--index")
        .arg(&idx)
        .arg("--http")
        .arg("127.0.0.1:0")
        .arg("--token")
        .arg("s3cret-token")
        .env("TOOLSCOUT_MODEL_DIR", deps().join(INSTALLED_MODEL))
        .env("ORT_DYLIB_PATH", deps().join(INSTALLED_ORT))
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn");
    let url = {
        use tokio::io::AsyncBufReadExt;
        let mut lines = tokio::io::BufReader::new(child.stderr.take().expect("stderr")).lines();
        let mut found = None;
        while let Some(line) = tokio::time::timeout(Duration::from_secs(120), lines.next_line())
            .await
            .expect("the server prints its address")
            .expect("read stderr")
        {
            if let Some(at) = line.find("http://") {
                found = Some(line[at..].trim().to_string());
                break;
            }
        }
        let url = found.expect("an http:// address on stderr");
        // Keep draining stderr so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        url
    };
    assert!(url.ends_with("/mcp") && !url.contains(":0/"), "{url}");
    let headers = [("Authorization".to_string(), "Bearer s3cret-token".to_string())].into();
    let config = HostConfig { servers: vec![("toolscout".into(), LaunchSpec::Http { url: url.clone(), headers })] };
    let options = CrawlOptions { timeout: Duration::from_secs(20), progress: false, ..CrawlOptions::default() };
    let mut last = None;
    for _ in 0..60 {
        let (catalog, report) = crawl(&config, &options).await;
        if catalog.servers.len() == 1 {
            let server = &catalog.servers[0];
            assert_eq!(server.source.kind, "streamable_http");
            assert_eq!(server.title.as_deref(), Some("toolscout"));
            assert!(server.instructions.as_deref().is_some_and(|i| i.contains("discover_tools")));
            assert_eq!(server.tools.len(), 1);
            assert_eq!(server.tools[0].name, "discover_tools");
            assert!(server.tools[0].tool["inputSchema"]["properties"]["need"].is_object());
            // Without the token: refused, reported, and the token never shows in the report.
            let anonymous = HostConfig {
                servers: vec![("toolscout".into(), LaunchSpec::Http { url, headers: Default::default() })],
            };
            let (catalog, report) = crawl(&anonymous, &options).await;
            assert!(catalog.servers.is_empty());
            let failure = report.failures().next().expect("reported");
            assert!(!failure.reason.contains("s3cret"), "{failure:?}");
            let _ = child.kill().await;
            return;
        }
        last = Some(report);
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let _ = child.kill().await;
    panic!("HTTP server never became crawlable: {last:?}");
}

/// Both protocol generations: our own server (rmcp 3.11) speaks the stateless 2026-07-28 revision; a
/// legacy server only knows `initialize`, and `auto` falls back to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawls_both_protocol_generations() {
    use toolscout_indexer::Protocol;
    let idx = index();
    let ours = LaunchSpec::Stdio {
        command: env!("CARGO_BIN_EXE_toolscout").into(),
        args: vec!["mcp".into(), "--index".into(), idx.display().to_string()],
        env: [
            ("TOOLSCOUT_MODEL_DIR".to_string(), deps().join(INSTALLED_MODEL).display().to_string()),
            ("ORT_DYLIB_PATH".to_string(), deps().join(INSTALLED_ORT).display().to_string()),
        ]
        .into(),
        cwd: None,
    };
    let legacy = LaunchSpec::Stdio {
        command: "python3".into(),
        args: vec![
            crate::support::root().join("tests/fault-servers/fault_server.py").display().to_string(),
            "ok".into(),
        ],
        env: Default::default(),
        cwd: None,
    };
    let config = HostConfig { servers: vec![("ours".into(), ours), ("legacy".into(), legacy)] };
    let version = |catalog: &toolscout_indexer::Catalog, name: &str| {
        catalog.servers.iter().find(|s| s.name == name).and_then(|s| s.protocol_version.clone())
    };
    let run = |protocol| {
        let options =
            CrawlOptions { timeout: Duration::from_secs(30), progress: false, protocol, ..CrawlOptions::default() };
        let config = config.clone();
        async move { crawl(&config, &options).await }
    };
    let (catalog, report) = run(Protocol::Auto).await;
    assert_eq!(catalog.servers.len(), 2, "{report:?}");
    assert_eq!(version(&catalog, "ours").as_deref(), Some("2026-07-28"));
    assert_eq!(version(&catalog, "legacy").as_deref(), Some("2025-11-25"));
    let (catalog, _) = run(Protocol::Initialize).await;
    assert_eq!(version(&catalog, "ours").as_deref(), Some("2025-11-25"));
    let (catalog, report) = run(Protocol::Discover).await;
    assert_eq!(version(&catalog, "ours").as_deref(), Some("2026-07-28"));
    assert!(report.failures().any(|f| f.server == "legacy"), "discover-only cannot talk to a legacy server");
}

/// `--protocol auto` probes with `server/discover` and, after rmcp's fixed 10 s, falls back to
/// `initialize`; a server that answers the probe after that is crawled once more with discover only. Our
/// own server behind a proxy that holds its first answer for 12 s, on the first run only, is that server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_answers_the_discover_probe_late_is_crawled_again_with_discover_only() {
    let idx = index();
    let scratch = tempfile::tempdir().expect("tempdir");
    let marker = scratch.path().join("first-run-done");
    let late = LaunchSpec::Stdio {
        command: "python3".into(),
        args: vec![
            crate::support::root().join("tests/fault-servers/late_first_answer.py").display().to_string(),
            marker.display().to_string(),
            "12".into(),
            env!("CARGO_BIN_EXE_toolscout").into(),
            "mcp".into(),
            "--index".into(),
            idx.display().to_string(),
        ],
        env: [
            ("TOOLSCOUT_MODEL_DIR".to_string(), deps().join(INSTALLED_MODEL).display().to_string()),
            ("ORT_DYLIB_PATH".to_string(), deps().join(INSTALLED_ORT).display().to_string()),
        ]
        .into(),
        cwd: None,
    };
    let config = HostConfig { servers: vec![("late".into(), late)] };
    let options = CrawlOptions {
        timeout: Duration::from_secs(60),
        progress: false,
        protocol: toolscout_indexer::Protocol::Auto,
        ..CrawlOptions::default()
    };
    let (catalog, report) = crawl(&config, &options).await;
    assert!(marker.exists(), "the first run held its first answer");
    assert_eq!(catalog.servers.len(), 1, "{report:?}");
    assert_eq!(catalog.servers[0].protocol_version.as_deref(), Some("2026-07-28"));
    assert_eq!(catalog.servers[0].tools.len(), 1);
}

/// JSON-RPC over stdio: a line that is not JSON is answered with `-32700` (id null), and the session
/// goes on to answer a real request afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_answers_a_line_that_is_not_json_with_a_parse_error() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolscout"))
        .arg("mcp")
        .arg("--index")
        .arg(index())
        .env("TOOLSCOUT_MODEL_DIR", deps().join(INSTALLED_MODEL))
        .env("ORT_DYLIB_PATH", deps().join(INSTALLED_ORT))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut next = async || -> serde_json::Value {
        let line = tokio::time::timeout(Duration::from_secs(60), stdout.next_line())
            .await
            .expect("an answer in time")
            .expect("read")
            .expect("a line");
        serde_json::from_str(&line).expect("every stdout line is JSON")
    };
    stdin.write_all(b"this is not json {\n").await.expect("write");
    let answer = next().await;
    assert_eq!((answer["error"]["code"].clone(), answer["id"].clone()), (json!(-32700), json!(null)), "{answer}");
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}});
    stdin.write_all(format!("{initialize}\n").as_bytes()).await.expect("write");
    let answer = next().await;
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(answer["result"]["serverInfo"]["name"], "toolscout");
    drop(stdin);
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}
