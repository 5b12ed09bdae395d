//! One module per command.

pub(crate) mod calibrate;
pub(crate) mod connect;
pub(crate) mod crawl;
pub(crate) mod eval;
pub(crate) mod index;
pub(crate) mod mcp;
pub(crate) mod pins;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod setup;
