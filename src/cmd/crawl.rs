//! `toolscout crawl`: the MCP servers of a host config into a catalog.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use toolscout_indexer::{Catalog, CrawlOptions, HostConfig, Protocol, crawl, keep_last_known};

use crate::human;

/// Exit status of a crawl where some servers failed and others answered (0 with `--allow-partial`).
const PARTIAL: u8 = 3;

/// Crawl the MCP servers of an `mcpServers` config file into a catalog (JSONL).
#[derive(Args, Debug)]
pub(crate) struct CrawlArgs {
    /// Host config: `{"mcpServers": {...}}` (Claude Desktop, Cursor) or `{"servers": {...}}` (VS Code).
    #[arg(long)]
    config: PathBuf,
    /// Catalog to write (replaced atomically; left untouched when no server could be crawled). A server
    /// that fails but is in the catalog already keeps its last known tools there, marked stale.
    #[arg(long)]
    out: PathBuf,
    /// Drop failed servers from the catalog instead of keeping their last known tools.
    #[arg(long)]
    prune_stale: bool,
    /// Exit 0 when some (not all) servers failed; the default exit status for a partial crawl is 3.
    #[arg(long)]
    allow_partial: bool,
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
    let (catalog, mut report) = crawl(&hosts, &options).await;
    let failed = report.failed();
    let all_failed = failed > 0 && failed == report.servers.len();
    if !all_failed {
        let previous = if a.out.exists() {
            let file = std::fs::File::open(&a.out).with_context(|| format!("opening {}", a.out.display()))?;
            Catalog::read_jsonl(std::io::BufReader::new(file), &a.out.display().to_string()).with_context(|| {
                format!(
                    "{} exists but is not a toolscout catalog (it is read to keep failed servers' last known \
                     tools); move it away or choose another --out",
                    a.out.display()
                )
            })?
        } else {
            Catalog::default()
        };
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let catalog = keep_last_known(catalog, &mut report, &previous, a.prune_stale, &now);
        catalog.write_file(&a.out).with_context(|| format!("writing {}", a.out.display()))?;
    }
    if let Some(path) = &a.report {
        let text = serde_json::to_string_pretty(&report)?;
        toolscout_indexer::write_atomic(path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    eprint!("{}", human::crawl_summary(&report, &a.out));
    Ok(match failed {
        0 => ExitCode::SUCCESS,
        _ if all_failed => {
            eprintln!("every server failed: {} left untouched", a.out.display());
            ExitCode::FAILURE
        }
        _ if a.allow_partial => ExitCode::SUCCESS,
        _ => ExitCode::from(PARTIAL),
    })
}
