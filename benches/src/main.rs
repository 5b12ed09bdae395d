//! `toolscout-bench`: the benchmarks that are not part of the product — the A/B run against an LLM, the
//! 100K-tool scale corpus, and tuning the ranking knobs on dev sets.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use toolscout_bench::{AbConfig, Arm, Endpoint, scale_corpus, tune};
use toolscout_eval::read_queries;
use toolscout_indexer::{EmbedderConfig, FastEmbedder, import_catalog};
use toolscout_service::{Engine, EngineConfig};

/// toolscout's benchmarks beyond the product.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
    /// Tune the ranking knobs on dev sets (coordinate descent; never on test sets).
    Tune {
        /// INDEX=QUERIES pairs (dev sets).
        #[arg(long = "set", required = true, value_parser = parse_set)]
        sets: Vec<(PathBuf, PathBuf)>,
        /// Rounds of coordinate descent.
        #[arg(long, default_value_t = 2)]
        rounds: usize,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// The A/B benchmark: full-schema injection vs discover_tools, against any OpenAI-compatible endpoint.
    Ab(Box<AbArgs>),
}

#[derive(Args)]
struct AbArgs {
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
    arm: Vec<Arm>,
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
}

#[derive(Args, Clone)]
struct ModelArgs {
    /// Embedding model folder (model.onnx + tokenizer files), from scripts/setup-models.sh.
    #[arg(long, env = "TOOLSCOUT_MODEL_DIR", default_value = ".deps/models/minilm-usem3")]
    model_dir: PathBuf,
    /// ONNX Runtime library (≥ 1.24), from scripts/setup-models.sh.
    #[arg(long, env = "ORT_DYLIB_PATH", default_value = ".deps/libonnxruntime.so")]
    ort_dylib: PathBuf,
}

impl ModelArgs {
    fn embedder(&self) -> Result<Arc<FastEmbedder>> {
        let config = EmbedderConfig::new(&self.model_dir, &self.ort_dylib);
        Ok(Arc::new(FastEmbedder::load(&config).context("loading the embedding model")?))
    }
}

fn parse_set(s: &str) -> Result<(PathBuf, PathBuf), String> {
    let (index, queries) = s.split_once('=').ok_or("expected INDEX=QUERIES")?;
    Ok((PathBuf::from(index), PathBuf::from(queries)))
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,hnsw_rs=warn,anndists=warn")),
        )
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: starting the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(Cli::parse())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::ScaleCorpus { keep, base, tools, out } => {
            let read = |paths: &[PathBuf]| -> Result<Vec<_>> {
                paths
                    .iter()
                    .map(|p| {
                        import_catalog(p, None).map(|(c, _)| c).with_context(|| format!("importing {}", p.display()))
                    })
                    .collect()
            };
            let corpus = scale_corpus(&read(&keep)?, &read(&base)?, tools);
            corpus.write_file(&out).with_context(|| format!("writing {}", out.display()))?;
            eprintln!("{}: {} servers, {} tools", out.display(), corpus.servers.len(), corpus.tool_count());
        }
        Command::Tune { sets, rounds, model } => {
            let embedder = model.embedder()?;
            let (mut engines, mut queries) = (Vec::new(), Vec::new());
            for (index, file) in &sets {
                let opened = Engine::with_embedder(index, embedder.clone(), EngineConfig::default())
                    .with_context(|| format!("opening index {}", index.display()))?;
                engines.push(Arc::new(opened));
                queries.push(read_queries(file)?);
            }
            let (best, trials) =
                tune(&engines, &queries, EngineConfig::default(), rounds).map_err(anyhow::Error::msg)?;
            for t in &trials {
                eprintln!("{:<22} {:.4}  {:?}", t.change, t.objective, t.per_set);
            }
            println!("{best:#?}");
        }
        Command::Ab(a) => {
            let extra_body = match &a.extra_body {
                Some(text) => serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
                    .context("--extra-body must be a JSON object")?,
                None => Default::default(),
            };
            let mut config = AbConfig {
                endpoint: Endpoint {
                    base_url: a.base_url,
                    model: a.model,
                    api_key: a.api_key,
                    timeout: Duration::from_secs(a.timeout),
                    extra_body,
                },
                tasks: a.tasks,
                catalog: a.catalog,
                exclude_servers: a.exclude_server,
                index_dir: a.index_dir,
                only: a.only,
                limit: a.limit,
                max_turns: a.max_turns,
                max_tokens: a.max_tokens,
                temperature: a.temperature,
                replay_gold: a.replay_gold,
                discover_limit: a.discover_limit,
                ..AbConfig::default()
            };
            if !a.arm.is_empty() {
                config.arms = a.arm;
            }
            let report =
                toolscout_bench::ab::run(&config, a.model_args.embedder()?).await.map_err(anyhow::Error::msg)?;
            let markdown = report.markdown();
            if let Some(path) = a.out {
                let json_path = path.with_extension("json");
                std::fs::write(&json_path, serde_json::to_string_pretty(&report)?)
                    .with_context(|| format!("writing {}", json_path.display()))?;
                let md_path = path.with_extension("md");
                std::fs::write(&md_path, &markdown).with_context(|| format!("writing {}", md_path.display()))?;
            }
            print!("{markdown}");
        }
    }
    Ok(())
}
