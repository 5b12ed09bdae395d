//! What the model reads from a discovery: the text and structured content of a result,
//! and the same result shaped for each framework ([`Format`]).
//!
//! Everything here is appended at the conversation tail, never into the system/tools prefix. Rendering
//! is byte-stable: a tool's definition is its stored JSON text, unchanged (the server's own key order;
//! no scores or timestamps inside it), so the same tool renders to the same bytes every time. Tools
//! delivered earlier in the session are named, not repeated, and every result ends with one status line
//! listing the loaded tools. Pure code, no I/O.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::delivered::DeliveredTools;
use crate::params::{DiscoverResponse, Status, ToolHit};

/// How a discovery result is shaped for the caller's framework.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The toolscout REST response itself.
    #[default]
    Json,
    /// An MCP `CallToolResult` (`content` text + `structuredContent`).
    Mcp,
    /// An OpenAI Chat Completions tool message (`role: tool`).
    OpenaiChat,
    /// An OpenAI Responses `tool_search_output` item, with the tools as function definitions.
    OpenaiResponses,
    /// An Anthropic Messages `tool_result` content block.
    Anthropic,
}

/// Shapes one result for `format`; `call_id` is the id of the tool call it answers. Marks delivered
/// tools in `session`. [`Format::Json`] is not a tail format and yields `None`.
pub fn to_format(
    answer: &DiscoverResponse,
    session: &mut DeliveredTools,
    format: Format,
    call_id: &str,
) -> Option<Value> {
    let fresh: Vec<ToolHit> = answer.tools.iter().filter(|h| !session.has(&h.server_id, &h.name)).cloned().collect();
    let (text, structured) = render(answer, session);
    Some(match format {
        Format::Json => return None,
        Format::Mcp => {
            json!({"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": false})
        }
        Format::OpenaiChat => json!({"role": "tool", "tool_call_id": call_id, "content": text}),
        Format::Anthropic => {
            json!({"type": "tool_result", "tool_use_id": call_id, "content": [{"type": "text", "text": text}]})
        }
        // The Responses API's reply to a client-executed `tool_search_call`: the item has no text field,
        // so it carries the new definitions only (none when not found).
        Format::OpenaiResponses => {
            let tools: Vec<Value> = fresh.iter().map(function_definition).collect();
            json!({"type": "tool_search_output", "call_id": call_id, "execution": "client", "status": "completed", "tools": tools})
        }
    })
}

/// An OpenAI function definition for a delivered tool: name, description and input schema, verbatim;
/// `strict: false`, since a server's schema is not written for strict mode (and is never rewritten to be).
fn function_definition(hit: &ToolHit) -> Value {
    let tool: Value = serde_json::from_str(hit.tool.get()).unwrap_or(Value::Null);
    let mut f = serde_json::Map::new();
    f.insert("type".into(), json!("function"));
    f.insert("name".into(), json!(hit.name));
    f.insert("strict".into(), json!(false));
    if let Some(d) = tool.get("description") {
        f.insert("description".into(), d.clone());
    }
    f.insert("parameters".into(), tool.get("inputSchema").cloned().unwrap_or_else(|| json!({"type": "object"})));
    Value::Object(f)
}

/// The text and structured content of one `discover_tools` result. Marks delivered tools in `session`.
pub fn render(answer: &DiscoverResponse, session: &mut DeliveredTools) -> (String, Value) {
    match answer.status {
        Status::Found => render_found(answer, session),
        Status::NotFound => render_not_found(answer),
    }
}

fn render_found(answer: &DiscoverResponse, session: &mut DeliveredTools) -> (String, Value) {
    let mut fresh: Vec<&ToolHit> = Vec::new();
    let mut already: Vec<&ToolHit> = Vec::new();
    for hit in &answer.tools {
        if session.deliver(&hit.server_id, &hit.name) {
            fresh.push(hit);
        } else {
            already.push(hit);
        }
    }
    let mut text = String::new();
    if fresh.is_empty() {
        text.push_str(&format!(
            "All tools matching \"{}\" are already loaded (see earlier results).\n",
            answer.query.trim()
        ));
    } else {
        text.push_str(&format!(
            "Found {} tool{} for \"{}\". Definitions follow, one JSON object per line: `tool` verbatim from its server, `risk` what calling it can do:\n",
            fresh.len(),
            if fresh.len() == 1 { "" } else { "s" },
            answer.query.trim()
        ));
        for hit in &fresh {
            let mut record =
                json!({"server": hit.server, "server_id": hit.server_id, "name": hit.name, "risk": hit.risk});
            if !hit.alternates.is_empty() {
                let ids: Vec<&str> = hit.alternates.iter().map(|a| a.server_id.as_str()).collect();
                record["also_served_by"] = json!(ids);
            }
            record["tool"] = serde_json::to_value(&hit.tool).unwrap_or(Value::Null);
            text.push_str(&record.to_string());
            text.push('\n');
        }
    }
    if !already.is_empty() {
        text.push_str(&format!("Already loaded, not repeated: {}\n", names(&already)));
    }
    text.push_str(&format!("Loaded tools: {}", loaded(session)));
    let structured = json!({
        "status": "found",
        "query": answer.query,
        "tools": fresh.iter().map(|h| json!({"server": h.server, "server_id": h.server_id, "name": h.name, "risk": h.risk, "tool": h.tool})).collect::<Vec<_>>(),
        "already_loaded": already.iter().map(|h| json!({"server": h.server, "server_id": h.server_id, "name": h.name})).collect::<Vec<_>>(),
    });
    (text, structured)
}

fn render_not_found(answer: &DiscoverResponse) -> (String, Value) {
    // Ids, not names: two servers may share a name, and the id is what a caller passes back.
    let servers: Vec<&str> = answer.servers.iter().take(3).map(|s| s.server_id.as_str()).collect();
    let closest: Vec<String> = answer.closest.iter().map(|h| format!("{}/{}", h.server_id, h.name)).collect();
    let mut text = format!("not_found: no tool matches \"{}\" closely enough.", answer.query.trim());
    if let Some(reason) = &answer.reason {
        text.push_str(&format!(" {}.", capitalized(reason)));
    }
    text.push_str(&format!(
        " Closest servers: {}. Closest tools: {}.",
        if servers.is_empty() { "none".to_string() } else { servers.join(", ") },
        if closest.is_empty() { "none".to_string() } else { closest.join(", ") },
    ));
    // The cut may be wrong about a tool the caller can judge from its name: asking for it by name loads it
    // (exact names are always found).
    if !closest.is_empty() {
        text.push_str(" If one of the closest tools does what you need, ask for it by that exact name to load it.");
    }
    text.push_str(" Otherwise rephrase the need more concretely (what action, on what), or pass a `server` hint.");
    let structured = json!({
        "status": "not_found",
        "query": answer.query,
        "threshold": answer.threshold,
        "reason": answer.reason,
        "closest_servers": answer.servers.iter().take(3).map(|s| json!({"server": s.server, "server_id": s.server_id, "score": s.score})).collect::<Vec<_>>(),
        "closest_tools": answer.closest.iter().map(|h| json!({"server": h.server, "server_id": h.server_id, "name": h.name, "score": h.score, "risk": h.risk.class})).collect::<Vec<_>>(),
    });
    (text, structured)
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn names(hits: &[&ToolHit]) -> String {
    hits.iter().map(|h| format!("{}/{}", h.server_id, h.name)).collect::<Vec<_>>().join(", ")
}

fn loaded(session: &DeliveredTools) -> String {
    let all: Vec<String> = session.delivered().iter().map(|(s, t)| format!("{s}/{t}")).collect();
    if all.is_empty() { "none".into() } else { all.join(", ") }
}
