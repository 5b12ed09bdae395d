//! `toolscout pins`: trust on first use — what is pinned, what is held back, approving it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Subcommand;
use toolscout_indexer::IndexDir;

/// Trust on first use: list pinned and held-back tools, show drift, approve.
#[derive(Subcommand, Debug)]
pub(crate) enum PinsAction {
    /// Pinned count and the tools held back.
    List {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
    },
    /// Field-by-field drift of a held-back tool (`server_id/tool`).
    Diff {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// `server_id/tool`.
        tool: String,
    },
    /// Approve held-back definitions (a running server picks them up on reload).
    Approve {
        /// Index folder.
        #[arg(long, env = "TOOLSCOUT_INDEX")]
        index: PathBuf,
        /// `server_id/tool` keys.
        tools: Vec<String>,
        /// Approve everything held back.
        #[arg(long)]
        all: bool,
    },
}

pub(crate) fn run(action: PinsAction) -> Result<ExitCode> {
    match action {
        PinsAction::List { index } => {
            let pins = IndexDir::new(index).read_pins()?;
            println!("{} tools pinned, {} held back", pins.pinned.len(), pins.quarantine.len());
            for (key, q) in &pins.quarantine {
                println!("  {key}  ({}, since {})", q.reason, q.since);
            }
        }
        PinsAction::Diff { index, tool } => {
            let pins = IndexDir::new(index).read_pins()?;
            for d in pins.diff(&tool)? {
                println!("{}:\n  pinned: {}\n  new:    {}", d.field, d.pinned, d.new);
            }
        }
        PinsAction::Approve { index, tools, all } => {
            let dir = IndexDir::new(index);
            let mut pins = dir.read_pins()?;
            let keys: Vec<String> = if all { pins.quarantine.keys().cloned().collect() } else { tools };
            if keys.is_empty() {
                bail!("name the tools to approve (server_id/tool) or pass --all");
            }
            for key in &keys {
                pins.approve(key)?;
            }
            dir.write_pins(&pins)?;
            eprintln!("approved {} tool(s); reload a running server (POST /v1/admin/reload or SIGHUP)", keys.len());
        }
    }
    Ok(ExitCode::SUCCESS)
}
