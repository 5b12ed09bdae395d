//! The query engine over one live snapshot: it embeds the request (and its intents) once, runs the
//! stages (`stages/`: retrieve → score → arrange → decide), and answers. Tools named in the query come
//! first. The snapshot can be swapped under running queries ([`Engine::reload`]).

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, RwLock};
use std::time::Instant;

use serde_json::value::RawValue;
use toolscout_indexer::{Embedder, IndexDir, Part, Pins, Snapshot};

use crate::analysis::Analysis;
use crate::decision::{Decision, fingerprint};
use crate::fusion::FusionWeights;
use crate::intents::{IntentPart, intent_parts};
use crate::mirrors::Mirrors;
use crate::names::NameIndex;
use crate::params::{
    Alternate, ApproveResponse, DEFAULT_LIMIT, DiscoverParams, DiscoverResponse, HealthResponse, HeldTool, MAX_LIMIT,
    MAX_QUERY_CHARS, MatchKind, PinsResponse, ServerHit, ServerInfoResponse, ServersResponse, Status, ToolHit,
    ToolResponse,
};
use crate::policy::Profile;
use crate::profile::Profiles;
use crate::query_cache::QueryCache;
use crate::risk::{Risk, RiskOverrides, classify, request_classes};
use crate::stages::Candidate;
use crate::stages::arrange::{Arranging, arrange};
use crate::stages::decide::{Request, decide, reason};
use crate::stages::retrieve::retrieve;
use crate::stages::score::{Scoring, score};
use crate::{Error, Result};

/// How the engine ranks.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Fusion weights.
    pub weights: FusionWeights,
    /// Overrides the decision's request cut (a probability).
    pub request_cut: Option<f32>,
    /// Servers whose tools are all scored.
    pub top_servers: usize,
    /// Tools taken from each global pass (dense and BM25).
    pub global_tools: usize,
    /// Retrieve separately for each intent of a compound request.
    pub multi_intent: bool,
    /// Most tools of one server in an answer, unless the request hints at that server (0: no cap).
    pub max_per_server: usize,
    /// A tool over the per-server cap keeps its place unless another server's tool has at least this
    /// share of its confidence (0: the cap always applies): the cap trades a server's next tool for a
    /// comparable one of another server, not for filler.
    pub cap_yield: f32,
    /// Leave out tools whose definition the description scan flagged (they are kept, with `warnings`,
    /// otherwise).
    pub exclude_flagged: bool,
    /// Order answers by fused score instead of the decision's probability (to measure what the learned
    /// order adds).
    pub order_by_fused: bool,
    /// Candidates of each pass the decision scores, best fused scores first (the decision is fitted on
    /// the same number; the rest cannot be delivered).
    pub rerank_depth: usize,
    /// Operator overrides of tools' risk classes (a policy file's `[risk]` table).
    pub risk_overrides: RiskOverrides,
    /// Answer a mirror server's tools as the first server of its group (off: to measure what it does).
    pub collapse_mirrors: bool,
    /// A request with quoted text is also searched without it (`payload.rs`; off: to measure it).
    pub unquoted_pass: bool,
    /// A compound request's intents are read in the context of the whole request, from its one inference
    /// (off: each intent embedded on its own, as it was).
    pub intents_in_context: bool,
    /// Bar tools that would act on the wrong thing (`guard.rs`): another service's tool for a request that
    /// acts on a named one, another action or another deleted thing for an irreversible request (off: to
    /// measure it).
    pub guard: bool,
    /// A request is not found when its best tool the guard does not bar has less than this share of the
    /// confidence of the best tool the guard bars: what is left is a weaker near miss (0: off, to measure
    /// it).
    pub overshadow: f32,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            weights: FusionWeights::default(),
            request_cut: None,
            top_servers: 5,
            global_tools: 50,
            multi_intent: true,
            max_per_server: 3,
            // Chosen on the dev sets (BENCHMARKS.md, "The per-server cap yields only to comparable tools").
            cap_yield: 0.3,
            exclude_flagged: false,
            rerank_depth: 30,
            order_by_fused: false,
            risk_overrides: RiskOverrides::new(),
            collapse_mirrors: true,
            unquoted_pass: true,
            intents_in_context: true,
            guard: true,
            // Chosen on the dev sets (BENCHMARKS.md, "… what is left when the guard bars the best").
            overshadow: 0.7,
        }
    }
}

impl EngineConfig {
    /// Identifies what shapes feature values; calibrations record it.
    pub fn fingerprint(&self) -> String {
        fingerprint(self)
    }
}

/// A ranked and decided request, before it is shaped into a response. Evaluation reads it directly.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// Tools named in the query, in order of mention (score 1.0).
    pub named: Vec<ToolHit>,
    /// The arranged candidates (at most `limit`), kept by the decision or not.
    pub ranked: Vec<ToolHit>,
    /// What the answer delivers: named tools, then ranked tools the decision keeps (empty when not found).
    pub delivered: Vec<ToolHit>,
    /// `found`?
    pub found: bool,
    /// The best servers.
    pub servers: Vec<ServerHit>,
    /// The request cut in force.
    pub threshold: f32,
    /// Remarks about the request.
    pub notes: Vec<String>,
    /// Why nothing was found, when there is something useful to say.
    pub reason: Option<String>,
}

/// Wall time of each stage of one request, in seconds (the same code path as [`Engine::rank`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StageTimes {
    /// Embedding the request and its intents (zero when cached).
    pub embed: f64,
    /// Retrieval passes (BM25, HNSW, server level).
    pub retrieve: f64,
    /// Scoring every candidate (features and the decision model).
    pub score: f64,
    /// Arranging and deciding.
    pub decide: f64,
    /// Candidates scored.
    pub candidates: usize,
    /// Retrieval passes (1 + intents).
    pub passes: usize,
}

/// One candidate's features, for fitting a decision model.
#[derive(Debug, Clone)]
pub struct Examined {
    /// Server name.
    pub server: String,
    /// Tool name.
    pub tool: String,
    /// Features in its best pass ([`crate::FEATURES`] order).
    pub features: crate::Features,
    /// Fused score in its best pass.
    pub score: f32,
}

#[derive(Clone)]
struct Live {
    snapshot: Arc<Snapshot>,
    names: Arc<NameIndex>,
    profiles: Arc<Profiles>,
    decision: Decision,
    /// Tools held back by trust-on-first-use (their definition differs from the pinned one, or their
    /// server is new and quarantined), by index.
    held: Arc<HashSet<usize>>,
    /// Each tool's risk class, by index.
    risks: Arc<Vec<Risk>>,
    /// Servers with the same tool set.
    mirrors: Arc<Mirrors>,
}

/// A searchable index: a live snapshot and the embedding model that queries it.
pub struct Engine {
    index: IndexDir,
    embedder: Arc<dyn Embedder>,
    config: EngineConfig,
    cache: QueryCache,
    live: RwLock<Arc<Live>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("index", &self.index).field("config", &self.config).finish()
    }
}

/// What one request needs before its candidates are scored.
struct Prepared {
    times: StageTimes,
    /// Passes that get a place of their own in the answer: the whole request (with its variants), then
    /// each intent.
    slots: Vec<Vec<usize>>,
    live: Arc<Live>,
    analyses: Vec<Analysis>,
    /// Per pass: the pass whose analysis the guard reads (its own, or the request's for the unquoted pass).
    guarded_as: Vec<usize>,
    passes: Vec<crate::stages::retrieve::Pass>,
    named: Vec<usize>,
    hinted: HashSet<usize>,
    candidates: Vec<usize>,
    notes: Vec<String>,
    limit: usize,
    /// Candidates (and named tools) the caller's profile hid.
    hidden: usize,
    /// The request is not written in English (`language.rs`): judged by the foreign request cut.
    foreign: bool,
    /// It is an everyday question that also runs written plainly (`questions.rs`).
    asked: bool,
}

impl Engine {
    /// Opens the index at `index_dir` with a loaded model.
    pub fn with_embedder(index_dir: &Path, embedder: Arc<dyn Embedder>, config: EngineConfig) -> Result<Engine> {
        let index = IndexDir::new(index_dir);
        let live = load(&index, embedder.as_ref(), &config)?;
        Ok(Engine { index, embedder, config, cache: QueryCache::default(), live: RwLock::new(Arc::new(live)) })
    }

    /// Opens the index's current snapshot again and swaps it in; running queries finish on the old one.
    /// Returns the live snapshot id.
    pub fn reload(&self) -> Result<String> {
        let live = Arc::new(load(&self.index, self.embedder.as_ref(), &self.config)?);
        let id = live.snapshot.manifest.snapshot_id.clone();
        *self.live.write().unwrap_or_else(|e| e.into_inner()) = live;
        Ok(id)
    }

    /// The same live snapshot and model under another configuration (for tuning and evaluation).
    pub fn reconfigured(&self, config: EngineConfig) -> Result<Engine> {
        let mut live = (*self.live()).clone();
        live.decision =
            Decision::for_index(&self.index, self.embedder.model_id(), &config.fingerprint(), config.request_cut)?;
        Ok(Engine {
            index: self.index.clone(),
            embedder: self.embedder.clone(),
            config,
            cache: QueryCache::default(),
            live: RwLock::new(Arc::new(live)),
        })
    }

    /// The same engine deciding with `decision` (for calibration).
    pub fn with_decision(&self, decision: Decision) -> Engine {
        let mut live = (*self.live()).clone();
        live.decision = decision;
        Engine {
            index: self.index.clone(),
            embedder: self.embedder.clone(),
            config: self.config.clone(),
            cache: QueryCache::default(),
            live: RwLock::new(Arc::new(live)),
        }
    }

    fn live(&self) -> Arc<Live> {
        self.live.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The index folder.
    pub fn index_dir(&self) -> &IndexDir {
        &self.index
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The embedding model.
    pub fn embedder(&self) -> &Arc<dyn Embedder> {
        &self.embedder
    }

    /// The live snapshot.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.live().snapshot.clone()
    }

    /// The decision in force.
    pub fn decision(&self) -> Decision {
        self.live().decision.clone()
    }

    /// Forgets cached query vectors, so the next request is timed with its embedding.
    pub fn clear_query_cache(&self) {
        self.cache.clear();
    }

    /// Approves the held-back definition of `server_id/tool` (trust on first use) and reloads so it is
    /// served.
    pub fn approve(&self, key: &str) -> Result<ApproveResponse> {
        let mut pins = self.index.read_pins()?;
        pins.approve(key).map_err(|e| Error::NotFound(e.to_string()))?;
        self.index.write_pins(&pins)?;
        let snapshot_id = self.reload()?;
        Ok(ApproveResponse { status: "approved".into(), tool: key.to_string(), snapshot_id })
    }

    /// Trust-on-first-use state: how many tools are pinned, and what is held back with its drift.
    pub fn pins(&self) -> Result<PinsResponse> {
        let pins: Pins = self.index.read_pins()?;
        let quarantine = pins
            .quarantine
            .iter()
            .map(|(k, q)| {
                let held = HeldTool {
                    reason: q.reason,
                    hash: q.hash.clone(),
                    since: q.since.clone(),
                    drift: pins.diff(k).unwrap_or_default(),
                };
                (k.clone(), held)
            })
            .collect();
        Ok(PinsResponse { pinned: pins.pinned.len(), quarantine })
    }

    /// Answers a discovery request.
    pub fn search(&self, params: &DiscoverParams) -> Result<DiscoverResponse> {
        self.search_as(params, None)
    }

    /// Answers a discovery request for a caller acting as `profile` (`(name, profile)`): tools the profile
    /// does not permit are never returned, as hits or as `closest`. When only such tools could serve the
    /// request, the `not_found` says a policy hid them, without naming them.
    pub fn search_as(&self, params: &DiscoverParams, profile: Option<(&str, &Profile)>) -> Result<DiscoverResponse> {
        let (ranking, _, hidden) = self.rank_inner(params, &[], profile.map(|(_, p)| p))?;
        // A request whose every action is above the profile's class ("delete …" for a reader) is one it
        // may not have served, whatever lesser tool comes close.
        if let Some((name, p)) = profile {
            let asked = request_classes(&params.query);
            if !asked.is_empty() && asked.iter().all(|(_, c)| *c > p.max_risk) {
                let (verb, class) = &asked[0];
                return Ok(DiscoverResponse {
                    status: Status::NotFound,
                    query: params.query.clone(),
                    threshold: ranking.threshold,
                    tools: Vec::new(),
                    servers: ranking.servers,
                    closest: Vec::new(),
                    reason: Some(format!(
                        "the policy of profile {name:?} allows tools up to risk class {}, and this request asks to \
                         {verb} ({class})",
                        p.max_risk
                    )),
                    notes: ranking.notes,
                });
            }
        }
        let mut reason = ranking.reason;
        if let Some((name, _)) = profile
            && !ranking.found
            && hidden > 0
            && self.rank_inner(params, &[], None)?.0.found
        {
            reason = Some(format!(
                "tools that serve this request exist, but the policy of profile {name:?} does not allow them"
            ));
        }
        let mut closest: Vec<ToolHit> =
            if ranking.found { Vec::new() } else { ranking.ranked.into_iter().take(3).collect() };
        let mut tools = ranking.delivered;
        if let Some((_, p)) = profile {
            // Alternates the profile may not see are not named either.
            for hit in tools.iter_mut().chain(closest.iter_mut()) {
                hit.alternates.retain(|a| p.server_allowed(&a.server_id, &a.server));
            }
        }
        Ok(DiscoverResponse {
            status: if ranking.found { Status::Found } else { Status::NotFound },
            query: params.query.clone(),
            threshold: ranking.threshold,
            tools,
            servers: ranking.servers,
            closest,
            reason,
            notes: ranking.notes,
        })
    }

    /// Ranks and decides a request.
    pub fn rank(&self, params: &DiscoverParams) -> Result<Ranking> {
        self.rank_excluding(params, &[])
    }

    /// [`Engine::rank`] as if the tools `exclude` (`(server name, tool name)`) were not in the index —
    /// how evaluation builds near-miss requests without an index per query.
    #[tracing::instrument(level = "debug", skip_all, fields(limit = params.limit, hint = params.server.as_deref()))]
    pub fn rank_excluding(&self, params: &DiscoverParams, exclude: &[(String, String)]) -> Result<Ranking> {
        self.rank_timed(params, exclude).map(|(r, _)| r)
    }

    /// [`Engine::rank_excluding`], with the time each stage took.
    pub fn rank_timed(&self, params: &DiscoverParams, exclude: &[(String, String)]) -> Result<(Ranking, StageTimes)> {
        self.rank_inner(params, exclude, None).map(|(r, t, _)| (r, t))
    }

    /// Ranks, seeing only what `profile` permits; also says how many candidates it hid.
    fn rank_inner(
        &self,
        params: &DiscoverParams,
        exclude: &[(String, String)],
        profile: Option<&Profile>,
    ) -> Result<(Ranking, StageTimes, usize)> {
        let prepared = self.prepare(params, exclude, profile)?;
        let mut times = prepared.times;
        let live = &prepared.live;
        let snap = &live.snapshot;
        let started = Instant::now();
        let candidates = self.score(&prepared);
        times.score = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let arranging = Arranging {
            cap: self.config.max_per_server,
            cap_yield: self.config.cap_yield,
            limit: prepared.limit,
            hinted: &prepared.hinted,
            by_fused: self.config.order_by_fused,
        };
        let order = arrange(&candidates, &prepared.slots, &arranging);
        let whole = &prepared.analyses[0];
        // A request for writing is served only by a tool named for what it writes, among those it would
        // deliver ("write a haiku" → `haiku_generator`); a question of what differs between two things in
        // general likewise ("what's the difference between a crocodile and an alligator" → not `git_diff`).
        let composes = (whole.composes || whole.compares_in_general) && {
            let written: Vec<_> = whole
                .object_words
                .iter()
                .flat_map(|w| toolscout_indexer::terms(w))
                .filter_map(|t| live.profiles.id(&t))
                .collect();
            let named_for =
                |c: &usize| written.iter().any(|w| live.profiles.tools[candidates[*c].tool].name.contains(w));
            !order.iter().take(prepared.limit).any(named_for)
        };
        let request = Request {
            named: prepared.named.len(),
            missing_service: !whole.missing_services.is_empty(),
            foreign: prepared.foreign,
            composes,
            asked: prepared.asked,
        };
        let verdict = decide(&candidates, &order, request, &live.decision, prepared.limit, self.config.overshadow);
        let hit = |c: usize| {
            tool_hit(live, candidates[c].tool, candidates[c].score(), candidates[c].confidence(), MatchKind::Search)
        };
        let named: Vec<ToolHit> =
            prepared.named.iter().map(|&t| tool_hit(live, t, 1.0, 1.0, MatchKind::Name)).collect();
        let ranked: Vec<ToolHit> = order.iter().take(prepared.limit).map(|&c| hit(c)).collect();
        let mut delivered = Vec::new();
        if verdict.found {
            delivered.extend(named.iter().cloned());
            delivered.extend(verdict.delivered.iter().map(|&c| hit(c)));
        }
        let why = if verdict.found {
            None
        } else {
            let analysis = &prepared.analyses[0];
            // The service the reason names is one the guard counts as named ("create a new manual activity
            // on Strava" names Strava, not `MCP Create`).
            let named_service = analysis
                .named_servers
                .iter()
                .find(|&&s| crate::guard::counts_as_named(analysis, &live.profiles, s))
                .map(|&s| snap.servers[s].name.as_str());
            let closest: Vec<(&str, &str, &[crate::actions::Family])> = verdict
                .closest
                .iter()
                .map(|&c| {
                    let t = candidates[c].tool;
                    (
                        snap.servers[candidates[c].server].server_id.as_str(),
                        snap.tools[t].name.as_str(),
                        live.profiles.tools[t].actions.as_slice(),
                    )
                })
                .collect();
            let overshadowed_by = verdict.overshadowed_by.map(|c| {
                (snap.servers[candidates[c].server].server_id.as_str(), snap.tools[candidates[c].tool].name.as_str())
            });
            reason(analysis, request.composes, &closest, named_service, overshadowed_by)
        };
        let servers = prepared.passes[0]
            .servers
            .iter()
            .filter(|&&(s, _)| {
                profile.is_none_or(|p| p.server_allowed(&snap.servers[s].server_id, &snap.servers[s].name))
            })
            .take(self.config.top_servers)
            .map(|&(s, score)| ServerHit {
                server: snap.servers[s].name.clone(),
                server_id: snap.servers[s].server_id.clone(),
                score,
            })
            .collect();
        times.decide = started.elapsed().as_secs_f64();
        let ranking = Ranking {
            named,
            ranked,
            delivered,
            found: verdict.found,
            servers,
            threshold: live.decision.request_cut_for(request.foreign),
            notes: prepared.notes,
            reason: why,
        };
        Ok((ranking, times, prepared.hidden))
    }

    /// Every scored candidate of a request (best pass features), best fused score first: what
    /// calibration fits the decision on. `exclude` as in [`Engine::rank_excluding`].
    pub fn examine(&self, params: &DiscoverParams, exclude: &[(String, String)]) -> Result<(Vec<Examined>, usize)> {
        let prepared = self.prepare(params, exclude, None)?;
        let snap = &prepared.live.snapshot;
        let mut candidates = self.score(&prepared);
        candidates.sort_by(|a, b| b.score().total_cmp(&a.score()).then(a.tool.cmp(&b.tool)));
        let examined = candidates
            .iter()
            .map(|c| Examined {
                server: snap.servers[c.server].name.clone(),
                tool: snap.tools[c.tool].name.clone(),
                features: c.features,
                score: c.score(),
            })
            .collect();
        Ok((examined, prepared.named.len()))
    }

    fn score(&self, p: &Prepared) -> Vec<Candidate> {
        let live = &p.live;
        let scoring = Scoring {
            snap: &live.snapshot,
            profiles: &live.profiles,
            weights: &self.config.weights,
            decision: &live.decision,
            hinted: &p.hinted,
            depth: self.config.rerank_depth,
            per_server: self.config.max_per_server,
            guard: self.config.guard,
        };
        score(&scoring, &p.passes, &p.analyses, &p.guarded_as, &p.candidates)
    }

    fn prepare(
        &self,
        params: &DiscoverParams,
        exclude: &[(String, String)],
        profile: Option<&Profile>,
    ) -> Result<Prepared> {
        let _preparing = crate::stages::retrieve::Preparing::enter();
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
        let mut notes = Vec::new();
        // A request written as a letter is read without its greeting, pleasantries and signature
        // (`letter::unframed`): each would be a part that looks up its own words.
        let unframed = crate::letter::unframed(query);
        if unframed.is_some() {
            notes.push("read without the letter's greeting and signature".to_string());
        }
        let query = unframed.as_deref().unwrap_or(query);
        // A request that passes on someone else's words ("Our PM wrote: '…' Can you do that?") asks what
        // they ask: the quote is read as the request, not as its payload (`payload::relayed`).
        let relayed = crate::payload::relayed(query);
        if let Some(r) = &relayed {
            notes.push(format!("read as {r:?}"));
        }
        let query = relayed.as_deref().unwrap_or(query);
        // A how-to question sent to a service's documentation is read as searching it (`questions.rs`,
        // rules written `=>>`): as typed, its verbs would act on the service it only asks about.
        let read_as = crate::questions::read_as(query);
        if let Some(read) = &read_as {
            notes.push(format!("read as {read:?}"));
        }
        let query = read_as.as_deref().unwrap_or(query);
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
        let excluded: HashSet<usize> = if exclude.is_empty() {
            HashSet::new()
        } else {
            let wanted: HashSet<(&str, &str)> = exclude.iter().map(|(s, t)| (s.as_str(), t.as_str())).collect();
            (0..snap.tools.len())
                .filter(|&t| {
                    wanted.contains(&(
                        snap.servers[snap.tools[t].server as usize].name.as_str(),
                        snap.tools[t].name.as_str(),
                    ))
                })
                .collect()
        };
        // One pass for the whole request, and one per intent when it asks for several things.
        let parts = if self.config.multi_intent { intent_parts(query) } else { Vec::new() };
        // A part that only tells what someone did is context, not a part of the request; so is one that only
        // asks to hear back how it went ("Please advise once the channel exists").
        let table = crate::actions::families();
        let (told, asked): (Vec<_>, Vec<_>) = parts.into_iter().partition(|p| {
            crate::actions::only_tells_what_was_done(table, &p.text) || crate::actions::only_asks_to_hear_back(&p.text)
        });
        let told: Vec<String> = told.into_iter().map(|p| p.text).collect();
        let mut parts = asked;
        if parts.len() < 2 {
            parts.clear();
        }
        let mut texts = vec![query.to_string()];
        texts.extend(parts.iter().map(|p| p.text.clone()));
        let mut slots: Vec<Vec<usize>> = (0..texts.len()).map(|p| vec![p]).collect();
        // A request that saves to a file path also asks to write a file: a place of its own.
        if self.config.multi_intent
            && let Some(write) = crate::intents::implied_file_write(query)
        {
            notes.push(format!("also searched as {write:?}"));
            slots.push(vec![texts.len()]);
            texts.push(write);
        }
        // A request that summarizes or translates a file or a web page also asks to read it.
        if self.config.multi_intent
            && let Some(read) = crate::intents::implied_read(query)
        {
            notes.push(format!("also searched as {read:?}"));
            slots.push(vec![texts.len()]);
            texts.push(read);
        }
        // A request with abbreviations also runs spelled out ("open a PR"), a misspelled one respelled
        // against the catalog's words ("serch wikipeda"), and one with quoted text without it ("add 'renew
        // passport' to my to-do list"): extra passes of the same intent.
        let spelled = crate::expand::spelled_out(query);
        let respelled = live.profiles.respell(spelled.as_deref().unwrap_or(query));
        let unquoted = if self.config.unquoted_pass { crate::payload::without_quoted(query) } else { None };
        // A request that browses a web address also runs with the address named for what it is ("open a
        // website in the browser"): the address's words ("news.ycombinator.com") pull toward tools about them.
        let addressed = crate::payload::with_addresses_named(query);
        // A request that reads a file path also runs as reading that kind of file ("read a markdown file").
        let read = crate::intents::plain_read(query);
        // A request whose verb is what it makes ("email the report to Ann") also runs as the plain request
        // ("send an email").
        let plain = crate::intents::plainly(query);
        // A request asked as an everyday question ("is it going to rain in Berlin") also runs as the plain
        // request a tool describes ("get the weather forecast (rain) in Berlin"), which the guard reads
        // for that pass: the question itself names no action.
        // (Its abbreviations spelled out: "any open PRs" is "list the open pull requests"; a path it reads
        // read as that kind of file: "what does contract.pdf say" is "read a pdf file".)
        let asked = crate::questions::plainly_asked(query)
            .map(|a| crate::expand::spelled_out(&a).unwrap_or(a))
            .map(|a| crate::intents::plain_read(&a).unwrap_or(a));
        let is_asked = asked.is_some();
        // The guard reads the unquoted pass as the request: without its quoted payload it would not say
        // what it makes ("add to my to-do list"). It reads the plain pass as the request too, which says
        // what else the request names ("comment on the figma file …").
        let mut guarded_as: Vec<usize> = (0..texts.len()).collect();
        // A part that only tells how things are sets the scene of another part: its pass finds what the
        // scene is about, but the guard reads the whole request for it ("Airbnb listing 53912345 looks
        // nice. Please reserve it for two guests": the listing's reading tools do not reserve it).
        // So does a part that only says what to leave as it is ("…; leave the other sheets alone").
        let context: Vec<bool> = parts
            .iter()
            .map(|p| {
                crate::actions::only_sets_the_scene(table, &p.text)
                    || crate::actions::only_bounds_another(&p.text)
                    || crate::actions::only_defers(&p.text)
            })
            .collect();
        if context.contains(&false) {
            for (i, _) in context.iter().enumerate().filter(|(_, c)| **c) {
                guarded_as[i + 1] = 0;
            }
        }
        let mut respelled_at = None;
        for (alternative, read_as_request, is_respelled) in [
            (spelled, false, false),
            (respelled, false, true),
            (unquoted, true, false),
            (plain, true, false),
            (addressed, true, false),
            (read, true, false),
            (asked, false, false),
        ] {
            let Some(alternative) = alternative else { continue };
            notes.push(format!("also searched as {alternative:?}"));
            if is_respelled {
                respelled_at = Some(texts.len());
            }
            slots[0].push(texts.len());
            guarded_as.push(if read_as_request { 0 } else { texts.len() });
            texts.push(alternative);
        }
        let mut times = StageTimes { passes: texts.len(), ..StageTimes::default() };
        let started = Instant::now();
        let vectors = self.embed_request(&texts, &parts)?;
        times.embed = started.elapsed().as_secs_f64();
        let started = Instant::now();
        // The lexical side reads a name written against Chinese or Japanese letters as a word of its own
        // (`language::spaced_between_scripts`); the model reads the request as written.
        let lexical: Vec<String> =
            texts.iter().map(|t| crate::language::spaced_between_scripts(t).unwrap_or_else(|| t.clone())).collect();
        let passes = retrieve(snap, &self.config, &lexical, vectors, &hinted)?;
        times.retrieve = started.elapsed().as_secs_f64();
        let mut analyses: Vec<Analysis> = lexical.iter().map(|t| Analysis::new(t, &live.profiles)).collect();
        // What the whole request lends its parts: the services a scene part names, and what it rules out
        // (`whole.rs`).
        let told: Vec<Analysis> = if parts.is_empty() {
            Vec::new()
        } else {
            told.iter()
                .map(|t| crate::language::spaced_between_scripts(t).unwrap_or_else(|| t.clone()))
                .map(|t| Analysis::new(&t, &live.profiles))
                .collect()
        };
        crate::whole::lend_scene_services(&mut analyses, &context, &told, &live.profiles);
        crate::whole::share_what_is_ruled_out(&mut analyses);
        // A request whose verb is misspelled ("deactivte the workflow") shows its action only respelled: the
        // guard reads the respelled request wherever it would read the request.
        if let Some(r) = respelled_at.filter(|&r| analyses[0].families.is_empty() && !analyses[r].families.is_empty()) {
            for g in guarded_as.iter_mut().filter(|g| **g == 0) {
                *g = r;
            }
        }
        let mut named: Vec<usize> = live
            .names
            .named_in(&lexical[0])
            .into_iter()
            .filter(|t| !live.held.contains(t) && !excluded.contains(t))
            .collect();
        // A mirror's tool is the tool of the first server of its group: one capability, shown once (unless
        // the caller's profile may not see that one, and then the mirror's own stands).
        let stand_in = |t: usize| {
            if !self.config.collapse_mirrors {
                return t;
            }
            let c = live.mirrors.canonical(t);
            if profile.is_none_or(|p| permits(&live, p, c)) { c } else { t }
        };
        let mut candidates: Vec<usize> =
            passes.iter().flat_map(|p| p.candidates.iter().map(|&t| stand_in(t))).collect();
        candidates.sort_unstable();
        candidates.dedup();
        candidates.retain(|t| !named.contains(t) && !live.held.contains(t) && !excluded.contains(t));
        if self.config.exclude_flagged {
            candidates.retain(|&t| snap.tool_warnings[t].is_empty());
        }
        let mut hidden = 0;
        if let Some(profile) = profile {
            let before = candidates.len() + named.len();
            let permitted = |&t: &usize| permits(&live, profile, t);
            named.retain(permitted);
            candidates.retain(permitted);
            hidden = before - candidates.len() - named.len();
        }
        times.candidates = candidates.len();
        Ok(Prepared {
            times,
            slots,
            live: live.clone(),
            analyses,
            guarded_as,
            passes,
            named,
            hinted,
            candidates,
            notes,
            limit,
            hidden,
            foreign: crate::language::foreign(query),
            asked: is_asked,
        })
    }

    /// Vectors of a request's `texts`: the request, its intents (`parts`), then other forms of it. With
    /// [`EngineConfig::intents_in_context`] the request and its intents come from one inference of the
    /// request (cached under the request and each intent's place in it).
    fn embed_request(&self, texts: &[String], parts: &[IntentPart]) -> Result<Vec<Vec<f32>>> {
        if parts.is_empty() || !self.config.intents_in_context {
            return self.embed(texts);
        }
        let head = parts.len() + 1;
        let keys: Vec<String> = std::iter::once(texts[0].clone())
            .chain(parts.iter().map(|p| format!("{}\u{0}{:?}", texts[0], p.spans)))
            .collect();
        let cached: Option<Vec<Vec<f32>>> = keys.iter().map(|k| self.cache.get(k)).collect();
        let mut vectors = match cached {
            Some(v) => v,
            None => {
                let spans: Vec<Part<'_>> = parts.iter().map(|p| Part { text: &p.text, spans: &p.spans }).collect();
                let v = self.embedder.embed_in_context(&texts[0], &spans)?;
                if v.len() != head {
                    return Err(too_few_vectors());
                }
                keys.iter().zip(&v).for_each(|(k, v)| self.cache.put(k, v));
                v
            }
        };
        vectors.extend(self.embed(&texts[head..])?);
        Ok(vectors)
    }

    /// Vectors of `texts`: cached ones reused, the rest embedded in one call.
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        let mut out: Vec<Option<Vec<f32>>> = texts.iter().map(|t| self.cache.get(t)).collect();
        let missing: Vec<usize> = (0..texts.len()).filter(|&i| out[i].is_none()).collect();
        if !missing.is_empty() {
            let batch: Vec<String> = missing.iter().map(|&i| texts[i].clone()).collect();
            let vectors = self.embedder.embed_queries(&batch)?;
            for (&i, v) in missing.iter().zip(vectors) {
                self.cache.put(&texts[i], &v);
                out[i] = Some(v);
            }
        }
        out.into_iter().map(|v| v.ok_or_else(too_few_vectors)).collect()
    }

    /// All servers of the live snapshot.
    pub fn servers(&self) -> ServersResponse {
        self.servers_as(None)
    }

    /// The servers a caller acting as `profile` may see.
    pub fn servers_as(&self, profile: Option<&Profile>) -> ServersResponse {
        let live = self.live();
        let servers = live
            .snapshot
            .servers
            .iter()
            .filter(|s| profile.is_none_or(|p| p.server_allowed(&s.server_id, &s.name)))
            .map(|s| ServerInfoResponse {
                server: s.name.clone(),
                server_id: s.server_id.clone(),
                title: s.title.clone(),
                version: s.version.clone(),
                description: s.description.clone(),
                tool_count: s.tool_count as usize,
                source: s.source_kind.clone(),
                crawled_at: s.crawled_at.clone(),
                stale: s.stale.clone(),
            })
            .collect();
        ServersResponse { servers }
    }

    /// One tool's stored definition.
    pub fn tool(&self, server_id: &str, name: &str) -> Result<ToolResponse> {
        self.tool_as(server_id, name, None)
    }

    /// One tool's stored definition, if `profile` permits it (a tool it does not permit is "not found",
    /// exactly as one that does not exist).
    pub fn tool_as(&self, server_id: &str, name: &str, profile: Option<&Profile>) -> Result<ToolResponse> {
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
        if let Some(p) = profile
            && !permits(&live, p, t)
        {
            return Err(Error::NotFound(format!("server {server_id:?} has no tool {name:?}")));
        }
        let tool = &snap.tools[t];
        Ok(ToolResponse {
            server: snap.servers[s].name.clone(),
            server_id: server_id.to_string(),
            name: tool.name.clone(),
            hash: tool.hash.clone(),
            derived: tool.derived.clone(),
            risk: live.risks[t].clone(),
            tool: raw(snap.tool_json(t)),
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
            threshold: live.decision.request_cut(),
            threshold_source: live.decision.source.clone(),
            quarantined: live.held.len(),
        }
    }
}

fn load(index: &IndexDir, embedder: &dyn Embedder, config: &EngineConfig) -> Result<Live> {
    let snapshot = Snapshot::open(index)?;
    if snapshot.manifest.model_id != embedder.model_id() {
        return Err(Error::ModelMismatch {
            index: snapshot.manifest.model_id.clone(),
            loaded: embedder.model_id().to_string(),
        });
    }
    let decision = Decision::for_index(index, embedder.model_id(), &config.fingerprint(), config.request_cut)?;
    let names = Arc::new(NameIndex::new(&snapshot.servers, &snapshot.tools));
    let profiles = Arc::new(Profiles::new(&snapshot, embedder.known_words()));
    let pins = index.read_pin_hashes()?;
    let held = snapshot
        .tools
        .iter()
        .enumerate()
        .filter(|(_, t)| pins.holds(&format!("{}/{}", snapshot.servers[t.server as usize].server_id, t.name), &t.hash))
        .map(|(i, _)| i)
        .collect();
    // Each tool object parsed once, for its risk class and its schema digest, and dropped at once: holding
    // every parsed object (gigabytes at 100K tools) would stay in the process's footprint for good.
    let mut risks = Vec::with_capacity(snapshot.tools.len());
    let mut schemas = Vec::with_capacity(snapshot.tools.len());
    for (i, t) in snapshot.tools.iter().enumerate() {
        let object: serde_json::Value = serde_json::from_str(snapshot.tool_json(i)).unwrap_or(serde_json::Value::Null);
        risks.push(classify(&snapshot.servers[t.server as usize].server_id, &t.name, &object, &config.risk_overrides));
        schemas.push(crate::mirrors::schema_digest(&object));
    }
    let mirrors = Arc::new(Mirrors::new(&snapshot, &schemas));
    // Every tool object was read once above; an answer reads only its own few (file-backed pages that would
    // otherwise stay in the footprint: ~130 MB at 100K tools).
    snapshot.release_tool_objects();
    Ok(Live {
        snapshot: Arc::new(snapshot),
        names,
        profiles,
        decision,
        held: Arc::new(held),
        risks: Arc::new(risks),
        mirrors,
    })
}

/// Whether `profile` permits tool `t`.
fn permits(live: &Live, profile: &Profile, t: usize) -> bool {
    let snap = &live.snapshot;
    let server = &snap.servers[snap.tools[t].server as usize];
    profile.permits(&server.server_id, &server.name, &snap.tools[t].name, &live.risks[t])
}

fn tool_hit(live: &Live, t: usize, score: f32, confidence: f32, match_kind: MatchKind) -> ToolHit {
    let snap = &live.snapshot;
    let tool = &snap.tools[t];
    let mut warnings = snap.tool_warnings[t].clone();
    let collisions = live.names.collisions(t);
    if !collisions.is_empty() {
        warnings.push(format!("same or confusable name as {}", collisions.join(", ")));
    }
    let server = &snap.servers[tool.server as usize];
    ToolHit {
        server: server.name.clone(),
        server_id: server.server_id.clone(),
        name: tool.name.clone(),
        score,
        confidence,
        match_kind,
        derived: tool.derived.clone(),
        warnings,
        risk: live.risks[t].clone(),
        alternates: live
            .mirrors
            .alternates(tool.server as usize)
            .iter()
            .map(|&s| Alternate { server: snap.servers[s].name.clone(), server_id: snap.servers[s].server_id.clone() })
            .collect(),
        tool: raw(snap.tool_json(t)),
    }
}

fn raw(json: &str) -> Box<RawValue> {
    RawValue::from_string(json.to_string()).expect("tool_json was written by serde_json and is valid JSON")
}

/// The error when the model returns fewer vectors than texts.
fn too_few_vectors() -> Error {
    Error::Index(toolscout_indexer::Error::Embed("the model returned too few vectors".into()))
}
