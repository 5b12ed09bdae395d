//! The `discover_tools` meta-tool: an MCP server with exactly one tool.
//!
//! An agent sees only `discover_tools`, states the capability it lacks, and gets back the definitions of
//! the few matching tools, verbatim, in the tool result — that is, at the conversation tail, never in the
//! system/tools prefix, so a cached prompt prefix stays byte-identical. Within one MCP session a tool
//! already delivered is not delivered again. This is the only MCP *server* code in toolscout.

mod backend;
mod render;
mod server;
mod session;

pub use backend::Backend;
pub use render::{DISCOVER_DESCRIPTION, render};
pub use server::{DiscoverArgs, DiscoverServer, serve_http, serve_stdio};
pub use session::Session;
