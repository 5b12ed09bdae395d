//! What a request carries rather than asks for: quoted text ("add 'renew passport' to my to-do list",
//! "post 'deploy done' in #releases") is the payload of the action, and its words pull a search toward
//! tools about them. A request with quoted text is also searched without it. Pure code.

/// Opening quote → its closing quote.
const QUOTES: [(char, char); 5] = [('\'', '\''), ('"', '"'), ('“', '”'), ('‘', '’'), ('«', '»')];

/// The quoted spans of `chars`, each as (its opening quote, its closing quote) positions.
fn quoted_spans(chars: &[char]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let opens = i == 0 || chars[i - 1].is_whitespace() || matches!(chars[i - 1], '(' | ':' | ',');
        if let Some(&(_, close)) = QUOTES.iter().find(|(open, _)| *open == c).filter(|_| opens) {
            // The closing quote ends a word: followed by the end, a space or punctuation ("don't" and
            // "it's" are not quotes).
            let end = (i + 2..chars.len()).find(|&j| {
                chars[j] == close
                    && chars
                        .get(j + 1)
                        .is_none_or(|n| n.is_whitespace() || matches!(n, ',' | '.' | ';' | ':' | '!' | '?' | ')'))
            });
            if let Some(j) = end {
                spans.push((i, j));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    spans
}

/// `text` without its quoted spans, when it has some and at least two words are left.
pub(crate) fn without_quoted(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let spans = quoted_spans(&chars);
    let out: String = chars
        .iter()
        .enumerate()
        .filter(|(i, _)| !spans.iter().any(|&(a, b)| (a..=b).contains(i)))
        .map(|(_, c)| c)
        .collect();
    let words: Vec<&str> = out.split_whitespace().collect();
    let left = words.iter().filter(|w| w.chars().any(char::is_alphabetic)).count();
    (!spans.is_empty() && left >= 2).then(|| words.join(" ").replace(" ,", ","))
}

/// `text` with every letter inside a quoted span written as `0`: the same words at the same places, but
/// none of the payload's words reads as a verb ("change the title … to 'Login fails'" does not ask to log in).
pub(crate) fn quoted_letters_masked(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let spans = quoted_spans(&chars);
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| if c.is_alphabetic() && spans.iter().any(|&(a, b)| a < i && i < b) { '0' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{quoted_letters_masked, without_quoted};

    #[test]
    fn quoted_payload_is_left_out() {
        let check =
            |text: &str, expected: Option<&str>| assert_eq!(without_quoted(text).as_deref(), expected, "{text}");
        check("add 'renew passport' to my to-do list", Some("add to my to-do list"));
        check("post \"deploy done ✅\" in #releases on slack", Some("post in #releases on slack"));
        check("mark ‘call the plumber’ as done in ticktick", Some("mark as done in ticktick"));
        check("rename the channel 'general' to 'town-square', please", Some("rename the channel to, please"));
        check("don't delete it, it's the user's file", None);
        check("what's the weather in 'Porto'", Some("what's the weather in"));
        check("'just a quote'", None);
        check("no quotes here", None);
        check("an unclosed 'quote stays", None);
    }

    #[test]
    fn quoted_words_keep_their_places_but_not_their_letters() {
        assert_eq!(
            quoted_letters_masked("change the title to 'Login fails', then close it"),
            "change the title to '00000 00000', then close it"
        );
        assert_eq!(
            quoted_letters_masked("don't delete it, it's the user's file"),
            "don't delete it, it's the user's file"
        );
        let words = |t: &str| crate::actions::request_words(t).len();
        let text = "post \"deploy done ✅\" in #releases, then rename 'a-b/c' to “Ship it”";
        assert_eq!(words(&quoted_letters_masked(text)), words(text), "positions are kept");
    }
}
