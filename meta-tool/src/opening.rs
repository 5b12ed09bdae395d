//! A backend opened on a thread of its own, so that an MCP host's handshake is answered at once while the
//! model and the index load (a few seconds, more on a loaded machine). A host that times the handshake
//! out, or a client that probes with one request and falls back to another after a fixed wait, would
//! otherwise fail on a server that is merely slow to start. The first request waits for the opening;
//! if it failed, every request is answered with why.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};

use toolscout_service::{DiscoverParams, DiscoverResponse, Error, Profile, ToolResponse};

use crate::backend::Backend;

/// A [`Backend`] that is still being opened, or was.
pub struct Opening {
    slot: Arc<OnceLock<Result<Arc<dyn Backend>, String>>>,
}

impl Opening {
    /// Starts `open` on a thread of its own and returns at once. Its error (or panic) is logged and kept:
    /// every request is then answered with [`Error::Unavailable`] saying why.
    pub fn start<F>(open: F) -> std::io::Result<Opening>
    where
        F: FnOnce() -> Result<Arc<dyn Backend>, String> + Send + 'static,
    {
        let slot = Arc::new(OnceLock::new());
        let filling = slot.clone();
        std::thread::Builder::new().name("toolscout-open".into()).spawn(move || {
            let opened = std::panic::catch_unwind(AssertUnwindSafe(open))
                .unwrap_or_else(|_| Err("opening the engine panicked".to_string()));
            if let Err(e) = &opened {
                tracing::error!("toolscout cannot answer: {e}");
            }
            let _ = filling.set(opened);
        })?;
        Ok(Opening { slot })
    }

    /// The opened backend, waiting for it if need be.
    fn backend(&self) -> Result<&Arc<dyn Backend>, Error> {
        self.slot.wait().as_ref().map_err(|e| Error::Unavailable(e.clone()))
    }
}

impl Backend for Opening {
    fn discover(&self, params: &DiscoverParams, profile: Option<(&str, &Profile)>) -> Result<DiscoverResponse, Error> {
        self.backend()?.discover(params, profile)
    }

    // `call_tool` asks for this synchronously on the async runtime, but only for a tool this session was
    // delivered, so the opening is done by then and this never waits.
    fn tool(&self, server_id: &str, name: &str, profile: Option<&Profile>) -> Result<ToolResponse, Error> {
        self.backend()?.tool(server_id, name, profile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed;

    impl Backend for Fixed {
        fn discover(&self, _: &DiscoverParams, _: Option<(&str, &Profile)>) -> Result<DiscoverResponse, Error> {
            Err(Error::BadQuery("fixed".into()))
        }

        fn tool(&self, _: &str, _: &str, _: Option<&Profile>) -> Result<ToolResponse, Error> {
            Err(Error::NotFound("fixed".into()))
        }
    }

    fn params() -> DiscoverParams {
        DiscoverParams { query: "anything".into(), server: None, limit: None, loaded: Vec::new() }
    }

    #[test]
    fn a_request_waits_for_the_opening_and_then_reaches_the_backend() {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let opening = Opening::start(move || {
            wait.recv().map_err(|e| e.to_string())?;
            Ok(Arc::new(Fixed) as Arc<dyn Backend>)
        })
        .expect("thread");
        assert!(opening.slot.get().is_none(), "still opening");
        release.send(()).expect("send");
        assert!(matches!(opening.discover(&params(), None), Err(Error::BadQuery(m)) if m == "fixed"));
        assert!(matches!(opening.tool("s", "t", None), Err(Error::NotFound(m)) if m == "fixed"));
    }

    #[test]
    fn a_failed_or_panicking_opening_answers_every_request_with_why() {
        let failed = Opening::start(|| Err("no model at /nowhere".to_string())).expect("thread");
        for _ in 0..2 {
            assert!(
                matches!(failed.discover(&params(), None), Err(Error::Unavailable(m)) if m == "no model at /nowhere")
            );
        }
        let panicked = Opening::start(|| panic!("boom")).expect("thread");
        assert!(matches!(panicked.tool("s", "t", None), Err(Error::Unavailable(m)) if m.contains("panicked")));
    }
}
