//! The rmcp server: one tool, `discover_tools(need, server?, limit?)`.
//!
//! A need the engine cannot use (empty, too long) is a tool error the model sees and can fix; arguments of
//! the wrong type are protocol errors (rmcp rejects them before we run).

use std::sync::{Arc, Mutex};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use toolscout_service::{DiscoverParams, Error};

use crate::backend::Backend;
use crate::render::{DISCOVER_DESCRIPTION, render};
use crate::session::Session;

/// Most tools one call may ask for.
const MAX_LIMIT: u32 = 10;

/// Arguments of `discover_tools`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DiscoverArgs {
    /// The one capability you need, in plain words, e.g. "send an email with an attachment".
    pub need: String,
    /// Optional server name to prefer, e.g. "github".
    #[serde(default)]
    pub server: Option<String>,
    /// Optional number of tools to return (1-10, default 5).
    #[serde(default)]
    pub limit: Option<u32>,
}

/// One MCP session of the meta-tool: a backend and what this session has been given.
#[derive(Clone)]
pub struct DiscoverServer {
    backend: Arc<dyn Backend>,
    session: Arc<Mutex<Session>>,
}

impl DiscoverServer {
    /// A fresh session over `backend`.
    pub fn new(backend: Arc<dyn Backend>) -> Self {
        DiscoverServer { backend, session: Arc::default() }
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
        let limit = args.limit.unwrap_or(5);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Ok(tool_error(format!("`limit` must be between 1 and {MAX_LIMIT}, got {limit}")));
        }
        let params = DiscoverParams { query: args.need, server: args.server, limit: Some(limit as usize) };
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
}

#[tool_handler(
    name = "toolscout",
    instructions = "toolscout finds tools on demand. When you lack a tool for the next step, call discover_tools with the capability you need; the matching tool definitions come back in the result."
)]
impl ServerHandler for DiscoverServer {}

fn tool_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// Serves MCP over stdin/stdout until the client goes away. Logs must go to stderr.
pub async fn serve_stdio(backend: Arc<dyn Backend>) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let service = DiscoverServer::new(backend).serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}

/// Serves MCP over Streamable HTTP at `/mcp` on `listener` until `shutdown` resolves. Each MCP session
/// gets its own [`DiscoverServer`] (its own memory of delivered tools). Host headers are checked against
/// loopback names (rmcp's DNS-rebinding guard).
pub async fn serve_http(
    backend: Arc<dyn Backend>,
    listener: tokio::net::TcpListener,
    shutdown: tokio_util::sync::CancellationToken,
) -> std::io::Result<()> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
    let config = StreamableHttpServerConfig::default().with_cancellation_token(shutdown.child_token());
    let service = StreamableHttpService::new(
        move || Ok(DiscoverServer::new(backend.clone())),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    axum::serve(listener, app).with_graceful_shutdown(async move { shutdown.cancelled().await }).await
}
