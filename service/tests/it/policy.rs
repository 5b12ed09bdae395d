//! Risk classes of real servers' tools, and policies over the engine and the REST API: a profile sees
//! only what it permits — never as a hit, never as `closest`, never by lookup — and a request only hidden
//! tools could serve says a policy hid them, without naming them.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};
use toolscout_indexer::{IndexDir, Snapshot};
use toolscout_service::{
    DiscoverParams, EffectClass, Engine, EngineConfig, Policy, RestConfig, Risk, RiskOverrides, Status, classify_all,
};

use crate::support::{embedder, index_dir};

const POLICY: &str = r#"
[risk]
"time/*" = "read"

[profiles.reader]
max_risk = "read"
allow_servers = ["memory", "filesystem", "slack", "github", "time"]
tokens = ["reader-token-0123456789abcdef"]

[profiles.writer]
max_risk = "create"
deny_tools = ["github/create_pull_request"]
tokens = ["writer-token-0123456789abcdef"]
"#;

fn classes() -> BTreeMap<String, Risk> {
    let snapshot = Snapshot::open(&IndexDir::new(index_dir())).expect("snapshot");
    let risks = classify_all(&snapshot, &RiskOverrides::new());
    snapshot
        .tools
        .iter()
        .zip(risks)
        .map(|(t, r)| (format!("{}/{}", snapshot.servers[t.server as usize].server_id, t.name), r))
        .collect()
}

#[test]
fn real_tools_get_the_class_their_action_shows() {
    let classes = classes();
    let table: Vec<String> =
        classes.iter().map(|(k, r)| format!("{:>12} {k}: {}", r.class, r.reasons.join("; "))).collect();
    eprintln!("{}", table.join("\n"));
    let classes: BTreeMap<String, EffectClass> = classes.into_iter().map(|(k, r)| (k, r.class)).collect();
    for (tool, want) in [
        ("memory/read_graph", EffectClass::Read),
        ("memory/search_nodes", EffectClass::Read),
        ("memory/create_entities", EffectClass::Create),
        ("memory/delete_entities", EffectClass::Irreversible),
        ("memory/delete_relations", EffectClass::Irreversible),
        ("filesystem/read_text_file", EffectClass::Read),
        ("filesystem/list_directory", EffectClass::Read),
        ("filesystem/search_files", EffectClass::Read),
        ("slack/slack_post_message", EffectClass::External),
        ("slack/slack_reply_to_thread", EffectClass::External),
        ("github/merge_pull_request", EffectClass::Change),
        ("kubernetes/pods_delete", EffectClass::Irreversible),
    ] {
        assert_eq!(classes[tool], want, "{tool}");
    }
    for writes in ["filesystem/write_file", "filesystem/edit_file", "filesystem/move_file", "github/push_files"] {
        assert!(classes[writes] > EffectClass::Read, "{writes} is {}", classes[writes]);
    }
}

fn engine_with_policy(policy: &Policy) -> Arc<Engine> {
    let config = EngineConfig { risk_overrides: policy.risk.clone(), ..EngineConfig::default() };
    Arc::new(Engine::with_embedder(&index_dir(), embedder(), config).expect("engine"))
}

#[test]
fn a_read_only_profile_never_sees_a_write_or_send_tool() {
    let policy = Policy::parse(POLICY).expect("policy");
    let engine = engine_with_policy(&policy);
    let reader = policy.profile("reader").expect("reader");
    let mut explained = 0;
    for need in [
        "delete the entity Alice from the knowledge graph",
        "send a message to the #general slack channel",
        "write a new file notes.txt with the text hello",
        "open a new issue in the toolscout repository",
    ] {
        let open = engine.search(&DiscoverParams::new(need)).expect("search");
        let seen = engine.search_as(&DiscoverParams::new(need), Some(("reader", reader))).expect("search");
        let names = |r: &toolscout_service::DiscoverResponse| {
            r.tools.iter().map(|t| format!("{}/{}", t.server_id, t.name)).collect::<Vec<_>>()
        };
        eprintln!("{need}: open {:?} {:?}; reader {:?} {:?}", open.status, names(&open), seen.status, names(&seen));
        for hit in seen.tools.iter().chain(&seen.closest) {
            assert_eq!(hit.risk.class, EffectClass::Read, "{need}: {}/{} reached a reader", hit.server_id, hit.name);
            assert!(reader.allow_servers.as_ref().expect("list").contains(&hit.server_id), "{need}: {}", hit.server_id);
        }
        // When the reader gets nothing although the catalog has the tool, the answer says a policy hid it
        // (without naming it); a reader may still be offered a read tool the engine judges useful.
        if open.status == Status::Found && seen.status == Status::NotFound {
            let reason = seen.reason.clone().unwrap_or_default();
            assert!(reason.contains("policy") && reason.contains("reader"), "{need}: {reason}");
            for hidden in &open.tools {
                assert!(!reason.contains(&hidden.name), "{need}: the reason names {}", hidden.name);
            }
            explained += 1;
        }
    }
    assert!(explained >= 2, "most of these requests only a hidden tool serves: {explained} said so");
    // A reader still finds what it may use, with its class and why.
    let read = engine
        .search_as(&DiscoverParams::new("read the contents of the file notes/todo.txt"), Some(("reader", reader)))
        .expect("search");
    assert_eq!(read.status, Status::Found, "{read:?}");
    assert_eq!(read.tools[0].risk.class, EffectClass::Read);
    assert!(!read.tools[0].risk.reasons.is_empty());
    // The override made every time tool a read, whatever its name says.
    assert!(engine.tool("time", "convert_time").expect("tool").risk.reasons[0].contains("operator"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_callers_act_as_the_profile_of_their_token() {
    let policy = Arc::new(Policy::parse(POLICY).expect("policy"));
    let engine = engine_with_policy(&policy);
    let config = RestConfig { policy: Some(policy), ..RestConfig::default() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let server = tokio::spawn(toolscout_service::serve_with(listener, engine, config, std::future::pending()));
    let client = reqwest::Client::new();
    let discover = |token: Option<&'static str>, need: &'static str| {
        let mut request = client.post(format!("http://{addr}/v1/discover")).json(&json!({"query": need}));
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        request.send()
    };
    // No token and no default profile: refused, saying why.
    let refused = discover(None, "send a slack message").await.expect("answer");
    assert_eq!(refused.status(), 401);
    assert_eq!(refused.json::<Value>().await.expect("json")["error"]["code"], "no_profile");

    let need = "post a message to the slack channel #general";
    let writer: Value =
        discover(Some("writer-token-0123456789abcdef"), need).await.expect("answer").json().await.expect("json");
    assert!(
        writer["tools"].as_array().expect("tools").iter().all(|t| t["risk"]["class"] != "external"),
        "writer's max_risk is create: {writer}"
    );
    let reader: Value =
        discover(Some("reader-token-0123456789abcdef"), need).await.expect("answer").json().await.expect("json");
    for hit in reader["tools"].as_array().expect("tools").iter().chain(reader["closest"].as_array().expect("closest")) {
        assert_eq!(hit["risk"]["class"], "read", "{reader}");
    }
    // Lookups and listings follow the profile too.
    let lookup =
        |token: &'static str, path: &'static str| client.get(format!("http://{addr}{path}")).bearer_auth(token).send();
    let hidden =
        lookup("reader-token-0123456789abcdef", "/v1/servers/slack/tools/slack_post_message").await.expect("ok");
    assert_eq!(hidden.status(), 404);
    let shown = lookup("writer-token-0123456789abcdef", "/v1/servers/memory/tools/create_entities").await.expect("ok");
    assert_eq!(shown.status(), 200);
    assert_eq!(shown.json::<Value>().await.expect("json")["risk"]["class"], "create");
    let servers: Value =
        lookup("reader-token-0123456789abcdef", "/v1/servers").await.expect("ok").json().await.expect("json");
    let ids: Vec<&str> =
        servers["servers"].as_array().expect("list").iter().filter_map(|s| s["server_id"].as_str()).collect();
    assert!(!ids.contains(&"kubernetes") && ids.contains(&"memory"), "{ids:?}");
    // A profile token is not an admin token.
    let admin = client
        .post(format!("http://{addr}/v1/admin/reload"))
        .bearer_auth("writer-token-0123456789abcdef")
        .json(&json!({}))
        .send()
        .await
        .expect("answer");
    assert!(admin.status() == 403, "{}", admin.status());
    server.abort();
}

#[test]
fn the_documented_example_policy_parses() {
    let policy = Policy::load(&crate::support::root().join("data/policy/example.toml")).expect("example");
    assert_eq!(policy.profile("reader").expect("reader").max_risk, EffectClass::Read);
    let curator = policy.profile("curator").expect("curator");
    assert_eq!(curator.max_calls_per_class.get(&EffectClass::Irreversible), Some(&3));
    assert!(policy.audit.expect("audit").dir.ends_with("data/policy/audit"));
}
