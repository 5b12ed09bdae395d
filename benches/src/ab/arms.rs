//! The two arms and what each sends before the conversation: arm A (full injection) puts every catalog
//! tool's schema in `tools`; arm B (discovery) sends only `discover_tools` and `call_tool`, and the
//! discovered schemas arrive at the conversation tail. Both prefixes are fixed for a whole run, so a
//! server's prompt cache can reuse them across turns and tasks.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolscout_indexer::Catalog;
use toolscout_meta_tool::openai_functions;

/// One side of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    /// A: every tool's schema in `tools`.
    Full,
    /// B: `discover_tools` + `call_tool` in `tools`; schemas at the tail.
    Discover,
}

impl std::str::FromStr for Arm {
    type Err = String;

    /// `full` (or `a`) and `discover` (or `b`).
    fn from_str(s: &str) -> Result<Arm, String> {
        match s.to_ascii_lowercase().as_str() {
            "full" | "a" => Ok(Arm::Full),
            "discover" | "b" => Ok(Arm::Discover),
            other => Err(format!("unknown arm {other:?}: full (a) or discover (b)")),
        }
    }
}

impl Arm {
    /// Short label for tables.
    pub fn label(self) -> &'static str {
        match self {
            Arm::Full => "A full",
            Arm::Discover => "B discover",
        }
    }

    /// The system prompt of the arm (fixed for the run; part of the cached prefix).
    pub(crate) fn system_prompt(self) -> &'static str {
        match self {
            Arm::Full => SYSTEM_FULL,
            Arm::Discover => SYSTEM_DISCOVER,
        }
    }
}

const SYSTEM_FULL: &str = "You are a helpful assistant that completes the user's request by calling tools. \
Call the tools the request needs, with arguments that follow each tool's schema. \
When you have the tool results, answer the user briefly.";

const SYSTEM_DISCOVER: &str = "You are a helpful assistant that completes the user's request by calling tools. \
Your tools are loaded on demand: call discover_tools with the capability you need, then call a delivered tool \
through call_tool with its server_id, its name and arguments that follow its schema. \
When you have the tool results, answer the user briefly.";

/// A catalog tool as arm A offers it.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) server_id: String,
    pub(crate) name: String,
    /// The function name the model sees in arm A (the tool name; `server_id__name` when names collide).
    pub(crate) function: String,
    /// The MCP tool object, verbatim.
    pub(crate) tool: Value,
}

impl Entry {
    pub(crate) fn input_schema(&self) -> Option<&Value> {
        self.tool.get("inputSchema")
    }
}

/// Every tool of the catalog, in catalog order, with lookups by arm-A function name and by server and name.
#[derive(Debug, Clone)]
pub(crate) struct ToolTable {
    pub(crate) entries: Vec<Entry>,
    by_function: HashMap<String, usize>,
    by_key: HashMap<(String, String), usize>,
    pub(crate) servers: usize,
}

impl ToolTable {
    pub(crate) fn new(catalog: &Catalog) -> ToolTable {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for s in &catalog.servers {
            for t in &s.tools {
                *count.entry(t.name.as_str()).or_default() += 1;
            }
        }
        let mut entries = Vec::new();
        for s in &catalog.servers {
            for t in &s.tools {
                let plain = count[t.name.as_str()] == 1 && valid_function_name(&t.name);
                let function = if plain { t.name.clone() } else { function_name(&s.server_id, &t.name) };
                entries.push(Entry {
                    server_id: s.server_id.clone(),
                    name: t.name.clone(),
                    function,
                    tool: t.tool.clone(),
                });
            }
        }
        let by_function = entries.iter().enumerate().map(|(i, e)| (e.function.clone(), i)).collect();
        let by_key = entries.iter().enumerate().map(|(i, e)| ((e.server_id.clone(), e.name.clone()), i)).collect();
        ToolTable { entries, by_function, by_key, servers: catalog.servers.len() }
    }

    pub(crate) fn by_function(&self, function: &str) -> Option<&Entry> {
        self.by_function.get(function).map(|&i| &self.entries[i])
    }

    pub(crate) fn get(&self, server_id: &str, name: &str) -> Option<&Entry> {
        self.by_key.get(&(server_id.to_string(), name.to_string())).map(|&i| &self.entries[i])
    }

    /// The `tools` array of an arm.
    pub(crate) fn tools(&self, arm: Arm) -> Value {
        match arm {
            Arm::Full => Value::Array(self.entries.iter().map(function_definition).collect()),
            Arm::Discover => Value::Array(openai_functions(true)),
        }
    }
}

/// An OpenAI function definition of a catalog tool: its description and input schema, verbatim.
fn function_definition(e: &Entry) -> Value {
    let mut f = serde_json::Map::new();
    f.insert("name".into(), json!(e.function));
    f.insert("description".into(), e.tool.get("description").cloned().unwrap_or_else(|| json!("")));
    f.insert(
        "parameters".into(),
        e.input_schema().cloned().unwrap_or_else(|| json!({"type": "object", "properties": {}})),
    );
    json!({"type": "function", "function": f})
}

/// OpenAI function names are `^[a-zA-Z0-9_-]{1,64}$`.
fn valid_function_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 64 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn function_name(server_id: &str, name: &str) -> String {
    let joined = format!("{server_id}__{name}");
    let clean: String =
        joined.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
    clean.chars().take(64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colliding_or_odd_names_are_qualified() {
        let lines = [
            json!({"server_id": "a", "name": "a", "source": {"kind": "x", "origin": "x"}, "tools": [
                {"name": "search", "tool": {"name": "search", "inputSchema": {"type": "object"}}, "hash": "h"},
                {"name": "get page", "tool": {"name": "get page", "inputSchema": {"type": "object"}}, "hash": "h"}]}),
            json!({"server_id": "b", "name": "b", "source": {"kind": "x", "origin": "x"}, "tools": [
                {"name": "search", "tool": {"name": "search", "description": "d", "inputSchema": {"type": "object"}}, "hash": "h"},
                {"name": "fetch", "tool": {"name": "fetch", "inputSchema": {"type": "object"}}, "hash": "h"}]}),
        ];
        let text = lines.iter().map(Value::to_string).collect::<Vec<_>>().join("\n");
        let catalog = Catalog::read_jsonl(text.as_bytes(), "test").expect("catalog");
        let table = ToolTable::new(&catalog);
        let names: Vec<&str> = table.entries.iter().map(|e| e.function.as_str()).collect();
        assert_eq!(names, ["a__search", "a__get_page", "b__search", "fetch"]);
        assert_eq!(table.by_function("fetch").map(|e| e.server_id.as_str()), Some("b"));
        let tools = table.tools(Arm::Full);
        assert_eq!(tools[1]["function"]["parameters"], json!({"type": "object"}));
        assert_eq!(table.tools(Arm::Discover).as_array().map(Vec::len), Some(2));
        assert_eq!(("B".parse::<Arm>(), "full".parse::<Arm>()), (Ok(Arm::Discover), Ok(Arm::Full)));
        assert!("c".parse::<Arm>().is_err());
    }
}
