//! The `discover_tools` meta-tool: an MCP server with exactly one tool.
//!
//! An agent sees only `discover_tools`, states the capability it lacks, and gets back the definitions of
//! the few matching tools, verbatim, in the tool result — that is, at the conversation tail, never in the
//! system/tools prefix, so a cached prompt prefix stays byte-identical. Within one MCP session a tool
//! already delivered is not delivered again. With a proxy it also exposes `call_tool`, forwarding to the
//! real servers. This is the only MCP *server* code in toolscout.

mod access;
mod audit;
mod backend;
mod confirm;
mod contract;
mod guard;
mod opening;
mod proxy;
mod server;
mod stdio_guard;

pub use access::Access;
pub use audit::{Audit, AuditRecord, Outcome};
pub use backend::Backend;
pub use contract::{
    CALL_TOOL_DESCRIPTION, CallToolArgs, DEFAULT_LIMIT, DISCOVER_DESCRIPTION, DiscoverArgs, MAX_LIMIT,
    call_tool_schema, discover_schema, openai_functions,
};
pub use guard::CallGuard;
pub use opening::Opening;
pub use proxy::{Proxy, validate};
pub use server::{DiscoverServer, serve_http, serve_stdio};
