//! A minimal OpenAI Chat Completions client for the A/B harness: one non-streaming request per turn to any
//! compatible server (llama.cpp, Ollama, vLLM), reading the reply, the token usage and the prompt-cache
//! figures each server reports in its own place.
//!
//! Not streamed, so time to first token is not observed: each turn records the request latency, and the
//! server-side prompt-processing time where the server reports it (llama.cpp's `timings.prompt_ms`), which
//! is the time to first token minus network and queueing.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// Where and how to reach the chat endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endpoint {
    /// Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:8080/v1` (`/chat/completions` is appended).
    pub base_url: String,
    /// Model name sent in each request.
    pub model: String,
    /// Bearer token, when the server wants one (never written to the report).
    #[serde(skip)]
    pub api_key: Option<String>,
    /// Limit for one request.
    pub timeout: Duration,
    /// Extra top-level request fields, e.g. `{"chat_template_kwargs": {"enable_thinking": false}}`.
    pub extra_body: Map<String, Value>,
}

impl Default for Endpoint {
    fn default() -> Self {
        Endpoint {
            base_url: "http://127.0.0.1:8080/v1".into(),
            model: "local".into(),
            api_key: None,
            timeout: Duration::from_secs(600),
            extra_body: Map::new(),
        }
    }
}

/// What one request samples, and whether it lets the model call tools.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sampling {
    pub(crate) temperature: f32,
    pub(crate) max_tokens: u32,
    /// `tool_choice`: `auto`, or `none` when the reply must be text (the `tools` still go into the prompt).
    pub(crate) tool_choice: &'static str,
}

/// One tool call the model asked for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ToolCall {
    pub(crate) id: String,
    pub(crate) name: String,
    /// The arguments as sent: normally a JSON object in a string.
    pub(crate) arguments: String,
}

/// Token and timing figures of one response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// `usage.prompt_tokens`.
    pub prompt_tokens: u64,
    /// `usage.completion_tokens`.
    pub completion_tokens: u64,
    /// Prompt tokens served from the server's prefix cache: `usage.prompt_tokens_details.cached_tokens`,
    /// else llama.cpp's `timings.cache_n`; null when the server reports neither.
    pub cached_tokens: Option<u64>,
    /// Server-side prompt-processing time (llama.cpp `timings.prompt_ms`), when reported.
    pub prompt_ms: Option<f64>,
    /// Server-side generation time (llama.cpp `timings.predicted_ms`), when reported.
    pub predicted_ms: Option<f64>,
}

/// One parsed response.
#[derive(Debug, Clone)]
pub(crate) struct Completion {
    pub(crate) content: Option<String>,
    pub(crate) tool_calls: Vec<ToolCall>,
    pub(crate) finish_reason: Option<String>,
    pub(crate) usage: Usage,
    pub(crate) latency: Duration,
}

/// A client bound to one endpoint.
pub(crate) struct ChatClient {
    http: reqwest::Client,
    endpoint: Endpoint,
    url: String,
}

impl ChatClient {
    pub(crate) fn new(endpoint: &Endpoint) -> crate::Result<ChatClient> {
        let http = reqwest::Client::builder()
            .timeout(endpoint.timeout)
            .build()
            .map_err(|e| format!("building the HTTP client: {e}"))?;
        let url = format!("{}/chat/completions", endpoint.base_url.trim_end_matches('/'));
        Ok(ChatClient { http, endpoint: endpoint.clone(), url })
    }

    /// The request body of one turn (also what the benchmark's byte-stability check looks at).
    pub(crate) fn body(&self, tools: &Value, messages: &[Value], sampling: Sampling) -> Value {
        let mut body = json!({
            "model": self.endpoint.model,
            "messages": messages,
            "tools": tools,
            "tool_choice": sampling.tool_choice,
            "temperature": sampling.temperature,
            "max_tokens": sampling.max_tokens,
            "stream": false,
        });
        if let Some(map) = body.as_object_mut() {
            for (k, v) in &self.endpoint.extra_body {
                map.insert(k.clone(), v.clone());
            }
        }
        body
    }

    /// Sends one turn and parses the reply.
    pub(crate) async fn complete(&self, body: &Value) -> crate::Result<Completion> {
        let mut request = self.http.post(&self.url).json(body);
        if let Some(key) = &self.endpoint.api_key {
            request = request.bearer_auth(key);
        }
        let started = Instant::now();
        let response = request.send().await.map_err(|e| format!("POST {}: {e}", self.url))?;
        let status = response.status();
        let text = response.text().await.map_err(|e| format!("reading the reply of {}: {e}", self.url))?;
        let latency = started.elapsed();
        if !status.is_success() {
            return Err(format!("POST {} answered {status}: {}", self.url, cut(&text, 600)));
        }
        let reply: Value = serde_json::from_str(&text)
            .map_err(|e| format!("reply of {} is not JSON ({e}): {}", self.url, cut(&text, 300)))?;
        parse(&reply, latency)
    }
}

/// Parses a Chat Completions reply.
pub(crate) fn parse(reply: &Value, latency: Duration) -> crate::Result<Completion> {
    let choice =
        reply.pointer("/choices/0").ok_or_else(|| format!("reply has no choices: {}", cut(&reply.to_string(), 300)))?;
    let message = choice.get("message").unwrap_or(&Value::Null);
    let content = message.get("content").and_then(Value::as_str).map(str::to_string);
    let mut tool_calls = Vec::new();
    for (i, call) in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let function = call.get("function").unwrap_or(&Value::Null);
        let arguments = match function.get("arguments") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => "{}".into(),
        };
        tool_calls.push(ToolCall {
            id: call.get("id").and_then(Value::as_str).map(str::to_string).unwrap_or_else(|| format!("call_{i}")),
            name: function.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
            arguments,
        });
    }
    let usage = reply.get("usage").unwrap_or(&Value::Null);
    let timings = reply.get("timings").unwrap_or(&Value::Null);
    let cached = usage
        .pointer("/prompt_tokens_details/cached_tokens")
        .and_then(Value::as_u64)
        .or_else(|| timings.get("cache_n").and_then(Value::as_u64));
    Ok(Completion {
        content,
        tool_calls,
        finish_reason: choice.get("finish_reason").and_then(Value::as_str).map(str::to_string),
        usage: Usage {
            prompt_tokens: usage.get("prompt_tokens").and_then(Value::as_u64).unwrap_or(0),
            completion_tokens: usage.get("completion_tokens").and_then(Value::as_u64).unwrap_or(0),
            cached_tokens: cached,
            prompt_ms: timings.get("prompt_ms").and_then(Value::as_f64),
            predicted_ms: timings.get("predicted_ms").and_then(Value::as_f64),
        },
        latency,
    })
}

fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { format!("{}…", s.chars().take(n).collect::<String>()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(reply: Value, cached: Option<u64>, calls: usize) {
        let c = parse(&reply, Duration::ZERO).expect("parse");
        assert_eq!((c.usage.cached_tokens, c.tool_calls.len()), (cached, calls), "{reply}");
    }

    #[test]
    fn reads_cache_figures_where_each_server_puts_them() {
        let msg = json!({"role": "assistant", "content": "hi"});
        // llama.cpp: both places (they agree); vLLM/OpenAI: usage only; Ollama: neither.
        check(
            json!({"choices": [{"message": msg}], "timings": {"cache_n": 7},
                "usage": {"prompt_tokens": 9, "prompt_tokens_details": {"cached_tokens": 7}}}),
            Some(7),
            0,
        );
        check(json!({"choices": [{"message": msg}], "timings": {"cache_n": 5, "prompt_ms": 1.5}}), Some(5), 0);
        check(json!({"choices": [{"message": msg}], "usage": {"prompt_tokens": 9}}), None, 0);
        let calls = json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "x", "arguments": "{\"k\":1}"}},
            {"type": "function", "function": {"name": "y", "arguments": {"k": 2}}}]});
        let c = parse(&json!({"choices": [{"message": calls, "finish_reason": "tool_calls"}]}), Duration::ZERO)
            .expect("parse");
        assert_eq!(c.tool_calls[1].id, "call_1");
        assert_eq!(c.tool_calls[1].arguments, "{\"k\":2}");
        assert!(parse(&json!({"error": "x"}), Duration::ZERO).is_err());
    }
}
