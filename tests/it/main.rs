//! End-to-end tests of the `toolscout` binary: crawl real servers, index, search, serve MCP over stdio
//! (driven by an rmcp client that spawns the binary) and over Streamable HTTP (crawled by our crawler).

mod cli;
mod connect;
mod crawl_integrity;
mod eval_html;
mod least_privilege;
mod mcp;
mod registry;
mod rest_conformance;
mod setup;
mod support;
