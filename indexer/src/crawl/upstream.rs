//! A long-lived client session with one real MCP server, for forwarding tool calls (the meta-tool's
//! `call_tool` proxy). Same transports as the crawl: a stdio child in its own process group (stdout
//! filtered), or Streamable HTTP. The process group is ended on [`Upstream::close`] (and killed if the
//! value is dropped).

use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig, JsonObject};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};

use super::http::transport as http_transport;
use super::session::client_config;
use super::stdio::StdioChild;
use super::{ServerFailure, failure};
use crate::host_config::LaunchSpec;

/// A connected MCP server.
pub struct Upstream {
    name: String,
    client: RunningService<RoleClient, ClientConfig>,
    child: Option<StdioChild>,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream").field("name", &self.name).finish()
    }
}

impl Upstream {
    /// Starts (stdio) or connects to (HTTP) the server and initializes, within `timeout`.
    pub async fn connect(name: &str, spec: &LaunchSpec, timeout: Duration) -> Result<Upstream, ServerFailure> {
        match spec {
            LaunchSpec::Stdio { .. } => {
                let (child, transport) = StdioChild::spawn(name, spec)?;
                match tokio::time::timeout(timeout, client_config().serve(transport)).await {
                    Ok(Ok(client)) => Ok(Upstream { name: name.to_string(), client, child: Some(child) }),
                    Ok(Err(e)) => {
                        let why = child.stop().await;
                        Err(failure(name, "initialize", format!("{e}{why}")))
                    }
                    Err(_) => {
                        child.stop().await;
                        Err(failure(name, "timeout", format!("no answer to initialize within {} s", timeout.as_secs())))
                    }
                }
            }
            LaunchSpec::Http { .. } => {
                let transport = http_transport(name, spec)?;
                match tokio::time::timeout(timeout, client_config().serve(transport)).await {
                    Ok(Ok(client)) => Ok(Upstream { name: name.to_string(), client, child: None }),
                    Ok(Err(e)) => Err(failure(name, "initialize", e)),
                    Err(_) => {
                        Err(failure(name, "timeout", format!("no answer to initialize within {} s", timeout.as_secs())))
                    }
                }
            }
        }
    }

    /// Calls `tool` with `arguments` and returns the server's result as it sent it.
    pub async fn call_tool(
        &self,
        tool: &str,
        arguments: JsonObject,
        timeout: Duration,
    ) -> Result<CallToolResult, String> {
        let request = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        match tokio::time::timeout(timeout, self.client.call_tool(request)).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(e)) => Err(format!("server {}: {e}", self.name)),
            Err(_) => Err(format!("server {} did not answer within {} s", self.name, timeout.as_secs())),
        }
    }

    /// Whether the session is still open.
    pub fn is_alive(&self) -> bool {
        !self.client.is_transport_closed()
    }

    /// Ends the session and the server's process group.
    pub async fn close(self) {
        let _ = self.client.cancel().await;
        if let Some(child) = self.child {
            child.stop().await;
        }
    }
}
