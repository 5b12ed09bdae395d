//! The query engine: server-level then tool-level matching over one live snapshot.
//!
//! 1. Servers: dense (HNSW) and BM25 candidates, each scored by its cosine and squashed BM25.
//! 2. Tools: every tool of the top servers (and of a hinted server), plus a global pass over all tools
//!    (HNSW and BM25) so a server-level miss is recoverable. Each candidate gets one fused score.
//! 3. Tools named in the query come first; otherwise the best fused score decides `found` against the
//!    threshold. The snapshot can be swapped under running queries ([`Engine::reload`]).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use serde_json::value::RawValue;
use toolscout_indexer::{Embedder, EmbedderConfig, Pins, Snapshot, cosine};

use crate::fusion::{FusionWeights, Signals, fuse, saturate};
use crate::intents::intents;
use crate::names::NameIndex;
use crate::params::{
    DEFAULT_LIMIT, DiscoverParams, DiscoverResponse, HealthResponse, MAX_LIMIT, MAX_QUERY_CHARS, MatchKind, ServerHit,
    ServerInfoResponse, ServersResponse, Status, ToolHit, ToolResponse,
};
use crate::threshold::Threshold;
use crate::{Error, Result};

/// Added to the fused score of tools of a server the request hinted at.
const HINT_BONUS: f32 = 0.1;
/// Candidates taken from each global pass and from the server ANN/BM25.
const SERVER_CANDIDATES: usize = 30;
/// How many `closest` hints a `not_found` answer carries.
const CLOSEST: usize = 3;

/// How the engine ranks.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Fusion weights.
    pub weights: FusionWeights,
    /// Overrides the index's calibrated threshold.
    pub threshold: Option<f32>,
    /// Servers whose tools are all scored.
    pub top_servers: usize,
    /// Tools taken from each global pass (dense and BM25).
    pub global_tools: usize,
    /// Retrieve separately for each intent of a compound request.
    pub multi_intent: bool,
    /// Most tools of one server in an answer, unless the request hints at that server (0: no cap).
    pub max_per_server: usize,
    /// Leave out tools whose definition the description scan flagged (they are kept, with `warnings`,
    /// otherwise).
    pub exclude_flagged: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            weights: FusionWeights::default(),
            threshold: None,
            top_servers: 5,
            global_tools: 50,
            multi_intent: true,
            max_per_server: 3,
            exclude_flagged: false,
        }
    }
}

/// What [`Engine::rank`] returns: the ranking before the not-found decision.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// Tools named in the query, in order of mention (score 1.0).
    pub named: Vec<ToolHit>,
    /// The best other tools by fused score (at most `limit`).
    pub ranked: Vec<ToolHit>,
    /// The best servers.
    pub servers: Vec<ServerHit>,
    /// The threshold in force for this index.
    pub threshold: Threshold,
    /// Remarks about the request.
    pub notes: Vec<String>,
}

impl Ranking {
    /// Best fused score of a ranked (not named) tool.
    pub fn best(&self) -> Option<f32> {
        self.ranked.first().map(|h| h.score)
    }

    /// The not-found decision at `threshold`: found when a tool was named or the best score reaches it.
    pub fn found_at(&self, threshold: f32) -> bool {
        !self.named.is_empty() || self.best().is_some_and(|b| b >= threshold)
    }

    /// The decision at the threshold in force.
    pub fn found(&self) -> bool {
        self.found_at(self.threshold.value)
    }
}

#[derive(Clone)]
struct Live {
    snapshot: Arc<Snapshot>,
    names: Arc<NameIndex>,
    threshold: Threshold,
    /// Tools held back by trust-on-first-use (their definition differs from the pinned one, or their
    /// server is new and quarantined), by index.
    held: Arc<HashSet<usize>>,
}

/// A searchable index: a live snapshot and the embedding model that queries it.
pub struct Engine {
    index_dir: PathBuf,
    embedder: Arc<Embedder>,
    config: EngineConfig,
    live: RwLock<Arc<Live>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("index_dir", &self.index_dir).field("config", &self.config).finish()
    }
}

impl Engine {
    /// Loads the embedding model and opens the index at `index_dir`.
    pub fn open(index_dir: &Path, embedder: &EmbedderConfig, config: EngineConfig) -> Result<Engine> {
        Engine::with_embedder(index_dir, Arc::new(Embedder::load(embedder)?), config)
    }

    /// Opens the index at `index_dir` with an already loaded model.
    pub fn with_embedder(index_dir: &Path, embedder: Arc<Embedder>, config: EngineConfig) -> Result<Engine> {
        let live = load(index_dir, &embedder, &config)?;
        Ok(Engine { index_dir: index_dir.to_path_buf(), embedder, config, live: RwLock::new(Arc::new(live)) })
    }

    /// Opens the index's current snapshot again and swaps it in; running queries finish on the old one.
    /// Returns the live snapshot id.
    pub fn reload(&self) -> Result<String> {
        let live = Arc::new(load(&self.index_dir, &self.embedder, &self.config)?);
        let id = live.snapshot.manifest.snapshot_id.clone();
        *self.live.write().unwrap_or_else(|e| e.into_inner()) = live;
        Ok(id)
    }

    /// The same live snapshot and model under another configuration (for tuning and evaluation).
    pub fn reconfigured(&self, config: EngineConfig) -> Engine {
        let mut live = (*self.live()).clone();
        live.threshold = Threshold::for_index(&self.index_dir, config.threshold);
        Engine {
            index_dir: self.index_dir.clone(),
            embedder: self.embedder.clone(),
            config,
            live: RwLock::new(Arc::new(live)),
        }
    }

    fn live(&self) -> Arc<Live> {
        self.live.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The index folder.
    pub fn index_dir(&self) -> &Path {
        &self.index_dir
    }

    /// Approves the held-back definition of `server_id/tool` (trust on first use) and reloads so it is
    /// served. Returns the live snapshot id.
    pub fn approve(&self, key: &str) -> Result<String> {
        let mut pins = Pins::read(&self.index_dir)?;
        pins.approve(key).map_err(|e| Error::NotFound(e.to_string()))?;
        pins.write(&self.index_dir)?;
        self.reload()
    }

    /// The embedding model.
    pub fn embedder(&self) -> &Arc<Embedder> {
        &self.embedder
    }

    /// Answers a discovery request: [`Engine::rank`], then the not-found decision.
    pub fn search(&self, params: &DiscoverParams) -> Result<DiscoverResponse> {
        let limit = params.limit.unwrap_or(DEFAULT_LIMIT);
        let ranking = self.rank(params)?;
        let found = ranking.found();
        let (mut tools, mut closest) = (Vec::new(), Vec::new());
        if found {
            tools.extend(ranking.named);
            tools.extend(ranking.ranked);
            tools.truncate(limit);
        } else {
            closest.extend(ranking.ranked.into_iter().take(CLOSEST));
        }
        Ok(DiscoverResponse {
            status: if found { Status::Found } else { Status::NotFound },
            query: params.query.clone(),
            threshold: ranking.threshold.value,
            tools,
            servers: ranking.servers,
            closest,
            notes: ranking.notes,
        })
    }

    /// The ranking a search decides on, before the not-found threshold is applied: tools named in the
    /// query, and the best `limit` others by fused score. Evaluation and calibration use it directly.
    #[tracing::instrument(level = "debug", skip_all, fields(limit = params.limit, hint = params.server.as_deref()))]
    pub fn rank(&self, params: &DiscoverParams) -> Result<Ranking> {
        let query = params.query.trim();
        if query.is_empty() {
            return Err(Error::BadQuery("`query` is empty: describe the capability you need".into()));
        }
        if query.chars().count() > MAX_QUERY_CHARS {
            return Err(Error::BadQuery(format!("`query` is longer than {MAX_QUERY_CHARS} characters")));
        }
        let limit = params.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(Error::BadQuery(format!("`limit` must be between 1 and {MAX_LIMIT}, got {limit}")));
        }
        let live = self.live();
        let snap = &live.snapshot;
        let w = &self.config.weights;
        let mut notes = Vec::new();
        let hinted: HashSet<usize> = match params.server.as_deref().map(str::trim).filter(|h| !h.is_empty()) {
            Some(hint) => {
                let found: HashSet<usize> = live.names.servers_matching(hint).into_iter().collect();
                if found.is_empty() {
                    notes.push(format!("server hint {hint:?} matched no server; searched all servers"));
                }
                found
            }
            None => HashSet::new(),
        };

        // One pass for the whole request, and one per intent when it asks for several things.
        let main = self.pass(snap, query, &hinted)?;
        let parts: Vec<Pass> = if self.config.multi_intent {
            intents(query).iter().map(|part| self.pass(snap, part, &hinted)).collect::<Result<_>>()?
        } else {
            Vec::new()
        };
        let mut candidates: HashSet<usize> = main.candidates.clone();
        for p in &parts {
            candidates.extend(&p.candidates);
        }
        let named: Vec<usize> = live.names.named_in(query).into_iter().filter(|t| !live.held.contains(t)).collect();
        candidates.retain(|t| !named.contains(t) && !live.held.contains(t));
        if self.config.exclude_flagged {
            candidates.retain(|&t| snap.tool_warnings[t].is_empty());
        }
        let score = |pass: &Pass, t: usize| -> f32 {
            let s = snap.tools[t].server as usize;
            let signals = Signals {
                tool_dense: cosine(&pass.vector, snap.tool_vector(t)),
                tool_bm25: pass.tool_bm25.get(&t).copied().unwrap_or(0.0),
                server_dense: cosine(&pass.vector, snap.server_vector(s)),
                server_bm25: pass.server_bm25.get(&s).copied().unwrap_or(0.0),
            };
            fuse(&signals, w) + if hinted.contains(&s) { HINT_BONUS } else { 0.0 }
        };
        let by_score = |scores: &HashMap<usize, f32>| -> Vec<(usize, f32)> {
            let mut v: Vec<(usize, f32)> = scores.iter().map(|(&t, &s)| (t, s)).collect();
            v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            v
        };
        let main_scores: HashMap<usize, f32> = candidates.iter().map(|&t| (t, score(&main, t))).collect();
        let part_scores: Vec<HashMap<usize, f32>> =
            parts.iter().map(|p| candidates.iter().map(|&t| (t, score(p, t))).collect()).collect();
        // A tool's score is its best over the whole request and its parts.
        let best: HashMap<usize, f32> = candidates
            .iter()
            .map(|&t| (t, part_scores.iter().map(|ps| ps[&t]).fold(main_scores[&t], f32::max)))
            .collect();
        // Slots: the best tool for the whole request, then the best for each part, then the rest by score.
        let mut order: Vec<usize> = Vec::new();
        if let Some(&(t, _)) = by_score(&main_scores).first() {
            order.push(t);
        }
        for ps in &part_scores {
            if let Some(&(t, _)) = by_score(ps).iter().find(|(t, _)| !order.contains(t)) {
                order.push(t);
            }
        }
        // The per-server cap applies to the filler, not to the tools chosen for an intent.
        let chosen = order.len();
        for (t, _) in by_score(&best) {
            if !order.contains(&t) {
                order.push(t);
            }
        }
        let order =
            diversify(order, chosen, |t| snap.tools[t].server as usize, self.config.max_per_server, &hinted, limit);
        let ranked: Vec<(usize, f32)> = order.into_iter().take(limit).map(|t| (t, best[&t])).collect();
        let servers = main.servers;
        let servers = servers
            .iter()
            .take(self.config.top_servers)
            .map(|&(s, score)| ServerHit {
                server: snap.servers[s].name.clone(),
                server_id: snap.servers[s].server_id.clone(),
                score,
            })
            .collect();
        Ok(Ranking {
            named: named.iter().map(|&t| tool_hit(snap, &live.names, t, 1.0, MatchKind::Name)).collect(),
            ranked: ranked.iter().map(|&(t, s)| tool_hit(snap, &live.names, t, s, MatchKind::Search)).collect(),
            servers,
            threshold: live.threshold.clone(),
            notes,
        })
    }

    /// All servers of the live snapshot.
    pub fn servers(&self) -> ServersResponse {
        let live = self.live();
        let servers = live
            .snapshot
            .servers
            .iter()
            .map(|s| ServerInfoResponse {
                server: s.name.clone(),
                server_id: s.server_id.clone(),
                title: s.title.clone(),
                version: s.version.clone(),
                description: s.description.clone(),
                tool_count: s.tool_count as usize,
                source: s.source_kind.clone(),
            })
            .collect();
        ServersResponse { servers }
    }

    /// One tool's stored definition.
    pub fn tool(&self, server_id: &str, name: &str) -> Result<ToolResponse> {
        let live = self.live();
        let snap = &live.snapshot;
        let s = snap
            .servers
            .iter()
            .position(|s| s.server_id == server_id)
            .ok_or_else(|| Error::NotFound(format!("no server with id {server_id:?}")))?;
        let t = snap
            .server_tools(s)
            .find(|&t| snap.tools[t].name == name)
            .ok_or_else(|| Error::NotFound(format!("server {server_id:?} has no tool {name:?}")))?;
        let tool = &snap.tools[t];
        Ok(ToolResponse {
            server: snap.servers[s].name.clone(),
            server_id: server_id.to_string(),
            name: tool.name.clone(),
            hash: tool.hash.clone(),
            derived: tool.derived.clone(),
            tool: raw(&tool.tool_json),
        })
    }

    /// What is being served.
    pub fn health(&self) -> HealthResponse {
        let live = self.live();
        let m = &live.snapshot.manifest;
        HealthResponse {
            status: "ok".into(),
            snapshot_id: m.snapshot_id.clone(),
            model_id: m.model_id.clone(),
            servers: m.servers,
            tools: m.tools,
            threshold: live.threshold.value,
            threshold_source: live.threshold.source.clone(),
            quarantined: live.held.len(),
        }
    }
}

/// What one retrieval pass (for the whole request, or one of its intents) measured.
struct Pass {
    vector: Vec<f32>,
    server_bm25: HashMap<usize, f32>,
    tool_bm25: HashMap<usize, f32>,
    /// Best servers, with their server-level score.
    servers: Vec<(usize, f32)>,
    /// Tools worth scoring: all tools of the top servers, the global dense and BM25 passes.
    candidates: HashSet<usize>,
}

impl Engine {
    #[tracing::instrument(level = "debug", skip_all, fields(chars = text.len()))]
    fn pass(&self, snap: &Snapshot, text: &str, hinted: &HashSet<usize>) -> Result<Pass> {
        let w = &self.config.weights;
        let vector = self.embedder.embed_query(text)?;
        let server_bm25: HashMap<usize, f32> =
            snap.server_bm25.search(text, SERVER_CANDIDATES)?.into_iter().map(|h| (h.id as usize, h.score)).collect();
        let mut server_set: HashSet<usize> =
            snap.server_ann.search(&vector, SERVER_CANDIDATES).iter().map(|h| h.id as usize).collect();
        server_set.extend(server_bm25.keys());
        server_set.extend(hinted);
        let server_weight = (w.server_dense + w.server_bm25).max(f32::EPSILON);
        let mut servers: Vec<(usize, f32)> = server_set
            .into_iter()
            .map(|i| {
                let score = (w.server_dense * cosine(&vector, snap.server_vector(i))
                    + w.server_bm25 * saturate(server_bm25.get(&i).copied().unwrap_or(0.0), w.bm25_k))
                    / server_weight;
                (i, score)
            })
            .collect();
        servers.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        servers.truncate(self.config.top_servers.max(1));

        let tool_bm25: HashMap<usize, f32> = snap
            .tool_bm25
            .search(text, self.config.global_tools * 2)?
            .into_iter()
            .map(|h| (h.id as usize, h.score))
            .collect();
        let mut candidates: HashSet<usize> = HashSet::new();
        for &(s, _) in &servers {
            candidates.extend(snap.server_tools(s));
        }
        for &s in hinted {
            candidates.extend(snap.server_tools(s));
        }
        candidates.extend(snap.tool_ann.search(&vector, self.config.global_tools).iter().map(|h| h.id as usize));
        let mut by_bm25: Vec<(&usize, &f32)> = tool_bm25.iter().collect();
        by_bm25.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
        candidates.extend(by_bm25.iter().take(self.config.global_tools).map(|(i, _)| **i));
        Ok(Pass { vector, server_bm25, tool_bm25, servers, candidates })
    }
}

/// Keeps at most `cap` tools of one server among the first `limit` (hinted servers and the first `keep`
/// tools are exempt, though they count); the tools pushed out follow in their order. Pure.
pub(crate) fn diversify(
    order: Vec<usize>,
    keep: usize,
    server_of: impl Fn(usize) -> usize,
    cap: usize,
    exempt: &HashSet<usize>,
    limit: usize,
) -> Vec<usize> {
    if cap == 0 {
        return order;
    }
    let mut kept = Vec::with_capacity(order.len());
    let mut deferred = Vec::new();
    let mut per_server: HashMap<usize, usize> = HashMap::new();
    for (i, t) in order.into_iter().enumerate() {
        let s = server_of(t);
        let n = per_server.entry(s).or_default();
        if i >= keep && kept.len() < limit && *n >= cap && !exempt.contains(&s) {
            deferred.push(t);
        } else {
            *n += 1;
            kept.push(t);
        }
    }
    kept.extend(deferred);
    kept
}

fn load(index_dir: &Path, embedder: &Embedder, config: &EngineConfig) -> Result<Live> {
    let snapshot = Snapshot::open(index_dir)?;
    if snapshot.manifest.model_id != embedder.model_id() {
        return Err(Error::ModelMismatch {
            index: snapshot.manifest.model_id.clone(),
            loaded: embedder.model_id().to_string(),
        });
    }
    let names = Arc::new(NameIndex::new(&snapshot.servers, &snapshot.tools));
    let threshold = Threshold::for_index(index_dir, config.threshold);
    let pins = Pins::read(index_dir)?;
    let held = snapshot
        .tools
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            let key = format!("{}/{}", snapshot.servers[t.server as usize].server_id, t.name);
            match pins.pinned.get(&key) {
                Some(pin) => pin.hash != t.hash,
                None => pins.quarantine.contains_key(&key),
            }
        })
        .map(|(i, _)| i)
        .collect();
    Ok(Live { snapshot: Arc::new(snapshot), names, threshold, held: Arc::new(held) })
}

fn tool_hit(snap: &Snapshot, names: &NameIndex, t: usize, score: f32, match_kind: MatchKind) -> ToolHit {
    let tool = &snap.tools[t];
    let mut warnings = snap.tool_warnings[t].clone();
    let collisions = names.collisions(t);
    if !collisions.is_empty() {
        warnings.push(format!("same or confusable name as {}", collisions.join(", ")));
    }
    let server = &snap.servers[tool.server as usize];
    ToolHit {
        server: server.name.clone(),
        server_id: server.server_id.clone(),
        name: tool.name.clone(),
        score,
        match_kind,
        derived: tool.derived.clone(),
        warnings,
        tool: raw(&tool.tool_json),
    }
}

fn raw(json: &str) -> Box<RawValue> {
    RawValue::from_string(json.to_string()).expect("tool_json was written by serde_json and is valid JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diversify_caps_filler_but_not_chosen_tools() {
        // Tools 0..6 all on server 0 except 3 and 5 (server 1).
        let server = |t: usize| usize::from(t == 3 || t == 5);
        let none = HashSet::new();
        assert_eq!(diversify(vec![0, 1, 2, 3, 4, 5], 0, server, 2, &none, 5), vec![0, 1, 3, 5, 2, 4]);
        assert_eq!(diversify(vec![0, 1, 2, 3, 4, 5], 3, server, 2, &none, 5), vec![0, 1, 2, 3, 5, 4]);
        assert_eq!(diversify(vec![0, 1, 2, 3], 0, server, 0, &none, 5), vec![0, 1, 2, 3]);
        let hinted: HashSet<usize> = [0].into();
        assert_eq!(diversify(vec![0, 1, 2, 3], 0, server, 1, &hinted, 5), vec![0, 1, 2, 3]);
    }
}
