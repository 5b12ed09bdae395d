//! Exact-name lookup: a tool named in the query comes first, whatever the ranking says.
//!
//! Recognised forms: `tool_name`, `server__tool`, `server/tool`, `server.tool`, `server:tool` (server by
//! name or id, case-insensitive). A bare name that is also an ordinary word (`search`, `echo`) only counts
//! when it is the whole query or is quoted (`"search"`, `` `search` ``); names with `_`, `-`, `.`, digits or
//! inner capitals (`create_issue`, `getWeather`) count anywhere in the query — except a word whose only
//! mark is its capitals and that names a server of the catalog or a known service (`GitHub`, `YouTube`:
//! "rerun the failed GitHub Actions run" names a service, not Graphlit's tool called `GitHub`). Pure code,
//! no I/O.

use std::collections::HashMap;

use toolscout_indexer::{StoredServer, StoredTool};

use crate::services::services;

/// Lowercased names → tool and server indexes of one snapshot.
#[derive(Debug, Default)]
pub struct NameIndex {
    tools: HashMap<String, Vec<usize>>,
    servers: HashMap<String, Vec<usize>>,
    tool_server: Vec<usize>,
    /// Confusable skeleton of each tool name → tools with that skeleton.
    skeletons: HashMap<String, Vec<usize>>,
    tool_skeleton: Vec<String>,
    server_names: Vec<String>,
    tool_names: Vec<String>,
}

impl NameIndex {
    /// Indexes the names of a snapshot's servers and tools.
    pub fn new(servers: &[StoredServer], tools: &[StoredTool]) -> NameIndex {
        let mut index = NameIndex::default();
        for (i, s) in servers.iter().enumerate() {
            for key in [s.name.to_lowercase(), s.server_id.to_lowercase()] {
                let entry = index.servers.entry(key).or_default();
                if !entry.contains(&i) {
                    entry.push(i);
                }
            }
        }
        for (i, t) in tools.iter().enumerate() {
            index.tools.entry(t.name.to_lowercase()).or_default().push(i);
            index.tool_server.push(t.server as usize);
            let skeleton = skeleton(&t.name);
            index.skeletons.entry(skeleton.clone()).or_default().push(i);
            index.tool_skeleton.push(skeleton);
            index.tool_names.push(t.name.clone());
        }
        index.server_names = servers.iter().map(|s| s.name.clone()).collect();
        index
    }

    /// Tools of *other* servers whose name is the same as, or confusable with, tool `t`'s
    /// (`server/name`, at most five): shadowing candidates an agent should know about.
    pub fn collisions(&self, t: usize) -> Vec<String> {
        let Some(same) = self.tool_skeleton.get(t).and_then(|k| self.skeletons.get(k)) else { return Vec::new() };
        same.iter()
            .filter(|&&o| self.tool_server[o] != self.tool_server[t])
            .take(5)
            .map(|&o| format!("{}/{}", self.server_names[self.tool_server[o]], self.tool_names[o]))
            .collect()
    }

    /// Server indexes whose name or id equals `hint`, else contains it (case-insensitive).
    pub fn servers_matching(&self, hint: &str) -> Vec<usize> {
        let hint = hint.trim().to_lowercase();
        if hint.is_empty() {
            return Vec::new();
        }
        if let Some(exact) = self.servers.get(&hint) {
            return exact.clone();
        }
        let mut found: Vec<usize> =
            self.servers.iter().filter(|(k, _)| k.contains(&hint)).flat_map(|(_, v)| v.iter().copied()).collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Tools named in `query`, in order of first mention, without repeats.
    pub fn named_in(&self, query: &str) -> Vec<usize> {
        let whole = strip(query.trim());
        let mut out: Vec<usize> = Vec::new();
        for (token, quoted) in tokens(query) {
            let token = strip(token);
            if token.is_empty() {
                continue;
            }
            let mut hits = self.qualified(token);
            if hits.is_empty() && (quoted || token == whole || (looks_like_identifier(token) && !self.brand(token))) {
                hits = self.tools.get(&token.to_lowercase()).cloned().unwrap_or_default();
            }
            for h in hits {
                if !out.contains(&h) {
                    out.push(h);
                }
            }
        }
        out
    }

    /// A word marked as a name only by its capitals (`GitHub`) that names a server of the catalog or a
    /// service of `services.txt`: the request names a service there, not a tool.
    fn brand(&self, token: &str) -> bool {
        let marked = token.contains(['_', '-', '.']) || token.chars().any(|c| c.is_ascii_digit());
        !marked && (self.servers.contains_key(&token.to_lowercase()) || services().names_service(token))
    }

    /// `server__tool`, `server/tool`, `server.tool`, `server:tool`.
    fn qualified(&self, token: &str) -> Vec<usize> {
        let lower = token.to_lowercase();
        for sep in ["__", "/", ":", "."] {
            for (at, _) in lower.match_indices(sep) {
                let (server, tool) = (&lower[..at], &lower[at + sep.len()..]);
                let (Some(servers), Some(tools)) = (self.servers.get(server), self.tools.get(tool)) else { continue };
                let hits: Vec<usize> =
                    tools.iter().copied().filter(|t| servers.contains(&self.tool_server[*t])).collect();
                if !hits.is_empty() {
                    return hits;
                }
            }
        }
        Vec::new()
    }
}

/// A name with case, separators and common look-alike letters folded: `Create-Issue`, `create_issue`
/// and `сreate_issue` (Cyrillic с) share one.
fn skeleton(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ' ' | '/' | ':'))
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'а' => 'a',
            'е' => 'e',
            'о' | '0' => 'o',
            'р' => 'p',
            'с' => 'c',
            'х' => 'x',
            'у' => 'y',
            'і' | 'l' | '1' => 'i',
            c => c,
        })
        .collect()
}

/// Splits on whitespace and list punctuation; says whether each token was quoted.
fn tokens(query: &str) -> Vec<(&str, bool)> {
    query
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']' | '{' | '}'))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let quoted = t.len() > 2
                && ["\"", "'", "`"]
                    .iter()
                    .any(|q| t.starts_with(q) && t.trim_end_matches(['?', '!', '.', ':']).ends_with(q));
            (t, quoted)
        })
        .collect()
}

/// Trims quotes and sentence punctuation around a token.
fn strip(token: &str) -> &str {
    token.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '?' | '!' | ',' | ':' | ';')).trim_end_matches('.')
}

fn looks_like_identifier(token: &str) -> bool {
    let inner_upper = token.chars().skip(1).any(char::is_uppercase) && token.chars().any(char::is_lowercase);
    token.contains(['_', '-', '.']) || token.chars().any(|c| c.is_ascii_digit()) || inner_upper
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(name: &str, id: &str, first: u32, n: u32) -> StoredServer {
        StoredServer {
            server_id: id.into(),
            name: name.into(),
            title: None,
            version: None,
            description: None,
            instructions: None,
            source_kind: "t".into(),
            source_origin: "t".into(),
            crawled_at: None,
            protocol_version: None,
            stale: None,
            first_tool: first,
            tool_count: n,
            text_hash: String::new(),
        }
    }

    fn tool(server: u32, name: &str) -> StoredTool {
        StoredTool {
            server,
            name: name.into(),
            json_at: 0,
            json_len: 0,
            hash: String::new(),
            derived: None,
            text_hash: String::new(),
        }
    }

    fn index() -> NameIndex {
        let servers = [server("GitHub", "github", 0, 2), server("gitlab", "gitlab", 2, 2), server("web", "web", 4, 1)];
        let tools = [
            tool(0, "create_issue"),
            tool(0, "search"),
            tool(1, "create_issue"),
            tool(1, "getProject"),
            tool(2, "search"),
        ];
        NameIndex::new(&servers, &tools)
    }

    fn check(query: &str, expected: &[usize]) {
        assert_eq!(index().named_in(query), expected, "{query}");
    }

    #[test]
    fn finds_named_tools() {
        check("create_issue", &[0, 2]);
        check("use github__create_issue please", &[0]);
        check("gitlab/create_issue", &[2]);
        check("call getProject.", &[3]);
        check("search", &[1, 4]);
        check("I want to `search` the web", &[1, 4]);
        check("search the web for cats", &[]);
        check("GITHUB:SEARCH", &[1]);
        check("nothing named here", &[]);
    }

    #[test]
    fn brand_names_are_services_not_tools() {
        // Graphlit-style servers have tools named after the services they read.
        let servers = [server("GitHub", "github", 0, 1), server("graphlit", "graphlit", 1, 3)];
        let tools = [tool(0, "create_issue"), tool(1, "GitHub"), tool(1, "YouTube"), tool(1, "ingestUrl")];
        let idx = NameIndex::new(&servers, &tools);
        assert!(idx.named_in("rerun the failed GitHub Actions run 8812").is_empty(), "a server's name");
        assert!(idx.named_in("summarize this YouTube video").is_empty(), "a known service's name");
        assert_eq!(idx.named_in("use the `GitHub` tool"), [1], "quoted, it is the tool");
        assert_eq!(idx.named_in("GitHub"), [1], "the whole query is the tool's name");
        assert_eq!(idx.named_in("call ingestUrl on it"), [3], "camelCase that names no service");
    }

    #[test]
    fn collisions_and_confusables_across_servers() {
        let servers = [server("a", "a", 0, 2), server("b", "b", 2, 2)];
        let tools = [tool(0, "create_issue"), tool(0, "list"), tool(1, "Create-Issue"), tool(1, "\u{0441}reate_issue")];
        let idx = NameIndex::new(&servers, &tools);
        assert_eq!(idx.collisions(0), ["b/Create-Issue", "b/\u{0441}reate_issue"]);
        assert_eq!(idx.collisions(2), ["a/create_issue"]);
        assert!(idx.collisions(1).is_empty());
    }

    #[test]
    fn server_hints() {
        let idx = index();
        assert_eq!(idx.servers_matching("github"), vec![0]);
        assert_eq!(idx.servers_matching("git"), vec![0, 1]);
        assert!(idx.servers_matching("  ").is_empty());
    }
}
