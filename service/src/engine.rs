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
use toolscout_indexer::{Embedder, EmbedderConfig, Snapshot, cosine};

use crate::fusion::{FusionWeights, Signals, fuse, saturate};
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
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { weights: FusionWeights::default(), threshold: None, top_servers: 5, global_tools: 50 }
    }
}

struct Live {
    snapshot: Snapshot,
    names: NameIndex,
    threshold: Threshold,
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

    fn live(&self) -> Arc<Live> {
        self.live.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The embedding model.
    pub fn embedder(&self) -> &Arc<Embedder> {
        &self.embedder
    }

    /// Answers a discovery request.
    pub fn search(&self, params: &DiscoverParams) -> Result<DiscoverResponse> {
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

        let q = self.embedder.embed_query(query)?;

        // Server level.
        let server_bm25: HashMap<usize, f32> =
            snap.server_bm25.search(query, SERVER_CANDIDATES)?.into_iter().map(|h| (h.id as usize, h.score)).collect();
        let mut server_set: HashSet<usize> =
            snap.server_ann.search(&q, SERVER_CANDIDATES).iter().map(|h| h.id as usize).collect();
        server_set.extend(server_bm25.keys());
        server_set.extend(&hinted);
        let server_weight = (w.server_dense + w.server_bm25).max(f32::EPSILON);
        let server_score = |i: usize| {
            (w.server_dense * cosine(&q, snap.server_vector(i))
                + w.server_bm25 * saturate(server_bm25.get(&i).copied().unwrap_or(0.0), w.bm25_k))
                / server_weight
        };
        let mut servers: Vec<(usize, f32)> = server_set.into_iter().map(|i| (i, server_score(i))).collect();
        servers.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));

        // Tool level.
        let tool_bm25: HashMap<usize, f32> = snap
            .tool_bm25
            .search(query, self.config.global_tools * 2)?
            .into_iter()
            .map(|h| (h.id as usize, h.score))
            .collect();
        let mut candidates: HashSet<usize> = HashSet::new();
        for &(s, _) in servers.iter().take(self.config.top_servers) {
            candidates.extend(snap.server_tools(s));
        }
        for &s in &hinted {
            candidates.extend(snap.server_tools(s));
        }
        candidates.extend(snap.tool_ann.search(&q, self.config.global_tools).iter().map(|h| h.id as usize));
        let mut by_bm25: Vec<(&usize, &f32)> = tool_bm25.iter().collect();
        by_bm25.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
        candidates.extend(by_bm25.iter().take(self.config.global_tools).map(|(i, _)| **i));

        let mut ranked: Vec<(usize, f32)> = candidates
            .into_iter()
            .map(|t| {
                let s = snap.tools[t].server as usize;
                let signals = Signals {
                    tool_dense: cosine(&q, snap.tool_vector(t)),
                    tool_bm25: tool_bm25.get(&t).copied().unwrap_or(0.0),
                    server_dense: cosine(&q, snap.server_vector(s)),
                    server_bm25: server_bm25.get(&s).copied().unwrap_or(0.0),
                };
                let bonus = if hinted.contains(&s) { HINT_BONUS } else { 0.0 };
                (t, fuse(&signals, w) + bonus)
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));

        let named = live.names.named_in(query);
        let threshold = &live.threshold;
        let best = ranked.first().map_or(f32::MIN, |r| r.1);
        let found = !named.is_empty() || threshold.accepts(best);
        let hit = |t: usize, score: f32, kind: MatchKind| tool_hit(snap, t, score, kind);
        let mut tools = Vec::new();
        let mut closest = Vec::new();
        if found {
            tools.extend(named.iter().map(|&t| hit(t, 1.0, MatchKind::Name)));
            let rest = ranked.iter().filter(|(t, _)| !named.contains(t));
            tools.extend(rest.map(|&(t, s)| hit(t, s, MatchKind::Search)));
            tools.truncate(limit);
        } else {
            closest.extend(ranked.iter().take(CLOSEST).map(|&(t, s)| hit(t, s, MatchKind::Search)));
        }
        let servers = servers
            .iter()
            .take(self.config.top_servers)
            .map(|&(s, score)| ServerHit {
                server: snap.servers[s].name.clone(),
                server_id: snap.servers[s].server_id.clone(),
                score,
            })
            .collect();
        Ok(DiscoverResponse {
            status: if found { Status::Found } else { Status::NotFound },
            query: params.query.clone(),
            threshold: threshold.value,
            tools,
            servers,
            closest,
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
        }
    }
}

fn load(index_dir: &Path, embedder: &Embedder, config: &EngineConfig) -> Result<Live> {
    let snapshot = Snapshot::open(index_dir)?;
    if snapshot.manifest.model_id != embedder.model_id() {
        return Err(Error::ModelMismatch {
            index: snapshot.manifest.model_id.clone(),
            loaded: embedder.model_id().to_string(),
        });
    }
    let names = NameIndex::new(&snapshot.servers, &snapshot.tools);
    let threshold = Threshold::for_index(index_dir, config.threshold);
    Ok(Live { snapshot, names, threshold })
}

fn tool_hit(snap: &Snapshot, t: usize, score: f32, match_kind: MatchKind) -> ToolHit {
    let tool = &snap.tools[t];
    let server = &snap.servers[tool.server as usize];
    ToolHit {
        server: server.name.clone(),
        server_id: server.server_id.clone(),
        name: tool.name.clone(),
        score,
        match_kind,
        derived: tool.derived.clone(),
        tool: raw(&tool.tool_json),
    }
}

fn raw(json: &str) -> Box<RawValue> {
    RawValue::from_string(json.to_string()).expect("tool_json was written by serde_json and is valid JSON")
}
