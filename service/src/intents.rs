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
