//! Least privilege, end to end: `toolscout mcp --proxy … --policy … --profile …` driven by the official
//! Python MCP SDK (tests/clients/mcp_session.py) over stdio, forwarding to the real memory server from
//! npm (inside `unshare -n`). Checked: a profile sees and calls only what it permits; irreversible calls
//! are made only after a person confirms through elicitation — asked with the concrete action, on both
//! protocol generations — and never when the person declines or the client cannot ask; per-session
//! limits and loops are refused with a message the model can act on; every attempt is one audit line.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::{deps, index, root};

/// The Python interpreter of scripts/setup-python-sdk.sh.
fn python() -> PathBuf {
    let python = deps().join("py-sdk/venv/bin/python");
    assert!(python.exists(), "{} is missing: run scripts/setup-python-sdk.sh", python.display());
    python
}

/// A host config with the real memory server, its knowledge graph in `dir`.
fn host_config(dir: &Path) -> PathBuf {
    let installed: Value = serde_json::from_slice(
        &std::fs::read(deps().join("mcp-servers/mcpServers.json")).expect("run scripts/setup-mcp-servers.sh"),
    )
    .expect("json");
    let mut memory = installed["mcpServers"]["memory"].clone();
    memory["env"] = json!({"MEMORY_FILE_PATH": dir.join("memory.jsonl")});
    let path = dir.join("mcpServers.json");
    std::fs::write(&path, json!({"mcpServers": {"memory": memory}}).to_string()).expect("write");
    path
}

fn policy(dir: &Path) -> PathBuf {
    let path = dir.join("policy.toml");
    let text = r#"
[audit]
dir = "audit"

[profiles.curator]
max_risk = "irreversible"
allow_servers = ["memory"]
confirm = ["irreversible"]
max_calls_per_class = { create = 2 }
max_repeats = 3
log_arguments = true

[profiles.reader]
max_risk = "read"
allow_servers = ["memory"]
"#;
    std::fs::write(&path, text).expect("write");
    path
}

/// One MCP session as `profile`; `mode` legacy or auto; `answer` accept, decline or none.
fn session(dir: &Path, profile: &str, mode: &str, answer: &str, steps: Value) -> Value {
    let mut child = Command::new(python())
        .arg(root().join("tests/clients/mcp_session.py"))
        .args([mode, answer, "--", env!("CARGO_BIN_EXE_toolscout"), "mcp", "--index"])
        .arg(index())
        .arg("--proxy")
        .arg(host_config(dir))
        .arg("--policy")
        .arg(policy(dir))
        .args(["--profile", profile, "--model-dir"])
        .arg(deps().join(toolscout_indexer::INSTALLED_MODEL))
        .arg("--ort-dylib")
        .arg(deps().join(toolscout_indexer::INSTALLED_ORT))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python");
    {
        use std::io::Write;
        child.stdin.take().expect("stdin").write_all(steps.to_string().as_bytes()).expect("steps");
    }
    let out = child.wait_with_output().expect("session");
    assert!(
        out.status.success(),
        "session failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn entity(name: &str) -> Value {
    json!({"entities": [{"name": name, "entityType": "person", "observations": ["likes tea"]}]})
}

fn call(tool: &str, arguments: Value) -> Value {
    json!({"call": ["memory", tool, arguments]})
}

fn audit_lines(dir: &Path) -> Vec<Value> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir.join("audit")).expect("audit folder") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("read");
        lines.extend(text.lines().map(|l| serde_json::from_str::<Value>(l).expect("each audit line is JSON")));
    }
    lines.sort_by_key(|l| l["time"].as_str().unwrap_or("").to_string());
    lines
}

#[test]
fn profiles_confirmation_limits_and_audit_over_the_python_sdk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dir = dir.path();
    let (ann, bob, cy) = ("Ann Example", "Bob Example", "Cy Example");

    // Curator, legacy handshake, the person accepts.
    let s = session(
        dir,
        "curator",
        "legacy",
        "accept",
        json!([
            {"discover": "create_entities"},
            call("create_entities", entity(ann)),
            call("create_entities", entity(bob)),
            call("create_entities", entity(cy)),
            {"discover": "delete_entities"},
            call("delete_entities", json!({"entityNames": [ann]})),
            {"discover": "read_graph"},
            call("read_graph", json!({})),
            call("read_graph", json!({})),
            call("read_graph", json!({})),
        ]),
    );
    let steps = s["steps"].as_array().expect("steps");
    assert_eq!(steps[0]["tools"][0], json!({"id": "memory/create_entities", "class": "create"}), "{s}");
    assert_eq!(steps[1]["is_error"], false, "{s}");
    assert_eq!(steps[2]["is_error"], false, "{s}");
    assert_eq!(steps[3]["is_error"], true, "a third create is over the class limit: {s}");
    assert!(steps[3]["text"].as_str().expect("text").contains("at most 2 calls of risk class create"), "{s}");
    // A request to create is not answered with a tool that deletes (the guard): delete_entities comes
    // with its own request, its class shown.
    let first: Vec<&Value> = steps[0]["tools"].as_array().expect("tools").iter().collect();
    assert!(!first.iter().any(|t| t["id"] == "memory/delete_entities"), "{s}");
    assert_eq!(steps[4]["status"], "found", "{s}");
    assert_eq!(steps[4]["tools"][0], json!({"id": "memory/delete_entities", "class": "irreversible"}), "{s}");
    assert_eq!(steps[5]["is_error"], false, "confirmed, so made: {s}");
    let asked = s["asked"].as_array().expect("asked");
    assert_eq!(asked.len(), 1, "only the irreversible call is confirmed: {s}");
    let question = asked[0].as_str().expect("message");
    assert!(question.contains("delete_entities") && question.contains(ann), "the concrete action: {question}");
    let graph = steps[7]["text"].as_str().expect("text");
    assert!(!graph.contains(ann) && graph.contains(bob), "the delete happened for real: {graph}");
    assert_eq!(steps[8]["is_error"], false, "a second identical call is a retry: {s}");
    assert_eq!(steps[9]["is_error"], true, "a third identical call in a row is a loop: {s}");
    assert!(steps[9]["text"].as_str().expect("text").contains("change strategy"), "{s}");

    // Curator on 2026-07-28 (confirmation as an InputRequiredResult), the person declines.
    let s = session(
        dir,
        "curator",
        "auto",
        "decline",
        json!([{"discover": "delete_entities"}, call("delete_entities", json!({"entityNames": [bob]})), {"discover": "read_graph"}, call("read_graph", json!({}))]),
    );
    assert_eq!(s["protocol"], "2026-07-28", "{s}");
    let steps = s["steps"].as_array().expect("steps");
    assert_eq!(steps[1]["is_error"], true, "{s}");
    assert!(steps[1]["text"].as_str().expect("text").contains("was not called: the person declined"), "{s}");
    assert_eq!(s["asked"].as_array().expect("asked").len(), 1, "{s}");
    assert!(steps[3]["text"].as_str().expect("text").contains(bob), "declined, so Bob is still there: {s}");

    // A client that cannot ask a person: the call is refused, saying why.
    let s = session(
        dir,
        "curator",
        "legacy",
        "none",
        json!([{"discover": "delete_entities"}, call("delete_entities", json!({"entityNames": [bob]}))]),
    );
    let refusal = s["steps"][1]["text"].as_str().expect("text");
    assert!(s["steps"][1]["is_error"] == true && refusal.contains("does not support elicitation"), "{s}");

    // Reader: irreversible tools are never offered, and a request only they serve says a policy hid them.
    let s = session(
        dir,
        "reader",
        "auto",
        "accept",
        json!([
            {"discover": "delete_entities"},
            {"discover": "delete the entity Bob Example from the knowledge graph"},
            {"discover": "read_graph"},
            call("read_graph", json!({})),
            call("delete_entities", json!({"entityNames": [bob]})),
        ]),
    );
    let steps = s["steps"].as_array().expect("steps");
    for (i, step) in steps[..2].iter().enumerate() {
        assert_eq!(step["status"], "not_found", "step {i}: {s}");
        assert!(step["reason"].as_str().unwrap_or("").contains("policy"), "step {i}: {s}");
        assert!(!step["reason"].as_str().unwrap_or("").contains("delete_entities"), "never named: {s}");
    }
    assert_eq!(steps[2]["tools"][0], json!({"id": "memory/read_graph", "class": "read"}), "{s}");
    assert_eq!(steps[3]["is_error"], false, "{s}");
    assert_eq!(steps[4]["is_error"], true, "never delivered, so never callable: {s}");
    assert!(s["asked"].as_array().expect("asked").is_empty(), "{s}");

    // The audit trail: one line per attempt that reached a real tool's checks, in order.
    let lines = audit_lines(dir);
    let summary: Vec<(String, String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["profile"].as_str().unwrap_or("").to_string(),
                l["tool"].as_str().unwrap_or("").to_string(),
                l["outcome"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = [
        ("curator", "create_entities", "ok"),
        ("curator", "create_entities", "ok"),
        ("curator", "create_entities", "refused"),
        ("curator", "delete_entities", "ok"),
        ("curator", "read_graph", "ok"),
        ("curator", "read_graph", "ok"),
        ("curator", "read_graph", "refused"),
        ("curator", "delete_entities", "declined"),
        ("curator", "read_graph", "ok"),
        ("curator", "delete_entities", "declined"),
        ("reader", "read_graph", "ok"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(summary, expected, "{lines:#?}");
    for line in &lines {
        for field in ["time", "session", "server", "class", "arguments_sha256", "duration_ms"] {
            assert!(!line[field].is_null(), "{field} missing: {line}");
        }
        assert_eq!(line["server"], "memory");
        assert_eq!(line["arguments"].is_null(), line["profile"] == "reader", "only curator logs arguments: {line}");
    }
    assert_eq!(lines[3]["confirmed"], true, "{}", lines[3]);
    assert_eq!(lines[3]["class"], "irreversible");
    assert_eq!(lines[3]["arguments"], json!({"entityNames": [ann]}));
    assert_eq!(lines[7]["confirmed"], false);
    assert!(lines[0]["confirmed"].is_null(), "create needs no confirmation in this profile");
    assert_eq!(lines[4]["arguments_sha256"], lines[5]["arguments_sha256"]);
    assert_ne!(lines[0]["arguments_sha256"], lines[1]["arguments_sha256"]);
}
