//! The OpenAPI document: generated from the handlers' own types, served at `GET /openapi.json`, kept equal
//! to the committed `openapi.json` (regenerate with `TOOLSCOUT_WRITE_OPENAPI=1 cargo test -p
//! toolscout-service --test it openapi`), and valid by a third-party validator (PyPI
//! `openapi-spec-validator`).

use std::process::Command;

use serde_json::Value;

use crate::support::{engine, root};

#[test]
fn the_committed_document_is_the_generated_one() {
    let generated = toolscout_service::openapi_json();
    let path = root().join("openapi.json");
    if std::env::var_os("TOOLSCOUT_WRITE_OPENAPI").is_some() {
        std::fs::write(&path, format!("{generated}\n")).expect("write openapi.json");
    }
    let committed = std::fs::read_to_string(&path).expect("openapi.json at the repository root");
    assert_eq!(
        committed.trim_end(),
        generated,
        "openapi.json is stale: regenerate it with TOOLSCOUT_WRITE_OPENAPI=1 cargo test -p toolscout-service --test it openapi"
    );
    let doc: Value = serde_json::from_str(&generated).expect("json");
    assert!(doc["openapi"].as_str().expect("version").starts_with("3.1"), "{}", doc["openapi"]);
    for path in ["/v1/discover", "/v1/servers", "/v1/servers/{server_id}/tools/{name}", "/healthz", "/openapi.json"] {
        assert!(doc["paths"][path].is_object(), "{path} is not documented");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn it_is_served_and_valid_for_a_third_party_validator() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let server = tokio::spawn(toolscout_service::serve(listener, engine(), std::future::pending()));
    let served = reqwest::get(format!("http://{addr}/openapi.json")).await.expect("get");
    assert_eq!(served.status(), 200);
    let served = served.text().await.expect("text");
    assert_eq!(served, toolscout_service::openapi_json());
    server.abort();

    let python = toolscout_test_support::deps().join("py-sdk/venv/bin/python");
    assert!(python.exists(), "{} is missing: run scripts/setup-python-sdk.sh", python.display());
    let out = Command::new(python)
        .args(["-m", "openapi_spec_validator"])
        .arg(root().join("openapi.json"))
        .output()
        .expect("openapi-spec-validator");
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}
