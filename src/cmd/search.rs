//! `toolscout search`: one request from the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use toolscout_service::DiscoverParams;

use crate::args::{EngineArgs, PolicyArgs, Workload};
use crate::human;

/// Search an index from the command line.
#[derive(Args, Debug)]
pub(crate) struct SearchArgs {
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
    policy: PolicyArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) async fn run(a: SearchArgs) -> Result<ExitCode> {
    let policy = a.policy.load()?;
    let engine = a.engine.open_with(&a.index, policy.as_ref().map(|(p, _)| p.as_ref()), Workload::Batch)?;
    let params = DiscoverParams { server: a.server, limit: Some(a.limit), ..DiscoverParams::new(a.need) };
    let profile = match &policy {
        Some((p, name)) => {
            let name = name
                .clone()
                .or_else(|| p.default_profile.clone())
                .ok_or_else(|| anyhow::anyhow!("--policy needs --profile NAME (the policy has no default_profile)"))?;
            Some((name.clone(), p.profile(&name).map_err(anyhow::Error::msg)?.clone()))
        }
        None => None,
    };
    let answer = engine.search_as(&params, profile.as_ref().map(|(n, p)| (n.as_str(), p)))?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&answer)?);
    } else {
        print!("{}", human::answer(&answer));
    }
    Ok(ExitCode::SUCCESS)
}
