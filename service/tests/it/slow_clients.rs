//! Slowloris-style clients (bounded: fixed counts, a few seconds, loopback only) cannot stall the REST
//! API: while they are held, `/healthz` and a discovery answer at once, and the server closes every one
//! of them by itself once its header, body or idle time is up.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use toolscout_service::{ConnectionLimits, RestConfig};

use crate::support::engine;

/// Clients of each kind.
const EACH: usize = 60;
/// The server's header/body/idle time limit in this test.
const LIMIT: Duration = Duration::from_secs(2);

/// A connection that sends part of a request and then stalls (or sends nothing at all).
async fn stalled(addr: std::net::SocketAddr, prefix: &'static [u8]) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(prefix).await.expect("write");
    stream
}

/// Waits until the server closes `stream` (EOF or reset, possibly after an error response); false when
/// it is still open at `deadline`.
async fn closed_by_server(mut stream: TcpStream, deadline: Instant) -> bool {
    let mut buf = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => continue, // a 408 or similar before the close
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_clients_neither_stall_the_api_nor_stay_open() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let connections = ConnectionLimits {
        max_connections: 4 * EACH + 16,
        header_timeout: LIMIT,
        body_timeout: LIMIT,
        ..Default::default()
    };
    let config = RestConfig { connections, ..RestConfig::default() };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(toolscout_service::serve_with(listener, engine(), config, async {
        let _ = stopped.await;
    }));

    let started = Instant::now();
    let mut held = Vec::new();
    for _ in 0..EACH {
        held.push(stalled(addr, b"").await); // idle: connects, says nothing
        held.push(stalled(addr, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ").await); // slow header
        held.push(
            stalled(addr, b"POST /v1/discover HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"query\": \"")
                .await,
        ); // slow body
    }

    // While they are held, real requests answer at once.
    let client = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().expect("client");
    let asked = Instant::now();
    let health = client.get(format!("http://{addr}/healthz")).send().await.expect("healthz answers");
    assert_eq!(health.status(), 200);
    let found: Value = client
        .post(format!("http://{addr}/v1/discover"))
        .json(&json!({"query": "post a message to a slack channel"}))
        .send()
        .await
        .expect("discover answers")
        .json()
        .await
        .expect("json");
    assert_eq!(found["status"], "found", "{found}");
    assert!(
        asked.elapsed() < LIMIT,
        "answered in {:?} with {} stalled clients held (not after they timed out)",
        asked.elapsed(),
        held.len()
    );

    // The server ends every stalled connection by itself, soon after the limit.
    let deadline = started + LIMIT + Duration::from_secs(6);
    let closed = futures_join(held.into_iter().map(|s| closed_by_server(s, deadline))).await;
    let open = closed.iter().filter(|c| !**c).count();
    assert_eq!(
        open,
        0,
        "{open} of {} stalled connections were still open after {:?}",
        closed.len(),
        deadline - started
    );

    let _ = stop.send(());
    server.await.expect("join").expect("serve");
}

/// Runs the futures concurrently (each on the runtime) and collects their results in order.
async fn futures_join<F>(futures: impl Iterator<Item = F>) -> Vec<bool>
where
    F: std::future::Future<Output = bool> + Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push(h.await.expect("join"));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_connection_limit_new_clients_wait_instead_of_using_descriptors() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let connections =
        ConnectionLimits { max_connections: 8, header_timeout: LIMIT, body_timeout: LIMIT, ..Default::default() };
    let config = RestConfig { connections, ..RestConfig::default() };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(toolscout_service::serve_with(listener, engine(), config, async {
        let _ = stopped.await;
    }));
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(stalled(addr, b"GET /healthz HTTP/1.1\r\n").await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The ninth client waits in the accept queue until a stalled one is timed out, then is served.
    let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().expect("client");
    let asked = Instant::now();
    let health = client.get(format!("http://{addr}/healthz")).send().await.expect("served after the wait");
    assert_eq!(health.status(), 200);
    let waited = asked.elapsed();
    assert!(waited >= LIMIT / 2, "served after {waited:?}: the limit of 8 connections was not applied");
    drop(held);
    let _ = stop.send(());
    server.await.expect("join").expect("serve");
}
