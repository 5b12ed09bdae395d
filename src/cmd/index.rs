//! `toolscout index`: catalogs into an index folder (a new snapshot, published atomically).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use toolscout_indexer::{
    BuildOptions, Catalog, CatalogFormat, IndexDir, MAX_REMOVED_SHARE, build_owned, import_catalog,
};

use crate::args::{ModelArgs, PolicyArgs, Workload};
use crate::human;

/// Build (or update) an index from catalog files.
#[derive(Args, Debug)]
pub(crate) struct IndexArgs {
    /// Catalog files: toolscout JSONL, LiveMCPBench tools.json, MCP-Zero mcp_tools.jsonl, Docker registry
    /// servers_with_tools.jsonl, or mcp-crawl.json (detected from content).
    #[arg(long, required_unless_present = "rollback", num_args = 1..)]
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
    /// Snapshots kept on disk, the live one included (older ones are pruned after a build).
    #[arg(long, default_value_t = 3)]
    keep: usize,
    /// Let this update remove more than 30% of the live index's tools (refused otherwise: a partial crawl
    /// or a truncated catalog should not silently shrink what agents can find).
    #[arg(long)]
    allow_mass_removal: bool,
    /// Make the snapshot before the live one live again, and build nothing.
    #[arg(long, conflicts_with_all = ["full", "update"])]
    rollback: bool,
    /// A policy file whose `[risk]` overrides the report's per-class counts should apply.
    #[command(flatten)]
    policy: PolicyArgs,
    #[command(flatten)]
    model: ModelArgs,
}

pub(crate) async fn run(a: IndexArgs) -> Result<ExitCode> {
    let dir = IndexDir::new(&a.out);
    if a.rollback {
        let id = dir.rollback().with_context(|| format!("rolling back {}", a.out.display()))?;
        eprintln!(
            "{}: snapshot {id} is live again (reload a running server: POST /v1/admin/reload or SIGHUP)",
            a.out.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    // Both flags mean the same incremental build; `--update` only states it (and clap refuses `--full` with it).
    let incremental = !a.full || a.update;
    let mut merged = Catalog::default();
    for path in &a.catalog {
        tracing::debug!("{}: reading", path.display());
        let (part, warnings) =
            import_catalog(path, a.format).with_context(|| format!("importing {}", path.display()))?;
        for w in warnings {
            tracing::warn!("{w}");
        }
        eprintln!("{}: {} servers, {} tools", path.display(), part.servers.len(), part.tool_count());
        tracing::debug!("{}: read", path.display());
        merged.extend(part.servers);
    }
    // What the tools can do, counted from the catalog in memory (what the snapshot stores, verbatim):
    // reopening a 100K snapshot and parsing every tool object again took longer than the update itself.
    let overrides = a.policy.load()?.map(|(p, _)| p.risk.clone()).unwrap_or_default();
    let risks: Vec<toolscout_service::Risk> = merged
        .servers
        .iter()
        .flat_map(|s| s.tools.iter().map(|t| toolscout_service::classify(&s.server_id, &t.name, &t.tool, &overrides)))
        .collect();
    tracing::debug!("risk classes counted");
    let embedder = a.model.lazy_embedder(Workload::Batch)?;
    let options = BuildOptions {
        incremental,
        quarantine_new_servers: a.quarantine_new_servers,
        keep: a.keep,
        max_removed_share: (!a.allow_mass_removal).then_some(MAX_REMOVED_SHARE),
        ..BuildOptions::default()
    };
    let out = a.out.clone();
    let manifest = tokio::task::spawn_blocking(move || build_owned(merged, embedder.as_ref(), &dir, &options))
        .await?
        .context("building the index")?;
    eprintln!("{}", human::index_summary(&manifest, &out));
    let counts: Vec<String> =
        toolscout_service::count_by_class(&risks).iter().map(|(c, n)| format!("{n} {c}")).collect();
    eprintln!("risk classes: {}", counts.join(", "));
    Ok(ExitCode::SUCCESS)
}
