//! What an A/B run measured: per turn, per task and per arm, and the comparison of the arms, as JSON
//! ([`AbReport`]) and as markdown tables ([`AbReport::markdown`]).

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::arms::{Arm, ToolTable};
use super::client::Usage;
use super::stub::CallRecord;
use super::tasks::{Task, key_args_match};

/// One request to the chat endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Token and timing figures the server reported.
    #[serde(flatten)]
    pub usage: Usage,
    /// Client-side request latency (the whole non-streamed reply; time to first token is not observed).
    pub latency_ms: f64,
    /// `finish_reason` of the reply.
    pub finish_reason: Option<String>,
    /// Tool calls in the reply.
    pub tool_calls: usize,
    /// Whether the harness replaced the reply by the scripted gold step (replay mode).
    pub scripted: bool,
}

/// One task in one arm.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// Task id.
    pub id: String,
    /// Task domain.
    pub domain: String,
    /// Requests sent, in order.
    pub turns: Vec<TurnRecord>,
    /// Tool calls answered, in order.
    pub calls: Vec<CallRecord>,
    /// Gold tools (or an alternative) that a call executed, of [`TaskResult::gold_total`].
    pub gold_selected: usize,
    /// Gold tools of the task.
    pub gold_total: usize,
    /// Every gold tool was executed.
    pub selected: bool,
    /// Every gold tool was executed at least once with the gold key arguments.
    pub key_args: bool,
    /// Arm B: gold tools (or alternatives) that `discover_tools` delivered.
    pub gold_delivered: usize,
    /// Executed catalog-tool calls whose arguments validated against the schema.
    pub valid_calls: usize,
    /// Executed catalog-tool calls.
    pub executed_calls: usize,
    /// Executed calls of tools that serve none of the task's needs.
    pub other_calls: usize,
    /// The final reply text (cut), when the model gave one.
    pub final_text: Option<String>,
    /// What stopped the task early (a failed request, the turn limit).
    pub error: Option<String>,
    /// Wall time of the task.
    pub wall_ms: f64,
}

impl TaskResult {
    /// Scores the calls of a finished task against its gold.
    pub(crate) fn score(&mut self, task: &Task, table: &ToolTable) {
        self.gold_total = task.gold.len();
        let executed: Vec<&CallRecord> = self.calls.iter().filter(|c| c.executed()).collect();
        self.executed_calls = executed.len();
        self.valid_calls = executed.iter().filter(|c| c.outcome == super::stub::Outcome::Ok).count();
        let on = |g: &super::tasks::Gold, c: &CallRecord| {
            g.accepts(c.server.as_deref().unwrap_or_default(), c.tool.as_deref().unwrap_or_default())
        };
        self.gold_selected = task.gold.iter().filter(|g| executed.iter().any(|c| on(g, c))).count();
        self.selected = self.gold_selected == self.gold_total;
        self.key_args = task.gold.iter().all(|g| {
            executed.iter().filter(|c| on(g, c)).any(|c| {
                let schema = table
                    .get(c.server.as_deref().unwrap_or_default(), c.tool.as_deref().unwrap_or_default())
                    .and_then(|e| e.input_schema());
                c.arguments.as_object().is_some_and(|a| key_args_match(&g.args, a, schema))
            })
        });
        self.other_calls = executed.iter().filter(|c| !task.gold.iter().any(|g| on(g, c))).count();
        self.gold_delivered = task
            .gold
            .iter()
            .filter(|g| {
                self.calls
                    .iter()
                    .flat_map(|c| &c.delivered)
                    .any(|d| d.split_once('/').is_some_and(|(s, t)| g.accepts(s, t)))
            })
            .count();
    }
}

/// Totals of one arm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmSummary {
    /// Tasks run.
    pub tasks: usize,
    /// Share of tasks whose every gold tool was executed.
    pub selection_accuracy: f64,
    /// Share of tasks whose every gold tool was executed with the gold key arguments.
    pub key_args_accuracy: f64,
    /// Share of executed catalog-tool calls whose arguments validated (null when none ran).
    pub argument_validity: Option<f64>,
    /// Executed catalog-tool calls.
    pub executed_calls: usize,
    /// Arm B: share of gold tools that discovery delivered.
    pub gold_delivered_share: Option<f64>,
    /// Tasks stopped by an error or the turn limit.
    pub errors: usize,
    /// Requests sent.
    pub turns: usize,
    /// Mean requests per task.
    pub turns_per_task: f64,
    /// Prompt tokens over all requests.
    pub prompt_tokens: u64,
    /// Completion tokens over all requests.
    pub completion_tokens: u64,
    /// Prompt + completion tokens.
    pub total_tokens: u64,
    /// Mean prompt tokens of a task's first request.
    pub first_turn_prompt_tokens: f64,
    /// Mean prompt tokens per request.
    pub prompt_tokens_per_turn: f64,
    /// Cached prompt tokens reported by the server (null when it reports none).
    pub cached_tokens: Option<u64>,
    /// Prompt tokens the server had to process: prompt minus cached.
    pub uncached_prompt_tokens: Option<u64>,
    /// Cached share of the prompt tokens of every request after the arm's first.
    pub cached_share_after_first: Option<f64>,
    /// Within a task, turn n ≥ 2: cached tokens over the previous request's prompt tokens, i.e. how much of
    /// what was already sent the cache served (1.0: the conversation so far was never re-processed).
    pub continuation_reuse: Option<f64>,
    /// Mean client-side request latency.
    pub latency_ms_mean: f64,
    /// Server-side prompt processing over all requests (llama.cpp `timings.prompt_ms`).
    pub prompt_ms: Option<f64>,
    /// Wall time of the arm.
    pub wall_ms: f64,
}

/// One arm of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmReport {
    /// Which arm.
    pub arm: Arm,
    /// Tools in the request's `tools` array.
    pub tools_in_prefix: usize,
    /// Bytes of that `tools` array as JSON.
    pub tools_bytes: usize,
    /// Totals.
    pub summary: ArmSummary,
    /// Per task.
    pub tasks: Vec<TaskResult>,
}

/// Arm B against arm A.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// B's prompt tokens over A's, all requests.
    pub prompt_tokens_ratio: f64,
    /// B's mean first-request prompt tokens over A's (the prefix each task starts with).
    pub first_turn_prompt_ratio: f64,
    /// B's uncached prompt tokens over A's (null without cache figures).
    pub uncached_prompt_ratio: Option<f64>,
    /// Target: B's prompt tokens ≤ 5% of A's (on all requests).
    pub target_prompt_share_met: bool,
    /// Target: ≥ 95% of B's prompt tokens after its first request came from the cache.
    pub target_cached_share_met: Option<bool>,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AbReport {
    /// Chat endpoint base URL.
    pub base_url: String,
    /// Model name.
    pub model: String,
    /// Whether the gold steps were replayed instead of following the model's calls.
    pub replay_gold: bool,
    /// Servers in the catalog used by both arms.
    pub servers: usize,
    /// Tools in that catalog.
    pub tools: usize,
    /// `max_tokens` of each request.
    pub max_tokens: u32,
    /// The arms, in the order they ran.
    pub arms: Vec<ArmReport>,
    /// B against A, when both ran.
    pub comparison: Option<Comparison>,
}

pub(crate) fn summarize(tasks: &[TaskResult], wall_ms: f64) -> ArmSummary {
    let n = tasks.len().max(1) as f64;
    let turns: Vec<&TurnRecord> = tasks.iter().flat_map(|t| &t.turns).collect();
    let prompt: u64 = turns.iter().map(|t| t.usage.prompt_tokens).sum();
    let completion: u64 = turns.iter().map(|t| t.usage.completion_tokens).sum();
    let any_cache = turns.iter().any(|t| t.usage.cached_tokens.is_some());
    let cached: u64 = turns.iter().filter_map(|t| t.usage.cached_tokens).sum();
    let after_first = &turns[turns.len().min(1)..];
    let after_prompt: u64 = after_first.iter().map(|t| t.usage.prompt_tokens).sum();
    let after_cached: u64 = after_first.iter().filter_map(|t| t.usage.cached_tokens).sum();
    let (mut reuse_num, mut reuse_den) = (0u64, 0u64);
    for t in tasks {
        for w in t.turns.windows(2) {
            reuse_num += w[1].usage.cached_tokens.unwrap_or(0).min(w[0].usage.prompt_tokens);
            reuse_den += w[0].usage.prompt_tokens;
        }
    }
    let executed: usize = tasks.iter().map(|t| t.executed_calls).sum();
    let valid: usize = tasks.iter().map(|t| t.valid_calls).sum();
    let delivered: usize = tasks.iter().map(|t| t.gold_delivered).sum();
    let gold: usize = tasks.iter().map(|t| t.gold_total).sum();
    let prompt_ms: Vec<f64> = turns.iter().filter_map(|t| t.usage.prompt_ms).collect();
    ArmSummary {
        tasks: tasks.len(),
        selection_accuracy: tasks.iter().filter(|t| t.selected).count() as f64 / n,
        key_args_accuracy: tasks.iter().filter(|t| t.key_args).count() as f64 / n,
        argument_validity: (executed > 0).then(|| valid as f64 / executed as f64),
        executed_calls: executed,
        gold_delivered_share: (delivered > 0 || tasks.iter().any(|t| t.calls.iter().any(|c| c.need.is_some())))
            .then(|| delivered as f64 / gold.max(1) as f64),
        errors: tasks.iter().filter(|t| t.error.is_some()).count(),
        turns: turns.len(),
        turns_per_task: turns.len() as f64 / n,
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        first_turn_prompt_tokens: tasks
            .iter()
            .filter_map(|t| t.turns.first())
            .map(|t| t.usage.prompt_tokens)
            .sum::<u64>() as f64
            / n,
        prompt_tokens_per_turn: prompt as f64 / turns.len().max(1) as f64,
        cached_tokens: any_cache.then_some(cached),
        uncached_prompt_tokens: any_cache.then(|| prompt.saturating_sub(cached)),
        cached_share_after_first: (any_cache && after_prompt > 0).then(|| after_cached as f64 / after_prompt as f64),
        continuation_reuse: (any_cache && reuse_den > 0).then(|| reuse_num as f64 / reuse_den as f64),
        latency_ms_mean: turns.iter().map(|t| t.latency_ms).sum::<f64>() / turns.len().max(1) as f64,
        prompt_ms: (!prompt_ms.is_empty()).then(|| prompt_ms.iter().sum()),
        wall_ms,
    }
}

pub(crate) fn compare(a: &ArmSummary, b: &ArmSummary) -> Comparison {
    let ratio = |x: f64, y: f64| if y > 0.0 { x / y } else { f64::NAN };
    let prompt_tokens_ratio = ratio(b.prompt_tokens as f64, a.prompt_tokens as f64);
    Comparison {
        prompt_tokens_ratio,
        first_turn_prompt_ratio: ratio(b.first_turn_prompt_tokens, a.first_turn_prompt_tokens),
        uncached_prompt_ratio: a
            .uncached_prompt_tokens
            .zip(b.uncached_prompt_tokens)
            .map(|(ua, ub)| ratio(ub as f64, ua as f64)),
        target_prompt_share_met: prompt_tokens_ratio <= 0.05,
        target_cached_share_met: b.cached_share_after_first.map(|s| s >= 0.95),
    }
}

impl AbReport {
    /// The report as markdown: the arms side by side, the comparison, then one row per task and arm.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "A/B run: model `{}` at `{}`, {} tools from {} servers, max_tokens {}{}.\n",
            self.model,
            self.base_url,
            self.tools,
            self.servers,
            self.max_tokens,
            if self.replay_gold {
                ", gold steps replayed (accuracy columns describe the script, not the model)"
            } else {
                ""
            }
        );
        let _ = write!(out, "| metric |");
        for a in &self.arms {
            let _ = write!(out, " {} |", a.arm.label());
        }
        let _ = write!(out, "\n|---|");
        for _ in &self.arms {
            let _ = write!(out, "---:|");
        }
        out.push('\n');
        let columns: Vec<Vec<String>> = self.arms.iter().map(cells).collect();
        for (i, name) in ROWS.iter().enumerate() {
            let _ = write!(out, "| {name} |");
            for column in &columns {
                let _ = write!(out, " {} |", column[i]);
            }
            out.push('\n');
        }
        if let Some(c) = &self.comparison {
            let _ = writeln!(
                out,
                "\nB/A prompt tokens: {} of all requests (target ≤ 5%: {}), {} of a task's first request, {} of uncached.",
                pct(c.prompt_tokens_ratio),
                if c.target_prompt_share_met { "met" } else { "not met" },
                pct(c.first_turn_prompt_ratio),
                c.uncached_prompt_ratio.map(pct).unwrap_or("–".into()),
            );
            let _ = writeln!(
                out,
                "B's cached share after its first request: target ≥ 95%: {}.",
                match c.target_cached_share_met {
                    Some(true) => "met",
                    Some(false) => "not met",
                    None => "no cache figures",
                }
            );
        }
        let _ = writeln!(
            out,
            "\n| task | domain | arm | selected | key args | valid/calls | requests | prompt tokens per request | cached per request | total tokens | latency s | note |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---:|---|---|---:|---:|---|");
        for a in &self.arms {
            for t in &a.tasks {
                let prompts: Vec<String> = t.turns.iter().map(|u| u.usage.prompt_tokens.to_string()).collect();
                let cached: Vec<String> = t.turns.iter().map(|u| opt(u.usage.cached_tokens)).collect();
                let total: u64 = t.turns.iter().map(|u| u.usage.prompt_tokens + u.usage.completion_tokens).sum();
                let latency: f64 = t.turns.iter().map(|u| u.latency_ms).sum::<f64>() / 1000.0;
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {}/{} | {} | {}/{} | {} | {} | {} | {} | {:.1} | {} |",
                    t.id,
                    t.domain,
                    a.arm.label(),
                    t.gold_selected,
                    t.gold_total,
                    if t.key_args { "yes" } else { "no" },
                    t.valid_calls,
                    t.executed_calls,
                    t.turns.len(),
                    prompts.join(" / "),
                    cached.join(" / "),
                    total,
                    latency,
                    t.error
                        .as_deref()
                        .map(|e| e.chars().take(80).collect::<String>().replace('|', "\\|"))
                        .unwrap_or_default(),
                );
            }
        }
        out
    }
}

/// The rows of the arms table; [`cells`] gives one arm's values in this order.
const ROWS: [&str; 20] = [
    "tools in `tools` (JSON bytes)",
    "tasks",
    "tool-selection accuracy",
    "key-argument accuracy",
    "argument validity (calls)",
    "gold delivered by discovery",
    "tasks stopped early",
    "requests (per task)",
    "prompt tokens, first request of a task (mean)",
    "prompt tokens per request (mean)",
    "prompt tokens (total)",
    "completion tokens (total)",
    "total tokens",
    "cached prompt tokens (server)",
    "uncached prompt tokens",
    "cached share after the first request",
    "continuation reuse (turn n from n−1)",
    "server prompt processing, s",
    "request latency, mean s (not streamed: no TTFT)",
    "wall time, s",
];

fn cells(a: &ArmReport) -> Vec<String> {
    let s = &a.summary;
    let share = |x: Option<f64>| x.map(pct).unwrap_or("–".into());
    vec![
        format!("{} ({})", a.tools_in_prefix, a.tools_bytes),
        s.tasks.to_string(),
        pct(s.selection_accuracy),
        pct(s.key_args_accuracy),
        format!("{} ({})", share(s.argument_validity), s.executed_calls),
        share(s.gold_delivered_share),
        s.errors.to_string(),
        format!("{} ({:.1})", s.turns, s.turns_per_task),
        format!("{:.0}", s.first_turn_prompt_tokens),
        format!("{:.0}", s.prompt_tokens_per_turn),
        s.prompt_tokens.to_string(),
        s.completion_tokens.to_string(),
        s.total_tokens.to_string(),
        opt(s.cached_tokens),
        opt(s.uncached_prompt_tokens),
        share(s.cached_share_after_first),
        share(s.continuation_reuse),
        s.prompt_ms.map(|m| format!("{:.1}", m / 1000.0)).unwrap_or("–".into()),
        format!("{:.2}", s.latency_ms_mean / 1000.0),
        format!("{:.1}", s.wall_ms / 1000.0),
    ]
}

fn pct(x: f64) -> String {
    if x.is_finite() { format!("{:.1}%", x * 100.0) } else { "–".into() }
}

fn opt(x: Option<u64>) -> String {
    x.map(|v| v.to_string()).unwrap_or("–".into())
}
