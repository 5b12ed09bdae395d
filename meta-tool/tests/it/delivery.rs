//! Cache-stable delivery: discovered schemas go to the conversation tail, so the request bytes before
//! the tail never change across turns; the same tool always renders to the same bytes; nothing is sent
//! twice; every framework format carries the same verbatim definitions.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};
use toolscout_meta_tool::openai_functions;
use toolscout_service::{DeliveredTools, DiscoverParams, Engine, EngineConfig, Format, to_format};
use toolscout_test_support::{embedder, index_of, reference_catalog};

/// An engine over the whole reference catalog, built once per test binary.
fn engine() -> Arc<Engine> {
    static ENGINE: OnceLock<Arc<Engine>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("delivery-reference-index");
            index_of(&reference_catalog(), &dir, embedder().as_ref());
            Arc::new(Engine::with_embedder(&dir, embedder(), EngineConfig::default()).expect("engine"))
        })
        .clone()
}

fn discover(need: &str, session: &mut DeliveredTools, format: Format, call_id: &str) -> Value {
    let answer = engine().search(&DiscoverParams::new(need)).expect("search");
    to_format(&answer, session, format, call_id).expect("tail format")
}

/// The fixed prefix an agent sends on every turn: discover_tools and call_tool, nothing else.
fn tools() -> Value {
    Value::Array(openai_functions(true))
}

fn request(messages: &[Value]) -> String {
    serde_json::to_string(&json!({"model": "local", "tools": tools(), "messages": messages})).expect("json")
}

#[test]
fn request_bytes_before_the_tail_never_change() {
    let mut session = DeliveredTools::default();
    let mut messages = vec![
        json!({"role": "system", "content": "You are a helpful agent. Use discover_tools when you lack a tool."}),
        json!({"role": "user", "content": "Post the deploy notes to Slack, file an issue about the flaky test, and take a screenshot of the dashboard."}),
    ];
    let needs = [
        "post a message to a slack channel",
        "create an issue in a github repository",
        "take a screenshot of a web page",
        "post a message to a slack channel",
    ];
    let mut previous = request(&messages);
    let mut delivered_texts: Vec<String> = Vec::new();
    for (turn, need) in needs.iter().enumerate() {
        let call_id = format!("call_{turn}");
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [{"id": call_id, "type": "function",
            "function": {"name": "discover_tools", "arguments": json!({"need": need}).to_string()}}]}));
        let tail = discover(need, &mut session, Format::OpenaiChat, &call_id);
        let text = tail["content"].as_str().expect("text").to_string();
        assert!(text.lines().last().expect("status line").starts_with("Loaded tools: "), "{text}");
        messages.push(tail);
        let now = request(&messages);
        // Everything sent before is a byte-identical prefix of what is sent now (minus the closing `]}`).
        let cut = previous.len() - 2;
        assert_eq!(&now[..cut], &previous[..cut], "turn {turn} changed earlier bytes");
        previous = now;
        delivered_texts.push(text);
    }
    // The repeated need delivers nothing new: it names the tools instead of sending them again.
    let last = delivered_texts.last().expect("turns");
    assert!(last.contains("already loaded"), "{last}");
    assert!(!last.contains("\"inputSchema\""), "no schema is sent twice: {last}");
}

#[test]
fn the_same_tool_renders_to_the_same_bytes() {
    let a = discover("post a message to a slack channel", &mut DeliveredTools::default(), Format::Mcp, "x");
    let b = discover("post a message to a slack channel", &mut DeliveredTools::default(), Format::Mcp, "x");
    assert_eq!(serde_json::to_string(&a).expect("json"), serde_json::to_string(&b).expect("json"));
    let text = a["content"][0]["text"].as_str().expect("text");
    // The tool's definition appears as its stored bytes: the server's own key order, no scores.
    let stored = engine().tool("slack", "slack_post_message").expect("tool");
    assert!(text.contains(stored.tool.get()), "{text}");
    assert!(!text.contains("score"));
}

#[test]
fn every_framework_format_carries_the_definitions() {
    let need = "get directions between two places";
    let chat = discover(need, &mut DeliveredTools::default(), Format::OpenaiChat, "c1");
    assert_eq!((chat["role"].as_str(), chat["tool_call_id"].as_str()), (Some("tool"), Some("c1")));
    let anthropic = discover(need, &mut DeliveredTools::default(), Format::Anthropic, "t1");
    assert_eq!(anthropic["type"], "tool_result");
    assert_eq!(anthropic["tool_use_id"], "t1");
    assert_eq!(anthropic["content"][0]["text"], chat["content"]);
    let mcp = discover(need, &mut DeliveredTools::default(), Format::Mcp, "m1");
    assert_eq!(mcp["content"][0]["text"], chat["content"]);
    assert_eq!(mcp["structuredContent"]["status"], "found");
    let responses = discover(need, &mut DeliveredTools::default(), Format::OpenaiResponses, "r1");
    assert_eq!(responses["type"], "tool_search_output");
    let functions = responses["tools"].as_array().expect("tools");
    assert!(!functions.is_empty());
    let f = &functions[0];
    assert_eq!(f["type"], "function");
    let stored = engine()
        .tool(
            mcp["structuredContent"]["tools"][0]["server_id"].as_str().expect("id"),
            f["name"].as_str().expect("name"),
        )
        .expect("tool");
    let declared: Value = serde_json::from_str(stored.tool.get()).expect("json");
    assert_eq!(f["parameters"], declared["inputSchema"], "parameters are the declared input schema");
    assert_eq!(f["description"], declared["description"]);
}
