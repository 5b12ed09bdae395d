//! The 100K-tool scale corpus: every real catalog combined, plus derived variants of real servers until the
//! corpus reaches the size asked for.
//!
//! There are only about 7,500 real tools in the public catalogs at hand, so the rest is synthesized, and
//! this is how: a *variant* of a real server is a copy of it under a new name (`<name>~<edition>`), with
//! its description and every tool's description prefixed by an edition phrase ("Self-hosted EU edition:
//! …"). Tool names, schemas and everything else stay as the original declared them, so variants are the
//! hardest kind of distractor there is: near-duplicates of real tools. Every variant tool is marked
//! `derived` with the tool it copies.
//!
//! Variants are made only from the *distractor* catalogs (`bases`), never from the catalogs whose query
//! sets are evaluated on the scale index (`kept`): those stay unique, so their recall at 100K against
//! their recall alone says whether quality holds up when the catalog grows 30-fold around them.

use serde_json::Value;
use toolscout_indexer::{Catalog, ServerRecord, ServerSource, ToolRecord};

/// Deployment-style qualifiers; combined with [`AUDIENCES`] they name an edition.
const DEPLOYMENTS: [&str; 12] = [
    "Self-hosted",
    "Cloud",
    "EU region",
    "US region",
    "Enterprise",
    "Community",
    "Legacy v1",
    "Beta v3",
    "Read-only mirror",
    "Sandbox",
    "On-premises",
    "Managed",
];
const AUDIENCES: [&str; 12] = [
    "edition",
    "team edition",
    "edition for startups",
    "edition for education",
    "edition for healthcare",
    "edition for finance",
    "edition for government",
    "edition for retail",
    "edition for media",
    "edition for research labs",
    "edition for nonprofits",
    "edition for developers",
];

/// How many distinct editions there are (variants per base server at most).
pub const EDITIONS: usize = DEPLOYMENTS.len() * AUDIENCES.len();

/// The phrase naming edition `k` (`k < EDITIONS`).
pub fn edition(k: usize) -> String {
    format!("{} {}", DEPLOYMENTS[k % DEPLOYMENTS.len()], AUDIENCES[(k / DEPLOYMENTS.len()) % AUDIENCES.len()])
}

/// `kept` and `bases` as they are, then variants of `bases`' servers (edition 0 of every server, then
/// edition 1, …) until the corpus holds at least `target_tools` tools or the editions run out.
pub fn scale_corpus(kept: &[Catalog], bases: &[Catalog], target_tools: usize) -> Catalog {
    let mut out = Catalog::default();
    for catalog in kept.iter().chain(bases) {
        for server in &catalog.servers {
            out.push(server.clone());
        }
    }
    let originals: Vec<&ServerRecord> = bases.iter().flat_map(|c| &c.servers).filter(|s| !s.tools.is_empty()).collect();
    let mut total = out.tool_count();
    'editions: for k in 0..EDITIONS {
        for server in &originals {
            if total >= target_tools {
                break 'editions;
            }
            let variant = variant(server, k);
            total += variant.tools.len();
            out.push(variant);
        }
    }
    out
}

/// Edition `k` of `server`.
fn variant(server: &ServerRecord, k: usize) -> ServerRecord {
    let phrase = edition(k);
    let prefix = |text: &str| if text.is_empty() { format!("{phrase}.") } else { format!("{phrase}: {text}") };
    let tools = server
        .tools
        .iter()
        .filter_map(|t| {
            let mut tool = t.tool.clone();
            let description = prefix(t.description());
            if let Some(object) = tool.as_object_mut() {
                object.insert("description".into(), Value::String(description));
            }
            let why = format!(
                "synthetic scale-benchmark variant of {}/{}: description prefixed with {phrase:?}",
                server.name, t.name
            );
            ToolRecord::new(tool, Some(why)).ok()
        })
        .collect();
    ServerRecord {
        server_id: String::new(),
        name: format!("{}~{}", server.name, phrase.to_lowercase().replace(' ', "-")),
        title: server.title.as_ref().map(|t| format!("{t} ({phrase})")),
        version: server.version.clone(),
        description: Some(prefix(server.description.as_deref().unwrap_or(""))),
        instructions: server.instructions.clone(),
        source: ServerSource {
            kind: "scale-variant".into(),
            origin: format!("{} edition {k} of {}", server.source.origin, server.name),
        },
        crawled_at: None,
        protocol_version: server.protocol_version.clone(),
        stale: server.stale.clone(),
        tools,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn server(name: &str, tools: &[&str]) -> ServerRecord {
        ServerRecord {
            server_id: String::new(),
            name: name.into(),
            title: None,
            version: None,
            description: Some(format!("The {name} server.")),
            instructions: None,
            source: ServerSource { kind: "test".into(), origin: "here".into() },
            crawled_at: None,
            protocol_version: None,
            stale: None,
            tools: tools
                .iter()
                .map(|t| {
                    let object = json!({"name": t, "description": format!("Does {t}."),
                        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}});
                    ToolRecord::new(object, None).expect("tool")
                })
                .collect(),
        }
    }

    fn catalog(servers: Vec<ServerRecord>) -> Catalog {
        let mut c = Catalog::default();
        for s in servers {
            c.push(s);
        }
        c
    }

    #[test]
    fn grows_to_the_target_from_the_bases_only() {
        let kept = catalog(vec![server("gold", &["find"])]);
        let bases = catalog(vec![server("a", &["x", "y"]), server("b", &["z"])]);
        let out = scale_corpus(&[kept], &[bases], 20);
        assert!(out.tool_count() >= 20 && out.tool_count() <= 21, "{}", out.tool_count());
        assert_eq!(
            out.servers.iter().filter(|s| s.name.starts_with("gold")).count(),
            1,
            "kept catalogs are not copied"
        );
        let ids: std::collections::HashSet<&str> = out.servers.iter().map(|s| s.server_id.as_str()).collect();
        assert_eq!(ids.len(), out.servers.len(), "server ids are unique");
        let names: std::collections::HashSet<&str> = out.servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names.len(), out.servers.len(), "variant names are distinct");
    }

    #[test]
    fn a_variant_keeps_names_and_schemas_and_says_it_is_derived() {
        let base = server("files", &["read_file"]);
        let v = variant(&base, 13);
        assert_eq!(v.name, format!("files~{}", edition(13).to_lowercase().replace(' ', "-")));
        let (orig, copy) = (&base.tools[0], &v.tools[0]);
        assert_eq!(copy.name, orig.name);
        assert_eq!(copy.tool["inputSchema"], orig.tool["inputSchema"]);
        assert_eq!(copy.description(), format!("{}: Does read_file.", edition(13)));
        assert_ne!(copy.hash, orig.hash, "the hash covers the changed description");
        assert!(copy.derived.as_deref().is_some_and(|d| d.contains("files/read_file")), "{:?}", copy.derived);
    }

    #[test]
    fn editions_are_distinct() {
        let all: std::collections::HashSet<String> = (0..EDITIONS).map(edition).collect();
        assert_eq!(all.len(), EDITIONS);
    }
}
