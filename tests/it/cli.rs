//! crawl → index → search through the binary, on real servers from the registries.

use serde_json::{Value, json};

use crate::support::{deps, index, run_ok, toolscout};

#[test]
fn crawl_index_search_round_trip() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let fixture: Value = serde_json::from_str(
        &std::fs::read_to_string(deps().join("mcp-servers/mcpServers.json")).expect("run scripts/setup-mcp-servers.sh"),
    )
    .expect("json");
    let mut servers = serde_json::Map::new();
    for name in ["github", "time"] {
        servers.insert(name.into(), fixture["mcpServers"][name].clone());
    }
    servers.insert("broken".into(), json!({"command": "/nonexistent/server"}));
    let config = scratch.path().join("mcp.json");
    std::fs::write(&config, json!({"mcpServers": servers}).to_string()).expect("write");
    let catalog = scratch.path().join("catalog.jsonl");
    let report = scratch.path().join("report.json");
    let out = run_ok(
        toolscout()
            .args(["crawl", "--allow-partial", "--config"])
            .arg(&config)
            .arg("--out")
            .arg(&catalog)
            .arg("--report")
            .arg(&report),
    );
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("crawled 2/3 servers"), "{summary}");
    assert!(summary.contains("FAILED broken"), "{summary}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
    assert_eq!(report["servers"].as_array().expect("servers").len(), 3);
    assert_eq!(std::fs::read_to_string(&catalog).expect("catalog").lines().count(), 2);

    let idx = scratch.path().join("idx");
    run_ok(toolscout().arg("index").arg("--catalog").arg(&catalog).arg("--out").arg(&idx));
    let out = run_ok(toolscout().arg("search").arg("--index").arg(&idx).args([
        "--json",
        "--limit",
        "3",
        "open a new issue on a GitHub repository",
    ]));
    let answer: Value = serde_json::from_slice(&out.stdout).expect("--json prints the REST shape");
    assert_eq!(answer["status"], "found");
    assert_eq!(answer["tools"][0]["server"], "github");
    assert!(answer["tools"].as_array().expect("tools").len() <= 3);
    let out = run_ok(toolscout().arg("search").arg("--index").arg(&idx).arg("get_current_time"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("time/"), "human output names server/tool");
}

#[test]
fn clear_errors_for_bad_input() {
    let out = toolscout().args(["search", "--index", "/nonexistent/idx", "x"]).output().expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("opening index"), "{}", String::from_utf8_lossy(&out.stderr));
    let scratch = tempfile::tempdir().expect("tempdir");
    let junk = scratch.path().join("junk.jsonl");
    std::fs::write(&junk, "this is not a catalog\n").expect("write");
    let out = toolscout()
        .arg("index")
        .arg("--catalog")
        .arg(&junk)
        .arg("--out")
        .arg(scratch.path().join("i"))
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("junk.jsonl"));
    let out = toolscout()
        .arg("search")
        .arg("--index")
        .arg(index())
        .args(["--model-dir", "/nonexistent", "x"])
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("setup-models.sh"));
}

/// The publish window, hit on purpose: a test-only fault point (`TOOLSCOUT_FAULT`) ends the process right
/// after the new snapshot is written (before pins and `CURRENT`), and right after it is renamed into
/// `snapshots/` (before `CURRENT` is swapped). Either way the previous snapshot keeps serving, and the
/// next build cleans up the staging folder the crash left behind.
#[test]
fn a_crash_inside_the_publish_window_leaves_the_previous_snapshot_serving() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let idx = scratch.path().join("idx");
    let catalog = crate::support::root().join("data/catalog/reference-servers.jsonl");
    run_ok(toolscout().arg("index").arg("--catalog").arg(&catalog).arg("--out").arg(&idx));
    let live = std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT");
    let entries = || -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(idx.join("snapshots"))
            .expect("snapshots")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    for (point, leftover_is_staging) in [("after-snapshot-write", true), ("after-snapshot-rename", false)] {
        let before = entries();
        let out = toolscout()
            .env("TOOLSCOUT_FAULT", point)
            .args(["index", "--full", "--catalog"])
            .arg(&catalog)
            .arg("--out")
            .arg(&idx)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(86), "{point}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains(point));
        assert_eq!(std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT"), live, "{point}: CURRENT untouched");
        let added: Vec<String> = entries().into_iter().filter(|e| !before.contains(e)).collect();
        assert_eq!(added.len(), 1, "{point}: {added:?}");
        assert_eq!(added[0].starts_with(".tmp-"), leftover_is_staging, "{point}: {added:?}");
        let out =
            run_ok(toolscout().arg("search").arg("--index").arg(&idx).args(["--json", "post a message to slack"]));
        let answer: Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(answer["tools"][0]["server"], "slack", "{point}: the old snapshot still answers");
    }
    // The next build removes the crashed build's staging folder (its process is gone) and publishes.
    run_ok(toolscout().arg("index").arg("--catalog").arg(&catalog).arg("--out").arg(&idx));
    assert!(entries().iter().all(|e| !e.starts_with(".tmp-")), "{:?}", entries());
    assert_ne!(std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT"), live);
    // Rollback goes back to the snapshot that was live before (not to the crashed build's orphan).
    run_ok(toolscout().args(["index", "--rollback", "--out"]).arg(&idx));
    assert_eq!(std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT"), live, "rolled back");
    let out = run_ok(toolscout().arg("search").arg("--index").arg(&idx).args(["--json", "post a message to slack"]));
    let answer: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(answer["tools"][0]["server"], "slack");
}

#[test]
fn kill_9_during_a_build_leaves_the_previous_snapshot_serving() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let idx = scratch.path().join("idx");
    let catalog = crate::support::root().join("data/catalog/reference-servers.jsonl");
    run_ok(toolscout().arg("index").arg("--catalog").arg(&catalog).arg("--out").arg(&idx));
    let live = std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT");
    let big = crate::support::root().join("data/catalog/livemcpbench-tools.json");
    let mut child = toolscout()
        .arg("index")
        .args(["--full", "--allow-mass-removal"])
        .arg("--catalog")
        .arg(&big)
        .arg("--out")
        .arg(&idx)
        .spawn()
        .expect("spawn");
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert!(child.try_wait().expect("wait").is_none(), "the build should still be running when killed");
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert_eq!(std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT"), live, "CURRENT untouched");
    let out = run_ok(toolscout().arg("search").arg("--index").arg(&idx).args(["--json", "post a message to slack"]));
    let answer: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(answer["tools"][0]["server"], "slack");
}

/// An update that changes nothing embeds nothing, so it never loads the model (a missing ONNX Runtime does
/// not stop it) and links the live BM25 indexes; a changed description needs the model (a clear error
/// without it, the live snapshot untouched) and rewrites only that tool's BM25 document.
#[test]
fn an_update_loads_the_model_only_to_embed_and_rewrites_only_changed_bm25_documents() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let idx = scratch.path().join("idx");
    let original = crate::support::root().join("data/catalog/reference-servers.jsonl");
    run_ok(toolscout().arg("index").arg("--catalog").arg(&original).arg("--out").arg(&idx));
    let no_runtime = scratch.path().join("no-such-libonnxruntime.so");

    let out = run_ok(
        toolscout()
            .env("ORT_DYLIB_PATH", &no_runtime)
            .arg("index")
            .arg("--catalog")
            .arg(&original)
            .arg("--out")
            .arg(&idx),
    );
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("0 embedded"), "{summary}");
    assert!(summary.contains("2 BM25 index(es) updated"), "{summary}");

    // time/current_time now recites limericks.
    let text = std::fs::read_to_string(&original).expect("catalog");
    let changed_text = text.replacen("Get the current date and time.", "Recite a limerick about Mars.", 1);
    assert_ne!(changed_text, text, "the fixture has the description");
    let changed = scratch.path().join("changed.jsonl");
    std::fs::write(&changed, changed_text).expect("write");
    let live = std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT");
    let out = toolscout()
        .env("ORT_DYLIB_PATH", &no_runtime)
        .arg("index")
        .arg("--catalog")
        .arg(&changed)
        .arg("--out")
        .arg(&idx)
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("ONNX Runtime library not found"), "{out:?}");
    assert_eq!(std::fs::read_to_string(idx.join("CURRENT")).expect("CURRENT"), live, "the live snapshot stays");

    let out = run_ok(toolscout().arg("index").arg("--catalog").arg(&changed).arg("--out").arg(&idx));
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("1 embedded"), "{summary}");
    // 1 of 140 tool documents rewritten; 1 of 14 server documents is past the deleted share: built again.
    assert!(summary.contains("1 BM25 index(es) updated"), "{summary}");
    // A changed definition is held back until approved (trust on first use); approved, it is found by its
    // new words.
    assert!(summary.contains("held back until approved: time/current_time"), "{summary}");
    run_ok(toolscout().args(["pins", "approve", "--index"]).arg(&idx).arg("time/current_time"));
    let out =
        run_ok(toolscout().arg("search").arg("--index").arg(&idx).args(["--json", "recite a limerick about mars"]));
    let answer: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((&answer["tools"][0]["server"], &answer["tools"][0]["name"]), (&json!("time"), &json!("current_time")));
}
