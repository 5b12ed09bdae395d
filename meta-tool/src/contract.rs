//! The `discover_tools` (and `call_tool`) contract: descriptions, argument types and their JSON Schemas.
//! This is the one definition; the server, the REST delivery formats' callers, the A/B harness and the
//! exported schema all derive from it.

use rmcp::model::JsonObject;
use serde::Deserialize;
use serde_json::{Value, json};

/// Tools one `discover_tools` call returns when it asks for no `limit`.
pub const DEFAULT_LIMIT: u32 = 5;
/// Most tools one `discover_tools` call may ask for.
pub const MAX_LIMIT: u32 = 10;

/// The description of `discover_tools` (kept short: it is part of every prompt prefix).
pub const DISCOVER_DESCRIPTION: &str = "Find tools you do not have yet. Describe ONE capability you need \
in plain words (for example \"post a message to a Slack channel\" or \"get tomorrow's weather for a city\"). \
You get back the full definitions of the few best-matching tools from the connected MCP servers, or an explicit \
not_found with the closest servers so you can rephrase. Use it whenever none of your current tools can do the \
next step; call it once per capability. It only finds tools, it does not run them, and tools already delivered \
in this conversation are not sent again. Example: {\"need\": \"create an issue in a GitHub repository\", \
\"server\": \"github\"}";

/// The description of the generic `call_tool` tool (for runtimes that can only call tools listed in
/// their fixed `tools` array).
pub const CALL_TOOL_DESCRIPTION: &str = "Call a tool that discover_tools delivered earlier in this conversation. \
Pass the tool's server (its server_id) and name exactly as delivered, and arguments that follow its input \
schema. Tools that were not delivered in this conversation are refused.";

/// Arguments of `discover_tools`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiscoverArgs {
    /// The one capability you need, in plain words, e.g. "send an email with an attachment".
    pub need: String,
    /// Optional server name to prefer, e.g. "github".
    #[serde(default)]
    pub server: Option<String>,
    /// Optional number of tools to return (1-10, default 5).
    #[serde(default = "default_limit")]
    #[schemars(schema_with = "limit_schema")]
    pub limit: u32,
}

fn default_limit() -> u32 {
    DEFAULT_LIMIT
}

/// `limit` as clients should see it: an integer with its real bounds and default.
fn limit_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let schema = json!({
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_LIMIT,
        "default": DEFAULT_LIMIT,
        "description": "Optional number of tools to return (1-10, default 5).",
    });
    schemars::Schema::try_from(schema).expect("a JSON object is a schema")
}

/// Arguments of `call_tool`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CallToolArgs {
    /// server_id of the tool, as delivered by discover_tools.
    pub server: String,
    /// The tool's name, as delivered.
    pub tool: String,
    /// Arguments following the tool's input schema.
    #[serde(default)]
    pub arguments: JsonObject,
}

/// The input schema `discover_tools` declares (exactly what MCP clients see in `tools/list`), for
/// runtimes that put the meta-tool into their own `tools` array.
pub fn discover_schema() -> Value {
    Value::Object((*rmcp::handler::server::common::schema_for_type::<DiscoverArgs>()).clone())
}

/// The input schema `call_tool` declares.
pub fn call_tool_schema() -> Value {
    Value::Object((*rmcp::handler::server::common::schema_for_type::<CallToolArgs>()).clone())
}

/// Both tools as OpenAI function definitions (`{"type": "function", "function": {...}}`), for runtimes
/// that call the meta-tool through their own tool array.
pub fn openai_functions(with_call_tool: bool) -> Vec<Value> {
    let mut out = vec![json!({"type": "function", "function": {
        "name": "discover_tools", "description": DISCOVER_DESCRIPTION, "parameters": discover_schema()}})];
    if with_call_tool {
        out.push(json!({"type": "function", "function": {
            "name": "call_tool", "description": CALL_TOOL_DESCRIPTION, "parameters": call_tool_schema()}}));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_declares_its_real_bounds() {
        let schema = discover_schema();
        let limit = &schema["properties"]["limit"];
        assert_eq!(limit["type"], "integer");
        assert_eq!((limit["minimum"].as_u64(), limit["maximum"].as_u64()), (Some(1), Some(u64::from(MAX_LIMIT))));
        assert_eq!(schema["required"], json!(["need"]));
        let args: DiscoverArgs = serde_json::from_value(json!({"need": "x"})).expect("defaults");
        assert_eq!(args.limit, DEFAULT_LIMIT);
        assert_eq!(call_tool_schema()["required"], json!(["server", "tool"]));
    }
}
