//! Anything that ranks tools for a query: the engine, or a baseline.

use std::sync::Arc;

use toolscout_service::{DiscoverParams, Engine, MatchKind};

/// One ranked tool.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedTool {
    /// Server name (as the catalog source gives it).
    pub server: String,
    /// Tool name.
    pub tool: String,
    /// The ranker's score.
    pub score: f32,
    /// Named in the query (always kept, whatever the threshold).
    pub named: bool,
}

/// A ranked answer before any not-found decision.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranking {
    /// Best first.
    pub tools: Vec<RankedTool>,
}

impl Ranking {
    /// The not-found decision at `threshold` (`None`: never not-found).
    pub fn found_at(&self, threshold: Option<f32>) -> bool {
        let Some(t) = threshold else { return !self.tools.is_empty() };
        self.tools.iter().any(|r| r.named) || self.tools.iter().find(|r| !r.named).is_some_and(|r| r.score >= t)
    }

    /// The best score of a tool that was not named.
    pub fn best(&self) -> Option<f32> {
        self.tools.iter().find(|r| !r.named).map(|r| r.score)
    }
}

/// Something that ranks tools.
pub trait Ranker {
    /// Its name in reports.
    fn name(&self) -> String;
    /// The top `k` tools for `query`.
    fn rank(&self, query: &str, k: usize) -> crate::Result<Ranking>;
    /// Its not-found threshold, if it has one.
    fn threshold(&self) -> Option<f32>;
    /// Forgets cached query work, so the next run is timed cold (rankers share one embedder).
    fn reset(&self) {}
}

/// The toolscout engine as a ranker.
pub struct EngineRanker {
    engine: Arc<Engine>,
    threshold: Option<f32>,
}

impl EngineRanker {
    /// Ranks with `engine`, deciding not-found at `threshold` (default: the engine's own).
    pub fn new(engine: Arc<Engine>, threshold: Option<f32>) -> Self {
        let threshold = threshold.or_else(|| Some(engine.health().threshold));
        EngineRanker { engine, threshold }
    }
}

impl Ranker for EngineRanker {
    fn name(&self) -> String {
        "toolscout".into()
    }

    fn rank(&self, query: &str, k: usize) -> crate::Result<Ranking> {
        let params = DiscoverParams { limit: Some(k), ..DiscoverParams::new(query) };
        let r = self.engine.rank(&params).map_err(|e| e.to_string())?;
        let tools = r
            .named
            .iter()
            .chain(&r.ranked)
            .take(k)
            .map(|h| RankedTool {
                server: h.server.clone(),
                tool: h.name.clone(),
                score: h.score,
                named: h.match_kind == MatchKind::Name,
            })
            .collect();
        Ok(Ranking { tools })
    }

    fn threshold(&self) -> Option<f32> {
        self.threshold
    }

    fn reset(&self) {
        self.engine.embedder().clear_query_cache();
    }
}
