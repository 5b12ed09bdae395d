//! The agent loop of one task in one arm: send the conversation, answer the model's tool calls through the
//! stub, append, repeat until the model answers without calling a tool (or the turn limit).
//!
//! In replay mode the harness replaces each reply by the next gold step (arm A: call the gold tool; arm B:
//! `discover_tools` with the gold need, then `call_tool`), still sending every request, so a model that
//! cannot call tools yields the real token, cache and latency figures of a right conversation. The reply
//! to the request after the last step ends the task. Replayed requests carry `tool_choice: "none"`: the
//! tools are still rendered into the prompt (llama.cpp: same prompt tokens, full cache hit — measured),
//! but the server never has to parse a tool call out of a model that cannot write one (a truncated
//! `<tool_call>` is an HTTP 500 in llama.cpp).

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};
use toolscout_service::{DeliveredTools, Engine};

use super::arms::{Arm, ToolTable};
use super::client::{ChatClient, Completion, Sampling, ToolCall};
use super::report::{TaskResult, TurnRecord};
use super::stub::Stub;
use super::tasks::Task;

/// Everything a task run needs, fixed for the arm.
pub(crate) struct Agent<'a> {
    pub(crate) arm: Arm,
    pub(crate) client: &'a ChatClient,
    pub(crate) table: &'a ToolTable,
    pub(crate) engine: &'a Arc<Engine>,
    pub(crate) tools: &'a Value,
    pub(crate) sampling: Sampling,
    pub(crate) max_turns: usize,
    pub(crate) replay_gold: bool,
    pub(crate) discover_limit: Option<usize>,
}

impl Agent<'_> {
    pub(crate) async fn run(&self, task: &Task) -> TaskResult {
        let started = Instant::now();
        let mut result = TaskResult { id: task.id.clone(), domain: task.domain.clone(), ..TaskResult::default() };
        let mut stub = Stub {
            arm: self.arm,
            table: self.table,
            engine: self.engine,
            task,
            discover_limit: self.discover_limit,
            session: DeliveredTools::default(),
        };
        let mut messages = vec![
            json!({"role": "system", "content": self.arm.system_prompt()}),
            json!({"role": "user", "content": task.request}),
        ];
        let script = if self.replay_gold { self.script(task) } else { Vec::new() };
        let mut steps = script.into_iter();
        let mut turn = 0;
        loop {
            if turn >= self.max_turns {
                result.error = Some(format!("stopped at the turn limit ({})", self.max_turns));
                break;
            }
            let body = self.client.body(self.tools, &messages, self.sampling);
            let completion = match self.client.complete(&body).await {
                Ok(c) => c,
                Err(e) => {
                    result.error = Some(e);
                    break;
                }
            };
            let step = if self.replay_gold { steps.next() } else { None };
            result.turns.push(turn_record(&completion, step.is_some()));
            let calls = match step {
                Some(call) => vec![call],
                None if self.replay_gold => Vec::new(),
                None => completion.tool_calls.clone(),
            };
            if calls.is_empty() {
                result.final_text = completion.content.as_deref().map(|c| c.chars().take(300).collect());
                break;
            }
            messages.push(assistant_message(&completion, &calls, self.replay_gold));
            for call in &calls {
                let (message, record) = stub.answer(call, turn).await;
                messages.push(message);
                result.calls.push(record);
            }
            turn += 1;
        }
        result.score(task, self.table);
        result.wall_ms = started.elapsed().as_secs_f64() * 1000.0;
        result
    }

    /// The gold steps of a task as tool calls, one per request.
    fn script(&self, task: &Task) -> Vec<ToolCall> {
        let mut out = Vec::new();
        for gold in &task.gold {
            let entry = self.table.get(&gold.server, &gold.tool);
            let arguments = Value::Object(gold.replay_arguments(entry.and_then(|e| e.input_schema())));
            let n = out.len();
            match self.arm {
                Arm::Full => out.push(ToolCall {
                    id: format!("call_{n}"),
                    name: entry.map(|e| e.function.clone()).unwrap_or_else(|| gold.tool.clone()),
                    arguments: arguments.to_string(),
                }),
                Arm::Discover => {
                    out.push(ToolCall {
                        id: format!("call_{n}"),
                        name: "discover_tools".into(),
                        arguments: json!({"need": gold.need}).to_string(),
                    });
                    out.push(ToolCall {
                        id: format!("call_{}", n + 1),
                        name: "call_tool".into(),
                        arguments: json!({"server": gold.server, "tool": gold.tool, "arguments": arguments})
                            .to_string(),
                    });
                }
            }
        }
        out
    }
}

fn turn_record(c: &Completion, scripted: bool) -> TurnRecord {
    TurnRecord {
        usage: c.usage.clone(),
        latency_ms: c.latency.as_secs_f64() * 1000.0,
        finish_reason: c.finish_reason.clone(),
        tool_calls: c.tool_calls.len(),
        scripted,
    }
}

/// The assistant message appended to the conversation: role, content and the calls, nothing else the
/// server may have added (ids and arguments exactly as received, so the re-rendered prompt matches what the
/// server generated and cached).
fn assistant_message(c: &Completion, calls: &[ToolCall], scripted: bool) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|call| {
            json!({"id": call.id, "type": "function",
                "function": {"name": call.name, "arguments": call.arguments}})
        })
        .collect();
    let content = if scripted {
        Value::Null
    } else {
        c.content.clone().filter(|s| !s.is_empty()).map(Value::String).unwrap_or(Value::Null)
    };
    json!({"role": "assistant", "content": content, "tool_calls": tool_calls})
}
