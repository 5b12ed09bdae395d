//! The rmcp server: `discover_tools(need, server?, limit?)`, and with a proxy also the generic
//! `call_tool(server, tool, arguments)` for runtimes that cannot call a tool missing from their fixed
//! `tools` array (keeping that array — and so the cached prompt prefix — unchanged).
//!
//! A need the engine cannot use (empty, too long) is a tool error the model sees and can fix; arguments of
//! the wrong type are rejected by rmcp before we run. `call_tool` refuses tools not delivered in this
//! session and arguments that break the tool's declared input schema.

use std::sync::{Arc, Mutex};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use toolscout_service::{
    DeliveredTools, DiscoverParams, Error, MAX_QUERY_CHARS, bearer_matches, origin_allowed, render,
};

use crate::backend::Backend;
use crate::contract::{CALL_TOOL_DESCRIPTION, CallToolArgs, DISCOVER_DESCRIPTION, DiscoverArgs, MAX_LIMIT};
use crate::proxy::{Proxy, validate};

/// One MCP session of the meta-tool: a backend, an optional proxy, and what this session has been given.
#[derive(Clone)]
pub struct DiscoverServer {
    backend: Arc<dyn Backend>,
    proxy: Option<Arc<Proxy>>,
    session: Arc<Mutex<DeliveredTools>>,
    tool_router: ToolRouter<DiscoverServer>,
}

impl DiscoverServer {
    /// A fresh session over `backend`, exposing only `discover_tools`.
    pub fn new(backend: Arc<dyn Backend>) -> Self {
        let mut tool_router = Self::tool_router();
        tool_router.remove_route("call_tool");
        DiscoverServer { backend, proxy: None, session: Arc::default(), tool_router }
    }

    /// A fresh session that also exposes `call_tool`, forwarding through `proxy`.
    pub fn with_proxy(backend: Arc<dyn Backend>, proxy: Arc<Proxy>) -> Self {
        DiscoverServer { backend, proxy: Some(proxy), session: Arc::default(), tool_router: Self::tool_router() }
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
        let answer = tokio::task::spawn_blocking(move || backend.discover(&params))
            .await
            .map_err(|e| ErrorData::internal_error(format!("search task failed: {e}"), None))?;
        let answer = match answer {
            Ok(a) => a,
            Err(Error::BadQuery(m)) => return Ok(tool_error(m)),
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

    /// Calls a delivered tool on its real server.
    #[tool(name = "call_tool", description = CALL_TOOL_DESCRIPTION)]
    async fn call_tool(&self, Parameters(args): Parameters<CallToolArgs>) -> Result<CallToolResult, ErrorData> {
        let Some(proxy) = &self.proxy else {
            return Ok(tool_error("call_tool is not enabled on this server".into()));
        };
        let delivered = self.session.lock().unwrap_or_else(|e| e.into_inner()).has(&args.server, &args.tool);
        if !delivered {
            return Ok(tool_error(format!(
                "{}/{} was not delivered in this conversation: call discover_tools for it first",
                args.server, args.tool
            )));
        }
        let definition = match self.backend.tool(&args.server, &args.tool) {
            Ok(d) => d,
            Err(e) => return Ok(tool_error(e.to_string())),
        };
        let tool: serde_json::Value = serde_json::from_str(definition.tool.get()).unwrap_or_default();
        if let Err(problems) = validate(tool.get("inputSchema"), &args.arguments) {
            return Ok(tool_error(format!(
                "arguments do not match the input schema of {}/{}:\n{problems}",
                args.server, args.tool
            )));
        }
        match proxy.call(&definition.server, &args.tool, args.arguments).await {
            Ok(result) => Ok(result),
            Err(e) => Ok(tool_error(e)),
        }
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
    fn fresh(backend: &Arc<dyn Backend>, proxy: &Option<Arc<Proxy>>) -> Self {
        match proxy {
            Some(p) => DiscoverServer::with_proxy(backend.clone(), p.clone()),
            None => DiscoverServer::new(backend.clone()),
        }
    }
}

/// Serves MCP over stdin/stdout until the client goes away. Logs must go to stderr.
pub async fn serve_stdio(
    backend: Arc<dyn Backend>,
    proxy: Option<Arc<Proxy>>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let service = DiscoverServer::fresh(&backend, &proxy).serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    if let Some(p) = proxy {
        p.shutdown().await;
    }
    Ok(())
}

/// Serves MCP over Streamable HTTP at `/mcp` on `listener` until `shutdown` resolves. Each MCP session
/// gets its own [`DiscoverServer`] (its own memory of delivered tools). Host headers are checked against
/// loopback names (rmcp's DNS-rebinding guard) and `Origin` against loopback origins and
/// `allowed_origins` (the transport spec requires it); with `token`, requests need `Authorization: Bearer`.
pub async fn serve_http(
    backend: Arc<dyn Backend>,
    proxy: Option<Arc<Proxy>>,
    listener: tokio::net::TcpListener,
    token: Option<String>,
    allowed_origins: Vec<String>,
    shutdown: tokio_util::sync::CancellationToken,
) -> std::io::Result<()> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
    let config = StreamableHttpServerConfig::default().with_cancellation_token(shutdown.child_token());
    let service = StreamableHttpService::new(
        move || Ok(DiscoverServer::fresh(&backend, &proxy)),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service).layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
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
        },
    ));
    axum::serve(listener, app).with_graceful_shutdown(async move { shutdown.cancelled().await }).await
}
