//! The indexer: everything toolscout knows about MCP servers before a query arrives.
//!
//! It owns the catalog model (servers and their tools, kept verbatim), the crawler (the only MCP
//! *client* code in the project), the importers for public catalogs, the model boundary ([`Embedder`]),
//! and the index folder ([`IndexDir`]) with every file in it — writing and reading, so one crate owns the
//! format.

mod atomic;
mod bm25;
mod calibration;
mod canonical;
mod catalog;
mod crawl;
mod dense;
mod embed;
mod error;
mod host_config;
mod import;
mod index_dir;
mod mapped;
mod packed_trees;
mod pins;
mod registry;
mod scan;
mod snapshot;
mod terms;
mod text;
mod validate;

pub use atomic::write_atomic;
pub use bm25::{Bm25, Bm25Hit};
pub use calibration::{BoostedTrees, CALIBRATION_VERSION, Calibration, DecisionModel, FitSummary, Tree};
pub use canonical::{canonical_json, content_hash, sha256_file, sha256_hex};
pub use catalog::{Catalog, MAX_TOOL_BYTES, ServerRecord, ServerSource, Stale, ToolRecord};
pub use crawl::{
    CrawlOptions, CrawlOutcome, CrawlReport, CrawledServer, Protocol, ServerFailure, Upstream, crawl, crawl_one,
    keep_last_known,
};
pub use dense::{Ann, AnnHit, FLAT_BELOW, cosine, cosine_half, flat_top_k, from_halves, to_halves, top_k};
pub use embed::{
    Embedder, EmbedderConfig, FastEmbedder, HashEmbedder, INSTALLED_MODEL, INSTALLED_ORT, LazyEmbedder, ModelCandidate,
    Part, install_model, locate_model, model_candidates, user_data_dir,
};
pub use error::{Error, Result};
pub use half::f16;
pub use host_config::{HostConfig, LaunchSpec};
pub use import::{CatalogFormat, import_catalog, import_catalog_str};
pub use index_dir::IndexDir;
pub use packed_trees::PackedTrees;
pub use pins::{Definition, FieldDrift, HoldReason, Pin, PinHashes, PinObserver, PinReport, Pins, Quarantined};
pub use registry::{RegistryOptions, RegistryRead, RegistryServer, parse_registry};
pub use scan::{ToolOwners, scan_catalog, scan_tool};
pub use snapshot::{
    BuildOptions, BuildStats, FORMAT_VERSION, MAX_REMOVED_SHARE, Manifest, Snapshot, StoredServer, StoredTool, build,
    build_owned,
};
pub use terms::terms;
pub use text::{server_text, split_name, tool_text};
pub use validate::{MAX_NAME_CHARS, check_tool, name_outside_charset};
