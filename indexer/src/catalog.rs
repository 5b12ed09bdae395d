//! The catalog model: MCP servers and their tools, exactly as the source declared them.
//!
//! A catalog file is JSON Lines, one [`ServerRecord`] per line with its tools inline. Each tool keeps the
//! MCP `Tool` object verbatim in [`ToolRecord::tool`] (key order included); the only thing we add beside it
//! is its content hash and, when the object is not what a server declared, a `derived` note saying how it
//! was made.

use std::collections::HashSet;
use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::canonical::content_hash;
use crate::{Error, Result};

/// Largest MCP `Tool` object (as JSON) the catalog accepts. The biggest seen in the wild is ~82 kB.
pub const MAX_TOOL_BYTES: usize = 1 << 20;

/// Where a server record came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerSource {
    /// `stdio`, `streamable_http`, `livemcpbench`, `mcp-zero`, `catalog`, …
    pub kind: String,
    /// What identifies it within that kind: a package, a URL, a file and key. Never a secret.
    pub origin: String,
}

/// Why a server's record is its last known one rather than a fresh crawl.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stale {
    /// When the crawl that failed ran (RFC 3339, UTC).
    pub since: String,
    /// Why it failed (secrets masked).
    pub reason: String,
}

/// One MCP server and its tools.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerRecord {
    /// Unique within a catalog, URL-safe (`[a-z0-9._-]+`); derived from the name, suffixed on collision.
    pub server_id: String,
    /// The server's name as its source gives it (config key, catalog `name`); not necessarily unique.
    pub name: String,
    /// Human-readable title (`serverInfo.title`).
    #[serde(default)]
    pub title: Option<String>,
    /// `serverInfo.version`.
    #[serde(default)]
    pub version: Option<String>,
    /// A description of the server, where the source has one.
    #[serde(default)]
    pub description: Option<String>,
    /// The `instructions` the server sent at initialization.
    #[serde(default)]
    pub instructions: Option<String>,
    /// Where this record came from.
    pub source: ServerSource,
    /// When it was crawled (RFC 3339, UTC), for crawled servers.
    #[serde(default)]
    pub crawled_at: Option<String>,
    /// The negotiated MCP protocol version, for crawled servers.
    #[serde(default)]
    pub protocol_version: Option<String>,
    /// Set when the last crawl of this server failed and these are its last known tools, kept until the
    /// server answers again or is pruned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale: Option<Stale>,
    /// The server's tools, in the order it listed them.
    #[serde(default)]
    pub tools: Vec<ToolRecord>,
}

/// One tool of a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolRecord {
    /// The tool's `name`, copied out of [`ToolRecord::tool`] for convenience.
    pub name: String,
    /// The MCP `Tool` object exactly as declared (name, title, description, inputSchema, outputSchema,
    /// annotations and any other field the server sent).
    pub tool: Value,
    /// [`content_hash`] of `tool`.
    pub hash: String,
    /// Set when `tool` is not verbatim server output: says what was derived and from what.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<String>,
}

impl ToolRecord {
    /// Wraps an MCP `Tool` object, checking it has the `Tool` shape (`validate.rs`) and a sane size.
    pub fn new(tool: Value, derived: Option<String>) -> Result<ToolRecord> {
        let label = tool.get("name").and_then(Value::as_str).map(|n| format!("tool {n:?}")).unwrap_or("tool".into());
        crate::validate::check_tool(&tool).map_err(|reason| Error::bad_input(label, reason))?;
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let size = serde_json::to_string(&tool).map(|s| s.len()).unwrap_or(usize::MAX);
        if size > MAX_TOOL_BYTES {
            return Err(Error::bad_input(
                format!("tool {name}"),
                format!("definition is {size} bytes, more than the {MAX_TOOL_BYTES} accepted"),
            ));
        }
        let hash = content_hash(&tool);
        Ok(ToolRecord { name, tool, hash, derived })
    }

    /// The tool's `description`, or "" when it has none.
    pub fn description(&self) -> &str {
        self.tool.get("description").and_then(Value::as_str).unwrap_or("")
    }
}

/// Lines of a catalog file parsed per chunk by [`Catalog::read_jsonl_reporting`].
const READ_CHUNK: usize = 256;

/// One server line of a catalog file (line `n`): the server with its valid tools, and a warning for each
/// tool left out.
fn parse_server_line(line: &str, what: &str, n: usize) -> Result<(ServerRecord, Vec<String>)> {
    let mut server: ServerRecord =
        serde_json::from_str(line).map_err(|e| Error::bad_input(format!("{what} line {n}"), e.to_string()))?;
    let mut warnings = Vec::new();
    let mut kept: Vec<ToolRecord> = Vec::with_capacity(server.tools.len());
    for t in std::mem::take(&mut server.tools) {
        let record = ToolRecord::new(t.tool, t.derived).and_then(|record| {
            if record.name == t.name {
                Ok(record)
            } else {
                Err(Error::bad_input(
                    "tool",
                    format!("record name {:?} differs from tool.name {:?}", t.name, record.name),
                ))
            }
        });
        match record {
            Ok(r) if kept.iter().any(|k| k.name == r.name) => warnings.push(format!(
                "{what} line {n}: server {}: duplicate tool name {:?}, kept the first",
                server.name, r.name
            )),
            Ok(r) => kept.push(r),
            Err(e) => {
                warnings.push(format!("{what} line {n}: server {}: tool {:?} rejected: {e}", server.name, t.name))
            }
        }
    }
    server.tools = kept;
    Ok((server, warnings))
}

/// A set of servers with unique `server_id`s.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    /// The servers, in the order they were added.
    pub servers: Vec<ServerRecord>,
}

impl Catalog {
    /// Adds a server, making its `server_id` unique (an empty id is derived from the name).
    pub fn push(&mut self, server: ServerRecord) {
        self.extend([server]);
    }

    /// Adds servers in order, as [`Catalog::push`] does one by one (the ids already taken are gathered
    /// once: pushing 8K servers one at a time gathered them 8K times, seconds at 100K tools).
    pub fn extend(&mut self, servers: impl IntoIterator<Item = ServerRecord>) {
        let mut taken: HashSet<String> = self.servers.iter().map(|s| s.server_id.clone()).collect();
        for mut server in servers {
            let base = if server.server_id.is_empty() { slug(&server.name) } else { slug(&server.server_id) };
            let mut id = base.clone();
            let mut n = 2;
            while taken.contains(&id) {
                id = format!("{base}-{n}");
                n += 1;
            }
            taken.insert(id.clone());
            server.server_id = id;
            self.servers.push(server);
        }
    }

    /// Number of tools over all servers.
    pub fn tool_count(&self) -> usize {
        self.servers.iter().map(|s| s.tools.len()).sum()
    }

    /// Reads a catalog from JSON Lines. Blank lines are skipped; a line that is not a server record is an
    /// error naming it; a tool that is not a valid MCP `Tool` is rejected (left out, with a warning naming
    /// the line, server, tool and reason) and the rest of its server kept.
    pub fn read_jsonl(reader: impl BufRead, what: &str) -> Result<Catalog> {
        Self::read_jsonl_reporting(reader, what, &mut Vec::new())
    }

    /// [`Catalog::read_jsonl`], collecting the rejections into `warnings`. Lines are parsed a chunk at a
    /// time, the chunk's two halves side by side (parsing and checking every tool object is most of an
    /// update's reading at 100K tools); servers, warnings and the first error come in line order.
    pub fn read_jsonl_reporting(reader: impl BufRead, what: &str, warnings: &mut Vec<String>) -> Result<Catalog> {
        let mut servers = Vec::new();
        let mut lines = reader.lines().enumerate();
        loop {
            // A line that cannot be read (not UTF-8) stays in its place, so the first error is the first
            // line's to fail, read or parsed.
            let mut chunk: Vec<(usize, std::result::Result<String, String>)> = Vec::with_capacity(READ_CHUNK);
            for (i, line) in lines.by_ref() {
                match line {
                    Ok(line) if line.trim().is_empty() => {}
                    Ok(line) => chunk.push((i + 1, Ok(line))),
                    Err(e) => chunk.push((i + 1, Err(e.to_string()))),
                }
                if chunk.len() == READ_CHUNK {
                    break;
                }
            }
            if chunk.is_empty() {
                break;
            }
            let (first, second) = chunk.split_at(chunk.len() / 2);
            let parse = |part: &[(usize, std::result::Result<String, String>)]| {
                part.iter()
                    .map(|(n, line)| match line {
                        Ok(line) => parse_server_line(line, what, *n),
                        Err(e) => Err(Error::bad_input(format!("{what} line {n}"), e.clone())),
                    })
                    .collect::<Vec<Result<(ServerRecord, Vec<String>)>>>()
            };
            let (a, b) = std::thread::scope(|scope| {
                let b = scope.spawn(|| parse(second));
                (parse(first), b.join())
            });
            let b = b.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            for parsed in a.into_iter().chain(b) {
                let (server, rejected) = parsed?;
                warnings.extend(rejected);
                servers.push(server);
            }
        }
        let mut catalog = Catalog::default();
        catalog.extend(servers);
        Ok(catalog)
    }

    /// Writes the catalog as JSON Lines.
    pub fn write_jsonl(&self, mut writer: impl Write) -> std::io::Result<()> {
        for server in &self.servers {
            serde_json::to_writer(&mut writer, server)?;
            writer.write_all(b"\n")?;
        }
        writer.flush()
    }

    /// Replaces the catalog file at `path` atomically: a failed write leaves the old file whole.
    pub fn write_file(&self, path: &std::path::Path) -> Result<()> {
        crate::atomic::write_atomic_with(path, |f| self.write_jsonl(std::io::BufWriter::new(f)))
    }
}

/// Makes a URL-safe id: lowercase ASCII letters, digits, `.`, `_`, `-`; other runs become one `-`.
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
            out.push(c);
            dash = false;
        } else if !dash && !out.is_empty() {
            out.push('-');
            dash = true;
        }
    }
    let out = out.trim_end_matches('-').trim_start_matches('.').to_string();
    if out.is_empty() { "server".to_string() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(name: &str) -> ServerRecord {
        ServerRecord {
            server_id: String::new(),
            name: name.to_string(),
            title: None,
            version: None,
            description: None,
            instructions: None,
            source: ServerSource { kind: "test".into(), origin: "unit".into() },
            crawled_at: None,
            protocol_version: None,
            stale: None,
            tools: vec![],
        }
    }

    #[test]
    fn slugs() {
        let check = |input: &str, expected: &str| assert_eq!(slug(input), expected);
        check("GitHub MCP", "github-mcp");
        check("@modelcontextprotocol/server-github", "modelcontextprotocol-server-github");
        check("高德地图", "server");
        check("..etc", "etc");
        check("a__b", "a__b");
    }

    #[test]
    fn same_named_servers_get_distinct_ids() {
        let mut c = Catalog::default();
        c.push(record("AWS"));
        c.push(record("AWS"));
        c.push(record("aws"));
        let ids: Vec<_> = c.servers.iter().map(|s| s.server_id.as_str()).collect();
        assert_eq!(ids, ["aws", "aws-2", "aws-3"]);
        assert!(c.servers.iter().all(|s| s.name.eq_ignore_ascii_case("aws")));
    }

    #[test]
    fn jsonl_round_trip_keeps_tools_verbatim() {
        let mut c = Catalog::default();
        let mut s = record("x");
        let tool = json!({"name": "t", "zeta": 1, "inputSchema": {"type": "object"}, "alpha": [1, 2]});
        s.tools.push(ToolRecord::new(tool.clone(), None).expect("valid tool"));
        c.push(s);
        let mut buf = Vec::new();
        c.write_jsonl(&mut buf).expect("write to vec");
        let back = Catalog::read_jsonl(buf.as_slice(), "test").expect("read back");
        assert_eq!(back, c);
        let text = serde_json::to_string(&back.servers[0].tools[0].tool).expect("serialize");
        assert_eq!(text, r#"{"name":"t","zeta":1,"inputSchema":{"type":"object"},"alpha":[1,2]}"#);
    }

    #[test]
    fn a_long_file_is_read_in_line_order_with_its_warnings_and_first_error() {
        // More lines than one parsing chunk, blank lines between, a rejected tool every 100th server.
        let line = |i: usize| {
            let tool = if i % 100 == 7 {
                r#"{"description":"no name"}"#
            } else {
                r#"{"name":"t","inputSchema":{"type":"object"}}"#
            };
            format!(
                r#"{{"server_id":"","name":"s{}","source":{{"kind":"k","origin":"o"}},"tools":[{{"name":"t","tool":{tool},"hash":""}}]}}"#,
                i % 300
            )
        };
        let text: String = (0..700).map(|i| line(i) + if i % 50 == 0 { "\n\n" } else { "\n" }).collect();
        let mut warnings = Vec::new();
        let catalog = Catalog::read_jsonl_reporting(text.as_bytes(), "big.jsonl", &mut warnings).expect("read");
        assert_eq!(catalog.servers.len(), 700);
        assert_eq!(catalog.servers[0].server_id, "s0");
        assert_eq!(catalog.servers[300].server_id, "s0-2", "ids made unique in line order");
        assert_eq!(catalog.servers[699].server_id, "s99-3");
        assert_eq!(warnings.len(), 7, "{warnings:?}");
        let first_line = |w: &String| w.split(' ').nth(2).and_then(|n| n.trim_end_matches(':').parse::<usize>().ok());
        let lines: Vec<usize> = warnings.iter().filter_map(first_line).collect();
        assert!(lines.windows(2).all(|w| w[0] < w[1]) && lines.len() == 7, "{warnings:?}");
        // Two bad lines in different chunks: the first one is reported.
        let broken: String =
            (0..700).map(|i| if i == 400 || i == 600 { "{oops\n".to_string() } else { line(i) + "\n" }).collect();
        let err = Catalog::read_jsonl(broken.as_bytes(), "big.jsonl").expect_err("broken");
        assert!(err.to_string().contains("big.jsonl line 401"), "{err}");
        // A line that is not UTF-8 after a bad one in the same chunk: the bad one, first, is reported.
        let mut bytes: Vec<u8> = Vec::new();
        for i in 0..20 {
            match i {
                3 => bytes.extend_from_slice(b"{oops\n"),
                9 => bytes.extend_from_slice(b"\xff\xfe\n"),
                _ => bytes.extend_from_slice((line(i) + "\n").as_bytes()),
            }
        }
        let err = Catalog::read_jsonl(bytes.as_slice(), "big.jsonl").expect_err("broken");
        assert!(err.to_string().contains("big.jsonl line 4:"), "{err}");
        let err = Catalog::read_jsonl(&b"\xff\n"[..], "big.jsonl").expect_err("not UTF-8");
        assert!(err.to_string().contains("big.jsonl line 1"), "{err}");
    }

    #[test]
    fn bad_lines_are_named() {
        let err = Catalog::read_jsonl("\n{\"nope\"".as_bytes(), "cat.jsonl").expect_err("garbage");
        assert!(err.to_string().contains("cat.jsonl line 2"), "{err}");
        // A tool that is not an MCP `Tool` is rejected and reported (line, server, tool, reason); the rest of
        // its server is kept.
        let bad_tool = r#"{"server_id":"","name":"s","source":{"kind":"k","origin":"o"},"tools":[{"name":"a","tool":{"description":"no name"},"hash":""},{"name":"b","tool":{"name":"b","inputSchema":"string schema","description":["x"]},"hash":""},{"name":"c","tool":{"name":"c","inputSchema":{"type":"object"}},"hash":""}]}"#;
        let mut warnings = Vec::new();
        let catalog = Catalog::read_jsonl_reporting(bad_tool.as_bytes(), "cat.jsonl", &mut warnings).expect("read");
        assert_eq!(catalog.servers[0].tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["c"]);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].starts_with("cat.jsonl line 1: server s: tool \"a\" rejected"), "{warnings:?}");
        assert!(warnings[1].contains("tool \"b\" rejected") && warnings[1].contains("description"), "{warnings:?}");
        assert!(ToolRecord::new(json!("str"), None).is_err());
    }
}
