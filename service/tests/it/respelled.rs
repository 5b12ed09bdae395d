//! A request whose verb is misspelled shows its action only once respelled; the guard reads it so: the near
//! miss that does the opposite is not delivered for "deactivte the workflow", as it is not for "deactivate".

use toolscout_service::DiscoverParams;

use crate::support::hashed_engine;

#[test]
fn a_misspelled_verb_bars_the_near_miss_as_the_verb_would() {
    // The server can activate and list workflows, not deactivate them (its description uses the word).
    let tool = |name: &str, description: &str| {
        format!(
            r#"{{"name": "{name}", "description": "{description}", "parameter": {{"id": "(string) workflow id"}}}}"#
        )
    };
    let server = format!(
        r#"{{"name": "n8n", "description": "Manage n8n workflows; deactivate is not supported", "summary": "", "tools": [{}, {}]}}"#,
        tool("workflow_activate", "Activate a workflow"),
        tool("workflow_list", "List the workflows")
    );
    let (_scratch, engine) = hashed_engine(&[server]);
    let delivered = |query: &str| -> Vec<String> {
        let answer = engine.search(&DiscoverParams::new(query)).expect("search");
        answer.tools.iter().map(|t| t.name.clone()).collect()
    };
    // The engine's own reading first: asked to activate, the tool is delivered; asked to deactivate, not.
    assert!(delivered("activate the lead sync workflow in n8n").contains(&"workflow_activate".to_string()));
    assert!(!delivered("deactivate the lead sync workflow in n8n").contains(&"workflow_activate".to_string()));
    assert!(
        !delivered("deactivte the lead sync workflow in n8n").contains(&"workflow_activate".to_string()),
        "misspelled, the request still asks to deactivate"
    );
}
