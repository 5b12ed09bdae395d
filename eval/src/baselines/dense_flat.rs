//! `dense-flat`: exact cosine over every tool's stored vector.

use std::sync::Arc;

use toolscout_indexer::{Embedder, Snapshot};

use super::ranked_tools;
use crate::Result;
use crate::queries::Pair;
use crate::rankers::{Answer, Ranker};

pub(crate) struct DenseFlat {
    snapshot: Arc<Snapshot>,
    embedder: Arc<dyn Embedder>,
}

impl DenseFlat {
    pub(crate) fn new(snapshot: Arc<Snapshot>, embedder: Arc<dyn Embedder>) -> Self {
        DenseFlat { snapshot, embedder }
    }
}

impl Ranker for DenseFlat {
    fn name(&self) -> String {
        "dense-flat".into()
    }

    fn answer(&self, query: &str, exclude: &[Pair], k: usize) -> Result<Answer> {
        let q = self.embedder.embed_query(query)?;
        let s = &self.snapshot;
        let scored = (0..s.tools.len()).map(|i| (i, s.tool_cosine(&q, i))).collect();
        Ok(ranked_tools(s, scored, exclude, k))
    }
}
