//! The `call_tool` proxy: forwards a call to the real MCP server that declared the tool, starting it on
//! first use (from the host config, where its command and secrets are) and reusing it after. Arguments
//! are validated against the tool's input schema before anything is forwarded.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolResult, JsonObject};
use serde_json::Value;
use toolscout_indexer::{HostConfig, LaunchSpec, Upstream};

/// Env and header values shorter than this are not treated as secrets (`1`, `true`, `info`).
const MIN_SECRET_CHARS: usize = 6;

/// Real servers reachable for `call_tool`.
pub struct Proxy {
    servers: HashMap<String, LaunchSpec>,
    /// Env values and header values of the host config: masked if a result echoes them.
    secrets: Vec<String>,
    upstreams: tokio::sync::Mutex<HashMap<String, Arc<Upstream>>>,
    timeout: Duration,
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy").field("servers", &self.servers.keys().collect::<Vec<_>>()).finish()
    }
}

impl Proxy {
    /// A proxy to the servers of a host config; `timeout` bounds starting a server and each call.
    pub fn new(config: HostConfig, timeout: Duration) -> Proxy {
        let mut secrets: Vec<String> = config
            .servers
            .iter()
            .flat_map(|(_, spec)| match spec {
                LaunchSpec::Stdio { env, .. } => env.values().cloned().collect::<Vec<_>>(),
                LaunchSpec::Http { headers, .. } => headers.values().cloned().collect(),
            })
            .filter(|v| v.chars().count() >= MIN_SECRET_CHARS)
            .collect();
        // Longest first, so a secret that contains another is masked whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Proxy { servers: config.servers.into_iter().collect(), secrets, upstreams: Default::default(), timeout }
    }

    /// Calls `tool` on the server named `server` (its name in the host config).
    pub async fn call(&self, server: &str, tool: &str, arguments: JsonObject) -> Result<CallToolResult, String> {
        self.call_within(server, tool, arguments, self.timeout).await
    }

    /// [`Proxy::call`] with its own time limit for the call; the result has the host config's secrets
    /// masked (`***`) wherever the server echoed them.
    pub async fn call_within(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        timeout: Duration,
    ) -> Result<CallToolResult, String> {
        let upstream = self.upstream(server).await?;
        let result = upstream.call_tool(tool, arguments, timeout).await?;
        Ok(self.masked(result))
    }

    fn masked(&self, result: CallToolResult) -> CallToolResult {
        if self.secrets.is_empty() {
            return result;
        }
        let Ok(mut text) = serde_json::to_string(&result) else { return result };
        let mut changed = false;
        for secret in &self.secrets {
            // Compare in the JSON text: a secret is escaped there as any string would be.
            let escaped = serde_json::to_string(secret).unwrap_or_default();
            let inner = escaped.trim_matches('"');
            if text.contains(inner) {
                text = text.replace(inner, "***");
                changed = true;
            }
        }
        if !changed {
            return result;
        }
        serde_json::from_str(&text).unwrap_or_else(|_| {
            CallToolResult::error(vec![rmcp::model::ContentBlock::text(
                "the result echoed a configured secret and could not be masked safely, so it is withheld",
            )])
        })
    }

    async fn upstream(&self, server: &str) -> Result<Arc<Upstream>, String> {
        let mut upstreams = self.upstreams.lock().await;
        if let Some(u) = upstreams.get(server).filter(|u| u.is_alive()) {
            return Ok(u.clone());
        }
        let spec = self.servers.get(server).ok_or_else(|| {
            format!("server {server:?} is not in the proxy's host config, so its tools cannot be called")
        })?;
        let u = Arc::new(
            Upstream::connect(server, spec, self.timeout).await.map_err(|f| format!("{}: {}", f.stage, f.reason))?,
        );
        upstreams.insert(server.to_string(), u.clone());
        Ok(u)
    }

    /// Stops every server started so far.
    pub async fn shutdown(&self) {
        let drained: Vec<Arc<Upstream>> = self.upstreams.lock().await.drain().map(|(_, u)| u).collect();
        for u in drained {
            if let Ok(u) = Arc::try_unwrap(u) {
                u.close().await;
            }
        }
    }
}

/// Checks `arguments` against a tool's input schema; returns the problems, one per line. A schema that
/// cannot be compiled is not enforced (servers declare odd schemas; the server will judge).
pub fn validate(input_schema: Option<&Value>, arguments: &JsonObject) -> Result<(), String> {
    let Some(schema) = input_schema else { return Ok(()) };
    let Ok(validator) = jsonschema::validator_for(schema) else {
        tracing::warn!("input schema does not compile; arguments forwarded unchecked");
        return Ok(());
    };
    let instance = Value::Object(arguments.clone());
    let problems: Vec<String> =
        validator.iter_errors(&instance).map(|e| format!("- {e} (at {})", e.instance_path())).collect();
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_never_echo_the_host_configs_secrets() {
        let config = HostConfig::parse(
            &json!({"mcpServers": {"a": {"command": "x", "env": {"API_KEY": "sk-live-0123456789", "DEBUG": "1"}}}})
                .to_string(),
        )
        .expect("config");
        let proxy = Proxy::new(config, Duration::from_secs(1));
        let result =
            CallToolResult::success(vec![rmcp::model::ContentBlock::text("key is sk-live-0123456789, debug 1")]);
        let text = serde_json::to_string(&proxy.masked(result)).expect("json");
        assert!(!text.contains("sk-live"), "{text}");
        assert!(text.contains("key is ***, debug 1"), "{text}");
    }

    #[test]
    fn validates_against_the_declared_schema() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]});
        let args = |v: Value| v.as_object().cloned().expect("object");
        assert!(validate(Some(&schema), &args(json!({"a": 1}))).is_ok());
        let err = validate(Some(&schema), &args(json!({"a": "x"}))).expect_err("wrong type");
        assert!(err.contains("/a"), "{err}");
        assert!(validate(Some(&schema), &args(json!({}))).expect_err("missing").contains("required"));
        // gitlab-ref style schemas ({"$schema": …} only) accept anything.
        assert!(
            validate(Some(&json!({"$schema": "http://json-schema.org/draft-07/schema#"})), &args(json!({"x": 1})))
                .is_ok()
        );
        assert!(validate(None, &args(json!({"x": 1}))).is_ok());
    }
}
