//! The query engine and the REST API of toolscout.
//!
//! [`Engine`] runs a request through four stages (`stages/`: retrieve → score → arrange → decide): server
//! and tool candidates from dense and BM25 retrieval, per-candidate [`FEATURES`] (dense and lexical
//! scores, field coverage, action agreement, named services), a learned [`Decision`] that keeps only the
//! tools likely to serve the request and says `not_found` otherwise, and exact tool names always first.
//! [`router`] exposes it over HTTP; it is the only HTTP code in the project.

mod actions;
mod analysis;
mod auth;
mod compounds;
mod decision;
mod delivered;
mod delivery;
mod engine;
mod entities;
mod error;
mod expand;
mod features;
mod fusion;
mod guard;
mod intents;
mod language;
mod letter;
mod listen;
mod metrics;
mod mirrors;
mod names;
mod negation;
mod openapi;
mod params;
mod payload;
mod policy;
mod profile;
mod query_cache;
mod questions;
mod rest;
mod risk;
mod services;
mod stages;
mod whole;

pub use actions::{Agreement, EffectClass, Families, Family, families, words};
pub use auth::{bearer, bearer_matches, origin_allowed};
pub use decision::{Decision, DecisionSource, blend_probabilities};
pub use delivered::DeliveredTools;
pub use delivery::{Format, render, to_format};
pub use engine::{Engine, EngineConfig, Examined, Ranking, StageTimes};
pub use error::{Error, Result};
pub use features::{FEATURES, Features};
pub use fusion::{FusionWeights, Signals, fuse, saturate};
pub use intents::{IntentPart, intent_parts, intents};
pub use language::foreign as foreign_language;
pub use listen::{ConnectionLimits, serve_limited};
pub use metrics::Metrics;
pub use names::NameIndex;
pub use openapi::{
    AnthropicToolResult, ApiDoc, DiscoverAnswer, ErrorBody, ErrorDetail, McpCallToolResult, OpenaiChatMessage,
    OpenaiToolSearchOutput, TextBlock, openapi_json,
};
pub use params::{
    Alternate, ApproveResponse, DEFAULT_LIMIT, DiscoverParams, DiscoverResponse, HealthResponse, HeldTool, MAX_LIMIT,
    MAX_QUERY_CHARS, MatchKind, PinsResponse, ReloadResponse, ServerHit, ServerInfoResponse, ServersResponse, Status,
    ToolHit, ToolResponse,
};
pub use policy::{AuditConfig, Policy, Profile};
pub use rest::{RestConfig, router, router_with, serve, serve_with};
pub use risk::{Risk, RiskOverrides, classify, classify_all, count_by_class, request_classes};
pub use stages::Candidate;
