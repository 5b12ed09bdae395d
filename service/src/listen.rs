//! Accepting HTTP connections so that slow, idle or numerous clients cannot exhaust the server: hyper's
//! header read timeout (which also ends idle keep-alive connections: hyper arms it whenever it waits for a
//! request head), a body read timeout (tower-http), HTTP/2 keep-alive pings, and a limit on open
//! connections (past it, new ones wait in the kernel's accept queue and cost the process nothing).
//! Both HTTP servers (REST and MCP Streamable HTTP) accept through here.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// Connection limits of an HTTP server.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// Connections served at once; more wait to be accepted.
    pub max_connections: usize,
    /// Time a client has to send a complete request head, and how long an idle connection stays open.
    pub header_timeout: Duration,
    /// Time a client has to send a request body (408 after it).
    pub body_timeout: Duration,
    /// How long shutdown waits for open connections before it stops anyway.
    pub drain_timeout: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            drain_timeout: Duration::from_secs(10),
        }
    }
}

/// Serves `router` on `listener` under `limits` until `shutdown` resolves, then lets open connections
/// finish (up to `limits.drain_timeout`).
pub async fn serve_limited(
    listener: TcpListener,
    router: Router,
    limits: &ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = router.layer(RequestBodyTimeoutLayer::new(limits.body_timeout));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(limits.header_timeout)
        .keep_alive_timeout(limits.header_timeout)
        .max_concurrent_streams(64);
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little instead of spinning.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        // hyper's header timeout starts once it knows the protocol; a client that sends nothing (or a
        // few bytes of what could be an HTTP/2 preface) would hold the connection before that. So the
        // first request must begin within the header timeout too.
        let started = Arc::new(AtomicBool::new(false));
        let service = {
            let started = started.clone();
            let router = router.clone();
            tower::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                started.store(true, Ordering::Relaxed);
                tower::ServiceExt::oneshot(router.clone(), request)
            })
        };
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service))
            .into_owned();
        let connection = graceful.watch(connection);
        let first_request = limits.header_timeout;
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => Some(ended),
                () = tokio::time::sleep(first_request) => None,
            };
            let ended = match ended {
                Some(ended) => ended,
                None if !started.load(Ordering::Relaxed) => {
                    tracing::debug!("no request began within {first_request:?}: connection closed");
                    drop(permit);
                    return;
                }
                None => connection.await,
            };
            if let Err(e) = ended {
                tracing::debug!("connection ended: {e}");
            }
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.drain_timeout, graceful.shutdown()).await.is_err() {
        tracing::warn!("shutdown: connections still open after {:?}, closing them", limits.drain_timeout);
    }
    Ok(())
}
