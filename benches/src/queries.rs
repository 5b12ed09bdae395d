//! Query files: `{"id", "query", "relevant": [[{"server", "tool"}, …alternatives…], …groups…], "kind"}`
//! per line. A group is one capability the request needs; any of its pairs serves it.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// What kind of request a query is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Needs one capability.
    Single,
    /// Needs several.
    Multi,
    /// Nothing in the catalog serves it: the right answer is `not_found`.
    None,
}

/// A (server, tool) pair, by server name as the catalog source gives it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    /// Server name.
    pub server: String,
    /// Tool name.
    pub tool: String,
}

/// One labelled query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Query {
    /// Identifier.
    pub id: String,
    /// The request text.
    pub query: String,
    /// Capability groups; empty for `none`.
    pub relevant: Vec<Vec<Pair>>,
    /// single, multi or none.
    pub kind: Kind,
}

/// Reads a query file, checking that `none` queries have no groups and the others do.
pub fn read_queries(path: &Path) -> crate::Result<Vec<Query>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let q: Query = serde_json::from_str(line).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
        let empty = q.relevant.is_empty() || q.relevant.iter().any(Vec::is_empty);
        if (q.kind == Kind::None) != q.relevant.is_empty() || (q.kind != Kind::None && empty) {
            return Err(format!("{} line {}: `kind` and `relevant` disagree", path.display(), i + 1));
        }
        out.push(q);
    }
    Ok(out)
}
