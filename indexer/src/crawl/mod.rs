//! The crawler: the only MCP *client* code in toolscout.
//!
//! For each server of a host config it connects with rmcp (stdio child process or Streamable HTTP),
//! initializes, lists every page of `tools/list`, and records server info and instructions. Every server
//! runs under its own deadline; one that fails is reported (which stage, why) and the crawl goes on.

mod http;
mod last_known;
mod session;
mod stdio;
mod upstream;

pub use last_known::keep_last_known;
pub use upstream::Upstream;

use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::catalog::{Catalog, ServerRecord};
use crate::host_config::{HostConfig, LaunchSpec};

/// How a crawl behaves.
#[derive(Debug, Clone)]
pub struct CrawlOptions {
    /// Deadline for one server, from spawn/connect to the last `tools/list` page. Slow Python servers
    /// need ~30 s to start on a loaded 2-core machine.
    pub timeout: Duration,
    /// How many servers are crawled at once.
    pub concurrency: usize,
    /// Most `tools/list` pages followed before the server is reported as paginating endlessly.
    pub max_pages: usize,
    /// Show a progress bar (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Which protocol generation to speak.
    pub protocol: Protocol,
}

impl Default for CrawlOptions {
    fn default() -> Self {
        CrawlOptions {
            timeout: Duration::from_secs(60),
            concurrency: 2,
            max_pages: 100,
            progress: true,
            protocol: Protocol::Initialize,
        }
    }
}

/// The MCP handshake a crawl uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// The `initialize` handshake (protocol ≤ 2025-11-25), which every server seen in the wild answers.
    #[default]
    Initialize,
    /// The stateless 2026-07-28 revision (`server/discover`, versions and capabilities per request).
    Discover,
    /// `server/discover` first, falling back to `initialize` when the server is a legacy one.
    Auto,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "initialize" => Ok(Protocol::Initialize),
            "discover" => Ok(Protocol::Discover),
            "auto" => Ok(Protocol::Auto),
            other => Err(format!("unknown protocol {other:?} (initialize, discover, auto)")),
        }
    }
}

/// Why one server could not be crawled.
#[derive(Debug, Clone, Serialize)]
pub struct ServerFailure {
    /// The server's name in the config.
    pub server: String,
    /// The stage that failed: `spawn`, `connect`, `initialize`, `tools/list`, or `timeout`.
    pub stage: String,
    /// What went wrong, in words (secrets from the config are masked).
    pub reason: String,
}

/// The result of crawling one server.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CrawlOutcome {
    /// The server answered; its record is in the catalog.
    Ok {
        /// The server's name in the config.
        server: String,
        /// Tools listed.
        tools: usize,
        /// `tools/list` pages followed.
        pages: usize,
        /// Non-protocol lines the server wrote on stdout (skipped).
        stdout_noise: usize,
        /// Things worth knowing that did not stop the crawl.
        warnings: Vec<String>,
        /// Wall time.
        seconds: f64,
    },
    /// The server failed.
    Failed {
        /// What failed and why.
        #[serde(flatten)]
        failure: ServerFailure,
        /// Tools of the server's last known record kept (marked stale) in the catalog, when there was one.
        #[serde(skip_serializing_if = "Option::is_none")]
        kept_stale: Option<usize>,
        /// Wall time until the failure.
        seconds: f64,
    },
}

/// What a whole crawl did, server by server.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CrawlReport {
    /// One entry per configured server, in config order.
    pub servers: Vec<CrawlOutcome>,
}

impl CrawlReport {
    /// Servers that failed.
    pub fn failed(&self) -> usize {
        self.failures().count()
    }

    /// The failures only.
    pub fn failures(&self) -> impl Iterator<Item = &ServerFailure> {
        self.servers.iter().filter_map(|o| match o {
            CrawlOutcome::Failed { failure, .. } => Some(failure),
            CrawlOutcome::Ok { .. } => None,
        })
    }
}

/// Crawls every server of `config`, `options.concurrency` at a time. Never fails as a whole: each server's
/// problem is in the report, and every other server's tools land in the catalog.
pub async fn crawl(config: &HostConfig, options: &CrawlOptions) -> (Catalog, CrawlReport) {
    let bar = if options.progress {
        ProgressBar::with_draw_target(Some(config.servers.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} crawling [{bar:30}] {pos}/{len} {msg}")
            .expect("static template is valid")
            .progress_chars("=> "),
    );
    let limit = Arc::new(tokio::sync::Semaphore::new(options.concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, (name, spec)) in config.servers.iter().cloned().enumerate() {
        let (limit, options, bar) = (limit.clone(), options.clone(), bar.clone());
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await.expect("semaphore is never closed");
            let started = Instant::now();
            let result = crawl_one(&name, &spec, &options).await;
            bar.inc(1);
            bar.set_message(name.clone());
            (index, name, result, started.elapsed().as_secs_f64())
        });
    }
    let mut results = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(r) => results.push(r),
            Err(e) => tracing::error!("crawl task panicked: {e}"),
        }
    }
    bar.finish_and_clear();
    results.sort_by_key(|r| r.0);
    // Scan the definitions against the whole crawl (a description naming other servers' tools counts).
    let crawled: Catalog =
        Catalog { servers: results.iter().filter_map(|r| r.2.as_ref().ok().map(|c| c.record.clone())).collect() };
    let mut findings = crate::scan::scan_catalog(&crawled).into_iter();
    let mut catalog = Catalog::default();
    let mut report = CrawlReport::default();
    for (_, name, result, seconds) in results {
        match result {
            Ok(mut crawled) => {
                let tool_findings = findings.next().unwrap_or_default();
                for (tool, found) in crawled.record.tools.iter().zip(tool_findings) {
                    crawled.warnings.extend(found.into_iter().map(|f| format!("tool {}: {f}", tool.name)));
                }
                report.servers.push(CrawlOutcome::Ok {
                    server: name,
                    tools: crawled.record.tools.len(),
                    pages: crawled.pages,
                    stdout_noise: crawled.stdout_noise,
                    warnings: crawled.warnings,
                    seconds,
                });
                catalog.push(crawled.record);
            }
            Err(failure) => report.servers.push(CrawlOutcome::Failed { failure, kept_stale: None, seconds }),
        }
    }
    (catalog, report)
}

/// Crawls one server under `options.timeout`.
///
/// With [`Protocol::Auto`], rmcp probes with `server/discover` and starts the legacy `initialize` after
/// 10 s without an answer; a server that answers the probe later (a slow start: a model to load on a
/// busy machine, `npx` fetching a package) then fails the handshake with a response to the probe where
/// `initialize`'s was expected. Such a server speaks the new revision, so it is crawled once more (a new
/// process or connection, the same deadline) with [`Protocol::Discover`]; if that fails too, both reasons
/// are reported.
pub async fn crawl_one(name: &str, spec: &LaunchSpec, options: &CrawlOptions) -> Result<CrawledServer, ServerFailure> {
    let first = crawl_with(name, spec, options).await;
    match first {
        Err(f) if options.protocol == Protocol::Auto && f.stage == "initialize" && f.reason.contains(LATE_PROBE) => {
            tracing::debug!(server = name, "server/discover answered late; crawling again with discover only");
            let again = CrawlOptions { protocol: Protocol::Discover, ..options.clone() };
            crawl_with(name, spec, &again).await.map_err(|second| ServerFailure {
                reason: format!("{}; again with server/discover only: {}: {}", f.reason, second.stage, second.reason),
                ..f
            })
        }
        other => other,
    }
}

/// How rmcp reports an answer to the `server/discover` probe that came after it gave up on it
/// (`ClientInitializeError::ConflictInitResponseId`; the probe's id is 0).
const LATE_PROBE: &str = "conflict initialized response id: expected 1, got 0";

async fn crawl_with(name: &str, spec: &LaunchSpec, options: &CrawlOptions) -> Result<CrawledServer, ServerFailure> {
    match spec {
        LaunchSpec::Stdio { .. } => stdio::crawl(name, spec, options).await,
        LaunchSpec::Http { .. } => http::crawl(name, spec, options).await,
    }
}

/// A crawled server record plus what the crawl noticed on the way.
#[derive(Debug, Clone)]
pub struct CrawledServer {
    /// The server and its tools.
    pub record: ServerRecord,
    /// `tools/list` pages followed.
    pub pages: usize,
    /// Non-protocol stdout lines skipped.
    pub stdout_noise: usize,
    /// Things worth knowing that did not stop the crawl.
    pub warnings: Vec<String>,
}

pub(crate) fn failure(server: &str, stage: &str, reason: impl std::fmt::Display) -> ServerFailure {
    ServerFailure {
        server: server.to_string(),
        stage: stage.to_string(),
        reason: without_type_names(&reason.to_string()),
    }
}

/// rmcp's transport errors embed Rust type names (`Transport [rmcp::…<…>] error`); drop them.
fn without_type_names(text: &str) -> String {
    let Some(start) = text.find("Transport [") else { return text.to_string() };
    let open = start + "Transport ".len();
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return format!("{}transport{}", &text[..start], &text[open + i + 1..]);
                }
            }
            _ => {}
        }
    }
    text.to_string()
}

/// Replaces every secret value (env values, header values of 4+ chars) in `text` with `***`.
pub(crate) fn mask_secrets<'a>(text: &str, secrets: impl IntoIterator<Item = &'a String>) -> String {
    let mut out = text.to_string();
    for s in secrets {
        if s.len() >= 4 {
            out = out.replace(s.as_str(), "***");
        }
    }
    out
}
