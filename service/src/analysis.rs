//! What a request says, in the terms the scoring stage compares with tool profiles: its content terms
//! with their weights, its action, the words it acts on, and the services it names. Pure code, no I/O.

use std::collections::HashSet;

use toolscout_indexer::terms;

use crate::actions::{Action, EffectClass, Family, families, request_actions, request_words};
use crate::profile::{NOISE, Profiles, STOP, TermId};

/// Prepositions: they end what an action acts on ("roll back my app *to* the previous release").
pub(crate) const PREPOSITIONS: [&str; 28] = [
    "in", "on", "to", "from", "for", "at", "with", "by", "into", "onto", "via", "using", "within", "since", "after",
    "before", "until", "as", "under", "inside", "below", "above", "about", "per", "across", "around", "between",
    "without",
];

/// Conjunctions: they end what an action acts on once it has a word ("delete the file *and* tell Bob"), and
/// are passed over before ("approve *and* merge the request").
const CONJUNCTIONS: [&str; 5] = ["and", "but", "then", "so", "because"];

/// Words that end what an action acts on by naming it: "create a segment group *named* 'Finance Apps'".
const NAMING: [&str; 5] = ["named", "called", "titled", "labeled", "labelled"];

/// The terms of the words a request writes with hyphens between letters ("to-do", "e-mail", "sign-up"),
/// each written whole ("todo", "email", "signup"); not a range or an id ("2024-05", "ctm-01h9").
fn hyphen_joined(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| {
            let parts: Vec<&str> = w.split('-').collect();
            parts.len() > 1 && parts.iter().all(|p| !p.is_empty() && p.chars().all(char::is_alphabetic))
        })
        .flat_map(|w| terms(&w.replace('-', "")))
        .collect()
}

/// Verbs that open a request for writing the agent does itself: a story, a joke, an essay, a letter, a
/// program. No tool is needed for it unless one is named for what is written (`Analysis::composes`).
const COMPOSING: [&str; 6] = ["write", "compose", "imagine", "pretend", "rewrite", "paraphrase"];

/// Kinds of file a request may ask to have written: writing one is a tool's job (a spreadsheet, a Word
/// document, a PDF), not writing the agent does itself. "word" counts only before "document", "doc" or
/// "file" (`names_a_file`); "markdown" does not count (a markdown table is text the agent writes).
const FILE_KINDS: [&str; 16] = [
    "file",
    "files",
    "spreadsheet",
    "spreadsheets",
    "workbook",
    "pdf",
    "docx",
    "xlsx",
    "pptx",
    "csv",
    "excel",
    "powerpoint",
    "presentation",
    "slides",
    "slideshow",
    "deck",
];

/// Whether `words` (what a request writes, as `object_words`) name a kind of file.
fn names_a_file(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        FILE_KINDS.contains(&w.as_str())
            || (w == "word" && words.get(i + 1).is_some_and(|n| ["document", "doc", "file"].contains(&n.as_str())))
    })
}

/// Words English writes with a capital though they name no one thing.
const CALENDAR: [&str; 19] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The words `text` writes as names (`Analysis::proper`), as they are written.
fn proper_words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut sentence_start = true;
    for token in text.split_whitespace() {
        let word = token.trim_matches(|c: char| !c.is_alphanumeric());
        let mut chars = word.chars();
        let named = !sentence_start
            && word != "I"
            && chars.next().is_some_and(char::is_uppercase)
            && chars.any(char::is_lowercase)
            && !CALENDAR.contains(&word.to_lowercase().as_str());
        if named {
            out.push(word);
        }
        sentence_start = token.ends_with(['.', '!', '?', ':']) || token.chars().all(|c| !c.is_alphanumeric());
    }
    out
}

/// The catalog's terms of the words `text` writes as names (`Analysis::proper`).
fn proper_terms(text: &str, profiles: &Profiles) -> Vec<TermId> {
    let mut out: Vec<TermId> =
        proper_words(text).iter().flat_map(|w| terms(w)).filter_map(|t| profiles.id(&t)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Words that join a second part to a request not written in English: German, French, Spanish, Italian,
/// English (a foreign request may say "and then"), and Chinese and Japanese (matched inside the text).
const JOINERS: [&str; 17] = [
    "und",
    "dann",
    "danach",
    "et",
    "puis",
    "ensuite",
    "y",
    "luego",
    "después",
    "e",
    "poi",
    "and",
    "then",
    "然后",
    "并且",
    "接着",
    "それから",
];

/// Words of an object that say which one or how new it is (`object_of` does not count them).
const QUALIFIERS: [&str; 10] =
    ["new", "brand", "fresh", "public", "private", "dedicated", "separate", "extra", "additional", "entire"];

/// What the words after an action name as its object, for explanations: up to four words (`QUALIFIERS` not
/// counted), without determiners, up to a preposition, a conjunction or a word that names it (`NAMING`).
/// Words after an "of" name what the thing belongs to and are part of it: up to three more ("change the
/// default branch *of* buildkite pipeline mobile-ios").
fn object_of(after: &[String]) -> Vec<String> {
    // "enroll me in clinical trial …", "add us to the beta": the person is moved, the thing is where.
    if after.first().is_some_and(|w| w == "me" || w == "us")
        && after.get(1).is_some_and(|w| ["in", "into", "to", "for", "on"].contains(&w.as_str()))
    {
        return object_of(&after[2..]);
    }
    // "show me the last 15 insider transactions": the person is who receives it, the thing is after.
    if after.first().is_some_and(|w| w == "me" || w == "us")
        && after.get(1).is_some_and(|w| !preposition_at(after, 1) && w != "as")
    {
        return object_of(&after[1..]);
    }
    let mut out: Vec<String> = Vec::new();
    let mut most = 4;
    // Words that only say which one or how new it is are not counted: "set up a *brand-new public* Slack
    // channel" names a channel.
    let counted = |out: &[String]| out.iter().filter(|w| !QUALIFIERS.contains(&w.as_str())).count();
    for (i, w) in after.iter().map(String::as_str).enumerate() {
        if preposition_at(after, i)
            || NAMING.contains(&w)
            || (CONJUNCTIONS.contains(&w) && !out.is_empty())
            || counted(&out) == most
        {
            break;
        }
        if w == "of" && !out.is_empty() && most == 4 {
            most = out.len() + 4;
        }
        if !CONJUNCTIONS.contains(&w) && !["a", "an", "the", "my", "that", "this", "our", "your", "some"].contains(&w) {
            out.push(w.to_string());
        }
    }
    // An object may end in "of" ("the name of"): that word names nothing.
    if out.last().is_some_and(|w| w == "of") {
        out.pop();
    }
    out
}

/// Whether `word` names the server `n` (a word of its service or one of its aliases).
fn names_server(word: &str, n: usize, profiles: &Profiles) -> bool {
    let server = &profiles.servers[n];
    terms(word)
        .iter()
        .filter_map(|t| profiles.id(t))
        .any(|id| server.service.contains(&id) || server.aliases.contains(&id))
}

/// Whether `word`, whose term is `term`, is written in the plural ("builds" of "build"; not "status").
pub(crate) fn written_plural(word: &str, term: &str) -> bool {
    word.ends_with('s') && !word.ends_with("ss") && word != term
}

/// Whether every word of `words` that names server `n` qualifies a thing made of its software
/// (`services::runs_after`: "a *redis* container", "the *grafana* pod"), and some word does.
fn only_as_artifact(words: &[String], n: usize, profiles: &Profiles) -> bool {
    let mut naming = (0..words.len()).filter(|&i| names_server(&words[i], n, profiles)).peekable();
    naming.peek().is_some() && naming.all(|i| crate::services::runs_after(words, i))
}

/// The servers of `named` that `words` (a request's words, as `request_words` gives them) name, each with
/// the family of the action in whose clause they are named (once per pair). The clause of an action runs
/// from its verb to the next verb; words before the first verb are the first verb's. Words before `from`
/// are not read.
fn named_in_clauses(
    named: &[usize],
    actions: &[Action],
    words: &[String],
    profiles: &Profiles,
    from: usize,
) -> Vec<(usize, Family)> {
    let Some(first) = actions.first() else { return Vec::new() };
    let get = families().by_name("get");
    let mut out = Vec::new();
    for &n in named {
        for (i, w) in words.iter().enumerate().skip(from) {
            let action = actions.iter().rev().find(|a| a.at <= i).unwrap_or(first);
            // "make a mind map … based on Wikipedia": a source is read, whatever the clause does.
            let family = if drawn_from(words, i) { get.unwrap_or(action.family) } else { action.family };
            if names_server(w, n, profiles) && !out.contains(&(n, family)) {
                out.push((n, family));
            }
        }
    }
    out
}

/// Whether the word at `i` of `words` names what something is drawn from: after "based on" or "according
/// to", with one determiner between ("based on the Wikipedia article").
fn drawn_from(words: &[String], i: usize) -> bool {
    let at = if i > 0 && ["the", "a", "an", "my", "our"].contains(&words[i - 1].as_str()) { i - 1 } else { i };
    at >= 2 && matches!((words[at - 2].as_str(), words[at - 1].as_str()), ("based", "on") | ("according", "to"))
}

/// The servers of `named` that `words` name in the clause of an action other than reading, each with that
/// action's family (once per pair). When the request opens with a verb the table does not know
/// (`opens_unknown`), the words before its first known verb are that unknown verb's, not the first known
/// one's ("grab the Wikipedia summary … and put it into a new Word document" does not act on Wikipedia).
fn acted_on(
    named: &[usize],
    actions: &[Action],
    words: &[String],
    profiles: &Profiles,
    opens_unknown: bool,
) -> Vec<(usize, Family)> {
    let table = families();
    let from = if opens_unknown { actions.first().map_or(0, |a| a.at) } else { 0 };
    let mut out = named_in_clauses(named, actions, words, profiles, from);
    out.retain(|&(_, f)| table.class(f) != EffectClass::Read);
    out
}

/// The servers of `named` that `words` name in the clause of a reading action ("*look up* Acme Corp in
/// hubspot and open a linear issue": HubSpot), or before the first verb, where a verb the table does not
/// know may read them ("*take* sentry issue WEB-3K2 and open a github issue").
fn read_from(named: &[usize], actions: &[Action], words: &[String], profiles: &Profiles) -> Vec<usize> {
    let table = families();
    let before_first = actions.first().map_or(0, |a| a.at);
    named
        .iter()
        .copied()
        .filter(|&n| {
            words.iter().take(before_first).any(|w| names_server(w, n, profiles))
                || named_in_clauses(&[n], actions, words, profiles, 0)
                    .iter()
                    .any(|&(_, f)| table.class(f) == EffectClass::Read)
        })
        .collect()
}

/// Families that only look something up: a request made of these alone reads.
const LOOKUPS: [&str; 3] = ["get", "list", "search"];

/// Verbs of `LOOKUPS` that also mean obtaining, starting or checking in ("can I get three tickets", "give me
/// a new api key", "load the csv into sqlite", "check in for my flight"): they do not make a request one
/// that only looks up.
const AMBIGUOUS_LOOKUPS: [&str; 6] = ["get", "got", "obtain", "give", "load", "check"];

/// Verbs of the `update` family that also mean making or adding ("set a reminder", "configure a webhook",
/// "replace the file"; appending is a family of its own): a request by one of them may be served by a tool
/// that makes the thing.
const AMBIGUOUS_UPDATES: [&str; 3] = ["set", "configure", "replace"];

/// Families whose action makes a thing that did not exist: what follows their verb is what is made. (Not
/// `open`, which also opens what exists, unless what follows is new: `opens_a_new_thing`; nor `generate`,
/// whose charts and images are drawn into things.)
const MAKES: [&str; 6] = ["create", "store", "upload", "schedule", "copy", "install"];

/// Families whose action puts a thing somewhere without making the place: "post them *in* our discord
/// channel", "move item 555 *to* the 'Done' group". Read beside `MAKES` for what goes where, as is the
/// verb "append" (the `append` family, which adds to what exists: "append a row *to* the Budget sheet").
const PUTS: [&str; 2] = ["send", "move"];

/// Prepositions that say where a thing made goes: "add a row *to* the table", "create a section *in* the
/// project", "put dentist 3pm *on* my calendar" (not "add its totals *as* rows", "create a page *for* the
/// launch").
const DESTINATIONS: [&str; 7] = ["to", "into", "in", "on", "onto", "inside", "under"];

/// What a making action puts its thing into (`Analysis::destination_words`): given the words after its verb,
/// the words after the first preposition when that is one of `DESTINATIONS`, up to a conjunction or another
/// preposition, four at most.
fn destination_of(after: &[String]) -> Vec<String> {
    // What it is made as is passed over: "add its totals *as* rows *in* the 'Finance 2025' sheet".
    let prepositions: Vec<usize> = (0..after.len()).filter(|&i| preposition_at(after, i)).collect();
    let Some(&at) = prepositions.iter().find(|&&i| after[i] != "as") else { return Vec::new() };
    if !DESTINATIONS.contains(&after[at].as_str()) {
        return Vec::new();
    }
    place_from(after, at + 1)
}

/// The words of a place that starts at `start` of `after`: up to a conjunction or another preposition,
/// four at most.
fn place_from(after: &[String], start: usize) -> Vec<String> {
    (start..after.len())
        .take_while(|&i| {
            let w = after[i].as_str();
            !preposition_at(after, i) && !CONJUNCTIONS.contains(&w) && !NAMING.contains(&w)
        })
        .take(4)
        .map(|i| after[i].clone())
        .collect()
}

/// What a deleting action takes its thing out of (`Analysis::source_words`): given the words after its verb,
/// the words after the first preposition when that is "from" or "out of", up to a conjunction, another
/// preposition or a word that gives its name (`NAMING`), four at most ("the Finance-RO group" of "kick
/// 00u77abcD *out of* the Finance-RO group", "our Momento cache" of "… from our Momento cache named
/// 'web-sessions'").
fn source_of(after: &[String]) -> Vec<String> {
    let Some(at) = (0..after.len()).find(|&i| preposition_at(after, i)) else { return Vec::new() };
    match after[at].as_str() {
        "from" => place_from(after, at + 1),
        "out" => place_from(after, at + 2),
        _ => Vec::new(),
    }
}

/// Whether `words[i]` is a preposition (`PREPOSITIONS`, or the "out" of "out of": "kick 00u77 *out of* the
/// group"): not the "to" of "to do" ("my to-do list"). A comparison ends a phrase as a preposition does:
/// "delete the pod logs *older than* a week" deletes logs, not "older" things.
fn preposition_at(words: &[String], i: usize) -> bool {
    let next = words.get(i + 1).map(String::as_str);
    (PREPOSITIONS.contains(&words[i].as_str()) && !(words[i] == "to" && next == Some("do")))
        || (words[i] == "out" && next == Some("of"))
        || words[i] == "than"
        || next == Some("than")
}

/// Whether `action` opens a thing that did not exist: "open *a* github issue", "open *a new* PR" (not
/// "open the file", "open https://…": those exist).
fn opens_a_new_thing(action: &Action, after: &[String], table: &crate::actions::Families) -> bool {
    table.name(action.family) == "open" && after.first().is_some_and(|w| ["a", "an", "new"].contains(&w.as_str()))
}

/// Whether the first word of `action`'s verb is a form of one of `verbs` ("gets", "setting").
fn by_verb_among(action: &Action, verbs: &[&str]) -> bool {
    let first = action.verb.split(' ').next().unwrap_or("");
    verbs.iter().any(|v| first.starts_with(v))
}

/// Words that open a question: a request with a clause that starts with one and shows no action asks to
/// read ("what's my stripe balance", "did acme-web pass the quality gate", "any mails from dhl in my gmail",
/// "in LaunchDarkly, which repos still reference the flag …").
pub(crate) const QUESTIONS: [&str; 20] = [
    "what", "what's", "whats", "which", "who", "whose", "when", "where", "why", "how", "is", "are", "was", "were",
    "does", "do", "did", "has", "have", "any",
];

/// Words of looking things up: what a request rules out with one ("not the trending *list*") is the thing,
/// not the look-up.
const LOOKUP_WORDS: [&str; 10] =
    ["list", "get", "show", "find", "search", "fetch", "retrieve", "view", "check", "look"];

/// What a request rules out (`negation::unwanted`), in catalog terms that none of its other words uses
/// (stop words, noise and words of looking things up left out): the words that tell the ruled-out thing
/// apart — a word before another of its phrase, or its phrase's one word ("*blank* sheet", "*history*",
/// "the *Douyin* *trending* list") — then the heads after such words ("sheet", "list"), then the terms of
/// the words it wants (empty when it rules out no head). A ruled-out word that reads as an action the
/// request also asks (`asked`), followed by more of its phrase, tells nothing apart: in "rather than adding
/// yet another reply, put a thumbs-up on it" adding is what is asked, only the reply is ruled out. Alone
/// it does: "instead of posting a new message, reply in the thread" rules out posting.
fn unwanted_terms(
    words: &[String],
    ends: &[usize],
    profiles: &Profiles,
    asked: &[Family],
) -> (Vec<TermId>, Vec<TermId>, Vec<TermId>) {
    let mut marked = crate::negation::unwanted(words, ends);
    for i in 0..words.len() {
        let followed = marked.get(i + 1).copied().unwrap_or(false);
        if marked[i] && followed && families().actions(&[words[i].as_str()]).iter().any(|a| asked.contains(&a.family)) {
            marked[i] = false;
        }
    }
    if !marked.contains(&true) {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let lookups: HashSet<String> = LOOKUP_WORDS.iter().flat_map(|w| terms(w)).collect();
    let content = |w: &str| -> Vec<String> {
        terms(w)
            .into_iter()
            .filter(|t| !lookups.contains(t) && !STOP.contains(&t.as_str()) && !NOISE.contains(&t.as_str()))
            .collect()
    };
    let wanted: HashSet<String> =
        words.iter().zip(&marked).filter(|&(_, &m)| !m).flat_map(|(w, _)| content(w)).collect();
    let (mut telling, mut heads) = (Vec::new(), Vec::new());
    // Each run of ruled-out words, as its words' content terms.
    let mut i = 0;
    while i < words.len() {
        if !marked[i] {
            i += 1;
            continue;
        }
        let run: Vec<Vec<String>> =
            (i..).take_while(|&j| j < words.len() && marked[j]).map(|j| content(&words[j])).collect();
        i += run.len();
        let full: Vec<&Vec<String>> = run.iter().filter(|t| !t.is_empty()).collect();
        for (k, ts) in full.iter().enumerate() {
            let tells = full.len() == 1 || k + 1 < full.len();
            for t in ts.iter().filter(|t| !wanted.contains(*t)) {
                if let Some(id) = profiles.id(t) {
                    if tells { telling.push(id) } else { heads.push(id) }
                }
            }
        }
    }
    let sorted = |mut v: Vec<TermId>| {
        v.sort_unstable();
        v.dedup();
        v
    };
    let wanted_ids = if heads.is_empty() { Vec::new() } else { wanted.iter().filter_map(|t| profiles.id(t)).collect() };
    (sorted(telling), sorted(heads), sorted(wanted_ids))
}

/// One request (or one intent of it), analysed against a snapshot's profiles.
#[derive(Debug, Clone, Default)]
pub(crate) struct Analysis {
    /// Content terms (stemmed, no stop words, no noise, not the action verb), each with its weight and its
    /// id in the catalog vocabulary (`None`: the catalog never uses it).
    pub content: Vec<(String, Option<TermId>, f32)>,
    /// Every term id of the request that the catalog knows.
    pub known: HashSet<TermId>,
    /// The request's first action (its main verb), if a verb showed one.
    pub action: Option<Action>,
    /// Every action family its verbs show.
    pub families: Vec<Family>,
    /// No verb showed an action: a question or a bare noun phrase ("stripe balance right now"), which asks
    /// to read something.
    pub implied_read: bool,
    /// It only looks something up: every action it shows does (`LOOKUPS`), by a verb that only means that
    /// ("list invoices for customer …", "show me the score trend …"; not "get me three tickets": getting may
    /// be buying), or it shows none and a clause opens as a question (`QUESTIONS`: "what's my stripe
    /// balance", "in LaunchDarkly, which repos …"); and no clause starts with a verb the table does not
    /// know (`actions::unknown_verb`).
    pub looks_up: bool,
    /// A clause starts with a verb the table does not know (`actions::unknown_verb`): "*take* the transcript
    /// of … and make anki cards". Its actions are then not all it asks for.
    pub unknown_verb: bool,
    /// It is not written in English (`language.rs`): its verbs are read (`foreign_verbs.txt`), the words
    /// after them are not (`object_words` and the like are empty), and `unknown_verb` is set, since a verb
    /// the tables do not know may be among its words.
    pub foreign: bool,
    /// It is not written in English and asks one thing: no word of it joins a second part ("und", "puis",
    /// "然后": `JOINERS`), so an action read from it is all it asks.
    pub foreign_alone: bool,
    /// The actions it says not to do (`actions::denied_actions`), none of which it also asks.
    pub denied: Vec<Family>,
    /// The catalog terms that tell apart what it rules out (`negation::unwanted`: "…, not the *history*",
    /// "I don't want a *blank* sheet"), which the rest of it never uses (`unwanted_terms`).
    pub denied_terms: Vec<TermId>,
    /// The heads of what it rules out after such terms ("sheet" of "a blank sheet"), which the rest of it
    /// never uses: a tool's name that uses one and no term of `wanted` is about the ruled-out thing.
    pub denied_heads: Vec<TermId>,
    /// The catalog terms of the words it wants (not ruled out; no stop words, noise or words of looking
    /// things up), when `denied_heads` is not empty.
    pub wanted: Vec<TermId>,
    /// Some action it shows is an update by a verb that may also make something (`AMBIGUOUS_UPDATES`).
    pub updates_ambiguously: bool,
    /// The words after the action verb (for explanations): what the request acts on.
    pub object_words: Vec<String>,
    /// What its actions that make something (`MAKES`), send or move it (`PUTS`) make, send or move: the
    /// words after each such verb, as `object_words`. Empty when it does none of these.
    pub made_words: Vec<String>,
    /// Where they put it, when a preposition of place follows it (`DESTINATIONS`): "the Invoices table" of
    /// "add a row *to* the Invoices table", "asana project 12…" of "create a section called 'QA' *in* asana
    /// project 12…", "our discord channel 4455" of "post them *in* our discord channel 4455".
    pub destination_words: Vec<String>,
    /// What its deleting actions (`delete`) remove: the words after each such verb, as `object_words`.
    pub removed_words: Vec<String>,
    /// Where they remove it from (`source_of`): "the Finance-RO group" of "kick 00u77abcD out of the
    /// Finance-RO group", "my pinecone index" of "remove records doc-17 and doc-18 from my pinecone index".
    pub source_words: Vec<String>,
    /// What it calls its own: the words after each "my", "our" or "your", as `object_words` ("neon project"
    /// of "on my Neon project, add a column …"). The thing exists already.
    pub owned_words: Vec<Vec<String>>,
    /// What its first converting action (`convert`) converts to: what the words after the first "to" or
    /// "into" after its verb name, as `object_words` ("word docx" of "convert notes.md to a word .docx").
    pub converts_to: Vec<String>,
    /// A clause of it opens as a question (`QUESTIONS`): "how much sales tax do I have to pay …" asks
    /// about paying.
    pub question: bool,
    /// It asks for writing the agent does itself (`COMPOSING`): it opens with "write", "imagine", "pretend"
    /// …, or its first verb is one of them and it is no question ("… Write a script for my next show"),
    /// and it names no service, path, address, URL, place to put it or kind of file (`FILE_KINDS`: "write a
    /// joke about fruit"; not "write a memo as a Word doc (/root/word/memo.docx)", "write it to notes.md"
    /// or "write a spreadsheet of my expenses").
    pub composes: bool,
    /// It asks what the difference between two things is, as a question of general knowledge
    /// (`questions::asks_what_differs_in_general`: not about texts, files or versions), and names no
    /// service, path or address: the agent answers it itself, like writing it composes.
    pub compares_in_general: bool,
    /// Servers the request names by their service words.
    pub named_servers: Vec<usize>,
    /// The terms of the words it writes as names: with a capital first letter and small letters after it,
    /// inside a sentence ("the *Met Museum*", "the *Wikipedia* article"; not its first word, "I", or a day
    /// or month). A server whose name is ordinary words is named by them (`Guard::new`).
    pub proper: Vec<TermId>,
    /// Those of `named_servers` it names where it acts (not only reads), each with that action's family: in
    /// the clause of an action that is not reading ("merge the *gitlab* merge request"; not "pull revenue
    /// from *snowflake* and chart it"). The clause of an action runs from its verb to the next verb; words
    /// before the first verb are the first verb's.
    pub acted_on: Vec<(usize, Family)>,
    /// Those of `named_servers` it names in the clause of a reading action, or before its first verb
    /// (`read_from`).
    pub read_from: Vec<usize>,
    /// The services of `services.txt` it names, connected or not.
    pub services: Vec<crate::services::Service>,
    /// The kinds of entity it mentions (`entities.rs`).
    pub entity_kinds: u8,
    /// The compound nouns it uses (`compounds::in_text`): "credit score", "heart rate".
    pub compounds: u64,
    /// The services of `services.txt` it names that the catalog never mentions.
    pub missing_services: Vec<crate::services::Service>,
    /// What it shows, when its first action gets (`get`) things written in the plural, with no "of"
    /// ("show open pull *requests*"): the head's catalog term. Listing them is what it asks
    /// (`features::features`: `list_pull_requests` does the same action as asked).
    pub listed: Option<TermId>,
    /// The kinds of the files it names by path, as the catalog's terms of their extensions ("pdf" of
    /// "/scans/invoice_0412.pdf"; not of a web address).
    pub file_kinds: Vec<TermId>,
}

/// The catalog's terms of the extensions of the files `text` names by path (`Analysis::file_kinds`).
fn file_kinds(text: &str, profiles: &Profiles) -> Vec<TermId> {
    let mut out = Vec::new();
    for token in text.split_whitespace().filter(|t| t.contains('/') && !t.contains("://")) {
        let token = token.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
        let name = token.rsplit('/').next().unwrap_or(token);
        let Some((stem, ext)) = name.rsplit_once('.') else { continue };
        if stem.is_empty() || !(2..=5).contains(&ext.len()) || !ext.chars().all(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        let ids = toolscout_indexer::terms(&ext.to_ascii_lowercase()).into_iter().filter_map(|t| profiles.id(&t));
        for id in ids {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

/// The parts of a request (`intents::intent_parts`) that ask something — an action `request_actions`
/// reads, or a question — joined; the whole request when it has one part or none of them asks. A story
/// told around the ask names services the request does not act on: "my manager pinged me on Slack … I
/// already reported it in Outlook. Can you pull the recent output from the payments-api container?"
/// (A service counts as acted on where both the whole request and its asking parts act on it: a part
/// read alone opens with what the whole request names in passing.)
fn asking_parts(text: &str) -> std::borrow::Cow<'_, str> {
    let parts = crate::intents::intent_parts(text);
    if parts.len() < 2 {
        return std::borrow::Cow::Borrowed(text);
    }
    let asks = |p: &str| p.trim_end().ends_with('?') || !request_actions(families(), p).is_empty();
    let asking: Vec<&str> = parts.iter().map(|p| p.text.as_str()).filter(|p| asks(p)).collect();
    if asking.is_empty() { std::borrow::Cow::Borrowed(text) } else { std::borrow::Cow::Owned(asking.join(". ")) }
}

impl Analysis {
    /// Analyses `text`.
    pub(crate) fn new(text: &str, profiles: &Profiles) -> Analysis {
        let table = families();
        let raw = request_words(text);
        // Quoted text is the payload, not the request's verbs ("… to 'Login fails'"): actions are read from
        // the text with its quoted letters masked, which keeps every word's position in `raw`.
        let masked = crate::payload::quoted_letters_masked(text);
        let all_actions = request_actions(table, &masked);
        let action = all_actions.first().cloned();
        let mut families_seen: Vec<Family> = all_actions.iter().map(|a| a.family).collect();
        families_seen.dedup();
        let verb_terms: HashSet<String> = all_actions.iter().flat_map(|a| terms(&a.verb)).collect();
        let all = terms(text);
        // A word written with a hyphen is the catalog's word written whole too ("to-do" is `todo_delete`'s
        // "todo", "e-mail" is "email").
        let known: HashSet<TermId> = all.iter().chain(&hyphen_joined(text)).filter_map(|t| profiles.id(t)).collect();
        let mut seen = HashSet::new();
        let content: Vec<(String, Option<TermId>, f32)> = all
            .into_iter()
            // A verb that is also what it makes ("*email* the report", "*comment* on issue 12") names that
            // thing as much as the action: a tool that sends one says "email"; the report is only what it
            // carries.
            .filter(|t| {
                let names_it = crate::intents::names_what_it_makes(t);
                !STOP.contains(&t.as_str()) && !NOISE.contains(&t.as_str()) && (!verb_terms.contains(t) || names_it)
            })
            .filter(|t| seen.insert(t.clone()))
            .map(|t| {
                let id = profiles.id(&t);
                let w = profiles.idf(id);
                (t, id, w)
            })
            .collect();
        // The words after an action's verb, to the end of its clause.
        let ends = crate::actions::clause_ends(text);
        // The end of the clause of the word at `i`, no earlier than `start`.
        let clause_end =
            |i: usize, start: usize| ends.iter().copied().find(|&e| e > i).unwrap_or(raw.len()).clamp(start, raw.len());
        let after_at = |a: &Action| -> std::ops::Range<usize> {
            let start = (a.at + a.len).min(raw.len());
            start..clause_end(a.at, start)
        };
        let after = |a: &Action| -> &[String] { &raw[after_at(a)] };
        let object_words = match &action {
            // A phrase written apart ("roll the app *back*"): its particle is no word of what it acts on.
            Some(a) if a.len == 1 && a.verb.contains(' ') => {
                let particle = a.verb.rsplit(' ').next().unwrap_or_default();
                object_of(after(a)).into_iter().filter(|w| w != particle).collect()
            }
            Some(a) => object_of(after(a)),
            None => Vec::new(),
        };
        let making: Vec<std::ops::Range<usize>> = all_actions
            .iter()
            .filter(|a| {
                MAKES.contains(&table.name(a.family))
                    || PUTS.contains(&table.name(a.family))
                    || by_verb_among(a, &["append"])
                    || opens_a_new_thing(a, after(a), table)
            })
            .map(&after_at)
            .collect();
        let made_words = making.iter().flat_map(|at| object_of(&raw[at.clone()])).collect();
        // A place's quoted name is not what the place is ("to the chroma collection 'kb'": a collection).
        let masked_words = request_words(&masked);
        let unquoted = |at: &std::ops::Range<usize>| -> Vec<String> {
            at.clone().filter(|&i| masked_words.get(i) == raw.get(i)).map(|i| raw[i].clone()).collect()
        };
        let destination_words: Vec<String> = making.iter().flat_map(|at| destination_of(&unquoted(at))).collect();
        let removing: Vec<std::ops::Range<usize>> =
            all_actions.iter().filter(|a| table.name(a.family) == "delete").map(&after_at).collect();
        let removed_words = removing.iter().flat_map(|at| object_of(&raw[at.clone()])).collect();
        let source_words = removing.iter().flat_map(|at| source_of(&unquoted(at))).collect();
        let converts_to = all_actions
            .iter()
            .find(|a| table.name(a.family) == "convert")
            .map(|a| {
                let after = after(a);
                let to = after.iter().position(|w| w == "to" || w == "into");
                to.map(|at| object_of(&after[at + 1..])).unwrap_or_default()
            })
            .unwrap_or_default();
        let owned_words = (0..raw.len())
            .filter(|&i| ["my", "our", "your"].contains(&raw[i].as_str()))
            .map(|i| object_of(&raw[i + 1..clause_end(i, i + 1)]))
            .filter(|o| !o.is_empty())
            .collect();
        // "spin up a redis container": Redis is what the container runs, not a server to act on.
        let named_servers: Vec<usize> =
            profiles.named_servers(&known).into_iter().filter(|&n| !only_as_artifact(&raw, n, profiles)).collect();
        let implied_read = families_seen.is_empty();
        let question = crate::actions::clause_openers(&masked).iter().any(|w| QUESTIONS.contains(&w.as_str()));
        // A request not written in English: its verbs are read from `foreign_verbs.txt`, but a verb the
        // tables do not know may be among its words (German "leg … an"), and the words after a verb are
        // not the catalog's (what it acts on, makes, removes or owns is not read).
        let foreign = crate::language::foreign(text);
        let unknown_verb = foreign || crate::actions::unknown_verb(table, &masked);
        let looks_up = !unknown_verb
            && if all_actions.is_empty() {
                question
            } else {
                all_actions
                    .iter()
                    .all(|a| LOOKUPS.contains(&table.name(a.family)) && !by_verb_among(a, &AMBIGUOUS_LOOKUPS))
            };
        let updates_ambiguously =
            all_actions.iter().any(|a| table.name(a.family) == "update" && by_verb_among(a, &AMBIGUOUS_UPDATES));
        let entity_kinds = crate::entities::in_request(text);
        // A request that names a connected service too is about that one (a DHL mail in my Gmail).
        let opens_unknown = crate::actions::opens_with_unknown_verb(table, &masked);
        let acted_on = acted_on(&named_servers, &all_actions, &raw, profiles, opens_unknown);
        let read_from = read_from(&named_servers, &all_actions, &raw, profiles);
        let table = crate::services::services();
        let services = table.named_in(text);
        let missing_services = if services.iter().any(|&s| profiles.mentioned.contains(s)) {
            Vec::new()
        } else {
            // A quoted text is what the request carries, not a service it acts on ("search the docs for
            // \"how to configure an azure function\"").
            let carried = crate::payload::without_quoted(text);
            let acting = carried.as_deref().unwrap_or(text);
            let mut missing: Vec<_> =
                table.acted_on_in(acting).into_iter().filter(|&s| !profiles.mentioned.contains(s)).collect();
            // Only where a part that asks names it too (`asking_parts`): a story told around the ask names
            // services the request does not act on. (Read only when some service is missing: most requests
            // name none.)
            if !missing.is_empty() {
                let asking = asking_parts(acting);
                if asking != acting {
                    let in_asking = table.acted_on_in(&asking);
                    missing.retain(|s| in_asking.contains(s));
                }
            }
            missing
        };
        let listed = action
            .as_ref()
            .filter(|a| !foreign && families().name(a.family) == "get" && !object_words.iter().any(|w| w == "of"))
            .and_then(|_| object_words.last())
            .filter(|w| terms(w).last().is_some_and(|t| written_plural(w, t)))
            .and_then(|w| terms(w).last().and_then(|t| profiles.id(t)));
        let unread = |words: Vec<String>| if foreign { Vec::new() } else { words };
        // What it tells was done already is not asked either: "I've loaded /music/take3.wav; give me the
        // beat timestamps" is not served by `load`.
        let mut denied = crate::actions::denied_actions(families(), &masked);
        denied.extend(crate::actions::done_actions(families(), &masked));
        denied.sort_unstable();
        denied.dedup();
        denied.retain(|f| !families_seen.contains(f));
        let (denied_terms, denied_heads, wanted) = unwanted_terms(&raw, &ends, profiles, &families_seen);
        let composes = !foreign
            && (raw.first().is_some_and(|w| COMPOSING.contains(&w.as_str()))
                || (!question && action.as_ref().is_some_and(|a| COMPOSING.contains(&a.verb.as_str()))))
            && entity_kinds == 0
            && named_servers.is_empty()
            && services.is_empty()
            && destination_words.is_empty()
            && !names_a_file(&object_words);
        let compares_in_general = !foreign
            && entity_kinds == 0
            && named_servers.is_empty()
            && services.is_empty()
            && crate::questions::asks_what_differs_in_general(text);
        Analysis {
            content,
            known,
            action,
            families: families_seen,
            implied_read,
            looks_up,
            updates_ambiguously,
            object_words: unread(object_words),
            made_words: unread(made_words),
            destination_words: unread(destination_words),
            removed_words: unread(removed_words),
            source_words: unread(source_words),
            owned_words: if foreign { Vec::new() } else { owned_words },
            converts_to: unread(converts_to),
            unknown_verb,
            foreign,
            foreign_alone: foreign
                && !raw.iter().any(|w| JOINERS.contains(&w.as_str()))
                && !JOINERS.iter().any(|j| !j.is_ascii() && text.contains(j)),
            denied,
            denied_terms,
            denied_heads,
            wanted,
            question,
            composes,
            compares_in_general,
            named_servers,
            proper: proper_terms(text, profiles),
            acted_on,
            read_from,
            services,
            entity_kinds,
            compounds: crate::compounds::in_text(text),
            missing_services,
            listed,
            file_kinds: file_kinds(text, profiles),
        }
    }

    /// Total weight of the content terms.
    pub(crate) fn weight(&self) -> f32 {
        self.content.iter().map(|(_, _, w)| w).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_named_by_path_give_their_kinds() {
        let mut p = Profiles::default();
        let (pdf, docx) = (p.intern("pdf"), p.intern("docx"));
        assert_eq!(file_kinds("rotate pages 2 and 3 of /scans/invoice_0412.pdf by 90 degrees", &p), [pdf]);
        assert_eq!(file_kinds("switch /docs/report_q2.docx, please", &p), [docx]);
        assert!(file_kinds("open https://example.com/report.pdf", &p).is_empty(), "a web address");
        assert!(file_kinds("the report.pdf file", &p).is_empty(), "no path");
        assert!(file_kinds("merge /data/a.xyz", &p).is_empty(), "a kind the catalog does not know");
    }

    #[test]
    fn a_service_named_inside_quotes_is_carried_not_missing() {
        // The default profiles mention no service: every service acted on is missing.
        let missing = |text: &str| !Analysis::new(text, &Profiles::default()).missing_services.is_empty();
        assert!(missing("deploy my function to azure"), "a service acted on that nothing mentions");
        assert!(!missing("search the microsoft docs for \"how to configure managed identity for an azure function\""));
        // A story told around the ask names services it does not act on; a part that asks still counts.
        assert!(!missing(
            "My manager pinged me on Slack asking what happened. I already reported it in Outlook. Can you pull \
             the recent output from the payments-api container?"
        ));
        assert!(missing("I already reported it in Outlook. Now post the summary on Slack"), "the ask names it");
        assert!(missing("I reported it on Slack"), "one part: the whole request");
        assert!(
            !missing("I can't keep up with these tasks! Todoist for managing a list, you can add and view them"),
            "not acted on in the whole request, though its asking part opens with it"
        );
    }

    #[test]
    fn a_request_not_written_in_english_asks_one_thing_unless_a_word_joins_another() {
        let alone = |text: &str| Analysis::new(text, &Profiles::default()).foreign_alone;
        assert!(alone("Erstell mir im Google Kalender einen Termin: Freitag 14 Uhr"));
        assert!(!alone("Skaliere das Deployment api in prod auf 0 und zeig mir danach die Events"));
        assert!(!alone("查一下上海明天的天气，然后发到飞书群 oc_7a8b9c 里"));
        assert!(!alone("create a calendar event on friday at 2pm"), "written in English");
    }

    #[test]
    fn a_request_not_written_in_english_shows_its_action_but_not_what_it_acts_on() {
        let a = Analysis::new("Lösche das Asana-Projekt 'Q2 Kampagne' komplett", &Profiles::default());
        assert_eq!(a.families.iter().map(|&f| families().name(f)).collect::<Vec<_>>(), ["delete"]);
        assert!(a.foreign && a.unknown_verb && !a.looks_up);
        assert!(a.object_words.is_empty() && a.removed_words.is_empty(), "the catalog's words are English");
        let english = Analysis::new("delete the asana project 'Q2 campaign'", &Profiles::default());
        assert!(!english.foreign && !english.unknown_verb);
        assert_eq!(english.object_words, ["asana", "project", "q2", "campaign"]);
    }

    #[test]
    fn showing_things_in_the_plural_lists_them() {
        let mut p = Profiles::default();
        let request = p.intern("request");
        let listed = |text: &str| Analysis::new(text, &p).listed;
        assert_eq!(listed("show open pull requests in acme/web"), Some(request));
        assert_eq!(listed("show pull request 5 in acme/web"), None, "one is got");
        assert_eq!(listed("show the details of pull requests 5 and 6"), None, "what of them is asked");
        assert_eq!(listed("close the open pull requests"), None, "no look-up");
    }

    #[test]
    fn a_service_that_qualifies_what_runs_its_software_is_not_a_server_acted_on() {
        let mut p = Profiles::default();
        let redis = p.intern(&terms("redis")[0]);
        p.servers.push(crate::profile::ServerProfile { service: vec![redis], ..Default::default() });
        assert!(only_as_artifact(&request_words("spin up a redis container"), 0, &p));
        assert!(!only_as_artifact(&request_words("flush the redis cache"), 0, &p));
        assert!(!only_as_artifact(&request_words("start a redis container and list redis keys"), 0, &p));
        assert!(!only_as_artifact(&request_words("spin up a container"), 0, &p), "not named");
        assert!(only_as_artifact(&request_words("forward port 6379 to the redis pod"), 0, &p));
        let k8s = p.intern(&terms("kubernetes")[0]);
        p.servers.push(crate::profile::ServerProfile { service: vec![k8s], ..Default::default() });
        assert!(!only_as_artifact(&request_words("restart the kubernetes pods"), 1, &p), "the cluster's own");
    }

    #[test]
    fn what_an_action_acts_on_ends_at_a_preposition() {
        let object = |text: &str| Analysis::new(text, &Profiles::default()).object_words;
        assert_eq!(object("roll back my heroku app to the previous release"), ["heroku", "app"]);
        assert_eq!(object("roll my heroku app back to the previous release"), ["heroku", "app"], "its particle");
        assert_eq!(object("void invoice in_1Q2xYzAbC on stripe"), ["invoice"]);
        assert_eq!(object("delete that message in slack #general"), ["message"]);
        assert_eq!(object("delete the old build logs"), ["old", "build", "logs"]);
        assert_eq!(object("delete pod logs older than a week"), ["pod", "logs"], "a comparison ends it");
        assert_eq!(object("remove files larger than 2 GB"), ["files"]);
        assert_eq!(object("delete the file and tell Bob"), ["file"]);
        assert_eq!(object("draft the reply without sending it"), ["reply"], "\"without\" ends it");
        assert_eq!(object("tag the commit abc123 as v1.2"), ["commit", "abc123"]);
        assert_eq!(object("enroll me in clinical trial NCT05"), ["clinical", "trial", "nct05"], "the person is moved");
        assert_eq!(object("show me the logs"), ["logs"], "the person receives it");
        assert_eq!(object("update the slack user profile of maya"), ["slack", "user", "profile", "of", "maya"]);
        assert_eq!(object("delete the list of users"), ["list", "of", "users"]);
        assert_eq!(
            object("change the default branch of buildkite pipeline mobile-ios to main"),
            ["default", "branch", "of", "buildkite", "pipeline", "mobile"],
            "what it belongs to is part of it"
        );
        assert_eq!(object("create a ZPA segment group named 'Finance Apps'"), ["zpa", "segment", "group"]);
        assert_eq!(object("kick 00u77abcD out of the Finance-RO group"), ["00u77abcd"], "out of: a preposition");
        assert_eq!(
            object("set the description of table out.c-sales.orders"),
            ["description", "of", "table", "out", "c"]
        );
        assert_eq!(object("approve and merge the gitlab merge request"), ["merge", "gitlab", "merge", "request"]);
        // Positions count the words actions are read from: an address before the verb moves nothing.
        assert_eq!(object("ops@acme.com: delete the old build logs"), ["old", "build", "logs"]);
    }

    #[test]
    fn what_is_made_and_where_it_goes() {
        let read = |text: &str| {
            let a = Analysis::new(text, &Profiles::default());
            (a.made_words, a.destination_words)
        };
        let words = |w: &[&str]| w.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(read("add a row to the Invoices table"), (words(&["row"]), words(&["the", "invoices", "table"])));
        assert_eq!(
            read("open port 443 on the firewall and add a rule"),
            (words(&["rule"]), words(&[])),
            "opening is not making; a making action's object counts wherever it is"
        );
        assert_eq!(read("add its totals as rows"), (words(&["its", "totals"]), words(&[])), "not a place");
        assert_eq!(
            read("open a github issue in acme/webapp: login page throws a 500"),
            (words(&["github", "issue"]), words(&[])),
            "opening a new thing makes it"
        );
        assert_eq!(
            read("add a new lead to the Leads table: Jane Roe, jane@roe.io"),
            (words(&["new", "lead"]), words(&["the", "leads", "table"])),
            "where it goes ends with its clause"
        );
        assert_eq!(
            read("add these 3 docs to the chroma collection 'kb'").1,
            words(&["the", "chroma", "collection"]),
            "a place's quoted name is not what the place is"
        );
        let owned = |text: &str| Analysis::new(text, &Profiles::default()).owned_words;
        assert_eq!(
            owned("on my Neon project, add a last_login column to our users table"),
            [words(&["neon", "project"]), words(&["users", "table"])]
        );
        assert_eq!(
            read("add its totals as rows in the sheet"),
            (words(&["its", "totals"]), words(&["the", "sheet"])),
            "what it is made as is passed over"
        );
        assert_eq!(
            read("add 'renew passport' to my to-do list"),
            (words(&["renew", "passport"]), words(&["my", "to", "do", "list"]))
        );
        assert_eq!(read("append a row to the Budget sheet"), (words(&["row"]), words(&["the", "budget", "sheet"])));
        assert_eq!(
            read("airtable - add a new lead to the Leads table"),
            (words(&["new", "lead"]), words(&["the", "leads", "table"])),
            "a dash between spaces ends a clause"
        );
        assert_eq!(
            read("put dentist thursday 3pm on my calendar"),
            (words(&["dentist", "thursday", "3pm"]), words(&["my", "calendar"]))
        );
        assert_eq!(read("delete the row in the table"), (words(&[]), words(&[])), "deleting makes nothing");
        assert_eq!(
            read("move item 5551234 to the 'Done' group"),
            (words(&["item", "5551234"]), words(&["the", "group"])),
            "moving puts a thing somewhere"
        );
        assert_eq!(read("post them in our discord channel"), (words(&["them"]), words(&["our", "discord", "channel"])));
    }

    #[test]
    fn what_is_removed_and_where_from() {
        let read = |text: &str| {
            let a = Analysis::new(text, &Profiles::default());
            (a.removed_words, a.source_words)
        };
        let words = |w: &[&str]| w.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            read("kick 00u77abcD out of the Finance-RO group (00g9fin) in okta"),
            (words(&["00u77abcd"]), words(&["the", "finance", "ro", "group"]))
        );
        assert_eq!(
            read("remove records doc-17 and doc-18 from my pinecone index"),
            (words(&["records", "doc", "17"]), words(&["my", "pinecone", "index"]))
        );
        assert_eq!(read("delete the file notes.txt"), (words(&["file", "notes", "txt"]), words(&[])));
        assert_eq!(
            read("remove the key 'session:8841' from our Momento cache named 'web-sessions'").1,
            words(&["our", "momento", "cache"]),
            "its name is not where it is"
        );
        assert_eq!(read("add a row to the table"), (words(&[]), words(&[])), "making removes nothing");
        assert_eq!(read("delete the row in the table").1, words(&[]), "\"in\" says where it is, not where from");
    }

    #[test]
    fn a_name_is_a_word_written_with_a_capital_inside_a_sentence() {
        assert_eq!(proper_words("Reserve two tickets to the Met Museum for Saturday."), ["Met", "Museum"]);
        assert_eq!(
            proper_words("Fix the typo in the Wikipedia article. Then I rest"),
            ["Wikipedia"],
            "not a first word"
        );
        assert!(
            proper_words("stage everything, commit it and push to GITHUB on Monday").is_empty(),
            "no name, day or shout"
        );
        assert!(proper_words("- Search the web: Python docs").is_empty(), "a sentence starts after a bullet or colon");
    }

    #[test]
    fn a_source_is_what_comes_after_based_on_or_according_to() {
        let words = request_words("make a mind map based on the Wikipedia article, according to Bob");
        let at = |w: &str| words.iter().position(|x| x == w).expect("word");
        assert!(drawn_from(&words, at("wikipedia")) && drawn_from(&words, at("bob")));
        assert!(!drawn_from(&words, at("map")) && !drawn_from(&words, at("article")));
    }

    #[test]
    fn writing_the_agent_does_itself_is_told_from_writing_somewhere() {
        let composes = |text: &str| Analysis::new(text, &Profiles::default()).composes;
        assert!(composes("Write a joke about fruit."));
        assert!(composes("Imagine you are a time traveler from the year 3000."));
        assert!(composes("write a 5-star review for Trattoria Roma"));
        assert!(!composes("Write me a memo as a Word doc (/root/word/memo.docx)"), "a path");
        assert!(!composes("write the summary to the notes page"), "a place to put it");
        assert!(!composes("write a reply on Slack"), "a service");
        assert!(!composes("write a spreadsheet of my expenses"), "a kind of file");
        assert!(!composes("write a word document with the meeting notes"), "a kind of file");
        assert!(!composes("write a PDF report of last month's sales"), "a kind of file");
        assert!(composes("write a word of thanks for the team"), "\"word\" alone is no file");
        assert!(composes("write a markdown table of the planets"), "text the agent writes");
        assert!(!composes("Schreib mir ein Gedicht"), "not read in another language");
        // Its first verb may come later: "I'm a youtuber …. Write a script for my next show", "Can you help me
        // write her a birthday card …" — but not in a question about writing.
        assert!(composes("I have a channel for kids. Write a script for my next show."));
        assert!(composes("can you write a poem"));
        assert!(!composes("How do I write a 3D program using the CreatiCode Scratch extensions?"), "a question");
        assert!(!composes("search the web and write a summary"), "another verb first");
    }

    #[test]
    fn a_hyphenated_word_is_also_read_whole() {
        assert_eq!(hyphen_joined("delete the to-do item 'buy milk'"), ["todo"]);
        assert_eq!(hyphen_joined("send an e-mail, then a follow-up."), ["email", "followup"]);
        assert!(hyphen_joined("invoices from 2024-05 for ctm-01h9 and x-").is_empty(), "ranges, ids, a lone hyphen");
    }

    #[test]
    fn an_object_counts_no_qualifier() {
        let made = |text: &str| Analysis::new(text, &Profiles::default()).made_words;
        assert_eq!(
            made("set up a brand-new public Slack channel named #x"),
            ["brand", "new", "public", "slack", "channel"]
        );
        assert_eq!(made("create a big old shared team drive folder"), ["big", "old", "shared", "team"]);
    }

    #[test]
    fn what_a_conversion_makes() {
        let to = |text: &str| Analysis::new(text, &Profiles::default()).converts_to;
        assert_eq!(to("convert notes.md to a word .docx"), ["word", "docx"]);
        assert_eq!(to("transform this csv into json please"), ["json", "please"]);
        assert!(to("convert this file").is_empty());
        assert!(to("send the pdf to bob").is_empty(), "not a conversion");
    }

    #[test]
    fn a_request_looks_up_only_by_verbs_that_only_look_up() {
        let looks_up = |text: &str| Analysis::new(text, &Profiles::default()).looks_up;
        assert!(looks_up("list invoices for customer cus_9s6XKzkNRiz8i3"));
        assert!(looks_up("show me the ZDX score trend for Microsoft Teams over the last 48h"));
        assert!(looks_up("search alfresco for 'NDA Globex' and show me the document's text"));
        assert!(!looks_up("Can I get three tickets for the 7pm show?"), "getting may be buying");
        assert!(!looks_up("check in for my flight"));
        assert!(!looks_up("load /tmp/sensor.csv into sqlite"));
        assert!(!looks_up("find the stale branches and delete them"), "acts too");
        assert!(looks_up("what's my stripe balance right now"), "a question");
        assert!(looks_up("did acme-web pass the quality gate on PR 311?"));
        assert!(!looks_up("stripe balance right now"), "no verb, no question: it may ask for anything");
        assert!(looks_up("in LaunchDarkly, which repos still reference the flag dark-mode-v1?"), "a later clause");
        assert!(!looks_up("how do I get a new api key"), "a question that gets something");
        // A clause that starts with a verb the table does not know asks for more than looking up.
        assert!(!looks_up("find an airbnb in kyoto apr 10-14 and block those dates in my calendar"));
        assert!(!looks_up("read the CO2 values from my aranet4 and log them into the airtable Office Air table"));
        assert!(looks_up("find airbnbs and hotels in kyoto"), "a noun after `and`");
    }

    #[test]
    fn an_update_by_a_verb_that_may_also_make_something_is_told_apart() {
        let ambiguous = |text: &str| Analysis::new(text, &Profiles::default()).updates_ambiguously;
        assert!(ambiguous("set a reminder for 9am tomorrow"));
        assert!(ambiguous("configure a webhook for pushes to main"));
        // Appending is a family of its own (it both adds and changes), so never an update that only ends.
        assert!(!ambiguous("append a row to the Budget google sheet"));
        assert!(!ambiguous("change the default branch of pipeline mobile-ios to main"));
        assert!(!ambiguous("mark task t_482 as done"));
        assert!(!ambiguous("set up a new project"), "setting up makes one: not an update");
    }

    #[test]
    fn a_service_is_acted_on_where_an_action_other_than_reading_names_it() {
        let mut p = Profiles::default();
        for name in ["snowflake", "gitlab", "sentry"] {
            let id = p.intern(&terms(name)[0]);
            p.servers.push(crate::profile::ServerProfile { service: vec![id], ..Default::default() });
        }
        let acted = |text: &str| {
            let actions = request_actions(families(), text);
            let opens_unknown = crate::actions::opens_with_unknown_verb(families(), text);
            let acted = acted_on(&[0, 1, 2], &actions, &request_words(text), &p, opens_unknown);
            acted.into_iter().map(|(n, f)| (n, families().name(f))).collect::<Vec<_>>()
        };
        assert!(acted("pull last month's revenue by region from snowflake and chart it").is_empty(), "read there");
        assert_eq!(acted("approve and merge the gitlab merge request"), [(1, "merge")]);
        assert_eq!(
            acted("pull the details of sentry issue 991 and open a gitlab issue"),
            [(1, "open")],
            "sentry is read"
        );
        assert_eq!(acted("in gitlab, close issue 4"), [(1, "close")], "before the first verb: the first verb's");
        assert_eq!(
            acted("grab the sentry issue and open a gitlab issue"),
            [(1, "open")],
            "after a verb the table does not know: that verb's"
        );
        assert_eq!(acted("sentry issue 4: open a gitlab issue"), [(1, "open"), (2, "open")], "no verb before");
        assert!(acted("what is in snowflake").is_empty(), "no action: nothing acted on");
        let read = |text: &str| read_from(&[0, 1, 2], &request_actions(families(), text), &request_words(text), &p);
        assert_eq!(read("pull the details of sentry issue 991 and open a gitlab issue"), [2]);
        assert_eq!(read("take sentry issue WEB-3K2 and open a gitlab issue"), [2], "before the first verb: maybe read");
        assert!(read("approve and merge the gitlab merge request").is_empty());
    }
}
