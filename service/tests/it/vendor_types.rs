//! The tail formats pass the vendors' own SDK types: each `?format=` answer (found, not found, a compound
//! request, a repeat whose tools are already loaded) is checked by tests/clients/vendor_types.py against
//! `openai` (Chat Completions tool message, Responses `tool_search_output` item), `anthropic`
//! (`tool_result` block) and `mcp` (`CallToolResult`) from PyPI.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use toolscout_service::{DeliveredTools, DiscoverParams, Format, to_format};

use crate::support::{engine, root};

#[test]
fn every_tail_format_type_checks_with_the_vendor_sdks() {
    let python = toolscout_test_support::deps().join("py-sdk/venv/bin/python");
    assert!(python.exists(), "{} is missing: run scripts/setup-python-sdk.sh", python.display());
    let engine = engine();
    let mut items = Vec::new();
    for (format, name) in [
        (Format::OpenaiChat, "openai_chat"),
        (Format::OpenaiResponses, "openai_responses"),
        (Format::Anthropic, "anthropic"),
        (Format::Mcp, "mcp"),
    ] {
        let mut session = DeliveredTools::default();
        for (label, need) in [
            ("found", "post a message to a slack channel"),
            ("repeat", "post a message to a slack channel"),
            ("not_found", "book a table for two at an italian restaurant tonight"),
            ("compound", "get the current time in Tokyo and then post it to the #general slack channel"),
        ] {
            let answer = engine.search(&DiscoverParams::new(need)).expect("search");
            let value = to_format(&answer, &mut session, format, "call_1").expect("a tail format");
            items.push(json!({"format": name, "label": label, "value": value}));
        }
    }
    let mut child = Command::new(python)
        .arg(root().join("tests/clients/vendor_types.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python");
    child.stdin.take().expect("stdin").write_all(Value::Array(items).to_string().as_bytes()).expect("write");
    let out = child.wait_with_output().expect("checker");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(report.lines().filter(|l| l.starts_with("ok ")).count(), 16, "{report}");
}
