//! Docker MCP registry dump `servers_with_tools.jsonl`: `{server, title, description, tools: [...]}`.
//! Tools with an `inputSchema` are kept verbatim; those that only carry the registry's `arguments` list
//! (`[{name, type, desc}]`) get an explicit `inputSchema` built from it, and those with neither (tools that
//! take no arguments) an empty object schema; both are marked `derived`.

use serde_json::{Map, Value, json};

use super::{push_tools, str_field};
use crate::catalog::{Catalog, ServerRecord, ServerSource, ToolRecord};
use crate::{Error, Result};

const DERIVED: &str = "Docker MCP registry: inputSchema built from the registry's `arguments` list \
[{name, type, desc}] (all arguments listed as properties, none marked required); `arguments` removed";

const NO_ARGUMENTS: &str = "Docker MCP registry: the tool lists no arguments; inputSchema given as an empty \
object schema";

pub(super) fn import(rows: &[Value], file: &str, warnings: &mut Vec<String>) -> Result<Catalog> {
    let mut catalog = Catalog::default();
    for (i, row) in rows.iter().enumerate() {
        let name =
            str_field(row, "server").ok_or_else(|| Error::bad_input(format!("{file} line {}", i + 1), "no server"))?;
        let mut record = ServerRecord {
            server_id: String::new(),
            name: name.clone(),
            title: str_field(row, "title"),
            version: None,
            description: str_field(row, "description"),
            instructions: None,
            source: ServerSource {
                kind: "docker-registry".into(),
                origin: str_field(row, "source_path").unwrap_or_default(),
            },
            crawled_at: None,
            protocol_version: None,
            stale: None,
            tools: Vec::new(),
        };
        let tools = row.get("tools").and_then(Value::as_array).into_iter().flatten().map(|t| {
            match (t.get("inputSchema"), t.get("arguments")) {
                (None, Some(args)) => {
                    let mut tool = t.as_object().cloned().unwrap_or_default();
                    tool.remove("arguments");
                    tool.insert("inputSchema".into(), schema_from_arguments(args));
                    ToolRecord::new(Value::Object(tool), Some(DERIVED.to_string()))
                }
                (None, None) if t.is_object() => {
                    let mut tool = t.as_object().cloned().unwrap_or_default();
                    tool.insert("inputSchema".into(), json!({"type": "object", "properties": {}}));
                    ToolRecord::new(Value::Object(tool), Some(NO_ARGUMENTS.to_string()))
                }
                _ => ToolRecord::new(t.clone(), None),
            }
        });
        push_tools(tools, &mut record.tools, &name, warnings);
        catalog.push(record);
    }
    Ok(catalog)
}

fn schema_from_arguments(args: &Value) -> Value {
    let mut properties = Map::new();
    for arg in args.as_array().into_iter().flatten() {
        let Some(name) = str_field(arg, "name") else { continue };
        let mut prop = Map::new();
        if let Some(ty) = str_field(arg, "type") {
            prop.insert("type".into(), json!(ty));
        }
        if let Some(desc) = str_field(arg, "desc") {
            prop.insert("description".into(), json!(desc));
        }
        properties.insert(name, Value::Object(prop));
    }
    json!({"type": "object", "properties": properties})
}
