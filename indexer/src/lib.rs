//! The indexer: everything toolscout knows about MCP servers before a query arrives.
//!
//! It owns the catalog model (servers and their tools, kept verbatim), the crawler (the only MCP
//! *client* code in the project), the importers for public catalogs, the embedder, and the on-disk
//! index format — both writing and reading it, so one crate owns the format.

mod bm25;
mod canonical;
mod catalog;
mod config;
mod crawl;
mod dense;
mod embed;
mod error;
mod import;
mod pins;
mod scan;
mod snapshot;
mod text;

pub use bm25::{Bm25, Bm25Hit};
pub use canonical::{canonical_json, content_hash};
pub use catalog::{Catalog, MAX_TOOL_BYTES, ServerRecord, ServerSource, ToolRecord};
pub use config::{HostConfig, LaunchSpec};
pub use crawl::{
    CrawlOptions, CrawlOutcome, CrawlReport, Protocol, ServerFailure, ServerRecordWithReport, Upstream, crawl,
    crawl_one,
};
pub use dense::{Ann, AnnHit, cosine};
pub use embed::{Embedder, EmbedderConfig, INSTALLED_MODEL, INSTALLED_ORT};
pub use error::{Error, Result};
pub use import::{CatalogFormat, import_catalog, import_catalog_str};
pub use pins::{FieldDrift, Pin, PinReport, Pins, Quarantined};
pub use scan::{scan_catalog, scan_tool};
pub use snapshot::{BuildOptions, BuildStats, FORMAT_VERSION, Manifest, Snapshot, StoredServer, StoredTool, build};
pub use text::{server_text, split_name, tool_text};
