//! The REST API (axum): the only HTTP code in toolscout.
//!
//! `POST /v1/discover[?format=mcp|openai_chat|openai_responses|anthropic&call_id=…]`, `GET /v1/servers`,
//! `GET /v1/servers/{server_id}/tools/{name}`, `GET /healthz`, `GET /metrics`, `POST /v1/admin/reload`,
//! `GET /v1/admin/pins`, `POST /v1/admin/pins/approve`.
//! Errors are `{"error": {"code", "message"}}`: 4xx for the caller's mistakes, 5xx logged and not echoed.
//! Limits: body size, query length and `limit` range (engine), a bounded number of searches at once (on
//! the blocking pool; more wait briefly, then get 503), a time limit per search, and an optional bearer
//! token on everything but `/healthz`. One structured log line per discovery.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, MatchedPath, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::Error;
use crate::auth::{bearer, bearer_matches, origin_allowed};
use crate::delivered::DeliveredTools;
use crate::delivery::{Format, to_format};
use crate::engine::Engine;
use crate::listen::{ConnectionLimits, serve_limited};
use crate::metrics::Metrics;
use crate::params::{
    ApproveResponse, DiscoverParams, DiscoverResponse, HealthResponse, PinsResponse, ReloadResponse, ServersResponse,
    Status, ToolResponse,
};
use crate::policy::{Policy, Profile};

/// Largest request body accepted.
const MAX_BODY: usize = 64 * 1024;

/// Limits and access of the REST API.
#[derive(Debug, Clone)]
pub struct RestConfig {
    /// When set, every route but `/healthz` needs `Authorization: Bearer <token>`.
    pub token: Option<String>,
    /// Searches running at once (CPU-bound, on the blocking pool).
    pub max_concurrent_searches: usize,
    /// How long a request waits for a search slot before it gets 503.
    pub queue_timeout: Duration,
    /// How long one search may take before the request gets 503.
    pub search_timeout: Duration,
    /// Serve the admin routes (reload, pins) without a token. Off by default: with no token configured
    /// they refuse, so nothing that can reach the port can change what is served.
    pub admin_without_token: bool,
    /// Browser origins allowed besides loopback ones (`https://app.example`).
    pub allowed_origins: Vec<String>,
    /// Open connections, header/body/idle timeouts.
    pub connections: ConnectionLimits,
    /// A policy: callers act as the profile their bearer token maps to (else `profile`, else the policy's
    /// `default_profile`; a caller matching none is refused), and see only what it permits.
    pub policy: Option<Arc<Policy>>,
    /// The profile of callers whose token maps to none.
    pub profile: Option<String>,
}

impl Default for RestConfig {
    fn default() -> Self {
        RestConfig {
            token: None,
            max_concurrent_searches: 8,
            queue_timeout: Duration::from_secs(2),
            search_timeout: Duration::from_secs(10),
            admin_without_token: false,
            allowed_origins: Vec::new(),
            connections: ConnectionLimits::default(),
            policy: None,
            profile: None,
        }
    }
}

#[derive(Clone)]
pub(crate) struct AppState {
    engine: Arc<Engine>,
    config: Arc<RestConfig>,
    slots: Arc<Semaphore>,
    metrics: Arc<Metrics>,
}

/// The API over `engine`, with default limits and no token.
pub fn router(engine: Arc<Engine>) -> Router {
    router_with(engine, RestConfig::default())
}

/// The API over `engine` with `config`.
pub fn router_with(engine: Arc<Engine>, config: RestConfig) -> Router {
    let state = AppState {
        engine,
        slots: Arc::new(Semaphore::new(config.max_concurrent_searches.max(1))),
        config: Arc::new(config),
        metrics: Arc::default(),
    };
    let admin = Router::new()
        .route("/v1/admin/reload", post(reload))
        .route("/v1/admin/pins", get(pins))
        .route("/v1/admin/pins/approve", post(approve))
        .route_layer(middleware::from_fn_with_state(state.clone(), admin_only));
    let protected = Router::new()
        .route("/v1/discover", post(discover))
        .route("/v1/servers", get(servers))
        .route("/v1/servers/{server_id}/tools/{name}", get(tool))
        .route("/metrics", get(metrics))
        .merge(admin)
        .route_layer(middleware::from_fn_with_state(state.clone(), authorize));
    Router::new()
        .merge(protected)
        .route("/healthz", get(health))
        .route("/openapi.json", get(openapi_json))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(state.clone(), check_origin))
        .layer(middleware::from_fn_with_state(state.clone(), observe))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Serves the API on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    engine: Arc<Engine>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, engine, RestConfig::default(), shutdown).await
}

/// [`serve`] with limits and access from `config`. On Unix, SIGHUP reloads the index's current snapshot
/// (as `POST /v1/admin/reload` does); a failed reload keeps the old snapshot serving.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    engine: Arc<Engine>,
    config: RestConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let reloader = reload_on_hangup(engine.clone());
    let limits = config.connections.clone();
    let served = serve_limited(listener, router_with(engine, config), &limits, shutdown).await;
    if let Some(task) = reloader {
        task.abort();
    }
    served
}

/// Reloads `engine` on every SIGHUP until aborted.
fn reload_on_hangup(engine: Arc<Engine>) -> Option<tokio::task::JoinHandle<()>> {
    #[cfg(unix)]
    {
        let mut hup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok()?;
        Some(tokio::spawn(async move {
            while hup.recv().await.is_some() {
                let engine = engine.clone();
                match tokio::task::spawn_blocking(move || engine.reload()).await {
                    Ok(Ok(id)) => tracing::info!("SIGHUP: reloaded snapshot {id}"),
                    Ok(Err(e)) => tracing::error!("SIGHUP: reload failed, still serving the old snapshot: {e}"),
                    Err(e) => tracing::error!("SIGHUP: reload task failed: {e}"),
                }
            }
        }))
    }
    #[cfg(not(unix))]
    {
        let _ = engine;
        None
    }
}

/// The profile a request acts as, when a policy is in force (a request extension set by [`authorize`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Caller(Option<(String, Profile)>);

impl Caller {
    fn profile(&self) -> Option<&Profile> {
        self.0.as_ref().map(|(_, p)| p)
    }
    fn named(&self) -> Option<(&str, &Profile)> {
        self.0.as_ref().map(|(n, p)| (n.as_str(), p))
    }
}

/// Checks the bearer token, when one is configured (constant-time comparison), and under a policy
/// finds the caller's profile: a token mapped to a profile also lets the caller in.
async fn authorize(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let mapped = state
        .config
        .policy
        .as_ref()
        .and_then(|p| bearer(request.headers()).and_then(|t| p.profile_for_token(t)).map(str::to_string));
    if let Some(token) = &state.config.token
        && !bearer_matches(request.headers(), token)
        && mapped.is_none()
    {
        return AppError {
            status: StatusCode::UNAUTHORIZED,
            code: "unauthorized",
            message: "missing or wrong bearer token".into(),
        }
        .into_response();
    }
    let mut caller = Caller::default();
    if let Some(policy) = &state.config.policy {
        let name = mapped.or_else(|| state.config.profile.clone()).or_else(|| policy.default_profile.clone());
        let Some(profile) = name.as_ref().and_then(|n| policy.profiles.get(n)) else {
            return AppError {
                status: StatusCode::UNAUTHORIZED,
                code: "no_profile",
                message: "a policy is in force: present a bearer token that maps to one of its profiles".into(),
            }
            .into_response();
        };
        caller = Caller(name.map(|n| (n, profile.clone())));
    }
    request.extensions_mut().insert(caller);
    next.run(request).await
}

/// Admin routes need a configured token (checked by [`authorize`]) unless the operator opted out, and a
/// state-changing one needs a JSON body type — which a cross-site form or `text/plain` fetch cannot send
/// without a preflight.
async fn admin_only(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let admin_token = state.config.token.as_ref().is_some_and(|t| bearer_matches(request.headers(), t));
    if state.config.token.is_some() && !admin_token {
        return AppError {
            status: StatusCode::FORBIDDEN,
            code: "admin_only",
            message: "admin routes need the server's admin token, not a profile's".into(),
        }
        .into_response();
    }
    if state.config.token.is_none() && !state.config.admin_without_token {
        return AppError {
            status: StatusCode::FORBIDDEN,
            code: "admin_disabled",
            message: "admin routes need a token: start the server with --token (or --admin-without-token)".into(),
        }
        .into_response();
    }
    if request.method() == axum::http::Method::POST {
        let json =
            request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json {
            return AppError {
                status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
                code: "unsupported_media_type",
                message: "admin requests must be sent as application/json".into(),
            }
            .into_response();
        }
    }
    next.run(request).await
}

/// Refuses browser requests from origins other than loopback ones (and those configured).
async fn check_origin(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !origin_allowed(request.headers(), &state.config.allowed_origins) {
        return AppError {
            status: StatusCode::FORBIDDEN,
            code: "forbidden_origin",
            message: "origin not allowed".into(),
        }
        .into_response();
    }
    next.run(request).await
}

/// Counts every request by route and status, with its latency.
async fn observe(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let route =
        request.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string()).unwrap_or_else(|| "other".into());
    let started = Instant::now();
    let response = next.run(request).await;
    state.metrics.observe(&route, response.status().as_u16(), started.elapsed().as_secs_f64());
    response
}

/// `?format=` and `?call_id=` of `POST /v1/discover`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct FormatQuery {
    /// Shape the answer as a message for this framework's conversation tail (`json`: the response itself).
    #[serde(default)]
    #[param(inline)]
    format: Format,
    /// The id of the tool call this answers (default `discover_tools`).
    call_id: Option<String>,
}

/// Finds the tools that serve a need (or says `not_found`, with the closest ones as a hint).
#[utoipa::path(
    post,
    path = "/v1/discover",
    params(FormatQuery),
    request_body = DiscoverParams,
    responses(
        (status = 200, description = "The answer (or, with `format`, that framework's tail message)", body = crate::openapi::DiscoverAnswer),
        (status = 400, description = "A query, limit or parameter the caller can fix", body = crate::openapi::ErrorBody),
        (status = 401, description = "Missing or wrong bearer token", body = crate::openapi::ErrorBody),
        (status = 413, description = "Body too large", body = crate::openapi::ErrorBody),
        (status = 415, description = "Body not JSON", body = crate::openapi::ErrorBody),
        (status = 422, description = "Body of the wrong shape", body = crate::openapi::ErrorBody),
        (status = 503, description = "Busy or too slow; retry after `Retry-After`", body = crate::openapi::ErrorBody)
    ),
    security((), ("bearer" = []))
)]
pub(crate) async fn discover(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    query: Result<Query<FormatQuery>, QueryRejection>,
    body: Result<Json<DiscoverParams>, JsonRejection>,
) -> Result<Response, AppError> {
    let Query(shape) = query.map_err(|e| AppError::bad_request("bad_query_string", e.body_text()))?;
    let Json(params) = body.map_err(AppError::from_rejection)?;
    let mut session = DeliveredTools::default();
    for entry in &params.loaded {
        let (server_id, name) = entry.split_once('/').ok_or_else(|| {
            AppError::bad_request("bad_request", format!("`loaded` entries are \"server_id/name\", got {entry:?}"))
        })?;
        session.deliver(server_id, name);
    }
    let permit = tokio::time::timeout(state.config.queue_timeout, state.slots.clone().acquire_owned())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            state.metrics.busy();
            AppError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                code: "busy",
                message: "all search slots are busy; retry shortly".into(),
            }
        })?;
    let engine = state.engine.clone();
    let started = Instant::now();
    let search = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        engine.search_as(&params, caller.named())
    });
    let answer = tokio::time::timeout(state.config.search_timeout, search)
        .await
        .map_err(|_| AppError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code: "timeout",
            message: "the search took too long".into(),
        })?
        .map_err(|e| AppError::internal(format!("search task failed: {e}")))??;
    state.metrics.decision(answer.status == Status::Found);
    let top: Vec<String> = answer
        .tools
        .iter()
        .chain(&answer.closest)
        .take(3)
        .map(|t| format!("{}/{}:{:.3}", t.server_id, t.name, t.score))
        .collect();
    tracing::info!(
        target: "toolscout::query",
        query = %answer.query,
        decision = ?answer.status,
        threshold = answer.threshold,
        top = ?top,
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "discover"
    );
    let call_id = shape.call_id.unwrap_or_else(|| "discover_tools".to_string());
    Ok(match to_format(&answer, &mut session, shape.format, &call_id) {
        Some(tail) => Json(tail).into_response(),
        None => Json::<DiscoverResponse>(answer).into_response(),
    })
}

/// The servers the caller may see.
#[utoipa::path(
    get,
    path = "/v1/servers",
    responses(
        (status = 200, description = "Servers, in catalog order", body = ServersResponse),
        (status = 401, description = "Missing or wrong bearer token", body = crate::openapi::ErrorBody)
    ),
    security((), ("bearer" = []))
)]
pub(crate) async fn servers(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
) -> Json<ServersResponse> {
    Json(state.engine.servers_as(caller.profile()))
}

/// One tool's stored definition, verbatim, with its risk class.
#[utoipa::path(
    get,
    path = "/v1/servers/{server_id}/tools/{name}",
    params(("server_id" = String, Path, description = "The server's id"), ("name" = String, Path, description = "The tool's name")),
    responses(
        (status = 200, description = "The definition", body = ToolResponse),
        (status = 401, description = "Missing or wrong bearer token", body = crate::openapi::ErrorBody),
        (status = 404, description = "No such server or tool (or the caller's profile does not permit it)", body = crate::openapi::ErrorBody)
    ),
    security((), ("bearer" = []))
)]
pub(crate) async fn tool(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    Path((server_id, name)): Path<(String, String)>,
) -> Result<Json<ToolResponse>, AppError> {
    Ok(Json(state.engine.tool_as(&server_id, &name, caller.profile())?))
}

/// What is being served (never needs a token).
#[utoipa::path(get, path = "/healthz", responses((status = 200, description = "Serving", body = HealthResponse)))]
pub(crate) async fn health(State(state): State<AppState>) -> Json<HealthResponse> {
    Json(state.engine.health())
}

/// Prometheus metrics.
#[utoipa::path(
    get,
    path = "/metrics",
    responses(
        (status = 200, description = "Prometheus text format", body = String, content_type = "text/plain"),
        (status = 401, description = "Missing or wrong bearer token", body = crate::openapi::ErrorBody)
    ),
    security((), ("bearer" = []))
)]
pub(crate) async fn metrics(State(state): State<AppState>) -> Response {
    let health = state.engine.health();
    let text = state.metrics.render(&health.snapshot_id, health.tools);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// Swaps in the index's current snapshot; queries in flight finish on the old one.
#[utoipa::path(
    post,
    path = "/v1/admin/reload",
    responses(
        (status = 200, description = "Reloaded", body = ReloadResponse),
        (status = 401, description = "Missing or wrong bearer token", body = crate::openapi::ErrorBody),
        (status = 403, description = "Admin routes are off (no token configured) or the token is a profile's", body = crate::openapi::ErrorBody),
        (status = 409, description = "The new snapshot could not be loaded; the old one still serves", body = crate::openapi::ErrorBody),
        (status = 415, description = "Not sent as application/json", body = crate::openapi::ErrorBody)
    ),
    security(("bearer" = []))
)]
pub(crate) async fn reload(State(state): State<AppState>) -> Result<Json<ReloadResponse>, AppError> {
    let engine = state.engine.clone();
    let snapshot_id = tokio::task::spawn_blocking(move || engine.reload())
        .await
        .map_err(|e| AppError::internal(format!("reload task failed: {e}")))?
        .map_err(|e| AppError { status: StatusCode::CONFLICT, code: "reload_failed", message: e.to_string() })?;
    Ok(Json(ReloadResponse { status: "reloaded".into(), snapshot_id }))
}

/// Trust-on-first-use state: how many tools are pinned, and what is held back (with the field drift).
#[utoipa::path(
    get,
    path = "/v1/admin/pins",
    responses(
        (status = 200, description = "Pins and held-back tools", body = PinsResponse),
        (status = 401, description = "Missing or wrong bearer token", body = crate::openapi::ErrorBody),
        (status = 403, description = "Admin routes are off or the token is a profile's", body = crate::openapi::ErrorBody)
    ),
    security(("bearer" = []))
)]
pub(crate) async fn pins(State(state): State<AppState>) -> Result<Json<PinsResponse>, AppError> {
    Ok(Json(state.engine.pins().map_err(|e| AppError::internal(e.to_string()))?))
}

/// `POST /v1/admin/pins/approve`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ApproveParams {
    /// The held-back tool, `server_id/tool`.
    tool: String,
}

/// Approves a held-back definition and reloads.
#[utoipa::path(
    post,
    path = "/v1/admin/pins/approve",
    request_body = ApproveParams,
    responses(
        (status = 200, description = "Approved and live", body = ApproveResponse),
        (status = 400, description = "Not a held-back tool", body = crate::openapi::ErrorBody),
        (status = 401, description = "Missing or wrong bearer token", body = crate::openapi::ErrorBody),
        (status = 403, description = "Admin routes are off or the token is a profile's", body = crate::openapi::ErrorBody),
        (status = 404, description = "No such tool", body = crate::openapi::ErrorBody),
        (status = 415, description = "Not sent as application/json", body = crate::openapi::ErrorBody),
        (status = 422, description = "Body of the wrong shape", body = crate::openapi::ErrorBody)
    ),
    security(("bearer" = []))
)]
pub(crate) async fn approve(
    State(state): State<AppState>,
    body: Result<Json<ApproveParams>, JsonRejection>,
) -> Result<Json<ApproveResponse>, AppError> {
    let Json(params) = body.map_err(AppError::from_rejection)?;
    let engine = state.engine.clone();
    let approved = tokio::task::spawn_blocking(move || engine.approve(&params.tool))
        .await
        .map_err(|e| AppError::internal(format!("approve task failed: {e}")))??;
    Ok(Json(approved))
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", responses((status = 200, description = "The OpenAPI 3.1 document", body = Object)))]
pub(crate) async fn openapi_json() -> Response {
    static DOC: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let doc = DOC.get_or_init(crate::openapi::openapi_json).clone();
    ([(header::CONTENT_TYPE, "application/json")], doc).into_response()
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
pub(crate) struct AppError {
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
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            // Busy or slow: a client may retry after a moment.
            response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        response
    }
}
