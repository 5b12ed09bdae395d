//! Golden answers: the JSON an agent or framework receives — found, not_found, every tail format, every
//! error — pinned as insta snapshots (scores redacted where they may drift). Model-free: the engine runs
//! with the deterministic hash embedder and an explicit calibration, so these run in milliseconds and a
//! change to a wire shape shows up as a snapshot diff.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;
use toolscout_service::{DiscoverParams, Engine, EngineConfig};
use toolscout_test_support::{hash_embedder, hashed_index, reference_catalog};
use tower::ServiceExt;

fn engine() -> Arc<Engine> {
    static ENGINE: OnceLock<Arc<Engine>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden-hashed-index");
            let config = EngineConfig::default();
            hashed_index(&reference_catalog(), &dir, &config.fingerprint());
            Arc::new(Engine::with_embedder(&dir, hash_embedder(), config).expect("engine"))
        })
        .clone()
}

async fn call(method: &str, uri: &str, content_type: &str, body: &str) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", content_type)
        .body(Body::from(body.to_string()))
        .expect("request");
    let response = toolscout_service::router(engine()).oneshot(request).await.expect("response");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.expect("body");
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// Scores and cut values come from floating-point arithmetic: pinned as present, not as digits.
macro_rules! assert_answer {
    ($name:expr, $value:expr) => {
        insta::assert_json_snapshot!($name, $value, {
            ".threshold" => "[cut]",
            ".**.score" => "[score]",
            ".**.confidence" => "[confidence]",
        })
    };
}

#[tokio::test]
async fn found_answer() {
    let (status, v) =
        call("POST", "/v1/discover", "application/json", r#"{"query": "slack post message channel", "limit": 2}"#)
            .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["status"], "found");
    assert_answer!("found", v);
}

#[tokio::test]
async fn not_found_answer() {
    let (status, v) = call("POST", "/v1/discover", "application/json", r#"{"query": "zxqv wplm krrt"}"#).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["status"], "not_found");
    assert_answer!("not_found", v);
}

#[tokio::test]
async fn tail_formats() {
    for format in ["mcp", "openai_chat", "openai_responses", "anthropic"] {
        let uri = format!("/v1/discover?format={format}&call_id=call_1");
        let (status, v) =
            call("POST", &uri, "application/json", r#"{"query": "slack post message channel", "limit": 1}"#).await;
        assert_eq!(status, StatusCode::OK, "{format}");
        assert_answer!(format!("tail_{format}"), v);
    }
}

#[tokio::test]
async fn errors() {
    let cases = [
        ("bad_json", "POST", "/v1/discover", "application/json", "{not json"),
        ("unknown_field", "POST", "/v1/discover", "application/json", r#"{"qeury": "typo"}"#),
        ("empty_query", "POST", "/v1/discover", "application/json", r#"{"query": " "}"#),
        ("limit_out_of_range", "POST", "/v1/discover", "application/json", r#"{"query": "x", "limit": 0}"#),
        ("unknown_format", "POST", "/v1/discover?format=xml", "application/json", r#"{"query": "x"}"#),
        ("not_json_content", "POST", "/v1/discover", "text/plain", r#"{"query": "x"}"#),
        ("unknown_route", "GET", "/v2/nothing", "application/json", ""),
        ("method_not_allowed", "GET", "/v1/discover", "application/json", ""),
        ("unknown_tool", "GET", "/v1/servers/slack/tools/nope", "application/json", ""),
    ];
    for (name, method, uri, content_type, body) in cases {
        let (status, v) = call(method, uri, content_type, body).await;
        assert!(status.is_client_error(), "{name}: {status}");
        assert!(v["error"]["code"].is_string(), "{name}: {v}");
        insta::assert_json_snapshot!(
            format!("error_{name}"),
            serde_json::json!({"status": status.as_u16(), "body": v})
        );
    }
}

#[test]
fn ranking_is_reproducible_without_a_model() {
    let engine = engine();
    let ask = |q: &str| engine.search(&DiscoverParams::new(q)).expect("search");
    let a = ask("list directory files");
    let b = ask("list directory files");
    assert_eq!(serde_json::to_string(&a).expect("json"), serde_json::to_string(&b).expect("json"));
    assert_eq!(a.tools.first().map(|t| t.server.as_str()), Some("filesystem"), "{a:?}");
    // Names still win: a tool named in the request comes first whatever the model.
    let named = ask("use slack_add_reaction please");
    assert_eq!(named.tools[0].name, "slack_add_reaction");
    assert_eq!(engine.health().threshold_source, toolscout_service::DecisionSource::Calibration);
}
