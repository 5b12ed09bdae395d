//! `mcp-zero`: MCP-Zero's hierarchical matcher (arXiv 2506.01056) with our embedder. Server summary is
//! the catalog's summary where it has one (MCP-Zero's own corpus: imported as `instructions`), else the
//! description; texts are embedded once when the baseline is built.

use std::sync::Arc;

use toolscout_indexer::{Embedder, Snapshot, cosine};

use super::{description, ranked_tools, top_k};
use crate::Result;
use crate::queries::Pair;
use crate::rankers::{Answer, Ranker};

const TOP_SERVERS: usize = 5;

pub(crate) struct McpZero {
    snapshot: Arc<Snapshot>,
    embedder: Arc<dyn Embedder>,
    server_description: Vec<Vec<f32>>,
    server_summary: Vec<Vec<f32>>,
    tool_description: Vec<Vec<f32>>,
}

impl McpZero {
    pub(crate) fn new(snapshot: Arc<Snapshot>, embedder: Arc<dyn Embedder>) -> Result<Self> {
        let or_name = |text: Option<&String>, name: &str| {
            text.filter(|t| !t.trim().is_empty()).cloned().unwrap_or_else(|| name.to_string())
        };
        let descriptions: Vec<String> =
            snapshot.servers.iter().map(|s| or_name(s.description.as_ref(), &s.name)).collect();
        let summaries: Vec<String> = snapshot
            .servers
            .iter()
            .map(|s| or_name(s.instructions.as_ref().or(s.description.as_ref()), &s.name))
            .collect();
        let tools: Vec<String> = snapshot
            .tools
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let d = description(snapshot.tool_json(i));
                if d.trim().is_empty() { t.name.clone() } else { d }
            })
            .collect();
        let embed = |texts: &[String]| embedder.embed_documents(texts);
        Ok(McpZero {
            server_description: embed(&descriptions)?,
            server_summary: embed(&summaries)?,
            tool_description: embed(&tools)?,
            snapshot,
            embedder,
        })
    }
}

impl Ranker for McpZero {
    fn name(&self) -> String {
        "mcp-zero".into()
    }

    fn answer(&self, query: &str, exclude: &[Pair], k: usize) -> Result<Answer> {
        let q = self.embedder.embed_query(query)?;
        let s = &self.snapshot;
        let server_scores: Vec<(usize, f32)> = (0..s.servers.len())
            .map(|i| (i, cosine(&q, &self.server_description[i]).max(cosine(&q, &self.server_summary[i]))))
            .collect();
        let mut scored = Vec::new();
        for (server, s_server) in top_k(server_scores, TOP_SERVERS) {
            for t in s.server_tools(server) {
                let s_tool = cosine(&q, &self.tool_description[t]);
                scored.push((t, (s_server * s_tool) * s_server.max(s_tool)));
            }
        }
        Ok(ranked_tools(s, scored, exclude, k))
    }
}
