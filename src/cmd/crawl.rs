//! `toolscout crawl`: the MCP servers of a host config into a catalog.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use toolscout_indexer::{
    Catalog, CrawlOptions, HostConfig, Protocol, RegistryOptions, RegistryRead, ServerSource, crawl, keep_last_known,
    parse_registry,
};

use crate::human;

/// Exit status of a crawl where some servers failed and others answered (0 with `--allow-partial`).
const PARTIAL: u8 = 3;

/// Crawl the MCP servers of an `mcpServers` config file into a catalog (JSONL).
#[derive(Args, Debug)]
pub(crate) struct CrawlArgs {
    /// Host config: `{"mcpServers": {...}}` (Claude Desktop, Cursor) or `{"servers": {...}}` (VS Code).
    #[arg(long, required_unless_present = "registry", conflicts_with = "registry")]
    config: Option<PathBuf>,
    /// Official MCP Registry entries instead: a `server.json`, a list page (`GET /v0.1/servers`), a folder
    /// of them, or the list URL (every page is followed). Inactive entries are skipped; entries that
    /// need a value the registry does not give are reported, not guessed.
    #[arg(long, value_name = "FILE_OR_URL")]
    registry: Option<String>,
    /// With --registry: an npm prefix whose installed packages are run when the exact version is there
    /// (otherwise `npx -y package@version`).
    #[arg(long, requires = "registry")]
    npm_prefix: Option<PathBuf>,
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
    let (mut hosts, provenance) = match (&a.config, &a.registry) {
        (Some(config), _) => {
            (HostConfig::read(config).with_context(|| format!("reading {}", config.display()))?, Default::default())
        }
        (None, Some(registry)) => {
            let options = RegistryOptions { npm_prefix: a.npm_prefix.clone() };
            let read = read_registry(registry, &options).await?;
            for (name, why) in &read.skipped {
                eprintln!("registry: skipped {name}: {why}");
            }
            for s in &read.servers {
                if let Err(why) = &s.launch {
                    eprintln!("registry: not crawlable {}: {why}", s.name);
                }
            }
            read.host_config()
        }
        (None, None) => anyhow::bail!("--config or --registry is needed"),
    };
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
    let (mut catalog, mut report) = crawl(&hosts, &options).await;
    for server in &mut catalog.servers {
        if let Some(origin) = provenance.get(&server.name) {
            server.source = ServerSource { kind: "registry".into(), origin: origin.clone() };
        }
    }
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

/// Pages a registry list URL may have before we stop following `nextCursor`.
const MAX_REGISTRY_PAGES: usize = 100;

/// Reads registry entries from a file, a folder of `*.json` files, or a list URL (all pages).
async fn read_registry(source: &str, options: &RegistryOptions) -> Result<RegistryRead> {
    let mut all = RegistryRead::default();
    let mut add = |part: RegistryRead| {
        all.servers.extend(part.servers);
        all.skipped.extend(part.skipped);
    };
    if source.starts_with("http://") || source.starts_with("https://") {
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build()?;
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_REGISTRY_PAGES {
            let url = match &cursor {
                Some(c) => {
                    let encoded: String = c
                        .bytes()
                        .map(|b| match b {
                            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                                (b as char).to_string()
                            }
                            _ => format!("%{b:02X}"),
                        })
                        .collect();
                    format!("{source}{}cursor={encoded}", if source.contains('?') { '&' } else { '?' })
                }
                None => source.to_string(),
            };
            let text = client.get(&url).send().await?.error_for_status()?.text().await?;
            let page = parse_registry(&text, options).with_context(|| format!("reading {source}"))?;
            cursor = page.next_cursor.clone();
            add(page);
            if cursor.is_none() {
                break;
            }
        }
        return Ok(all);
    }
    let path = std::path::Path::new(source);
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("reading {source}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    };
    for file in files {
        let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        add(parse_registry(&text, options).with_context(|| format!("reading {}", file.display()))?);
    }
    Ok(all)
}
