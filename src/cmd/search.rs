//! `toolscout search`: one request from the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use toolscout_service::DiscoverParams;

use crate::args::EngineArgs;
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
    engine: EngineArgs,
}

pub(crate) async fn run(a: SearchArgs) -> Result<ExitCode> {
    let engine = a.engine.open(&a.index)?;
    let params = DiscoverParams { server: a.server, limit: Some(a.limit), ..DiscoverParams::new(a.need) };
    let answer = engine.search(&params)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&answer)?);
    } else {
        print!("{}", human::answer(&answer));
    }
    Ok(ExitCode::SUCCESS)
}
