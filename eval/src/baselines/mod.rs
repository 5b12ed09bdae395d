//! Baselines, run on the same index and queries as the engine:
//! - `bm25-flat`: Codex CLI's tool_search style — one BM25 document per tool (server name, tool name, the
//!   name split on `_`, description, input property names), k1 = 1.2, b = 0.75, no threshold.
//! - `dense-flat`: exact cosine between the query and every tool's stored vector (same model), no threshold.
//! - `mcp-zero`: MCP-Zero's matcher with our embedder — top 5 servers by max(cos(q, server description),
//!   cos(q, server summary)), tool score cos(q, tool description), final (s_server × s_tool) × max(s_server,
//!   s_tool), no threshold.
//!
//! Not in [`BASELINES`] (measurements, not competitors): `dense-f16` and `dense-int8`, `dense-flat` over
//! quantised copies of the stored vectors.

mod bm25_flat;
mod dense_flat;
mod dense_quant;
mod mcp_zero;

use std::path::Path;
use std::sync::Arc;

use toolscout_indexer::{Embedder, IndexDir, Snapshot};

use crate::queries::Pair;
use crate::rankers::{Answer, RankedTool, Ranker};
use crate::{Error, Result};

/// Names accepted by [`baseline`].
pub const BASELINES: [&str; 3] = ["bm25-flat", "dense-flat", "mcp-zero"];

/// Builds the named baseline over the index at `index_dir`.
pub fn baseline(name: &str, index_dir: &Path, embedder: Arc<dyn Embedder>) -> Result<Box<dyn Ranker>> {
    let snapshot = Arc::new(Snapshot::open(&IndexDir::new(index_dir))?);
    Ok(match name {
        "bm25-flat" => Box::new(bm25_flat::Bm25Flat::new(&snapshot)?),
        "dense-flat" => Box::new(dense_flat::DenseFlat::new(snapshot, embedder)),
        "mcp-zero" => Box::new(mcp_zero::McpZero::new(snapshot, embedder)?),
        "dense-f16" => Box::new(dense_quant::DenseQuant::new(snapshot, embedder, dense_quant::Precision::F16)),
        "dense-int8" => Box::new(dense_quant::DenseQuant::new(snapshot, embedder, dense_quant::Precision::Int8)),
        other => return Err(Error::UnknownBaseline(other.to_string())),
    })
}

/// The description of a stored tool ("" when it has none).
pub(crate) fn description(tool_json: &str) -> String {
    serde_json::from_str::<serde_json::Value>(tool_json)
        .ok()
        .and_then(|v| v.get("description").and_then(|d| d.as_str()).map(str::to_string))
        .unwrap_or_default()
}

/// The top `k` tools of a snapshot, by `(tool index, score)`, leaving out `exclude`, as an answer.
pub(crate) fn ranked_tools(snapshot: &Snapshot, scored: Vec<(usize, f32)>, exclude: &[Pair], k: usize) -> Answer {
    let name = |i: usize| (&snapshot.servers[snapshot.tools[i].server as usize].name, &snapshot.tools[i].name);
    let scored = scored
        .into_iter()
        .filter(|&(i, _)| {
            let (server, tool) = name(i);
            !exclude.iter().any(|p| &p.server == server && &p.tool == tool)
        })
        .collect();
    let tools = top_k(scored, k)
        .into_iter()
        .map(|(i, score)| RankedTool {
            server: name(i).0.clone(),
            tool: name(i).1.clone(),
            score,
            confidence: score,
            named: false,
            alternates: Vec::new(),
        })
        .collect();
    Answer::undecided(tools)
}

/// Top `k` of `(id, score)` by score, ties by id.
pub(crate) fn top_k(mut scored: Vec<(usize, f32)>, k: usize) -> Vec<(usize, f32)> {
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(k);
    scored
}
