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
    let mut pieces: Vec<String> = Vec::new();
    for sentence in sentences(query) {
        let mut rest = sentence.to_string();
        loop {
            let lower = rest.to_lowercase();
            let cut =
                [", and then ", " and then ", ", then ", " then ", ", and ", " as well as ", ", also ", " and also "]
                    .iter()
                    .filter_map(|sep| lower.find(sep).map(|at| (at, sep.len())))
                    .min();
            match cut {
                Some((at, len)) if rest.is_char_boundary(at) && rest.is_char_boundary(at + len) => {
                    pieces.push(rest[..at].to_string());
                    rest = rest[at + len..].to_string();
                }
                _ => {
                    pieces.push(rest);
                    break;
                }
            }
        }
    }
    let mut merged: Vec<String> = Vec::new();
    for piece in pieces {
        let piece = piece.trim().to_string();
        if piece.is_empty() {
            continue;
        }
        match merged.last_mut() {
            Some(last) if words(&piece) < 3 || words(last) < 3 => {
                last.push(' ');
                last.push_str(&piece);
            }
            _ => merged.push(piece),
        }
    }
    if merged.len() < 2 {
        return Vec::new();
    }
    merged.truncate(MAX_INTENTS);
    merged
}

/// Splits at line breaks, `;` and CJK sentence marks, and at `.`/`!`/`?` followed by whitespace (so
/// `v1.2` stays whole); a list marker at the start of a line is dropped.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let line = strip_step_number(line.trim());
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            let end = match c {
                ';' | '。' | '！' | '？' | '；' => true,
                '.' | '!' | '?' => chars.peek().is_none_or(|n| n.is_whitespace()),
                _ => false,
            };
            if end {
                out.push(std::mem::take(&mut current));
            } else {
                current.push(c);
            }
        }
        out.push(current);
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
    }
}
