//! Search text: what the BM25 and dense indexes see of a server or a tool. Pure functions, no I/O.
//!
//! A document has four lexical fields, weighted apart by BM25, and one text to embed.
//! Tool document: `name` (the tool name split into words, and its title), `description`, `params`
//! (parameter names split into words, their descriptions and enum values), `context` (its server's name,
//! title and first sentence). Server document: `name` (name and title), `description` (description and
//! instructions), `params` (a summary of its tools: names split into words plus the first sentence of
//! each description), and no context.
//! Long texts are cut (descriptions of 34 kB exist) so one verbose tool cannot drown the others; the cut
//! only affects search text — the tool object itself is never changed.

use serde_json::Value;

use crate::catalog::{ServerRecord, ToolRecord};

/// Most characters of a tool description put into search text.
const MAX_DESCRIPTION: usize = 2000;
/// Most characters of server instructions put into search text.
const MAX_INSTRUCTIONS: usize = 1000;
/// Most characters of one parameter description.
const MAX_PARAM: usize = 160;

/// The texts of one document: its lexical fields and the text to embed.
#[derive(Debug, Clone, PartialEq)]
pub struct DocText {
    /// Names: the identifier split into words, and the title.
    pub name: String,
    /// What it says it does.
    pub description: String,
    /// Its parameters (tools) or its tools (servers).
    pub params: String,
    /// Who it belongs to (the server, for a tool).
    pub context: String,
    /// What the embedding model reads (names first; the model truncates at 256 tokens).
    pub embed: String,
}

impl DocText {
    /// The lexical fields in the order BM25 indexes them.
    pub fn fields(&self) -> [&str; 4] {
        [&self.name, &self.description, &self.params, &self.context]
    }
}

/// Splits an identifier into lowercase words: `get_weatherForecast-v2` → `get weather forecast v2`.
pub fn split_name(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = match prev {
            Some(p) if p.is_lowercase() && c.is_uppercase() => true,
            Some(p) if p.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase) => true,
            Some(p) if p.is_alphabetic() && c.is_ascii_digit() => true,
            Some(p) if p.is_ascii_digit() && c.is_alphabetic() => true,
            _ => false,
        };
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words.join(" ")
}

/// The search text of a tool, with a little context from its server.
pub fn tool_text(server: &ServerRecord, tool: &ToolRecord) -> DocText {
    let object = &tool.tool;
    let title = str_at(object, "title").or_else(|| object.pointer("/annotations/title").and_then(Value::as_str));
    let description = cut(tool.description(), MAX_DESCRIPTION);
    let mut name = split_name(&tool.name);
    if let Some(t) = title {
        name.push_str(". ");
        name.push_str(t);
    }
    let params = parameters(object.get("inputSchema"));
    let server_words = server_context(server);
    let embed = format!("{name}. {description} {params} ({server_words})");
    let lexical_params = format!("{params}\n{}", enum_values(object.get("inputSchema")));
    DocText {
        name,
        description: description.to_string(),
        params: lexical_params,
        context: server_words,
        embed: squash(&embed),
    }
}

/// The search text of a server: its own words and a summary of its tools.
pub fn server_text(server: &ServerRecord) -> DocText {
    let mut name = split_name(&server.name);
    if let Some(t) = &server.title {
        name.push_str(". ");
        name.push_str(t);
    }
    let description = server.description.as_deref().unwrap_or("");
    let instructions = cut(server.instructions.as_deref().unwrap_or(""), MAX_INSTRUCTIONS);
    let tool_names: Vec<String> = server.tools.iter().map(|t| split_name(&t.name)).collect();
    let tool_sentences: Vec<&str> = server.tools.iter().map(|t| first_sentence(t.description())).collect();
    let embed = format!("{name}. {description} {} Tools: {}.", first_sentence(instructions), tool_names.join(", "));
    DocText {
        name,
        description: format!("{description}\n{instructions}"),
        params: format!("{}\n{}", tool_names.join(", "), tool_sentences.join(" ")),
        context: String::new(),
        embed: squash(&embed),
    }
}

fn server_context(server: &ServerRecord) -> String {
    let mut s = split_name(&server.name);
    if let Some(t) = &server.title {
        s.push_str(", ");
        s.push_str(&split_name(t));
    }
    if let Some(d) = &server.description {
        s.push_str(": ");
        s.push_str(cut(first_sentence(d), 160));
    }
    s
}

/// `name (words): description` for each top-level property of an input schema.
fn parameters(schema: Option<&Value>) -> String {
    let Some(props) = schema.and_then(|s| s.get("properties")).and_then(Value::as_object) else {
        return String::new();
    };
    let mut parts = Vec::new();
    for (name, prop) in props {
        let desc = prop.get("description").and_then(Value::as_str).map(|d| cut(d, MAX_PARAM)).unwrap_or("");
        let words = split_name(name);
        parts.push(if desc.is_empty() { words } else { format!("{words}: {desc}") });
    }
    parts.join("; ")
}

/// The string enum values of the top-level properties of an input schema (`"open", "closed"`), which
/// often name what a tool can do or filter by.
fn enum_values(schema: Option<&Value>) -> String {
    let Some(props) = schema.and_then(|s| s.get("properties")).and_then(Value::as_object) else {
        return String::new();
    };
    let mut out: Vec<&str> = Vec::new();
    for prop in props.values() {
        for v in prop.get("enum").and_then(Value::as_array).into_iter().flatten().take(20) {
            if let Some(s) = v.as_str() {
                out.push(cut(s, 40));
            }
        }
    }
    out.join(" ")
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty())
}

/// The text up to the first sentence end or line break (at most 200 chars).
pub(crate) fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|&(i, c)| c == '\n' || ((c == '.' || c == '。') && text[i + c.len_utf8()..].starts_with([' ', '\n'])))
        .map(|(i, c)| if c == '\n' { i } else { i + c.len_utf8() })
        .unwrap_or(text.len());
    cut(&text[..end], 200)
}

/// At most `max` chars of `text`, cut on a char boundary.
pub(crate) fn cut(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// Collapses runs of whitespace into one space.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::ServerSource;
    use serde_json::json;

    #[test]
    fn splits_identifiers() {
        let check = |input: &str, expected: &str| assert_eq!(split_name(input), expected, "{input}");
        check("get_weather", "get weather");
        check("createIssue", "create issue");
        check("HTTPServerList", "http server list");
        check("list-tables", "list tables");
        check("TwilioApiV2010--CreateMessage", "twilio api v 2010 create message");
        check("s3Bucket", "s 3 bucket");
        check("", "");
        check("搜索_news", "搜索 news");
    }

    #[test]
    fn first_sentences_and_cuts() {
        assert_eq!(first_sentence("Get the weather. Then more."), "Get the weather.");
        assert_eq!(first_sentence("Line one\nline two"), "Line one");
        assert_eq!(first_sentence("v1.2 is out"), "v1.2 is out");
        assert_eq!(cut("héllo", 2), "hé");
    }

    #[test]
    fn tool_text_has_name_words_description_and_params() {
        let server = ServerRecord {
            server_id: "gh".into(),
            name: "github".into(),
            title: None,
            version: None,
            description: Some("GitHub API. Lots more.".into()),
            instructions: None,
            source: ServerSource { kind: "t".into(), origin: "t".into() },
            crawled_at: None,
            protocol_version: None,
            stale: None,
            tools: vec![],
        };
        let tool = ToolRecord::new(
            json!({"name": "create_issue", "description": "Open an issue",
                   "inputSchema": {"type": "object", "properties": {"repoName": {"type": "string", "description": "owner/repo"}}}}),
            None,
        )
        .expect("valid");
        let doc = tool_text(&server, &tool);
        assert_eq!(doc.name, "create issue");
        assert_eq!(doc.embed, "create issue. Open an issue repo name: owner/repo (github: GitHub API.)");
        assert!(doc.params.contains("repo name: owner/repo"));
        assert_eq!(doc.description, "Open an issue");
        assert!(doc.context.starts_with("github"));
    }
}
