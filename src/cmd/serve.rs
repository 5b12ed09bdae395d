//! `toolscout serve`: the REST API.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use toolscout_service::RestConfig;

use crate::args::{EngineArgs, PolicyArgs, Workload};

/// Serve the REST API.
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
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
    /// Serve the admin routes (reload, pins) without a token (otherwise they need --token).
    #[arg(long)]
    admin_without_token: bool,
    /// A browser origin allowed besides loopback ones (`https://app.example`); repeatable.
    #[arg(long = "allow-origin")]
    allow_origins: Vec<String>,
    #[command(flatten)]
    policy: PolicyArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) async fn run(a: ServeArgs) -> Result<ExitCode> {
    let policy = a.policy.load()?;
    let engine = Arc::new(a.engine.open_with(&a.index, policy.as_ref().map(|(p, _)| p.as_ref()), Workload::Serve)?);
    let listener = tokio::net::TcpListener::bind(&a.addr).await.with_context(|| format!("binding {}", a.addr))?;
    let health = engine.health();
    eprintln!(
        "toolscout: serving {} tools of {} servers (snapshot {}) on http://{}",
        health.tools,
        health.servers,
        health.snapshot_id,
        listener.local_addr()?
    );
    let (policy, profile) = match policy {
        Some((p, name)) => (Some(p), name),
        None => (None, None),
    };
    let config = RestConfig {
        token: a.token,
        max_concurrent_searches: a.max_concurrent_searches,
        admin_without_token: a.admin_without_token,
        allowed_origins: a.allow_origins,
        policy,
        profile,
        ..RestConfig::default()
    };
    toolscout_service::serve_with(listener, engine, config, crate::shutdown_signal()).await?;
    Ok(ExitCode::SUCCESS)
}
