//! Integration tests of the indexer: importers on the real public catalogs, crawling real MCP servers
//! from the registries, and index snapshots with the real embedding model.
//!
//! Needs `scripts/setup-models.sh` and `scripts/setup-mcp-servers.sh` to have run (the README's test
//! command does both); a missing dependency fails loudly rather than skipping.

mod crawl;
mod embed;
mod import;
mod snapshot;
