//! Where answers come from: the engine in-process (the default, one process for a desktop host). The
//! trait is the seam for answering from a running service over REST instead.

use toolscout_service::{DiscoverParams, DiscoverResponse, Engine, Error, Profile, ToolResponse};

/// Something that answers discovery requests, for a caller acting as an optional policy profile.
pub trait Backend: Send + Sync + 'static {
    /// Answers one request, showing only what `profile` (`(name, profile)`) permits.
    fn discover(&self, params: &DiscoverParams, profile: Option<(&str, &Profile)>) -> Result<DiscoverResponse, Error>;
    /// One tool's stored definition ("not found" when `profile` does not permit it).
    fn tool(&self, server_id: &str, name: &str, profile: Option<&Profile>) -> Result<ToolResponse, Error>;
}

impl Backend for Engine {
    fn discover(&self, params: &DiscoverParams, profile: Option<(&str, &Profile)>) -> Result<DiscoverResponse, Error> {
        self.search_as(params, profile)
    }

    fn tool(&self, server_id: &str, name: &str, profile: Option<&Profile>) -> Result<ToolResponse, Error> {
        Engine::tool_as(self, server_id, name, profile)
    }
}
