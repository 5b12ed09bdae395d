//! `toolscout`: the command line. Subcommands only — wiring between the library crates, no logic.

mod human;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use toolscout_bench::{
    BASELINES, EngineRanker, Ranker, baseline as baseline_ranker, calibrate, evaluate, read_queries, scale_corpus,
    show as show_answers, tune,
};
use toolscout_indexer::{
    BuildOptions, Catalog, CatalogFormat, CrawlOptions, Embedder, EmbedderConfig, HostConfig, Pins, Protocol, build,
    crawl, import_catalog,
};
use toolscout_service::{DiscoverParams, Engine, EngineConfig, FusionWeights, RestConfig};

/// Tool discovery for LLM agents: crawl MCP servers, index their tools, serve `discover_tools`.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Crawl the MCP servers of an `mcpServers` config file into a catalog (JSONL).
    Crawl {
        /// Host config: `{"mcpServers": {...}}` (Claude Desktop, Cursor) or `{"servers": {...}}` (VS Code).
        #[arg(long)]
        config: PathBuf,
        /// Catalog to write.
        #[arg(long)]
        out: PathBuf,
        /// Crawl report to write (JSON): every server's outcome.
        #[arg(long)]
        report: Option<PathBuf>,
        /// Seconds one server may take, from start to its last tools/list page.
        #[arg(long, default_value_t = 60)]
        timeout: u64,
        /// Servers crawled at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
        /// Replace `$NAME` in the config's commands, arguments and env (e.g. `MCP_HOME=/opt/mcp` for a
        /// manifest like ../shared/mcp-servers.json); repeatable.
        #[arg(long = "var", value_name = "NAME=VALUE")]
        vars: Vec<String>,
        /// Run every stdio server inside `unshare -n` (loopback-only network namespace; needs root).
        #[arg(long)]
        isolate: bool,
        /// Handshake: `initialize` (≤ 2025-11-25), `discover` (stateless 2026-07-28), or `auto`.
        #[arg(long, default_value = "initialize")]
        protocol: Protocol,
    },
    /// Build (or update) an index from catalog files.
    Index {
        /// Catalog files: toolscout JSONL, LiveMCPBench tools.json, MCP-Zero mcp_tools.jsonl, Docker registry
        /// servers_with_tools.jsonl, or mcp-crawl.json (detected from content).
        #[arg(long, required = true, num_args = 1..)]
        catalog: Vec<PathBuf>,
        /// Force the catalog format instead of detecting it.
        #[arg(long)]
        format: Option<CatalogFormat>,
        /// Index folder (created; a new snapshot replaces the live one atomically).
        #[arg(long)]
        out: PathBuf,
        /// Embed everything again instead of reusing vectors of unchanged documents.
        #[arg(long)]
        full: bool,
        /// Update the existing index: embed only new or changed documents, drop removed tools. This is the
        /// default; the flag says so explicitly (and refuses `--full`).
        #[arg(long, conflicts_with = "full")]
        update: bool,
        /// Tools of servers never seen before start quarantined until approved (`toolscout pins`).
        #[arg(long)]
        quarantine_new_servers: bool,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Search an index from the command line.
    Search {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// Prefer this server (name or id).
        #[arg(long)]
        server: Option<String>,
        /// How many tools at most.
        #[arg(long, default_value_t = 5)]
        limit: usize,
        /// Print the REST response JSON.
        #[arg(long)]
        json: bool,
        /// The capability needed.
        need: String,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Serve the REST API.
    Serve {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// Address to listen on (loopback unless you mean otherwise).
        #[arg(long, env = "TOOLSCOUT_ADDR", default_value = "127.0.0.1:7070")]
        addr: String,
        /// Require `Authorization: Bearer <token>` on every route but /healthz.
        #[arg(long, env = "TOOLSCOUT_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// Searches running at once (more wait up to 2 s, then get 503).
        #[arg(long, default_value_t = 8)]
        max_concurrent_searches: usize,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Evaluate retrieval on a labelled query file (engine and/or baselines, side by side).
    Eval {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// Query file (JSONL: id, query, relevant groups, kind).
        #[arg(long)]
        queries: PathBuf,
        /// Cut-offs for recall/success.
        #[arg(long, value_delimiter = ',', default_value = "1,3,5,10")]
        k: Vec<usize>,
        /// Run a baseline instead of the engine: bm25-flat, dense-flat, mcp-zero, or `all` (engine + every baseline).
        #[arg(long)]
        baseline: Option<String>,
        /// Print every query's ranked answer instead of the metrics.
        #[arg(long)]
        show: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Calibrate the not-found threshold from labelled queries (positive and `none`).
    Calibrate {
        /// INDEX=QUERIES pairs; scores of all sets are pooled.
        #[arg(long = "set", required = true, value_parser = parse_set)]
        sets: Vec<(PathBuf, PathBuf)>,
        /// Largest loss of recall@5 (absolute) the threshold may cost.
        #[arg(long, default_value_t = 0.02)]
        max_recall_drop: f64,
        /// Write calibration.json into these index folders.
        #[arg(long)]
        write: Vec<PathBuf>,
        /// Print the whole result as JSON (with the curve).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Tune the ranking knobs on dev sets (coordinate descent; never on test sets).
    Tune {
        /// INDEX=QUERIES pairs (dev sets).
        #[arg(long = "set", required = true, value_parser = parse_set)]
        sets: Vec<(PathBuf, PathBuf)>,
        /// Rounds of coordinate descent.
        #[arg(long, default_value_t = 2)]
        rounds: usize,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Build the scale-benchmark corpus: catalogs combined, plus derived variants of the `--base`
    /// catalogs' servers up to `--tools` tools (see benches/src/scale.rs for how variants are made).
    ScaleCorpus {
        /// Catalogs copied as they are and never varied (the ones whose queries are evaluated).
        #[arg(long, required = true)]
        keep: Vec<PathBuf>,
        /// Catalogs copied and also varied (distractors).
        #[arg(long, required = true)]
        base: Vec<PathBuf>,
        /// Tools to reach.
        #[arg(long, default_value_t = 100_000)]
        tools: usize,
        /// Catalog JSONL to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// The A/B benchmark: full-schema injection vs discover_tools, against any OpenAI-compatible endpoint.
    Ab {
        /// Base URL of the OpenAI-compatible API (`/chat/completions` is appended).
        #[arg(long, default_value = "http://127.0.0.1:8080/v1")]
        base_url: String,
        /// Model name sent in each request.
        #[arg(long, default_value = "local")]
        model: String,
        /// Bearer token for the endpoint (never written to the report).
        #[arg(long, env = "TOOLSCOUT_AB_API_KEY", hide_env_values = true)]
        api_key: Option<String>,
        /// Seconds one request may take.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
        /// Extra request fields as JSON, e.g. '{"chat_template_kwargs": {"enable_thinking": false}}'.
        #[arg(long)]
        extra_body: Option<String>,
        /// Task file.
        #[arg(long, default_value = "data/ab/tasks.jsonl")]
        tasks: PathBuf,
        /// Catalog both arms use.
        #[arg(long, default_value = "data/catalog/reference-servers.jsonl")]
        catalog: PathBuf,
        /// Leave these servers (server_id) out, e.g. to fit arm A into the model's context.
        #[arg(long)]
        exclude_server: Vec<String>,
        /// Where arm B's index is built.
        #[arg(long, default_value = ".work/ab-index")]
        index_dir: PathBuf,
        /// Arms to run: full (a), discover (b).
        #[arg(long)]
        arm: Vec<toolscout_bench::Arm>,
        /// Only these task ids.
        #[arg(long)]
        only: Vec<String>,
        /// At most this many tasks.
        #[arg(long)]
        limit: Option<usize>,
        /// Requests per task at most.
        #[arg(long, default_value_t = 8)]
        max_turns: usize,
        /// max_tokens of each request.
        #[arg(long, default_value_t = 1024)]
        max_tokens: u32,
        /// Sampling temperature.
        #[arg(long, default_value_t = 0.0)]
        temperature: f32,
        /// Replay the gold steps (for models that cannot call tools: token, cache and time figures are real).
        #[arg(long)]
        replay_gold: bool,
        /// Tools per discover_tools answer when the model asks for no limit.
        #[arg(long)]
        discover_limit: Option<usize>,
        /// Write the report to PATH.json and PATH.md.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        model_args: ModelArgs,
    },
    /// Trust on first use: list pinned and held-back tools, show drift, approve.
    Pins {
        #[command(subcommand)]
        action: PinsAction,
    },
    /// Serve the `discover_tools` MCP tool over stdio (logs go to stderr), or over Streamable HTTP.
    Mcp {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio.
        #[arg(long)]
        http: Option<String>,
        /// Also expose `call_tool`, forwarding calls of delivered tools to the real servers of this host
        /// config (`mcpServers` JSON; started on first use).
        #[arg(long, value_name = "CONFIG")]
        proxy: Option<PathBuf>,
        /// Seconds to start a proxied server or answer one call.
        #[arg(long, default_value_t = 60)]
        call_timeout: u64,
        /// With --http: require `Authorization: Bearer <token>`.
        #[arg(long, env = "TOOLSCOUT_TOKEN", hide_env_values = true)]
        token: Option<String>,
        #[command(flatten)]
        engine: EngineArgs,
    },
}

#[derive(Subcommand)]
enum PinsAction {
    /// Pinned count and the tools held back.
    List {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
    },
    /// Field-by-field drift of a held-back tool (`server_id/tool`).
    Diff {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// `server_id/tool`.
        tool: String,
    },
    /// Approve held-back definitions (a running server picks them up on reload).
    Approve {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// `server_id/tool` keys.
        tools: Vec<String>,
        /// Approve everything held back.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Args, Clone)]
struct ModelArgs {
    /// Embedding model folder (model.onnx + tokenizer files), from scripts/setup-models.sh.
    #[arg(long, env = "TOOLSCOUT_MODEL_DIR", default_value = ".deps/models/all-minilm-l6-v2-int8")]
    model_dir: PathBuf,
    /// ONNX Runtime library (≥ 1.24), from scripts/setup-models.sh.
    #[arg(long, env = "ORT_DYLIB_PATH", default_value = ".deps/libonnxruntime.so")]
    ort_dylib: PathBuf,
    /// ONNX Runtime threads.
    #[arg(long, env = "TOOLSCOUT_THREADS", default_value_t = 2)]
    threads: usize,
}

impl ModelArgs {
    fn embedder(&self) -> Result<Embedder> {
        let mut config = EmbedderConfig::new(&self.model_dir, &self.ort_dylib);
        config.threads = self.threads;
        Embedder::load(&config).context("loading the embedding model")
    }
}

#[derive(Args, Clone)]
struct EngineArgs {
    /// Override the not-found threshold (default: the index's calibration, else built-in).
    #[arg(long, env = "TOOLSCOUT_THRESHOLD", allow_negative_numbers = true)]
    threshold: Option<f32>,
    /// Fusion weights: tool dense, tool BM25, server dense, server BM25, BM25 half-saturation k.
    #[arg(long, value_delimiter = ',', num_args = 5)]
    weights: Option<Vec<f32>>,
    /// Servers whose tools are all scored.
    #[arg(long)]
    top_servers: Option<usize>,
    /// Most tools of one server in an answer (0: no cap).
    #[arg(long)]
    max_per_server: Option<usize>,
    /// Do not split compound requests into intents.
    #[arg(long)]
    single_intent: bool,
    /// Leave out tools whose definitions the description scan flagged.
    #[arg(long, env = "TOOLSCOUT_EXCLUDE_FLAGGED")]
    exclude_flagged: bool,
    #[command(flatten)]
    model: ModelArgs,
}

impl EngineArgs {
    fn open(&self, index: &Path) -> Result<Engine> {
        let embedder = Arc::new(self.model.embedder()?);
        Engine::with_embedder(index, embedder, self.config())
            .with_context(|| format!("opening index {}", index.display()))
    }

    fn config(&self) -> EngineConfig {
        let mut config = EngineConfig { threshold: self.threshold, ..EngineConfig::default() };
        if let Some(w) = &self.weights {
            config.weights = FusionWeights {
                tool_dense: w[0],
                tool_bm25: w[1],
                server_dense: w[2],
                server_bm25: w[3],
                bm25_k: w[4],
            };
        }
        config.top_servers = self.top_servers.unwrap_or(config.top_servers);
        config.max_per_server = self.max_per_server.unwrap_or(config.max_per_server);
        config.multi_intent = !self.single_intent;
        config.exclude_flagged = self.exclude_flagged;
        config
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let default_level = if matches!(cli.command, Command::Mcp { .. }) { "warn" } else { "info" };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
            tracing_subscriber::EnvFilter::new(format!("{default_level},rmcp=warn,hnsw_rs=warn,anndists=warn"))
        }))
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: starting the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli.command)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Crawl { config, out, report, timeout, concurrency, vars, isolate, protocol } => {
            let mut hosts = HostConfig::read(&config).with_context(|| format!("reading {}", config.display()))?;
            for var in &vars {
                let (name, value) = var.split_once('=').with_context(|| format!("--var {var:?} is not NAME=VALUE"))?;
                hosts.expand(name, value);
            }
            if isolate {
                hosts.isolate();
            }
            let options = CrawlOptions {
                timeout: Duration::from_secs(timeout),
                concurrency,
                protocol,
                ..CrawlOptions::default()
            };
            let (catalog, crawl_report) = crawl(&hosts, &options).await;
            write_catalog(&catalog, &out)?;
            if let Some(path) = report {
                let text = serde_json::to_string_pretty(&crawl_report)?;
                std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            }
            eprint!("{}", human::crawl_summary(&crawl_report, &out));
            Ok(if catalog.servers.is_empty() && !hosts.servers.is_empty() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Index { catalog, format, out, full, update: _, quarantine_new_servers, model } => {
            let mut merged = Catalog::default();
            for path in &catalog {
                let (part, warnings) =
                    import_catalog(path, format).with_context(|| format!("importing {}", path.display()))?;
                for w in warnings {
                    tracing::warn!("{w}");
                }
                eprintln!("{}: {} servers, {} tools", path.display(), part.servers.len(), part.tool_count());
                for server in part.servers {
                    merged.push(server);
                }
            }
            let embedder = model.embedder()?;
            let options = BuildOptions { incremental: !full, quarantine_new_servers, ..BuildOptions::default() };
            let manifest =
                tokio::task::spawn_blocking(move || build(&merged, &embedder, &out, &options).map(|m| (m, out)))
                    .await?
                    .context("building the index")?;
            eprintln!("{}", human::index_summary(&manifest.0, &manifest.1));
            Ok(ExitCode::SUCCESS)
        }
        Command::Search { index, server, limit, json, need, engine } => {
            let engine = engine.open(&index)?;
            let params = DiscoverParams { server, limit: Some(limit), ..DiscoverParams::new(need) };
            let answer = engine.search(&params)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&answer)?);
            } else {
                print!("{}", human::answer(&answer));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve { index, addr, token, max_concurrent_searches, engine } => {
            let engine = Arc::new(engine.open(&index)?);
            let listener = tokio::net::TcpListener::bind(&addr).await.with_context(|| format!("binding {addr}"))?;
            let health = engine.health();
            eprintln!(
                "toolscout: serving {} tools of {} servers (snapshot {}) on http://{}",
                health.tools,
                health.servers,
                health.snapshot_id,
                listener.local_addr()?
            );
            #[cfg(unix)]
            {
                let engine = engine.clone();
                if let Ok(mut hup) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) {
                    tokio::spawn(async move {
                        while hup.recv().await.is_some() {
                            let engine = engine.clone();
                            match tokio::task::spawn_blocking(move || engine.reload()).await {
                                Ok(Ok(id)) => tracing::info!("SIGHUP: reloaded snapshot {id}"),
                                Ok(Err(e)) => {
                                    tracing::error!("SIGHUP: reload failed, still serving the old snapshot: {e}")
                                }
                                Err(e) => tracing::error!("SIGHUP: reload task failed: {e}"),
                            }
                        }
                    });
                }
            }
            let config = RestConfig { token, max_concurrent_searches, ..RestConfig::default() };
            toolscout_service::serve_with(listener, engine, config, shutdown_signal()).await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Eval { index, queries, k, baseline, show, json, engine } => {
            let queries = read_queries(&queries).map_err(anyhow::Error::msg)?;
            let engine = Arc::new(engine.open(&index)?);
            let mut rankers: Vec<Box<dyn Ranker>> = Vec::new();
            let names: Vec<&str> = match baseline.as_deref() {
                None => vec!["toolscout"],
                Some("all") => std::iter::once("toolscout").chain(BASELINES).collect(),
                Some(name) => vec![name],
            };
            for name in names {
                rankers.push(if name == "toolscout" {
                    Box::new(EngineRanker::new(engine.clone(), None))
                } else {
                    baseline_ranker(name, &index, engine.embedder().clone()).map_err(anyhow::Error::msg)?
                });
            }
            let mut reports = Vec::new();
            for ranker in &rankers {
                ranker.reset();
                if show {
                    print!(
                        "{}",
                        show_answers(ranker.as_ref(), &queries, k.iter().copied().max().unwrap_or(5))
                            .map_err(anyhow::Error::msg)?
                    );
                    continue;
                }
                let (report, _) = evaluate(ranker.as_ref(), &queries, &k).map_err(anyhow::Error::msg)?;
                reports.push(report);
            }
            if json && reports.len() == 1 {
                println!("{}", serde_json::to_string_pretty(&reports[0])?);
            } else if json {
                println!("{}", serde_json::to_string_pretty(&reports)?);
            } else if !show {
                print!("{}", human::eval_table(&reports, &k));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Calibrate { sets, max_recall_drop, write, json, model } => {
            let embedder = Arc::new(model.embedder()?);
            let mut rankers = Vec::new();
            for (index, queries) in &sets {
                let engine = Engine::with_embedder(index, embedder.clone(), EngineConfig::default())
                    .with_context(|| format!("opening index {}", index.display()))?;
                let queries = read_queries(queries).map_err(anyhow::Error::msg)?;
                rankers.push((EngineRanker::new(Arc::new(engine), None), queries));
            }
            let refs: Vec<(&dyn Ranker, Vec<_>)> = rankers.iter().map(|(r, q)| (r as &dyn Ranker, q.clone())).collect();
            let calibration = calibrate(&refs, max_recall_drop).map_err(anyhow::Error::msg)?;
            let text = serde_json::to_string_pretty(&calibration)?;
            for dir in &write {
                let path = dir.join("calibration.json");
                std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
                eprintln!("wrote {}", path.display());
            }
            if json {
                println!("{text}");
            } else {
                print!("{}", human::calibration(&calibration));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Tune { sets, rounds, engine } => {
            let embedder = Arc::new(engine.model.embedder()?);
            let (mut engines, mut queries) = (Vec::new(), Vec::new());
            for (index, file) in &sets {
                let opened = Engine::with_embedder(index, embedder.clone(), engine.config())
                    .with_context(|| format!("opening index {}", index.display()))?;
                engines.push(Arc::new(opened));
                queries.push(read_queries(file).map_err(anyhow::Error::msg)?);
            }
            let (best, trials) = tune(&engines, &queries, engine.config(), rounds).map_err(anyhow::Error::msg)?;
            for t in &trials {
                eprintln!("{:<22} {:.4}  {:?}", t.change, t.objective, t.per_set);
            }
            println!("{best:#?}");
            Ok(ExitCode::SUCCESS)
        }
        Command::ScaleCorpus { keep, base, tools, out } => {
            let read = |paths: &[PathBuf]| -> Result<Vec<Catalog>> {
                paths
                    .iter()
                    .map(|p| {
                        import_catalog(p, None).map(|(c, _)| c).with_context(|| format!("importing {}", p.display()))
                    })
                    .collect()
            };
            let corpus = scale_corpus(&read(&keep)?, &read(&base)?, tools);
            let file = std::fs::File::create(&out).with_context(|| format!("creating {}", out.display()))?;
            corpus.write_jsonl(std::io::BufWriter::new(file))?;
            eprintln!("{}: {} servers, {} tools", out.display(), corpus.servers.len(), corpus.tool_count());
            Ok(ExitCode::SUCCESS)
        }
        Command::Ab {
            base_url,
            model,
            api_key,
            timeout,
            extra_body,
            tasks,
            catalog,
            exclude_server,
            index_dir,
            arm,
            only,
            limit,
            max_turns,
            max_tokens,
            temperature,
            replay_gold,
            discover_limit,
            out,
            model_args,
        } => {
            let extra_body = match extra_body {
                Some(text) => serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&text)
                    .context("--extra-body must be a JSON object")?,
                None => Default::default(),
            };
            let mut config = toolscout_bench::AbConfig {
                endpoint: toolscout_bench::Endpoint {
                    base_url,
                    model,
                    api_key,
                    timeout: Duration::from_secs(timeout),
                    extra_body,
                },
                tasks,
                catalog,
                exclude_servers: exclude_server,
                index_dir,
                only,
                limit,
                max_turns,
                max_tokens,
                temperature,
                replay_gold,
                discover_limit,
                ..toolscout_bench::AbConfig::default()
            };
            if !arm.is_empty() {
                config.arms = arm;
            }
            let embedder = Arc::new(model_args.embedder()?);
            let report = toolscout_bench::ab::run(&config, embedder).await.map_err(anyhow::Error::msg)?;
            let markdown = report.markdown();
            if let Some(path) = out {
                let json_path = path.with_extension("json");
                std::fs::write(&json_path, serde_json::to_string_pretty(&report)?)
                    .with_context(|| format!("writing {}", json_path.display()))?;
                let md_path = path.with_extension("md");
                std::fs::write(&md_path, &markdown).with_context(|| format!("writing {}", md_path.display()))?;
            }
            print!("{markdown}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Pins { action } => {
            match action {
                PinsAction::List { index } => {
                    let pins = Pins::read(&index)?;
                    println!("{} tools pinned, {} held back", pins.pinned.len(), pins.quarantine.len());
                    for (key, q) in &pins.quarantine {
                        println!("  {key}  ({}, since {})", q.reason, q.since);
                    }
                }
                PinsAction::Diff { index, tool } => {
                    let pins = Pins::read(&index)?;
                    for d in pins.diff(&tool)? {
                        println!("{}:\n  pinned: {}\n  new:    {}", d.field, d.pinned, d.new);
                    }
                }
                PinsAction::Approve { index, tools, all } => {
                    let mut pins = Pins::read(&index)?;
                    let keys: Vec<String> = if all { pins.quarantine.keys().cloned().collect() } else { tools };
                    if keys.is_empty() {
                        bail!("name the tools to approve (server_id/tool) or pass --all");
                    }
                    for key in &keys {
                        pins.approve(key)?;
                    }
                    pins.write(&index)?;
                    eprintln!(
                        "approved {} tool(s); reload a running server (POST /v1/admin/reload or SIGHUP)",
                        keys.len()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Mcp { index, http, proxy, call_timeout, token, engine } => {
            let engine: Arc<dyn toolscout_meta_tool::Backend> = Arc::new(engine.open(&index)?);
            let proxy = match proxy {
                Some(path) => {
                    let hosts = HostConfig::read(&path).with_context(|| format!("reading {}", path.display()))?;
                    Some(Arc::new(toolscout_meta_tool::Proxy::new(hosts, Duration::from_secs(call_timeout))))
                }
                None => None,
            };
            if let Some(addr) = http {
                let listener = tokio::net::TcpListener::bind(&addr).await.with_context(|| format!("binding {addr}"))?;
                eprintln!("toolscout: MCP (Streamable HTTP) on http://{}/mcp", listener.local_addr()?);
                let stop_token = tokio_util::sync::CancellationToken::new();
                let stop = stop_token.clone();
                tokio::spawn(async move {
                    shutdown_signal().await;
                    stop.cancel();
                });
                toolscout_meta_tool::serve_http(engine, proxy, listener, token, stop_token).await?;
                return Ok(ExitCode::SUCCESS);
            }
            if let Err(e) = toolscout_meta_tool::serve_stdio(engine, proxy).await {
                bail!("MCP session ended with an error: {e}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn parse_set(s: &str) -> Result<(PathBuf, PathBuf), String> {
    let (index, queries) = s.split_once('=').ok_or("expected INDEX=QUERIES")?;
    Ok((PathBuf::from(index), PathBuf::from(queries)))
}

fn write_catalog(catalog: &Catalog, out: &Path) -> Result<()> {
    let tmp = out.with_extension("jsonl.tmp");
    let file = std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    catalog.write_jsonl(std::io::BufWriter::new(file)).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, out).with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_update_is_the_incremental_default_and_refuses_full() {
        let base = ["toolscout", "index", "--catalog", "c.jsonl", "--out", "idx"];
        let parse = |extra: &[&str]| Cli::try_parse_from(base.iter().chain(extra));
        assert!(matches!(parse(&["--update"]), Ok(Cli { command: Command::Index { update: true, full: false, .. } })));
        assert!(matches!(parse(&[]), Ok(Cli { command: Command::Index { update: false, full: false, .. } })));
        assert!(parse(&["--update", "--full"]).is_err());
    }
}
