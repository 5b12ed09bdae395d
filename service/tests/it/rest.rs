//! The REST API: routes and error shapes through the router, and a few calls over a real socket.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::support::engine;

async fn call(method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.map(|b| Body::from(b.to_string())).unwrap_or_else(Body::empty))
        .expect("request");
    let response = toolscout_service::router(engine()).oneshot(request).await.expect("response");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.expect("body");
    let value = serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("JSON body for {uri}: {bytes:?}"));
    (status, value)
}

fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().expect("error shape {error: {code, message}}")
}

#[tokio::test]
async fn discover_found_and_not_found_shapes() {
    let (status, v) =
        call("POST", "/v1/discover", Some(r#"{"query": "post a message to a slack channel", "limit": 3}"#)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["status"], "found");
    assert_eq!(v["query"], "post a message to a slack channel");
    assert!(v["threshold"].is_number());
    let tools = v["tools"].as_array().expect("tools");
    assert!(!tools.is_empty() && tools.len() <= 3);
    for key in ["server", "server_id", "name", "score", "tool"] {
        assert!(tools[0].get(key).is_some(), "tool hit has {key}");
    }
    assert_eq!(tools[0]["tool"]["name"], tools[0]["name"]);
    assert!(v["servers"][0]["server_id"].is_string());
    assert_eq!(v["closest"], json!([]));

    let (status, v) = call("POST", "/v1/discover", Some(r#"{"query": "zxqv wplm krrt"}"#)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["status"], "not_found");
    assert_eq!(v["tools"], json!([]));
    assert!(!v["closest"].as_array().expect("closest").is_empty());
}

#[tokio::test]
async fn malformed_requests_get_4xx_json_errors() {
    for (body, code) in [
        ("{not json", StatusCode::BAD_REQUEST),
        (r#"{"qeury": "typo"}"#, StatusCode::UNPROCESSABLE_ENTITY),
        (r#"{"query": 5}"#, StatusCode::UNPROCESSABLE_ENTITY),
        (r#"{"query": ""}"#, StatusCode::BAD_REQUEST),
        (r#"{"query": "x", "limit": 0}"#, StatusCode::BAD_REQUEST),
        (r#"{"query": "x", "limit": -1}"#, StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let (status, v) = call("POST", "/v1/discover", Some(body)).await;
        assert_eq!(status, code, "{body}: {v}");
        assert!(!v["error"]["message"].as_str().expect("message").is_empty());
        error_code(&v);
    }
    let huge = format!(r#"{{"query": "{}"}}"#, "a".repeat(100_000));
    let (status, v) = call("POST", "/v1/discover", Some(&huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    let (status, v) = call("GET", "/v1/discover", None).await;
    assert_eq!((status, error_code(&v)), (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"));
    let (status, v) = call("GET", "/v1/nope", None).await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn servers_tools_and_health() {
    let (status, v) = call("GET", "/v1/servers", None).await;
    assert_eq!(status, StatusCode::OK);
    let servers = v["servers"].as_array().expect("servers");
    assert_eq!(servers.len(), 14);
    let github = servers.iter().find(|s| s["server"] == "github").expect("github");
    assert_eq!(github["tool_count"], 26);
    let (status, v) = call("GET", "/v1/servers/github/tools/create_issue", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["tool"]["name"], "create_issue");
    assert!(v["hash"].as_str().expect("hash").starts_with("sha256:"));
    let (status, v) = call("GET", "/v1/servers/github/tools/no_such_tool", None).await;
    assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "not_found"));
    let (status, v) = call("GET", "/healthz", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["status"], "ok");
    assert_eq!(v["tools"], 140);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_a_real_socket() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(toolscout_service::serve(listener, engine(), async {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::new();
    let r = client
        .post(format!("http://{addr}/v1/discover"))
        .json(&json!({"query": "what is the weather elevation of a mountain", "server": "google-maps"}))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.expect("json");
    assert_eq!(v["tools"][0]["server"], "google-maps");
    let r = client.post(format!("http://{addr}/v1/discover")).body("garbage").send().await.expect("send");
    assert!(r.status().is_client_error());
    let v: Value = r.json().await.expect("json error body");
    assert!(v["error"]["code"].is_string());
    let health: Value =
        client.get(format!("http://{addr}/healthz")).send().await.expect("send").json().await.expect("json");
    assert_eq!(health["status"], "ok");
    let _ = stop.send(());
    server.await.expect("join").expect("serve");
}

#[tokio::test]
async fn tail_formats_over_rest_with_loaded_tools() {
    let body = r#"{"query": "post a message to a slack channel", "limit": 3}"#;
    let (status, v) = call("POST", "/v1/discover?format=openai_chat&call_id=abc", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["role"], "tool");
    assert_eq!(v["tool_call_id"], "abc");
    assert!(v["content"].as_str().expect("text").contains("slack_post_message"));
    // The caller says what the conversation already has: it is named, not sent again.
    let body = r#"{"query": "post a message to a slack channel", "limit": 3, "loaded": ["slack/slack_post_message"]}"#;
    let (_, v) = call("POST", "/v1/discover?format=mcp", Some(body)).await;
    let names: Vec<&str> =
        v["structuredContent"]["tools"].as_array().expect("tools").iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(!names.contains(&"slack_post_message"), "{names:?}");
    assert!(v["structuredContent"]["already_loaded"].to_string().contains("slack_post_message"));
    let (status, v) = call("POST", "/v1/discover?format=yaml", Some(body)).await;
    assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "bad_query_string"));
    let (status, _) = call("POST", "/v1/discover", Some(r#"{"query": "x", "loaded": ["no-slash"]}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn bearer_token_and_metrics() {
    let config = toolscout_service::RestConfig { token: Some("t0ken".into()), ..Default::default() };
    let app = toolscout_service::router_with(engine(), config);
    let send = |uri: &str, token: Option<&str>| {
        let mut b = Request::builder().method("GET").uri(uri);
        if let Some(t) = token {
            b = b.header("authorization", format!("Bearer {t}"));
        }
        app.clone().oneshot(b.body(Body::empty()).expect("request"))
    };
    assert_eq!(send("/healthz", None).await.expect("response").status(), StatusCode::OK, "health stays open");
    let r = send("/v1/servers", None).await.expect("response");
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(send("/v1/servers", Some("wrong")).await.expect("response").status(), StatusCode::UNAUTHORIZED);
    assert_eq!(send("/v1/servers", Some("t0ken")).await.expect("response").status(), StatusCode::OK);
    let r = send("/metrics", Some("t0ken")).await.expect("response");
    let text =
        String::from_utf8(axum::body::to_bytes(r.into_body(), 1 << 20).await.expect("body").to_vec()).expect("utf8");
    assert!(text.contains("toolscout_requests_total{route=\"/v1/servers\",status=\"401\"} 2"), "{text}");
    assert!(text.contains("toolscout_index_info{snapshot_id="), "{text}");
}

mod fuzz {
    //! Whatever bytes arrive, the API answers with a 2xx or a 4xx in the JSON error shape — never a 5xx,
    //! never a panic.
    use super::*;
    use proptest::prelude::*;

    fn status_of(body: Vec<u8>, uri: &str) -> (u16, Vec<u8>) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async {
            let request = Request::builder()
                .method("POST")
                .uri(uri)
                .header("content-type", "application/json")
                .body(Body::from(body))
                .expect("request");
            let r = toolscout_service::router(engine()).oneshot(request).await.expect("response");
            let status = r.status().as_u16();
            (status, axum::body::to_bytes(r.into_body(), 1 << 24).await.expect("body").to_vec())
        })
    }

    fn json_body() -> impl Strategy<Value = Vec<u8>> {
        let text = prop_oneof![".{0,40}", "[a-z ]{1,30}", Just(String::new()), "\\PC{0,20}"];
        let limit =
            prop_oneof![Just(serde_json::Value::Null), (-3i64..80).prop_map(serde_json::Value::from), Just(json!("5"))];
        (text.clone(), proptest::option::of(text), limit).prop_map(|(q, server, limit)| {
            let mut v = json!({"query": q, "limit": limit});
            if let Some(s) = server {
                v["server"] = json!(s);
            }
            serde_json::to_vec(&v).expect("json")
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn arbitrary_bytes_never_5xx(body in proptest::collection::vec(any::<u8>(), 0..200)) {
            let (status, bytes) = status_of(body, "/v1/discover");
            prop_assert!(status < 500, "{status}");
            if status >= 400 {
                let v: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON error body");
                prop_assert!(v["error"]["code"].is_string());
            }
        }

        #[test]
        fn arbitrary_requests_never_5xx(body in json_body(), format in prop_oneof![Just(""), Just("?format=mcp"), Just("?format=anthropic&call_id=x"), Just("?format=bogus")]) {
            let (status, _) = status_of(body, &format!("/v1/discover{format}"));
            prop_assert!(status < 500, "{status}");
        }
    }
}
