//! Crawling real MCP servers from npm over stdio (each inside `unshare -n`, a loopback-only network
//! namespace), plus broken servers mixed in: each failure is reported and every other server lands.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;
use toolscout_indexer::{CrawlOptions, CrawlOutcome, HostConfig, LaunchSpec, crawl};

use toolscout_test_support::{deps, root, shared};

fn fixture_config() -> HostConfig {
    let path = deps().join("mcp-servers/mcpServers.json");
    HostConfig::read(&path).unwrap_or_else(|e| panic!("{e} (run scripts/setup-mcp-servers.sh)"))
}

fn options() -> CrawlOptions {
    CrawlOptions { timeout: Duration::from_secs(60), concurrency: 2, progress: false, ..CrawlOptions::default() }
}

/// Crawl tests run one at a time, so each can check that it left no child process behind.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Our own processes' children still alive (zombies included).
fn children() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("procfs").flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.get(1) == Some(&me.as_str()) {
            out.push(stat);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawls_real_registry_servers_verbatim() {
    let _serial = SERIAL.lock().await;
    let config = fixture_config();
    assert!(config.servers.len() >= 10, "at least 10 real servers");
    let (catalog, report) = crawl(&config, &options()).await;
    let failures: Vec<_> = report.failures().collect();
    assert!(failures.is_empty(), "{failures:#?}");

    let expectations: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/mcp-servers/expectations.json")).expect("read"),
    )
    .expect("json");
    for e in expectations.as_array().expect("array") {
        let name = e["server"].as_str().expect("server");
        let server = catalog.servers.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{name} crawled"));
        let min = e["min_tools"].as_u64().expect("min_tools") as usize;
        assert!(server.tools.len() >= min, "{name}: {} tools < {min}", server.tools.len());
        assert!(server.crawled_at.is_some() && server.protocol_version.is_some());
        assert_eq!(server.source.kind, "stdio");
    }
    // A banner on stdout does not break the session; it is counted.
    let noisy = report.servers.iter().find_map(|o| match o {
        CrawlOutcome::Ok { server, stdout_noise, .. } if server == "time" => Some(*stdout_noise),
        _ => None,
    });
    assert!(noisy.unwrap_or(0) >= 1, "time-mcp prints a banner on stdout");

    // Tools are byte-for-byte what the servers declared: compare with an independent raw crawl.
    let dump: Value =
        serde_json::from_str(&std::fs::read_to_string(shared().join("mcp-crawl.json")).expect("read")).expect("json");
    let by_package: HashMap<&str, &Value> = dump["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .filter_map(|s| Some((s.get("package")?.as_str()?, s)))
        .collect();
    let packages = [
        ("github", "@modelcontextprotocol/server-github"),
        ("slack", "@modelcontextprotocol/server-slack"),
        ("playwright", "@playwright/mcp"),
        ("kubernetes", "kubernetes-mcp-server"),
    ];
    for (name, package) in packages {
        let server = catalog.servers.iter().find(|s| s.name == name).expect("crawled");
        let reference = by_package[package]["tools"].as_array().expect("tools");
        assert_eq!(server.tools.len(), reference.len(), "{name}");
        for (ours, theirs) in server.tools.iter().zip(reference) {
            assert!(ours.derived.is_none());
            assert_eq!(
                serde_json::to_string(&ours.tool).expect("json"),
                serde_json::to_string(theirs).expect("json"),
                "{name}/{}",
                ours.name
            );
        }
    }
    // The committed fixture was made by this crawler from these servers: same tool definitions.
    let (fixture, _) =
        toolscout_indexer::import_catalog(&root().join("data/catalog/reference-servers.jsonl"), None).expect("fixture");
    for s in &fixture.servers {
        let live = catalog.servers.iter().find(|c| c.name == s.name).expect("same servers");
        let hashes = |r: &toolscout_indexer::ServerRecord| r.tools.iter().map(|t| t.hash.clone()).collect::<Vec<_>>();
        assert_eq!(hashes(live), hashes(s), "{} drifted from data/catalog/reference-servers.jsonl", s.name);
    }
    assert!(children().is_empty(), "crawl left processes behind: {:?}", children());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_servers_are_reported_and_the_crawl_goes_on() {
    let _serial = SERIAL.lock().await;
    let good = fixture_config().servers.into_iter().find(|(n, _)| n == "slack").expect("slack in fixture");
    let stdio = |command: &str, args: &[&str]| LaunchSpec::Stdio {
        command: command.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        env: [("SECRET_TOKEN".to_string(), "hunter2-very-secret".to_string())].into(),
        cwd: None,
    };
    // A port that is bound but not listening refuses connections, and nothing else can take it meanwhile.
    let closed = tokio::net::TcpSocket::new_v4().expect("socket");
    closed.bind("127.0.0.1:0".parse().expect("addr")).expect("bind");
    let closed_port = closed.local_addr().expect("addr").port();
    let config = HostConfig {
        servers: vec![
            ("missing".into(), stdio("/nonexistent/mcp-server", &[])),
            ("garbage".into(), stdio("sh", &["-c", "echo not json; echo $SECRET_TOKEN >&2; exit 3"])),
            ("hang".into(), stdio("unshare", &["-n", "sleep", "600"])),
            good,
            (
                "refused".into(),
                LaunchSpec::Http { url: format!("http://127.0.0.1:{closed_port}/mcp"), headers: Default::default() },
            ),
        ],
    };
    let options = CrawlOptions { timeout: Duration::from_secs(4), ..options() };
    let started = std::time::Instant::now();
    let (catalog, report) = crawl(&config, &options).await;
    // Generous: a 4 s timeout each; this only catches a crawl that hangs for good.
    assert!(started.elapsed() < Duration::from_secs(90), "nothing hangs past the timeouts");
    assert_eq!(catalog.servers.len(), 1);
    assert_eq!(catalog.servers[0].name, "slack");
    let failures: HashMap<String, (String, String)> =
        report.failures().map(|f| (f.server.clone(), (f.stage.clone(), f.reason.clone()))).collect();
    assert_eq!(failures.len(), 4, "{failures:#?}");
    assert_eq!(failures["missing"].0, "spawn");
    assert_eq!(failures["hang"].0, "timeout");
    let garbage = &failures["garbage"];
    assert_eq!(garbage.0, "initialize");
    assert!(garbage.1.contains("exit status: 3"), "{garbage:?}");
    assert!(!garbage.1.contains("hunter2"), "secrets are masked: {garbage:?}");
    assert!(garbage.1.contains("***"), "{garbage:?}");
    assert!(children().is_empty(), "crawl left processes behind: {:?}", children());
}

/// The fault suite: purpose-built misbehaving servers (`tests/fault-servers/fault_server.py`), crawled
/// together with a healthy one. Each problem is reported with a reason, good tools still land, nothing
/// hangs past the timeouts and no process is left behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fault_suite() {
    let _serial = SERIAL.lock().await;
    let script = root().join("tests/fault-servers/fault_server.py");
    let modes = [
        "ok",
        "hang-before-init",
        "hang-after-init",
        "crash-mid-list",
        "garbage-stdout",
        "huge-schema",
        "deep-schema",
        "duplicate-names",
        "missing-description",
        "endless-pagination",
        "slow-start",
        "non-utf8",
        "ignore-eof",
    ];
    let config = HostConfig {
        servers: modes
            .iter()
            .map(|m| {
                let spec = LaunchSpec::Stdio {
                    command: "python3".into(),
                    args: vec![script.display().to_string(), m.to_string()],
                    env: Default::default(),
                    cwd: None,
                };
                (m.to_string(), spec)
            })
            .collect(),
    };
    let options = CrawlOptions { timeout: Duration::from_secs(6), concurrency: 4, ..options() };
    let started = std::time::Instant::now();
    let (catalog, report) = crawl(&config, &options).await;
    // Generous: 6 s timeouts, 4 at a time; this only catches a crawl that hangs for good.
    assert!(started.elapsed() < Duration::from_secs(180), "took {:?}", started.elapsed());
    let ok: HashMap<String, (usize, Vec<String>, usize)> = report
        .servers
        .iter()
        .filter_map(|o| match o {
            CrawlOutcome::Ok { server, tools, warnings, stdout_noise, .. } => {
                Some((server.clone(), (*tools, warnings.clone(), *stdout_noise)))
            }
            CrawlOutcome::Failed { .. } => None,
        })
        .collect();
    let failed: HashMap<String, (String, String)> =
        report.failures().map(|f| (f.server.clone(), (f.stage.clone(), f.reason.clone()))).collect();
    eprintln!("ok: {ok:#?}\nfailed: {failed:#?}");
    for healthy in ["ok", "slow-start", "ignore-eof"] {
        assert_eq!(ok[healthy].0, 2, "{healthy}");
    }
    assert_eq!(failed["hang-before-init"].0, "timeout");
    assert_eq!(failed["hang-after-init"].0, "timeout");
    assert_eq!(failed["crash-mid-list"].0, "tools/list");
    assert!(failed["crash-mid-list"].1.contains("exit status: 3"), "{:?}", failed["crash-mid-list"]);
    assert_eq!(failed["endless-pagination"].0, "tools/list");
    assert!(failed["endless-pagination"].1.contains("pages"), "{:?}", failed["endless-pagination"]);
    assert!(ok["garbage-stdout"].2 >= 3, "garbage lines counted: {:?}", ok["garbage-stdout"]);
    assert_eq!(ok["garbage-stdout"].0, 2);
    let (n, warnings, _) = &ok["huge-schema"];
    assert_eq!(*n, 1, "the oversized tool is skipped");
    assert!(warnings.iter().any(|w| w.contains("huge") && w.contains("bytes")), "{warnings:?}");
    assert_eq!(ok["deep-schema"].0, 1);
    let (n, warnings, _) = &ok["duplicate-names"];
    assert_eq!(*n, 2);
    assert!(warnings.iter().any(|w| w.contains("duplicate tool name")), "{warnings:?}");
    assert_eq!(ok["missing-description"].0, 2);
    assert_eq!(failed["non-utf8"].0, "tools/list", "reported at once, not as a timeout");
    // The reason comes from what the crawler's stdout filter saw, not from which of rmcp's two possible
    // errors (our error response, or the closed stream) won the race.
    let reason = &failed["non-utf8"].1;
    assert!(reason.starts_with("the server's response is not valid UTF-8"), "{reason}");
    // Every good server's tools landed, verbatim.
    let deep = catalog.servers.iter().find(|s| s.name == "deep-schema").expect("deep");
    assert!(deep.tools[0].tool["inputSchema"]["$defs"].is_object(), "{:?}", deep.tools[0].tool);
    assert!(children().is_empty(), "crawl left processes behind: {:?}", children());
}
