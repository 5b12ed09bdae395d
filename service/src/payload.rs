//! What a request carries rather than asks for: quoted text ("add 'renew passport' to my to-do list",
//! "post 'deploy done' in #releases") is the payload of the action, and its words pull a search toward
//! tools about them. A request with quoted text is also searched without it. Pure code.

/// Opening quote → its closing quote.
const QUOTES: [(char, char); 5] = [('\'', '\''), ('"', '"'), ('“', '”'), ('‘', '’'), ('«', '»')];

/// `text` without its quoted spans, when it has some and at least two words are left.
pub(crate) fn without_quoted(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut removed = false;
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
                removed = true;
                i = j + 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    let left = words.iter().filter(|w| w.chars().any(char::is_alphabetic)).count();
    (removed && left >= 2).then(|| words.join(" ").replace(" ,", ","))
}

#[cfg(test)]
mod tests {
    use super::without_quoted;

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
}
