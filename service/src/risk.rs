//! The risk class of a tool: what calling it can do to the world, least to most — `read`, `change`,
//! `create`, `external` (send, post, publish), `irreversible` (delete, pay, transfer). Pure code, no I/O.
//!
//! How a class is reached, in order:
//! 1. The verb of the tool's name and the first verb of its description (the action families of
//!    `actions/`, plus a few verbs that matter only here, like `overwrite`): the higher class of the two.
//! 2. Nothing recognised: `read` if the server declares `readOnlyHint: true`, else `change` — an unknown
//!    tool is never assumed harmless on its own word alone when it says nothing.
//! 3. MCP annotations are untrusted: they may raise the class, never lower it. An explicit
//!    `readOnlyHint: false` lifts `read` to `change`; `destructiveHint: true` (on a tool not declared
//!    read-only) lifts to `irreversible`; `openWorldHint: true` lifts a tool that changes anything to
//!    `external` (its changes are seen outside). Absent hints say nothing (their spec defaults are for
//!    display, not evidence).
//! 4. An operator override (the policy file's `[risk]` table) sets the class outright.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::actions::{EffectClass, VERB_LEADS, families, words};

/// A tool's risk class and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Risk {
    /// The class.
    pub class: EffectClass,
    /// What led to it, in order (the name's verb, the description's, annotations, an override).
    pub reasons: Vec<String>,
}

/// Operator overrides: `server_id/tool` (or `server_id/*` for every tool of a server) → class.
pub type RiskOverrides = BTreeMap<String, EffectClass>;

/// Verbs that matter for risk but are not action families of the ranking (adding them there would
/// change its features): their class.
const EXTRA_VERBS: [(&str, EffectClass); 7] = [
    ("overwrite", EffectClass::Change),
    ("overwrites", EffectClass::Change),
    ("put", EffectClass::Change),
    ("puts", EffectClass::Change),
    ("exec", EffectClass::Change),
    ("wire", EffectClass::Irreversible),
    ("withdraw", EffectClass::Irreversible),
];

impl EffectClass {
    /// Every class, least to most.
    pub const ALL: [EffectClass; 5] =
        [EffectClass::Read, EffectClass::Change, EffectClass::Create, EffectClass::External, EffectClass::Irreversible];

    /// The class's name as written in answers and policy files.
    pub fn as_str(self) -> &'static str {
        match self {
            EffectClass::Read => "read",
            EffectClass::Change => "change",
            EffectClass::Create => "create",
            EffectClass::External => "external",
            EffectClass::Irreversible => "irreversible",
        }
    }
}

impl std::fmt::Display for EffectClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for EffectClass {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        EffectClass::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| format!("unknown risk class {s:?}: one of read, change, create, external, irreversible"))
    }
}

/// The risk of the tool `name` of server `server_id`, whose MCP `Tool` object is `tool`.
pub fn classify(server_id: &str, name: &str, tool: &Value, overrides: &RiskOverrides) -> Risk {
    let exact = format!("{server_id}/{name}");
    let whole_server = format!("{server_id}/*");
    if let Some((key, &class)) = overrides.get_key_value(&exact).or_else(|| overrides.get_key_value(&whole_server)) {
        return Risk { class, reasons: vec![format!("set by the operator ({key:?} in the policy file)")] };
    }
    let mut reasons = Vec::new();
    let mut class: Option<EffectClass> = None;
    let mut raise = |to: EffectClass, why: String, class: &mut Option<EffectClass>| {
        if class.is_none_or(|c| to > c) {
            *class = Some(to);
        }
        reasons.push(why);
    };
    let name_words = words(&toolscout_indexer::split_name(name));
    if let Some((verb, to)) = name_verb(&name_words) {
        raise(to, format!("its name says {verb:?} ({to})"), &mut class);
    }
    let description = tool.get("description").and_then(Value::as_str).unwrap_or("");
    let first_sentence = description.split(['.', '\n', ';']).find(|s| !s.trim().is_empty()).unwrap_or("");
    if let Some((verb, to)) = verbs(&words(first_sentence), true).into_iter().next() {
        raise(to, format!("its description says {verb:?} ({to})"), &mut class);
    }
    let hint = |key: &str| tool.pointer(&format!("/annotations/{key}")).and_then(Value::as_bool);
    let read_only = hint("readOnlyHint");
    let mut class = match class {
        Some(c) => c,
        None if read_only == Some(true) => {
            reasons.push("no action in its name or description; declared read-only".into());
            EffectClass::Read
        }
        None => {
            reasons.push("no action in its name or description: assumed to change something".into());
            EffectClass::Change
        }
    };
    if read_only == Some(false) && class == EffectClass::Read {
        class = EffectClass::Change;
        reasons.push("declared not read-only (readOnlyHint: false)".into());
    }
    if hint("destructiveHint") == Some(true) && read_only != Some(true) && class < EffectClass::Irreversible {
        class = EffectClass::Irreversible;
        reasons.push("declared destructive (destructiveHint: true)".into());
    }
    if hint("openWorldHint") == Some(true) && class > EffectClass::Read && class < EffectClass::External {
        class = EffectClass::External;
        reasons.push("changes something in an open world (openWorldHint: true)".into());
    }
    if read_only == Some(true) && class > EffectClass::Read {
        reasons.push(format!("declares readOnlyHint: true, which cannot lower {class}"));
    }
    Risk { class, reasons }
}

/// The verb of a tool name: names are `verb_object` or `object_verb` (`read_text_file`, `pods_delete`),
/// so the first recognised action, except a last word in the plural, which is the object
/// (`browser_console_messages` is not sending anything).
fn name_verb(words: &[String]) -> Option<(String, EffectClass)> {
    let last = words.len().saturating_sub(1);
    verbs(words, false).into_iter().find(|(verb, _)| {
        let at = words.iter().position(|w| w == verb.split(' ').next().unwrap_or(verb)).unwrap_or(0);
        !(at > 0 && at == last && verb.ends_with('s') && !verb.ends_with("ss"))
    })
}

/// The recognised verbs among `words`, with their classes, each verb once. In a name every word counts
/// (names are `verb_object`); in a description only words where a verb stands — the start of a clause
/// or after "and", "or", "to", … — so "Read the complete contents" is a read, not a completion.
/// What a request asks to do, as risk classes: the verbs where a request puts them ("please *send*",
/// "and *delete*"), each with its class ("open" keeps its ranking class, create: "open an issue").
pub fn request_classes(request: &str) -> Vec<(String, EffectClass)> {
    let table = families();
    let mut out = Vec::new();
    for clause in request.split(['.', ',', ';', ':', '!', '?', '\n', '(', ')']) {
        let w = words(clause);
        let refs: Vec<&str> = w.iter().map(String::as_str).collect();
        let at_verb = |i: usize| i == 0 || refs[i - 1] == "or" || VERB_LEADS.contains(&refs[i - 1]);
        out.extend(table.actions(&refs).into_iter().filter(|a| at_verb(a.at)).map(|a| (a.verb, table.class(a.family))));
        out.extend(
            w.iter()
                .enumerate()
                .filter(|&(i, _)| at_verb(i))
                .filter_map(|(_, x)| EXTRA_VERBS.iter().find(|(v, _)| v == x).map(|&(v, c)| (v.to_string(), c))),
        );
    }
    out
}

fn verbs(words: &[String], positional: bool) -> Vec<(String, EffectClass)> {
    let table = families();
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let at_verb = |i: usize| !positional || i == 0 || refs[i - 1] == "or" || VERB_LEADS.contains(&refs[i - 1]);
    // "Open" ranks with create ("open a pull request"), but opening is no risk by itself: a tool that
    // opens something new says so elsewhere ("Create a new pull request").
    let class = |f| if table.name(f) == "open" { EffectClass::Read } else { table.class(f) };
    let mut out: Vec<(String, EffectClass)> =
        table.actions(&refs).into_iter().filter(|a| at_verb(a.at)).map(|a| (a.verb, class(a.family))).collect();
    for (i, w) in words.iter().enumerate() {
        if let Some(&(_, class)) = EXTRA_VERBS.iter().find(|(v, _)| v == w)
            && at_verb(i)
        {
            out.push((w.clone(), class));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(v, _)| seen.insert(v.clone()));
    out
}

/// The risk of every tool of `snapshot`, by index (each tool object parsed in turn, never all at once).
pub fn classify_all(snapshot: &toolscout_indexer::Snapshot, overrides: &RiskOverrides) -> Vec<Risk> {
    snapshot
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let object: Value = serde_json::from_str(snapshot.tool_json(i)).unwrap_or(Value::Null);
            classify(&snapshot.servers[t.server as usize].server_id, &t.name, &object, overrides)
        })
        .collect()
}

/// Tools per class, for build reports: `[(class, count)]` least to most.
pub fn count_by_class<'a>(risks: impl IntoIterator<Item = &'a Risk>) -> Vec<(EffectClass, usize)> {
    let mut counts = [0usize; 5];
    for r in risks {
        counts[r.class as usize] += 1;
    }
    EffectClass::ALL.into_iter().zip(counts).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn class(name: &str, tool: Value) -> EffectClass {
        classify("s", name, &tool, &RiskOverrides::new()).class
    }

    #[test]
    fn the_name_and_first_sentence_set_the_class() {
        assert_eq!(
            class("read_file", json!({"description": "Read the complete contents of a file."})),
            EffectClass::Read
        );
        assert_eq!(
            class("write_file", json!({"description": "Create a new file or overwrite one."})),
            EffectClass::Create
        );
        assert_eq!(class("edit_file", json!({})), EffectClass::Change);
        assert_eq!(class("send_message", json!({})), EffectClass::External);
        assert_eq!(
            class("delete_entities", json!({"description": "Delete multiple entities"})),
            EffectClass::Irreversible
        );
        assert_eq!(class("renew_domain", json!({})), EffectClass::Irreversible);
        assert_eq!(class("read_text_file", json!({})), EffectClass::Read, "the verb comes first; text is the object");
        assert_eq!(class("pods_delete", json!({})), EffectClass::Irreversible);
        let ro = json!({"annotations": {"readOnlyHint": true}});
        assert_eq!(class("browser_console_messages", ro), EffectClass::Read, "a plural last word is the object");
        // Only the first sentence speaks for the tool: later ones describe other tools or usage.
        assert_eq!(
            class("list_files", json!({"description": "List files. Use it before you delete a file."})),
            EffectClass::Read
        );
    }

    #[test]
    fn annotations_only_raise() {
        let ro = json!({"description": "Deletes a file", "annotations": {"readOnlyHint": true}});
        assert_eq!(class("remove", ro), EffectClass::Irreversible, "readOnlyHint cannot lower a delete");
        assert_eq!(class("weather", json!({"annotations": {"readOnlyHint": true}})), EffectClass::Read);
        assert_eq!(class("weather", json!({})), EffectClass::Change, "unknown without a hint is not read");
        assert_eq!(class("get_x", json!({"annotations": {"readOnlyHint": false}})), EffectClass::Change);
        assert_eq!(class("edit_x", json!({"annotations": {"destructiveHint": true}})), EffectClass::Irreversible);
        assert_eq!(class("create_issue", json!({"annotations": {"openWorldHint": true}})), EffectClass::External);
        assert_eq!(class("search_web", json!({"annotations": {"openWorldHint": true}})), EffectClass::Read);
    }

    #[test]
    fn overrides_win_and_say_so() {
        let overrides: RiskOverrides = [("s/weather".to_string(), EffectClass::Read)].into_iter().collect();
        let r = classify("s", "weather", &json!({}), &overrides);
        assert_eq!(r.class, EffectClass::Read);
        assert!(r.reasons[0].contains("operator"), "{:?}", r.reasons);
        let all: RiskOverrides = [("s/*".to_string(), EffectClass::External)].into_iter().collect();
        assert_eq!(classify("s", "read_file", &json!({}), &all).class, EffectClass::External);
        assert_eq!(classify("t", "read_file", &json!({}), &all).class, EffectClass::Read);
    }

    #[test]
    fn requests_say_what_they_would_do() {
        let classes = |r: &str| request_classes(r).into_iter().map(|(_, c)| c).collect::<Vec<_>>();
        assert_eq!(classes("delete the entity Alice"), [EffectClass::Irreversible]);
        assert_eq!(classes("please send a message to #general"), [EffectClass::External]);
        // Writing is storing (the `store` family): what is written is made, or made anew.
        assert_eq!(classes("write a new file with the text hello"), [EffectClass::Create]);
        assert_eq!(classes("overwrite the config"), [EffectClass::Change]);
        assert_eq!(classes("open a new issue"), [EffectClass::Create]);
        assert_eq!(classes("show me how to delete a file"), [EffectClass::Read, EffectClass::Irreversible]);
        assert!(classes("the weather in Paris").is_empty());
    }

    #[test]
    fn class_names_round_trip() {
        for c in EffectClass::ALL {
            assert_eq!(c.as_str().parse::<EffectClass>(), Ok(c));
            assert_eq!(serde_json::to_value(c).expect("serializes"), json!(c.as_str()));
        }
        assert!("delete".parse::<EffectClass>().is_err());
    }
}
