//! Wire types of the discovery API, shared by the library, the REST API, the CLI's `--json` and the
//! meta-tool. One case everywhere: snake_case. Tool objects travel as raw JSON: byte-for-byte what the
//! index stored, which is what the server declared.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolscout_indexer::{FieldDrift, HoldReason};
use utoipa::ToSchema;

use crate::decision::DecisionSource;
use crate::risk::Risk;

/// Tools returned when a request gives no `limit`.
pub const DEFAULT_LIMIT: usize = 5;
/// Largest `limit` accepted.
pub const MAX_LIMIT: usize = 50;
/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 16 * 1024;

/// A discovery request: `POST /v1/discover`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DiscoverParams {
    /// The capability needed, in natural language (or a tool name).
    #[schema(min_length = 1, max_length = 16384, pattern = "\\S")]
    pub query: String,
    /// Optional server name or id to prefer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// How many tools at most (1–50, default 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 50)]
    pub limit: Option<usize>,
    /// Tools the conversation already has (`server_id/name`): they are named, not sent again, in the tail
    /// formats (REST stays stateless; the caller keeps the conversation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loaded: Vec<String>,
}

impl DiscoverParams {
    /// A request for `query` with defaults.
    pub fn new(query: impl Into<String>) -> Self {
        DiscoverParams { query: query.into(), server: None, limit: None, loaded: Vec::new() }
    }
}

/// Whether matching tools were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// `tools` holds the matches.
    Found,
    /// Nothing scored above the threshold; `closest` holds the nearest candidates as a hint.
    NotFound,
}

/// Why a tool is in the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// The query named it.
    Name,
    /// Ranked by search.
    Search,
}

/// One tool in an answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ToolHit {
    /// Its server's name, as the catalog source gives it.
    pub server: String,
    /// Its server's unique id.
    pub server_id: String,
    /// The tool's name.
    pub name: String,
    /// Fused score (1.0 for name matches).
    pub score: f32,
    /// The decision's probability that this tool serves the request (1.0 for name matches).
    pub confidence: f32,
    /// Why it is here.
    #[serde(rename = "match")]
    pub match_kind: MatchKind,
    /// Set when the tool object was derived by an importer rather than declared by the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<String>,
    /// What the description scan found in this definition (hidden characters, instructions aimed at the
    /// model, …); empty when clean.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What calling it can do (`read` … `irreversible`) and why.
    pub risk: Risk,
    /// Servers that declare the same tool set (mirrors, editions): this tool is also theirs, callable
    /// under their ids; only this one is shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternates: Vec<Alternate>,
    /// The MCP `Tool` object, verbatim.
    #[schema(value_type = Object)]
    pub tool: Box<RawValue>,
}

/// A server that mirrors the one of a hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Alternate {
    /// Its name.
    pub server: String,
    /// Its id.
    pub server_id: String,
}

/// One server in an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServerHit {
    /// The server's name.
    pub server: String,
    /// Its unique id.
    pub server_id: String,
    /// Server-level score (dense and BM25 fused).
    pub score: f32,
}

/// The answer to a [`DiscoverParams`].
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DiscoverResponse {
    /// `found` or `not_found`.
    pub status: Status,
    /// The query as received.
    pub query: String,
    /// The request cut in force: the lowest best-tool confidence of a `found` answer.
    pub threshold: f32,
    /// Matching tools, best first (empty when `not_found`).
    pub tools: Vec<ToolHit>,
    /// The best servers for the query.
    pub servers: Vec<ServerHit>,
    /// When `not_found`: the nearest candidates, as a hint; empty otherwise.
    pub closest: Vec<ToolHit>,
    /// When `not_found`: why, when there is something an agent can act on ("Stripe is connected, but
    /// none of its tools can void invoice").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Remarks about the request (e.g. a server hint that matched nothing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A server in `GET /v1/servers`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServerInfoResponse {
    /// Name as the source gives it.
    pub server: String,
    /// Unique id.
    pub server_id: String,
    /// `serverInfo.title`.
    pub title: Option<String>,
    /// `serverInfo.version`.
    pub version: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Number of tools.
    pub tool_count: usize,
    /// Source kind (`stdio`, `livemcpbench`, …).
    pub source: String,
    /// When its tools were last crawled successfully (crawled servers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawled_at: Option<String>,
    /// Set when the server's latest crawl failed and these are its last known tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub stale: Option<toolscout_indexer::Stale>,
}

/// `GET /v1/servers`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServersResponse {
    /// All servers, in catalog order.
    pub servers: Vec<ServerInfoResponse>,
}

/// `GET /v1/servers/{server_id}/tools/{name}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ToolResponse {
    /// The server's name.
    pub server: String,
    /// The server's id.
    pub server_id: String,
    /// The tool's name.
    pub name: String,
    /// Content hash of the definition.
    pub hash: String,
    /// Set when derived by an importer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<String>,
    /// What calling it can do and why.
    pub risk: Risk,
    /// The MCP `Tool` object, verbatim.
    #[schema(value_type = Object)]
    pub tool: Box<RawValue>,
}

/// `GET /healthz`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HealthResponse {
    /// Always `ok` when the service answers.
    pub status: String,
    /// Live snapshot.
    pub snapshot_id: String,
    /// Embedding model of the index.
    pub model_id: String,
    /// Servers indexed.
    pub servers: usize,
    /// Tools indexed.
    pub tools: usize,
    /// The request cut of the decision in force.
    pub threshold: f32,
    /// Where the decision came from.
    pub threshold_source: DecisionSource,
    /// Tools held back by trust-on-first-use until approved.
    #[serde(default)]
    pub quarantined: usize,
}

/// One held-back definition in `GET /v1/admin/pins`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HeldTool {
    /// Why it is held back.
    #[schema(value_type = String)]
    pub reason: HoldReason,
    /// Content hash of the held-back definition.
    pub hash: String,
    /// When it was first held back (RFC 3339).
    pub since: String,
    /// The fields that differ from the pinned definition.
    #[schema(value_type = Vec<Object>)]
    pub drift: Vec<FieldDrift>,
}

/// `GET /v1/admin/pins`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PinsResponse {
    /// Tools pinned.
    pub pinned: usize,
    /// Held-back tools by `server_id/tool`.
    pub quarantine: BTreeMap<String, HeldTool>,
}

/// `POST /v1/admin/pins/approve`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ApproveResponse {
    /// Always `approved`.
    pub status: String,
    /// The approved `server_id/tool`.
    pub tool: String,
    /// The snapshot now live.
    pub snapshot_id: String,
}

/// `POST /v1/admin/reload`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReloadResponse {
    /// Always `reloaded`.
    pub status: String,
    /// The snapshot now live.
    pub snapshot_id: String,
}
