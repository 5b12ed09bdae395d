//! `toolscout connect HOST`: prints the exact config that makes an MCP host start `toolscout mcp` on an
//! index — absolute paths, and the env the model needs — in that host's own format.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use crate::args::ModelArgs;

/// The hosts we print for.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum Host {
    /// Claude Desktop: `claude_desktop_config.json` (`mcpServers`).
    ClaudeDesktop,
    /// Cursor: `.cursor/mcp.json` or `~/.cursor/mcp.json` (`mcpServers`).
    Cursor,
    /// VS Code: `.vscode/mcp.json` (`servers`, with `type: stdio`).
    Vscode,
    /// Claude Code: a project `.mcp.json` (`mcpServers`); also `claude mcp add-json NAME '<entry>'`.
    ClaudeCode,
    /// Codex CLI: `~/.codex/config.toml` (`[mcp_servers.NAME]`).
    Codex,
}

/// Print the config that connects an MCP host to `toolscout mcp`.
#[derive(Args, Debug)]
pub(crate) struct ConnectArgs {
    /// The host to print for.
    host: Host,
    /// Index folder.
    #[arg(long, env = "TOOLSCOUT_INDEX")]
    index: PathBuf,
    /// The server's name in the host's config.
    #[arg(long, default_value = "toolscout")]
    name: String,
    /// Also expose `call_tool`, forwarding to the servers of this host config.
    #[arg(long, value_name = "CONFIG")]
    proxy: Option<PathBuf>,
    /// Policy file and profile for the session.
    #[arg(long)]
    policy: Option<PathBuf>,
    /// Policy profile.
    #[arg(long, requires = "policy")]
    profile: Option<String>,
    #[command(flatten)]
    model: ModelArgs,
}

/// What every format says: the command, its arguments, its env.
struct Launch {
    command: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

fn absolute(path: &Path) -> Result<String> {
    let p = std::path::absolute(path).with_context(|| format!("resolving {}", path.display()))?;
    Ok(p.display().to_string())
}

fn launch(a: &ConnectArgs) -> Result<Launch> {
    let command = absolute(&std::env::current_exe().context("finding this binary")?)?;
    let mut args = vec!["mcp".to_string(), "--index".to_string(), absolute(&a.index)?];
    if let Some(p) = &a.proxy {
        args.extend(["--proxy".to_string(), absolute(p)?]);
    }
    if let Some(p) = &a.policy {
        args.extend(["--policy".to_string(), absolute(p)?]);
    }
    if let Some(p) = &a.profile {
        args.extend(["--profile".to_string(), p.clone()]);
    }
    let (model_dir, ort_dylib) = a.model.paths()?;
    let env = vec![
        ("TOOLSCOUT_MODEL_DIR".to_string(), absolute(&model_dir)?),
        ("ORT_DYLIB_PATH".to_string(), absolute(&ort_dylib)?),
    ];
    Ok(Launch { command, args, env })
}

/// The config text for `host`.
fn render(host: Host, name: &str, l: &Launch) -> Result<String> {
    let env: serde_json::Map<String, Value> = l.env.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    let entry = json!({"command": l.command, "args": l.args, "env": env});
    Ok(match host {
        Host::ClaudeDesktop | Host::Cursor | Host::ClaudeCode => {
            serde_json::to_string_pretty(&json!({"mcpServers": {name: entry}}))?
        }
        Host::Vscode => {
            let entry = json!({"type": "stdio", "command": l.command, "args": l.args, "env": env});
            serde_json::to_string_pretty(&json!({"servers": {name: entry}}))?
        }
        Host::Codex => {
            let mut server = toml::Table::new();
            server.insert("command".into(), l.command.clone().into());
            server.insert("args".into(), l.args.iter().cloned().map(toml::Value::from).collect::<Vec<_>>().into());
            let env: toml::Table = l.env.iter().map(|(k, v)| (k.clone(), toml::Value::from(v.clone()))).collect();
            server.insert("env".into(), env.into());
            let mut servers = toml::Table::new();
            servers.insert(name.to_string(), server.into());
            let mut doc = toml::Table::new();
            doc.insert("mcp_servers".into(), servers.into());
            toml::to_string(&doc)?
        }
    })
}

pub(crate) fn run(a: ConnectArgs) -> Result<ExitCode> {
    anyhow::ensure!(
        a.index.join("CURRENT").is_file(),
        "{} is not an index folder (build one with `toolscout index`)",
        a.index.display()
    );
    let l = launch(&a)?;
    println!("{}", render(a.host, &a.name, &l)?);
    let hint = match a.host {
        Host::ClaudeDesktop => "merge into claude_desktop_config.json (Settings → Developer → Edit Config)",
        Host::Cursor => "merge into .cursor/mcp.json (project) or ~/.cursor/mcp.json (global)",
        Host::Vscode => "merge into .vscode/mcp.json",
        Host::ClaudeCode => "save as .mcp.json in the project (or pass the entry to `claude mcp add-json`)",
        Host::Codex => "append to ~/.codex/config.toml",
    };
    eprintln!("toolscout: {hint}");
    Ok(ExitCode::SUCCESS)
}
