//! MCP-Zero `mcp_tools.jsonl`: `{name, description, url, readme_file, summary, tools: [{name, description,
//! parameter}]}`. It has no JSON Schemas, only a `parameter` map `{"arg": "(type) description"}`; we turn
//! that into an explicit `inputSchema` and mark every tool `derived`, since that is a normalization.

use serde_json::{Map, Value, json};

use super::{push_tools, str_field};
use crate::catalog::{Catalog, ServerRecord, ServerSource, ToolRecord};
use crate::{Error, Result};

const DERIVED: &str = "MCP-Zero corpus: tool object built from {name, description, parameter}; inputSchema \
derived from the `parameter` map (type from the \"(type)\" prefix, \"optional\" there means not required)";

pub(super) fn import(rows: &[Value], file: &str, warnings: &mut Vec<String>) -> Result<Catalog> {
    let mut catalog = Catalog::default();
    for (i, row) in rows.iter().enumerate() {
        let name =
            str_field(row, "name").ok_or_else(|| Error::bad_input(format!("{file} line {}", i + 1), "no name"))?;
        let mut record = ServerRecord {
            server_id: String::new(),
            name: name.clone(),
            title: None,
            version: None,
            description: str_field(row, "description"),
            instructions: str_field(row, "summary"),
            source: ServerSource {
                kind: "mcp-zero".into(),
                origin: str_field(row, "url").unwrap_or_else(|| format!("{file}#{}", i + 1)),
            },
            crawled_at: None,
            protocol_version: None,
            stale: None,
            tools: Vec::new(),
        };
        let tools = row.get("tools").and_then(Value::as_array).into_iter().flatten().map(|t| {
            let mut tool = Map::new();
            tool.insert("name".into(), t.get("name").cloned().unwrap_or(Value::Null));
            if let Some(d) = t.get("description") {
                tool.insert("description".into(), d.clone());
            }
            tool.insert("inputSchema".into(), schema_from_parameters(t.get("parameter")));
            ToolRecord::new(Value::Object(tool), Some(DERIVED.to_string()))
        });
        push_tools(tools, &mut record.tools, &name, warnings);
        catalog.push(record);
    }
    Ok(catalog)
}

/// Builds a JSON Schema object from MCP-Zero's `{"arg": "(type) description"}` map.
pub(super) fn schema_from_parameters(params: Option<&Value>) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (arg, text) in params.and_then(Value::as_object).into_iter().flatten() {
        let text = text.as_str().unwrap_or_default().trim();
        let (head, description) = match text.strip_prefix('(').and_then(|rest| rest.split_once(')')) {
            Some((head, rest)) => (head.to_ascii_lowercase(), rest.trim()),
            None => (String::new(), text),
        };
        let mut prop = Map::new();
        if let Some(ty) = json_type(&head) {
            prop.insert("type".into(), json!(ty));
        }
        prop.insert("description".into(), json!(description));
        properties.insert(arg.clone(), Value::Object(prop));
        if !head.contains("optional") && !description.to_ascii_lowercase().starts_with("optional") {
            required.push(json!(arg));
        }
    }
    json!({"type": "object", "properties": properties, "required": required})
}

fn json_type(head: &str) -> Option<&'static str> {
    let words: Vec<&str> = head.split(|c: char| !c.is_ascii_alphanumeric() && c != '[' && c != ']').collect();
    for w in words {
        let ty = match w {
            "string" | "str" => "string",
            "number" | "float" | "double" => "number",
            "integer" | "int" => "integer",
            "boolean" | "bool" => "boolean",
            "array" | "list" => "array",
            "object" | "dict" => "object",
            w if w.ends_with("[]") => "array",
            _ => continue,
        };
        return Some(ty);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_map_becomes_schema() {
        let params = json!({
            "url": "(string) The URL.",
            "limit": "(Optional, integer) How many.",
            "tags": "(string[]) Tags",
            "addr": "(address/ENS) Wallet",
            "x": "no type here"
        });
        let schema = schema_from_parameters(Some(&params));
        assert_eq!(schema["properties"]["url"], json!({"type": "string", "description": "The URL."}));
        assert_eq!(schema["properties"]["limit"]["type"], "integer");
        assert_eq!(schema["properties"]["tags"]["type"], "array");
        assert!(schema["properties"]["addr"].get("type").is_none());
        assert_eq!(schema["properties"]["x"]["description"], "no type here");
        assert_eq!(schema["required"], json!(["url", "tags", "addr", "x"]));
    }
}
