//! Stage 1: candidate generation. For each pass text: servers by dense cosine and BM25 (fused at the
//! server level), then tools: every tool of the top servers and of hinted servers, plus the global
//! dense (exact scan below `FLAT_BELOW` vectors, HNSW above) and BM25 passes over all tools, so a
//! server-level miss is recoverable.

use std::collections::{HashMap, HashSet};

use toolscout_indexer::Snapshot;

use crate::Result;
use crate::engine::EngineConfig;
use crate::fusion::saturate;

/// Server candidates taken from the server ANN and BM25 of each pass.
const SERVER_CANDIDATES: usize = 30;

/// What one retrieval pass measured.
#[derive(Debug, Clone)]
pub(crate) struct Pass {
    /// Its embedding.
    pub vector: Vec<f32>,
    /// Raw server BM25 scores.
    pub server_bm25: HashMap<usize, f32>,
    /// Raw tool BM25 scores.
    pub tool_bm25: HashMap<usize, f32>,
    /// Best servers, with their server-level score.
    pub servers: Vec<(usize, f32)>,
    /// Tools worth scoring.
    pub candidates: HashSet<usize>,
}

/// Runs one pass per `(text, vector)`.
pub(crate) fn retrieve(
    snap: &Snapshot,
    config: &EngineConfig,
    texts: &[String],
    vectors: Vec<Vec<f32>>,
    hinted: &HashSet<usize>,
) -> Result<Vec<Pass>> {
    texts.iter().zip(vectors).map(|(text, vector)| pass(snap, config, text, vector, hinted)).collect()
}

#[tracing::instrument(level = "debug", skip_all, fields(chars = text.len()))]
fn pass(snap: &Snapshot, config: &EngineConfig, text: &str, vector: Vec<f32>, hinted: &HashSet<usize>) -> Result<Pass> {
    let w = &config.weights;
    let server_bm25: HashMap<usize, f32> =
        snap.server_bm25.search(text, SERVER_CANDIDATES)?.into_iter().map(|h| (h.id as usize, h.score)).collect();
    let mut server_set: HashSet<usize> =
        snap.nearest_servers(&vector, SERVER_CANDIDATES).iter().map(|h| h.id as usize).collect();
    server_set.extend(server_bm25.keys());
    server_set.extend(hinted);
    let server_weight = (w.server_dense + w.server_bm25).max(f32::EPSILON);
    let mut servers: Vec<(usize, f32)> = server_set
        .into_iter()
        .map(|i| {
            let score = (w.server_dense * snap.server_cosine(&vector, i)
                + w.server_bm25 * saturate(server_bm25.get(&i).copied().unwrap_or(0.0), w.bm25_k))
                / server_weight;
            (i, score)
        })
        .collect();
    servers.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    servers.truncate(config.top_servers.max(1));

    let tool_bm25: HashMap<usize, f32> =
        snap.tool_bm25.search(text, config.global_tools * 2)?.into_iter().map(|h| (h.id as usize, h.score)).collect();
    let mut candidates: HashSet<usize> = HashSet::new();
    for &(s, _) in &servers {
        candidates.extend(snap.server_tools(s));
    }
    for &s in hinted {
        candidates.extend(snap.server_tools(s));
    }
    candidates.extend(snap.nearest_tools(&vector, config.global_tools).iter().map(|h| h.id as usize));
    let mut by_bm25: Vec<(&usize, &f32)> = tool_bm25.iter().collect();
    by_bm25.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
    candidates.extend(by_bm25.iter().take(config.global_tools).map(|(i, _)| **i));
    Ok(Pass { vector, server_bm25, tool_bm25, servers, candidates })
}
