//! What a request carries rather than asks for: quoted text ("add 'renew passport' to my to-do list",
//! "post 'deploy done' in #releases") is the payload of the action, and its words pull a search toward
//! tools about them. A request with quoted text is also searched without it. Pure code.

/// Opening quote → its closing quote. A backtick span is code or output pasted in ("getting `relation
/// users does not exist` — which tables …"): payload like a quote.
const QUOTES: [(char, char); 6] = [('\'', '\''), ('"', '"'), ('“', '”'), ('‘', '’'), ('«', '»'), ('`', '`')];

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

/// Words a quote must have to be what someone else asks rather than a name or a short payload.
const RELAYED_WORDS: usize = 5;

/// Words that pass on what someone else wrote or said, right before the quote: "Our PM *wrote* '…'".
#[rustfmt::skip]
const REPORTING: [&str; 18] = [
    "wrote", "writes", "says", "said", "asked", "asks", "replied", "replies", "posted", "sent", "flagged", "pasted",
    "forwarded", "texted", "emailed", "messaged", "commented", "noted",
];

/// `text` with its quote marks taken out, when it passes on what someone else asks: a quoted span of at
/// least `RELAYED_WORDS` words follows a colon or a word of `REPORTING`, asks something (an action, or an
/// action not to do), and the rest of the request shows no action ("Our PM wrote: 'move PAY-1423 to In
/// Review in Jira.' Can you do that?", "HR sent this over: 'His Okta login must be blocked, but do not
/// delete the account.' Can you handle it?"). Such a quote is the request, not its payload: read as
/// payload, the request would ask nothing. A quote after a verb of the request ("post 'deploy done,
/// please check staging' in #releases"), a quote that asks nothing ("fact-check this statement: 'free
/// speech is unrestricted'") and a quote after a noun ("tool prompt 'Find a recent news article'") stay
/// payload. `None` otherwise.
pub(crate) fn relayed(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let spans = quoted_spans(&chars);
    let passed_on = |a: usize| {
        let before: String = chars[..a].iter().collect();
        let before = before.trim_end();
        before.ends_with(':')
            || before.rsplit(char::is_whitespace).next().is_some_and(|w| REPORTING.contains(&w.to_lowercase().as_str()))
    };
    let long = spans.iter().any(|&(a, b)| {
        let inner: String = chars[a + 1..b].iter().collect();
        passed_on(a) && inner.split_whitespace().filter(|w| w.chars().any(char::is_alphabetic)).count() >= RELAYED_WORDS
    });
    let table = crate::actions::families();
    if !long || !crate::actions::request_actions(table, &quoted_letters_masked(text)).is_empty() {
        return None;
    }
    let marks: Vec<usize> = spans.iter().flat_map(|&(a, b)| [a, b]).collect();
    let open: String = chars.iter().enumerate().filter(|(i, _)| !marks.contains(i)).map(|(_, c)| c).collect();
    let asks = !crate::actions::request_actions(table, &open).is_empty()
        || !crate::actions::denied_actions(table, &open).is_empty();
    asks.then_some(open)
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

/// Endings of a bare host name that make a token a web address ("stripe.com", "docs.rs"; not "report.pdf",
/// "Node.js").
const HOST_ENDINGS: [&str; 16] =
    ["com", "org", "net", "io", "dev", "ai", "co", "app", "gov", "edu", "uk", "de", "fr", "rs", "info", "me"];

/// Families of a request that browses a page (`actions`): what it asks is done in a browser, wherever the
/// page is.
const BROWSING: [&str; 3] = ["navigate", "screenshot", "open"];

/// `text` with each web address written as what it is ("open https://news.ycombinator.com in the
/// browser" → "open a website in the browser", "click the login button on https://app.example.com/login"
/// → "… on a web page"), when it browses (`BROWSING`, or "go to …"): an address's words ("news",
/// "weather") pull a search toward tools about them rather than toward what is done to the page. Only
/// then: what else a request asks of an address depends on whose it is ("the transcript of
/// https://youtu.be/…", "who owns openai.com", "crawl docs.example.com"). `None` when it does not browse,
/// has no address, or fewer than two words would be left.
pub(crate) fn with_addresses_named(text: &str) -> Option<String> {
    let table = crate::actions::families();
    let lower = text.to_lowercase();
    let browses = lower.starts_with("go to ")
        || lower.contains(" go to ")
        || crate::actions::request_actions(table, text).iter().any(|a| BROWSING.contains(&table.name(a.family)));
    if !browses {
        return None;
    }
    let mut changed = false;
    let words: Vec<String> = text
        .split_whitespace()
        .map(|token| {
            let start = token.find(|c: char| c.is_alphanumeric()).unwrap_or(token.len());
            let end = token
                .char_indices()
                .rev()
                .find(|&(_, c)| c.is_alphanumeric() || c == '/')
                .map_or(start, |(at, c)| at + c.len_utf8())
                .max(start);
            let (before, core, after) = (&token[..start], &token[start..end], &token[end..]);
            let scheme_less = core.strip_prefix("https://").or_else(|| core.strip_prefix("http://"));
            let (host, path) = scheme_less.unwrap_or(core).split_once('/').unwrap_or((scheme_less.unwrap_or(core), ""));
            let labels: Vec<&str> = host.split('.').collect();
            let is_host = labels.len() >= 2
                && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
                && HOST_ENDINGS.contains(&labels[labels.len() - 1].to_ascii_lowercase().as_str());
            let kind = (scheme_less.is_some() || host.starts_with("www.") || is_host)
                .then_some(if path.trim_matches('/').is_empty() { "a website" } else { "a web page" });
            match kind {
                Some(kind) => {
                    changed = true;
                    format!("{before}{kind}{after}")
                }
                None => token.to_string(),
            }
        })
        .collect();
    let left = words.iter().filter(|w| w.chars().any(char::is_alphabetic)).count();
    (changed && left >= 2).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{quoted_letters_masked, relayed, with_addresses_named, without_quoted};

    #[test]
    fn a_relayed_quote_is_the_request() {
        assert_eq!(
            relayed("Mod report: 'User spam_king keeps posting scam links in our Discord, ban him.' Can you do it?")
                .as_deref(),
            Some("Mod report: User spam_king keeps posting scam links in our Discord, ban him. Can you do it?")
        );
        assert_eq!(relayed("post 'deploy done, please check staging now' in #releases"), None, "payload of post");
        assert_eq!(relayed("Boss wrote: 'ship it' can you do that"), None, "too short to be a request");
        assert_eq!(relayed("fact-check this statement: 'free speech in the US is unrestricted'"), None, "asks nothing");
        assert_eq!(relayed("tool prompt 'Find a recent news article about the virus'"), None, "after a noun");
    }

    #[test]
    fn web_addresses_are_named_for_what_they_are() {
        let check = |text: &str, expected: Option<&str>| {
            assert_eq!(with_addresses_named(text).as_deref(), expected, "{text}");
        };
        check("open https://news.ycombinator.com in the browser", Some("open a website in the browser"));
        check("click the login button on https://app.example.com/login", Some("click the login button on a web page"));
        check("take a screenshot of github.com/trending.", Some("take a screenshot of a web page."));
        check("go to (www.bbc.co.uk/news)", Some("go to (a web page)"));
        check("visit lemonde.fr, à côté de la page d'accueil", Some("visit a website, à côté de la page d'accueil"));
        // What else is asked of an address depends on whose it is.
        check("who owns stripe.com?", None);
        check("get me the transcript of https://youtu.be/dQw4w9WgXcQ", None);
        // No address.
        check("open report.pdf and README.md", None);
        check("open the docs of Node.js", None);
        check("open a mail to ann@example.com", None);
        check("visit «à» — ünïcode «ok»", None);
        check("open https://example.com", Some("open a website"));
        check("open https://example.com/", Some("open a website"));
    }

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
