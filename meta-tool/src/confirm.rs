//! A person's confirmation of a call, through MCP elicitation, showing the concrete action: the tool,
//! its server, its risk class, and every argument.
//!
//! Two protocol generations: up to 2025-11-25 the server asks the client (`elicitation/create`) while
//! the call waits; from 2026-07-28 on, server-to-client requests are gone, so the call answers an
//! `InputRequiredResult` carrying the elicitation, and the client calls again with the person's answer
//! and our `requestState` — a digest of this very call, so an answer given for one set of arguments
//! never confirms another. A client that did not declare elicitation gets a refusal that says why.

use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitationAction, ElicitationSchema, InputRequest, InputRequests,
    InputRequiredResult, PrimitiveSchemaDefinition, ProtocolVersion,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, model::BooleanSchema};
use serde_json::Value;

/// The key of our one input request.
const KEY: &str = "confirm";

/// How long a person has to answer.
const ANSWER_TIME: std::time::Duration = std::time::Duration::from_secs(300);

/// Where a confirmation stands.
pub(crate) enum Confirmation {
    /// The person said yes.
    Confirmed,
    /// The person said no, or dismissed the question.
    Declined(String),
    /// Ask first: return this to the client (2026-07-28 and later).
    Ask(InputRequiredResult),
    /// The client cannot ask a person.
    Unsupported(String),
}

/// The question shown to the person.
pub(crate) fn question(server: &str, tool: &str, class: &str, arguments: &serde_json::Map<String, Value>) -> String {
    let mut text = format!("Allow the agent to call {tool} on {server} ({class} action) with:\n");
    if arguments.is_empty() {
        text.push_str("  (no arguments)\n");
    }
    for (k, v) in arguments {
        let shown = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        text.push_str(&format!("  {k}: {shown}\n"));
    }
    text.push_str("Accept to run it once, exactly as shown.");
    text
}

/// Asks for (or reads) the person's confirmation of the call whose digest is `digest`.
pub(crate) async fn confirm(
    context: &RequestContext<RoleServer>,
    responses: Option<rmcp::model::InputResponses>,
    request_state: Option<String>,
    message: String,
    digest: &str,
) -> Confirmation {
    let stateless = context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
    if stateless {
        if let Some(answer) = responses.as_ref().and_then(|r| r.get(KEY)) {
            if request_state.as_deref() != Some(digest) {
                return Confirmation::Declined("the answer given was for a different call; ask again".into());
            }
            return judge(answer);
        }
        if !can_elicit(context) {
            return unsupported();
        }
        let mut requests = InputRequests::new();
        requests.insert(KEY.into(), InputRequest::Elicitation(ElicitRequest::new(params(message))));
        return Confirmation::Ask(InputRequiredResult::new(Some(requests), Some(digest.to_string())));
    }
    if !can_elicit(context) {
        return unsupported();
    }
    match context.peer.create_elicitation_with_timeout(params(message), Some(ANSWER_TIME)).await {
        Ok(result) => judge(&serde_json::to_value(&result).unwrap_or(Value::Null)),
        Err(e) => Confirmation::Declined(format!("the confirmation could not be asked: {e}")),
    }
}

fn can_elicit(context: &RequestContext<RoleServer>) -> bool {
    context.client_capabilities().is_some_and(|c| c.elicitation.is_some())
}

fn unsupported() -> Confirmation {
    Confirmation::Unsupported(
        "this call needs a person's confirmation, and this MCP client does not support elicitation (it did not \
         declare the capability), so no one can be asked. It was not made: tell the user to run it themselves \
         or to use a client that can confirm."
            .into(),
    )
}

fn params(message: String) -> ElicitRequestParams {
    let schema = ElicitationSchema::builder()
        .property(
            "confirm",
            PrimitiveSchemaDefinition::Boolean(BooleanSchema::new().title("Run this call").with_default(true)),
        )
        .build()
        .unwrap_or_else(|_| ElicitationSchema::new(Default::default()));
    ElicitRequestParams::FormElicitationParams { meta: None, message, requested_schema: schema }
}

/// Reads an `ElicitResult` (as JSON): accepted, unless the form says `confirm: false`.
fn judge(answer: &Value) -> Confirmation {
    let action: Option<ElicitationAction> = answer.get("action").and_then(|a| serde_json::from_value(a.clone()).ok());
    match action {
        Some(ElicitationAction::Accept) => {
            if answer.pointer("/content/confirm") == Some(&Value::Bool(false)) {
                Confirmation::Declined("the person unticked \"Run this call\"".into())
            } else {
                Confirmation::Confirmed
            }
        }
        Some(ElicitationAction::Decline) => Confirmation::Declined("the person declined".into()),
        Some(ElicitationAction::Cancel) => Confirmation::Declined("the person dismissed the question".into()),
        Some(_) | None => Confirmation::Declined("the answer was not an elicitation result".into()),
    }
}
