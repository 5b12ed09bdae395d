//! Lexical profiles of one snapshot: the stemmed terms of each tool's fields (name, description,
//! parameters, server), its action family and the object words of its name, plus the catalog's term
//! weights (IDF). Built once per loaded snapshot; the scoring stage reads them for every candidate.
//! Pure code, no I/O.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use toolscout_indexer::{Snapshot, split_name, terms};

use crate::actions::{Action, EffectClass, Family, families, words};

/// Words that name no capability in a catalog of MCP tools, stemmed (also never a server's "service
/// word").
pub(crate) const NOISE: [&str; 16] = [
    "mcp", "server", "api", "tool", "servic", "function", "client", "offici", "integr", "plugin", "ai", "the", "sdk",
    "js", "py", "node",
];

/// Words of a server's name that say how it is built or run, not what it serves, stemmed: never a
/// "service word". A language that is an everyday word too ("go" of `mcp-k8s-go`: "… so they go live"
/// names no server; "js", "py" and "node" are `NOISE`), and "remote" (`notion-remote` is named by "Notion").
const WRITTEN_IN: [&str; 2] = ["go", "remot"];

/// English function words and request fillers, stemmed as the analyzer stems them.
pub(crate) const STOP: [&str; 77] = [
    "a", "an", "the", "to", "of", "in", "on", "for", "with", "my", "me", "i", "you", "your", "pleas", "can", "could",
    "would", "should", "and", "or", "is", "are", "be", "been", "this", "that", "these", "those", "it", "from", "at",
    "by", "as", "all", "some", "what", "which", "how", "want", "need", "help", "use", "us", "we", "our", "do", "does",
    "did", "have", "has", "had", "will", "just", "now", "there", "here", "into", "about", "up", "so", "if", "then",
    "than", "also", "any", "it'", "i'm", "i'd", "let", "let'", "get", "like", "thank", "hey", "hi", "one",
];

/// A term id in a snapshot's vocabulary.
pub(crate) type TermId = u32;

/// A set of term ids, sorted: a few dozen per tool, where a sorted slice takes a fraction of a hash set's
/// memory (which at 100K tools, four sets each, is what a profile costs) and is as quick to ask.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TermSet(Box<[TermId]>);

impl TermSet {
    /// Whether `id` is in the set.
    pub(crate) fn contains(&self, id: &TermId) -> bool {
        self.0.binary_search(id).is_ok()
    }

    /// The ids, in increasing order.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, TermId> {
        self.0.iter()
    }
}

impl From<HashSet<TermId>> for TermSet {
    fn from(set: HashSet<TermId>) -> TermSet {
        let mut ids: Vec<TermId> = set.into_iter().collect();
        ids.sort_unstable();
        TermSet(ids.into_boxed_slice())
    }
}

/// What the scoring stage knows of one tool's words.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolProfile {
    /// Terms of the tool name (split) and title.
    pub name: TermSet,
    /// Terms of the description.
    pub description: TermSet,
    /// Terms of parameter names, descriptions and enum values.
    pub params: TermSet,
    /// The actions of its name: the reliable sign of what it does (most MCP tool names are verb_object).
    pub actions: Vec<Family>,
    /// The action its description opens with, if a verb there shows one ("Reserve tickets for a train"
    /// of `GetTrainTickets`): what a name's `get` may hide, or whether a name's `rewind` is what it does
    /// (`WebRewind`: "Get the past …"). Read only for a tool whose name shows reading actions only or
    /// irreversible actions only (none for the others), the two cases the guard asks about.
    pub described: Option<Family>,
    /// The kinds of entity its parameters take (`entities.rs`).
    pub entity_kinds: u8,
    /// Its name is written as an identifier (`create_invoice`, `finalizeInvoice`, `get-weread-rank`), not a
    /// product's name in capitals (`BookTool`, `RestaurantBookingTool`, `EmailByNylas`): a verb it shows is
    /// what it does, not a word of a product's name.
    pub identifier: bool,
    /// Terms of its name other than its verb, its server's words and noise: what it acts on. When its name
    /// has no other such term, its server's own words after its verb (`create_sheet` of Google Sheets:
    /// "sheet").
    pub object: Vec<TermId>,
    /// `object` is only its server's own words: the decision's features, fitted before such objects were
    /// read, see none.
    pub object_is_service: bool,
    /// The one thing its name says it acts on (`object_head`): "comment" of `add_issue_comment`, "issue" of
    /// `create_issue_from_template`.
    pub head: Option<TermId>,
    /// It runs whatever it is given (`Profiles::mark_runners`): its name shows the `run` family, on nothing
    /// or on what `RUNNABLE` names (`execute_sql`, `run_python_code`; not `run_container`).
    pub runs_given: bool,
    /// What it converts from and to, when its name says so (`docx-to-markdown`, `convert_md_to_pdf`: no
    /// action, or converting only, and a "to" between two words): the terms before and after the "to" (none
    /// before it for `convert_to_pdf`).
    pub converts: Option<Box<(Vec<TermId>, Vec<TermId>)>>,
    /// The compound nouns its name, title or description uses (`compounds::in_text`): a "heart rate" tool
    /// uses "rate" as a part of that.
    pub compounds: u64,
}

/// What a tool runs when it runs whatever it is given (`execute_sql`, `run_python_code`, `run_query`): such a
/// tool may serve any request, unlike one that runs a thing of its own (`run_container`, `run_workflow`).
#[rustfmt::skip]
const RUNNABLE: [&str; 14] = [
    "code", "script", "query", "sql", "command", "cmd", "shell", "python", "javascript", "snippet", "program",
    "expression", "statement", "bash",
];

/// What a tool's name acts on (`Profiles::name_object`).
struct NameObject {
    object: Vec<TermId>,
    head: Option<TermId>,
    object_is_service: bool,
}

impl ToolProfile {
    /// Whether the tool's name, description or parameters, or its server's words, use the term `id`.
    pub(crate) fn mentions(&self, server: &ServerProfile, id: &TermId) -> bool {
        self.name.contains(id) || self.description.contains(id) || self.params.contains(id) || server.terms.contains(id)
    }
}

/// What the scoring stage knows of one server's words.
#[derive(Debug, Clone, Default)]
pub(crate) struct ServerProfile {
    /// Terms of its name, title and description.
    pub terms: TermSet,
    /// The words that identify the service when a request names it (`stripe`, `github`): its name's
    /// terms minus noise. Empty when the name is only noise.
    pub service: Vec<TermId>,
    /// Other one-word names of the server, each naming it alone: its name written with inner capitals as
    /// people type it (`GitHub` → `github`, whose service words are `git hub`), and a known service's name
    /// inside a longer one (`gitlab-zereight` → `gitlab`).
    pub aliases: Vec<TermId>,
    /// Its name is made of ordinary words ("everything", "monday", "phone"): each is a whole word of the
    /// model's vocabulary, and none names a service of `services.txt`. Such a name in a request is more
    /// often the word than the server.
    pub ordinary: bool,
}

/// Profiles of every tool and server of a snapshot, and the catalog's term weights.
#[derive(Debug, Default)]
pub(crate) struct Profiles {
    vocab: HashMap<String, TermId>,
    texts: Vec<String>,
    idf: Vec<f32>,
    /// Per tool, by snapshot index.
    pub tools: Vec<ToolProfile>,
    /// Per server, by snapshot index.
    pub servers: Vec<ServerProfile>,
    /// Service word → servers it is the first service word of.
    service_index: HashMap<TermId, Vec<usize>>,
    /// Every lowercase word of the catalog's names, descriptions and parameters, with its count: the
    /// dictionary misspelled request words are corrected against.
    words: HashMap<String, u32>,
    /// Words the model knows (its tokenizer's whole words): a request word among them is a word of the
    /// language, not a misspelling, though no tool uses it ("saying", "funds"), and is not respelled.
    pub(crate) known_words: std::collections::HashSet<String>,
    /// The services of `services.txt` the catalog mentions anywhere.
    pub mentioned: crate::services::Mentioned,
}

impl Profiles {
    /// Profiles of `snap`; `known_words`: the words the model knows (its tokenizer's whole words).
    pub(crate) fn new(snap: &Snapshot, known_words: HashSet<String>) -> Profiles {
        let mut p = Profiles { known_words, ..Profiles::default() };
        let mut df: Vec<u32> = Vec::new();
        for s in &snap.servers {
            let mut all = String::new();
            for part in [Some(split_name(&s.name)), s.title.clone(), s.description.clone()].into_iter().flatten() {
                all.push_str(&part);
                all.push('\n');
            }
            p.mentioned.scan(&all);
            p.mentioned.scan_name(&s.name);
            let terms_set = p.intern_all(&all);
            let mut service: Vec<TermId> = p
                .intern_all_ordered(&split_name(&s.name))
                .into_iter()
                .filter(|&t| !NOISE.contains(&p.term(t)) && !WRITTEN_IN.contains(&p.term(t)) && p.term(t).len() >= 2)
                .collect();
            // A name whose words are noise and function words only (`ServiceNow`: "now") names no service by
            // them: "kick off the DAG now" does not name ServiceNow. Its alias (`servicenow`) still does.
            if service.iter().all(|&t| STOP.contains(&p.term(t))) {
                service.clear();
            }
            // The other names `services.txt` gives a service (`PostgreSQL` → `postgres`) are not aliases:
            // measured and left out (BENCHMARKS.md, 2026-12-01 fifth).
            let mut aliases: Vec<TermId> = Vec::new();
            for name in alias_names(&s.name, service.len()) {
                if let [term] = p.intern_all_ordered(&name)[..]
                    && !aliases.contains(&term)
                {
                    aliases.push(term);
                }
            }
            let ordinary = ordinary_name(&s.name, &p.known_words);
            p.servers.push(ServerProfile { terms: terms_set.into(), service, aliases, ordinary });
        }
        for s in &snap.servers {
            for w in words(&format!("{} {}", split_name(&s.name), s.description.as_deref().unwrap_or(""))) {
                if w.len() >= 3 && w.chars().all(|c| c.is_ascii_alphabetic()) {
                    *p.words.entry(w).or_default() += 1;
                }
            }
        }
        for (si, s) in p.servers.iter().enumerate() {
            if let Some(&first) = s.service.first() {
                p.service_index.entry(first).or_default().push(si);
            }
            for &alias in &s.aliases {
                if s.service.first() != Some(&alias) {
                    p.service_index.entry(alias).or_default().push(si);
                }
            }
        }
        let table = families();
        for (i, t) in snap.tools.iter().enumerate() {
            let object: Value = serde_json::from_str(snap.tool_json(i)).unwrap_or(Value::Null);
            let description = object.get("description").and_then(Value::as_str).unwrap_or("");
            let title = object.get("title").and_then(Value::as_str).unwrap_or("");
            let name_words = split_name(&t.name);
            let name = p.intern_all(&format!("{name_words} {title}"));
            let description_terms = p.intern_all(description);
            let params = p.intern_all(&params_text(object.get("inputSchema")));
            let name_list: Vec<String> = words(&name_words);
            let refs: Vec<&str> = name_list.iter().map(String::as_str).collect();
            let name_actions = method_actions(table, &t.name, &refs);
            let mut actions: Vec<Family> = name_actions.iter().map(|a| a.family).collect();
            actions.dedup();
            for f in coordinated_actions(table, description, &actions) {
                if !actions.contains(&f) {
                    actions.push(f);
                }
            }
            let param_names = object
                .pointer("/inputSchema/properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().map(String::as_str).collect::<Vec<_>>())
                .unwrap_or_default();
            let entity_kinds = crate::entities::in_parameters(param_names);
            let owner = &p.servers[t.server as usize];
            let service: HashSet<TermId> = owner.service.iter().chain(&owner.aliases).copied().collect();
            let NameObject { object: object_terms, head, object_is_service } =
                p.name_object(&name_words, &name_list, &name_actions, &service);
            let server_terms = &p.servers[t.server as usize].terms;
            for id in
                name.iter().chain(&description_terms).chain(&params).chain(server_terms.iter()).collect::<HashSet<_>>()
            {
                let i = *id as usize;
                if df.len() <= i {
                    df.resize(i + 1, 0);
                }
                df[i] += 1;
            }
            let text = format!("{name_words} {title} {description} {}", params_text(object.get("inputSchema")));
            p.mentioned.scan(&text);
            p.mentioned.scan_name(&t.name);
            for w in words(&text) {
                if w.len() >= 3 && w.chars().all(|c| c.is_ascii_alphabetic()) {
                    *p.words.entry(w).or_default() += 1;
                }
            }
            // Read only where the guard asks for it (a name that shows no action, or reading or irreversible
            // actions only):
            // at start-up, for every tool of the catalog.
            let only = |class: EffectClass| !actions.is_empty() && actions.iter().all(|&f| table.class(f) == class);
            let described = if actions.is_empty() || only(EffectClass::Read) || only(EffectClass::Irreversible) {
                let first_sentence: String = description.split(". ").next().unwrap_or("").chars().take(200).collect();
                crate::actions::request_actions(table, &first_sentence).first().map(|a| a.family)
            } else {
                None
            };
            let identifier =
                t.name.contains(['_', '-', '.']) || t.name.chars().next().is_some_and(|c| c.is_lowercase());
            let converting = actions.iter().all(|&f| table.name(f) == "convert");
            let converts = name_list.iter().position(|w| w == "to").filter(|&at| converting && at > 0).and_then(|at| {
                let from = name_actions.first().map_or(0, |a| if a.at < at { a.at + a.len } else { 0 });
                let ids = |words: &[String]| -> Vec<TermId> {
                    words.iter().flat_map(|w| terms(w)).filter_map(|t| p.id(&t)).collect()
                };
                let (source, target) = (ids(&name_list[from..at]), ids(&name_list[at + 1..]));
                (!target.is_empty()).then(|| Box::new((source, target)))
            });
            p.tools.push(ToolProfile {
                described,
                identifier,
                name: name.into(),
                description: description_terms.into(),
                params: params.into(),
                actions,
                entity_kinds,
                object: object_terms,
                object_is_service,
                head,
                runs_given: false,
                converts,
                compounds: crate::compounds::in_text(&format!("{name_words} {title}. {description}")),
            });
        }
        let n = snap.tools.len().max(1) as f32;
        df.resize(p.texts.len(), 0);
        p.idf = df.iter().map(|&d| (1.0 + n / (d as f32 + 1.0)).ln()).collect();
        p.mark_runners();
        p.alias_first_words(snap);
        p
    }

    /// Makes the first word of a server's name of several words an alias of it when the model does not know
    /// that word and nothing else of the catalog uses it — no other server's name, title or description, no
    /// other server's tool: "in vectra" names `vectra-ai-rux-mcp-server`, "my npm package" `NPM Sentinel
    /// MCP`; "crypto" does not name `crypto-feargreed-mcp`, other servers' tools use it. A name written as
    /// one word with capitals inside (`EduBase`) has its alias already (`alias_names`).
    fn alias_first_words(&mut self, snap: &Snapshot) {
        let mut candidates: HashMap<TermId, usize> = HashMap::new();
        for (si, s) in self.servers.iter().enumerate() {
            let Some(&first) = s.service.first().filter(|_| s.service.len() > 1) else { continue };
            let name = &snap.servers[si].name;
            let written =
                words(&split_name(name)).into_iter().find(|w| terms(w).first().and_then(|t| self.id(t)) == Some(first));
            let unknown = written.is_some_and(|w| {
                w.len() >= 3 && w.chars().all(|c| c.is_ascii_alphabetic()) && !self.known_words.contains(&w)
            });
            if unknown && joined_name(name).is_none() && !s.aliases.contains(&first) {
                candidates.insert(first, si);
            }
        }
        let mut used_elsewhere: HashSet<TermId> = HashSet::new();
        for (si, s) in self.servers.iter().enumerate() {
            used_elsewhere.extend(s.terms.iter().filter(|t| candidates.get(t).is_some_and(|&owner| owner != si)));
        }
        for (t, tool) in self.tools.iter().zip(&snap.tools) {
            let si = tool.server as usize;
            for id in t.name.iter().chain(t.description.iter()) {
                if candidates.get(id).is_some_and(|&owner| owner != si) {
                    used_elsewhere.insert(*id);
                }
            }
        }
        for (first, si) in candidates {
            if !used_elsewhere.contains(&first) {
                self.servers[si].aliases.push(first);
            }
        }
    }

    /// Sets `ToolProfile::runs_given` of every tool, once its words are all known.
    pub(crate) fn mark_runners(&mut self) {
        let table = families();
        let runnable: Vec<TermId> = RUNNABLE.iter().flat_map(|w| terms(w)).filter_map(|t| self.id(&t)).collect();
        for t in &mut self.tools {
            t.runs_given = t.actions.iter().any(|&f| table.name(f) == "run")
                && (t.object.is_empty() || t.object.iter().any(|o| runnable.contains(o)));
        }
    }

    pub(crate) fn intern(&mut self, term: &str) -> TermId {
        if let Some(&id) = self.vocab.get(term) {
            return id;
        }
        let id = self.texts.len() as TermId;
        self.vocab.insert(term.to_string(), id);
        self.texts.push(term.to_string());
        id
    }

    fn intern_all(&mut self, text: &str) -> HashSet<TermId> {
        terms(text).iter().map(|t| self.intern(t)).collect()
    }

    /// What a tool's name acts on (`name_words` as `split_name` gives them, `list` their words, `actions`
    /// the actions they show), leaving out the words of its server's service (`service`).
    fn name_object(
        &mut self,
        name_words: &str,
        list: &[String],
        actions: &[Action],
        service: &HashSet<TermId>,
    ) -> NameObject {
        let verb_terms: HashSet<String> = actions.iter().flat_map(|a| terms(&a.verb)).collect();
        // In a tool's name "node" is a thing (`get_nodes`, `update_node`), not the runtime a server is built on.
        let names_a_thing_but_service = |w: &str| {
            (w == "node" || !NOISE.contains(&w))
                && !STOP.contains(&w)
                && w.len() >= 2
                && !w.chars().all(|c| c.is_ascii_digit())
        };
        let names_a_thing = |id: TermId, w: &str| !service.contains(&id) && names_a_thing_but_service(w);
        let object: Vec<TermId> = self
            .intern_all_ordered(name_words)
            .into_iter()
            .filter(|&id| names_a_thing(id, self.term(id)) && !verb_terms.contains(self.term(id)))
            .collect();
        let head = object_head(list, actions.first(), |w| self.id(w).filter(|&id| names_a_thing(id, w)));
        // The server's own word after its verb is what a tool acts on when its name names nothing else:
        // `create_sheet` of Google Sheets makes a sheet (`notion_search`: a word before the verb names no thing).
        if object.is_empty()
            && let Some(first) = actions.first()
        {
            let with_service = |id: TermId, w: &str| service.contains(&id) && names_a_thing_but_service(w);
            let after = list[(first.at + first.len).min(list.len())..].join(" ");
            let own: Vec<TermId> = self
                .intern_all_ordered(&after)
                .into_iter()
                .filter(|&id| with_service(id, self.term(id)) && !verb_terms.contains(self.term(id)))
                .collect();
            if !own.is_empty() {
                let head = object_head(list, Some(first), |w| self.id(w).filter(|&id| with_service(id, w)));
                return NameObject { object: own, head, object_is_service: true };
            }
        }
        NameObject { object, head, object_is_service: false }
    }

    fn intern_all_ordered(&mut self, text: &str) -> Vec<TermId> {
        let mut seen = HashSet::new();
        terms(text).iter().map(|t| self.intern(t)).filter(|t| seen.insert(*t)).collect()
    }

    /// The text of term `id`.
    pub(crate) fn term(&self, id: TermId) -> &str {
        self.texts.get(id as usize).map(String::as_str).unwrap_or("")
    }

    /// The id of a term, when the catalog has it.
    pub(crate) fn id(&self, term: &str) -> Option<TermId> {
        self.vocab.get(term).copied()
    }

    /// The weight of a term (a term the catalog lacks weighs as the rarest).
    pub(crate) fn idf(&self, id: Option<TermId>) -> f32 {
        match id {
            Some(i) => self.idf.get(i as usize).copied().unwrap_or(0.0),
            None => self.idf.iter().copied().fold(0.0, f32::max),
        }
    }

    /// `text` with each word the catalog never uses replaced by the catalog word closest to it in spelling
    /// (one edit, for words of five letters or more), when there is one; `None` when nothing changed.
    /// "serch wikipeda" becomes "search wikipedia". A request in another language is left as it is: its
    /// words are not misspellings of the catalog's ("demain" is not "domain").
    pub(crate) fn respell(&self, text: &str) -> Option<String> {
        if crate::language::foreign(text) {
            return None;
        }
        let names = names_in(text);
        crate::expand::replace_words(
            text,
            |c| c.is_ascii_alphabetic(),
            |word| {
                if names.contains(word) { None } else { self.correction(word) }
            },
        )
    }

    /// The catalog word `word` is most likely a misspelling of (none for a word the model knows).
    fn correction(&self, word: &str) -> Option<&str> {
        let lower = word.to_lowercase();
        if self.known_words.contains(&lower) || self.made_of_known(&lower) {
            return None;
        }
        closest_word(&self.words, word)
    }

    /// Whether `word` (lowercase) is a word the model knows with an ending added ("heater": heat) or joined
    /// to a particle ("login": log in, "signup"): English, though the model's tokenizer has no whole word
    /// for it, so no misspelling of a catalog word ("header", "logic").
    fn made_of_known(&self, word: &str) -> bool {
        const ENDINGS: [&str; 10] = ["er", "ers", "ing", "ed", "s", "es", "in", "up", "out", "on"];
        ENDINGS.iter().any(|e| {
            word.strip_suffix(e).is_some_and(|stem| stem.chars().count() >= 3 && self.known_words.contains(stem))
        })
    }

    /// Servers whose service words all occur among `query_terms`.
    pub(crate) fn named_servers(&self, query_terms: &HashSet<TermId>) -> Vec<usize> {
        let mut out = Vec::new();
        for t in query_terms {
            for &s in self.service_index.get(t).into_iter().flatten() {
                let server = &self.servers[s];
                let named = server.service.iter().all(|w| query_terms.contains(w))
                    || server.aliases.iter().any(|a| query_terms.contains(a));
                if named && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// Words written as names: capitalized (or all capitals) where no sentence starts ("any Phoebe
/// *Bridgers* shows", "from Amsterdam *Centraal*"). A name the model does not know is not a misspelling of a
/// catalog word ("bridges", "central").
fn names_in(text: &str) -> HashSet<&str> {
    let mut out = HashSet::new();
    let mut starts_sentence = true;
    for token in text.split_whitespace() {
        let word = token.trim_start_matches(|c: char| !c.is_alphanumeric());
        if !starts_sentence && word.chars().next().is_some_and(char::is_uppercase) {
            out.extend(word.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty()));
        }
        let end = token.trim_end_matches(['"', '\'', ')', ']', '»', '”', '’']);
        starts_sentence = end.ends_with(['.', '!', '?', ':']);
    }
    out
}

/// The word of `words` (catalog words with their counts) that `word` is most likely a misspelling of:
/// one edit away (two letters swapped count as one: "mermiad" is "mermaid"), same first letter, the most
/// frequent; none for words of under five letters, words the catalog has (or has the plural of), and
/// function words. A plural of the catalog also offers its singular ("relaton" is "relation" where the
/// catalog has "relations").
fn closest_word<'a>(words: &'a HashMap<String, u32>, word: &str) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let len = lower.chars().count();
    let plural_known = || words.contains_key(&format!("{lower}s"));
    if len < 5 || words.contains_key(&lower) || STOP.contains(&lower.as_str()) || plural_known() {
        return None;
    }
    let max = 1;
    let first = lower.chars().next()?;
    let singular = |w: &'a str| w.strip_suffix('s').filter(|s| s.len() >= 4 && !s.ends_with(['s', 'u', 'i']));
    // Typos rarely change the first letter; requiring it keeps "Wetter" from becoming "letter".
    words
        .iter()
        .flat_map(|(w, &n)| std::iter::once(w.as_str()).chain(singular(w.as_str())).map(move |w| (w, n)))
        .filter(|(w, _)| w.len().abs_diff(lower.len()) <= max && w.starts_with(first))
        // A typo of a function word changes no search; one that looks like a function word is more
        // likely a content word ("wether" → "weather", not "whether").
        .filter(|(w, _)| !crate::language::english_function_word(w))
        // A catalog word with an ending added is the same word inflected or derived ("renders", "headings",
        // "router"), not a typo of it: stemming already matches what can match.
        .filter(|(w, _)| !lower.starts_with(w))
        .map(|(w, n)| (strsim::osa_distance(w, &lower), n, w))
        .filter(|&(d, _, _)| (1..=max).contains(&d))
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)))
        .map(|(_, _, w)| w)
}

/// The one-word names that name a server alone (see [`ServerProfile::aliases`]): its one-word name typed
/// whole, and a known service's name inside a longer name (when it has more than one service word).
fn alias_names(name: &str, service_words: usize) -> Vec<String> {
    let mut out: Vec<String> = joined_name(name).into_iter().collect();
    if service_words > 1 {
        for w in words(name) {
            if crate::services::services().names_service(&w) && !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// Whether the server name `name` is made of ordinary words: each word of it (noise aside) is a whole
/// word the model knows, none names a service of the table or a maker of several (`microsoft-learn`), as
/// split or as written (`YouTube Transcript Server`: "you tube" are ordinary words, "YouTube" names a
/// service), it is not one word with a capital inside (`GitHub`, `YouTube`), and it is not a domain name
/// (`Data.gov`, `booking.com`).
fn ordinary_name(name: &str, known_words: &HashSet<String>) -> bool {
    let table = crate::services::services();
    let split = split_name(name);
    let all = words(&split);
    let kept: Vec<&String> = all.iter().filter(|w| !terms(w).iter().all(|t| NOISE.contains(&t.as_str()))).collect();
    !kept.is_empty()
        && joined_name(name).is_none()
        && !domain_name(name)
        && !table.names_service(name)
        && !name.split(|c: char| !c.is_alphanumeric()).any(|w| !w.is_empty() && table.names_service(w))
        && kept.iter().all(|w| known_words.contains(w.as_str()) && !table.names_service(w) && !table.is_maker(w))
}

/// Whether `name` has a word that is a domain name: letters, a dot, and letters (`Data.gov`, `booking.com`).
fn domain_name(name: &str) -> bool {
    name.split_whitespace().any(|w| {
        let parts: Vec<&str> = w.split('.').collect();
        parts.len() > 1
            && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
    })
}

/// `GitHub` → `github`: a server name of one word with a capital inside it, lowercased whole (`None` for
/// other names: `github-actions`, `Stripe`, `MCP Weather`).
fn joined_name(name: &str) -> Option<String> {
    let word = name.trim();
    let inner_capital = word.chars().skip(1).any(char::is_uppercase) && word.chars().any(char::is_lowercase);
    (inner_capital && word.chars().all(|c| c.is_ascii_alphabetic())).then(|| word.to_lowercase())
}

/// `name words: description enum values` of the top-level properties of an input schema.
fn params_text(schema: Option<&Value>) -> String {
    let Some(props) = schema.and_then(|s| s.get("properties")).and_then(Value::as_object) else {
        return String::new();
    };
    let mut out = String::new();
    for (name, prop) in props {
        out.push_str(&split_name(name));
        out.push(' ');
        if let Some(d) = prop.get("description").and_then(Value::as_str) {
            out.extend(d.chars().take(160));
            out.push(' ');
        }
        for v in prop.get("enum").and_then(Value::as_array).into_iter().flatten().take(20) {
            if let Some(s) = v.as_str() {
                out.push_str(s);
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out
}

/// Agent nouns of tool names and the verbs they stand for. Only these: most "-er" words of tool names
/// are things ("player", "poster", "order", "user", "monitor", "manager"), not what the tool does.
const AGENT_NOUNS: [(&str, &str); 22] = [
    ("searcher", "search"),
    ("splitter", "split"),
    ("merger", "merge"),
    ("getter", "get"),
    ("fetcher", "fetch"),
    ("finder", "find"),
    ("reader", "read"),
    ("lister", "list"),
    ("creator", "create"),
    ("updater", "update"),
    ("deleter", "delete"),
    ("remover", "remove"),
    ("sender", "send"),
    ("uploader", "upload"),
    ("downloader", "download"),
    ("converter", "convert"),
    ("translator", "translate"),
    ("summarizer", "summarize"),
    ("extractor", "extract"),
    ("scraper", "scrape"),
    ("validator", "validate"),
    ("generator", "generate"),
];

/// The actions of a tool's name (`words`: its words as `words(split_name(name))` gives them): those of
/// its last dot-separated part when that shows one, else those of the whole name. In a dotted name the
/// last part is the method, what the tool does, and the parts before it its module and class:
/// `releases_api.ReleasesApi.delete_release` deletes a release, though "releases" comes first.
fn method_actions(table: &crate::actions::Families, name: &str, words: &[&str]) -> Vec<Action> {
    // An agent noun names what the tool does (`trial_searcher` searches, `netlify-project-services-updater`
    // updates): read as its verb, in place. The action keeps the word as written, so the name's object
    // leaves it out as it leaves out a verb.
    let verbs: Vec<&str> =
        words.iter().map(|w| AGENT_NOUNS.iter().find(|(noun, _)| noun == w).map_or(*w, |&(_, verb)| verb)).collect();
    let as_written = |a: Action, start: usize| {
        let at = a.at + start;
        Action { verb: words[at..at + a.len].join(" "), at, ..a }
    };
    let method = name.rsplit_once('.').map(|(_, last)| crate::actions::words(&split_name(last)).len());
    if let Some(len) = method.filter(|&len| len > 0 && len < words.len()) {
        let start = words.len() - len;
        let found: Vec<Action> =
            name_actions(table, &verbs[start..]).into_iter().map(|a| as_written(a, start)).collect();
        if !found.is_empty() {
            return found;
        }
    }
    name_actions(table, &verbs).into_iter().map(|a| as_written(a, 0)).collect()
}

/// How many words of a description [`coordinated_actions`] reads: room for four verbs joined by "or" / "and".
const OPENING: usize = 12;

/// The other actions a tool's description opens by joining to its name's: "Move or rename files and
/// directories" of `move_file` renames too, "Create or update a file" of `create_file` updates. Only verbs at
/// the very start of the first sentence, the first of them one of the name's actions and each next one
/// right after "or" or "and" (or both, "and/or"): a later verb is what it is about, not what it does, and a
/// verb right after another may be its object ("Run query against …").
fn coordinated_actions(table: &crate::actions::Families, description: &str, name: &[Family]) -> Vec<Family> {
    // Verbs joined at the start: its first words are all that is read (a first sentence may be 2,000
    // characters long, and this runs for every tool of the catalog at load).
    let opening: Vec<&str> = description.split(". ").next().unwrap_or("").split_whitespace().take(OPENING).collect();
    let words = crate::actions::words(&opening.join(" "));
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let found = table.actions(&refs);
    let mut out = Vec::new();
    let Some(first) = found.first().filter(|a| a.at == 0 && name.contains(&a.family)) else {
        return out;
    };
    let mut next = first.at + first.len;
    for a in &found[1..] {
        let between = &refs[next..a.at];
        if between.is_empty() || between.len() > 2 || !between.iter().all(|w| matches!(*w, "or" | "and")) {
            break;
        }
        out.push(a.family);
        next = a.at + a.len;
    }
    out
}

/// Verbs of the table that a tool's name uses as nouns: `text_diff` compares texts, `text-search` searches
/// them; no tool of the crawled catalogs texts anyone. `browser_snapshot` reads the page's accessibility
/// snapshot, `list_snapshots` lists them: a request snapshots a database, a name names one.
const NOT_VERBS_IN_NAMES: [&str; 3] = ["text", "snapshot", "snapshots"];

/// The actions a tool's name shows, from its words. A later verb is a noun, what the first acts on
/// ("order" of `cancel_order`, "message" of `get_message`), unless a conjunction leads to it
/// (`get_or_create_user`, `search_and_replace`) or the first verb makes it, it is another action that does
/// not only read and it ends what is made: making a refund refunds (`create_refund`, `create_message`),
/// but a build is what `create_build` makes, a text channel what `create_text_channel` makes, and making a
/// list does not list (`create_list`, `create_view`, `create_review`).
fn name_actions(table: &crate::actions::Families, words: &[&str]) -> Vec<Action> {
    let mut all = table.actions(words);
    all.retain(|a| !NOT_VERBS_IN_NAMES.contains(&a.verb.as_str()));
    let first = all.first().map(|a| a.family);
    let makes = first.is_some_and(|f| table.name(f) == "create");
    let after_first = all.first().map_or(0, |a| a.at + a.len);
    all.into_iter()
        .enumerate()
        .filter(|(i, a)| {
            // What a making verb makes may be named by another verb right after it, when nothing but a
            // preposition follows (`create_refund`, `create_refund_for_order`; not `create_text_channel`: a
            // text channel, nor the order of `create_refund_for_order`).
            let ends = words.get(a.at + a.len).is_none_or(|w| crate::analysis::PREPOSITIONS.contains(w));
            *i == 0
                || (makes
                    && a.at == after_first
                    && ends
                    && Some(a.family) != first
                    && table.class(a.family) != crate::actions::EffectClass::Read)
                || (a.at > 0 && ["and", "or", "then"].contains(&words[a.at - 1]))
        })
        .map(|(_, a)| a)
        .collect()
}

/// The one thing a tool's name says it acts on: the last word of what follows its first verb, up to a
/// preposition or a conjunction (or, when nothing follows the verb, of what precedes it: `issue_create`).
/// In English the last noun of a compound is its head: `add_issue_comment` adds a comment (to an issue),
/// `create_pull_request_review` a review, `create_issue_from_template` an issue. A later word that is also a
/// verb is read as a noun here ("comment", "review"). `keep` gives a word's term when it can name a thing
/// (not the server's word, noise, a function word or a number). `None` when no word qualifies.
fn object_head(name_words: &[String], first: Option<&Action>, keep: impl Fn(&str) -> Option<TermId>) -> Option<TermId> {
    let last = |span: &[String]| span.iter().flat_map(|w| terms(w)).filter_map(|t| keep(&t)).last();
    let to_preposition = |span: &[String]| {
        let ends = |w: &String| crate::analysis::PREPOSITIONS.contains(&w.as_str()) || w == "and" || w == "or";
        last(&span[..span.iter().position(ends).unwrap_or(span.len())])
    };
    match first {
        Some(a) => {
            let (at, after) = (a.at.min(name_words.len()), (a.at + a.len).min(name_words.len()));
            to_preposition(&name_words[after..]).or_else(|| last(&name_words[..at]))
        }
        None => to_preposition(name_words),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::{
        Profiles, TermId, alias_names, closest_word, coordinated_actions, families, joined_name, method_actions,
        name_actions, object_head, ordinary_name, split_name, words,
    };

    #[test]
    fn a_description_that_joins_verbs_to_the_names_adds_their_actions() {
        let table = crate::actions::families();
        let adds = |name: &str, description: &str| {
            let words = name_words(name);
            let own: Vec<_> = name_actions(table, &refs(&words)).iter().map(|a| a.family).collect();
            coordinated_actions(table, description, &own).iter().map(|&f| table.name(f)).collect::<Vec<_>>()
        };
        assert_eq!(
            adds("move_file", "Move or rename files and directories. Can move files between directories"),
            ["update"]
        );
        assert_eq!(adds("create_file", "Create or update a single file in a repository"), ["update"]);
        assert_eq!(adds("get_item", "Get and delete items"), ["delete"], "and joins too");
        assert_eq!(adds("get_item", "Get and/or delete items"), ["delete"]);
        assert_eq!(adds("move_file", "Rename or move files"), Vec::<&str>::new(), "the first verb is not the name's");
        assert_eq!(adds("run_query", "Run query against the database"), Vec::<&str>::new(), "no conjunction: a noun");
        assert_eq!(adds("move_file", "Move. Or rename, with rename_file"), Vec::<&str>::new(), "first sentence only");
        assert_eq!(
            adds("list_files", "List files and directories, or delete one"),
            Vec::<&str>::new(),
            "nouns between"
        );
    }

    #[test]
    fn the_head_of_a_name_is_the_last_thing_before_a_preposition() {
        let head = |name: &str| {
            let words = crate::actions::words(&toolscout_indexer::split_name(name));
            let refs: Vec<&str> = words.iter().map(String::as_str).collect();
            let first = crate::actions::families().actions(&refs).into_iter().next();
            let terms: Vec<String> = words.iter().flat_map(|w| toolscout_indexer::terms(w)).collect();
            // A word's term id is its place in the name; the server's word ("github") names nothing.
            let keep = |w: &str| (w != "github").then(|| terms.iter().position(|t| t == w).map(|i| i as u32)).flatten();
            object_head(&words, first.as_ref(), keep).map(|i| terms[i as usize].clone())
        };
        assert_eq!(head("add_issue_comment").as_deref(), Some("comment"), "a verb after the object is a noun");
        assert_eq!(head("createPullRequestReview").as_deref(), Some("review"));
        assert_eq!(head("create_issue_from_template").as_deref(), Some("issu"), "up to a preposition");
        assert_eq!(head("add_user_to_group").as_deref(), Some("user"));
        assert_eq!(head("issue_create").as_deref(), Some("issu"), "nothing after the verb: what precedes it");
        assert_eq!(head("github_create_issue").as_deref(), Some("issu"));
        assert_eq!(head("search_and_replace").as_deref(), None, "nothing before a conjunction");
        assert_eq!(head("weather").as_deref(), Some("weather"), "no verb: the whole name");
    }

    /// A tool name's words, as the profile reads them.
    fn name_words(name: &str) -> Vec<String> {
        words(&split_name(name))
    }

    fn refs(words: &[String]) -> Vec<&str> {
        words.iter().map(String::as_str).collect()
    }

    #[test]
    fn a_later_verb_of_a_name_is_what_the_first_acts_on() {
        let table = crate::actions::families();
        let shows = |name: &str| {
            let words = name_words(name);
            name_actions(table, &refs(&words)).iter().map(|a| table.name(a.family)).collect::<Vec<_>>()
        };
        assert_eq!(shows("cancel_order"), ["cancel"], "an order is what is cancelled, not a purchase");
        assert_eq!(shows("get_message"), ["get"]);
        assert_eq!(shows("get_or_create_user"), ["get", "create"], "a conjunction leads to a verb");
        assert_eq!(shows("search_and_replace"), ["search", "update"]);
        assert_eq!(shows("create_refund"), ["create", "refund"], "making a refund refunds");
        assert_eq!(shows("create_build"), ["create"], "a build is what is made");
        assert_eq!(shows("create_text_channel"), ["create"], "a verb before a noun qualifies it");
        assert_eq!(shows("create_refund_for_order"), ["create", "refund"]);
        assert_eq!(shows("create_list"), ["create"], "making a list does not list");
        assert_eq!(shows("create_list_in_folder"), ["create"]);
        assert_eq!(shows("zpa_bulk_delete_app_connectors"), ["delete"], "the first verb need not come first");
        assert_eq!(shows("text_diff"), ["compare"], "a text is what is compared");
        assert_eq!(shows("text-search"), ["search"]);
        assert!(shows("text_splitter").is_empty(), "no tool texts anyone");
        assert!(shows("browser_snapshot").is_empty(), "a snapshot is what the page is read as");
        assert_eq!(shows("create_snapshot"), ["create"]);
    }

    #[test]
    fn a_dotted_name_does_what_its_last_part_says() {
        let table = crate::actions::families();
        let shows = |name: &str| {
            let words = name_words(name);
            method_actions(table, name, &refs(&words)).iter().map(|a| (table.name(a.family), a.at)).collect::<Vec<_>>()
        };
        assert_eq!(shows("releases_api.ReleasesApi.delete_release"), [("delete", 4)], "the module is no verb");
        assert_eq!(shows("project_api.ProjectApi.update_project"), [("update", 4)]);
        assert_eq!(shows("requests.get"), [("get", 1)]);
        assert_eq!(shows("uber.ride"), [], "a method that shows no verb: the whole name, which shows none");
        assert_eq!(shows("exports.summary"), [("download", 0)], "no verb in the method: the whole name");
        assert_eq!(shows("delete_release"), [("delete", 0)], "no dot: the whole name");
        assert_eq!(shows("trial_searcher"), [("search", 1)], "an agent noun does what its verb says");
        assert_eq!(shows("netlify-project-services-updater"), [("update", 3)]);
        assert_eq!(shows("get_player_stats"), [("get", 0)], "a player is a thing");
        assert_eq!(shows("pdf_splitter"), [("split", 1)]);
        let mut p = Profiles::default();
        let words = name_words("trial_searcher");
        let actions = method_actions(families(), "trial_searcher", &refs(&words));
        assert_eq!(actions[0].verb, "searcher", "as written");
        let o = p.name_object(&split_name("trial_searcher"), &words, &actions, &HashSet::new());
        assert_eq!(
            o.object.iter().map(|&i| p.term(i).to_string()).collect::<Vec<_>>(),
            ["trial"],
            "the noun is its verb"
        );
    }

    #[test]
    fn a_name_acts_on_its_server_s_word_after_its_verb_only_when_it_names_nothing_else() {
        let mut p = Profiles::default();
        let sheet = p.intern("sheet");
        let notion = p.intern("notion");
        let kubectl = p.intern("kubectl");
        let mut object = |name: &str, service: TermId| {
            let name_words = split_name(name);
            let list = words(&name_words);
            let refs: Vec<&str> = list.iter().map(String::as_str).collect();
            let actions = name_actions(families(), &refs);
            let o = p.name_object(&name_words, &list, &actions, &HashSet::from([service]));
            let named = |ids: &[TermId]| ids.iter().map(|&i| p.term(i).to_string()).collect::<Vec<_>>();
            (named(&o.object), o.head.map(|h| p.term(h).to_string()), o.object_is_service)
        };
        assert_eq!(object("create_sheet", sheet), (vec!["sheet".into()], Some("sheet".into()), true));
        assert_eq!(object("create_row", sheet), (vec!["row".into()], Some("row".into()), false));
        assert_eq!(object("notion_search", notion), (vec![], None, false), "a prefix names no thing");
        assert_eq!(
            object("get_nodes", kubectl),
            (vec!["node".into()], Some("node".into()), false),
            "a node is a thing"
        );
    }

    #[test]
    fn a_server_is_named_by_the_service_in_its_name() {
        assert_eq!(alias_names("GitHub", 2), ["github"]);
        assert_eq!(alias_names("gitlab-zereight", 2), ["gitlab"]);
        assert_eq!(alias_names("github-ref", 2), ["github"]);
        assert!(alias_names("weather-dangahagan", 2).is_empty(), "weather names no service");
        assert!(alias_names("stripe", 1).is_empty(), "its own service word names it already");
    }

    /// The servers of a catalog of `servers` (name, tool, tool description) that `text` names, joined by
    /// commas, with `known` as the model's words.
    fn names_in_catalog(servers: &[(&str, &str, &str)], known: &[&str]) -> impl Fn(&str) -> String {
        let dir = tempfile::tempdir().expect("tempdir");
        let catalog = dir.path().join("catalog.jsonl");
        let lines: Vec<String> = servers
            .iter()
            .map(|(name, tool, description)| {
                format!(
                    r#"{{"name": "{name}", "description": "", "summary": "", "tools": [{{"name": "{tool}", "description": "{description}", "parameter": {{}}}}]}}"#
                )
            })
            .collect();
        std::fs::write(&catalog, lines.join("\n") + "\n").expect("writes");
        let embedder = toolscout_test_support::hash_embedder();
        let index = toolscout_test_support::index_of(&catalog, &dir.path().join("index"), embedder.as_ref());
        let snap = toolscout_indexer::Snapshot::open(&toolscout_indexer::IndexDir::new(&index)).expect("snapshot");
        let p = Profiles::new(&snap, known.iter().map(|w| w.to_string()).collect());
        move |text: &str| {
            let _dir = &dir;
            let names: Vec<&str> = crate::analysis::Analysis::new(text, &p)
                .named_servers
                .iter()
                .map(|&s| snap.servers[s].name.as_str())
                .collect();
            names.join(",")
        }
    }

    #[test]
    fn a_name_of_function_words_names_its_server_by_its_alias_alone() {
        let named = names_in_catalog(
            &[("ServiceNow", "create_incident", "create_incident"), ("Airflow", "trigger_dag_run", "trigger_dag_run")],
            &[],
        );
        assert_eq!(named("kick off the nightly_etl DAG now"), "", "\"now\" is not ServiceNow");
        assert_eq!(named("raise a ServiceNow incident: VPN down"), "ServiceNow");
        assert_eq!(named("trigger the airflow DAG now"), "Airflow");
    }

    #[test]
    fn a_first_word_the_model_does_not_know_and_no_other_server_uses_names_its_server() {
        let named = names_in_catalog(
            &[
                ("vectra-ai-rux", "list_lockdown_entities", "List hosts in lockdown"),
                ("crypto-feargreed", "get_index", "The fear and greed index"),
                ("coin-prices", "get_price", "Price of a crypto coin"),
                ("desktop-commander", "read_file", "Read a file"),
            ],
            &["desktop"],
        );
        assert_eq!(named("put host 7 into lockdown in vectra"), "vectra-ai-rux");
        assert_eq!(named("how greedy is crypto today"), "", "another server's tool uses \"crypto\"");
        assert_eq!(named("save it to my desktop"), "", "a word the model knows");
    }

    #[test]
    fn misspellings_are_corrected_to_content_words() {
        let words: std::collections::HashMap<String, u32> =
            [("search", 9), ("wikipedia", 2), ("weather", 3), ("whether", 40), ("letter", 5)]
                .into_iter()
                .map(|(w, n)| (w.to_string(), n))
                .collect();
        assert_eq!(closest_word(&words, "serch"), Some("search"));
        assert_eq!(closest_word(&words, "Wikipeda"), Some("wikipedia"));
        assert_eq!(closest_word(&words, "wether"), Some("weather"), "not the more frequent function word");
        assert_eq!(closest_word(&words, "Wetter"), None, "a first letter is kept");
        assert_eq!(closest_word(&words, "weather"), None, "a catalog word stands");
        // Two letters swapped are one slip; a plural of the catalog offers its singular.
        let words: std::collections::HashMap<String, u32> =
            [("mermaid", 3), ("relations", 4)].into_iter().map(|(w, n)| (w.to_string(), n)).collect();
        assert_eq!(closest_word(&words, "mermiad"), Some("mermaid"));
        assert_eq!(closest_word(&words, "relaton"), Some("relation"));
        assert_eq!(closest_word(&words, "relation"), None, "the singular of a catalog word is no typo");
    }

    #[test]
    fn a_word_the_model_knows_is_not_respelled() {
        let words = [("saving", 4), ("search", 9), ("funds", 1)].into_iter().map(|(w, n)| (w.to_string(), n)).collect();
        let mut p = Profiles { words, ..Profiles::default() };
        assert_eq!(p.respell("saying hello").as_deref(), Some("saving hello"), "unknown to the model: respelled");
        p.known_words = ["saying", "hello"].into_iter().map(String::from).collect();
        assert_eq!(p.respell("saying hello"), None, "a word of the language stands");
        assert_eq!(p.respell("Saying hello, serch").as_deref(), Some("Saying hello, search"), "a typo is still fixed");
        assert_eq!(p.respell("call 'transfer_fands' now"), None, "an identifier is left alone");
    }

    #[test]
    fn a_known_word_with_an_ending_or_a_particle_is_not_respelled() {
        let words =
            [("header", 4), ("logic", 3), ("calendar", 5)].into_iter().map(|(w, n)| (w.to_string(), n)).collect();
        let mut p = Profiles { words, ..Profiles::default() };
        assert_eq!(
            p.respell("the heater is broken").as_deref(),
            Some("the header is broken"),
            "the model knows no heat"
        );
        p.known_words = ["heat", "log"].into_iter().map(String::from).collect();
        assert_eq!(p.respell("the heater is broken"), None, "heat + er");
        assert_eq!(p.respell("flowchart of the login flow"), None, "log + in");
        assert_eq!(p.respell("add it to my calender").as_deref(), Some("add it to my calendar"), "no known stem");
    }

    #[test]
    fn names_and_endings_are_not_respelled() {
        let words = [("bridges", 3), ("central", 2), ("route", 5), ("render", 2), ("search", 9)]
            .into_iter()
            .map(|(w, n)| (w.to_string(), n))
            .collect();
        let p = Profiles { words, ..Profiles::default() };
        assert_eq!(p.respell("any Phoebe Bridgers shows in Chicago?"), None, "a name mid-sentence");
        assert_eq!(p.respell("next train from Amsterdam Centraal"), None);
        assert_eq!(p.respell("bridgers"), Some("bridges".into()), "written as a word, it may be a typo");
        assert_eq!(
            p.respell("Serch the docs. Serch again").as_deref(),
            Some("search the docs. search again"),
            "a word that starts a sentence is not taken for a name"
        );
        assert_eq!(p.respell("app router caching"), None, "an ending added is no typo");
        assert_eq!(p.respell("the page renders blank"), None);
        assert_eq!(p.respell("serch it"), Some("search it".into()));
    }

    #[test]
    fn a_request_in_another_language_is_not_respelled() {
        let words = [("domain", 4), ("temperature", 2)].into_iter().map(|(w, n)| (w.to_string(), n)).collect();
        let p = Profiles { words, ..Profiles::default() };
        assert_eq!(p.respell("look up the doman"), Some("look up the domain".to_string()), "English: a typo");
        assert_eq!(p.respell("Quel temps fait-il à Lyon, et est-ce qu'il va pleuvoir demain ?"), None);
    }

    #[test]
    fn a_name_of_ordinary_words_is_told_from_a_brand() {
        let known: HashSet<String> = ["everything", "monday", "phone", "slack", "stripe", "weather", "data", "gov"]
            .into_iter()
            .map(String::from)
            .collect();
        assert!(ordinary_name("everything", &known));
        assert!(ordinary_name("monday-mcp", &known), "noise words aside");
        assert!(ordinary_name("Phone MCP Server", &known));
        assert!(!ordinary_name("todoist", &known), "a word the model does not know");
        assert!(!ordinary_name("Slack", &known), "a service of the table, though a word of the language");
        assert!(!ordinary_name("stripe-agent", &known), "a service of the table inside the name");
        assert!(!ordinary_name("PhoneBook", &known), "one word with a capital inside: a brand");
        assert!(!ordinary_name("mcp-server", &known), "nothing but noise");
        assert!(!ordinary_name("Data.gov MCP Server", &known), "a domain name");
        assert!(ordinary_name("Data MCP Server", &known));
        let mut known = known;
        known.extend(["microsoft", "learn"].map(String::from));
        assert!(!ordinary_name("microsoft-learn", &known), "a maker of several services of the table");
        assert!(ordinary_name("learn", &known));
        known.extend(["you", "tube", "transcript"].map(String::from));
        assert!(!ordinary_name("YouTube Transcript Server", &known), "a service written with a capital inside");
    }

    #[test]
    fn one_word_brand_names_are_joined() {
        assert_eq!(joined_name("GitHub").as_deref(), Some("github"));
        assert_eq!(joined_name("YouTube").as_deref(), Some("youtube"));
        for other in ["Stripe", "github", "Github Actions", "github-actions", "MCP2Weather", "GITHUB"] {
            assert_eq!(joined_name(other), None, "{other}");
        }
    }
}
