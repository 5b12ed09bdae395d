//! LiveMCPBench `tools.json`: a JSON array of servers, each with its real `tools/list` output under
//! `tools.<launch key>.tools`. Server name = the top-level `name`. Tools are kept verbatim.

use serde_json::Value;

use super::{push_tools, str_field};
use crate::catalog::{Catalog, ServerRecord, ServerSource, ToolRecord};
use crate::{Error, Result};

pub(super) fn import(doc: &Value, file: &str, warnings: &mut Vec<String>) -> Result<Catalog> {
    let servers = doc.as_array().ok_or_else(|| Error::bad_input(file, "expected a JSON array of servers"))?;
    let mut catalog = Catalog::default();
    for (i, server) in servers.iter().enumerate() {
        let Some(name) = str_field(server, "name") else {
            warnings.push(format!("{file}: entry {i} has no name, skipped"));
            continue;
        };
        let launches = server.get("tools").and_then(Value::as_object);
        let mut record = ServerRecord {
            server_id: String::new(),
            name: name.clone(),
            title: None,
            version: None,
            description: str_field(server, "description"),
            instructions: None,
            source: ServerSource { kind: "livemcpbench".into(), origin: format!("{file}#{name}") },
            crawled_at: None,
            protocol_version: None,
            stale: None,
            tools: Vec::new(),
        };
        for (key, launch) in launches.into_iter().flatten() {
            record.source.origin = format!("{file}#{key}");
            record.title = record.title.or_else(|| str_field(launch, "server_name"));
            record.version = record.version.or_else(|| str_field(launch, "version"));
            let tools = launch.get("tools").and_then(Value::as_array).into_iter().flatten();
            push_tools(tools.map(|t| ToolRecord::new(t.clone(), None)), &mut record.tools, &name, warnings);
        }
        catalog.push(record);
    }
    Ok(catalog)
}
