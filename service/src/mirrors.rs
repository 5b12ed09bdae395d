//! Mirrors: servers that declare the same tool set — the same tool names with the same input schemas,
//! prose aside (forks, editions that reword descriptions, one package registered twice). An answer shows each capability once: the first
//! server of a group in catalog order stands for the group, and its hits list the others as
//! `alternates` (each still callable, and still found by name or by lookup, under its own id). Pure code.

use std::collections::HashMap;

use serde_json::Value;
use toolscout_indexer::{Snapshot, canonical_json, sha256_hex};

/// The mirror groups of one snapshot.
#[derive(Debug, Default)]
pub(crate) struct Mirrors {
    /// For each tool: the tool that stands for it (itself unless its server mirrors an earlier one).
    canonical: Vec<usize>,
    /// For each server: the other servers of its group (empty for almost all).
    alternates: Vec<Vec<usize>>,
}

impl Mirrors {
    /// Groups the servers of `snap` by their tool set (`schemas[t]`: [`schema_digest`] of tool `t`).
    pub(crate) fn new(snap: &Snapshot, schemas: &[String]) -> Mirrors {
        let mut canonical: Vec<usize> = (0..snap.tools.len()).collect();
        let mut alternates = vec![Vec::new(); snap.servers.len()];
        let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
        for s in 0..snap.servers.len() {
            let mut signature: Vec<(&str, &str)> = snap
                .server_tools(s)
                .map(|t| (snap.tools[t].name.as_str(), schemas.get(t).map_or("", String::as_str)))
                .collect();
            if signature.is_empty() {
                continue;
            }
            signature.sort_unstable();
            // One digest per server: the group key stays small however large the schemas are.
            let text: String = signature.iter().map(|(n, d)| format!("{n}\u{0}{d}\u{0}")).collect();
            groups.entry(sha256_hex(text.as_bytes())).or_default().push(s);
        }
        for members in groups.values().filter(|m| m.len() > 1) {
            let first = members[0];
            let by_name: HashMap<&str, usize> =
                snap.server_tools(first).map(|t| (snap.tools[t].name.as_str(), t)).collect();
            for &s in members {
                alternates[s] = members.iter().copied().filter(|&o| o != s).collect();
                if s != first {
                    for t in snap.server_tools(s) {
                        if let Some(&c) = by_name.get(snap.tools[t].name.as_str()) {
                            canonical[t] = c;
                        }
                    }
                }
            }
        }
        Mirrors { canonical, alternates }
    }

    /// The tool that stands for tool `t`.
    pub(crate) fn canonical(&self, t: usize) -> usize {
        self.canonical.get(t).copied().unwrap_or(t)
    }

    /// The other servers of server `s`'s group.
    pub(crate) fn alternates(&self, s: usize) -> &[usize] {
        self.alternates.get(s).map_or(&[], Vec::as_slice)
    }
}

/// The digest of a tool's input schema without its prose: what makes two tools of the same name the same.
pub(crate) fn schema_digest(tool: &Value) -> String {
    tool.get("inputSchema").map(|v| sha256_hex(canonical_json(&without_prose(v)).as_bytes())).unwrap_or_default()
}

/// A schema without its prose (`description` and `title` strings), which editions reword.
fn without_prose(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, v)| !(matches!(k.as_str(), "description" | "title") && v.is_string()))
                .map(|(k, v)| (k.clone(), without_prose(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_prose).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prose_is_not_part_of_the_tool_set() {
        let a = json!({"type": "object", "description": "x", "properties": {"q": {"type": "string", "description": "A"},
            "description": {"type": "string"}}});
        let b = json!({"type": "object", "description": "y", "properties": {"q": {"type": "string", "description": "B"},
            "description": {"type": "string"}}});
        assert_eq!(without_prose(&a), without_prose(&b));
        assert!(without_prose(&a)["properties"]["description"].is_object(), "a parameter called description stays");
        let c = json!({"type": "object", "properties": {"q": {"type": "integer"}}});
        assert_ne!(without_prose(&a), without_prose(&c));
    }

    #[test]
    fn schema_digest_ignores_prose_and_nothing_else() {
        let tool = |schema: Value| json!({"name": "search", "description": "words", "inputSchema": schema});
        let a = tool(json!({"type": "object", "properties": {"q": {"type": "string", "description": "A"}}}));
        let b = tool(json!({"type": "object", "properties": {"q": {"type": "string", "description": "B"}}}));
        let c = tool(json!({"type": "object", "properties": {"q": {"type": "integer"}}}));
        assert_eq!(schema_digest(&a), schema_digest(&b));
        assert_ne!(schema_digest(&a), schema_digest(&c));
        assert_eq!(schema_digest(&a).len(), 64);
        assert_eq!(schema_digest(&json!({"name": "x"})), "");
    }
}
