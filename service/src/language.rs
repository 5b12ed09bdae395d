//! Whether a request is written in a language other than English. The lexical side of the engine (BM25
//! over the catalog's words, action families, services, the decision's coverage features) reads English;
//! for a request it cannot read, only the dense side (the multilingual model) has evidence, so its
//! confidence runs lower and the decision judges it with a cut of its own (`foreign_request_cut`,
//! fitted by `toolscout calibrate` on the dev sets' non-English requests). Pure code, no I/O.
//!
//! Requests are short, where trigram language identification (whatlang) is unsure, so it is only the
//! last word: first the script (a third or more of the letters outside Latin), then function words — the
//! small closed-class words every sentence has — counted for English and for the common Latin-script
//! languages (`function_words.txt`); whatlang decides only a request with none of either.

use std::collections::HashMap;
use std::sync::OnceLock;

use whatlang::{Detector, Lang};

/// Function words: `lang | words`, one language per line.
const TABLE: &str = include_str!("function_words.txt");

/// Smallest whatlang confidence that makes a request with no function words foreign.
const WHATLANG_CONFIDENCE: f64 = 0.5;

/// Is `text` written in a language other than English?
pub fn foreign(text: &str) -> bool {
    // Latin letters end at U+024F (Latin Extended-B). A character of another script counts as a word (a
    // Chinese or Japanese character often is one), so "在 Buildkite 里把 pipeline 删掉" is not read as
    // English for its two English names.
    let other_script = text.chars().filter(|&c| c.is_alphabetic() && u32::from(c) > 0x024F).count();
    let latin_words = text
        .split(|c: char| !(c.is_alphanumeric() && u32::from(c) <= 0x024F))
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    if other_script + latin_words == 0 {
        return false;
    }
    if other_script * 3 >= other_script + latin_words {
        return true;
    }
    let table = words();
    let (mut english, mut other) = (0usize, 0usize);
    for word in text.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()) {
        match table.get(word.to_lowercase().as_str()) {
            Some(true) => english += 1,
            Some(false) => other += 1,
            None => {}
        }
    }
    if english + other > 0 {
        return other > english;
    }
    detector().detect(text).is_some_and(|i| i.lang() != Lang::Eng && i.confidence() >= WHATLANG_CONFIDENCE)
}

/// `text` with a space put wherever a Latin letter touches a letter of a script written without
/// spaces (Chinese, Japanese, Thai): "Duolingoの連続記録", "在Stripe里新建" read as "Duolingo の連続記録",
/// "在 Stripe 里新建". The lexical side splits words at spaces and punctuation only, so a name written
/// against such letters would be one word with them, and no service, server or tool name would be read in
/// it. `None` when nothing touches.
pub(crate) fn spaced_between_scripts(text: &str) -> Option<String> {
    let latin = |c: char| c.is_alphabetic() && u32::from(c) <= 0x024F;
    let spaceless = |c: char| {
        matches!(u32::from(c),
            0x0E00..=0x0E7F // Thai
            | 0x3040..=0x30FF // Hiragana, Katakana
            | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF // CJK ideographs
            | 0xFF66..=0xFF9D) // half-width Katakana
    };
    let mut out = String::with_capacity(text.len() + 8);
    let mut changed = false;
    let mut previous: Option<char> = None;
    for c in text.chars() {
        if let Some(p) = previous
            && ((latin(p) && spaceless(c)) || (spaceless(p) && latin(c)))
        {
            out.push(' ');
            changed = true;
        }
        out.push(c);
        previous = Some(c);
    }
    changed.then_some(out)
}

/// Is `word` (lowercase) an English function word of the table? Misspelled request words are never
/// corrected to one (`profile.rs`: "wether" is "weather", not "whether").
pub(crate) fn english_function_word(word: &str) -> bool {
    words().get(word).copied().unwrap_or(false)
}

/// Each function word, and whether it is English.
fn words() -> &'static HashMap<&'static str, bool> {
    static WORDS: OnceLock<HashMap<&'static str, bool>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut map = HashMap::new();
        for line in TABLE.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (lang, list) = line.split_once('|').expect("function_words.txt: `lang | words`");
            let english = lang.trim() == "en";
            for w in list.split_whitespace() {
                // A word listed for English and another language counts as English.
                let e = map.entry(w).or_insert(english);
                *e |= english;
            }
        }
        map
    })
}

/// whatlang, limited to English and the Latin-script languages of the table (other scripts were decided
/// above).
fn detector() -> &'static Detector {
    static DETECTOR: OnceLock<Detector> = OnceLock::new();
    DETECTOR.get_or_init(|| {
        Detector::with_allowlist(vec![Lang::Eng, Lang::Deu, Lang::Fra, Lang::Spa, Lang::Por, Lang::Ita, Lang::Nld])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_requests_in_other_languages_as_foreign() {
        for text in [
            "Wie wird das Wetter morgen in Berlin?",
            "查询明天从北京到上海的火车票",
            "Zeig mir die letzten 10 Commits im Repo unter ~/code/shop",
            "Resérvame una mesa para dos en un italiano esta noche a las 21h",
            "renomme le groupe IP ZTW 'old-dc-ips' en 'legacy-dc' stp",
            "GitHubのacme/apiリポジトリにissueを作って",
            "Apakah produk dengan ID 12345XYZ masih tersedia dalam ukuran M?",
            "在 Buildkite 里把 pipeline legacy-android 删掉",
        ] {
            assert!(foreign(text), "{text}");
        }
    }

    #[test]
    fn reads_english_requests_as_english() {
        for text in [
            "Create a new issue in a GitHub repository",
            "weather in LA tomorrow",
            "git blame src/main.rs lines 40-60",
            "delete stripe customer cus_QxT4 — GDPR request",
            "refund charge ch_3Nx in stripe",
            "Suggest a quick pre-run warmup routine. Explain each move briefly.",
            "post 'deploy done ✅' in #releases on slack",
            "version?",
            "create three contacts in hubspot: ann@a.com, bo@b.com, cy@c.com",
            "suspend okta user bob@acme.com, he left today",
            "find me some pics of the northern lights over Tromsø",
            "",
        ] {
            assert!(!foreign(text), "{text}");
        }
    }

    #[test]
    fn names_against_spaceless_scripts_are_spaced_apart() {
        assert_eq!(
            spaced_between_scripts("Duolingoの連続記録って今何日？").as_deref(),
            Some("Duolingo の連続記録って今何日？")
        );
        assert_eq!(spaced_between_scripts("在Stripe里新建一个产品").as_deref(), Some("在 Stripe 里新建一个产品"));
        assert_eq!(
            spaced_between_scripts("GitHubのacme/apiリポジトリにissueを作って").as_deref(),
            Some("GitHub の acme/api リポジトリに issue を作って")
        );
        // Spaced already, punctuation between, or one script only: nothing to do.
        assert_eq!(spaced_between_scripts("在 Buildkite 里把 pipeline 删掉"), None);
        assert_eq!(spaced_between_scripts("oktaのユーザー（suspend）"), Some("okta のユーザー（suspend）".into()));
        assert_eq!(spaced_between_scripts("Wie wird das Wetter morgen in München?"), None);
        assert_eq!(spaced_between_scripts("查一下北京明天的天气"), None);
        assert_eq!(spaced_between_scripts("明日の19時に予約して"), None, "digits are no name");
    }

    #[test]
    fn every_line_of_the_table_parses() {
        assert!(TABLE.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).all(|l| l.contains('|')));
        assert_eq!(words().get("the"), Some(&true));
        assert_eq!(words().get("und"), Some(&false));
    }
}
