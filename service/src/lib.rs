//! The query engine and the REST API of toolscout.
//!
//! [`Engine`] ranks servers, then tools (within the top servers plus a global pass), fuses dense and BM25
//! signals into one score, applies the not-found threshold, and makes sure an exact tool name in the query
//! always comes first. [`router`] exposes it over HTTP; it is the only HTTP code in the project.

mod delivery;
mod engine;
mod error;
mod fusion;
mod intents;
mod metrics;
mod names;
mod params;
mod rest;
mod session;
mod threshold;

pub use delivery::{CALL_TOOL_DESCRIPTION, DISCOVER_DESCRIPTION, Format, call_tool_schema, render, to_format};
pub use engine::{Engine, EngineConfig, Ranking};
pub use error::{Error, Result};
pub use fusion::{FusionWeights, Signals, fuse, saturate};
pub use intents::intents;
pub use metrics::Metrics;
pub use names::NameIndex;
pub use params::{
    DEFAULT_LIMIT, DiscoverParams, DiscoverResponse, HealthResponse, MAX_LIMIT, MAX_QUERY_CHARS, MatchKind, ServerHit,
    ServerInfoResponse, ServersResponse, Status, ToolHit, ToolResponse,
};
pub use rest::{RestConfig, router, router_with, serve, serve_with};
pub use session::Session;
pub use threshold::{DEFAULT_THRESHOLD, Threshold};
