//! Where answers come from: the engine in-process (the default, one process for a desktop host). The
//! trait is the seam for answering from a running service over REST instead.

use toolscout_service::{DiscoverParams, DiscoverResponse, Engine, Error, ToolResponse};

/// Something that answers discovery requests.
pub trait Backend: Send + Sync + 'static {
    /// Answers one request.
    fn discover(&self, params: &DiscoverParams) -> Result<DiscoverResponse, Error>;
    /// One tool's stored definition.
    fn tool(&self, server_id: &str, name: &str) -> Result<ToolResponse, Error>;
}

impl Backend for Engine {
    fn discover(&self, params: &DiscoverParams) -> Result<DiscoverResponse, Error> {
        self.search(params)
    }

    fn tool(&self, server_id: &str, name: &str) -> Result<ToolResponse, Error> {
        Engine::tool(self, server_id, name)
    }
}
