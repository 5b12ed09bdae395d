//! `toolscout mcp`: the `discover_tools` MCP server, over stdio or Streamable HTTP.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use toolscout_indexer::HostConfig;
use toolscout_meta_tool::{Access, Backend, Opening, Proxy};

use crate::args::{EngineArgs, PolicyArgs, Workload};

/// Serve the `discover_tools` MCP tool over stdio (logs go to stderr), or over Streamable HTTP.
#[derive(Args, Debug)]
pub(crate) struct McpArgs {
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
    /// With --http: a browser origin allowed besides loopback ones; repeatable.
    #[arg(long = "allow-origin")]
    allow_origins: Vec<String>,
    #[command(flatten)]
    policy: PolicyArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) async fn run(a: McpArgs) -> Result<ExitCode> {
    let policy = a.policy.load()?;
    // Over HTTP many sessions query at once; over stdio one host asks one thing at a time, and a second
    // model session (~95 MiB) would buy little.
    let workload = if a.http.is_some() { Workload::Serve } else { Workload::Batch };
    // What can be checked at once is, so a mistyped option or folder still stops the command here; the
    // model and the index then load while the host's handshake is answered (`Opening`).
    a.engine.config()?;
    a.engine.model.paths()?;
    if !a.index.is_dir() {
        bail!("index folder {} does not exist: build one with `toolscout index`", a.index.display());
    }
    let engine: Arc<dyn Backend> = {
        let (args, index, risk) = (a.engine.clone(), a.index.clone(), policy.as_ref().map(|(p, _)| p.clone()));
        Arc::new(Opening::start(move || {
            let engine = args.open_with(&index, risk.as_deref(), workload).map_err(|e| format!("{e:#}"))?;
            Ok(Arc::new(engine) as Arc<dyn Backend>)
        })?)
    };
    let access = match &policy {
        Some((p, name)) => {
            let name = name.clone().or_else(|| p.default_profile.clone()).ok_or_else(|| {
                anyhow::anyhow!("--policy needs --profile NAME for an MCP session (the policy has no default_profile)")
            })?;
            Arc::new(Access::from_policy(p, &name).map_err(anyhow::Error::msg)?)
        }
        None => Arc::new(Access::open()),
    };
    let proxy = match &a.proxy {
        Some(path) => {
            let hosts = HostConfig::read(path).with_context(|| format!("reading {}", path.display()))?;
            Some(Arc::new(Proxy::new(hosts, Duration::from_secs(a.call_timeout))))
        }
        None => None,
    };
    if let Some(addr) = &a.http {
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("binding {addr}"))?;
        eprintln!("toolscout: MCP (Streamable HTTP) on http://{}/mcp", listener.local_addr()?);
        let stop = tokio_util::sync::CancellationToken::new();
        let on_signal = stop.clone();
        tokio::spawn(async move {
            crate::shutdown_signal().await;
            on_signal.cancel();
        });
        toolscout_meta_tool::serve_http(engine, proxy, access, listener, a.token, a.allow_origins, stop).await?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Err(e) = toolscout_meta_tool::serve_stdio(engine, proxy, access).await {
        bail!("MCP session ended with an error: {e}");
    }
    Ok(ExitCode::SUCCESS)
}
