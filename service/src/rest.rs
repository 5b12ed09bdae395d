//! The REST API (axum): the only HTTP code in toolscout.
//!
//! `POST /v1/discover[?format=mcp|openai_chat|openai_responses|anthropic&call_id=…]`, `GET /v1/servers`, `GET /v1/servers/{server_id}/tools/{name}`, `GET /healthz`.
//! Errors are `{"error": {"code", "message"}}`: 4xx for the caller's mistakes, 5xx logged and not echoed.
//! Searches are CPU-bound and run on the blocking pool.

use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use crate::Error;
use serde::Deserialize;

use crate::delivery::{Format, to_format};
use crate::engine::Engine;
use crate::params::{DiscoverParams, DiscoverResponse, HealthResponse, ServersResponse, ToolResponse};
use crate::session::Session;
use toolscout_indexer::Pins;

/// Largest request body accepted.
const MAX_BODY: usize = 64 * 1024;

/// The API over `engine`.
pub fn router(engine: Arc<Engine>) -> Router {
    Router::new()
        .route("/v1/discover", post(discover))
        .route("/v1/servers", get(servers))
        .route("/v1/servers/{server_id}/tools/{name}", get(tool))
        .route("/healthz", get(health))
        .route("/v1/admin/reload", post(reload))
        .route("/v1/admin/pins", get(pins))
        .route("/v1/admin/pins/approve", post(approve))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(engine)
}

/// Serves the API on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    engine: Arc<Engine>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(engine)).with_graceful_shutdown(shutdown).await
}

/// `?format=` and `?call_id=` of `POST /v1/discover`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatQuery {
    #[serde(default)]
    format: Format,
    call_id: Option<String>,
}

async fn discover(
    State(engine): State<Arc<Engine>>,
    query: Result<Query<FormatQuery>, QueryRejection>,
    body: Result<Json<DiscoverParams>, JsonRejection>,
) -> Result<Response, AppError> {
    let Query(shape) = query.map_err(|e| AppError::bad_request("bad_query_string", e.body_text()))?;
    let Json(params) = body.map_err(AppError::from_rejection)?;
    let mut session = Session::default();
    for entry in &params.loaded {
        let (server_id, name) = entry.split_once('/').ok_or_else(|| {
            AppError::bad_request("bad_request", format!("`loaded` entries are \"server_id/name\", got {entry:?}"))
        })?;
        session.deliver(server_id, name);
    }
    let answer = tokio::task::spawn_blocking(move || engine.search(&params))
        .await
        .map_err(|e| AppError::internal(format!("search task failed: {e}")))??;
    let call_id = shape.call_id.unwrap_or_else(|| "discover_tools".to_string());
    Ok(match to_format(&answer, &mut session, shape.format, &call_id) {
        Some(tail) => Json(tail).into_response(),
        None => Json::<DiscoverResponse>(answer).into_response(),
    })
}

async fn servers(State(engine): State<Arc<Engine>>) -> Json<ServersResponse> {
    Json(engine.servers())
}

async fn tool(
    State(engine): State<Arc<Engine>>,
    Path((server_id, name)): Path<(String, String)>,
) -> Result<Json<ToolResponse>, AppError> {
    Ok(Json(engine.tool(&server_id, &name)?))
}

async fn health(State(engine): State<Arc<Engine>>) -> Json<HealthResponse> {
    Json(engine.health())
}

/// Swaps in the index's current snapshot; queries in flight finish on the old one.
async fn reload(State(engine): State<Arc<Engine>>) -> Result<Json<serde_json::Value>, AppError> {
    let id = tokio::task::spawn_blocking(move || engine.reload())
        .await
        .map_err(|e| AppError::internal(format!("reload task failed: {e}")))?
        .map_err(|e| AppError { status: StatusCode::CONFLICT, code: "reload_failed", message: e.to_string() })?;
    Ok(Json(json!({"status": "reloaded", "snapshot_id": id})))
}

/// Trust-on-first-use state: how many tools are pinned, and what is held back (with the field drift).
async fn pins(State(engine): State<Arc<Engine>>) -> Result<Json<serde_json::Value>, AppError> {
    let pins = Pins::read(engine.index_dir()).map_err(|e| AppError::internal(e.to_string()))?;
    let quarantine: serde_json::Map<String, serde_json::Value> = pins
        .quarantine
        .iter()
        .map(|(k, q)| {
            let drift = pins.diff(k).unwrap_or_default();
            (k.clone(), json!({"reason": q.reason, "hash": q.hash, "since": q.since, "drift": drift}))
        })
        .collect();
    Ok(Json(json!({"pinned": pins.pinned.len(), "quarantine": quarantine})))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ApproveParams {
    tool: String,
}

/// Approves a held-back definition and reloads.
async fn approve(
    State(engine): State<Arc<Engine>>,
    body: Result<Json<ApproveParams>, JsonRejection>,
) -> Result<Json<serde_json::Value>, AppError> {
    let Json(params) = body.map_err(AppError::from_rejection)?;
    let key = params.tool.clone();
    let id = tokio::task::spawn_blocking(move || engine.approve(&key))
        .await
        .map_err(|e| AppError::internal(format!("approve task failed: {e}")))??;
    Ok(Json(json!({"status": "approved", "tool": params.tool, "snapshot_id": id})))
}

async fn not_found() -> AppError {
    AppError { status: StatusCode::NOT_FOUND, code: "not_found", message: "no such endpoint".into() }
}

async fn method_not_allowed() -> AppError {
    AppError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        code: "method_not_allowed",
        message: "method not allowed on this endpoint".into(),
    }
}

/// An HTTP error with the one JSON error shape.
#[derive(Debug)]
struct AppError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl AppError {
    fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        AppError { status: StatusCode::BAD_REQUEST, code, message: message.into() }
    }

    /// Keeps axum's status (400 bad JSON, 422 wrong shape, 413 too large, 415 not JSON) in our shape.
    fn from_rejection(e: JsonRejection) -> Self {
        let status = e.status();
        let code = match status {
            StatusCode::PAYLOAD_TOO_LARGE => "payload_too_large",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
            StatusCode::UNPROCESSABLE_ENTITY => "invalid_request",
            _ => "bad_request",
        };
        AppError { status, code, message: e.body_text() }
    }

    fn internal(message: String) -> Self {
        tracing::error!("internal error: {message}");
        AppError { status: StatusCode::INTERNAL_SERVER_ERROR, code: "internal", message: "internal error".into() }
    }
}

impl From<Error> for AppError {
    fn from(e: Error) -> Self {
        match e {
            Error::BadQuery(m) => AppError::bad_request("bad_query", m),
            Error::NotFound(m) => AppError { status: StatusCode::NOT_FOUND, code: "not_found", message: m },
            other => AppError::internal(other.to_string()),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}
