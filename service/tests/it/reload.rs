//! Hot reload under load: clients hammer the REST API over a real socket while new snapshots are built
//! and swapped in; not one request fails, and the new snapshot is what gets served.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use toolscout_indexer::{BuildOptions, Catalog, build, import_catalog};
use toolscout_service::{Engine, EngineConfig};

use crate::support::{embedder, root};

fn catalog(servers: &[&str]) -> Catalog {
    let (all, _) = import_catalog(&root().join("data/catalog/reference-servers.jsonl"), None).expect("fixture");
    Catalog { servers: all.servers.into_iter().filter(|s| servers.contains(&s.name.as_str())).collect() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reloads_under_load_drop_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    build(
        &catalog(&["slack", "time"]),
        embedder().as_ref(),
        &toolscout_indexer::IndexDir::new(dir.path()),
        &BuildOptions::default(),
    )
    .expect("build");
    let engine = Arc::new(Engine::with_embedder(dir.path(), embedder(), EngineConfig::default()).expect("engine"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(toolscout_service::serve_with(listener, engine, admin_config(), async {
        let _ = stopped.await;
    }));

    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (ok, failed) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut clients = Vec::new();
    for i in 0..4 {
        let (done, ok, failed) = (done.clone(), ok.clone(), failed.clone());
        clients.push(tokio::spawn(async move {
            let client = authorized_client();
            let needs = ["post a message to a channel", "what time is it in Tokyo", "directions to the airport"];
            let mut n = i;
            while !done.load(Ordering::Relaxed) {
                let body = json!({"query": needs[n % needs.len()]});
                n += 1;
                match client.post(format!("http://{addr}/v1/discover")).json(&body).send().await {
                    Ok(r) if r.status() == 200 => ok.fetch_add(1, Ordering::Relaxed),
                    _ => failed.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    let client = authorized_client();
    let mut last_id = String::new();
    for servers in
        [&["slack", "time", "google-maps"][..], &["slack", "time"][..], &["slack", "time", "google-maps", "github"][..]]
    {
        let catalog = catalog(servers);
        let dir_path = dir.path().to_path_buf();
        let manifest = tokio::task::spawn_blocking(move || {
            build(&catalog, embedder().as_ref(), &toolscout_indexer::IndexDir::new(&dir_path), &rebuild_options())
        })
        .await
        .expect("join")
        .expect("rebuild");
        assert_eq!(reload(&client, addr).await["snapshot_id"], manifest.snapshot_id.as_str());
        let health: Value =
            client.get(format!("http://{addr}/healthz")).send().await.expect("health").json().await.expect("json");
        assert_eq!(health["tools"], manifest.tools);
        last_id = manifest.snapshot_id;
    }
    done.store(true, Ordering::Relaxed);
    for c in clients {
        c.await.expect("client");
    }
    let health: Value =
        client.get(format!("http://{addr}/healthz")).send().await.expect("health").json().await.expect("json");
    assert_eq!(health["snapshot_id"], last_id.as_str());
    assert!(ok.load(Ordering::Relaxed) > 20, "clients made requests: {}", ok.load(Ordering::Relaxed));
    assert_eq!(failed.load(Ordering::Relaxed), 0, "requests failed during reloads");
    // A reload that cannot open the index keeps serving the old snapshot.
    std::fs::write(dir.path().join("CURRENT"), "no-such-snapshot").expect("write");
    let r = client
        .post(format!("http://{addr}/v1/admin/reload"))
        .header("content-type", "application/json")
        .header("authorization", "Bearer admin-token")
        .send()
        .await
        .expect("reload");
    assert_eq!(r.status(), 409);
    let health: Value =
        client.get(format!("http://{addr}/healthz")).send().await.expect("health").json().await.expect("json");
    assert_eq!(health["snapshot_id"], last_id.as_str());
    let _ = stop.send(());
    server.await.expect("join").expect("serve");
}

/// Scale-out: replicas are stateless over the same immutable snapshot folder; after a rebuild each one
/// reloads and all of them serve the same new snapshot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_serve_the_same_snapshot_after_a_reload() {
    let dir = tempfile::tempdir().expect("tempdir");
    build(
        &catalog(&["slack", "time"]),
        embedder().as_ref(),
        &toolscout_indexer::IndexDir::new(dir.path()),
        &BuildOptions::default(),
    )
    .expect("build");
    let mut addrs = Vec::new();
    let mut stops = Vec::new();
    for _ in 0..2 {
        let engine = Arc::new(Engine::with_embedder(dir.path(), embedder(), EngineConfig::default()).expect("engine"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        addrs.push(listener.local_addr().expect("addr"));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        stops.push(stop);
        tokio::spawn(toolscout_service::serve_with(listener, engine, admin_config(), async {
            let _ = stopped.await;
        }));
    }
    let client = authorized_client();
    let ask = |addr: std::net::SocketAddr| {
        let client = client.clone();
        async move {
            let v: Value = client
                .post(format!("http://{addr}/v1/discover"))
                .json(&json!({"query": "directions between two cities"}))
                .send()
                .await
                .expect("send")
                .json()
                .await
                .expect("json");
            let tools = v["tools"].as_array().unwrap_or_else(|| panic!("an answer with tools: {v}"));
            tools.iter().any(|h| h["server"] == "google-maps")
        }
    };
    assert!(!ask(addrs[0]).await && !ask(addrs[1]).await, "no maps server yet");
    let dir_path = dir.path().to_path_buf();
    let manifest = tokio::task::spawn_blocking(move || {
        build(
            &catalog(&["slack", "time", "google-maps"]),
            embedder().as_ref(),
            &toolscout_indexer::IndexDir::new(&dir_path),
            &BuildOptions::default(),
        )
    })
    .await
    .expect("join")
    .expect("rebuild");
    for addr in &addrs {
        assert_eq!(reload(&client, addr).await["snapshot_id"], manifest.snapshot_id.as_str());
    }
    assert!(ask(addrs[0]).await && ask(addrs[1]).await, "both replicas serve the new snapshot");
    for stop in stops {
        let _ = stop.send(());
    }
}

/// A client that sends the admin token with every request (the token guards every route but /healthz).
fn authorized_client() -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(reqwest::header::AUTHORIZATION, "Bearer admin-token".parse().expect("header"));
    reqwest::Client::builder().default_headers(headers).build().expect("client")
}

/// A server configuration with admin routes (they need a token).
fn admin_config() -> toolscout_service::RestConfig {
    toolscout_service::RestConfig { token: Some("admin-token".into()), ..Default::default() }
}

/// `POST /v1/admin/reload` on the server at `addr`; its JSON answer.
async fn reload(client: &reqwest::Client, addr: impl std::fmt::Display) -> Value {
    let url = format!("http://{addr}/v1/admin/reload");
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .header("authorization", "Bearer admin-token")
        .send()
        .await
        .expect("reload");
    let status = response.status();
    let body: Value = response.json().await.expect("json");
    assert!(status.is_success(), "reload answered {status}: {body}");
    body
}

/// This test removes a third of the tools on purpose: past the mass-removal guard.
fn rebuild_options() -> BuildOptions {
    BuildOptions { max_removed_share: None, ..BuildOptions::default() }
}
