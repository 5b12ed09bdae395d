//! The A/B benchmark of schema injection against discovery, over any OpenAI-compatible chat endpoint
//! (llama.cpp, Ollama, vLLM: a base URL and a model name).
//!
//! Arm A (full injection) sends every catalog tool's schema in `tools`. Arm B (discovery) sends only
//! `discover_tools` and `call_tool`; discovered schemas arrive at the conversation tail in the library's
//! OpenAI Chat format. Both arms see the same catalog (arm B through an index built from it), the same
//! tasks and the same sampling, run one after the other (so a single-slot prompt cache serves one arm at a
//! time). Tool calls never reach a real service: the harness validates the arguments against the tool's
//! schema and answers a short canned JSON result. The report counts, per task and per arm, tool-selection
//! and key-argument accuracy, argument validity, requests, prompt/completion/cached tokens and times.

mod agent;
mod arms;
mod client;
mod report;
mod stub;
mod tasks;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use toolscout_indexer::{BuildOptions, Catalog, Embedder, IndexDir, build, import_catalog};
use toolscout_service::{Engine, EngineConfig};

pub use arms::Arm;
pub use client::{Endpoint, Usage};
pub use report::{AbReport, ArmReport, ArmSummary, Comparison, TaskResult, TurnRecord};
pub use stub::{CallRecord, Outcome};
pub use tasks::{Gold, Task, key_args_match, read_tasks};

use agent::Agent;
use arms::ToolTable;
use client::{ChatClient, Sampling};

/// What to run and against which endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AbConfig {
    /// The chat endpoint.
    pub endpoint: Endpoint,
    /// Task file (JSON Lines, see [`Task`]).
    pub tasks: PathBuf,
    /// Catalog both arms use (any format `toolscout index` reads).
    pub catalog: PathBuf,
    /// Servers (`server_id`) left out of the catalog, e.g. to fit arm A into a model's context.
    pub exclude_servers: Vec<String>,
    /// Where arm B's index is built (incrementally: cheap when the catalog is unchanged).
    pub index_dir: PathBuf,
    /// Arms to run, in order.
    pub arms: Vec<Arm>,
    /// Only these task ids (all when empty).
    pub only: Vec<String>,
    /// At most this many tasks (after `only`).
    pub limit: Option<usize>,
    /// Requests per task at most.
    pub max_turns: usize,
    /// `max_tokens` of each request.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Replay the gold steps instead of following the model's calls (for models that cannot call tools:
    /// the token, cache and time figures are real, the accuracy is the script's). Requests then carry
    /// `tool_choice: "none"`.
    pub replay_gold: bool,
    /// Tools per `discover_tools` answer when the model asks for no limit (the engine's default otherwise).
    pub discover_limit: Option<usize>,
}

impl Default for AbConfig {
    fn default() -> Self {
        AbConfig {
            endpoint: Endpoint::default(),
            tasks: PathBuf::from("data/ab/tasks.jsonl"),
            catalog: PathBuf::from("data/catalog/reference-servers.jsonl"),
            exclude_servers: Vec::new(),
            index_dir: PathBuf::from(".work/ab-index"),
            arms: vec![Arm::Full, Arm::Discover],
            only: Vec::new(),
            limit: None,
            max_turns: 8,
            max_tokens: 1024,
            temperature: 0.0,
            replay_gold: false,
            discover_limit: None,
        }
    }
}

/// A prepared benchmark: the catalog (as both arms see it), arm B's engine over it, and the tasks.
pub struct AbBench {
    table: ToolTable,
    engine: Arc<Engine>,
    tasks: Vec<Task>,
    excluded: Vec<String>,
}

impl AbBench {
    /// Reads the tasks and the catalog (less `exclude_servers`, and the tasks that need one of them),
    /// builds arm B's index under `index_dir` and opens it, and checks every task against the catalog
    /// ([`AbBench::check`]). CPU-bound.
    pub fn prepare(config: &AbConfig, embedder: Arc<dyn Embedder>) -> crate::Result<AbBench> {
        let excluded = config.exclude_servers.clone();
        let mut tasks = read_tasks(&config.tasks)?;
        tasks.retain(|t| !t.gold.iter().any(|g| excluded.contains(&g.server)));
        let (mut catalog, _warnings): (Catalog, _) =
            import_catalog(&config.catalog, None).map_err(|e| format!("catalog {}: {e}", config.catalog.display()))?;
        catalog.servers.retain(|s| !config.exclude_servers.contains(&s.server_id));
        build(&catalog, embedder.as_ref(), &IndexDir::new(&config.index_dir), &BuildOptions::default())
            .map_err(|e| format!("building the index in {}: {e}", config.index_dir.display()))?;
        let engine = Engine::with_embedder(&config.index_dir, embedder, EngineConfig::default())
            .map_err(|e| format!("opening the index in {}: {e}", config.index_dir.display()))?;
        let bench = AbBench { table: ToolTable::new(&catalog), engine: Arc::new(engine), tasks, excluded };
        bench.check()?;
        Ok(bench)
    }

    /// The tasks.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The engine arm B discovers with.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// Tools in the catalog both arms use.
    pub fn tool_count(&self) -> usize {
        self.table.entries.len()
    }

    /// The `tools` array an arm sends with every request.
    pub fn tools(&self, arm: Arm) -> serde_json::Value {
        self.table.tools(arm)
    }

    /// Checks that every gold tool and alternative is in the catalog (alternatives on excluded servers
    /// aside), and that each gold step replays as a call its schema accepts.
    pub fn check(&self) -> crate::Result<()> {
        let mut problems = Vec::new();
        for task in &self.tasks {
            for gold in &task.gold {
                let Some(entry) = self.table.get(&gold.server, &gold.tool) else {
                    problems.push(format!("{}: {}/{} is not in the catalog", task.id, gold.server, gold.tool));
                    continue;
                };
                for alt in &gold.alternatives {
                    let known = alt
                        .split_once('/')
                        .is_some_and(|(s, t)| self.table.get(s, t).is_some() || self.excluded.iter().any(|x| x == s));
                    if !known {
                        problems.push(format!("{}: alternative {alt} is not in the catalog", task.id));
                    }
                }
                let args = gold.replay_arguments(entry.input_schema());
                if let Err(e) = toolscout_meta_tool::validate(entry.input_schema(), &args) {
                    problems.push(format!("{}: replayed {}/{} is invalid: {e}", task.id, gold.server, gold.tool));
                }
            }
        }
        if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
    }

    /// Runs the selected tasks through each configured arm, one arm after the other.
    pub async fn run(&self, config: &AbConfig) -> crate::Result<AbReport> {
        let client = ChatClient::new(&config.endpoint)?;
        let mut tasks: Vec<&Task> =
            self.tasks.iter().filter(|t| config.only.is_empty() || config.only.contains(&t.id)).collect();
        if let Some(unknown) = config.only.iter().find(|id| !self.tasks.iter().any(|t| &t.id == *id)) {
            return Err(format!("no task {unknown:?} in {}", config.tasks.display()));
        }
        tasks.truncate(config.limit.unwrap_or(usize::MAX));
        let tool_choice = if config.replay_gold { "none" } else { "auto" };
        let sampling = Sampling { temperature: config.temperature, max_tokens: config.max_tokens, tool_choice };
        let mut arms = Vec::new();
        for &arm in &config.arms {
            let tools = self.table.tools(arm);
            let agent = Agent {
                arm,
                client: &client,
                table: &self.table,
                engine: &self.engine,
                tools: &tools,
                sampling,
                max_turns: config.max_turns.max(1),
                replay_gold: config.replay_gold,
                discover_limit: config.discover_limit,
            };
            let started = Instant::now();
            let mut results = Vec::new();
            for task in &tasks {
                let result = agent.run(task).await;
                let turns = result.turns.len();
                tracing::info!(arm = arm.label(), task = %task.id, selected = result.selected, turns, "task done");
                results.push(result);
            }
            let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
            arms.push(ArmReport {
                arm,
                tools_in_prefix: tools.as_array().map_or(0, Vec::len),
                tools_bytes: tools.to_string().len(),
                summary: report::summarize(&results, wall_ms),
                tasks: results,
            });
        }
        let find = |arm: Arm| arms.iter().find(|a| a.arm == arm).map(|a| &a.summary);
        let comparison = find(Arm::Full).zip(find(Arm::Discover)).map(|(a, b)| report::compare(a, b));
        Ok(AbReport {
            base_url: config.endpoint.base_url.clone(),
            model: config.endpoint.model.clone(),
            replay_gold: config.replay_gold,
            servers: self.table.servers,
            tools: self.table.entries.len(),
            max_tokens: config.max_tokens,
            arms,
            comparison,
        })
    }
}

/// Prepares the benchmark (on a blocking thread) and runs it: the whole `toolscout ab` in one call.
pub async fn run(config: &AbConfig, embedder: Arc<dyn Embedder>) -> crate::Result<AbReport> {
    let owned = config.clone();
    let bench = tokio::task::spawn_blocking(move || AbBench::prepare(&owned, embedder))
        .await
        .map_err(|e| format!("preparing the benchmark: {e}"))??;
    bench.run(config).await
}
