//! What a request says, in the terms the scoring stage compares with tool profiles: its content terms
//! with their weights, its action, the words it acts on, and the services it names. Pure code, no I/O.

use std::collections::HashSet;

use toolscout_indexer::terms;

use crate::actions::{Action, families, words};
use crate::profile::{NOISE, Profiles, STOP, TermId};

/// One request (or one intent of it), analysed against a snapshot's profiles.
#[derive(Debug, Clone, Default)]
pub(crate) struct Analysis {
    /// Content terms (stemmed, no stop words, no noise, not the action verb), each with its weight and its
    /// id in the catalog vocabulary (`None`: the catalog never uses it).
    pub content: Vec<(String, Option<TermId>, f32)>,
    /// Every term id of the request that the catalog knows.
    pub known: HashSet<TermId>,
    /// The request's action, if a verb showed one.
    pub action: Option<Action>,
    /// The words after the action verb (for explanations): what the request acts on.
    pub object_words: Vec<String>,
    /// Servers the request names by their service words.
    pub named_servers: Vec<usize>,
}

impl Analysis {
    /// Analyses `text`.
    pub(crate) fn new(text: &str, profiles: &Profiles) -> Analysis {
        let table = families();
        let raw = words(text);
        let refs: Vec<&str> = raw.iter().map(String::as_str).collect();
        let action = table.first_action(&refs);
        let verb_terms: HashSet<String> = action.iter().flat_map(|a| terms(&a.verb)).collect();
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
            Some(a) => raw
                .iter()
                .skip(a.at + a.len)
                .filter(|w| !["a", "an", "the", "my", "that", "this", "our", "your", "some"].contains(&w.as_str()))
                .take(4)
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        let named_servers = profiles.named_servers(&known);
        Analysis { content, known, action, object_words, named_servers }
    }

    /// Total weight of the content terms.
    pub(crate) fn weight(&self) -> f32 {
        self.content.iter().map(|(_, _, w)| w).sum()
    }
}
