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
    /// Embeds a request and the parts cut from it (its intents, each a text and the byte ranges of the
    /// request it came from): the request's vector first, then one per part. A model that can reads each
    /// part in the context of the whole request from the request's one inference (its tokens' outputs
    /// averaged over the part's ranges); the default embeds every part on its own.
    fn embed_in_context(&self, request: &str, parts: &[Part<'_>]) -> Result<Vec<Vec<f32>>> {
        let texts: Vec<String> =
            std::iter::once(request.to_string()).chain(parts.iter().map(|p| p.text.to_string())).collect();
        self.embed_queries(&texts)
    }
    /// The whole words the model's tokenizer has in its vocabulary (lowercase): words of the language it
    /// was trained on, which a request may use though no tool does. Empty when the model has none.
    fn known_words(&self) -> std::collections::HashSet<String> {
        std::collections::HashSet::new()
    }
}

/// A part of a request for [`Embedder::embed_in_context`].
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    /// The part as it would be embedded on its own.
    pub text: &'a str,
    /// Where it lies in the request (byte ranges, on character boundaries).
    pub spans: &'a [std::ops::Range<usize>],
}
