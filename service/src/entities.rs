//! Things a request names that say which tool fits: a file path, a URL, an email address, a repository
//! (`owner/name`), a channel (`#general`). A tool that takes a parameter of that kind fits such a request
//! better than one that does not ("read ~/notes/todo.md" is about a file, not about notes). Pure code.

/// Kinds of entity, as bits.
pub(crate) const PATH: u8 = 1;
pub(crate) const URL: u8 = 2;
pub(crate) const EMAIL: u8 = 4;
pub(crate) const REPO: u8 = 8;
pub(crate) const CHANNEL: u8 = 16;

/// The kinds of entity a request mentions.
pub(crate) fn in_request(text: &str) -> u8 {
    let mut kinds = 0;
    for token in text.split_whitespace() {
        let t = token.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '(' | ')' | '"' | '\'' | '`' | '?' | '!'));
        let t = t.strip_suffix('.').unwrap_or(t);
        if t.contains("://") || t.starts_with("www.") {
            kinds |= URL;
        } else if t.contains('@') && t.rsplit('@').next().is_some_and(|d| d.contains('.')) && !t.starts_with('@') {
            kinds |= EMAIL;
        } else if let Some(rest) = t.strip_prefix('#') {
            if rest.len() >= 2
                && rest.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
                && !rest.chars().all(|c| c.is_ascii_digit())
            {
                kinds |= CHANNEL;
            }
        } else if t.starts_with('/') || t.starts_with("~/") || t.starts_with("./") || t.starts_with("..") {
            kinds |= PATH;
        } else if has_extension(t) && !t.contains("://") {
            kinds |= PATH;
            if is_repo(t) {
                kinds |= REPO;
            }
        } else if is_repo(t) {
            kinds |= REPO;
        }
    }
    kinds
}

/// The kinds of entity a tool's parameters take, from their names.
pub(crate) fn in_parameters<'a>(names: impl IntoIterator<Item = &'a str>) -> u8 {
    let mut kinds = 0;
    for name in names {
        let words = toolscout_indexer::split_name(name);
        for w in words.split(' ') {
            kinds |= match w {
                "path" | "paths" | "file" | "files" | "filename" | "filepath" | "directory" | "dir" | "folder" => PATH,
                "url" | "urls" | "uri" | "link" | "href" | "endpoint" => URL,
                "email" | "recipient" | "recipients" | "cc" | "bcc" => EMAIL,
                "repo" | "repository" | "owner" => REPO,
                "channel" | "channels" => CHANNEL,
                _ => 0,
            };
        }
    }
    kinds
}

fn has_extension(t: &str) -> bool {
    let Some((stem, ext)) = t.rsplit_once('.') else { return false };
    !stem.is_empty()
        && (1..=5).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
        && ext.chars().any(|c| c.is_ascii_alphabetic())
        && !stem.ends_with('.')
        && stem.chars().any(|c| c.is_alphabetic())
}

/// `owner/name`: two non-empty segments of identifier characters.
fn is_repo(t: &str) -> bool {
    let mut parts = t.split('/');
    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else { return false };
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    ident(a) && ident(b) && a.chars().any(|c| c.is_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_entities_in_requests_and_parameters() {
        let check = |text: &str, kinds: u8| assert_eq!(in_request(text), kinds, "{text}");
        check("read ~/notes/todo.md", PATH);
        check("summarize https://example.com/a please", URL);
        check("mail bob@example.org the report.pdf", EMAIL | PATH);
        check("open an issue in octo/blog: it breaks", REPO);
        check("what did people post in #random today", CHANNEL);
        check("README of vercel/next.js", PATH | REPO);
        check("convert 100 USD to EUR at 3.5%", 0);
        check("issue #42 is fixed", 0);
        assert_eq!(in_parameters(["path", "content"]), PATH);
        assert_eq!(in_parameters(["owner", "repo", "title"]), REPO);
        assert_eq!(in_parameters(["channel_id", "text"]), CHANNEL);
        assert_eq!(in_parameters(["query"]), 0);
    }
}
