//! The harness side of a tool call: nothing real is ever called. A catalog tool's arguments are validated
//! against its declared input schema and a short canned JSON result comes back; `discover_tools` runs the
//! real engine and answers in the library's OpenAI Chat tail format; `call_tool` refuses tools that were
//! not delivered in the conversation, as the meta-tool's proxy does.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use toolscout_meta_tool::MAX_LIMIT;
use toolscout_service::{DeliveredTools, DiscoverParams, Engine, Format, to_format};

use super::arms::{Arm, Entry, ToolTable};
use super::client::ToolCall;
use super::tasks::Task;

/// How the harness answered one tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A catalog tool ran (as a stub) with arguments valid against its schema.
    Ok,
    /// A catalog tool was called with arguments its schema rejects (or that are not a JSON object).
    InvalidArguments,
    /// No such tool in this arm (arm A: unknown name; arm B: neither meta-tool).
    Unknown,
    /// Arm B: `call_tool` named a tool that `discover_tools` had not delivered in this conversation.
    NotDelivered,
    /// Arm B: `discover_tools` answered `found`.
    Discovered,
    /// Arm B: `discover_tools` answered `not_found`, or could not use the request.
    NotFound,
}

/// One tool call and how it went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    /// Turn (0-based) whose reply made the call.
    pub turn: usize,
    /// The function the model called (`discover_tools`, `call_tool`, or a catalog tool in arm A).
    pub function: String,
    /// The catalog tool it resolves to, when it does (`server_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The catalog tool's name, when it resolves to one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The arguments (of the catalog tool, for `call_tool`), as parsed; the raw text when not JSON.
    pub arguments: Value,
    /// How it went.
    pub outcome: Outcome,
    /// Validation problems or the refusal, when any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problems: Option<String>,
    /// For `discover_tools`: the need asked for and the tools delivered (`server_id/name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub need: Option<String>,
    /// Tools a `discover_tools` call delivered, as `server_id/name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub delivered: Vec<String>,
}

impl CallRecord {
    /// Whether a catalog tool actually ran (valid arguments or not).
    pub fn executed(&self) -> bool {
        matches!(self.outcome, Outcome::Ok | Outcome::InvalidArguments)
    }
}

/// What the harness needs to answer calls for one task.
pub(crate) struct Stub<'a> {
    pub(crate) arm: Arm,
    pub(crate) table: &'a ToolTable,
    pub(crate) engine: &'a Arc<Engine>,
    pub(crate) task: &'a Task,
    pub(crate) discover_limit: Option<usize>,
    pub(crate) session: DeliveredTools,
}

impl Stub<'_> {
    /// Answers one call: the `role: tool` message to append and the record of the call.
    pub(crate) async fn answer(&mut self, call: &ToolCall, turn: usize) -> (Value, CallRecord) {
        let parsed = parse_arguments(&call.arguments);
        let mut record = CallRecord {
            turn,
            function: call.name.clone(),
            server: None,
            tool: None,
            arguments: parsed.clone().map(Value::Object).unwrap_or_else(|_| Value::String(call.arguments.clone())),
            outcome: Outcome::Unknown,
            problems: None,
            need: None,
            delivered: Vec::new(),
        };
        let content = match (self.arm, call.name.as_str()) {
            (Arm::Full, name) => match self.table.by_function(name) {
                Some(entry) => self.run(entry, parsed, &mut record),
                None => unknown(name, &mut record, "no tool with this name"),
            },
            (Arm::Discover, "discover_tools") => return self.discover(parsed, call, record).await,
            (Arm::Discover, "call_tool") => self.call_tool(parsed, &mut record),
            (Arm::Discover, name) => {
                unknown(name, &mut record, "not a function you have; call delivered tools through call_tool")
            }
        };
        (tool_message(&call.id, content), record)
    }

    fn call_tool(&mut self, parsed: Result<Map<String, Value>, String>, record: &mut CallRecord) -> String {
        let args = match parsed {
            Ok(a) => a,
            Err(e) => {
                record.problems = Some(e.clone());
                return error_text(&format!("call_tool arguments are not a JSON object: {e}"));
            }
        };
        let server = args.get("server").and_then(Value::as_str).unwrap_or_default().to_string();
        let tool = args.get("tool").and_then(Value::as_str).unwrap_or_default().to_string();
        let inner = args.get("arguments").cloned().unwrap_or_else(|| json!({}));
        record.arguments = inner.clone();
        record.server = Some(server.clone());
        record.tool = Some(tool.clone());
        if !self.session.has(&server, &tool) {
            record.outcome = Outcome::NotDelivered;
            let why = format!("{server}/{tool} was not delivered in this conversation; call discover_tools first");
            record.problems = Some(why.clone());
            return error_text(&why);
        }
        let Some(entry) = self.table.get(&server, &tool) else {
            return unknown(&format!("{server}/{tool}"), record, "delivered but missing from the catalog");
        };
        let inner = match inner {
            Value::Object(m) => Ok(m),
            other => Err(format!("`arguments` must be an object, got {other}")),
        };
        self.run(entry, inner, record)
    }

    /// Runs a catalog tool as a stub: validate, then a canned result.
    fn run(&self, entry: &Entry, args: Result<Map<String, Value>, String>, record: &mut CallRecord) -> String {
        record.server = Some(entry.server_id.clone());
        record.tool = Some(entry.name.clone());
        let checked = args.and_then(|a| toolscout_meta_tool::validate(entry.input_schema(), &a));
        match checked {
            Ok(()) => {
                record.outcome = Outcome::Ok;
                let result = self
                    .task
                    .gold
                    .iter()
                    .find(|g| g.accepts(&entry.server_id, &entry.name))
                    .and_then(|g| g.result.clone())
                    .unwrap_or_else(
                        || json!({"ok": true, "note": "stub result: arguments accepted, no real service was called"}),
                    );
                result.to_string()
            }
            Err(problems) => {
                record.outcome = Outcome::InvalidArguments;
                record.problems = Some(problems.clone());
                json!({"error": "arguments do not match the tool's input schema", "problems": problems}).to_string()
            }
        }
    }

    async fn discover(
        &mut self,
        parsed: Result<Map<String, Value>, String>,
        call: &ToolCall,
        mut record: CallRecord,
    ) -> (Value, CallRecord) {
        let args = parsed.unwrap_or_default();
        let need = args.get("need").and_then(Value::as_str).unwrap_or_default().to_string();
        let mut params = DiscoverParams::new(need.clone());
        params.server = args.get("server").and_then(Value::as_str).map(str::to_string);
        let limit = args.get("limit").and_then(Value::as_u64).map(|l| l.clamp(1, u64::from(MAX_LIMIT)) as usize);
        params.limit = limit.or(self.discover_limit);
        record.need = Some(need);
        let engine = self.engine.clone();
        let answer = tokio::task::spawn_blocking(move || engine.search(&params))
            .await
            .map_err(|e| format!("discovery task failed: {e}"))
            .and_then(|r| r.map_err(|e| e.to_string()));
        let answer = match answer {
            Ok(a) => a,
            Err(e) => {
                record.outcome = Outcome::NotFound;
                record.problems = Some(e.clone());
                return (tool_message(&call.id, error_text(&e)), record);
            }
        };
        let before = self.session.delivered().len();
        let message =
            to_format(&answer, &mut self.session, Format::OpenaiChat, &call.id).expect("OpenaiChat is a tail format");
        record.delivered = self.session.delivered()[before..].iter().map(|(s, t)| format!("{s}/{t}")).collect();
        record.outcome =
            if answer.status == toolscout_service::Status::Found { Outcome::Discovered } else { Outcome::NotFound };
        (message, record)
    }
}

fn parse_arguments(text: &str) -> Result<Map<String, Value>, String> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => Err(format!("arguments are {other}, not a JSON object")),
        Err(e) => Err(format!("arguments are not JSON: {e}")),
    }
}

fn unknown(name: &str, record: &mut CallRecord, why: &str) -> String {
    record.outcome = Outcome::Unknown;
    record.problems = Some(why.to_string());
    error_text(&format!("unknown tool {name:?}: {why}"))
}

fn error_text(message: &str) -> String {
    json!({"error": message}).to_string()
}

fn tool_message(call_id: &str, content: String) -> Value {
    json!({"role": "tool", "tool_call_id": call_id, "content": content})
}
