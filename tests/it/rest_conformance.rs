//! The REST API against its own OpenAPI document, by a third-party property-based tester (PyPI
//! `schemathesis`): a running `toolscout serve` (loopback, with an admin token so the admin routes are
//! exercised too) gets generated requests for every operation — bounded (20 examples per operation,
//! deterministic) — and must answer none with a 5xx, each with a declared status and content type, and
//! every body matching its declared schema.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use toolscout_indexer::{INSTALLED_MODEL, INSTALLED_ORT};

use crate::support::{deps, index};

#[test]
fn schemathesis_finds_no_server_error_and_no_schema_mismatch() {
    let schemathesis = deps().join("py-sdk/venv/bin/schemathesis");
    assert!(schemathesis.exists(), "{} is missing: run scripts/setup-python-sdk.sh", schemathesis.display());
    let mut server = Command::new(env!("CARGO_BIN_EXE_toolscout"))
        .args(["serve", "--addr", "127.0.0.1:0", "--token", "conformance-token-0123", "--index"])
        .arg(index())
        .env("TOOLSCOUT_MODEL_DIR", deps().join(INSTALLED_MODEL))
        .env("ORT_DYLIB_PATH", deps().join(INSTALLED_ORT))
        .env("RUST_LOG", "warn")
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve");
    let mut lines = BufReader::new(server.stderr.take().expect("stderr")).lines();
    let base = loop {
        let line = lines.next().expect("the server prints its address").expect("stderr");
        if let Some(at) = line.find("http://") {
            break line[at..].trim().to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let out = Command::new(schemathesis)
        .args(["run", &format!("{base}/openapi.json"), "--max-examples", "20", "--generation-deterministic"])
        .args([
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
        ])
        .args(["--header", "Authorization: Bearer conformance-token-0123", "--request-timeout", "30"])
        .env("SCHEMATHESIS_HOOKS", "")
        .output()
        .expect("schemathesis");
    let _ = server.kill();
    let _ = server.wait();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(report.contains("passed") && !report.contains("failed"), "{report}");
}
