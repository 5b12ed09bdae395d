//! A request written as a letter: its greeting ("Dear Assistant,"), its pleasantries ("I trust you are
//! keeping well.") and its sign-off with the signature under it ("Kind regards,\nSamuel Whitford\nSite
//! Reliability") ask nothing, but each would be read as a part of the request, a look-up of its words
//! ("Department of History" finds history tools). The request is read without them (`unframed`). Pure
//! code.

/// Words a greeting line opens with ("Dear Colleague,", "Good morning,", "Hi team,").
const GREETINGS: [&str; 9] =
    ["dear", "hi", "hello", "hey", "good morning", "good afternoon", "good evening", "greetings", "to whom"];

/// Words a sign-off line opens with ("Kind regards,", "Many thanks for your help.", "With appreciation,").
#[rustfmt::skip]
const SIGN_OFFS: [&str; 21] = [
    "kind regards", "best regards", "warm regards", "regards", "with kind regards", "with best regards",
    "many thanks", "thanks", "thank you", "with thanks", "with many thanks", "with appreciation", "best wishes",
    "all the best", "best,", "cheers", "sincerely", "yours", "respectfully", "warmly", "with gratitude",
];

/// How many words a greeting or a sign-off line has at most; a signature line under a sign-off too.
const SHORT: usize = 8;

/// Openings of a pleasantry sentence ("I trust you are keeping well.", "I hope this finds you well."), read
/// as one when it also ends on `WELL` and is short.
const PLEASANTRY_OPENINGS: [&str; 4] = ["i trust ", "i hope ", "hope ", "trust "];

/// Words a pleasantry ends on.
const WELL: [&str; 3] = ["well", "good", "fine"];

fn starts_with_any(line: &str, openings: &[&str]) -> bool {
    let lower = line.trim().to_lowercase();
    openings
        .iter()
        .any(|o| lower.strip_prefix(o).is_some_and(|rest| rest.is_empty() || !rest.starts_with(char::is_alphanumeric)))
}

fn word_count(line: &str) -> usize {
    line.split_whitespace().count()
}

/// Whether `sentence` is a pleasantry: "I trust you are keeping well.", "I hope all is well."
fn is_pleasantry(sentence: &str) -> bool {
    let lower = sentence.trim().to_lowercase();
    let last = lower.trim_end_matches(['.', '!']).rsplit(char::is_whitespace).next().unwrap_or("");
    PLEASANTRY_OPENINGS.iter().any(|o| lower.starts_with(o)) && WELL.contains(&last) && word_count(&lower) <= 10
}

/// `text` without a letter's greeting line, pleasantry sentences, and sign-off line with the short lines
/// under it, when it has at least one of them and three words are left; `None` otherwise. Only whole
/// lines are greetings and sign-offs: "Hi, can you list my repos" keeps its one line.
pub(crate) fn unframed(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if lines.len() < 2 {
        return None;
    }
    let mut start = 0;
    if starts_with_any(lines[0], &GREETINGS) && word_count(lines[0]) <= SHORT / 2 {
        start = 1;
    }
    // The last sign-off line among the last few, every line after it short (a name, a title).
    let mut end = lines.len();
    for i in (start..lines.len()).rev().take(5) {
        if starts_with_any(lines[i], &SIGN_OFFS) && word_count(lines[i]) <= SHORT {
            if lines[i + 1..].iter().all(|l| word_count(l) <= SHORT / 2) {
                end = i;
            }
            break;
        }
    }
    let body: Vec<String> = lines[start..end]
        .iter()
        .map(|l| {
            let sentences: Vec<&str> = l.split_inclusive(['.', '!']).collect();
            sentences.iter().filter(|s| !is_pleasantry(s)).copied().collect::<String>().trim().to_string()
        })
        .filter(|l| !l.is_empty())
        .collect();
    let out = body.join("\n");
    let changed =
        start > 0 || end < lines.len() || word_count(&out) < lines[start..end].iter().map(|l| word_count(l)).sum();
    (changed && word_count(&out) >= 3).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_is_read_without_its_greeting_pleasantries_and_signature() {
        let letter = "Dear Assistant,\n\nI trust you are keeping well. Please scale the checkout deployment to six \
                      replicas.\n\nKind regards,\nSamuel Whitford\nSite Reliability";
        assert_eq!(unframed(letter).as_deref(), Some("Please scale the checkout deployment to six replicas."));
        let thanks =
            "Good morning,\nCould you list the open pull requests in acme/web?\nMany thanks for your help.\nAnna";
        assert_eq!(unframed(thanks).as_deref(), Some("Could you list the open pull requests in acme/web?"));
    }

    #[test]
    fn a_request_without_a_frame_is_left_alone() {
        assert_eq!(unframed("Hi, can you list my repos"), None);
        assert_eq!(unframed("list my repos\nthen delete the old branch"), None);
        // A long last line that opens like a sign-off is content: "Thanks to the outage …".
        assert_eq!(
            unframed("restart the api pod\nthanks to the outage last night every replica of the payments api is down"),
            None
        );
        // What is left must still say something.
        assert_eq!(unframed("Hi team,\nThanks!"), None);
    }
}
