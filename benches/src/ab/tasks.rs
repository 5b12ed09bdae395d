//! Task files of the A/B benchmark: one natural request per line that needs one or two tools, with the
//! gold tool(s), the key arguments that a right call carries, and what the stub answers.
//!
//! ```json
//! {"id": "gh-issue", "domain": "github", "request": "File a bug in acme/webshop titled '…'",
//!  "gold": [{"server": "github", "tool": "create_issue", "alternatives": ["github/…"],
//!            "need": "create an issue in a GitHub repository",
//!            "args": {"owner": "acme", "repo": "webshop", "title": "Checkout button"},
//!            "fill": {"title": "Checkout button unresponsive on Safari"}, "result": {"number": 311}}]}
//! ```
//!
//! `args` are judged ([`key_args_match`]); `fill` only completes a schema-valid call when the gold is
//! replayed ([`Gold::replay_arguments`]); `need` is what a replayed `discover_tools` call asks for.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One benchmark task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Identifier, unique in the file.
    pub id: String,
    /// Domain label (`files`, `github`, …; `cross` for requests spanning servers).
    pub domain: String,
    /// The user's request, as the model reads it.
    pub request: String,
    /// The tools a right answer calls (one or two), in a sensible order.
    pub gold: Vec<Gold>,
}

/// One tool a task needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gold {
    /// The tool's `server_id`.
    pub server: String,
    /// The tool's name.
    pub tool: String,
    /// Other tools that serve the same need, as `server_id/name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<String>,
    /// The capability in plain words (what a replayed `discover_tools` call asks for).
    pub need: String,
    /// Key arguments a right call carries (judged loosely: see [`key_args_match`]).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub args: Map<String, Value>,
    /// Arguments that only complete a schema-valid replayed call; they override `args`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub fill: Map<String, Value>,
    /// What the stub answers for this tool in this task (a default canned result otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
}

impl Gold {
    /// Whether `(server_id, tool)` serves this need: the gold tool or one of its alternatives.
    pub fn accepts(&self, server: &str, tool: &str) -> bool {
        (self.server == server && self.tool == tool)
            || self.alternatives.iter().any(|a| a.split_once('/') == Some((server, tool)))
    }

    /// The arguments of a replayed gold call: `args` overridden by `fill`, keeping only the properties the
    /// tool's input schema declares (when it declares any).
    pub fn replay_arguments(&self, input_schema: Option<&Value>) -> Map<String, Value> {
        let declared = input_schema.and_then(|s| s.get("properties")).and_then(Value::as_object);
        let mut out = Map::new();
        for (k, v) in self.args.iter().chain(self.fill.iter()) {
            if declared.is_none_or(|d| d.contains_key(k)) {
                out.insert(k.clone(), v.clone());
            }
        }
        out
    }
}

/// Reads a task file, checking ids are unique and every task has one or two gold tools.
pub fn read_tasks(path: &Path) -> crate::Result<Vec<Task>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut out: Vec<Task> = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let task: Task = serde_json::from_str(line).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
        if task.gold.is_empty() || task.gold.len() > 2 {
            return Err(format!("{} line {}: a task needs one or two gold tools", path.display(), i + 1));
        }
        if out.iter().any(|t| t.id == task.id) {
            return Err(format!("{} line {}: duplicate id {:?}", path.display(), i + 1, task.id));
        }
        out.push(task);
    }
    Ok(out)
}

/// Whether a call's `arguments` carry the gold key arguments. Only keys the called tool declares
/// (`declared`, from its input schema) are judged, so an alternative tool with other parameters is not
/// failed for lacking them. Strings match case-insensitively when the actual value contains the expected
/// one (`"Eiffel"` in `"Eiffel Tower, Paris"`); numbers and booleans match by value (also when sent as
/// strings); arrays and objects match when each of their scalar leaves is found in the actual value.
pub fn key_args_match(expected: &Map<String, Value>, actual: &Map<String, Value>, declared: Option<&Value>) -> bool {
    let declared = declared.and_then(|s| s.get("properties")).and_then(Value::as_object);
    expected
        .iter()
        .filter(|(k, _)| declared.is_none_or(|d| d.contains_key(*k)))
        .all(|(k, want)| actual.get(k).is_some_and(|got| value_matches(want, got)))
}

fn value_matches(want: &Value, got: &Value) -> bool {
    match want {
        Value::String(w) => text_of(got).contains(&w.to_lowercase()),
        Value::Number(w) => match got {
            Value::Number(g) => g.as_f64() == w.as_f64(),
            Value::String(g) => g.trim().parse::<f64>().ok() == w.as_f64(),
            _ => false,
        },
        Value::Bool(w) => got.as_bool() == Some(*w) || got.as_str().map(str::trim) == Some(&w.to_string()),
        Value::Null => got.is_null(),
        Value::Array(_) | Value::Object(_) => {
            let mut leaves = Vec::new();
            scalar_leaves(want, &mut leaves);
            let hay = text_of(got);
            leaves.iter().all(|l| hay.contains(&l.to_lowercase()))
        }
    }
}

/// A value as lower-case text: a string's contents, anything else's JSON.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_lowercase(),
        other => other.to_string().to_lowercase(),
    }
}

fn scalar_leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| scalar_leaves(i, out)),
        Value::Object(map) => map.values().for_each(|i| scalar_leaves(i, out)),
        Value::String(s) => out.push(s.clone()),
        Value::Null => {}
        other => out.push(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(expected: Value, actual: Value, want: bool) {
        let (e, a) = (expected.as_object().expect("object"), actual.as_object().expect("object"));
        assert_eq!(key_args_match(e, a, None), want, "{expected} vs {actual}");
    }

    #[test]
    fn key_arguments_match_loosely() {
        check(json!({"destination": "Eiffel"}), json!({"destination": "Eiffel Tower, Paris"}), true);
        check(json!({"destination": "eiffel"}), json!({"destination": "Louvre"}), false);
        check(json!({"pull_number": 42}), json!({"pull_number": 42.0}), true);
        check(json!({"pull_number": 42}), json!({"pull_number": "42"}), true);
        check(json!({"pull_number": 42}), json!({"pull_number": 43}), false);
        check(json!({"fullPage": true}), json!({"fullPage": "true"}), true);
        check(json!({"fullPage": true}), json!({}), false);
        check(json!({"origins": ["Hamburg", "Munich"]}), json!({"origins": ["munich", "hamburg"]}), true);
        check(json!({"entities": "Alice Chen"}), json!({"entities": [{"name": "Alice Chen"}]}), true);
        check(json!({}), json!({"anything": 1}), true);
    }

    #[test]
    fn only_declared_keys_are_judged() {
        let schema = json!({"type": "object", "properties": {"names": {"type": "array"}}});
        let e = json!({"query": "Falcon", "names": "Falcon"});
        let a = json!({"names": ["Project Falcon"]});
        assert!(key_args_match(e.as_object().expect("o"), a.as_object().expect("o"), Some(&schema)));
    }

    #[test]
    fn replay_arguments_follow_the_schema() {
        let gold: Gold = serde_json::from_value(json!({"server": "s", "tool": "t", "need": "n",
            "args": {"query": "Falcon", "names": "Falcon"}, "fill": {"query": "Project Falcon"}}))
        .expect("gold");
        let schema = json!({"type": "object", "properties": {"query": {"type": "string"}}});
        assert_eq!(Value::Object(gold.replay_arguments(Some(&schema))), json!({"query": "Project Falcon"}));
        assert!(gold.accepts("s", "t") && !gold.accepts("s", "u"));
    }
}
