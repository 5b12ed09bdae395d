//! An embedder that loads its model on first use. An update of a large index whose texts did not change
//! embeds nothing, and should not spend a second or two starting ONNX Runtime sessions it never calls
//! (`toolscout index`; BENCHMARKS.md "An update of one server at 100K, phase by phase"). Its model id is
//! read up front from the model files (the same hash a loaded model reports), so the build can compare it
//! with the live snapshot's without loading anything.

use std::sync::OnceLock;

use super::fastembed::{EmbedderConfig, FastEmbedder};
use super::{Embedder, Part};
use crate::{Error, Result};

/// [`FastEmbedder`], loaded by the first call that needs the model (an embedding, or the vector length).
pub struct LazyEmbedder {
    config: EmbedderConfig,
    model_id: String,
    /// The loaded model, or why it could not be loaded (kept: every later call reports the same error).
    loaded: OnceLock<std::result::Result<FastEmbedder, String>>,
}

impl std::fmt::Debug for LazyEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyEmbedder").field("model_id", &self.model_id).field("loaded", &self.is_loaded()).finish()
    }
}

impl LazyEmbedder {
    /// Reads the model files' id; loads nothing.
    pub fn new(config: EmbedderConfig) -> Result<LazyEmbedder> {
        let model_id = FastEmbedder::model_id_of(&config.model_dir)?;
        Ok(LazyEmbedder { config, model_id, loaded: OnceLock::new() })
    }

    /// Whether the model has been loaded (or its load tried).
    pub fn is_loaded(&self) -> bool {
        self.loaded.get().is_some()
    }

    fn model(&self) -> Result<&FastEmbedder> {
        let loaded = self.loaded.get_or_init(|| {
            let model = FastEmbedder::load(&self.config).map_err(|e| e.to_string())?;
            if model.model_id() != self.model_id {
                return Err(format!(
                    "the model files changed while loading ({} was read, {} loaded)",
                    self.model_id,
                    model.model_id()
                ));
            }
            Ok(model)
        });
        loaded.as_ref().map_err(|e| Error::Embed(e.clone()))
    }
}

impl Embedder for LazyEmbedder {
    fn model_id(&self) -> &str {
        &self.model_id
    }

    /// Loads the model (its vector length is probed); 0 if it cannot be loaded, whose error the next
    /// embedding call returns.
    fn dim(&self) -> usize {
        self.model().map_or(0, Embedder::dim)
    }

    fn embed_documents(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        self.model()?.embed_documents(texts)
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
        self.model()?.embed_query(text)
    }

    fn embed_in_context(&self, request: &str, parts: &[Part<'_>]) -> Result<Vec<Vec<f32>>> {
        self.model()?.embed_in_context(request, parts)
    }

    /// Loads the model; none when it cannot be loaded.
    fn known_words(&self) -> std::collections::HashSet<String> {
        self.model().map(Embedder::known_words).unwrap_or_default()
    }

    fn embed_queries(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        self.model()?.embed_queries(texts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_model_folder_is_an_error_up_front() {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = EmbedderConfig::new(dir.path().join("nothing-here"), dir.path().join("libonnxruntime.so"));
        let err = LazyEmbedder::new(config).expect_err("no model files");
        assert!(err.to_string().contains("model.onnx"), "{err}");
    }

    #[test]
    fn the_id_is_read_without_loading_and_a_failed_load_is_reported_by_every_call() {
        // A model folder whose files exist but whose runtime library does not: the id is known, the load
        // fails at the first call that needs the model, and the same error comes back each time.
        let dir = tempfile::tempdir().expect("tempdir");
        let model = dir.path().join("tiny");
        std::fs::create_dir_all(&model).expect("mkdir");
        for f in ["model.onnx", "tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"] {
            std::fs::write(model.join(f), b"not a model").expect("write");
        }
        let lazy = LazyEmbedder::new(EmbedderConfig::new(&model, dir.path().join("libonnxruntime.so"))).expect("id");
        assert!(lazy.model_id().starts_with("tiny@"), "{}", lazy.model_id());
        assert!(!lazy.is_loaded());
        assert!(lazy.embed_documents(&[]).expect("nothing to embed").is_empty());
        assert!(!lazy.is_loaded(), "an empty call loads nothing");
        let first = lazy.embed_query("hello").expect_err("no runtime").to_string();
        assert!(first.contains("ONNX Runtime library not found"), "{first}");
        assert_eq!(lazy.dim(), 0);
        assert_eq!(lazy.embed_query("again").expect_err("still no runtime").to_string(), first);
    }
}
