//! What a hostile local client or a web page the user opens cannot do: change what is served without a
//! token, drive the API from a foreign origin, or post admin requests as `text/plain` (no preflight).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;
use toolscout_service::{RestConfig, router_with};
use tower::ServiceExt;

use crate::support::engine;

async fn send(config: RestConfig, request: Request<Body>) -> (StatusCode, Value, Option<String>) {
    let response = router_with(engine(), config).oneshot(request).await.expect("response");
    let status = response.status();
    let retry = response.headers().get("retry-after").map(|v| v.to_str().unwrap_or_default().to_string());
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.expect("body");
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), retry)
}

fn post(uri: &str, content_type: &str, origin: Option<&str>, token: Option<&str>) -> Request<Body> {
    let mut b = Request::builder().method("POST").uri(uri).header("content-type", content_type);
    if let Some(o) = origin {
        b = b.header("origin", o);
    }
    if let Some(t) = token {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    b.body(Body::from("{}")).expect("request")
}

#[tokio::test]
async fn admin_routes_refuse_without_a_token() {
    let (status, v, _) = send(RestConfig::default(), post("/v1/admin/reload", "application/json", None, None)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["error"]["code"], "admin_disabled");
    let get = Request::builder().uri("/v1/admin/pins").body(Body::empty()).expect("request");
    assert_eq!(send(RestConfig::default(), get).await.0, StatusCode::FORBIDDEN);
    // With a token configured, the token opens them; the same request without it is refused.
    let with_token = || RestConfig { token: Some("t0ken".into()), ..RestConfig::default() };
    let (status, v, _) = send(with_token(), post("/v1/admin/reload", "application/json", None, Some("t0ken"))).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, _, _) = send(with_token(), post("/v1/admin/reload", "application/json", None, Some("wrong"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_web_page_cannot_drive_the_api() {
    let open = || RestConfig { admin_without_token: true, ..RestConfig::default() };
    // The reproduction from the issue: text/plain with a foreign Origin, once answered 200.
    let (status, v, _) = send(open(), post("/v1/admin/reload", "text/plain", Some("https://evil.example"), None)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["error"]["code"], "forbidden_origin");
    // Same origin policy for searches: a foreign page cannot read answers either.
    let (status, _, _) = send(
        open(),
        Request::builder()
            .method("POST")
            .uri("/v1/discover")
            .header("content-type", "application/json")
            .header("origin", "http://attacker.test")
            .body(Body::from(r#"{"query": "read a file"}"#))
            .expect("request"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Without an Origin (curl, SDKs) but as text/plain: refused, so no simple cross-site request works.
    let (status, _, _) = send(open(), post("/v1/admin/reload", "text/plain", None, None)).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // A loopback origin and an explicitly allowed one are fine.
    let (status, v, _) =
        send(open(), post("/v1/admin/reload", "application/json", Some("http://localhost:5173"), None)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let listed = RestConfig { allowed_origins: vec!["https://app.example".into()], ..open() };
    let (status, _, _) =
        send(listed, post("/v1/admin/reload", "application/json", Some("https://app.example"), None)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn busy_answers_say_when_to_retry() {
    // No search slot at all and no time to wait for one: every search is "busy".
    let config =
        RestConfig { max_concurrent_searches: 1, queue_timeout: std::time::Duration::ZERO, ..RestConfig::default() };
    let app = router_with(engine(), config);
    let request = || {
        Request::builder()
            .method("POST")
            .uri("/v1/discover")
            .header("content-type", "application/json")
            .body(Body::from(r#"{"query": "list files in a directory"}"#))
            .expect("request")
    };
    let (a, b) = tokio::join!(app.clone().oneshot(request()), app.clone().oneshot(request()));
    let statuses = [a.expect("a"), b.expect("b")];
    let busy: Vec<_> = statuses.iter().filter(|r| r.status() == StatusCode::SERVICE_UNAVAILABLE).collect();
    assert_eq!(busy.len(), 1, "the second request found the only slot taken");
    for r in &busy {
        assert_eq!(r.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
    }
    assert!(statuses.iter().any(|r| r.status() == StatusCode::OK), "one of them got the slot");
}
