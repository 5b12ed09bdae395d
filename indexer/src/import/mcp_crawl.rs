//! The raw crawl dump `../shared/mcp-crawl.json`: `{"servers": [{name, ok, serverInfo, protocolVersion,
//! instructions, tools, registry, package, version}, …]}`. Servers that did not answer are skipped with a
//! warning. Tools are kept verbatim.

use serde_json::Value;

use super::{push_tools, str_field};
use crate::catalog::{Catalog, ServerRecord, ServerSource, ToolRecord};
use crate::{Error, Result};

pub(super) fn import(doc: &Value, file: &str, warnings: &mut Vec<String>) -> Result<Catalog> {
    let servers = doc
        .get("servers")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::bad_input(file, "expected an object with a `servers` array"))?;
    let mut catalog = Catalog::default();
    for (i, server) in servers.iter().enumerate() {
        let Some(name) = str_field(server, "name") else {
            warnings.push(format!("{file}: entry {i} has no name, skipped"));
            continue;
        };
        let tools = server.get("tools").and_then(Value::as_array);
        if server.get("ok").and_then(Value::as_bool) == Some(false) || tools.is_none() {
            warnings.push(format!("{file}: server {name} did not list tools in that crawl, skipped"));
            continue;
        }
        let info = server.get("serverInfo").cloned().unwrap_or(Value::Null);
        let origin = match (str_field(server, "registry"), str_field(server, "package")) {
            (Some(r), Some(p)) => format!("{r}:{p}@{}", str_field(server, "version").unwrap_or_default()),
            _ => format!("{file}#{name}"),
        };
        let mut record = ServerRecord {
            server_id: String::new(),
            name: name.clone(),
            title: str_field(&info, "title").or_else(|| str_field(&info, "name")),
            version: str_field(&info, "version"),
            description: str_field(&info, "description"),
            instructions: str_field(server, "instructions"),
            source: ServerSource { kind: "mcp-crawl".into(), origin },
            crawled_at: None,
            protocol_version: str_field(server, "protocolVersion"),
            stale: None,
            tools: Vec::new(),
        };
        let tools = tools.into_iter().flatten().map(|t| ToolRecord::new(t.clone(), None));
        push_tools(tools, &mut record.tools, &name, warnings);
        catalog.push(record);
    }
    Ok(catalog)
}
