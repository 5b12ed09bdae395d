//! Options shared by several commands: where the model is, and how the engine ranks.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use toolscout_indexer::{EmbedderConfig, FastEmbedder, LazyEmbedder};
use toolscout_service::{Engine, EngineConfig, Policy};

/// Where the embedding model and ONNX Runtime are: given explicitly, or found where `toolscout setup`
/// installs them (see `toolscout_indexer::locate_model` for the order).
#[derive(Args, Clone, Debug)]
pub(crate) struct ModelArgs {
    /// Embedding model folder (model.onnx + tokenizer files); default: found by `toolscout setup`'s lookup.
    #[arg(long, env = "TOOLSCOUT_MODEL_DIR")]
    pub model_dir: Option<PathBuf>,
    /// ONNX Runtime library (≥ 1.24); default: found by `toolscout setup`'s lookup.
    #[arg(long, env = "ORT_DYLIB_PATH")]
    pub ort_dylib: Option<PathBuf>,
    /// ONNX Runtime threads per model session [default: 1 for `serve` and `mcp --http`, 2 otherwise].
    #[arg(long, env = "TOOLSCOUT_THREADS")]
    pub threads: Option<usize>,
    /// Model sessions (copies of the model): how many texts embed at the same time, across requests and
    /// across the intents of one request [default: 2 for `serve` and `mcp --http`, 1 otherwise].
    #[arg(long, env = "TOOLSCOUT_SESSIONS")]
    pub sessions: Option<usize>,
}

/// What the model will mostly do, which sets the default sessions and threads (measured:
/// `cargo bench -p toolscout-indexer --bench embed`, BENCHMARKS.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Workload {
    /// One caller at a time (index builds, eval, search, stdio MCP): one session using both cores.
    Batch,
    /// Concurrent requests (serve, MCP over HTTP): two single-threaded sessions side by side.
    Serve,
}

impl ModelArgs {
    /// The model folder and runtime library: the explicit ones, else the first installed pair found.
    pub(crate) fn paths(&self) -> Result<(PathBuf, PathBuf)> {
        if let (Some(m), Some(o)) = (&self.model_dir, &self.ort_dylib) {
            return Ok((m.clone(), o.clone()));
        }
        let found = toolscout_indexer::locate_model().map(|c| c.paths());
        match (self.model_dir.clone(), self.ort_dylib.clone(), found) {
            (Some(m), None, Some((_, o))) => Ok((m, o)),
            (None, Some(o), Some((m, _))) => Ok((m, o)),
            (None, None, Some(pair)) => Ok(pair),
            _ => {
                let looked: Vec<String> = toolscout_indexer::model_candidates()
                    .iter()
                    .map(|c| format!("{} ({})", c.dir.display(), c.label))
                    .collect();
                bail!(
                    "no embedding model found (looked in {}): run `toolscout setup`, or pass --model-dir and \
                     --ort-dylib (TOOLSCOUT_MODEL_DIR, ORT_DYLIB_PATH)",
                    looked.join(", ")
                )
            }
        }
    }

    /// Loads the model, set up for `workload` unless threads or sessions are given.
    pub(crate) fn embedder(&self, workload: Workload) -> Result<Arc<FastEmbedder>> {
        Ok(Arc::new(FastEmbedder::load(&self.config(workload)?).context("loading the embedding model")?))
    }

    /// The model, loaded by the first call that needs it (an index update that embeds nothing never does).
    pub(crate) fn lazy_embedder(&self, workload: Workload) -> Result<Arc<LazyEmbedder>> {
        Ok(Arc::new(LazyEmbedder::new(self.config(workload)?).context("reading the embedding model")?))
    }

    fn config(&self, workload: Workload) -> Result<EmbedderConfig> {
        let (model_dir, ort_dylib) = self.paths()?;
        let mut config = EmbedderConfig::new(model_dir, ort_dylib);
        let (sessions, threads) = match workload {
            Workload::Batch => (1, 2),
            Workload::Serve => (2, 1),
        };
        config.threads = self.threads.unwrap_or(threads);
        config.sessions = self.sessions.unwrap_or(sessions);
        Ok(config)
    }
}

/// How the engine ranks and decides.
#[derive(Args, Clone, Debug)]
pub(crate) struct EngineArgs {
    /// Override the decision's request cut: the lowest best-tool confidence (0–1) of a `found` answer
    /// (default: the index's calibration, else the built-in one).
    #[arg(long, env = "TOOLSCOUT_THRESHOLD")]
    pub threshold: Option<f32>,
    /// A fusion weight, `NAME=VALUE` (tool_dense, tool_bm25, server_dense, server_bm25, bm25_k); repeatable.
    #[arg(long = "weight", value_name = "NAME=VALUE")]
    pub weights: Vec<String>,
    /// Servers whose tools are all scored.
    #[arg(long)]
    pub top_servers: Option<usize>,
    /// Most tools of one server in an answer (0: no cap).
    #[arg(long)]
    pub max_per_server: Option<usize>,
    /// How strong another server's tool must be, as a share of the capped tool's confidence, to take its
    /// place (0: the cap always applies; 1: only an equal takes it).
    #[arg(long)]
    pub cap_yield: Option<f32>,
    /// Do not split compound requests into intents.
    #[arg(long)]
    pub single_intent: bool,
    /// Order answers by fused score instead of the decision's probability (to measure what the learned
    /// order adds).
    #[arg(long)]
    pub order_by_fused: bool,
    /// Leave out tools whose definitions the description scan flagged.
    #[arg(long, env = "TOOLSCOUT_EXCLUDE_FLAGGED")]
    pub exclude_flagged: bool,
    /// Answer mirror servers' tools separately instead of as their group's first (to measure the collapse).
    #[arg(long)]
    pub no_collapse_mirrors: bool,
    /// Do not also search a request with quoted text without it (to measure that pass).
    #[arg(long)]
    pub no_unquoted_pass: bool,
    /// Embed each intent of a compound request on its own instead of reading it in the context of the
    /// whole request (to measure that).
    #[arg(long)]
    pub intents_alone: bool,
    /// Turn the guard off (to measure it): deliver another service's tool for a request that acts on a
    /// named one, or a tool that does something else for an irreversible request (delete, cancel, revert,
    /// pay, refund).
    #[arg(long)]
    pub no_guard: bool,
    /// Not found when the best tool the guard leaves has less than this share of the confidence of the
    /// best tool it bars (0: off, to measure it; default 0.7).
    #[arg(long)]
    pub overshadow: Option<f32>,
    #[command(flatten)]
    pub model: ModelArgs,
}

impl EngineArgs {
    /// Loads the model and opens the index.
    pub(crate) fn open(&self, index: &Path) -> Result<Engine> {
        self.open_with(index, None, Workload::Batch)
    }

    /// Opens the index with the risk overrides of `policy`, the model set up for `workload`.
    pub(crate) fn open_with(&self, index: &Path, policy: Option<&Policy>, workload: Workload) -> Result<Engine> {
        let mut config = self.config()?;
        if let Some(p) = policy {
            config.risk_overrides = p.risk.clone();
        }
        let embedder = self.model.embedder(workload)?;
        Engine::with_embedder(index, embedder, config).with_context(|| format!("opening index {}", index.display()))
    }

    /// The engine configuration these options describe.
    pub(crate) fn config(&self) -> Result<EngineConfig> {
        let mut config = EngineConfig { request_cut: self.threshold, ..EngineConfig::default() };
        for w in &self.weights {
            let (name, value) = w.split_once('=').with_context(|| format!("--weight {w:?} is not NAME=VALUE"))?;
            let value: f32 = value.trim().parse().with_context(|| format!("--weight {w:?}: not a number"))?;
            let slot = match name.trim() {
                "tool_dense" => &mut config.weights.tool_dense,
                "tool_bm25" => &mut config.weights.tool_bm25,
                "server_dense" => &mut config.weights.server_dense,
                "server_bm25" => &mut config.weights.server_bm25,
                "bm25_k" => &mut config.weights.bm25_k,
                other => bail!(
                    "--weight: unknown weight {other:?} (tool_dense, tool_bm25, server_dense, server_bm25, bm25_k)"
                ),
            };
            *slot = value;
        }
        config.top_servers = self.top_servers.unwrap_or(config.top_servers);
        config.max_per_server = self.max_per_server.unwrap_or(config.max_per_server);
        if let Some(y) = self.cap_yield {
            if !(0.0..=1.0).contains(&y) {
                bail!("--cap-yield must be between 0 and 1, got {y}");
            }
            config.cap_yield = y;
        }
        config.multi_intent = !self.single_intent;
        config.exclude_flagged = self.exclude_flagged;
        config.order_by_fused = self.order_by_fused;
        config.collapse_mirrors = !self.no_collapse_mirrors;
        config.unquoted_pass = !self.no_unquoted_pass;
        config.intents_in_context = !self.intents_alone;
        config.guard = !self.no_guard;
        if let Some(o) = self.overshadow {
            if !(0.0..=1.0).contains(&o) {
                bail!("--overshadow must be between 0 and 1, got {o}");
            }
            config.overshadow = o;
        }
        Ok(config)
    }
}

/// `INDEX=QUERIES`.
pub(crate) fn parse_set(s: &str) -> Result<(PathBuf, PathBuf), String> {
    let (index, queries) = s.split_once('=').ok_or("expected INDEX=QUERIES")?;
    Ok((PathBuf::from(index), PathBuf::from(queries)))
}

/// A policy file and the profile to act as.
#[derive(Args, Clone, Debug)]
pub(crate) struct PolicyArgs {
    /// Policy file (TOML, `[profiles.NAME]` tables; see README): what callers may see and call.
    #[arg(long, env = "TOOLSCOUT_POLICY")]
    pub policy: Option<PathBuf>,
    /// The policy profile to act as.
    #[arg(long, env = "TOOLSCOUT_PROFILE", requires = "policy")]
    pub profile: Option<String>,
}

impl PolicyArgs {
    /// The policy, read and checked, with the profile (checked to exist) when one is named.
    pub(crate) fn load(&self) -> Result<Option<(Arc<Policy>, Option<String>)>> {
        let Some(path) = &self.policy else { return Ok(None) };
        let policy = Policy::load(path).map_err(anyhow::Error::msg)?;
        if let Some(name) = &self.profile {
            policy.profile(name).map_err(anyhow::Error::msg)?;
        }
        Ok(Some((Arc::new(policy), self.profile.clone())))
    }
}
