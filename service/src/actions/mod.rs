//! Action families: what a request asks to *do* and what a tool *does*, read from verbs, so that "void
//! that invoice" and `finalizeInvoice` are seen to disagree even when their words and vectors are close.
//!
//! The table is data (`families.txt`, one family per line with its class, the families it does not
//! conflict with, its verbs, and an example checked by a test). Verbs match by surface form: each base
//! form also matches its -s / -es / -ed / -ing forms. Requests in German, French, Spanish and Italian
//! are read by the verbs of `foreign_verbs.txt`, matched as written. Pure code, no I/O.

use std::collections::HashMap;
use std::sync::OnceLock;

/// The table, compiled into the binary.
const FAMILIES: &str = include_str!("families.txt");
/// Two-word nouns whose first word is a verb (`merge request`), compiled into the binary.
const NOUNS: &str = include_str!("nouns.txt");
/// Verbs of requests in German, French, Spanish and Italian, by family (`foreign_verbs.txt`).
const FOREIGN: &str = include_str!("foreign_verbs.txt");

const NOMINALS: &str = include_str!("nominals.txt");

/// A family, by its row in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Family(u16);

/// How much a family's actions change the world, least to most.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EffectClass {
    /// Reads (own data, public data).
    Read,
    /// Changes something reversibly (edit, label, comment).
    Change,
    /// Creates new entities.
    Create,
    /// Communicates or publishes outside (send, post, deploy).
    External,
    /// Cannot be undone or moves money (delete, cancel, pay).
    Irreversible,
}

/// One action found in a text: its family, the word(s) that showed it, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// The family.
    pub family: Family,
    /// The verb as written (a phrase's words joined by a space).
    pub verb: String,
    /// Index of its first word among the text's words.
    pub at: usize,
    /// Number of words it spans.
    pub len: usize,
}

/// Agreement of a request's action with a tool's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// Same family.
    Same,
    /// Different families that do not conflict (get / list / search, create / save, …).
    Compatible,
    /// Two known families that conflict (void vs finalize, delete vs create).
    Conflict,
    /// One side has no recognised action.
    Unknown,
}

struct Row {
    name: String,
    class: EffectClass,
    compatible: Vec<String>,
    verbs: Vec<String>,
    example: (String, String),
}

/// The compiled table.
pub struct Families {
    rows: Vec<Row>,
    /// Surface form (one word, or two words joined by a space) → family.
    forms: HashMap<String, Family>,
    /// Surface form → the verb as the table writes it ("deletes" → "delete"), for explanations.
    bases: HashMap<String, String>,
    compatible: Vec<Vec<bool>>,
    /// Two-word nouns (words joined by a space) whose first word would otherwise read as a verb.
    nouns: std::collections::HashSet<String>,
    /// Every one-word verb form, stemmed as the analyzer stems (`creat`, `delet`).
    stems: std::collections::HashSet<String>,
    /// Forms in Chinese or Japanese (`foreign_verbs.txt`), with their families: those scripts put no
    /// space between words, so a form is found inside a run of them (`页面归档`: `归档`).
    unspaced: Vec<(String, Family)>,
    /// The other forms of `foreign_verbs.txt` (German, French, Spanish, Italian): read wherever a request
    /// puts them, since those languages also put a verb last ("bitte den Job 98765 abbrechen").
    foreign: std::collections::HashSet<String>,
    /// Nouns that name an action (`nominals.txt`: "deletion"), with their family and verb.
    nominals: HashMap<String, (Family, String)>,
}

/// Whether `c` is of a script written without spaces between words (Chinese characters, kana).
fn unspaced_script(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}')
}

impl std::fmt::Debug for Families {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Families").field("families", &self.rows.len()).finish()
    }
}

/// The built-in table.
pub fn families() -> &'static Families {
    static TABLE: OnceLock<Families> = OnceLock::new();
    TABLE.get_or_init(|| {
        Families::parse(FAMILIES, NOUNS, FOREIGN)
            .and_then(|t| t.with_nominals(NOMINALS))
            .expect("the action tables are checked by a test")
    })
}

impl Families {
    fn parse(text: &str, nouns: &str, foreign: &str) -> Result<Families, String> {
        let mut rows = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split('|').map(str::trim).collect();
            let [name, class, compatible, verbs, example] = cols[..] else {
                return Err(format!("families.txt line {}: expected 5 columns", n + 1));
            };
            let class = match class {
                "read" => EffectClass::Read,
                "change" => EffectClass::Change,
                "create" => EffectClass::Create,
                "external" => EffectClass::External,
                "irreversible" => EffectClass::Irreversible,
                other => return Err(format!("families.txt line {}: unknown class {other:?}", n + 1)),
            };
            let (request, tool) = example
                .split_once("=>")
                .ok_or_else(|| format!("families.txt line {}: example needs `request => tool`", n + 1))?;
            rows.push(Row {
                name: name.to_string(),
                class,
                compatible: compatible.split_whitespace().map(str::to_string).collect(),
                verbs: verbs.split_whitespace().map(|v| v.replace('_', " ")).collect(),
                example: (request.trim().to_string(), tool.trim().to_string()),
            });
        }
        let index: HashMap<String, u16> = rows.iter().enumerate().map(|(i, r)| (r.name.clone(), i as u16)).collect();
        let mut compatible = vec![vec![false; rows.len()]; rows.len()];
        for (i, r) in rows.iter().enumerate() {
            compatible[i][i] = true;
            for c in &r.compatible {
                let j = *index.get(c).ok_or_else(|| format!("families.txt: {} names unknown family {c}", r.name))?;
                compatible[i][j as usize] = true;
                compatible[j as usize][i] = true;
            }
        }
        let mut forms = HashMap::new();
        let mut bases = HashMap::new();
        for (i, r) in rows.iter().enumerate() {
            for verb in &r.verbs {
                for form in inflections(verb) {
                    bases.entry(form.clone()).or_insert_with(|| verb.clone());
                    if let Some(prev) = forms.insert(form.clone(), Family(i as u16))
                        && prev != Family(i as u16)
                    {
                        return Err(format!(
                            "families.txt: {form:?} is in both {} and {}",
                            rows[prev.0 as usize].name, r.name
                        ));
                    }
                }
            }
        }
        let mut unspaced: Vec<(String, Family)> = Vec::new();
        let mut foreign_forms = std::collections::HashSet::new();
        for (n, line) in foreign.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, verbs) =
                line.split_once('|').ok_or_else(|| format!("foreign_verbs.txt line {}: expected 2 columns", n + 1))?;
            let family = Family(
                *index.get(name.trim()).ok_or_else(|| format!("foreign_verbs.txt: unknown family {}", name.trim()))?,
            );
            for form in verbs.split_whitespace() {
                if form.chars().any(unspaced_script) {
                    if unspaced.iter().any(|(f, _)| f == form) {
                        return Err(format!("foreign_verbs.txt: {form:?} is listed twice"));
                    }
                    unspaced.push((form.to_string(), family));
                    continue;
                }
                foreign_forms.insert(form.to_string());
                if let Some(prev) = forms.insert(form.to_string(), family)
                    && prev != family
                {
                    return Err(format!(
                        "foreign_verbs.txt: {form:?} is in both {} and {}",
                        rows[prev.0 as usize].name, rows[family.0 as usize].name
                    ));
                }
            }
        }
        let nouns = nouns
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        let stems = forms.keys().filter(|f| !f.contains(' ')).flat_map(|f| toolscout_indexer::terms(f)).collect();
        Ok(Families {
            rows,
            forms,
            bases,
            compatible,
            nouns,
            stems,
            unspaced,
            foreign: foreign_forms,
            nominals: HashMap::new(),
        })
    }

    /// The table with the nouns of `text` (`nominals.txt`: "deletion delete" per line) that name an action.
    fn with_nominals(mut self, text: &str) -> Result<Families, String> {
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let [noun, verb] = line.split_whitespace().collect::<Vec<_>>()[..] else {
                return Err(format!("nominals.txt line {}: expected a noun and a verb", n + 1));
            };
            let family =
                *self.forms.get(verb).ok_or_else(|| format!("nominals.txt: {verb:?} is no verb of the table"))?;
            if self.forms.contains_key(noun) {
                return Err(format!("nominals.txt: {noun:?} is a form of the table already"));
            }
            if self.nominals.insert(noun.to_string(), (family, verb.to_string())).is_some() {
                return Err(format!("nominals.txt: {noun:?} is listed twice"));
            }
        }
        Ok(self)
    }

    /// The action a noun at `i` of a clause's words names, where it opens the clause ("*deletion* of the
    /// duplicate record"), or follows one word that says how ("*manual* run of …", "*bulk* deletion of …"),
    /// and "of" follows it.
    fn nominal_at(&self, words: &[&str], i: usize) -> Option<Action> {
        let opens = i == 0 || (i == 1 && HOW_NOMINALS.contains(&words[0]));
        if !opens || words.get(i + 1) != Some(&"of") {
            return None;
        }
        let (family, _) = self.nominals.get(words[i])?;
        let family = self.withdraws_money(words, i).unwrap_or(*family);
        Some(Action { family, verb: words[i].to_string(), at: i, len: 1 })
    }

    /// Whether `term` (a stemmed term) is the stem of a verb of the table.
    pub fn is_verb_stem(&self, term: &str) -> bool {
        self.stems.contains(term)
    }

    /// The verb of a surface form as the table writes it ("deletes" → "delete", "rolled back" → "roll
    /// back"); a form the table does not know, as given.
    pub fn base_form<'a>(&'a self, form: &'a str) -> &'a str {
        self.bases.get(form).or_else(|| self.nominals.get(form).map(|(_, v)| v)).map_or(form, String::as_str)
    }

    /// The family's name (`delete`, `send`, …).
    pub fn name(&self, f: Family) -> &str {
        &self.rows[f.0 as usize].name
    }

    /// The family's effect class.
    pub fn class(&self, f: Family) -> EffectClass {
        self.rows[f.0 as usize].class
    }

    /// The family called `name`.
    pub fn by_name(&self, name: &str) -> Option<Family> {
        self.rows.iter().position(|r| r.name == name).map(|i| Family(i as u16))
    }

    /// The table's example for a family: a request and a tool name that both show it.
    pub fn example(&self, f: Family) -> (&str, &str) {
        let (request, tool) = &self.rows[f.0 as usize].example;
        (request, tool)
    }

    /// Number of families.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table is empty (never, for the built-in one).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// How a request's action relates to a tool's.
    pub fn agreement(&self, request: Option<Family>, tool: Option<Family>) -> Agreement {
        match (request, tool) {
            (Some(a), Some(b)) if a == b => Agreement::Same,
            // "Open an issue" is creating one; "open the file" stays merely compatible with reading it.
            (Some(a), Some(b))
                if self.rows[a.0 as usize].name == "open" && self.rows[b.0 as usize].name == "create" =>
            {
                Agreement::Same
            }
            (Some(a), Some(b)) if self.compatible[a.0 as usize][b.0 as usize] => Agreement::Compatible,
            (Some(_), Some(_)) => Agreement::Conflict,
            _ => Agreement::Unknown,
        }
    }

    /// How a request showing the families `request` relates to a tool showing `tool`: the best of all
    /// pairs (a request that says "find and download" agrees with a download tool); unknown when either
    /// side shows none.
    pub fn agreement_of_sets(&self, request: &[Family], tool: &[Family]) -> Agreement {
        let mut best = Agreement::Unknown;
        for &a in request {
            for &b in tool {
                best = match (best, self.agreement(Some(a), Some(b))) {
                    (_, Agreement::Same) | (Agreement::Same, _) => Agreement::Same,
                    (_, Agreement::Compatible) | (Agreement::Compatible, _) => Agreement::Compatible,
                    _ => Agreement::Conflict,
                };
            }
        }
        best
    }

    /// Every action in `words` (lowercase), in order; two-word phrases win over their first word, and a
    /// two-word noun (`nouns.txt`: "merge request", or its plural "merge requests") shows none.
    pub fn actions(&self, words: &[&str]) -> Vec<Action> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if i + 1 < words.len() {
                let phrase = format!("{} {}", words[i], words[i + 1]);
                // "pull requests" is the plural of a noun of `nouns.txt`.
                if self.nouns.contains(&phrase) || phrase.strip_suffix('s').is_some_and(|p| self.nouns.contains(p)) {
                    i += 2;
                    continue;
                }
                if let Some(&family) = self.forms.get(&phrase) {
                    out.push(Action { family, verb: phrase, at: i, len: 2 });
                    i += 2;
                    continue;
                }
            }
            if let Some((family, phrase)) = self.around_a_pronoun(words, i) {
                out.push(Action { family, verb: phrase, at: i, len: 1 });
            } else if let Some(&family) = self.forms.get(words[i]) {
                let family = self
                    .put_into(words, i)
                    .or_else(|| self.pushes_a_notice(words, i))
                    .or_else(|| self.withdraws_money(words, i))
                    .unwrap_or(family);
                out.push(Action { family, verb: words[i].to_string(), at: i, len: 1 });
            } else if let Some((family, phrase)) = self.split_phrase(words, i) {
                out.push(Action { family, verb: phrase, at: i, len: 1 });
            } else if let Some(family) = self.light_noun_of_no_form(words, i) {
                out.push(Action { family, verb: words[i].to_string(), at: i, len: 1 });
            } else if let Some(action) = self.nominal_at(words, i) {
                out.push(action);
            }
            i += 1;
        }
        out
    }

    /// A two-word phrase of a verb and its particle written around what it acts on: "*roll* the heroku app
    /// *back*", "*spin* a postgres container *up*", "*turn* the porch light *off*". Read only where the
    /// verb alone is no form of the table ("kick the bot off the server" stays a removal), with one to six
    /// words between that show no action of their own (a form after a determiner is a noun: "take that
    /// *move* back").
    fn split_phrase(&self, words: &[&str], i: usize) -> Option<(Family, String)> {
        // A form right after a determiner, or after "last" or "first", is a noun ("take *that move* back",
        // "take that last *move* back").
        let noun_after = |w: &str| DETERMINERS.contains(&w) || ["last", "first", "latest", "previous"].contains(&w);
        let verb_at = |k: usize| self.forms.contains_key(words[k]) && !noun_after(words[k - 1]);
        (i + 2..words.len().min(i + 8)).take_while(|&j| !verb_at(j - 1)).find_map(|j| {
            let phrase = format!("{} {}", words[i], words[j]);
            // "let me know …" asks the assistant to answer, not to notify anyone.
            let answers = words[j] == "know" && ["me", "us"].contains(&words[i + 1]);
            (PARTICLES.contains(&words[j]) && !answers).then(|| self.forms.get(&phrase).map(|&f| (f, phrase))).flatten()
        })
    }

    /// The family of a light verb at `i` whose noun is no form of the table (`LIGHT_OF_NO_FORM`: "*leave*
    /// a quick *note* on Linear ticket ENG-412 saying …" comments): a determiner after the verb
    /// (`LIGHT_LEADS`), the noun one or two words on, ending the phrase (`AFTER_LIGHT_NOUN`: not "leave
    /// the notes folder alone").
    fn light_noun_of_no_form(&self, words: &[&str], i: usize) -> Option<Family> {
        let (_, nouns, family) = LIGHT_OF_NO_FORM.iter().find(|(verbs, _, _)| verbs.contains(&words[i]))?;
        let noun = |j: usize| {
            words.get(j).is_some_and(|w| nouns.contains(w))
                && words.get(j + 1).is_none_or(|next| AFTER_LIGHT_NOUN.contains(next))
        };
        (words.get(i + 1).is_some_and(|w| LIGHT_LEADS.contains(w)) && (noun(i + 2) || noun(i + 3)))
            .then(|| self.by_name(family))
            .flatten()
    }

    /// A verb that reads, with "into" after what it acts on, puts it somewhere (`upload`): "*load* every PDF
    /// under /data/contracts *into* our knowledge graph", "pull the rows into a sheet" — not "load the
    /// report" or "look into it".
    fn put_into(&self, words: &[&str], i: usize) -> Option<Family> {
        let form = words[i];
        let moves = ["load", "loads", "loaded", "loading", "pull", "pulls", "pulled", "pulling"].contains(&form);
        (moves && words.iter().skip(i + 2).take(8).any(|w| *w == "into")).then(|| self.by_name("upload")).flatten()
    }

    /// "Push" of a notice sends it: "*push* an alert notification to the user's phone" (a commit or a file
    /// pushed is uploaded). A notice (`NOTICES`) within the three words after the verb.
    fn pushes_a_notice(&self, words: &[&str], i: usize) -> Option<Family> {
        let pushes = ["push", "pushes", "pushed", "pushing"].contains(&words[i]);
        (pushes && words.iter().skip(i + 1).take(3).any(|w| NOTICES.contains(w)))
            .then(|| self.by_name("send"))
            .flatten()
    }

    /// "Withdraw" of money pays it out: "withdraw Rs 50,000 from the trading account" (an application or
    /// an order withdrawn is cancelled). An amount right after the verb, or a word for money (`MONEY`)
    /// within the three words after it.
    fn withdraws_money(&self, words: &[&str], i: usize) -> Option<Family> {
        if !["withdraw", "withdraws", "withdrew", "withdrawn", "withdrawing", "withdrawal"].contains(&words[i]) {
            return None;
        }
        let amount = words.get(i + 1).is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()));
        (amount || words.iter().skip(i + 1).take(3).any(|w| MONEY.contains(w))).then(|| self.by_name("pay")).flatten()
    }

    /// A two-word phrase of a verb and its particle written around a pronoun: "*pull* it *back*", "*shut*
    /// them *down*", "*kick* it *off*" — the phrase, even where the verb alone is a form ("pull" downloads).
    fn around_a_pronoun(&self, words: &[&str], i: usize) -> Option<(Family, String)> {
        let (pronoun, particle) = (words.get(i + 1)?, words.get(i + 2)?);
        if !PRONOUN_OBJECTS.contains(pronoun) || !PARTICLES.contains(particle) {
            return None;
        }
        let phrase = format!("{} {}", words[i], particle);
        self.forms.get(&phrase).map(|&f| (f, phrase))
    }

    /// The actions of the forms in Chinese or Japanese (`unspaced`) inside `word`, in the order they occur
    /// (a later form that overlaps an earlier one is passed over).
    fn unspaced_actions(&self, word: &str, at: usize) -> Vec<Action> {
        if !word.chars().any(unspaced_script) {
            return Vec::new();
        }
        let mut found: Vec<(usize, usize, Family)> = Vec::new();
        for (form, family) in &self.unspaced {
            for (start, _) in word.match_indices(form.as_str()) {
                found.push((start, start + form.len(), *family));
            }
        }
        found.sort_unstable_by_key(|&(start, end, _)| (start, std::cmp::Reverse(end)));
        let mut out = Vec::new();
        let mut reached = 0;
        for (start, end, family) in found {
            if start >= reached {
                out.push(Action { family, verb: word[start..end].to_string(), at, len: 1 });
                reached = end;
            }
        }
        out
    }

    /// The first action in `words`.
    pub fn first_action(&self, words: &[&str]) -> Option<Action> {
        self.actions(words).into_iter().next()
    }
}

/// The particles a phrase's verb may be written apart from (`Families::split_phrase`); not "in", which
/// more often opens a place ("sign the form in the office").
/// What is sent when it is pushed (`Families::pushes_a_notice`).
const NOTICES: [&str; 8] =
    ["notification", "notifications", "alert", "alerts", "message", "messages", "reminder", "reminders"];

/// Words for money (`Families::withdraws_money`).
#[rustfmt::skip]
const MONEY: [&str; 16] = [
    "money", "cash", "funds", "fund", "rs", "inr", "usd", "eur", "gbp", "dollars", "euros", "rupees", "pounds", "btc",
    "eth", "usdt",
];

/// Words that may stand before a noun naming an action at the start of a clause (`Families::nominal_at`).
const HOW_NOMINALS: [&str; 10] =
    ["manual", "bulk", "permanent", "immediate", "urgent", "quick", "full", "partial", "scheduled", "forced"];

const PARTICLES: [&str; 7] = ["back", "up", "down", "off", "out", "on", "know"];

/// Pronouns a phrase of a verb and its particle is written around (`Families::around_a_pronoun`).
const PRONOUN_OBJECTS: [&str; 7] = ["it", "them", "this", "that", "these", "those", "everything"];

/// Words after which the next word is where a request puts its verb ("please *send*", "and *delete*",
/// "can you *find*", "i want to *book*"; "I didn't *mean* to *move* my knight" denies moving).
#[rustfmt::skip]
pub(crate) const VERB_LEADS: [&str; 55] = [
    "to", "and", "then", "please", "pls", "plz", "also", "can", "could", "would", "will", "should", "must", "you", "u",
    "i", "we", "let's", "lets", "me", "just", "quickly", "now", "first", "next", "finally", "kindly", "go", "help",
    "want", "need", "wanna", "gotta", "i'd", "ok", "permanently", "immediately", "bulk", "batch", "so", "mean", "meant",
    // Fillers a spoken or hurried request opens with: "okay upload the video …", "oops undo my last move".
    "okay", "oops", "whoops", "um", "umm", "uh", "uhh", "erm", "hey", "yeah", "yep", "alright", "ugh",
];

/// Adverbs between a word that leads to a verb and the verb: "can you *actually* buy …" (`led_to`); not
/// after any other word ("was it ever *actually* published" asks nothing).
const LED_ADVERBS: [&str; 8] =
    ["actually", "really", "simply", "maybe", "possibly", "somehow", "directly", "automatically"];

/// Prepositions that may open a clause with the place its verb acts in: "*under* task 87 in SimpleCheckList
/// add subtask …", "*in* Alfresco delete node 12".
const FRONTED: [&str; 5] = ["under", "in", "inside", "within", "on"];

/// Whether the verb at `at` of a clause's words follows the place the clause opens with (`FRONTED`): no
/// word before it is a form of the table's verbs or opens a clause of its own ("on *how* to write ad
/// text"), the word right before it is no determiner or preposition ("in *the* delete queue", "in reply
/// to"), and it is no participle ("in the folder *created* yesterday").
fn after_a_fronted_place(table: &Families, words: &[&str], at: usize) -> bool {
    let w = words[at];
    let opens = |w: &&str| ["how", "what", "which", "where", "when", "who", "why", "to"].contains(w);
    at >= 2
        && FRONTED.contains(&words[0])
        && !words[1..at].iter().any(|w| table.forms.contains_key(*w) || opens(w))
        && !DETERMINERS.contains(&words[at - 1])
        && !crate::analysis::PREPOSITIONS.contains(&words[at - 1])
        && !w.ends_with("ed")
        && !w.ends_with("ing")
        && at + 1 < words.len()
}

/// Whether the word before `at` in `words` leads to a verb there (`VERB_LEADS`), itself or across an adverb
/// (`LED_ADVERBS`).
fn led_to(words: &[&str], at: usize) -> bool {
    at >= 1
        && (VERB_LEADS.contains(&words[at - 1])
            || (at >= 2 && LED_ADVERBS.contains(&words[at - 1]) && VERB_LEADS.contains(&words[at - 2])))
}

/// A verb (any form listed) followed within two words by one of the words beside it is an idiom, not the
/// action: "pay special attention to the footnotes" pays nothing, "make sure the tests pass" creates nothing,
/// "drop a red marker at 00:02:15" deletes nothing (it places one; "drop the table" deletes).
const IDIOMS: [(&[&str], &[&str]); 4] = [
    (&["pay", "pays", "paying", "paid"], &["attention", "heed"]),
    (&["make", "makes", "making", "made"], &["sure", "certain"]),
    (&["take", "takes", "taking", "took"], &["care", "account"]),
    (&["drop", "drops", "dropping", "dropped"], &["a", "an"]),
];

/// Verbs that say little themselves, each with the nouns it takes its action from: "*take* a screenshot of
/// …", "*leave* a comment on …", "*make* the edit", "*place* an order". Only these pairs: a noun of the
/// table's verbs means another act after another light verb ("leave a review" writes one, it does not
/// analyze; "make a list" makes one, it does not list).
#[rustfmt::skip]
const LIGHT: [(&[&str], &[&str]); 5] = [
    (&["take", "takes", "grab", "grabs"], &["screenshot", "screenshots", "backup", "copy", "look"]),
    (&["leave", "leaves"], &["comment", "reply"]),
    (&["make", "makes"], &[
        "edit", "edits", "change", "changes", "copy", "duplicate", "clone", "backup", "chart", "delete", "update",
        "upload", "download", "search", "merge",
    ]),
    (&["place", "places"], &["order"]),
    (&["do", "does", "perform", "performs", "run"], &["search", "lookup", "backup"]),
];

/// Light verbs with nouns that are no form of the table, and the family the pair asks (`Families::actions`):
/// "leave a note" comments. (`LIGHT` takes the family from its noun, a form.)
const LIGHT_OF_NO_FORM: [(&[&str], &[&str], &str); 1] = [(&["leave", "leaves"], &["note", "notes"], "comment")];

/// Words that may stand between a light verb and its noun: a determiner and at most two more words
/// ("take *a full* backup", "leave *a quick* comment", "place *a market buy* order").
const LIGHT_LEADS: [&str; 6] = ["a", "an", "the", "another", "my", "our"];

/// Words that may follow a light verb's noun: it ends the phrase ("take a screenshot *of* …", "leave a
/// comment *on* …"). Before another word the verb's form only qualifies a noun ("make an *onboarding*
/// checklist", "place a *shipping* order").
const AFTER_LIGHT_NOUN: [&str; 16] = [
    "of", "on", "for", "to", "in", "at", "with", "from", "about", "and", "then", "into", "under", "please", "now", "so",
];

/// Where the light verb is whose noun is the action at `at` in `words` (a clause's words): a light verb
/// and one of its nouns (`LIGHT`), a determiner (`LIGHT_LEADS`) and at most two more words between, the
/// noun ending the phrase (`AFTER_LIGHT_NOUN`).
fn light_verb_before(words: &[&str], at: usize) -> Option<usize> {
    // A count may follow the noun too: "place a buy order *10* AAPL shares".
    let ends = |next: &&str| AFTER_LIGHT_NOUN.contains(next) || next.chars().all(|c| c.is_ascii_digit());
    if words.get(at + 1).is_some_and(|next| !ends(next)) {
        return None;
    }
    if let Some(verb) = giving_verb_before(words, at) {
        return Some(verb);
    }
    (2..=4).filter(|&back| back <= at).find_map(|back| {
        let verb = at - back;
        let pair = LIGHT.iter().any(|(verbs, nouns)| verbs.contains(&words[verb]) && nouns.contains(&words[at]));
        (pair && LIGHT_LEADS.contains(&words[verb + 1])).then_some(verb)
    })
}

/// Whether the light verb at `at` in `words` leads to a noun of the table's verbs (`light_verb_before`):
/// the noun, not the light verb, is the action ("make the edit" edits; it does not create).
fn leads_to_light_noun(table: &Families, words: &[&str], at: usize) -> bool {
    let reach = if GIVING.contains(&words[at]) { GIVEN_REACH } else { 4 };
    (LIGHT.iter().any(|(verbs, _)| verbs.contains(&words[at])) || GIVING.contains(&words[at]))
        && (at + 2..(at + reach + 1).min(words.len()))
            .any(|n| table.forms.contains_key(words[n]) && light_verb_before(words, n) == Some(at))
}

/// Verbs that give a thing what their noun does to it, with the thing between: "*give* that story about
/// the Mars rover an *upvote*", "give the repo a star".
const GIVING: [&str; 2] = ["give", "gives"];

/// The nouns a verb of `GIVING` takes its action from.
const GIVEN: [&str; 5] = ["upvote", "downvote", "vote", "star", "like"];

/// Most words from a verb of `GIVING` to its noun.
const GIVEN_REACH: usize = 10;

/// Where the verb of `GIVING` is whose noun (`GIVEN`, after "a" or "an") is the action at `at` in `words`.
fn giving_verb_before(words: &[&str], at: usize) -> Option<usize> {
    if !GIVEN.contains(&words[at]) || at < 2 || !["a", "an"].contains(&words[at - 1]) {
        return None;
    }
    (at.saturating_sub(GIVEN_REACH)..at - 1).rev().find(|&v| GIVING.contains(&words[v]))
}

/// Whether the action at `at` in `words` is the verb of an idiom (`IDIOMS`), a noun after "back to"
/// (`back_to_at`), or a search for the means of the request (`seeks_a_means`).
fn idiom_at(words: &[&str], at: usize) -> bool {
    back_to_at(words, at)
        || seeks_a_means(words, at)
        || IDIOMS
            .iter()
            .any(|(verb, next)| verb.contains(&words[at]) && words[at + 1..].iter().take(2).any(|w| next.contains(w)))
}

/// Whether the verb at `at` in `words` looks for a means, and the request is what the means does: "I'm
/// *looking for* a tool that permanently deletes the Stripe customer …", "*find* me a way to export …"
/// (a means of `MEANS`, within four words, followed by a word of `MEANS_THEN`). "Find something to eat" or
/// "search for an app" asks for the thing itself: "something" and "anything" are means only before "that"
/// or "which", and an app is a thing people search for.
fn seeks_a_means(words: &[&str], at: usize) -> bool {
    SEEKING.contains(&words[at])
        && (at + 1..(at + 5).min(words.len().saturating_sub(1))).any(|i| {
            let then = words[i + 1];
            (MEANS.contains(&words[i]) && MEANS_THEN.contains(&then))
                || (["something", "anything"].contains(&words[i]) && ["that", "which"].contains(&then))
        })
}

/// Verbs that look for a means (`seeks_a_means`).
const SEEKING: [&str; 9] = ["look", "looking", "looks", "search", "searching", "seek", "seeking", "find", "finding"];

/// What an agent looks for to do a thing (`seeks_a_means`).
#[rustfmt::skip]
const MEANS: [&str; 14] = [
    "tool", "tools", "way", "ways", "plugin", "plugins", "function", "method", "utility", "capability", "integration",
    "option", "command", "endpoint",
];

/// Words after a means that say what it does (`seeks_a_means`).
const MEANS_THEN: [&str; 11] =
    ["that", "which", "to", "for", "i", "we", "capable", "able", "so", "letting", "allowing"];

/// Whether the word at `at` in `words` follows "back to": where a thing goes back to ("roll the app back to
/// *release* v212", "restore it back to *build* 41"), a noun, not a verb led to by "to".
fn back_to_at(words: &[&str], at: usize) -> bool {
    at >= 2 && words[at - 1] == "to" && words[at - 2] == "back"
}

/// Whether the verb at `at` in `words` says what failed, not what is asked: "a user *failed to* log in",
/// "the pod is *unable to* start" (`FAILED` before "to").
fn failed_at(words: &[&str], at: usize) -> bool {
    at >= 2 && words[at - 1] == "to" && FAILED.contains(&words[at - 2])
}

/// Whether the verb at `at` in `words` opens a clause of time after its subject: "before *I bump* the pom,
/// was 3.14.0 ever published …" says when, not what is asked.
fn said_when(words: &[&str], at: usize) -> bool {
    at >= 2 && ["i", "we", "you"].contains(&words[at - 1]) && TIME_CLAUSES.contains(&words[at - 2])
}

/// Whether the verb at `at` in `words` is said of a thing the request names, in a clause that describes it
/// after its subject: "the one *where we search* audit logs", "presenter notes *that only I see*", "a PNG
/// image *I can email* her". The request does not ask it ("where can I buy …" asks where: `asks_where`).
fn said_of_a_thing(words: &[&str], at: usize) -> bool {
    let subject = |k: usize| ["i", "we", "you", "they"].contains(&words[k]);
    let adverb = |k: usize| ["only", "just", "usually", "always", "already", "normally"].contains(&words[k]);
    let mut j = at;
    while j > 0 && adverb(j - 1) {
        j -= 1;
    }
    // "… where we search", "… that only I see", "… that I only see".
    let relative = j >= 2 && subject(j - 1) && {
        let mut r = j - 2;
        while r > 0 && adverb(r) {
            r -= 1;
        }
        r >= 1 && RELATIVES.contains(&words[r]) && !VERB_LEADS.contains(&words[r - 1])
    };
    // "an image I can email her": a subject and "can" right after a thing.
    let contact = at >= 3
        && ["can", "could"].contains(&words[at - 1])
        && subject(at - 2)
        && !VERB_LEADS.contains(&words[at - 3])
        && !RELATIVES.contains(&words[at - 3])
        && !["how", "what", "where", "when", "why", "if", "whether", "so"].contains(&words[at - 3]);
    relative || contact
}

/// Words that open a clause describing a thing (`said_of_a_thing`).
const RELATIVES: [&str; 5] = ["that", "which", "where", "who", "whom"];

/// Whether the verb at `at` in `words` opens a clause of purpose after its subject: "need the packet capture
/// for detection 5521 *so I can open* it in wireshark", "so that we can …". An action there that is no
/// reading is the asker's own, once served (`request_actions`); a reading one still says what the request
/// is for ("pull the failure logs so I can *see* what broke", "load it into sqlite so I can *query* it").
fn said_for(words: &[&str], at: usize) -> bool {
    let mut j = at;
    while j > 0 && ["can", "could", "will", "may", "might"].contains(&words[j - 1]) {
        j -= 1;
    }
    let subject = j >= 2 && ["i", "we"].contains(&words[j - 1]);
    subject && (words[j - 2] == "so" || (j >= 3 && words[j - 2] == "that" && words[j - 3] == "so"))
}

/// Words that open a clause of time (`said_when`).
const TIME_CLAUSES: [&str; 9] = ["before", "b4", "after", "when", "while", "once", "until", "till", "whenever"];

/// Words that say a verb after "to" did not happen (`failed_at`).
const FAILED: [&str; 7] = ["failed", "fails", "fail", "failing", "unable", "refuses", "refused"];

/// Whether the form at `at` in `words` is an "-ing" form after "to": a noun where something goes ("added
/// too many files *to staging*", "moved *to billing*"), not a verb "to" leads to.
fn gerund_after_to(words: &[&str], at: usize) -> bool {
    at >= 1 && words[at - 1] == "to" && words[at].len() > 5 && words[at].ends_with("ing")
}

/// Whether the words at `at` ask to be told how what the request asked went: "submit my solution to the judge
/// and *tell me if* it gets accepted", "rerun the job and *tell me whether* it passes". After another action
/// that is the outcome of that action, not a look-up of its own. ("tell me how the job went" may need the
/// job read: left as asked.) So does handing back what it made: "push it to the network and *give me back*
/// the txid", "… and *send me back* the link".
fn reports_the_outcome(words: &[&str], at: usize) -> bool {
    let told =
        words.get(at..at + 3).is_some_and(|w| w[0] == "tell" && w[1] == "me" && ["if", "whether"].contains(&w[2]));
    let handed_back = words
        .get(at..at + 3)
        .is_some_and(|w| ["give", "send", "hand"].contains(&w[0]) && ["me", "us"].contains(&w[1]) && w[2] == "back");
    told || handed_back
}

/// Words that deny the verb they lead to: "permanently delete the card, not just *archive* it", "don't
/// want to *delete* it".
/// (German "nicht", French "pas", Italian "non", Spanish "no" too.)
#[rustfmt::skip]
const NEGATIONS: [&str; 14] = [
    "not", "don't", "dont", "never", "without", "doesn't", "didn't", "won't", "shouldn't", "mustn't", "nicht", "pas",
    "non", "no",
];

/// Whether the action at `at` in `words` is denied: the words that lead to it (`VERB_LEADS`) are preceded by
/// a negation ("not just archive it", "don't want to delete it").
fn denied_at(words: &[&str], at: usize) -> bool {
    // A verb joined by "and" or "or" to a denied one is denied too: "don't delete *and recreate* the
    // account", "don't cancel *or delete* the record".
    let joined = || at >= 2 && ["and", "or"].contains(&words[at - 1]) && denied_at(words, at - 2);
    words[..at].iter().rev().find(|w| !VERB_LEADS.contains(w)).is_some_and(|w| NEGATIONS.contains(w)) || joined()
}

/// Who has done something, when a verb in the past tense follows: "the doc *I* deleted by mistake",
/// "user 00uOld77 that *we* deactivated", "the email *I* just sent".
const SUBJECTS: [&str; 9] = ["i", "we", "you", "they", "he", "she", "u", "someone", "somebody"];

/// Past forms of the table's verbs that do not end in "-ed" (those that also read as the present are
/// `SAME_IN_THE_PAST`).
const IRREGULAR_PAST: [&str; 3] = ["sent", "ran", "paid"];

/// Forms of the table's verbs that read as the past and the present alike: past only where the subject
/// before them follows a noun, as in a clause that says which thing ("the reaction *I put* on the message",
/// "the labels *we set* yesterday"), not a word that leads to a verb ("can I put …").
const SAME_IN_THE_PAST: [&str; 4] = ["put", "set", "read", "broadcast"];

/// Words that ask with a subject after them: "how *do* I set up …", "*should* we put …".
const ASKING_AUXILIARIES: [&str; 12] =
    ["do", "does", "did", "can", "could", "should", "would", "will", "shall", "may", "might", "must"];

/// Words that may stand between a subject and what it did: "the email I *just* sent" (and adverbs in "-ly":
/// "the doc I *accidentally* trashed").
const BETWEEN_SUBJECT_AND_VERB: [&str; 6] = ["just", "also", "now", "first", "quickly", "immediately"];

/// Auxiliaries of a past participle: "how much has Coca-Cola paid out in dividends", "which invoices were
/// paid last month", "had the job already finished", "task 7 got marked done by mistake" ask about or tell
/// what was done, not to do it. ("be" is left out: "the repo should be archived" asks it.)
#[rustfmt::skip]
const AUXILIARIES: [&str; 14] = [
    "has", "have", "had", "was", "were", "i've", "we've", "you've", "they've", "ive", "got", "gets", "is", "are",
];

/// Most words an auxiliary stands before its participle ("has Coca-Cola ko paid": the subject between).
const AUXILIARY_REACH: usize = 4;

/// Whether the action at `at` in `words` (a clause's words) says what someone did, not what is asked: its
/// verb is in the past tense and a subject leads to it (`SUBJECTS`, perhaps with `BETWEEN_SUBJECT_AND_VERB`
/// words between), or an auxiliary stands at most `AUXILIARY_REACH` words before it (`AUXILIARIES`), in
/// the clause or at the end of `earlier` (the request's words before the clause: "has Coca-Cola (KO) paid"
/// puts its parenthesis between).
fn done_at(words: &[&str], at: usize, earlier: &[&str]) -> bool {
    let verb = words[at];
    let between = |w: &&str| BETWEEN_SUBJECT_AND_VERB.contains(w) || (w.len() > 4 && w.ends_with("ly"));
    let subject = words[..at].iter().rposition(|w| !between(w)).filter(|&s| SUBJECTS.contains(&words[s]));
    // "the reaction I put on …": the subject follows a word that leads to no verb.
    // (Not a word that asks: "how *do* I set up …".)
    let says_which = || {
        subject.is_some_and(|s| {
            s > 0 && !VERB_LEADS.contains(&words[s - 1]) && !ASKING_AUXILIARIES.contains(&words[s - 1])
        })
    };
    let past = (verb.ends_with("ed") && verb.len() > 4)
        || IRREGULAR_PAST.contains(&verb)
        || (SAME_IN_THE_PAST.contains(&verb) && says_which());
    let by_subject = || subject.is_some();
    let by_auxiliary = || {
        let before = earlier.iter().chain(&words[..at]);
        before.skip((earlier.len() + at).saturating_sub(AUXILIARY_REACH)).any(|w| AUXILIARIES.contains(w))
    };
    past && (by_subject() || by_auxiliary())
}

/// Command-line programs whose subcommand is the verb: "*git* push my branch to origin", "*npm* publish the
/// package", "*kubectl* delete pod web-1".
#[rustfmt::skip]
const COMMANDS: [&str; 16] = [
    "git", "gh", "npm", "yarn", "pnpm", "pip", "cargo", "docker", "kubectl", "helm", "terraform", "gcloud", "aws",
    "az", "heroku", "brew",
];

/// Whether a command-line program (`COMMANDS`) opens a clause, or follows a word that leads to a verb,
/// right before the verb at `at`: "*git* push my branch", "then *npm* publish it"; not "roll back the last
/// *git* commit" (a noun after it) or "comme *kubectl* explain".
fn command_before(words: &[&str], at: usize) -> bool {
    at >= 1 && COMMANDS.contains(&words[at - 1]) && (at == 1 || VERB_LEADS.contains(&words[at - 2]))
}

/// What a verb in the past tense is asked for by: a verb of wanting and what it acts on ("I want *it*
/// removed", "get *them* archived"), or "be" after a word that asks ("it should *be* archived", "this
/// needs to *be* removed").
const WANT_IT_DONE: [&str; 6] = ["want", "need", "like", "wanna", "get", "have"];
const DONE_OBJECTS: [&str; 7] = ["it", "them", "this", "that", "these", "those", "everything"];
const ASKS_TO_BE: [&str; 9] = ["should", "must", "to", "will", "can", "could", "would", "may", "might"];

/// Whether the word at `at` opens a clause that is one parameter of a list: a name and its values only,
/// after a clause of at most two words ("kick off a build on pipeline web, branch release/2.14, *commit*
/// 4e1d9ab7, *message* 'hotfix rebuild'"; quoted letters come masked as `0`). `before` is the length of
/// the clause before, if any.
fn a_parameter(words: &[&str], at: usize, before: Option<usize>) -> bool {
    let value = |w: &&str| w.chars().any(|c| c.is_ascii_digit() || "/=@_.:#".contains(c));
    at == 0 && (2..=3).contains(&words.len()) && words[1..].iter().all(value) && before.is_some_and(|n| n <= 2)
}

/// Whether the word at `at` in `words` (a clause's words) has a thing done, the participle after its object
/// being the action: "*get* it uploaded to our YouTube channel" uploads; it gets nothing.
fn causes_at(words: &[&str], at: usize) -> bool {
    ["get", "gets", "have", "has"].contains(&words[at])
        && words.get(at + 1).is_some_and(|w| DONE_OBJECTS.contains(w))
        && words.get(at + 2).is_some_and(|_| asked_as_done(words, at + 2))
}

/// Whether the verb at `at` in `words` (a clause's words) is a past participle the request asks for
/// (`WANT_IT_DONE`, `ASKS_TO_BE`): "I want it removed from the file completely" asks to remove it.
fn asked_as_done(words: &[&str], at: usize) -> bool {
    let verb = words[at];
    let participle = (verb.ends_with("ed") && verb.len() > 4) || IRREGULAR_PAST.contains(&verb);
    // After "be" that a word asks for, any form but a gerund is its participle ("this collection needs to
    // be *run*", "the tag must be *set*"; "it should be running" tells a state), and an adverb may stand
    // between ("it should *now* be merged").
    let asks_to_be = |k: usize| {
        ASKS_TO_BE.contains(&words[k])
            || (k >= 1 && BE_ADVERBS.contains(&words[k]) && ASKS_TO_BE.contains(&words[k - 1]))
    };
    at >= 2
        && ((participle && DONE_OBJECTS.contains(&words[at - 1]) && WANT_IT_DONE.contains(&words[at - 2]))
            || (words[at - 1] == "be" && !verb.ends_with("ing") && asks_to_be(at - 2)))
}

/// Adverbs between a word that asks and "be" (`asked_as_done`): "it should *now* be merged".
const BE_ADVERBS: [&str; 7] = ["now", "also", "just", "then", "finally", "first", "immediately"];

/// The actions a request asks for: verbs at the start of a clause or after a word that leads to one
/// ("please", "and", "can you", "to"), ignoring paths, URLs, emails and channels, idioms, denied verbs
/// (`denied_at`) and what someone did (`done_at`). "AAPL daily closing prices" and "3pm new york" ask for
/// nothing but to read; "close issue 12" asks to close; "restore the doc I deleted" asks to restore only.
pub(crate) fn request_actions(table: &Families, text: &str) -> Vec<Action> {
    let mut out = Vec::new();
    each_action(table, text, |refs, a, offset, earlier, before| {
        // Chinese and Japanese put the verb where they please ("把 … 页面归档", "… を一時停止して"), and so may
        // German ("bitte den Job 98765 abbrechen"): the forms of `foreign_verbs.txt` are read anywhere.
        let anywhere = a.verb.chars().any(unspaced_script) || table.foreign.contains(&a.verb);
        // A noun after a light verb is where the action is: "take a screenshot", "make the edit".
        let at = if anywhere { None } else { light_verb_before(refs, a.at) }.unwrap_or(a.at);
        let asked = if anywhere {
            !denied_at(refs, a.at)
        } else if leads_to_light_noun(table, refs, a.at) {
            // Its noun is the action ("make the edit").
            false
        } else {
            let wanted_done = a.len == 1 && asked_as_done(refs, at);
            let not_meant = idiom_at(refs, at)
                || causes_at(refs, at)
                || a_parameter(refs, at, before)
                || denied_at(refs, at)
                || (wanted_done && denied_at(refs, at - 2))
                || failed_at(refs, at)
                || points_below(refs, at)
                || writes_the_letter(refs, at)
                || asks_which_to(refs, at)
                || said_when(refs, at)
                || said_of_a_thing(refs, at)
                || (said_for(refs, at) && table.class(a.family) != EffectClass::Read)
                || gerund_after_to(refs, at)
                || (!out.is_empty() && reports_the_outcome(refs, at))
                || (!wanted_done && done_at(refs, a.at, earlier));
            // A past participle opening a clause tells a state, not a command: "unlock okta user jsmith,
            // *locked* out after too many tries".
            let participle_opens =
                at == 0 && a.len == 1 && refs[0].ends_with("ed") && table.base_form(refs[0]) != refs[0];
            ((at == 0 && !participle_opens)
                || opens_as_a_noun(refs, at)
                || after_a_terse_name(table, refs, at, earlier)
                || led_to(refs, at)
                || command_before(refs, at)
                || wanted_done
                || said_of_a_tool(refs, at)
                || after_a_fronted_place(table, refs, at))
                && !not_meant
        };
        if asked {
            // "where can I charge my car" asks where to do it: finding a place, not charging.
            // "flag the error group as fixed" closes it.
            let family = if !anywhere && asks_where(refs, at) {
                table.by_name("search").unwrap_or(a.family)
            } else if !anywhere && marks_as_ended(refs, at) {
                table.by_name("close").unwrap_or(a.family)
            } else if !anywhere && checks_validity(refs, at) {
                table.by_name("validate").unwrap_or(a.family)
            } else {
                a.family
            };
            out.push(Action { at: a.at + offset, family, ..a });
        }
    });
    out
}

/// Whether the action at `at` of a clause's words `refs` is named by a noun after a word that says how, at
/// the clause's start: "manual *run* of Salesforce extractor config 12345", "bulk *deletion* of …".
fn opens_as_a_noun(refs: &[&str], at: usize) -> bool {
    at == 1 && HOW_NOMINALS.contains(&refs[0]) && refs.get(2) == Some(&"of")
}

/// Whether the verb at `at` in `refs` (a clause's words) follows one or two words that name where it acts in a
/// search-box request: "excel delete sheet", "chess undo last move". Only in a request's first clause of at
/// most five words, after words that are no verb, determiner or word that leads to one, and with something
/// after it to act on ("weibo hot search" is a noun), the verb in its base form ("Airbnb listing 53912345
/// looks nice" tells).
fn after_a_terse_name(table: &Families, refs: &[&str], at: usize, earlier: &[&str]) -> bool {
    earlier.is_empty()
        && refs.len() <= 5
        && (1..=2).contains(&at)
        && at + 1 < refs.len()
        && table.base_form(refs[at]) == refs[at]
        && refs[..at].iter().all(|w| {
            w.chars().all(char::is_alphanumeric)
                && !DETERMINERS.contains(w)
                && !VERB_LEADS.contains(w)
                && !crate::analysis::QUESTIONS.contains(w)
                && table.actions(&[w]).is_empty()
        })
}

/// Whether the verb at `at` in `refs` (a clause's words) says what the things a question asks about are
/// for: "which modules can I *enable* on my databases", "what files should we *delete*" look up which
/// (a noun right after "which" or "what", then "can", "could" or "should" and a subject before the verb).
fn asks_which_to(refs: &[&str], at: usize) -> bool {
    at >= 4
        && ["which", "what"].contains(&refs[0])
        && !NOT_ASKING.contains(&refs[1])
        && !["can", "could", "should", "would", "will"].contains(&refs[1])
        && ["can", "could", "should"].contains(&refs[at - 2])
        && ["i", "we", "you"].contains(&refs[at - 1])
}

/// Whether the verb at `at` in `refs` (a clause's words) tells that the asker writes the letter: "I *write*
/// with a somewhat unusual request", "I am *writing* regarding this morning's incident".
fn writes_the_letter(refs: &[&str], at: usize) -> bool {
    ["write", "writing"].contains(&refs[at])
        && at >= 1
        && ["i", "am", "i'm", "im", "we", "we're", "are"].contains(&refs[at - 1])
        && refs.get(at + 1).is_some_and(|w| {
            ["to", "with", "regarding", "about", "concerning", "on", "in", "because", "as", "re", "following"]
                .contains(w)
        })
}

/// Whether the verb at `at` in `refs` (a clause's words) is a letter's pointer to what follows: "please
/// *find below* the particulars", "kindly find attached …" ask nothing.
fn points_below(refs: &[&str], at: usize) -> bool {
    ["find", "see"].contains(&refs[at])
        && refs.get(at + 1).is_some_and(|w| ["below", "attached", "enclosed", "herewith", "overleaf"].contains(w))
}

/// Verbs that mark a thing as in a state (`marks_as_ended`).
/// "Set" marks too: "set the task as done".
const MARKING: [&str; 8] = ["mark", "marks", "flag", "flags", "tag", "tags", "set", "sets"];

/// States that say a thing is ended: marking it so closes it.
const ENDED: [&str; 8] = ["done", "complete", "completed", "resolved", "fixed", "closed", "finished", "solved"];

/// Whether the verb at `at` in `words` (a clause's words) marks its thing as ended (`MARKING`, then "as"
/// — or "like", as a learner writes it — and a word of `ENDED` within the clause): "flag the error group
/// in Raygun *as fixed*", "mark 'Write migration guide' *as done*", "mark it *like done*" close it.
fn marks_as_ended(words: &[&str], at: usize) -> bool {
    MARKING.contains(&words[at])
        && words[at + 1..].windows(2).take(8).any(|w| ["as", "like"].contains(&w[0]) && ENDED.contains(&w[1]))
}

/// Whether the verb at `at` in `words` (a clause's words) checks whether its thing is valid: "check whether
/// the syntax is even valid", "see if this JSON is correct" validate it.
fn checks_validity(words: &[&str], at: usize) -> bool {
    ["check", "checks", "see"].contains(&words[at])
        && words.get(at + 1).is_some_and(|w| ["whether", "if"].contains(w))
        && words[at + 2..].iter().take(8).any(|w| ["valid", "invalid", "correct"].contains(w))
}

/// Nouns an agent names what it looks for by: "need a *tool* that removes …", "any *way* which lists …".
#[rustfmt::skip]
const TOOL_NOUNS: [&str; 20] = [
    "tool", "tools", "way", "ways", "something", "anything", "capability", "function", "api", "method", "utility",
    "endpoint", "integration", "option", "feature", "command", "mechanism", "plugin", "skill", "mcp",
];

/// Whether the verb at `at` of a clause's words `refs` says what a tool the request looks for does: after
/// "that" or "which" after a noun that names it (`TOOL_NOUNS`: "need a tool that *removes* the key …"), or
/// as a gerund after "for" ("a tool for *deleting* …"). "Accepts" says what the tool takes, not what it
/// does ("a tool that accepts a URL …").
fn said_of_a_tool(refs: &[&str], at: usize) -> bool {
    at >= 2
        && TOOL_NOUNS.contains(&refs[at - 2])
        && !refs[at].starts_with("accept")
        && (["that", "which"].contains(&refs[at - 1]) || (refs[at - 1] == "for" && refs[at].ends_with("ing")))
}

/// Whether the verb at `at` in `words` (a clause's words) is led to (`VERB_LEADS`) from "where": "*where*
/// can I charge my electric car", "where do I buy tickets", "where to download …". Such a request asks
/// for the place to do it — a look-up — not for doing it.
fn asks_where(words: &[&str], at: usize) -> bool {
    words[..at]
        .iter()
        .rev()
        .find(|w| !VERB_LEADS.contains(w) && !WHERE_LEADS.contains(w))
        .is_some_and(|w| *w == "where")
}

/// Auxiliaries between "where" and its verb that `VERB_LEADS` lacks ("where *do* I buy", "where *is* it
/// possible to …" is not read: "possible" leads nowhere).
const WHERE_LEADS: [&str; 6] = ["do", "does", "did", "may", "might", "shall"];

/// Whether `text` only tells what someone did — it shows a verb where `request_actions` would read one, in
/// the past tense after a subject (`done_at`), and no action it asks: "we moved the landing page to the new
/// stack last month and the old one is just burning money" is the context of a request's other part, not a
/// part of its own.
pub(crate) fn only_tells_what_was_done(table: &Families, text: &str) -> bool {
    let mut done = false;
    each_action(table, text, |refs, a, _, _, _| {
        // `done_at` needs a subject before the verb, so `a.at > 0` only guards the look-back.
        // ("someone deleted the folder …" tells what another did.)
        done |= a.at > 0
            && (VERB_LEADS.contains(&refs[a.at - 1]) || SUBJECTS.contains(&refs[a.at - 1]))
            && done_at(refs, a.at, &[]);
    });
    done && request_actions(table, text).is_empty()
}

/// Whether `text` (one intent of a request) only sets the scene: it asks nothing — no action
/// `request_actions` reads, no question, no word that asks (`ASKS`) — and tells something: a subject opens
/// it ("I'm planning a trip to Kyoto next week", "I maintain the npm package left-pad-plus") or a verb of
/// being, seeming or having is among its words ("Airbnb listing 53912345 looks nice"). "The latest Apple
/// stock price" (a thing to read) and "I need the weather in Paris" (a need) ask.
pub(crate) fn only_sets_the_scene(table: &Families, text: &str) -> bool {
    let words = request_words(text);
    // "Oops, I blundered my queen …": an interjection may come first.
    let first = words.iter().position(|w| !INTERJECTIONS.contains(&w.as_str())).unwrap_or(0);
    let opens_with_subject = words.get(first).is_some_and(|w| SCENE_SUBJECTS.contains(&w.as_str()));
    let tells = opens_with_subject || words.iter().any(|w| TELLING.contains(&w.as_str()));
    tells
        && !text.contains('?')
        && !words
            .iter()
            .enumerate()
            .any(|(i, w)| ASKS.contains(&w.as_str()) && !wish_of_another(&words, i) && !says_what_cannot_be(&words, i))
        && !clause_openers(text).iter().any(|w| crate::analysis::QUESTIONS.contains(&w.as_str()))
        && request_actions(table, text).is_empty()
}

/// Whether the word at `i` of `words` tells what someone else wants, after a noun: "the team *wants* its own
/// space in Slack", "HR *needs* it before Friday" set the scene of the part that asks; "it needs …", "this
/// needs …" ask. So does what others are not to do: "I don't *want* anyone else opening the salaries file"
/// (`negation::PEOPLE`) is the goal of the part that asks ("lock it …").
fn wish_of_another(words: &[String], i: usize) -> bool {
    let w = |j: usize| words.get(j).map_or("", String::as_str);
    let of_another = ["wants", "needs"].contains(&w(i))
        && i >= 1
        && !["it", "this", "that", "which", "who", "he", "she", "one"].contains(&w(i - 1));
    let kept_from_others = ["want", "need"].contains(&w(i))
        && i >= 1
        && ["don't", "dont", "not"].contains(&w(i - 1))
        && crate::negation::PEOPLE.contains(&w(i + 1));
    of_another || kept_from_others
}

/// Whether the word at `i` of `words` is "can't" after a subject: "… and *I can't* start anything" tells
/// what goes wrong (the scene of the part that asks: "Stop the container called web-old"); "can't you …"
/// asks.
fn says_what_cannot_be(words: &[String], i: usize) -> bool {
    words[i] == "can't" && i >= 1 && SUBJECTS.contains(&words[i - 1].as_str())
}

/// How a part asks to hear back: "please *advise* once …", "*let me know* when …", "*keep me posted*".
const HEARING_BACK: [&[&str]; 7] = [
    &["advise"],
    &["let", "me", "know"],
    &["let", "us", "know"],
    &["keep", "me", "posted"],
    &["keep", "me", "updated"],
    &["keep", "us", "posted"],
    &["notify", "me"],
];

/// Whether `text` (one intent of a request) only asks to hear back how the rest went (`HEARING_BACK`, then
/// nothing or a clause of time or condition): "Please advise once the channel exists so that I may
/// circulate the link", "let me know when it's done". It is no request of its own. ("Tell me if the build
/// passed" asks to look something up.)
pub(crate) fn only_asks_to_hear_back(text: &str) -> bool {
    let words = request_words(text);
    let mut i = 0;
    while words.get(i).is_some_and(|w| ["please", "pls", "kindly", "and", "then", "also", "just"].contains(&w.as_str()))
    {
        i += 1;
    }
    HEARING_BACK.iter().any(|phrase| {
        words.len() >= i + phrase.len()
            && phrase.iter().zip(&words[i..]).all(|(p, w)| p == w)
            && words
                .get(i + phrase.len())
                .is_none_or(|w| ["once", "when", "whether", "if", "as", "after", "how", "asap"].contains(&w.as_str()))
    })
}

/// The words of a part that only hands the rest of the request over: "Can you do that?", "Could you take
/// care of it for me, please?", "Please handle this."
const DEFERRING: [&str; 24] = [
    "can", "could", "would", "will", "you", "u", "please", "pls", "do", "handle", "take", "care", "of", "deal", "with",
    "sort", "out", "it", "that", "this", "for", "me", "us", "them",
];

/// Whether `text` (one intent of a request) only hands the rest over (`DEFERRING`): "Our PM wrote: '…'
/// *Can you do that?*" asks what the rest asks, nothing of its own.
pub(crate) fn only_defers(text: &str) -> bool {
    let words = request_words(text);
    !words.is_empty()
        && words.iter().all(|w| DEFERRING.contains(&w.as_str()) || INTERJECTIONS.contains(&w.as_str()))
        && words.iter().any(|w| ["do", "handle", "care", "deal", "sort"].contains(&w.as_str()))
}

/// Whether `text` (one intent of a request) only says what to leave as it is: "leave the other sheets
/// alone", "keep everything else untouched", "the other tabs should stay" — a bound on another part, not
/// a request of its own.
pub(crate) fn only_bounds_another(text: &str) -> bool {
    let words = request_words(text);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    // Phrases are matched on whole words ("keep the restaurant list" says nothing of "the rest").
    let spaced = format!(" {} ", words.join(" "));
    let leaves = words.first().is_some_and(|w| ["leave", "keep", "don't", "dont", "do"].contains(&w.as_str()))
        && (has(&["alone", "untouched", "intact", "unchanged", "touch"])
            || [" as is ", " everything else ", " the rest "].iter().any(|p| spaced.contains(p)));
    let stays = words.first().is_some_and(|w| ["the", "everything", "all", "any"].contains(&w.as_str()))
        && has(&["other", "others", "rest", "remaining", "else"])
        && has(&["stay", "stays", "remain", "remains"])
        && request_actions(families(), text).is_empty();
    leaves || stays
}

/// Words that open a statement of who does or has something (`only_sets_the_scene`).
const SCENE_SUBJECTS: [&str; 16] = [
    "i", "i'm", "im", "i've", "we", "we're", "we've", "they", "they're", "he", "she", "my", "our", "it's", "there's",
    "it",
];

/// Words a sentence that sets the scene may open with before its subject (`only_sets_the_scene`).
const INTERJECTIONS: [&str; 12] =
    ["oops", "whoops", "ugh", "argh", "damn", "hmm", "ok", "okay", "alright", "well", "oh", "sorry"];

/// Verbs of being, seeming or having (and "here's", "that's"): a sentence with one tells how things are
/// (`only_sets_the_scene`).
const TELLING: [&str; 19] = [
    "is", "are", "was", "were", "am", "looks", "seems", "sounds", "feels", "has", "have", "had", "keeps", "kept",
    "got", "gets", "here's", "heres", "that's",
];

/// Words that ask for something, whatever verb follows: a need, a wish, a modal asking someone to act.
#[rustfmt::skip]
const ASKS: [&str; 20] = [
    "need", "needs", "want", "wants", "wanna", "would", "could", "can", "can't", "i'd", "we'd", "please", "pls",
    "plz", "looking", "wondering", "help", "let's", "mind", "should",
];

/// The actions a request says not to do: verbs where `request_actions` would read them, but denied
/// (`denied_at`): "send" of "draft a reply … but don't send it", "delete" of "pause the trigger, don't
/// delete it".
pub(crate) fn denied_actions(table: &Families, text: &str) -> Vec<Family> {
    let mut out = Vec::new();
    each_action(table, text, |refs, a, _, _, _| {
        let wanted_done = a.len == 1 && asked_as_done(refs, a.at);
        if a.at > 0
            && (((VERB_LEADS.contains(&refs[a.at - 1]) || NEGATIONS.contains(&refs[a.at - 1]))
                && denied_at(refs, a.at))
                || (wanted_done && denied_at(refs, a.at - 2)))
            && !out.contains(&a.family)
        {
            out.push(a.family);
        }
    });
    out
}

/// The actions the asker tells they did already (`done_at`, right after "I" or "we"): "loaded" of "I've
/// loaded /music/take3.wav; give me the beat timestamps". Not what was done by anyone ("now that all the
/// items are added, solve the model": adding was a step before).
pub(crate) fn done_actions(table: &Families, text: &str) -> Vec<Family> {
    let mut out = Vec::new();
    each_action(table, text, |refs, a, _, earlier, _| {
        let mut s = a.at;
        while s > 0 && ["already", "just", "have", "had", "also"].contains(&refs[s - 1]) {
            s -= 1;
        }
        let by_me = s > 0 && ["i", "we", "i've", "we've", "ive", "i'd", "we'd"].contains(&refs[s - 1]);
        if by_me && done_at(refs, a.at, earlier) && !out.contains(&a.family) {
            out.push(a.family);
        }
    });
    out
}

/// Calls `f` with each clause's words, each action the table finds in them (its `at` within the clause),
/// the clause's offset in `request_words`, the request's words before the clause, and the length of the
/// clause before it (if any).
fn each_action(table: &Families, text: &str, mut f: impl FnMut(&[&str], Action, usize, &[&str], Option<usize>)) {
    let clauses = clauses(text);
    let all: Vec<&str> = clauses.iter().flatten().map(String::as_str).collect();
    let mut offset = 0;
    let mut before = None;
    for w in &clauses {
        let refs = &all[offset..offset + w.len()];
        let mut actions = table.actions(refs);
        actions.extend(refs.iter().enumerate().flat_map(|(i, word)| table.unspaced_actions(word, i)));
        actions.sort_by_key(|a| a.at);
        for a in actions {
            f(refs, a, offset, &all[..offset], before);
        }
        offset += w.len();
        before = Some(w.len());
    }
}

/// Words that open what a verb acts on: a word the table does not know, at the start of a clause and
/// followed by one of these, is read as a verb ("take *the* transcript", "block *those* dates", "log *them*
/// into airtable").
const DETERMINERS: [&str; 22] = [
    "the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "their", "his", "her", "its", "it",
    "them", "all", "each", "every", "some", "him", "us",
];

/// Words that start a clause and take a determiner without asking for anything ("is the build green", "do
/// you know the …"), conjunctions that open a condition or a time ("*if the* build failed, …", "*once
/// the* tests pass, …") and prepositions ("*in our* chess game, …").
#[rustfmt::skip]
const NOT_ASKING: [&str; 48] = [
    "is", "are", "was", "were", "be", "am", "do", "does", "did", "have", "has", "had", "know", "think", "like", "love",
    "hope", "wish", "what", "which", "where", "who",
    "if", "once", "when", "whenever", "unless", "until", "till", "before", "after", "while", "since", "because",
    "as", "whether", "though", "although",
    "in", "on", "at", "for", "from", "with", "by", "of", "about", "during",
];

/// Whether a clause of `text` starts with a verb the table does not know (`DETERMINERS`): "take the
/// transcript of … and make anki cards", "find an airbnb … and block those dates in my calendar". Its
/// actions are then not all the request asks for.
pub(crate) fn unknown_verb(table: &Families, text: &str) -> bool {
    clauses(text).iter().any(|w| {
        let (refs, known) = clause_verbs(table, w);
        (0..refs.len().saturating_sub(1)).any(|i| unknown_verb_at(&refs, &known, i))
    })
}

/// Whether the request `text` opens with a verb the table does not know ("*grab* the Wikipedia summary of
/// … and put it into a Word document"): what it names before its first known verb is not that verb's.
pub(crate) fn opens_with_unknown_verb(table: &Families, text: &str) -> bool {
    clauses(text).first().is_some_and(|w| {
        let (refs, known) = clause_verbs(table, w);
        unknown_verb_at(&refs, &known, 0)
    })
}

/// A clause's words, and the positions of the verbs the table knows among them.
fn clause_verbs<'w>(table: &Families, words: &'w [String]) -> (Vec<&'w str>, Vec<usize>) {
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let known = table.actions(&refs).iter().map(|a| a.at).collect();
    (refs, known)
}

/// Whether the word at `i` of a clause's words `refs` is a verb the table does not know (`known`: the
/// positions of those it knows): it opens the clause, or follows a word that leads a verb, and a
/// determiner follows it.
fn unknown_verb_at(refs: &[&str], known: &[usize], i: usize) -> bool {
    let Some(&word) = refs.get(i) else { return false };
    (i == 0 || VERB_LEADS.contains(&refs[i - 1]) || said_of_a_tool(refs, i))
        && !known.contains(&i)
        && !known.iter().any(|&k| light_verb_before(refs, k) == Some(i))
        && !VERB_LEADS.contains(&word)
        && !NOT_ASKING.contains(&word)
        && !DETERMINERS.contains(&word)
        && !TOOL_NOUNS.contains(&word)
        && word.len() >= 2
        && word.chars().all(|c| c.is_ascii_alphabetic())
        && refs.get(i + 1).is_some_and(|next| DETERMINERS.contains(next))
}

/// The first word of each clause of a request (as `request_words` reads them): "in LaunchDarkly, *which* repos
/// …" opens a question in its second clause.
pub(crate) fn clause_openers(text: &str) -> Vec<String> {
    clauses(text).into_iter().filter_map(|w| w.into_iter().next()).collect()
}

/// The words `request_actions` reads, in order: an `Action`'s `at` is a position in this sequence.
pub(crate) fn request_words(text: &str) -> Vec<String> {
    clauses(text).into_iter().flatten().collect()
}

/// Where each clause of a request ends, as positions in `request_words`: what an action acts on or puts
/// somewhere ends with its clause ("add a new lead to the Leads table*:* Jane Roe").
pub(crate) fn clause_ends(text: &str) -> Vec<usize> {
    let mut end = 0;
    clauses(text)
        .iter()
        .map(|w| {
            end += w.len();
            end
        })
        .collect()
}

/// The words of each clause of a request, without addresses, paths, channels and assignments.
fn clauses(text: &str) -> Vec<Vec<String>> {
    let inlined = inline_asides(text);
    let text = inlined.as_ref();
    // A full stop, comma or colon inside a token does not end a clause: "table out.c-sales.orders", "3,900",
    // "12:30" (else "orders" would open one, and be read as a verb).
    // A dash between spaces, or a long dash, does: "airtable - add a new lead …"; so does a bar ("Notion |
    // Delete a block").
    let mut breaks = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut before = ' ';
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map_or(' ', |&(_, n)| n);
        // Nor does the colon of an address's scheme ("https://…"), which would leave "https" as a word.
        let inside = (['.', ',', ':'].contains(&c) && next.is_alphanumeric() && i > 0) || (c == ':' && next == '/');
        let dash =
            ['\u{2014}', '\u{2013}'].contains(&c) || (c == '-' && before.is_whitespace() && next.is_whitespace());
        if ([';', '!', '?', '\n', '(', ')', '.', ',', ':'].contains(&c) && !inside) || dash || c == '|' {
            breaks.push((i, c.len_utf8()));
        }
        before = c;
    }
    let mut pieces = Vec::with_capacity(breaks.len() + 1);
    let mut start = 0;
    for (b, len) in breaks {
        pieces.push(&text[start..b]);
        start = b + len;
    }
    pieces.push(&text[start..]);
    pieces
        .into_iter()
        .map(|clause| {
            let kept: String = clause
                .split_whitespace()
                .filter_map(|t| {
                    if t.contains('/') && verbs_joined(t) {
                        Some(std::borrow::Cow::Owned(t.replace('/', " and ")))
                    } else if is_hash_number(t) {
                        // "build #4512": a number the thing goes by, read as a word, so the word before is
                        // a noun of `nouns.txt` ("build number"), not a verb.
                        Some(std::borrow::Cow::Borrowed("number"))
                    } else if is_checkbox(t) || is_tag(t) {
                        // "- [x] mark 'Write migration guide' as done": a to-do list's box is no word; nor is
                        // a ticket's tag ("[ops] restart of payments-api").
                        None
                    } else if t.contains('/') || t.contains('@') || t.starts_with('#') || t.contains('=') {
                        None
                    } else {
                        Some(std::borrow::Cow::Borrowed(t))
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            words(&kept)
        })
        .collect()
}

/// `text` with the parentheses of an aside that shows no verb of the table taken away, so the aside reads
/// as part of its clause: "remove the group (group id 17) from my project" is one clause, and what the
/// group is taken from stays in it; "… with 50-200 staff (explorium) and email the list" names Explorium
/// where the companies are found. An aside with a verb ("(then archive it)"), or a parenthesis left open or
/// never opened ("1) delete it"), stays and ends a clause (`clauses`).
fn inline_asides(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('(') {
        return std::borrow::Cow::Borrowed(text);
    }
    let table = families();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let Some(len) = rest[open + 1..].find([')', '(']).filter(|&l| rest[open + 1 + l..].starts_with(')')) else {
            break;
        };
        let aside = &rest[open + 1..open + 1 + len];
        let verbless = words(aside).iter().all(|w| !table.forms.contains_key(w.as_str()));
        out.push_str(&rest[..open]);
        if verbless {
            out.push(' ');
            out.push_str(aside);
            out.push(' ');
        } else {
            out.push_str(&rest[open..=open + 1 + len]);
        }
        rest = &rest[open + 2 + len..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Whether `token` is the box of a to-do list's item ("[ ]", "[x]").
/// Whether `token` is a tag in square brackets: "[ops]", "[data]".
fn is_tag(token: &str) -> bool {
    token.len() > 2 && token.starts_with('[') && token.ends_with(']') && !token[1..token.len() - 1].contains(['[', ']'])
}

fn is_checkbox(token: &str) -> bool {
    matches!(token, "[" | "]" | "[]" | "[x]" | "[X]" | "[✓]" | "[✔]" | "[-]")
}

/// Whether `token` is a number written after "#" ("#4512", "#12,"): what a build, order or issue goes by.
fn is_hash_number(token: &str) -> bool {
    token.strip_prefix('#').is_some_and(|rest| {
        let digits = rest.trim_end_matches(|c: char| c.is_ascii_punctuation());
        !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
    })
}

/// Whether `token` is verbs the table knows joined by slashes ("close/delete", "close/resolve"): a request
/// that offers either, read as "close and delete" (either is asked). Other tokens with a slash are
/// addresses, paths or repositories.
fn verbs_joined(token: &str) -> bool {
    token.contains('/')
        && token.split('/').all(|p| {
            let p = p.to_lowercase();
            !p.is_empty()
                && p.chars().all(|c| c.is_ascii_alphabetic())
                && families().actions(&[p.as_str()]).first().is_some_and(|a| a.len == 1)
        })
}

/// The words of a text, lowercased, split on anything that is not a letter, digit or apostrophe (a
/// typographic apostrophe is read as `'`: "I’m" is "i'm").
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .map(|w| {
            let w = w.trim_matches(['\'', '\u{2019}']).to_lowercase();
            // Most words have no apostrophe: no second allocation for them (this runs on every tool text).
            if w.contains('\u{2019}') { w.replace('\u{2019}', "'") } else { w }
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// A verb and its regular inflections (a phrase inflects its first word).
fn inflections(verb: &str) -> Vec<String> {
    let (head, tail) = match verb.split_once(' ') {
        Some((h, t)) => (h, format!(" {t}")),
        None => (verb, String::new()),
    };
    let mut forms = vec![head.to_string()];
    let stem_e = head.strip_suffix('e');
    match head.chars().last() {
        Some('e') => {
            forms.push(format!("{head}s"));
            forms.push(format!("{head}d"));
            forms.push(format!("{}ing", stem_e.unwrap_or(head)));
        }
        Some('y') if !head.ends_with("ay") && !head.ends_with("ey") && !head.ends_with("oy") => {
            let stem = &head[..head.len() - 1];
            forms.push(format!("{stem}ies"));
            forms.push(format!("{stem}ied"));
            forms.push(format!("{head}ing"));
        }
        _ => {
            let es = head.ends_with('s') || head.ends_with("sh") || head.ends_with("ch") || head.ends_with('x');
            forms.push(if es { format!("{head}es") } else { format!("{head}s") });
            forms.push(format!("{head}ed"));
            forms.push(format!("{head}ing"));
            // stop → stopped, stopping (one short vowel before a final consonant).
            let chars: Vec<char> = head.chars().collect();
            if chars.len() >= 3 && chars.len() <= 4 {
                let [.., a, b, c] = chars[..] else { unreachable!("length checked") };
                if !is_vowel(a) && is_vowel(b) && !is_vowel(c) && !"wxy".contains(c) {
                    forms.push(format!("{head}{c}ed"));
                    forms.push(format!("{head}{c}ing"));
                }
            }
        }
    }
    forms.into_iter().map(|f| format!("{f}{tail}")).collect()
}

fn is_vowel(c: char) -> bool {
    "aeiou".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The families of the actions `request_actions` reads in `text`, by name.
    fn asked(text: &str) -> Vec<&'static str> {
        let t = families();
        request_actions(t, text).iter().map(|a| t.name(a.family)).collect()
    }

    fn family_of_request(text: &str) -> Option<String> {
        let t = families();
        let w = words(text);
        let refs: Vec<&str> = w.iter().map(String::as_str).collect();
        t.first_action(&refs).map(|a| t.name(a.family).to_string())
    }

    fn family_of_tool(name: &str) -> Option<String> {
        let t = families();
        let w = words(&toolscout_indexer::split_name(name));
        let refs: Vec<&str> = w.iter().map(String::as_str).collect();
        t.first_action(&refs).map(|a| t.name(a.family).to_string())
    }

    /// One check per family, from the table's own example column.
    #[test]
    fn every_family_recognises_its_example_request_and_tool() {
        let t = families();
        assert!(t.len() > 40);
        for row in &t.rows {
            let (request, tool) = &row.example;
            assert_eq!(family_of_request(request).as_deref(), Some(row.name.as_str()), "request {request:?}");
            assert_eq!(family_of_tool(tool).as_deref(), Some(row.name.as_str()), "tool {tool:?}");
        }
    }

    #[test]
    fn inflections_phrases_and_agreement() {
        let check = |text: &str, family: Option<&str>| assert_eq!(family_of_request(text).as_deref(), family, "{text}");
        check("Creates a new issue", Some("create"));
        assert_eq!(families().base_form("deletes"), "delete");
        assert_eq!(families().base_form("rolled back"), "roll back");
        check("deleting old branches", Some("delete"));
        check("it stopped", Some("stop"));
        check("please roll back the deploy", Some("revert"));
        check("can you roll the heroku app back to v41", Some("revert"));
        check("take that move back so I can try again", Some("revert"));
        check("could you take that last move back", Some("revert"));
        check("roll my-app-prod on heroku back to release v212", Some("revert"));
        assert_eq!(
            request_actions(families(), "roll my-app back to release v212").len(),
            1,
            "a release gone back to is no action"
        );
        check("spin a postgres container up on port 5432", Some("start"));
        check("turn the porch light off at 11pm", Some("stop"));
        check("kick the spam bot off the server", Some("delete"));
        check("roll the dice", None);
        check("back up the sqlite db before I migrate", Some("download"));
        check("re-run the failed workflow", Some("resume"));
        check("retry the failed job in build 8812", Some("resume"));
        // Running again is running: "re-run the Keboola transformation" agrees with `run_job`.
        assert_eq!(
            families().agreement(families().by_name("resume"), families().by_name("run")),
            Agreement::Compatible
        );
        // Moving an issue to a status is what a `transition_issue` tool does.
        assert_eq!(family_of_tool("jira_transition_issue").as_deref(), Some("move"));
        assert_eq!(family_of_tool("manage_slide_transitions"), None);
        check("mute the datadog monitor for 2 hours", Some("stop"));
        check("archive the stripe product", Some("archive"));
        check("upgrade the helm release api to chart 1.4", Some("update"));
        check("tell me the time in Tokyo", Some("get"));
        check("tell #deploys we shipped", Some("send"));
        check("stage src/main.py and commit it", Some("store"));
        check("tick off 'pay electricity bill' in todoist", Some("close"));
        check("raise a ServiceNow incident: VPN down", Some("create"));
        check("bump the price of the mug to $14", Some("update"));
        check("pin the last message in the group", Some("subscribe"));
        check("dig through my inbox for anything from dhl.com", Some("search"));
        check("mint a new NFT for the collection", Some("create"));
        assert_eq!(family_of_tool("mint_nft").as_deref(), Some("create"), "minting makes a new token");
        assert_eq!(family_of_tool("unpublish_entry").as_deref(), Some("revert"), "the opposite of publishing");
        assert_eq!(family_of_tool("ignore_error_group").as_deref(), Some("reject"));
        assert_eq!(family_of_tool("git_commit").as_deref(), Some("store"));
        assert_eq!(family_of_tool("list_commits").as_deref(), Some("list"), "a later verb is a noun");
        check("weather in Paris tomorrow", None);
        let t = families();
        let f = |n: &str| t.by_name(n);
        assert_eq!(t.agreement(f("cancel"), f("close")), Agreement::Conflict, "void vs finalize");
        assert_eq!(t.agreement(f("search"), f("get")), Agreement::Compatible);
        assert_eq!(t.agreement(f("get"), f("search")), Agreement::Compatible, "symmetric");
        assert_eq!(t.agreement(f("delete"), f("delete")), Agreement::Same);
        assert_eq!(t.agreement(None, f("delete")), Agreement::Unknown);
        assert_eq!(t.class(f("pay").expect("pay")), EffectClass::Irreversible);
        let set = |names: &[&str]| names.iter().filter_map(|n| t.by_name(n)).collect::<Vec<_>>();
        assert_eq!(t.agreement_of_sets(&set(&["search", "download"]), &set(&["download"])), Agreement::Same);
        assert_eq!(t.agreement_of_sets(&set(&["cancel"]), &set(&["close", "get"])), Agreement::Conflict);
        assert_eq!(t.agreement_of_sets(&set(&["list"]), &set(&["delete", "get"])), Agreement::Compatible);
        assert_eq!(t.agreement_of_sets(&[], &set(&["get"])), Agreement::Unknown);
        // Marking a task done is an update of it: "mark it as done" does not conflict with complete_task.
        assert_eq!(t.agreement_of_sets(&set(&["update"]), &set(&["close"])), Agreement::Compatible);
    }

    #[test]
    fn what_a_tool_looked_for_does_is_asked() {
        assert_eq!(asked("Need a tool that removes the key 'session:8841' from the cache"), ["delete"]);
        assert_eq!(asked("is there anything which lists my open invoices"), ["list"]);
        assert_eq!(asked("looking for a tool for deleting old branches"), ["delete"]);
        assert!(asked("need a tool that accepts a URL").is_empty(), "what it takes");
        assert!(asked("the script that deletes old logs keeps failing").is_empty(), "a script is no tool looked for");
    }

    #[test]
    fn phrases_adverbs_and_clauses_that_describe_a_thing() {
        let t = families();
        // A phrase written around a pronoun is the phrase, though its verb alone is a form.
        assert_eq!(asked("pull it back so they can no longer sign it"), ["cancel"]);
        assert_eq!(asked("pull the report from the server"), ["download"]);
        // "let … know" notifies; "let me know" asks the assistant to answer.
        assert_eq!(asked("let the QA group know that build 42 is ready"), ["send"]);
        assert!(asked("let me know whether build 42 is ready").is_empty());
        // An adverb between a word that leads to a verb and the verb; not after any other word.
        assert_eq!(asked("can you actually buy me a seat on G1033"), ["pay"]);
        assert!(asked("was 3.14.0 ever actually published to maven central").is_empty());
        // A clause that describes a thing does not ask its verb.
        assert_eq!(asked("delete the user from the project where we search audit logs"), ["delete"]);
        assert_eq!(asked("add presenter notes that only I see"), ["create"]);
        assert_eq!(asked("render the page into a PNG image I can email her"), ["generate"]);
        assert_eq!(asked("so I can see what broke, pull the logs"), ["get", "download"]);
        // What an action hands back is its outcome, not a look-up of its own.
        assert_eq!(asked("push this signed transaction to the network and give me back the txid"), ["upload"]);
        assert_eq!(asked("give me back my last order"), ["get"]);
        // A noun given to a thing is the action ("give that story an upvote"); what was not meant is denied.
        assert_eq!(asked("give that Hacker News story about the Mars rover an upvote"), ["subscribe"]);
        assert_eq!(denied_actions(families(), "I didn't mean to move my knight there").len(), 1);
        // "get it uploaded" uploads; "Can you do that?" hands the rest over.
        assert_eq!(asked("get it uploaded to our YouTube channel as unlisted"), ["upload"]);
        assert!(only_defers("Can you do that?") && only_defers("could you take care of it for me"));
        assert!(!only_defers("can you process that in Stripe?"));
        // A light verb's noun may follow two more words.
        assert_eq!(asked("place a market buy order for 10 shares of AAPL"), ["pay"]);
        // A parameter of a list is no action.
        assert_eq!(
            asked(&crate::payload::quoted_letters_masked(
                "kick off a build on pipeline web, branch release/2.14, commit 4e1d9ab7, message 'hotfix rebuild'"
            )),
            ["start"]
        );
        assert_eq!(asked("find order 1234, refund 5678"), ["search", "refund"]);
        // A clause may open with the place its verb acts in.
        assert_eq!(asked("under task 87 in SimpleCheckList add subtask 'Write the migration'"), ["create"]);
        assert!(asked("in the folder created yesterday").is_empty());
        assert!(asked("on how to effectively write compelling ad text").is_empty());
        // "load … into" puts something somewhere.
        assert_eq!(asked("load every PDF under /data into our knowledge graph"), ["upload"]);
        assert_eq!(asked("load the report"), ["get"]);
        // What the asker did is not asked (`done_actions`); what was done by anyone may be a step before.
        assert_eq!(
            done_actions(t, "I've loaded /music/take3.wav; give me the beats")
                .iter()
                .map(|&f| t.name(f))
                .collect::<Vec<_>>(),
            ["get"]
        );
        assert!(done_actions(t, "solve the model now that all the items are added").is_empty());
    }

    #[test]
    fn undoing_names_and_denied_verbs_are_read_as_meant() {
        assert_eq!(family_of_tool("unsuspend_user").as_deref(), Some("resume"), "the opposite of suspending");
        assert_eq!(family_of_tool("unblock_contact").as_deref(), Some("unlock"));
        assert_eq!(family_of_tool("unapprove_merge_request").as_deref(), Some("reject"), "the opposite of approving");
        // A denied verb is not asked for.
        let families_of = |text: &str| {
            request_actions(families(), text).iter().map(|a| families().name(a.family).to_string()).collect::<Vec<_>>()
        };
        assert_eq!(families_of("permanently delete trello card 64f1, not just archive it"), ["delete"]);
        assert_eq!(families_of("I don't want to delete it, just archive it"), ["archive"]);
        assert_eq!(families_of("archive it, then delete it"), ["archive", "delete"]);
        // A past participle asked for is.
        assert_eq!(families_of("Slide 7 has to go. Actually I want it removed from the file completely"), ["delete"]);
        assert_eq!(families_of("the old branch should be deleted"), ["delete"]);
        assert_eq!(families_of("our smoke-test collection needs to be run"), ["run"], "a participle like its verb");
        assert_eq!(families_of("PR 482 has been approved and should now be merged"), ["merge"]);
        assert!(families_of("the nightly job should be running by now").is_empty(), "a state");
        assert!(families_of("I had it deleted last week").is_empty());
        assert_eq!(families_of("how do I set up a webhook for the repo"), ["create"]);
        assert_eq!(families_of("git push my local branch to origin"), ["upload"]);
        assert_eq!(families_of("roll back the last git commit but keep the changes"), ["revert"]);
        // … it is what the request says not to do.
        let denied = |text: &str| {
            denied_actions(families(), text).iter().map(|&f| families().name(f).to_string()).collect::<Vec<_>>()
        };
        assert_eq!(denied("permanently delete trello card 64f1, not just archive it"), ["archive"]);
        assert_eq!(denied("Don't delete and recreate the account"), ["delete", "resume"]);
        assert_eq!(denied("I don't want it deleted, just hidden"), ["delete"]);
        assert_eq!(denied("draft a reply to the landlord in gmail but DON'T send it"), ["send"]);
        assert_eq!(denied("pause maestro trigger trg_55 for now, don't delete it"), ["delete"]);
        assert!(denied("archive it, then delete it").is_empty());
    }

    #[test]
    fn request_verbs_only_where_a_request_puts_them() {
        let t = families();
        let check = |text: &str, expected: &[&str]| {
            let got: Vec<&str> = request_actions(t, text).iter().map(|a| t.name(a.family)).collect();
            assert_eq!(got, expected, "{text}");
        };
        check("AAPL daily closing prices for the past year", &[]);
        check("3pm new york is what time in london?", &[]);
        // A filler a spoken or hurried request opens with leads to its verb.
        check("okay upload the video to my youtube channel as unlisted", &["upload"]);
        check("oops undo my last chess move", &["revert"]);
        check("um send jake a direct message on discord", &["send"]);
        // A to-do list's box is no word; a count may follow a light verb's noun; "b4" opens a clause of time.
        check("- [x] mark 'Write migration guide' as done in SimpleCheckList", &["close"]);
        check("could you maybe flag the error group in Raygun as fixed so it stops nagging us?", &["close"]);
        check("mark the email as read", &["update"]);
        check("leave a note on Linear ticket ENG-412 saying the fix has been deployed", &["comment"]);
        check("[ ] leave a quick note on the Q3 Roadmap page in Notion asking Priya to confirm", &["comment"]);
        check("leave the notes folder alone", &[]);
        check("unlock okta user jsmith@acme.io, locked out after too many tries", &["unlock"]);
        check("deleted the wrong file by accident, restore it from the trash", &["revert"]);
        check("Check whether the syntax is even valid before I lose my mind.", &["validate"]);
        check("check whether the build passed", &["get"]);
        check("take that outdated blog entry down from the live site", &["revert"]);
        check("[ ] drain k8s node ip-10-0-3-17 before tonight's kernel patch", &["lock"]);
        check("place a buy order 10 aapl shares @ market pls", &["pay"]);
        check("lock contract.docx w/ a pw b4 i email it to the client", &["lock"]);
        check("stash my uncommitted git changes", &["archive"]);
        check("snapshot the local SQLite db to /backups/app.db", &["download"]);
        check("close issue 12, then post a note in #general", &["close", "send"]);
        check("can you delete ~/tmp/old.log please", &["delete"]);
        check("where can I charge my electric car near Munich", &["search"]);
        check("where do I buy train tickets to Lyon", &["search"]);
        check("before I bump the pom, check that 3.14.0 was published", &["get"]);
        check("get the packet capture for detection 5521 so I can open it in wireshark", &["get"]);
        // "load … into" puts it somewhere (`Families::put_into`).
        check("load the csv into sqlite so that I can query it", &["upload", "search"]);
        check("which shows can I stream that I can play offline", &["play"]);
        check("we retired Jenkins, so remove the SonarQube webhook", &["delete"]);
        check("cut host 7 off from the network", &["lock"]);
        check("is there a tool that drops a red marker on my timeline", &[]);
        check("drop the temp_import collection", &["delete"]);
        // Looking for the means of a request is not what it asks.
        check("Looking for a tool that permanently deletes the Stripe customer cus_Q1", &["delete"]);
        check("can you find me a way to export my notes", &["download"]);
        check("find something to eat near the station", &["search"]);
        check("Investigate why a user failed to log in", &[]);
        check("the pod is unable to start, restart it", &["resume"]);
        check("I need to log a new manual activity on Strava", &["store"]);
        check("show me the error log of the nightly job", &["get"]);
        check("charge my card 20 dollars", &["pay"]);
        check("transcript for https://www.youtube.com/watch?v=x", &[]);
        check("I want to book a table for two", &["schedule"]);
        check("file a linear issue: dark mode toggle does nothing", &["create"]);
        check("upload a file to the bucket", &["upload"]);
        check("file size of report.pdf", &[]);
        check("I’d book a table for two", &["schedule"]);
        check("summarise the filing and pay special attention to the risks", &["summarize"]);
        check("make sure the deploy ran, then pay the invoice", &["pay"]);
        check("get rid of the stale branches", &["delete"]);
        check("nuke branch feature-x", &["delete"]);
        check("kick 00u77abcD out of the Finance-RO group", &["delete"]);
        check("kick off the nightly build", &["start"]);
        check("recreate the web container", &["resume"]);
        check("Notion | Delete a block", &["delete"]);
        check("upsert these records into the index", &["store"]);
        check("write the result to out.txt", &["store"]);
        // A light verb takes its action from the noun it leads to.
        check("take a screenshot of https://news.ycombinator.com", &["screenshot"]);
        check("leave a quick comment on the figma frame 'Checkout v2'", &["comment"]);
        check("Just make the edit.", &["update"]);
        check("place an order for 20 shares of AAPL", &["pay"]);
        check("leave a review of the hotel on tripadvisor", &[]);
        check("make a list of my repos", &["create"]);
        check("make the logo bigger", &["create"]);
        check("Make an onboarding checklist Word doc at /root/word/list.docx", &["create"]);
        assert!(!unknown_verb(t, "take a full backup of the postgres analytics db"));
        check("take a look at the failing build", &["get"]);
        // Every light noun is a verb of the table ("look" of "look at").
        for noun in LIGHT.iter().flat_map(|(_, nouns)| nouns.iter()) {
            assert!(t.forms.contains_key(*noun) || t.forms.contains_key(&format!("{noun} at")), "{noun}");
        }
        assert!(unknown_verb(t, "take the transcript of https://youtu.be/x and make anki cards"));
        // A condition, a time or a place opening a clause is no verb: "once the tests pass, commit …".
        assert!(!unknown_verb(t, "Once the unit tests pass, commit what's staged"));
        assert!(!unknown_verb(t, "If the build failed, rerun it"));
        assert!(!unknown_verb(t, "In our chess game, play bishop to f7"));
        // What someone did is not asked.
        check("restore the alfresco doc I deleted by mistake", &["revert"]);
        check("reactivate okta user 00uOld77 that we deactivated last month", &["resume"]);
        check("unsend the email I just sent to the whole team", &["cancel"]);
        check("submit a post to r/selfhosted", &["send"]);
        check("consume the next 10 messages from the queue", &["get"]);
        check("enroll me in the AZ-104 learning path", &["subscribe"]);
        check("I deleted the wrong file, please restore it", &["revert"]);
        check("we need to delete the branch", &["delete"]);
        check("I send invoices every month: send this one now", &["send", "send"]);
        check("How much has Coca-Cola (KO) paid out in dividends over the years?", &[]);
        check("which invoices were paid last month", &[]);
        check("has the nightly job been deleted", &[]);
        check("I've just finished my Python solution, submit it", &["send"]);
        // … in a clause that says which thing, a form the present shares ("put", "set") too, and with an
        // adverb in "-ly" between.
        check("remove the thumbs up reaction I put on the message", &["delete"]);
        check("can I put the file in the bucket", &["create"]);
        check("I accidentally trashed the doc; bring it back", &["revert"]);
        // An "-ing" form after "to" is where a thing goes.
        check("I added too many files to staging, remove them", &["delete"]);
        check("I want to edit the page", &["update"]);
        // Being told how an action went is part of that action.
        check("submit my solution to the judge and tell me if it gets accepted", &["send"]);
        check("tell me whether the build passed", &["get"]);
        check("take them all out of the staging area", &["delete"]);
        check("Build #1289 on the deploy-prod pipeline is stuck; stop it", &["stop"]);
        check("Order #998 never arrived, refund it", &["refund"]);
        check("post a note in #general", &["send"]);
        assert!(only_asks_to_hear_back("Please advise once the channel exists so that I may circulate the link"));
        assert!(only_asks_to_hear_back("and let me know when it's done"));
        assert!(!only_asks_to_hear_back("tell me if the build passed"));
        assert!(!only_asks_to_hear_back("let me know the weather in Paris"));
        // A search-box request may name where it acts before its verb; a letter points to what follows.
        check("excel delete sheet", &["delete"]);
        check("chess undo last move", &["revert"]);
        check("weibo hot search", &[]);
        check("Please find below the particulars: the checkout-web deployment", &[]);
        check("I write with a somewhat unusual request", &[]);
        check("which modules can I enable on my Redis Cloud databases", &[]);
        check("what can I do to restart the api", &["resume"]);
        check("I am writing regarding this morning's incident", &[]);
        check("I write the release notes into notes.md", &["store"]);
        // A learner's words: "eliminate", "actualize", "make the delete of …", "mark it like done".
        check("Eliminate please the bookmark of the old recipe site", &["delete"]);
        check("please to actualize the phone number of the contact", &["update"]);
        check("How I can make the delete of the label 'Old projects'", &["delete"]);
        check("please to mark it like done", &["close"]);
        assert!(only_tells_what_was_done(t, "we moved the landing page to the new stack last month"));
        assert!(only_tells_what_was_done(t, "someone deleted the 'Contracts 2024' folder in Alfresco"));
        assert!(!only_tells_what_was_done(t, "we moved the page, now delete the old one"));
        assert!(!only_tells_what_was_done(t, "the old one is just burning money"));
        // A sentence that tells how things are sets the scene of a request's other part.
        assert!(only_sets_the_scene(t, "Airbnb listing 53912345 looks nice."));
        // "I can't …" tells what goes wrong; "can't you …" asks.
        assert!(only_sets_the_scene(
            t,
            "This Docker container has been squatting on port 8080 all afternoon and I can't start anything."
        ));
        assert!(!only_sets_the_scene(t, "the build has been stuck for an hour, can't you just stop it"));
        assert!(only_sets_the_scene(t, "I'm planning a trip to Kyoto next week."));
        assert!(only_sets_the_scene(t, "I don't want anyone else opening the Word file with the salaries."));
        assert!(!only_sets_the_scene(t, "I don't want the history."));
        assert!(only_sets_the_scene(t, "I maintain the npm package left-pad-plus"));
        assert!(only_sets_the_scene(t, "Oops, I blundered my queen with that last move in our chess game."));
        assert!(only_sets_the_scene(t, "Here's my Python solution for the LeetCode problem two-sum."));
        assert!(!only_sets_the_scene(t, "the latest Apple stock price"));
        assert!(!only_sets_the_scene(t, "I need the weather in Paris"));
        assert!(!only_sets_the_scene(t, "Is the build green"));
        assert!(!only_sets_the_scene(t, "Please reserve it for two guests."));
        // What someone else wants sets the scene; what "it" needs asks.
        assert!(only_sets_the_scene(t, "We're kicking off the migration and the team wants its own space in Slack."));
        assert!(!only_sets_the_scene(t, "We moved the docs and it needs a new home in Notion."));
        assert!(only_bounds_another("leave the other sheets alone"));
        assert!(only_bounds_another("keep everything else as is"));
        assert!(!only_bounds_another("keep the meeting notes in my notion workspace"));
        assert!(only_bounds_another("keep the rest as-is"));
        assert!(!only_bounds_another("keep the restaurant booking in my calendar"));
        assert!(only_bounds_another("the other tabs should stay"));
        assert!(only_bounds_another("everything else remains as it was"));
        assert!(!only_bounds_another("the other team wants to stay informed, email them the notes"), "it asks");
        // Requests in German, French, Spanish and Italian open with verbs of `foreign_verbs.txt`, matched
        // as written.
        check("Lösche das Asana-Projekt 'Q2 Kampagne' komplett", &["delete"]);
        // Chinese and Japanese: found inside a run of their script, wherever the request puts them; the
        // longer of two overlapping forms wins ("一時停止" holds "停止").
        check("把 Notion 里的“Old roadmap 2023”页面归档", &["archive"]);
        check("在 Buildkite 里把 pipeline legacy-android 删掉", &["delete"]);
        check("oktaのユーザー 00uT5 を一時停止（suspend）して", &["stop"]);
        check("查一下上海明天的天气，然后发到飞书群 oc_7a8b9c 里", &["send"]);
        check("红烧肉怎么做？给我完整的菜谱和用料", &[]);
        check("Resérvame una mesa para dos esta noche", &["schedule"]);
        // … wherever the request puts them; a negation before one denies it.
        check("Keboola: bitte den laufenden Job 98765 abbrechen", &["cancel"]);
        check("Stripe: bitte den PaymentIntent pi_3Mtw stornieren, nicht erstatten", &["cancel"]);
        assert_eq!(
            denied_actions(t, "Stripe: bitte den PaymentIntent pi_3Mtw stornieren, nicht erstatten"),
            [t.by_name("refund").expect("family")]
        );
        check("Envoie un message sur le canal Slack #ventes", &["send"]);
        check("Stripe: storniere den PaymentIntent pi_3Mtw", &["cancel"]);
        check("annulla l'ordine 42", &["cancel"]);
        // An address's scheme is no word of the request, and its colon ends no clause.
        assert_eq!(request_words("fetch the text of https://www.rust-lang.org/learn"), ["fetch", "the", "text", "of"]);
        // An aside in parentheses with no verb is part of its clause; one with a verb, or a parenthesis
        // never opened, ends a clause.
        assert_eq!(clause_ends("remove the group (group id 17) from my project"), [9]);
        assert_eq!(clause_ends("delete it (then archive the folder) now"), [2, 6, 7]);
        assert_eq!(clause_ends("1) delete it (now) 2) archive"), [1, 5, 6]);
        // Verbs joined by a slash offer either; a repository or a path stays out.
        check("close/delete the trello board 'Hackathon 2023'", &["close", "delete"]);
        assert_eq!(request_words("star acme/deploy and/or ~/code"), ["star"]);
    }

    #[test]
    fn a_noun_that_begins_with_a_verb_shows_no_action() {
        let t = families();
        let of_tool = |name: &str| -> Vec<String> {
            let w = words(&toolscout_indexer::split_name(name));
            let refs: Vec<&str> = w.iter().map(String::as_str).collect();
            t.actions(&refs).iter().map(|a| t.name(a.family).to_string()).collect()
        };
        assert_eq!(of_tool("create_merge_request"), ["create"], "creates a merge request; does not merge");
        assert_eq!(of_tool("merge_pull_request"), ["merge"], "merges; does not pull (download)");
        assert_eq!(of_tool("get_pull_request"), ["get"]);
        assert_eq!(of_tool("list_merge_requests"), ["list"], "the plural of the noun");
        assert_eq!(of_tool("pull_image"), ["download"], "the verb alone still acts");
        let of_request = |text: &str| -> Vec<String> {
            request_actions(t, text).iter().map(|a| t.name(a.family).to_string()).collect()
        };
        assert_eq!(of_request("open a github issue: login page throws a 500"), ["open"], "a login page logs nobody in");
        assert_eq!(of_request("login to my account"), ["login"]);
        let f = |n: &str| t.by_name(n).expect("family");
        assert_eq!(
            t.agreement_of_sets(&[f("approve"), f("merge")], &[f("create")]),
            Agreement::Conflict,
            "approving and merging a merge request is not creating one"
        );
    }

    #[test]
    fn a_form_in_two_families_is_refused() {
        let text = "a | read | | get | get x => get_x\nb | read | | get | get y => get_y\n";
        assert!(Families::parse(text, "", "").expect_err("duplicate").contains("both"));
        // A foreign form already in another family is refused too ("fetch" is `get`'s).
        let err = Families::parse(FAMILIES, NOUNS, "delete | lösche fetch").expect_err("duplicate");
        assert!(err.contains("foreign_verbs.txt") && err.contains("both"), "{err}");
        assert!(Families::parse(FAMILIES, NOUNS, "vanish | lösche").is_err(), "an unknown family");
    }

    #[test]
    fn a_noun_that_names_an_action_opens_a_ticket_title() {
        assert_eq!(asked("Deletion of the duplicate ACME customer record in Stripe"), ["delete"]);
        assert_eq!(asked("ci: cancellation of stuck Buildkite build #912 on the deploy pipeline"), ["cancel"]);
        assert_eq!(asked("Archival of the stale 'Q1 roadmap' page in Notion"), ["archive"]);
        assert_eq!(
            asked("[data] manual run of Salesforce extractor config 12345 in Keboola"),
            ["run"],
            "a tag is no word"
        );
        assert_eq!(asked("[ops] restart of payments-api deployment"), ["resume"]);
        assert!(asked("the deletion of the record failed").is_empty(), "a noun after a determiner tells");
        assert!(asked("deletion requests pile up").is_empty(), "only before \"of\"");
        assert!(asked("deps: release history of Newtonsoft.Json on NuGet").is_empty(), "a release history is a thing");
        assert_eq!(families().base_form("deletion"), "delete");
        // A noun that is a form of the table is refused: it is read as that form already.
        let bare = || Families::parse(FAMILIES, NOUNS, FOREIGN).expect("checked");
        let err = bare().with_nominals("update update").expect_err("a form");
        assert!(err.contains("form of the table"), "{err}");
        assert!(bare().with_nominals("deletion vanish").is_err(), "an unknown verb");
    }

    #[test]
    fn what_is_pushed_or_withdrawn_tells_the_action() {
        assert_eq!(asked("push an alert notification to the user's phone through Pushover"), ["send"]);
        assert_eq!(asked("push the feature branch to origin"), ["upload"]);
        assert_eq!(asked("withdraw Rs 50,000 from my Zerodha account"), ["pay"]);
        assert_eq!(asked("Withdrawal of 200 USD from the trading account to the linked bank"), ["pay"]);
        assert_eq!(asked("withdraw my application for the Berlin role"), ["cancel"]);
        assert_eq!(asked("throw away the note called 'grocery ideas'"), ["delete"]);
    }

    #[test]
    fn a_noun_for_a_tool_looked_for_is_no_unknown_verb() {
        let t = families();
        assert!(!unknown_verb(t, "function that saves all of a Chess.com player's games as a PGN file"));
        assert!(!unknown_verb(t, "capability which lists the open pull requests"));
        assert!(unknown_verb(t, "grab the Wikipedia summary and put it into a doc"), "a verb the table lacks");
    }
}
