//! What a request says it does not want: "I want the current reading, *not the history*", "I don't need *a
//! new branch*", "*leave out* the big funds", "*the OHLC candles* aren't what I need", "use Bing *instead
//! of* Google". The words of such a phrase that the rest of the request never uses name what the answer
//! must not be (`Analysis::denied_terms`): a tool whose name uses one is no answer
//! (`Guard::names_what_is_denied`). The verbs a request says not to do are read apart
//! (`actions::denied_actions`): "don't delete it" is a denied action, not a phrase of this kind.
//!
//! Only a negation that rules a thing out opens such a phrase: "not" before a determiner or "just", at the
//! start of a clause or after "but" ("…, not the history", "Not seat availability."), not after an
//! auxiliary ("the file is not a valid json" says how a thing is); "don't" only before a verb of wanting
//! ("I don't want the Douyin list", not "don't delete it").

/// Verbs of wanting a negation rules a thing out with: "I don't *want* a copy", "we don't *need* a new
/// branch", "I don't *care* about karma".
const WANTING: [&str; 7] = ["want", "need", "care", "mean", "like", "require", "wanna"];

/// Who a verb of wanting may be about: "I don't want *anyone else* opening the file" wishes what others
/// do not do (a goal: protect it), it rules out no thing.
#[rustfmt::skip]
pub(crate) const PEOPLE: [&str; 13] = [
    "anyone", "anybody", "someone", "somebody", "everyone", "everybody", "people", "others", "them", "him", "her",
    "us", "it",
];

/// Negations of "do" that may lead to a verb of wanting.
const DO_NOT: [&str; 4] = ["don't", "dont", "doesn't", "didn't"];

/// Words that lead from "not" to what it rules out: "not *just* the contrast series", "I'm not *looking
/// for* new tickets", "not *interested in* the forecast", "not *trying to* add a password".
const LEADS: [&str; 17] = [
    "just",
    "only",
    "even",
    "really",
    "looking",
    "for",
    "interested",
    "in",
    "trying",
    "to",
    "asking",
    "about",
    "after",
    "talking",
    "wanting",
    "need",
    "want",
];

/// Determiners: "not *the* history", "not *a* Word document", "not *his* submissions list".
const DETERMINERS: [&str; 15] =
    ["the", "a", "an", "any", "my", "our", "your", "this", "that", "these", "those", "its", "his", "her", "their"];

/// Words before "not" that make it say how a thing is, not what is ruled out: "the file *is* not a valid
/// json", "it *does* not have a title".
const AUXILIARIES: [&str; 22] = [
    "is", "are", "was", "were", "be", "been", "being", "it's", "that's", "there's", "does", "do", "did", "will",
    "would", "should", "can", "could", "has", "have", "had", "may",
];

/// Negated forms of "be" that rule out what comes before them when "what" follows: "the OHLC candles
/// *aren't* what I need".
const NOT_BE: [&str; 4] = ["isn't", "aren't", "wasn't", "weren't"];

/// Words that end a ruled-out phrase before its clause ends: "not the history *but* the latest reading".
const ENDS: [&str; 14] =
    ["but", "so", "because", "since", "instead", "then", "which", "who", "where", "when", "i", "we", "you", "please"];

/// Words after "and" or "or" that open a clause of their own: "don't want the logs *and* show me …" ends
/// the phrase at "and"; "leave out the big funds and institutional holders" goes on.
const OPENERS: [&str; 9] = ["i", "we", "you", "please", "then", "also", "not", "don't", "just"];

/// For each word of `words` (`actions::request_words`), whether it is in a phrase the request rules out;
/// `ends` are where its clauses end (`actions::clause_ends`). Determiners and leading words are not marked.
pub(crate) fn unwanted(words: &[String], ends: &[usize]) -> Vec<bool> {
    let mut marked = vec![false; words.len()];
    let w = |i: usize| words.get(i).map_or("", String::as_str);
    let clause_start = |i: usize| i == 0 || ends.contains(&i);
    let clause_end = |i: usize| ends.iter().copied().find(|&e| e > i).unwrap_or(words.len()).min(words.len());
    for i in 0..words.len() {
        let start = match w(i) {
            "not" => {
                let after = w(i + 1);
                let opens = clause_start(i) || ["but", "and", "or"].contains(&w(i.wrapping_sub(1)));
                let leads = DETERMINERS.contains(&after) || LEADS.contains(&after);
                let says_how = i > 0 && AUXILIARIES.contains(&w(i - 1));
                (opens || (leads && !says_how)).then_some(i + 1)
            }
            v if DO_NOT.contains(&v) || (["do", "does", "did"].contains(&v) && w(i + 1) == "not") => {
                let at = if DO_NOT.contains(&v) { i + 1 } else { i + 2 };
                (WANTING.contains(&w(at)) && !PEOPLE.contains(&w(at + 1))).then_some(at + 1)
            }
            "instead" | "rather" | "other" => {
                (w(i + 1) == if w(i) == "instead" { "of" } else { "than" }).then_some(i + 2)
            }
            "except" | "excluding" | "without" => Some(i + 1),
            "leave" | "leaving" => (w(i + 1) == "out").then_some(i + 2),
            v if NOT_BE.contains(&v) || (["is", "are"].contains(&v) && w(i + 1) == "not") => {
                let at = if NOT_BE.contains(&v) { i + 1 } else { i + 2 };
                if w(at) == "what" {
                    // The phrase before it, from its clause's start.
                    let from = (0..i).rev().find(|&j| clause_start(j)).unwrap_or(0);
                    for (m, word) in marked[from..i].iter_mut().zip(&words[from..i]) {
                        *m = !DETERMINERS.contains(&word.as_str());
                    }
                }
                None
            }
            _ => None,
        };
        let Some(mut j) = start else { continue };
        let end = clause_end(i);
        while j < end && (LEADS.contains(&w(j)) || DETERMINERS.contains(&w(j))) {
            j += 1;
        }
        let mut any = false;
        while j < end {
            let word = w(j);
            if any && (ENDS.contains(&word) || (["and", "or"].contains(&word) && opens_a_clause(w(j + 1)))) {
                break;
            }
            if !DETERMINERS.contains(&word) && !["and", "or"].contains(&word) {
                marked[j] = true;
                any = true;
            }
            j += 1;
        }
    }
    marked
}

/// Whether `word`, after "and" or "or", opens a clause of its own: a pronoun, a negation, or a verb of the
/// action table ("… and *show* me the metrics").
fn opens_a_clause(word: &str) -> bool {
    OPENERS.contains(&word)
        || crate::actions::families().actions(&[word]).first().is_some_and(|a| a.len == 1 && a.verb == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ruled_out(text: &str) -> Vec<String> {
        let words = crate::actions::request_words(text);
        let ends = crate::actions::clause_ends(text);
        let marked = unwanted(&words, &ends);
        words.into_iter().zip(marked).filter(|(_, m)| *m).map(|(w, _)| w).collect()
    }

    #[test]
    fn a_phrase_that_rules_a_thing_out() {
        assert_eq!(ruled_out("I want the current fear/greed reading, not the history."), ["history"]);
        assert_eq!(ruled_out("Not his submissions list, I just want his profile"), ["submissions", "list"]);
        assert_eq!(ruled_out("Not seat availability. Which stations does G7 stop at?"), ["seat", "availability"]);
        assert_eq!(ruled_out("I don't want a copy of it, I want it deleted"), ["copy", "of", "it"]);
        assert!(ruled_out("I don't want anyone else opening the salaries file. Lock it").is_empty());
        assert_eq!(ruled_out("I don't need a new branch, I need a proper release"), ["new", "branch"]);
        assert_eq!(
            ruled_out("For NVDA, leave out the big funds and institutional holders. Show me the insider buys"),
            ["big", "funds", "institutional", "holders"]
        );
        assert_eq!(ruled_out("For Samsung, the OHLC candles aren't what I need. Show net buying"), ["ohlc", "candles"]);
        assert_eq!(ruled_out("send the whole study, not just the contrast series"), ["contrast", "series"]);
        assert_eq!(ruled_out("I'm not looking for new train tickets. Cancel my booking"), ["new", "train", "tickets"]);
        assert_eq!(ruled_out("search with bing instead of google"), ["google"]);
        assert_eq!(
            ruled_out("I don't care about karma or the about text. List their stories"),
            ["karma", "about", "text"]
        );
    }

    #[test]
    fn a_negation_that_says_how_a_thing_is_or_denies_a_verb_rules_nothing_out() {
        assert!(ruled_out("the file is not a valid json, fix the syntax").is_empty());
        assert!(ruled_out("pause the trigger, don't delete it").is_empty());
        assert!(ruled_out("it does not have a title; add one").is_empty());
        // A clause of its own after "and" ends the phrase.
        assert_eq!(ruled_out("I don't want the logs and show me the metrics"), ["logs"]);
    }
}
