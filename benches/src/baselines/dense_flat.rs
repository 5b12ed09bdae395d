//! `dense-flat`: exact cosine over every tool's stored vector.

use std::sync::Arc;

use toolscout_indexer::{Embedder, Snapshot, cosine};

use super::ranked_tools;
use crate::rankers::{Ranker, Ranking};

pub(crate) struct DenseFlat {
    snapshot: Arc<Snapshot>,
    embedder: Arc<Embedder>,
}

impl DenseFlat {
    pub(crate) fn new(snapshot: Arc<Snapshot>, embedder: Arc<Embedder>) -> Self {
        DenseFlat { snapshot, embedder }
    }
}

impl Ranker for DenseFlat {
    fn name(&self) -> String {
        "dense-flat".into()
    }

    fn rank(&self, query: &str, k: usize) -> crate::Result<Ranking> {
        let q = self.embedder.embed_query(query).map_err(|e| e.to_string())?;
        let s = &self.snapshot;
        let scored = (0..s.tools.len()).map(|i| (i, cosine(&q, s.tool_vector(i)))).collect();
        Ok(ranked_tools(s, scored, k))
    }

    fn threshold(&self) -> Option<f32> {
        None
    }

    fn reset(&self) {
        self.embedder.clear_query_cache();
    }
}
