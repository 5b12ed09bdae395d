//! Two servers whose names collide are told apart everywhere by the id the caller must use; and being
//! the same server (the same tool set), they are one capability in an answer: the first stands for both
//! and names the other as an alternate, which stays listed and callable under its own id.

use std::collections::HashSet;
use std::sync::Arc;

use toolscout_service::{DeliveredTools, DiscoverParams, EffectClass, Engine, EngineConfig, Profile, render};
use toolscout_test_support::{hash_embedder, hashed_index, reference_catalog};

#[test]
fn colliding_server_names_are_shown_by_their_unique_ids() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(reference_catalog()).expect("catalog");
    let slack = text.lines().find(|l| l.contains("\"name\":\"slack\"")).expect("the slack server");
    let catalog = scratch.path().join("twice.jsonl");
    // The same server listed twice under the same name (two configs naming their Slack server "slack").
    let copy = slack.replace("\"server_id\":\"slack\"", "\"server_id\":\"\"");
    // And an edition of it: another name, every description reworded, the same tools and schemas.
    let edition = copy
        .replace("\"name\":\"slack\"", "\"name\":\"slack-team\"")
        .replace("\"description\":\"", "\"description\":\"Team edition: ");
    std::fs::write(&catalog, format!("{slack}\n{copy}\n{edition}\n")).expect("write");
    let config = EngineConfig::default();
    let dir = hashed_index(&catalog, &scratch.path().join("idx"), &config.fingerprint());
    let engine = Arc::new(Engine::with_embedder(&dir, hash_embedder(), config).expect("engine"));
    let ids: Vec<String> = engine.servers().servers.into_iter().map(|s| s.server_id).collect();
    assert_eq!(ids, ["slack", "slack-2", "slack-team"]);

    let params = DiscoverParams { limit: Some(6), ..DiscoverParams::new("post a message to a slack channel") };
    let answer = engine.search(&params).expect("search");
    let shown: Vec<(String, String)> = answer.tools.iter().map(|h| (h.server_id.clone(), h.name.clone())).collect();
    assert!(!shown.is_empty());
    assert!(shown.iter().all(|(s, _)| s == "slack"), "the mirror is collapsed into the first: {shown:?}");
    assert_eq!(shown.iter().collect::<HashSet<_>>().len(), shown.len(), "no entry shown twice: {shown:?}");
    for hit in &answer.tools {
        let alternates: Vec<&str> = hit.alternates.iter().map(|a| a.server_id.as_str()).collect();
        assert_eq!(alternates, ["slack-2", "slack-team"], "{}", hit.name);
    }
    let (text, _) = render(&answer, &mut DeliveredTools::default());
    for (server_id, name) in &shown {
        assert!(text.contains(&format!("{server_id}/{name}")), "the text names {server_id}/{name}: {text}");
    }
    assert!(text.contains(r#""also_served_by":["slack-2","slack-team"]"#), "the text names the alternates: {text}");
    // A profile that may see only the edition gets the edition's own tools, and no word of the others.
    let mut team = Profile::allowing(EffectClass::Irreversible);
    team.allow_servers = Some(vec!["slack-team".into()]);
    let seen = engine.search_as(&params, Some(("team", &team))).expect("search");
    assert!(!seen.tools.is_empty(), "{seen:?}");
    for hit in &seen.tools {
        assert_eq!(hit.server_id, "slack-team");
        assert!(hit.alternates.is_empty(), "hidden servers are not named: {:?}", hit.alternates);
    }
    // The alternate is still a server of its own: looked up, and callable, by its id.
    assert_eq!(engine.tool("slack-2", &shown[0].1).expect("lookup").server_id, "slack-2");
}
