//! Abbreviations spelled out: "open a PR" is also searched as "open a pull request", since tool
//! descriptions spell things out and a small embedding model does not know every abbreviation. The list
//! is data (`abbreviations.txt`). Pure code.

use std::collections::HashMap;
use std::sync::OnceLock;

const ABBREVIATIONS: &str = include_str!("abbreviations.txt");

fn table() -> &'static HashMap<String, String> {
    static TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
    TABLE.get_or_init(|| {
        ABBREVIATIONS
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('=').map(|(a, b)| (a.trim().to_lowercase(), b.trim().to_string())))
            .collect()
    })
}

/// `text` with every known abbreviation spelled out, or `None` when it uses none.
pub(crate) fn spelled_out(text: &str) -> Option<String> {
    let table = table();
    replace_words(text, char::is_alphanumeric, |word| table.get(&word.to_lowercase()).map(String::as_str))
}

/// `text` with each word (a run of characters `in_word` accepts) that `replacement` has a replacement for
/// replaced, everything else kept as is; `None` when nothing was replaced. Words inside a URL, path, email
/// address or identifier (`blog.rust-lang.org`, `src/lib.rs`, `transfer_funds`) or inside quotes ("a note
/// called 'Meeting notes'") are left alone: they are payload, not words to spell out or respell. Shared by
/// the abbreviation pass and respelling.
pub(crate) fn replace_words<'a>(
    text: &str,
    in_word: impl Fn(char) -> bool,
    mut replacement: impl FnMut(&str) -> Option<&'a str>,
) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(text.len() + 16);
    let mut word = String::new();
    let mut verbatim = false;
    // Which characters lie inside a quoted span (`payload.rs` masks their letters).
    let quoted: Vec<bool> =
        text.chars().zip(crate::payload::quoted_letters_masked(text).chars()).map(|(a, b)| a != b).collect();
    let mut flush = |word: &mut String, out: &mut String, verbatim: bool| {
        if !word.is_empty() {
            match replacement(word).filter(|_| !verbatim) {
                Some(long) => {
                    out.push_str(long);
                    changed = true;
                }
                None => out.push_str(word),
            }
            word.clear();
        }
    };
    let mut token_start = true;
    let mut in_quotes = false;
    for (i, (at, c)) in text.char_indices().enumerate() {
        if token_start && !c.is_whitespace() {
            verbatim = looks_verbatim(text[at..].split(char::is_whitespace).next().unwrap_or_default());
        }
        token_start = c.is_whitespace();
        if in_word(c) {
            if word.is_empty() {
                in_quotes = quoted.get(i).copied().unwrap_or(false);
            }
            word.push(c);
        } else {
            flush(&mut word, &mut out, verbatim || in_quotes);
            out.push(c);
        }
    }
    flush(&mut word, &mut out, verbatim || in_quotes);
    changed.then_some(out)
}

/// A whitespace-delimited token that is a URL, path, email address, repository or channel (what
/// `entities.rs` finds in requests), or an identifier (`snake_case`, a Windows path), rather than words.
fn looks_verbatim(token: &str) -> bool {
    crate::entities::in_request(token) != 0 || token.contains(['_', '\\']) || kebab_name(token)
}

/// A name joined by hyphens from ASCII letters and digits, such as a project, database or index name
/// (`shop-db`, `docs-prod`, `api-7f9c6d`): its parts are not words to spell out ("shop-database"). Words
/// joined by a hyphen ("third-party", "read-only", "to-do") have no abbreviation or misspelling to fix in
/// them either.
fn kebab_name(token: &str) -> bool {
    let core = token.trim_matches(|c: char| !c.is_alphanumeric());
    let parts: Vec<&str> = core.split('-').collect();
    parts.len() >= 2 && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_out_whole_words_only() {
        assert_eq!(spelled_out("open a PR on GitHub").as_deref(), Some("open a pull request on GitHub"));
        assert_eq!(
            spelled_out("list my k8s pods, then DM bob").as_deref(),
            Some("list my kubernetes pods, then direct message bob")
        );
        assert_eq!(spelled_out("print the report"), None, "`pr` inside a word stays");
        assert_eq!(spelled_out("weather in Paris"), None);
    }

    #[test]
    fn everyday_words_are_also_searched_as_the_words_tools_use() {
        assert_eq!(spelled_out("make a new Folder called taxes").as_deref(), Some("make a new directory called taxes"));
        assert_eq!(spelled_out("resize these photos").as_deref(), Some("resize these images"));
        assert_eq!(spelled_out("any mail from DHL?").as_deref(), Some("any email from DHL?"));
        assert_eq!(spelled_out("unfold the map"), None, "`fold` inside a word stays");
        assert_eq!(spelled_out("move it to ~/photos/2024"), None, "a path is payload");
        assert_eq!(spelled_out("delete my 3pm meeting").as_deref(), Some("delete my 3pm event"));
        assert_eq!(spelled_out("draw a flowchart of it").as_deref(), Some("draw a flow diagram of it"));
        assert_eq!(spelled_out("new note called 'Meeting 2025-03-04'"), None, "quoted text is payload");
        assert_eq!(
            spelled_out("add \"call the repo owner\" to my repo's todo").as_deref(),
            Some("add \"call the repo owner\" to my repository's todo")
        );
    }

    #[test]
    fn urls_paths_and_identifiers_are_left_alone() {
        assert_eq!(spelled_out("summarize https://blog.rust-lang.org/2024/11/28/Rust-1.83.0.html"), None);
        assert_eq!(spelled_out("open a PR for src/db.rs"), Some("open a pull request for src/db.rs".into()));
        assert_eq!(
            spelled_out("email ops@acme.org about the db"),
            Some("email ops@acme.org about the database".into())
        );
        let upper = |w: &str| (w == "funds").then_some("FUNDS");
        assert_eq!(replace_words("move 'transfer_funds' now", char::is_alphabetic, upper), None);
        assert_eq!(replace_words("move funds now", char::is_alphabetic, upper).as_deref(), Some("move FUNDS now"));
        assert_eq!(spelled_out("create a branch in my neon project shop-db"), None, "a hyphenated name");
        assert_eq!(spelled_out("vectors in the pinecone index docs-prod?"), None);
        assert_eq!(spelled_out("the db of shop-db").as_deref(), Some("the database of shop-db"));
    }
}
