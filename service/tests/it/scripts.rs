//! A name written against Chinese or Japanese letters ("Duolingoの…", "Spotifyで…") is read as a name:
//! the lexical side spaces it apart before it reads the request (the model reads the request as written).

use toolscout_service::{DiscoverParams, Status};

use crate::support::hashed_engine;

#[test]
fn a_name_written_against_chinese_or_japanese_letters_is_read() {
    // Two connected forges; neither mentions the services asked for below.
    let server = |name: &str, description: &str| {
        format!(
            r#"{{"name": "{name}", "description": "{description}", "summary": "", "tools": [{{"name": "create_issue", "description": "Create an issue in a {name} repository", "parameter": {{"title": "(string) issue title"}}}}, {{"name": "list_issues", "description": "List the issues of a {name} repository", "parameter": {{"repo": "(string) repository"}}}}]}}"#
        )
    };
    let lines = [server("GitHub", "GitHub repositories and issues"), server("Gitee", "Gitee repositories and issues")];
    let (_scratch, engine) = hashed_engine(&lines);

    // A service the catalog never mentions, named against the letters: not connected, said in words.
    for (query, service) in
        [("Duolingoの連続記録は今何日？", "Duolingo"), ("Spotifyでプレイリストを再生して", "Spotify")]
    {
        let answer = engine.search(&DiscoverParams::new(query)).expect("search");
        assert_eq!(answer.status, Status::NotFound, "{query}: {answer:?}");
        let reason = answer.reason.unwrap_or_default();
        assert!(reason.starts_with(&format!("{service} is not connected")), "{query}: {reason}");
    }
}
