//! A declared test double: a scripted OpenAI-compatible chat server on 127.0.0.1:0. It plays a perfect
//! agent over the task file (arm A: call each gold tool; arm B: `discover_tools` with the gold need, then
//! `call_tool`), with knobs to call a wrong tool, send invalid arguments, fail a request or never call a
//! tool. Its usage figures have llama.cpp's shape (`usage` + `timings`) or OpenAI's
//! (`prompt_tokens_details.cached_tokens`), with one token per 4 prompt bytes and a one-slot prefix cache
//! (the bytes shared with the previous request), so the harness's accuracy and cache bookkeeping can be
//! checked exactly.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};
use toolscout_bench::ab::{AbReport, Arm, ArmSummary, Outcome, Task};

use super::{bench, config};

/// How the usage figures are shaped.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    LlamaCpp,
    OpenAi,
}

#[derive(Clone)]
struct Script {
    tasks: Vec<Task>,
    /// Input schemas by tool name (names are unique in the reference catalog).
    schemas: HashMap<String, Value>,
    wrong_tool: Vec<&'static str>,
    bad_args: Vec<&'static str>,
    fail: Vec<&'static str>,
    silent: bool,
    shape: Shape,
}

impl Script {
    fn new(shape: Shape) -> Script {
        let tools = bench().tools(Arm::Full);
        let schemas = tools
            .as_array()
            .expect("tools")
            .iter()
            .map(|t| (t["function"]["name"].as_str().expect("name").to_string(), t["function"]["parameters"].clone()))
            .collect();
        Script {
            tasks: bench().tasks().to_vec(),
            schemas,
            wrong_tool: Vec::new(),
            bad_args: Vec::new(),
            fail: Vec::new(),
            silent: false,
            shape,
        }
    }

    /// The next assistant message for this conversation, or None to fail the request.
    fn reply(&self, body: &Value) -> Option<Value> {
        let messages = body["messages"].as_array().expect("messages");
        let request = messages.iter().find(|m| m["role"] == "user").and_then(|m| m["content"].as_str()).expect("user");
        let task = self.tasks.iter().find(|t| t.request == request).expect("a known task");
        if self.fail.contains(&task.id.as_str()) {
            return None;
        }
        let discover =
            body["tools"].as_array().expect("tools").iter().any(|t| t["function"]["name"] == "discover_tools");
        let done = messages.iter().filter(|m| m["role"] == "assistant").count();
        let mut steps: Vec<(String, Value)> = Vec::new();
        for gold in &task.gold {
            let mut args = Value::Object(gold.replay_arguments(self.schemas.get(&gold.tool)));
            if self.bad_args.contains(&task.id.as_str()) {
                args = json!({});
            }
            let mut tool = gold.tool.clone();
            if self.wrong_tool.contains(&task.id.as_str()) {
                // A real tool that serves none of the task's needs (arm B: never delivered, so refused).
                (tool, args) = ("echo".into(), json!({"message": "hello"}));
            }
            if discover {
                steps.push(("discover_tools".into(), json!({"need": gold.need})));
                steps.push(("call_tool".into(), json!({"server": gold.server, "tool": tool, "arguments": args})));
            } else {
                steps.push((tool, args));
            }
        }
        Some(match steps.get(done) {
            Some((name, args)) if !self.silent && body["tool_choice"] != "none" => {
                json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": format!("call_{done}"), "type": "function",
                    "function": {"name": name, "arguments": args.to_string()}}]})
            }
            _ => json!({"role": "assistant", "content": "Done."}),
        })
    }
}

struct Server {
    script: Script,
    /// The previous prompt's bytes: the one-slot cache.
    cached: Mutex<String>,
}

async fn completions(State(server): State<Arc<Server>>, Json(body): Json<Value>) -> (StatusCode, Json<Value>) {
    let Some(message) = server.script.reply(&body) else {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"error": {"code": 500, "message": "scripted failure"}})),
        );
    };
    let prompt: String = std::iter::once(body["tools"].to_string())
        .chain(body["messages"].as_array().expect("messages").iter().map(Value::to_string))
        .collect();
    let shared = {
        let mut cached = server.cached.lock().expect("lock");
        let shared = cached.bytes().zip(prompt.bytes()).take_while(|(a, b)| a == b).count();
        *cached = prompt.clone();
        shared
    };
    let (prompt_n, cache_n) = ((prompt.len() / 4) as u64, (shared / 4) as u64);
    let finish = if message.get("tool_calls").is_some() { "tool_calls" } else { "stop" };
    let mut reply = json!({
        "id": "chatcmpl-scripted", "object": "chat.completion", "model": body["model"],
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    });
    match server.script.shape {
        Shape::LlamaCpp => {
            reply["usage"] = json!({"prompt_tokens": prompt_n, "completion_tokens": 7, "total_tokens": prompt_n + 7});
            reply["timings"] = json!({"cache_n": cache_n, "prompt_n": prompt_n - cache_n, "prompt_ms": 1.0,
                "predicted_n": 7, "predicted_ms": 2.0});
        }
        Shape::OpenAi => {
            reply["usage"] = json!({"prompt_tokens": prompt_n, "completion_tokens": 7, "total_tokens": prompt_n + 7,
                "prompt_tokens_details": {"cached_tokens": cache_n}});
        }
    }
    (StatusCode::OK, Json(reply))
}

/// Serves `script` on 127.0.0.1:0; returns the base URL.
async fn serve(script: Script) -> String {
    let server = Arc::new(Server { script, cached: Mutex::new(String::new()) });
    let app = Router::new().route("/v1/chat/completions", post(completions)).with_state(server);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    format!("http://{addr}/v1")
}

async fn run(script: Script, only: &[&str], replay_gold: bool) -> AbReport {
    let base = serve(script).await;
    let mut config = config(&base, &["drawio"]);
    config.only = only.iter().map(|s| s.to_string()).collect();
    config.replay_gold = replay_gold;
    let report = bench().run(&config).await.expect("run");
    // The JSON report round-trips, and the markdown names every task.
    let json = serde_json::to_string(&report).expect("json");
    assert_eq!(serde_json::from_str::<AbReport>(&json).expect("parse"), report);
    let md = report.markdown();
    assert!(only.iter().all(|id| md.contains(&format!("| {id} |"))), "{md}");
    report
}

fn arm(report: &AbReport, arm: Arm) -> &ArmSummary {
    &report.arms.iter().find(|a| a.arm == arm).expect("arm").summary
}

const TASKS: [&str; 5] = ["slack-post", "gh-merge", "x-ci-to-slack", "time-tokyo", "fs-read"];

#[tokio::test]
async fn the_agent_loop_scores_right_and_wrong_calls_in_both_arms() {
    let mut script = Script::new(Shape::LlamaCpp);
    script.wrong_tool = vec!["time-tokyo"];
    script.bad_args = vec!["fs-read"];
    let report = run(script, &TASKS, false).await;
    eprintln!("{}", report.markdown());
    let (a, b) = (arm(&report, Arm::Full), arm(&report, Arm::Discover));

    // Both arms: 4 of 5 tasks executed every gold tool (time-tokyo called echo), 3 of 5 with the key
    // arguments (fs-read's arguments were invalid).
    for s in [a, b] {
        assert_eq!((s.tasks, s.errors), (5, 0));
        assert!((s.selection_accuracy - 0.8).abs() < 1e-9, "{s:?}");
        assert!((s.key_args_accuracy - 0.6).abs() < 1e-9, "{s:?}");
    }
    // Arm A executed 6 calls (echo included), one invalid; arm B's echo was refused as never delivered.
    assert_eq!((a.executed_calls, a.argument_validity), (6, Some(5.0 / 6.0)));
    assert_eq!((b.executed_calls, b.argument_validity), (5, Some(4.0 / 5.0)));
    // Requests: one per call plus the answer; arm B adds a discover_tools call per tool.
    assert_eq!((a.turns, b.turns), (2 + 2 + 3 + 2 + 2, 3 + 3 + 5 + 3 + 3));
    assert_eq!(b.gold_delivered_share, Some(1.0));
    assert_eq!(a.gold_delivered_share, None);

    let tasks = &report.arms.iter().find(|x| x.arm == Arm::Discover).expect("B").tasks;
    let wrong = tasks.iter().find(|t| t.id == "time-tokyo").expect("task");
    assert!(wrong.calls.iter().any(|c| c.outcome == Outcome::NotDelivered), "{:?}", wrong.calls);
    let first = &tasks.iter().find(|t| t.id == "slack-post").expect("task").calls[0];
    assert_eq!((first.function.as_str(), first.outcome), ("discover_tools", Outcome::Discovered));
    assert!(first.delivered.iter().any(|d| d == "slack/slack_post_message"), "{first:?}");

    // The cache figures: arm B's conversation only ever grows at the tail, so each request finds the
    // whole previous one in the (simulated) cache; arm A's prefix is its ~90 KB tools array.
    assert_eq!(b.continuation_reuse, Some(1.0));
    assert_eq!(a.continuation_reuse, Some(1.0));
    assert!(a.cached_share_after_first.expect("cache") > 0.95, "{a:?}");
    let c = report.comparison.as_ref().expect("both arms");
    assert!(c.first_turn_prompt_ratio < 0.05, "{c:?}");
    assert!(a.prompt_ms.is_some() && a.cached_tokens.is_some());
}

#[tokio::test]
async fn openai_shaped_usage_and_failed_requests_are_recorded() {
    let mut script = Script::new(Shape::OpenAi);
    script.fail = vec!["gh-issue"];
    let report = run(script, &["slack-post", "gh-issue"], false).await;
    for a in &report.arms {
        let failed = a.tasks.iter().find(|t| t.id == "gh-issue").expect("task");
        assert!(failed.error.as_deref().is_some_and(|e| e.contains("500")), "{failed:?}");
        let ok = a.tasks.iter().find(|t| t.id == "slack-post").expect("task");
        assert!(ok.selected && ok.error.is_none(), "{ok:?}");
        assert!(ok.turns.iter().all(|t| t.usage.cached_tokens.is_some() && t.usage.prompt_ms.is_none()));
        assert_eq!(a.summary.errors, 1);
    }
}

#[tokio::test]
async fn replay_drives_the_gold_steps_when_the_model_calls_nothing() {
    // Replayed requests carry tool_choice "none", so the double answers text (no tool call) every time.
    let mut script = Script::new(Shape::LlamaCpp);
    let report = run(script.clone(), &["x-ci-to-slack", "maps-walk"], true).await;
    assert!(report.replay_gold);
    for a in &report.arms {
        assert_eq!((a.summary.selection_accuracy, a.summary.key_args_accuracy), (1.0, 1.0), "{:?}", a.arm);
        assert_eq!(a.summary.argument_validity, Some(1.0));
        let turns: Vec<_> = a.tasks.iter().flat_map(|t| &t.turns).collect();
        assert!(turns.iter().all(|t| t.tool_calls == 0), "{turns:?}");
        let scripted = turns.iter().filter(|t| t.scripted).count();
        assert_eq!((scripted, turns.len()), if a.arm == Arm::Full { (3, 5) } else { (6, 8) });
    }
    script.silent = true;
    // Without replay, the same silent model selects nothing: one request per task, no calls.
    let report = run(script, &["x-ci-to-slack", "maps-walk"], false).await;
    for a in &report.arms {
        assert_eq!((a.summary.selection_accuracy, a.summary.turns, a.summary.executed_calls), (0.0, 2, 0));
    }
}
