//! Anything that answers a request from a catalog: the engine, or a baseline.

use std::sync::Arc;

use toolscout_service::{DiscoverParams, Engine, MatchKind, ToolHit};

use crate::Result;
use crate::queries::Pair;

/// One tool in an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedTool {
    /// Server name (as the catalog source gives it).
    pub server: String,
    /// Tool name.
    pub tool: String,
    /// The ranker's score.
    pub score: f32,
    /// How sure the ranker is that it serves the request (the engine's decision probability; a
    /// baseline's score).
    pub confidence: f32,
    /// Named in the query.
    pub named: bool,
    /// Servers that mirror this tool's server (the same tool set): the same tool is theirs too.
    pub alternates: Vec<String>,
}

/// An answer: the decision, what it delivers, and the whole ranking it decided on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    /// `found`?
    pub found: bool,
    /// The tools delivered (empty when not found).
    pub delivered: Vec<RankedTool>,
    /// The top of the ranking, whatever was decided (for metrics "as if always found").
    pub ranking: Vec<RankedTool>,
}

impl Answer {
    /// An answer that delivers its whole ranking (rankers without a decision), found when not empty.
    pub fn undecided(ranking: Vec<RankedTool>) -> Answer {
        Answer { found: !ranking.is_empty(), delivered: ranking.clone(), ranking }
    }
}

/// Something that answers requests.
pub trait Ranker {
    /// Its name in reports.
    fn name(&self) -> String;
    /// The answer to `query` with at most `k` tools, as if the tools in `exclude` did not exist.
    fn answer(&self, query: &str, exclude: &[Pair], k: usize) -> Result<Answer>;
    /// Forgets cached query work, so the next run is timed cold.
    fn reset(&self) {}
}

/// The toolscout engine as a ranker.
pub struct EngineRanker {
    engine: Arc<Engine>,
}

impl EngineRanker {
    /// Answers with `engine`.
    pub fn new(engine: Arc<Engine>) -> Self {
        EngineRanker { engine }
    }
}

fn ranked(h: &ToolHit) -> RankedTool {
    RankedTool {
        server: h.server.clone(),
        tool: h.name.clone(),
        score: h.score,
        confidence: h.confidence,
        named: h.match_kind == MatchKind::Name,
        alternates: h.alternates.iter().map(|a| a.server.clone()).collect(),
    }
}

impl Ranker for EngineRanker {
    fn name(&self) -> String {
        "toolscout".into()
    }

    fn answer(&self, query: &str, exclude: &[Pair], k: usize) -> Result<Answer> {
        let params = DiscoverParams { limit: Some(k), ..DiscoverParams::new(query) };
        let exclude: Vec<(String, String)> = exclude.iter().map(|p| (p.server.clone(), p.tool.clone())).collect();
        let r = self.engine.rank_excluding(&params, &exclude)?;
        let ranking = r.named.iter().chain(&r.ranked).take(k).map(ranked).collect();
        Ok(Answer { found: r.found, delivered: r.delivered.iter().take(k).map(ranked).collect(), ranking })
    }

    fn reset(&self) {
        self.engine.clear_query_cache();
    }
}
