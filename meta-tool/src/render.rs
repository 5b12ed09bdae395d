//! What the model reads: the `discover_tools` description and the text and structured content of its
//! results. Tool definitions are embedded verbatim (the stored JSON text, unchanged).

use serde_json::{Value, json};
use toolscout_service::{DiscoverResponse, Status, ToolHit};

use crate::session::Session;

/// The description of `discover_tools` (kept short: it is part of every prompt prefix).
pub const DISCOVER_DESCRIPTION: &str = "Find tools you do not have yet. Describe ONE capability you need \
in plain words (for example \"post a message to a Slack channel\" or \"get tomorrow's weather for a city\"). \
You get back the full definitions of the few best-matching tools from the connected MCP servers, or an explicit \
not_found with the closest servers so you can rephrase. Use it whenever none of your current tools can do the \
next step; call it once per capability. It only finds tools, it does not run them, and tools already delivered \
in this conversation are not sent again. Example: {\"need\": \"create an issue in a GitHub repository\", \
\"server\": \"github\"}";

/// The text and structured content of one `discover_tools` result. Marks delivered tools in `session`.
pub fn render(answer: &DiscoverResponse, session: &mut Session) -> (String, Value) {
    match answer.status {
        Status::Found => render_found(answer, session),
        Status::NotFound => render_not_found(answer),
    }
}

fn render_found(answer: &DiscoverResponse, session: &mut Session) -> (String, Value) {
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
            "Found {} tool{} for \"{}\". Definitions follow, one JSON object per line, verbatim from their servers:\n",
            fresh.len(),
            if fresh.len() == 1 { "" } else { "s" },
            answer.query.trim()
        ));
        for hit in &fresh {
            let record = json!({"server": hit.server, "server_id": hit.server_id, "name": hit.name, "tool": hit.tool});
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
        "tools": fresh.iter().map(|h| json!({"server": h.server, "server_id": h.server_id, "name": h.name, "score": h.score, "tool": h.tool})).collect::<Vec<_>>(),
        "already_loaded": already.iter().map(|h| json!({"server": h.server, "server_id": h.server_id, "name": h.name})).collect::<Vec<_>>(),
    });
    (text, structured)
}

fn render_not_found(answer: &DiscoverResponse) -> (String, Value) {
    let servers: Vec<&str> = answer.servers.iter().take(3).map(|s| s.server.as_str()).collect();
    let closest: Vec<String> = answer.closest.iter().map(|h| format!("{}/{}", h.server, h.name)).collect();
    let text = format!(
        "not_found: no tool matches \"{}\" closely enough. Closest servers: {}. Closest tools: {}. \
         Rephrase the need more concretely (what action, on what), or pass a `server` hint.",
        answer.query.trim(),
        if servers.is_empty() { "none".to_string() } else { servers.join(", ") },
        if closest.is_empty() { "none".to_string() } else { closest.join(", ") },
    );
    let structured = json!({
        "status": "not_found",
        "query": answer.query,
        "threshold": answer.threshold,
        "closest_servers": answer.servers.iter().take(3).map(|s| json!({"server": s.server, "server_id": s.server_id, "score": s.score})).collect::<Vec<_>>(),
        "closest_tools": answer.closest.iter().map(|h| json!({"server": h.server, "server_id": h.server_id, "name": h.name, "score": h.score})).collect::<Vec<_>>(),
    });
    (text, structured)
}

fn names(hits: &[&ToolHit]) -> String {
    hits.iter().map(|h| format!("{}/{}", h.server, h.name)).collect::<Vec<_>>().join(", ")
}

fn loaded(session: &Session) -> String {
    let all: Vec<String> = session.delivered().iter().map(|(s, t)| format!("{s}/{t}")).collect();
    if all.is_empty() { "none".into() } else { all.join(", ") }
}
