//! What every transport shares once an rmcp client is connected: follow `tools/list` pages, prefer the
//! raw tool objects captured off the wire (verbatim), and build the [`ServerRecord`].

use std::collections::HashSet;
use std::sync::Mutex;

use rmcp::RoleClient;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, PaginatedRequestParams, ProtocolVersion};
use rmcp::service::RunningService;
use serde_json::Value;

use super::{CrawlOptions, CrawledServer, Protocol, ServerFailure, failure};
use crate::catalog::{ServerRecord, ServerSource, ToolRecord};
use crate::host_config::LaunchSpec;

/// `result.tools` arrays of `tools/list` responses, as raw JSON, in arrival order.
#[derive(Default)]
pub(crate) struct RawPages(Mutex<Vec<Vec<Value>>>);

impl RawPages {
    pub(crate) fn push(&self, tools: Vec<Value>) {
        self.0.lock().expect("raw pages lock is never poisoned").push(tools);
    }
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.lock().expect("raw pages lock is never poisoned").len()
    }

    fn take(&self) -> Vec<Vec<Value>> {
        std::mem::take(&mut *self.0.lock().expect("raw pages lock is never poisoned"))
    }
}

/// Connects an rmcp client over `transport` with the handshake `protocol` asks for.
pub(crate) async fn connect<T, E, A>(
    transport: T,
    protocol: Protocol,
) -> Result<RunningService<RoleClient, ClientConfig>, rmcp::service::ClientInitializeError>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
    let mode = match protocol {
        Protocol::Initialize => ClientLifecycleMode::Initialize,
        Protocol::Discover => ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
        Protocol::Auto => ClientLifecycleMode::Auto {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            legacy_version: Some(ProtocolVersion::V_2025_11_25),
        },
    };
    client_config().serve_with_lifecycle(transport, mode).await
}

/// How toolscout introduces itself for the legacy `initialize` handshake: at 2025-11-25, which every
/// server seen in the wild answers (servers reply with their own version when they do not know it).
pub(crate) fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("toolscout-crawler", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

/// Lists all tools of a connected server and builds its record.
pub(crate) async fn list(
    name: &str,
    spec: &LaunchSpec,
    client: &RunningService<RoleClient, ClientConfig>,
    raw: Option<&RawPages>,
    options: &CrawlOptions,
) -> Result<CrawledServer, ServerFailure> {
    let info = client.peer_info();
    let mut warnings = Vec::new();
    let mut typed = Vec::new();
    let mut pages = 0;
    let advertises_tools = info.as_ref().is_none_or(|i| i.capabilities.tools.is_some());
    if advertises_tools {
        let mut cursor: Option<String> = None;
        let mut seen = HashSet::new();
        loop {
            let params = cursor.clone().map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
            let page = client.list_tools(params).await.map_err(|e| failure(name, "tools/list", e))?;
            pages += 1;
            typed.extend(page.tools);
            match page.next_cursor {
                None => break,
                Some(next) if !seen.insert(next.clone()) => {
                    return Err(failure(name, "tools/list", format!("pagination loops: cursor {next:?} came back")));
                }
                Some(_) if pages >= options.max_pages => {
                    return Err(failure(name, "tools/list", format!("more than {} pages of tools", options.max_pages)));
                }
                Some(next) => cursor = Some(next),
            }
        }
    } else {
        warnings.push("server does not advertise the tools capability".to_string());
    }

    let raw_pages = raw.map(RawPages::take).unwrap_or_default();
    let raw_tools: Vec<Value> = raw_pages.into_iter().flatten().collect();
    let (objects, derived): (Vec<Value>, Option<String>) = if raw.is_some() && raw_tools.len() == typed.len() {
        (raw_tools, None)
    } else {
        if raw.is_some() {
            warnings.push(format!(
                "raw capture saw {} tools but rmcp decoded {}; kept rmcp's typed objects",
                raw_tools.len(),
                typed.len()
            ));
        }
        let objects = typed.iter().filter_map(|t| serde_json::to_value(t).ok()).collect();
        (objects, Some("re-serialized from rmcp's typed Tool: fields rmcp does not model are not kept".to_string()))
    };
    let mut tools: Vec<ToolRecord> = Vec::new();
    for object in objects {
        match ToolRecord::new(object, derived.clone()) {
            Ok(t) if tools.iter().any(|have| have.name == t.name) => {
                warnings.push(format!("duplicate tool name {:?}: kept the first definition", t.name));
            }
            Ok(t) => tools.push(t),
            Err(e) => warnings.push(format!("skipped a tool: {e}")),
        }
    }
    let server_info = info.as_ref().and_then(|i| i.server_info.clone());
    let nonempty = |s: Option<String>| s.filter(|s| !s.trim().is_empty());
    let record = ServerRecord {
        server_id: String::new(),
        name: name.to_string(),
        title: nonempty(server_info.as_ref().and_then(|s| s.title.clone()))
            .or_else(|| nonempty(server_info.as_ref().map(|s| s.name.clone()))),
        version: nonempty(server_info.as_ref().map(|s| s.version.clone())),
        description: nonempty(server_info.as_ref().and_then(|s| s.description.clone())),
        instructions: nonempty(info.as_ref().and_then(|i| i.instructions.clone())),
        source: ServerSource { kind: spec.kind().to_string(), origin: spec.origin() },
        crawled_at: Some(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()),
        protocol_version: info.as_ref().map(|i| i.protocol_version.to_string()),
        stale: None,
        tools,
    };
    Ok(CrawledServer { record, pages, stdout_noise: 0, warnings })
}
