//! Multi-intent requests: split one request into the capabilities it asks for, so each gets its own
//! retrieval pass ("find the latest Apple stock price, related news, and chart it" needs three tools from
//! three servers). Pure code, no I/O.
//!
//! Splits on sentence ends, semicolons, line breaks, numbered steps, and on ", and" / "and then" /
//! "then" / "as well as" / "also" between clauses. Pieces shorter than three words are glued back to
//! their neighbour. One piece means a single intent.

/// Most intents taken from one request.
pub(crate) const MAX_INTENTS: usize = 4;

/// The intents of `query`, in order; empty when it is a single intent.
pub fn intents(query: &str) -> Vec<String> {
    intent_parts(query).into_iter().map(|p| p.text).collect()
}

/// One intent of a request: its text (the pieces joined by a space) and where its pieces lie in the
/// request (byte ranges, in order), so a model can read the intent in the context of the whole request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntentPart {
    /// The intent as embedded on its own.
    pub text: String,
    /// Byte ranges of the request this intent was cut from.
    pub spans: Vec<std::ops::Range<usize>>,
}

/// [`intents`] with where each lies in `query`.
pub fn intent_parts(query: &str) -> Vec<IntentPart> {
    let mut pieces: Vec<&str> = Vec::new();
    for sentence in sentences(query) {
        let mut rest = sentence;
        loop {
            let lower = rest.to_lowercase();
            let cut =
                [", and then ", " and then ", ", then ", " then ", ", and ", " as well as ", ", also ", " and also "]
                    .iter()
                    .filter_map(|sep| lower.find(sep).map(|at| (at, sep.len())))
                    .min();
            match cut {
                Some((at, len)) if rest.is_char_boundary(at) && rest.is_char_boundary(at + len) => {
                    pieces.push(&rest[..at]);
                    rest = &rest[at + len..];
                }
                _ => {
                    pieces.push(rest);
                    break;
                }
            }
        }
    }
    let mut merged: Vec<Vec<&str>> = Vec::new();
    for piece in pieces {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        match merged.last_mut() {
            Some(last) if words(piece) < 3 || words(&last.join(" ")) < 3 => last.push(piece),
            _ => merged.push(vec![piece]),
        }
    }
    if merged.len() < 2 {
        return Vec::new();
    }
    merged.truncate(MAX_INTENTS);
    merged
        .into_iter()
        .map(|pieces| IntentPart {
            text: pieces.join(" "),
            spans: pieces.iter().map(|p| offset_in(query, p)..offset_in(query, p) + p.len()).collect(),
        })
        .collect()
}

/// Verbs that, followed by a file path, ask to write a file ("… and save the summary to
/// /root/notes/rust.md", "…, dump them into prs.json"), whatever else the request asks for.
const SAVE_VERBS: &[&str] = &["save", "write", "store", "dump", "export", "put", "log", "record", "output", "append"];

/// Extensions that make a bare file name a path ("prs.json"). Script and language suffixes are left
/// out: "Node.js" names a runtime more often than a file.
const FILE_EXTENSIONS: &[&str] = &[
    "md", "markdown", "txt", "text", "csv", "tsv", "json", "jsonl", "yaml", "yml", "xml", "html", "htm", "log", "pdf",
    "doc", "docx", "xls", "xlsx", "ppt", "pptx", "rtf", "odt", "png", "jpg", "jpeg", "svg", "mmd", "ini", "toml",
    "sql", "ics", "zip",
];

/// The file write a request implies when it asks to save something to a file path ("… and save the
/// summary to /root/notes/rust.md", "Put them in /root/excel/cards.xlsx."), as a request of its own that
/// names what kind of file it is ("write a markdown file"): the clause itself is mostly about what is
/// saved ("a summary"), which pulls tools about that rather than a tool that writes files, so cutting
/// the clause out as an intent did not help (handdev-save R@5 0.767 with this pass alone, 0.733 with the
/// cut too; BENCHMARKS.md). `None` when no save verb has a file path after it in the same sentence.
pub(crate) fn implied_file_write(query: &str) -> Option<String> {
    after_a_verb(query, SAVE_VERBS, |after| {
        // A path after "then" belongs to what the request does next ("put the kickoff on my calendar, then
        // email them the agenda in /root/docs/agenda.md").
        after
            .iter()
            .take_while(|t| **t != "then")
            .find_map(|t| file_path(t))
            .map(|path| format!("write a {}", file_kind(path)))
    })
}

/// The first `Some` that `implied` gives for the words after a verb of `verbs` (lowercase, to the end of
/// its sentence), trying each such verb of each sentence in turn.
fn after_a_verb(query: &str, verbs: &[&str], implied: impl Fn(&[&str]) -> Option<String>) -> Option<String> {
    sentences(query).into_iter().find_map(|sentence| {
        let lower = sentence.to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        words.iter().enumerate().find_map(|(i, w)| {
            let verb = w.trim_matches(|c: char| !c.is_alphabetic());
            if verbs.contains(&verb) { implied(&words[i + 1..]) } else { None }
        })
    })
}

/// Verbs that are also the thing they make ("*email* the report to Ann", "*comment* on issue 12 that it
/// is fixed"), with the plain request each one is. "Text" is left out: a text is also what a document
/// holds, and a text message is not whatever message a connected server sends.
pub(crate) const NAMES_WHAT_IT_MAKES: &[(&str, &str)] = &[
    ("email", "send an email"),
    ("mail", "send an email"),
    ("message", "send a message"),
    ("tweet", "send a tweet"),
    ("sms", "send a text message"),
    ("fax", "send a fax"),
    ("dm", "send a direct message"),
    ("comment", "add a comment"),
    ("bookmark", "add a bookmark"),
];

/// Whether `term` (a term as the analyzer stems it: "messag") is one of [`NAMES_WHAT_IT_MAKES`]'s verbs.
pub(crate) fn names_what_it_makes(term: &str) -> bool {
    static STEMS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    STEMS
        .get_or_init(|| NAMES_WHAT_IT_MAKES.iter().flat_map(|(verb, _)| toolscout_indexer::terms(verb)).collect())
        .iter()
        .any(|stem| stem == term)
}

/// Words after such a verb that say how or where it goes ("… *on* slack", "… *from* my gmail").
const CHANNEL_WORDS: &[&str] = &["on", "via", "through", "from", "using", "in"];

/// The plain request behind one that uses what it makes as its verb ("email the quarterly report to my
/// boss" is "send an email"), with the words that say how or where it goes ("… from my gmail"): the
/// request's own words are mostly what the message carries (a report, an agenda), which pull tools about
/// that rather than the one that sends it. `None` when no action's verb is one of [`NAMES_WHAT_IT_MAKES`].
pub(crate) fn plainly(query: &str) -> Option<String> {
    let table = crate::actions::families();
    let words = crate::actions::request_words(query);
    let ends = crate::actions::clause_ends(query);
    // Quoted text is payload (its letters masked, as `Analysis` reads actions).
    let masked = crate::payload::quoted_letters_masked(query);
    crate::actions::request_actions(table, &masked).into_iter().find_map(|a| {
        let (_, plain) = NAMES_WHAT_IT_MAKES.iter().find(|(verb, _)| *verb == a.verb)?;
        let end = ends.iter().copied().find(|&e| e > a.at).unwrap_or(words.len()).min(words.len());
        let after = &words[(a.at + a.len).min(end)..end];
        let channel: Vec<&str> = after
            .iter()
            .position(|w| CHANNEL_WORDS.contains(&w.as_str()))
            .map(|i| after[i..].iter().take(4).map(String::as_str).collect())
            .unwrap_or_default();
        Some(if channel.is_empty() { plain.to_string() } else { format!("{plain} {}", channel.join(" ")) })
    })
}

/// Verbs for what the agent does to a text itself once it has it ("summarize …", "translate …"): a request
/// that does one of them to a file or a web page needs that read first.
const DIGEST_VERBS: &[&str] =
    &["summarize", "summarise", "summarizes", "tldr", "translate", "explain", "analyze", "analyse", "proofread"];

/// Words after a digest verb that turn from what is digested to what it becomes or where it goes.
const CLAUSE_TURNS: &[&str] = &["and", "then", "into", "to", "as"];

/// The read a request implies when it asks to digest a file path or a web address ("summarize this pdf:
/// report.pdf", "translate https://example.com/fr into English"), as a request of its own ("read a pdf
/// file", "fetch a web page"): the agent summarizes or translates itself, but cannot open the file or the
/// page, and the request's own words pull tools that summarize or translate something else. `None` when
/// no digest verb has a path or an address after it in the same sentence, before the sentence turns to
/// what the result becomes or where it goes (`CLAUSE_TURNS`).
pub(crate) fn implied_read(query: &str) -> Option<String> {
    after_a_verb(query, DIGEST_VERBS, |after| {
        // What is digested comes before what the result becomes or where it goes ("translate these phrases
        // *and* make a sheet in /root/…", "translate it *into* …", "summarize it *to* …").
        after.iter().take_while(|t| !CLAUSE_TURNS.contains(t)).find_map(|t| {
            let t = t.trim_start_matches(['(', '"', '\'', '`', '<']);
            if t.starts_with("http://") || t.starts_with("https://") || t.starts_with("www.") {
                Some("fetch a web page".to_string())
            } else {
                file_path(t).map(|path| format!("read a {}", file_kind(path)))
            }
        })
    })
}

/// Verbs that read what follows them.
const READ_VERBS: &[&str] = &["show", "read", "open", "view", "display", "cat", "print"];

/// Words between a reading verb and the path it reads.
const READ_LEADS: &[&str] = &[
    "me", "the", "a", "my", "this", "file", "contents", "content", "of", "what's", "whats", "what", "is", "in",
    "inside",
];

/// A request that reads a file path, written as reading that kind of file ("show me what's in
/// ~/notes/todo.md" → "read the contents of a file", "open report.pdf" → "read a pdf file"): the path's
/// words ("notes", "todo") pull tools about them rather than one that reads files. The same intent as the
/// request. `None` when no reading verb has a path among the five words after it with only words that
/// lead to it between (`READ_LEADS`: not "show me the differences between a.txt and b.txt").
pub(crate) fn plain_read(query: &str) -> Option<String> {
    after_a_verb(query, READ_VERBS, |after| {
        after.iter().take(5).take_while(|t| file_path(t).is_some() || READ_LEADS.contains(t)).find_map(|t| {
            file_path(t).map(|path| match file_kind(path) {
                // A text file of any kind is read as a file: "a markdown file" pulls markdown converters.
                "markdown file" | "text file" | "csv file" | "json file" | "yaml file" | "html file" | "file" => {
                    "read the contents of a file".to_string()
                }
                kind => format!("read a {kind}"),
            })
        })
    })
}

/// What a file path (as [`file_path`] returns it) names, in words an embedder and BM25 match tool
/// descriptions with.
fn file_kind(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, e)| e) {
        "md" | "markdown" => "markdown file",
        "txt" | "text" | "log" => "text file",
        "csv" | "tsv" => "csv file",
        "json" | "jsonl" => "json file",
        "yaml" | "yml" => "yaml file",
        "html" | "htm" => "html file",
        "pdf" => "pdf file",
        "doc" | "docx" | "odt" | "rtf" => "word document",
        "xls" | "xlsx" => "excel spreadsheet",
        "ppt" | "pptx" => "powerpoint presentation",
        "png" | "jpg" | "jpeg" | "svg" => "image file",
        _ => "file",
    }
}

/// The file or folder a token names, without the punctuation around it: absolute, home- or dot-relative,
/// a Windows drive path, or a name with a [`FILE_EXTENSIONS`] extension; never a URL. Narrower than
/// `entities::in_request`'s paths on purpose: that one takes any short extension ("Node.js", "next.js"),
/// which is right for "does this request mention a file" and wrong for "this clause writes one".
fn file_path(token: &str) -> Option<&str> {
    let t = token
        .trim_start_matches(['(', '"', '\'', '`'])
        .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '"', '\'', '`']);
    if t.contains("://") {
        return None;
    }
    let rooted = (t.starts_with('/') && t.len() > 1)
        || t.starts_with("~/")
        || t.starts_with("./")
        || t.starts_with("../")
        || t.as_bytes().get(1..3) == Some(b":\\");
    let named = t
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && !stem.ends_with('.') && FILE_EXTENSIONS.contains(&ext));
    (rooted || named).then_some(t)
}

/// Where `part`, a slice of `whole`, starts in it.
fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// Splits at line breaks, `;` and CJK sentence marks, and at `.`/`!`/`?` followed by whitespace (so
/// `v1.2` stays whole); a list marker at the start of a line is dropped. Each sentence is a slice of
/// `text`.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let line = strip_step_number(line.trim());
        let mut start = 0;
        let mut chars = line.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let end = match c {
                ';' | '。' | '！' | '？' | '；' => true,
                '.' | '!' | '?' => chars.peek().is_none_or(|(_, n)| n.is_whitespace()),
                _ => false,
            };
            if end {
                out.push(&line[start..at]);
                start = at + c.len_utf8();
            }
        }
        out.push(&line[start..]);
    }
    out
}

fn words(text: &str) -> usize {
    let latin = text.split_whitespace().count();
    let cjk = text.chars().filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c)).count();
    latin.max(cjk / 2)
}

/// Drops a leading "1." / "2)" / "- " list marker.
fn strip_step_number(text: &str) -> &str {
    let digits = text.trim_start_matches(|c: char| c.is_ascii_digit());
    if digits.len() < text.len()
        && let Some(rest) = digits.strip_prefix(['.', ')', ':'])
    {
        return rest.trim_start();
    }
    text.strip_prefix("- ").or_else(|| text.strip_prefix("* ")).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(query: &str, expected: &[&str]) {
        assert_eq!(intents(query), expected, "{query}");
    }

    #[test]
    fn splits_compound_requests() {
        check("post a message to slack", &[]);
        check(
            "Get the latest Apple stock price, then find related news, and draw a line chart of the week.",
            &["Get the latest Apple stock price", "find related news", "draw a line chart of the week"],
        );
        check(
            "Create a word document. Write a paragraph about cats in it",
            &["Create a word document", "Write a paragraph about cats in it"],
        );
        check("search flights and hotels in Paris", &[]);
        check(
            "1. list my repos\n2. open an issue in the first one",
            &["list my repos", "open an issue in the first one"],
        );
        check("Translate this. Now.", &[]);
        check("tell #deploys that version 2.3 has shipped", &[]);
    }

    #[test]
    fn a_save_to_a_file_path_implies_a_file_write() {
        let write = |q: &str| implied_file_write(q);
        assert_eq!(
            write("search rust news and save a summary to /tmp/notes/rust.md").as_deref(),
            Some("write a markdown file")
        );
        assert_eq!(
            write("Make 8 slides on Apollo. Save to /root/ppt/apollo.pptx.").as_deref(),
            Some("write a powerpoint presentation")
        );
        assert_eq!(write("put the rows in ~/out/refunds").as_deref(), Some("write a file"));
        assert_eq!(write("save it as a draft and send it to Bob"), None);
        assert_eq!(write("open /root/notes.txt and summarize it"), None);
        assert_eq!(write("save the page. Then read /tmp/a.md"), None);
        assert_eq!(write("fetch https://example.com/a and save it to https://example.com/b"), None);
        assert_eq!(write("set up a small server and write the handler in Node.js"), None);
        assert_eq!(
            write("put the kickoff on my calendar for Tuesday, then email them the agenda in /root/docs/agenda.md"),
            None,
            "the path belongs to what is done next"
        );
    }

    #[test]
    fn a_verb_that_is_what_it_makes_is_also_asked_plainly() {
        let plain = |q: &str| plainly(q);
        assert_eq!(plain("email the quarterly report to my boss").as_deref(), Some("send an email"));
        assert_eq!(plain("please email them the agenda").as_deref(), Some("send an email"));
        assert_eq!(
            plain("email the Q3 numbers to finance@acme.com from my gmail").as_deref(),
            Some("send an email from my gmail")
        );
        assert_eq!(plain("dm alex on slack the link").as_deref(), Some("send a direct message on slack the link"));
        assert_eq!(plain("tweet that we shipped v2").as_deref(), Some("send a tweet"));
        assert_eq!(plain("send an email to Bob"), None, "already plain");
        assert_eq!(plain("find the email from Bob about the invoice"), None, "a message, not a verb");
        assert_eq!(plain("text my wife that I'm late"), None, "a text is not any message");
        assert_eq!(plain("comment on issue 42 that it is fixed").as_deref(), Some("add a comment on issue 42 that"));
        assert_eq!(plain("add a comment to issue 42"), None, "already plain");
        assert!(["email", "messag", "comment"].iter().all(|t| names_what_it_makes(t)), "as the analyzer stems them");
        assert!(!names_what_it_makes("text"));
    }

    #[test]
    fn digesting_a_file_or_a_page_implies_reading_it() {
        let read = |q: &str| implied_read(q);
        assert_eq!(read("summarize this pdf: report.pdf").as_deref(), Some("read a pdf file"));
        assert_eq!(read("Translate ~/letters/brief.docx into English").as_deref(), Some("read a word document"));
        assert_eq!(read("translate https://example.com/fr into English").as_deref(), Some("fetch a web page"));
        assert_eq!(read("please summarize <https://blog.example.org/post>").as_deref(), Some("fetch a web page"));
        assert_eq!(read("summarize the meeting for me"), None, "nothing to read");
        assert_eq!(read("read report.pdf and save it to /tmp/a.md"), None, "no digest verb");
        assert_eq!(read("summarize the news. Then open /tmp/a.md"), None, "another sentence");
        assert_eq!(
            read("Translate these phrases and make a flashcard sheet in /root/excel/cards.xlsx"),
            None,
            "the path is what another verb makes"
        );
        assert_eq!(read("summarize the thread to /tmp/summary.md"), None, "where the result goes");
    }

    #[test]
    fn reading_a_path_is_reading_that_kind_of_file() {
        let read = |q: &str| plain_read(q);
        assert_eq!(read("show me what's in ~/notes/todo.md").as_deref(), Some("read the contents of a file"));
        assert_eq!(read("Open the file /root/pdf/report.pdf, please").as_deref(), Some("read a pdf file"));
        assert_eq!(read("cat ./logs/app.log").as_deref(), Some("read the contents of a file"));
        assert_eq!(read("show me the differences between a.txt and b.txt"), None, "what is shown is not the file");
        assert_eq!(read("save the report to /tmp/a.md"), None, "no reading verb");
        assert_eq!(read("open https://example.com/a.html"), None, "a web page");
    }

    proptest! {
        #[test]
        fn intents_are_nonempty_and_bounded(q in "\\PC{0,200}") {
            let found = intents(&q);
            prop_assert!(found.len() <= MAX_INTENTS);
            prop_assert!(found.len() != 1);
            prop_assert!(found.iter().all(|i| !i.trim().is_empty()));
        }

        #[test]
        fn every_intent_is_its_spans_of_the_request(q in "\\PC{0,200}") {
            for part in intent_parts(&q) {
                let pieces: Vec<&str> = part.spans.iter().map(|r| &q[r.clone()]).collect();
                prop_assert_eq!(pieces.join(" "), part.text);
            }
        }
    }
}
