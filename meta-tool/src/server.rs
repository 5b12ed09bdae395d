//! The rmcp server: `discover_tools(need, server?, limit?)`, and with a proxy also the generic
//! `call_tool(server, tool, arguments)` for runtimes that cannot call a tool missing from their fixed
//! `tools` array (keeping that array — and so the cached prompt prefix — unchanged).
//!
//! A need the engine cannot use (empty, too long) is a tool error the model sees and can fix; arguments of
//! the wrong type are rejected by rmcp before we run. `call_tool` refuses tools not delivered in this
//! session and arguments that break the tool's declared input schema.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use toolscout_service::{
    DeliveredTools, DiscoverParams, Error, MAX_QUERY_CHARS, bearer_matches, origin_allowed, render,
};

use crate::access::Access;
use crate::audit::{AuditRecord, Outcome, digest, now};
use crate::backend::Backend;
use crate::confirm::{Confirmation, confirm, question};
use crate::contract::{CALL_TOOL_DESCRIPTION, CallToolArgs, DISCOVER_DESCRIPTION, DiscoverArgs, MAX_LIMIT};
use crate::guard::CallGuard;
use crate::proxy::{Proxy, validate};

/// One MCP session of the meta-tool: a backend, an optional proxy, and what this session has been given.
#[derive(Clone)]
pub struct DiscoverServer {
    backend: Arc<dyn Backend>,
    proxy: Option<Arc<Proxy>>,
    session: Arc<Mutex<DeliveredTools>>,
    access: Arc<Access>,
    calls: Arc<Mutex<CallGuard>>,
    session_id: String,
    tool_router: ToolRouter<DiscoverServer>,
}

/// Sessions started by this process, for audit session ids.
static SESSIONS: AtomicU64 = AtomicU64::new(0);

impl DiscoverServer {
    /// A fresh session over `backend`, exposing only `discover_tools`.
    pub fn new(backend: Arc<dyn Backend>) -> Self {
        let mut tool_router = Self::tool_router();
        tool_router.remove_route("call_tool");
        DiscoverServer::build(backend, None, tool_router)
    }

    /// A fresh session that also exposes `call_tool`, forwarding through `proxy`.
    pub fn with_proxy(backend: Arc<dyn Backend>, proxy: Arc<Proxy>) -> Self {
        DiscoverServer::build(backend, Some(proxy), Self::tool_router())
    }

    /// This session acting under `access` (a policy profile) instead of the open default.
    pub fn with_access(mut self, access: Arc<Access>) -> Self {
        self.access = access;
        self
    }

    fn build(backend: Arc<dyn Backend>, proxy: Option<Arc<Proxy>>, tool_router: ToolRouter<DiscoverServer>) -> Self {
        let n = SESSIONS.fetch_add(1, Ordering::Relaxed);
        DiscoverServer {
            backend,
            proxy,
            session: Arc::default(),
            access: Arc::new(Access::open()),
            calls: Arc::default(),
            session_id: format!("{}-{n}", std::process::id()),
            tool_router,
        }
    }
}

#[tool_router]
impl DiscoverServer {
    /// Finds the tools that serve a need.
    #[tool(
        name = "discover_tools",
        description = DISCOVER_DESCRIPTION,
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn discover_tools(&self, Parameters(args): Parameters<DiscoverArgs>) -> Result<CallToolResult, ErrorData> {
        let limit = args.limit;
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Ok(tool_error(format!("`limit` must be between 1 and {MAX_LIMIT}, got {limit}")));
        }
        if args.need.trim().is_empty() {
            return Ok(tool_error("`need` is empty: describe the capability you need".into()));
        }
        if args.need.chars().count() > MAX_QUERY_CHARS {
            return Ok(tool_error(format!("`need` is longer than {MAX_QUERY_CHARS} characters")));
        }
        let params =
            DiscoverParams { query: args.need, server: args.server, limit: Some(limit as usize), loaded: Vec::new() };
        let backend = self.backend.clone();
        let access = self.access.clone();
        let answer = tokio::task::spawn_blocking(move || backend.discover(&params, access.discovery_profile()))
            .await
            .map_err(|e| ErrorData::internal_error(format!("search task failed: {e}"), None))?;
        let answer = match answer {
            Ok(a) => a,
            Err(Error::BadQuery(m)) => return Ok(tool_error(m)),
            Err(e @ Error::Unavailable(_)) => return Ok(tool_error(e.to_string())),
            Err(e) => {
                tracing::error!("discover_tools failed: {e}");
                return Err(ErrorData::internal_error("search failed", None));
            }
        };
        let (text, structured) = {
            let mut session = self.session.lock().unwrap_or_else(|e| e.into_inner());
            render(&answer, &mut session)
        };
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        result.structured_content = Some(structured);
        Ok(result)
    }

    /// Calls a delivered tool on its real server, within the session's profile: its risk class, limits,
    /// loop check and — for the classes the profile names — a person's confirmation. Every attempt that
    /// reaches a real tool is audited.
    #[tool(name = "call_tool", description = CALL_TOOL_DESCRIPTION)]
    async fn call_tool(
        &self,
        context: RequestContext<RoleServer>,
        InputResponses(responses): InputResponses,
        RequestState(request_state): RequestState,
        Parameters(args): Parameters<CallToolArgs>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(proxy) = &self.proxy else {
            return Ok(tool_error("call_tool is not enabled on this server".into()).into());
        };
        let delivered = self.session.lock().unwrap_or_else(|e| e.into_inner()).has(&args.server, &args.tool);
        if !delivered {
            return Ok(tool_error(format!(
                "{}/{} was not delivered in this conversation: call discover_tools for it first",
                args.server, args.tool
            ))
            .into());
        }
        let profile = &self.access.profile;
        let definition = match self.backend.tool(&args.server, &args.tool, Some(profile)) {
            Ok(d) => d,
            Err(e) => return Ok(tool_error(e.to_string()).into()),
        };
        let tool: serde_json::Value = serde_json::from_str(definition.tool.get()).unwrap_or_default();
        if let Err(problems) = validate(tool.get("inputSchema"), &args.arguments) {
            return Ok(tool_error(format!(
                "arguments do not match the input schema of {}/{}:\n{problems}",
                args.server, args.tool
            ))
            .into());
        }
        let started = Instant::now();
        let class = definition.risk.class;
        let key = format!("{}/{}", definition.server_id, definition.name);
        let arguments = serde_json::Value::Object(args.arguments.clone());
        let mut record = AuditRecord {
            time: now(),
            session: self.session_id.clone(),
            profile: self.access.name.clone(),
            server: definition.server_id.clone(),
            tool: definition.name.clone(),
            class,
            arguments_sha256: digest(&arguments),
            arguments: profile.log_arguments.then(|| arguments.clone()),
            outcome: Outcome::Refused,
            detail: None,
            duration_ms: 0,
            confirmed: None,
        };
        let checked =
            self.calls.lock().unwrap_or_else(|e| e.into_inner()).check(profile, &key, class, &record.arguments_sha256);
        if let Err(refusal) = checked {
            return Ok(self.refuse(record, started, refusal).into());
        }
        if profile.needs_confirmation(class) {
            let message = question(&definition.server_id, &definition.name, class.as_str(), &args.arguments);
            let call_digest = digest(&serde_json::json!({"tool": key, "arguments": arguments}));
            match confirm(&context, responses, request_state, message, &call_digest).await {
                Confirmation::Confirmed => record.confirmed = Some(true),
                Confirmation::Ask(ask) => return Ok(CallToolResponse::InputRequired(ask)),
                Confirmation::Declined(why) | Confirmation::Unsupported(why) => {
                    record.outcome = Outcome::Declined;
                    record.confirmed = Some(false);
                    let message = format!("{key} was not called: {why}");
                    return Ok(self.refuse(record, started, message).into());
                }
            }
        }
        self.calls.lock().unwrap_or_else(|e| e.into_inner()).record(&key, class, &record.arguments_sha256);
        let timeout = Duration::from_secs(profile.call_timeout_secs);
        let result = match proxy.call_within(&definition.server, &args.tool, args.arguments, timeout).await {
            Ok(result) => {
                let size = serde_json::to_vec(&result).map(|v| v.len()).unwrap_or(usize::MAX);
                if size > profile.max_result_bytes {
                    record.outcome = Outcome::Failed;
                    let message = format!(
                        "the result of {key} is {size} bytes, over this session's limit of {} bytes, so it is \
                         withheld; ask for less (narrower arguments, a page, a filter)",
                        profile.max_result_bytes
                    );
                    record.detail = Some(message.clone());
                    tool_error(message)
                } else {
                    record.outcome = if result.is_error == Some(true) { Outcome::ToolError } else { Outcome::Ok };
                    // The envelope is ours: a result from a server on an older revision has no
                    // `resultType`, which 2026-07-28 clients require. Content is passed through as is.
                    let mut result = result;
                    result.result_type = Some(rmcp::model::ResultType::COMPLETE);
                    result
                }
            }
            Err(e) => {
                record.outcome = Outcome::Failed;
                record.detail = Some(e.clone());
                tool_error(e)
            }
        };
        record.duration_ms = started.elapsed().as_millis() as u64;
        self.access.audit.record(&record);
        Ok(result.into())
    }
}

impl DiscoverServer {
    /// Audits a call that was not made and tells the model why.
    fn refuse(&self, mut record: AuditRecord, started: Instant, message: String) -> CallToolResult {
        record.detail = Some(message.clone());
        record.duration_ms = started.elapsed().as_millis() as u64;
        self.access.audit.record(&record);
        tool_error(message)
    }
}

#[tool_handler(
    router = self.tool_router,
    name = "toolscout",
    instructions = "toolscout finds tools on demand. When you lack a tool for the next step, call discover_tools with the capability you need; the matching tool definitions come back in the result."
)]
impl ServerHandler for DiscoverServer {}

fn tool_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

impl DiscoverServer {
    fn fresh(backend: &Arc<dyn Backend>, proxy: &Option<Arc<Proxy>>, access: &Arc<Access>) -> Self {
        let server = match proxy {
            Some(p) => DiscoverServer::with_proxy(backend.clone(), p.clone()),
            None => DiscoverServer::new(backend.clone()),
        };
        server.with_access(access.clone())
    }
}

/// Serves MCP over stdin/stdout until the client goes away. Logs must go to stderr. A line that is not
/// JSON is answered with `-32700` (see `stdio_guard`).
pub async fn serve_stdio(
    backend: Arc<dyn Backend>,
    proxy: Option<Arc<Proxy>>,
    access: Arc<Access>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (transport, writer) = crate::stdio_guard::guard(tokio::io::stdin(), tokio::io::stdout());
    let service = DiscoverServer::fresh(&backend, &proxy, &access).serve(transport).await?;
    service.waiting().await?;
    if let Some(p) = proxy {
        p.shutdown().await;
    }
    let _ = writer.await;
    Ok(())
}

/// Serves MCP over Streamable HTTP at `/mcp` (and the proxied-call counters at `/metrics`) on `listener`
/// until `shutdown` resolves. Each MCP session
/// gets its own [`DiscoverServer`] (its own memory of delivered tools). Host headers are checked against
/// loopback names (rmcp's DNS-rebinding guard) and `Origin` against loopback origins and
/// `allowed_origins` (the transport spec requires it); with `token`, requests need `Authorization: Bearer`.
pub async fn serve_http(
    backend: Arc<dyn Backend>,
    proxy: Option<Arc<Proxy>>,
    access: Arc<Access>,
    listener: tokio::net::TcpListener,
    token: Option<String>,
    allowed_origins: Vec<String>,
    shutdown: tokio_util::sync::CancellationToken,
) -> std::io::Result<()> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
    let config = StreamableHttpServerConfig::default().with_cancellation_token(shutdown.child_token());
    let audit = access.audit.clone();
    let service = StreamableHttpService::new(
        move || Ok(DiscoverServer::fresh(&backend, &proxy, &access)),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let metrics = axum::routing::get(move || {
        let text = audit.metrics();
        async move { ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], text) }
    });
    let app = axum::Router::new().nest_service("/mcp", service).route("/metrics", metrics).layer(
        axum::middleware::from_fn(move |request: axum::extract::Request, next: axum::middleware::Next| {
            let token = token.clone();
            let allowed_origins = allowed_origins.clone();
            async move {
                if !origin_allowed(request.headers(), &allowed_origins) {
                    return axum::response::IntoResponse::into_response((
                        axum::http::StatusCode::FORBIDDEN,
                        "origin not allowed",
                    ));
                }
                if let Some(token) = token
                    && !bearer_matches(request.headers(), &token)
                {
                    return axum::response::IntoResponse::into_response((
                        axum::http::StatusCode::UNAUTHORIZED,
                        "missing or wrong bearer token",
                    ));
                }
                let ending_session = request.method() == axum::http::Method::DELETE;
                let mut response = next.run(request).await;
                // A session ended by DELETE is done: answer 200, which clients (the official Python SDK
                // among them) expect, rather than rmcp's 202 "accepted".
                if ending_session && response.status() == axum::http::StatusCode::ACCEPTED {
                    *response.status_mut() = axum::http::StatusCode::OK;
                }
                response
            }
        }),
    );
    let limits = toolscout_service::ConnectionLimits::default();
    toolscout_service::serve_limited(listener, app, &limits, async move { shutdown.cancelled().await }).await
}
