//! What a request says, in the terms the scoring stage compares with tool profiles: its content terms
//! with their weights, its action, the words it acts on, and the services it names. Pure code, no I/O.

use std::collections::HashSet;

use toolscout_indexer::terms;

use crate::actions::{Action, Family, families, request_actions, words};
use crate::profile::{NOISE, Profiles, STOP, TermId};

/// Prepositions: they end what an action acts on ("roll back my app *to* the previous release").
const PREPOSITIONS: [&str; 17] = [
    "in", "on", "to", "from", "for", "at", "with", "by", "into", "onto", "via", "using", "within", "since", "after",
    "before", "until",
];

/// Conjunctions: they end what an action acts on once it has a word ("delete the file *and* tell Bob"), and
/// are passed over before ("approve *and* merge the request").
const CONJUNCTIONS: [&str; 5] = ["and", "but", "then", "so", "because"];

/// What the words after an action name as its object, for explanations: up to four words, without
/// determiners, up to a preposition or a conjunction.
fn object_of(after: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for w in after.iter().map(String::as_str) {
        if PREPOSITIONS.contains(&w) || (CONJUNCTIONS.contains(&w) && !out.is_empty()) || out.len() == 4 {
            break;
        }
        if !CONJUNCTIONS.contains(&w) && !["a", "an", "the", "my", "that", "this", "our", "your", "some"].contains(&w) {
            out.push(w.to_string());
        }
    }
    out
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
    /// The words after the action verb (for explanations): what the request acts on.
    pub object_words: Vec<String>,
    /// Servers the request names by their service words.
    pub named_servers: Vec<usize>,
    /// The kinds of entity it mentions (`entities.rs`).
    pub entity_kinds: u8,
    /// The services of `services.txt` it names that the catalog never mentions.
    pub missing_services: Vec<crate::services::Service>,
}

impl Analysis {
    /// Analyses `text`.
    pub(crate) fn new(text: &str, profiles: &Profiles) -> Analysis {
        let table = families();
        let raw = words(text);
        let all_actions = request_actions(table, text);
        let action = all_actions.first().cloned();
        let mut families_seen: Vec<Family> = all_actions.iter().map(|a| a.family).collect();
        families_seen.dedup();
        let verb_terms: HashSet<String> = all_actions.iter().flat_map(|a| terms(&a.verb)).collect();
        let all = terms(text);
        let known: HashSet<TermId> = all.iter().filter_map(|t| profiles.id(t)).collect();
        let mut seen = HashSet::new();
        let content: Vec<(String, Option<TermId>, f32)> = all
            .into_iter()
            .filter(|t| !STOP.contains(&t.as_str()) && !NOISE.contains(&t.as_str()) && !verb_terms.contains(t))
            .filter(|t| seen.insert(t.clone()))
            .map(|t| {
                let id = profiles.id(&t);
                let w = profiles.idf(id);
                (t, id, w)
            })
            .collect();
        let object_words = match &action {
            Some(a) => object_of(&raw[(a.at + a.len).min(raw.len())..]),
            None => Vec::new(),
        };
        let named_servers = profiles.named_servers(&known);
        let implied_read = families_seen.is_empty();
        let entity_kinds = crate::entities::in_request(text);
        // A request that names a connected service too is about that one (a DHL mail in my Gmail).
        let table = crate::services::services();
        let missing_services = if table.named_in(text).iter().any(|&s| profiles.mentioned.contains(s)) {
            Vec::new()
        } else {
            table.acted_on_in(text).into_iter().filter(|&s| !profiles.mentioned.contains(s)).collect()
        };
        Analysis {
            content,
            known,
            action,
            families: families_seen,
            implied_read,
            object_words,
            named_servers,
            entity_kinds,
            missing_services,
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
    fn what_an_action_acts_on_ends_at_a_preposition() {
        let object = |text: &str| Analysis::new(text, &Profiles::default()).object_words;
        assert_eq!(object("roll back my heroku app to the previous release"), ["heroku", "app"]);
        assert_eq!(object("void invoice in_1Q2xYzAbC on stripe"), ["invoice"]);
        assert_eq!(object("delete that message in slack #general"), ["message"]);
        assert_eq!(object("delete the old build logs"), ["old", "build", "logs"]);
        assert_eq!(object("delete the file and tell Bob"), ["file"]);
        assert_eq!(object("approve and merge the gitlab merge request"), ["merge", "gitlab", "merge", "request"]);
    }
}
