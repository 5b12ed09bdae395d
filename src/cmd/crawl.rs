//! `toolscout crawl`: the MCP servers of a host config into a catalog.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use toolscout_indexer::{CrawlOptions, HostConfig, Protocol, crawl};

use crate::human;

/// Crawl the MCP servers of an `mcpServers` config file into a catalog (JSONL).
#[derive(Args, Debug)]
pub(crate) struct CrawlArgs {
    /// Host config: `{"mcpServers": {...}}` (Claude Desktop, Cursor) or `{"servers": {...}}` (VS Code).
    #[arg(long)]
    config: PathBuf,
    /// Catalog to write (replaced atomically; left untouched when no server could be crawled).
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
}

pub(crate) async fn run(a: CrawlArgs) -> Result<ExitCode> {
    let mut hosts = HostConfig::read(&a.config).with_context(|| format!("reading {}", a.config.display()))?;
    for var in &a.vars {
        let (name, value) = var.split_once('=').with_context(|| format!("--var {var:?} is not NAME=VALUE"))?;
        hosts.expand(name, value);
    }
    if a.isolate {
        hosts.isolate();
    }
    let options = CrawlOptions {
        timeout: Duration::from_secs(a.timeout),
        concurrency: a.concurrency,
        protocol: a.protocol,
        ..CrawlOptions::default()
    };
    let (catalog, report) = crawl(&hosts, &options).await;
    let all_failed = catalog.servers.is_empty() && !hosts.servers.is_empty();
    if !all_failed {
        catalog.write_file(&a.out).with_context(|| format!("writing {}", a.out.display()))?;
    }
    if let Some(path) = &a.report {
        let text = serde_json::to_string_pretty(&report)?;
        toolscout_indexer::write_atomic(path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    eprint!("{}", human::crawl_summary(&report, &a.out));
    Ok(if all_failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
