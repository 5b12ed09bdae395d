//! Query files: `{"id", "query", "relevant": [[{"server", "tool"}, …alternatives…], …groups…], "kind",
//! "exclude"?, "also_serves"?}` per line. A group is one capability the request needs; any of its pairs
//! serves it. `exclude` lists tools the request is evaluated without (as if the catalog lacked them), which
//! is how near-miss negatives are made from answerable queries without an index per query. `also_serves`
//! lists tools that are not labelled right but may serve the request all the same (BFCL's copies of the
//! right function under other function lists, with another description): recall does not count them,
//! and the request's near-miss twin leaves them out too, since a twin must ask for what the catalog lacks.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// What kind of request a query is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// Tools left out of the catalog for this query.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<Pair>,
    /// Tools not labelled right that may serve it all the same: not counted by recall, left out of its
    /// near-miss twin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_serves: Vec<Pair>,
}

/// Reads a query file, checking that `none` queries have no groups and the others do.
pub fn read_queries(path: &Path) -> Result<Vec<Query>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
    let bad = |line: usize, message: String| Error::QueryFile { path: path.to_path_buf(), line, message };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let q: Query = serde_json::from_str(line).map_err(|e| bad(i + 1, e.to_string()))?;
        let empty = q.relevant.is_empty() || q.relevant.iter().any(Vec::is_empty);
        if (q.kind == Kind::None) != q.relevant.is_empty() || (q.kind != Kind::None && empty) {
            return Err(bad(i + 1, "`kind` and `relevant` disagree".into()));
        }
        if !q.also_serves.is_empty() && q.relevant.len() != 1 {
            return Err(bad(i + 1, "`also_serves` is for a query with one group".into()));
        }
        out.push(q);
    }
    Ok(out)
}

/// The near-miss negative of every answerable query: the same request with every tool that serves it
/// (its right tools and those that may serve it, `also_serves`) left out, so the right answer becomes
/// `not_found` (ids get a `~nm` suffix).
pub fn near_misses(queries: &[Query]) -> Vec<Query> {
    queries
        .iter()
        .filter(|q| q.kind != Kind::None)
        .map(|q| {
            let mut exclude: Vec<Pair> = q.relevant.iter().flatten().cloned().collect();
            exclude.extend(q.exclude.iter().cloned());
            exclude.extend(q.also_serves.iter().cloned());
            exclude.sort_by(|a, b| (&a.server, &a.tool).cmp(&(&b.server, &b.tool)));
            exclude.dedup();
            Query {
                id: format!("{}~nm", q.id),
                query: q.query.clone(),
                relevant: Vec::new(),
                kind: Kind::None,
                exclude,
                also_serves: Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_exclude_every_gold_tool() {
        let pair = |s: &str, t: &str| Pair { server: s.into(), tool: t.into() };
        let q = Query {
            id: "q1".into(),
            query: "void the invoice".into(),
            relevant: vec![vec![pair("stripe", "void_invoice"), pair("billing", "void")], vec![pair("mail", "send")]],
            kind: Kind::Multi,
            exclude: vec![],
            also_serves: vec![pair("other-list", "void_invoice"), pair("billing", "void")],
        };
        let none = Query {
            id: "q2".into(),
            query: "x".into(),
            relevant: vec![],
            kind: Kind::None,
            exclude: vec![],
            also_serves: vec![],
        };
        let nm = near_misses(&[q, none]);
        assert_eq!(nm.len(), 1);
        assert_eq!((nm[0].id.as_str(), nm[0].kind), ("q1~nm", Kind::None));
        assert_eq!(nm[0].exclude.len(), 4, "gold and also_serves, each once: {:?}", nm[0].exclude);
        assert!(nm[0].exclude.contains(&pair("other-list", "void_invoice")));
        assert!(nm[0].relevant.is_empty());
    }
}
