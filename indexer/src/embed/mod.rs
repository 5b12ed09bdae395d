//! The model boundary: anything that turns text into vectors for the index and for queries.
//!
//! [`Embedder`] is the one trait both sides of the index use. [`FastEmbedder`] is the real model (fastembed
//! over a local ONNX file); [`HashEmbedder`] is a deterministic, model-free stand-in that lets ranking,
//! fusion, name and delivery tests run without ONNX Runtime. Every index records the [`Embedder::model_id`]
//! it was built with, and an engine refuses to query it with another.

mod fastembed;
mod hashed;
mod install;
mod lazy;

pub use self::fastembed::{EmbedderConfig, FastEmbedder, INSTALLED_MODEL, INSTALLED_ORT};
pub use hashed::HashEmbedder;
pub use install::{
    Candidate as ModelCandidate, candidates as model_candidates, install as install_model, locate as locate_model,
    user_data_dir,
};
pub use lazy::LazyEmbedder;

use crate::Result;

/// Text in, L2-normalized vectors out. Implementations are thread-safe.
pub trait Embedder: Send + Sync + std::fmt::Debug {
    /// Identifies the model and its weights; stored in every index built with it.
    fn model_id(&self) -> &str;
    /// Vector length.
    fn dim(&self) -> usize;
    /// Embeds documents, one vector per text, in input order.
    fn embed_documents(&self, texts: &[String]) -> Result<Vec<Vec<f32>>>;
    /// Embeds one query (the same space as documents; a model with query prefixes overrides this).
    fn embed_query(&self, text: &str) -> Result<Vec<f32>> {
        self.embed_documents(&[text.to_string()])?
            .pop()
            .ok_or_else(|| crate::Error::Embed("the model returned no vector".into()))
    }
    /// Embeds several queries at once (one model call where the implementation can batch).
    fn embed_queries(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.embed_documents(texts)
    }
}
