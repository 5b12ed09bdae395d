//! The guard: tools that must not be delivered for a request however close they score, because calling
//! them would act on the wrong thing. The rules:
//! - A request to act on a service it names (any action but reading) is not served by another service's
//!   tool: `merge_pull` of Gitee does not merge a GitLab merge request, TickTick's `delete_project` does not
//!   delete a Todoist project. (A service the catalog never mentions is handled before: `missing_service`.)
//! - A request that only acts (every action it shows creates, changes, sends or removes something) is not
//!   served by a tool that only reads the thing it acts on: "rename my notion page" → `retrieve_page`,
//!   "assign the sentry issue to maya" → `search_issues`, "create an index on users.email" →
//!   `collection-indexes` (no verb in its name; "Describe the indexes …"); nor, when it names one service
//!   and acts on it, by that service's tools that only read: "upload the video to my youtube channel" →
//!   `get_transcript`.
//! - A request for something that cannot be undone (the `irreversible` families of
//!   `actions/families.txt`: delete, cancel, revert, pay, refund) is not served by a tool that does
//!   something else, or the same thing to something else: "void that invoice" → `finalizeInvoice`, "delete
//!   the project" → `delete_task`.
//! - A request that only acts on a thing its service tells apart from others (another candidate tool of
//!   that server names it as what it acts on) is not served by a tool of that server that acts on
//!   something the request never mentions and never mentions the thing itself: "rename trello card …" →
//!   `update_list` when `get_card` is a candidate too.
//! - A request that asks for nothing irreversible is not served by a tool that only destroys or undoes
//!   something (delete, cancel, revert) and not what was asked: "disable app connector" →
//!   `delete_app_connector`.
//! - A request to make or delete a thing is not served by a tool that makes or deletes a part of it, or
//!   another thing of a word that qualifies it: "open a github issue" → `add_issue_comment`, "delete the
//!   repository" → `delete_repository_webhook`, "create a discount code" → `create_discount_group`, "file a
//!   linear issue" → `linear_add_comment` (its description says whose comment); nor a
//!   request that only looks a thing up by a tool that only reads a part of it: "list the open issues" →
//!   `list_issue_comments`.
//! - A request only to archive, close, stop, ban or lock a thing, or to change it, is not served by a tool
//!   that makes that thing: "archive the paddle product" → `create_product`, "close issue 12" →
//!   `create_issue`, "change the default branch of pipeline mobile-ios" → `create_pipeline`.
//!   The other way round, a request only to make a thing is not served by a tool that only closes, stops or
//!   archives it: "raise a ServiceNow incident …" → `resolve_incident`.
//! - A request that only looks something up is not served by a tool that only changes something: "list
//!   invoices for customer …" → `create_invoice`, "show me the comments on issue 12" → `add_issue_comment`;
//!   nor, when its server tells the thing apart, by a tool of that server that looks up something else:
//!   "list invoices for customer …" → `list_customers`.
//! - A request is not served by a tool that does the opposite of every action it asks (`OPPOSITES`):
//!   "suspend okta user jdoe" → `unsuspend_user`, "unsubscribe me from the list" → `subscribe`.
//! - A request to make, send or move a thing into a place it names is not served by a tool that makes the
//!   place, nor a place it calls its own, nor a thing a word of the place names: "add a row to the
//!   Invoices table" → `create_table`, "create a section in asana project …" → `create_project`, "post
//!   them in our discord channel" → `create_text_channel`, "on my Neon project, add a column …" →
//!   `create_project`, "add a field to the Tasks table" → Todoist's `add-tasks`.
//! - A request to remove a thing from a place it names is not served by a tool that deletes the place:
//!   "kick 00u77abcD out of the Finance-RO group" → `delete_group`.
//! - A request that acts on or looks up a kind of thing its server tells apart from other kinds is not
//!   served by a tool for another kind: "create a ZPA segment group" → `zpa_create_app_connector_group`;
//!   nor, for a thing of another, by a tool that acts on what holds the thing: "kick off a build of
//!   pipeline …" → `update_pipeline` (beside `get_build`).
//! - A request to make a thing an identifier names is not served by a tool that only makes it: "add user
//!   00u8k2j3HqZ to okta group …" → `create_user`.
//! - A request to convert to a format is not served by a tool that converts from it: "convert notes.md to a
//!   word .docx" → `docx-to-markdown`.
//! - A request that only makes a new thing is not served by a tool that only changes that thing: "open a
//!   github issue" → `update_issue`.
//! - A request that uses a compound noun whose parts name other things (`compounds.txt`) is not served by
//!   a tool whose name uses a part of it and that never uses the whole: "what's my credit score" →
//!   `list-credit-notes`, "what's my heart rate" → `exchange_rate`.
//! - A request that does one thing to a kind of thing another candidate does it to by name is not served
//!   by a tool that does it to something the request never names: "create a merge request on GitLab" →
//!   GitLab's `create_repository` (GitHub's `create_pull_request` tells requests apart).
//!
//! A barred tool can still be offered as `closest`. The decision's model sees these signals too
//! (`other_service_named`, `action_conflict`, `object_miss`), but only as some among many, fitted for
//! recall on the dev sets. The guard is a rule for the cases where a wrong tool costs the most. Pure code,
//! no I/O.

use crate::actions::{Agreement, EffectClass, Family, families};
use crate::analysis::Analysis;
use crate::profile::{Profiles, STOP, TermId};

/// How the guard judges a candidate tool (`Guard::judge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bar {
    /// Not barred: left to the decision.
    Clear,
    /// Barred as the near miss of what is asked: it may overshadow the rest (`stages::decide`).
    NearMiss,
    /// Barred for a reason that makes it no near miss (it reads a service the request only acts on): it
    /// overshadows nothing.
    Quiet,
    /// Barred because the request rules it out (it does what the request says not to do, or is about what
    /// the request says it does not want): it overshadows nothing, and follows every tool not ruled out in
    /// the answer's order (`stages::arrange`).
    RuledOut,
}

/// The guard for one pass: what it reads of the request, worked out once for all candidates.
///
/// A tool of the server `server` must not be delivered for the request when:
/// - the request asks for an action other than reading on a service it names (in that action's clause:
///   "pull revenue from snowflake and chart it" only reads Snowflake), `server` is none of the services it
///   names, and the tool and its server mention none of them, nor any other service of `services.txt` the
///   request names (ms365 mentions Outlook; Gitee does not mention GitLab), and the tool's name shows no
///   action that conflicts with what is asked of the named service (a screenshot tool may serve the other
///   part of "screenshot the page and upload it to cloudinary"). A server counts as named only
///   through a word that is neither a request filler nor a verb, and not by a name made of ordinary words
///   ("everything", "monday"); or
/// - every action the request shows is one that acts (none reads or runs what it is given), and the tool
///   only reads what it acts on: the tool's object shares a term with the request's ("rename my notion
///   *page*" → `retrieve_page`, not "make a deck using Wikipedia" → `search_wikipedia`) or the request names
///   one service (all the servers it names are of one service), acts on it, and the tool is of it ("upload
///   … to my youtube channel" → `get_transcript`; not "take sentry issue … and open a github issue" →
///   Sentry's `get_issue`: two services, and the first verb is not read as one), or the request names
///   the tool's server only in the clauses of actions that act, none that reads or runs, and shows no
///   verb the table does not know ("find arxiv papers on LoRA and save a note … in my obsidian vault" →
///   Obsidian's `search-vault`; `Guard::reads_where_it_acts`: such a bar does not overshadow), its
///   name shows
///   reading actions only, and its description does not open with another kind ("Reserve tickets …" of
///   `GetTrainTickets`) — or its name, an identifier, shows no action and its description opens by
///   reading, not converting (`collection-indexes`, "Describe the indexes …"; not `docx-to-markdown`:
///   a converter makes a new document, and a product's name such as `PageInsights` is not read); or
/// - the request asks for an irreversible action and (a) the tool's name shows only actions that conflict
///   with every action of the request, or (b) the tool deletes something the request does not mention
///   ("delete the project" is not `delete_task`). For (a) and (b), a tool whose name shows no action, or
///   that runs whatever it is given (`ToolProfile::runs_given`: `execute_sql`;
///   not `run_container`), is not barred — unless its name, an identifier, shows no action and its
///   description opens by reading, not converting, in conflict with every action asked (`exchange_rate`,
///   "Retrieves exchange rates …", for "transfer 300 EUR … at today's rate"; not for a question, "how much
///   sales tax do I have to pay …"); or
/// - every action the request shows acts, another candidate tool of `server` names a word of what the
///   request acts on as its own object, and the tool acts (its name shows an action, not `run`) on
///   something whose words the request never uses, and its name and description never use that word
///   (`acts_on_another_thing`). Only candidates count as evidence, so a tool the caller left out (an
///   evaluation's `exclude`) tells nothing; or
/// - the request asks for nothing irreversible, and the tool only deletes, cancels or reverts — its name
///   and its description's opening action both say so — which conflicts with every action the request
///   shows ("disable app connector …" → `delete_app_connector`); or
/// - every action the request shows acts, its first makes something (the `create` class) or deletes it,
///   and the tool (its name shows an action, not `run`, that does not conflict) acts on a part of what the
///   request acts on, or on another thing of it: a word of the request's object that names no service the
///   request names (`acted_words`: "discount" of "a discount code … in paddle", not "jira" of "a jira
///   ticket") qualifies the tool's — or the tool's name shows only verbs and its description names the
///   head of what the request acts on (`linear_add_comment`) — and the one thing the tool's name acts on
///   (`ToolProfile::head`) is a word the request never uses (`acts_on_a_part`); or the request only looks
///   something up and the tool's name only reads a part of it, likewise; or
/// - every action the request shows changes the state of a thing that exists and makes nothing (`ENDS`:
///   archive, close, stop, ban, lock, unlock, log out; or `update`, by a verb that does not also make
///   things: `Analysis::updates_ambiguously`), and the tool only makes (its name's actions are all
///   of the `create` class, none of them agreeing with the request's) the thing the request acts on
///   (`makes_what_is_ended`); or the other way round, every action the request shows makes something and
///   the tool only ends (`ENDS`) the thing it makes (`ends_what_is_made`: "raise a ServiceNow incident" →
///   `resolve_incident`); or
/// - the request only looks something up (`Analysis::looks_up`: every action it shows does, by a verb that
///   means only that, or it shows none and a clause opens as a question; no clause starts with a verb the
///   table does not know), and the tool's name, an identifier, shows only actions that change, make, send or
///   remove something, the first not generating, in conflict with every action asked
///   (`changes_what_is_looked_up`); or
/// - the request only looks something up, another candidate tool of `server` names a word of what it looks
///   up as its own object, and the tool's object shares no term with it while its name and description
///   never use that word (`looks_up_another_thing`); or
/// - every action the tool's name shows undoes an action the request asks (`OPPOSITES`: start and stop,
///   lock and unlock, subscribe and unsubscribe …), and none agrees with any (`undoes_what_is_asked`); or
/// - the request makes, sends or moves something and says where it goes ("add a row *to* the Invoices
///   table", "move item 555 *to* the 'Done' group") or names a place of its own ("on *my* Neon project,
///   add a column …"), and the
///   tool (its name shows an action, not `run`) only makes, and makes that place: the one thing its name
///   acts on is the place's head and not a word of what is made, and its object shares no term with what
///   is made (`makes_where_it_goes`) — or is another word of where it goes ("tasks" of "to the Tasks
///   table") while its object has not the place's head; or
/// - the request removes something and says where from ("kick 00u77abcD *out of* the Finance-RO group":
///   `Analysis::source_words`), and the tool only deletes, and deletes that place: the one thing its name
///   acts on is the place's head and not a word of what is removed, and its object shares no term with
///   what is removed (`deletes_where_it_is`); or
/// - every action the request shows acts, or it only looks something up, and what it names is a kind of
///   thing (a head qualified by words: "a ZPA *segment group*"), two or more candidates of `server` act on
///   kinds of that head told apart by their qualifiers, and the tool's name acts on that head qualified by
///   a word the request never uses while its name and description never use one of the request's
///   qualifiers (`another_kind`); or
/// - likewise, a candidate of `server` acts on the thing's head and names or describes a word of what it
///   belongs to ("pipeline" of "a build of pipeline …"), and the tool's name acts on that word and not on
///   the thing (`acts_on_what_holds_it`); or
/// - the request does something irreversible to a thing a word qualifies ("delete the *pod* logs"), a
///   candidate of `server` acts on the thing's head and names or describes that word (`pods_log`), and the
///   tool does the irreversible action to what the word names and not to the thing (`pods_delete`;
///   `destroys_what_qualifies_it`); or
/// - what the request makes is named by an identifier the catalog does not know ("add user 00u8k2j3HqZ to
///   …"), and the tool only makes that thing, and its object has no word of where the request puts it
///   (`makes_what_exists`); or
/// - the request does one action, every action it shows acts, a candidate tool of any server does that
///   action to the head of what it acts on by name, and the tool does the same action to something whose
///   words the request never uses, its name and description never name that head, and its name's thing
///   is not one of any kind (`ANY_THING`) (`does_it_to_another_kind`); or
/// - the request converts something to a format, and the tool's name converts from a word of that format
///   to something the request does not name (`converts_the_other_way`); or
/// - every action the request shows makes something (`create`, or opening a new thing: "open *a* github
///   issue"), none updates by a verb that also makes, no identifier names what it makes, and the tool's
///   name only updates (`update`) the head of what the request makes (`changes_what_is_made`); or
/// - the tool's name shows only actions the request says not to do ("draft a reply … but don't send it"
///   → `sendMessage`; `does_what_is_denied`), or uses a word of what it rules out ("the current reading,
///   not the history" → `fearAndGreedHistorical`; `names_what_is_denied`). Such a bar, like that of a
///   reading tool of a service the request only acts on (`Bar::Quiet`), does not overshadow the rest, and
///   the tool follows every tool not ruled out in the answer's order (`Bar::RuledOut`, `Guard::judge`).
pub(crate) struct Guard<'a> {
    request: &'a Analysis,
    profiles: &'a Profiles,
    /// The servers the request names, when it acts on one of them by name (else empty).
    named: Vec<usize>,
    /// The actions it asks of the servers it names.
    acting: Vec<Family>,
    /// The words of each service of `services.txt` it names, as term ids (only when `named` is not empty).
    service_terms: Vec<Vec<TermId>>,
    /// Every action it shows acts (none reads, none runs): the terms of what its first action acts on.
    /// Empty when it reads or runs too, or names no object.
    acted_object: Vec<TermId>,
    /// Every action it shows acts and what the first acts on is only a pronoun ("… signed transaction hex
    /// here, push *it* to the network"): the terms of the whole request, what the pronoun may stand for.
    /// With them, when every action it shows acts, the kinds of the files it names by path
    /// (`Analysis::file_kinds`).
    referred: Vec<TermId>,
    /// It is not written in English, asks one thing and only acts (`Analysis::foreign_alone`): what it acts
    /// on is not read, so every tool that only reads is taken as reading what it acts on.
    foreign_acts: bool,
    /// Its irreversible actions.
    irreversible: Vec<Family>,
    /// Pairs (server, term): a term of `acted_object` that another candidate tool of that server has in its
    /// name's object — the server tells that thing apart from others (Trello's `get_card` beside
    /// `update_list`).
    distinguished: Vec<(usize, TermId)>,
    /// It only looks something up (`Analysis::looks_up`): the terms of what its first action looks up.
    looked_up: Vec<TermId>,
    /// Pairs (server, term) as `distinguished`, for a term of `looked_up`.
    looked_apart: Vec<(usize, TermId)>,
    /// It only looks something up: the actions it asks (`get` for a question that shows none). Empty
    /// otherwise.
    lookup_asks: Vec<Family>,
    /// Every action it shows acts, and the first makes or deletes what `acted_object` names.
    makes_or_deletes: bool,
    /// The terms of `acted_object` that are no word of a service of `services.txt` the request names: the
    /// thing and its qualifiers ("discount", "code" of "a discount code … in paddle"; not "jira" of "a jira
    /// ticket").
    acted_words: Vec<TermId>,
    /// Every action it shows ends, closes, locks or changes something that exists (`ENDS`, or `update` by
    /// a verb that only changes), and it names what.
    ends: bool,
    /// Every action it shows acts, and every server it names is of one service: the servers of `named` are
    /// all it acts on.
    acts_on_one_service: bool,
    /// The servers of `named` it names only where it acts (`Analysis::acted_on`), never where it reads
    /// (`Analysis::read_from`) or runs something, when it shows no verb the table does not know: "fetch the
    /// failure logs from circleci and file a jira bug" asks nothing of Jira but to make a bug ("take sentry
    /// issue … and open a github issue" may read Sentry: "take" is not known).
    only_acted_on: Vec<usize>,
    /// The families that undo an action it asks (`OPPOSITES`).
    undoing: Vec<Family>,
    /// What its actions that make, send or move something make, send or move, as terms
    /// (`Analysis::made_words`).
    made: Vec<TermId>,
    /// Where they put it, as terms (`Analysis::destination_words`).
    destination: Vec<TermId>,
    /// What its deleting actions remove, as terms (`Analysis::removed_words`).
    removed: Vec<TermId>,
    /// The heads of where they remove it from (`thing_of` the source's words: "group" of "out of the
    /// Finance-RO group").
    sources: Vec<TermId>,
    /// What it acts on or looks up, when every action it shows acts or it only looks something up
    /// (`thing_of`).
    thing: Option<Thing>,
    /// The servers with two or more candidate tools whose names act on kinds of the thing's head, told apart
    /// by their qualifiers (`create_app_connector_group`, `create_server_group`).
    kinds_apart: Vec<usize>,
    /// Pairs (server, term): a candidate tool of that server acts on the thing's head by name, and its name
    /// or description uses the term, a word of what the thing belongs to (`get_build`, "Get a build of a
    /// pipeline", for "pipeline" of "a build of pipeline web-frontend").
    holders_apart: Vec<(usize, TermId)>,
    /// Likewise for a word that qualifies the thing, read only when the request is irreversible: pairs
    /// (server, term) where a candidate tool of that server acts on the thing's head by name and its name or
    /// description uses the term ("pod" of `pods_log` for "delete the pod logs").
    qualifiers_apart: Vec<(usize, TermId)>,
    /// What its actions that make something make is named by an identifier the catalog does not know
    /// ("add user 00u8k2j3HqZ to okta group …"): the thing exists already.
    makes_existing: bool,
    /// The heads of where it puts what it makes, sends or moves (`thing_of` the destination's words:
    /// "category" of "to our ZIA url category"), and of what it calls its own ("project" of "on my Neon
    /// project, add a column …"): places that exist.
    places: Vec<TermId>,
    /// Those of `places` written in the plural ("to my phone *contacts*"): a collection of such things, so
    /// a tool that makes one of them puts what is made there (`create_contact`).
    collections: Vec<TermId>,
    /// What its one making action makes, when every action it shows makes something (`create`, or opening
    /// a new thing) and no identifier names it: the head of its object ("issue" of "open a github issue").
    makes_new: Option<TermId>,
    /// What it converts to, as terms (`Analysis::converts_to`).
    converts_to: Vec<TermId>,
    /// It only acts, by one action, and a candidate tool of any server does that action to the thing's
    /// head by name (GitHub's `create_pull_request` for "create a merge request on GitLab"): the catalog
    /// tells that kind of thing apart.
    kind_done: bool,
    /// The terms of `ANY_THING`, read when `kind_done` or the request asks for something irreversible (else
    /// empty).
    any_thing: Vec<TermId>,
    /// The terms of `VIEWS`, read when the request looks a thing up (else empty).
    views: Vec<TermId>,
    /// The compound nouns it uses (`Analysis::compounds`), each as its bit and the terms of its parts the
    /// catalog knows (`splits_a_compound`).
    compound_parts: Vec<(u64, Vec<TermId>)>,
    /// The terms of `WHEN_ONLY` (and `STATE_ONLY` for a request that acts), read when the request names a
    /// thing (else empty).
    when_only: Vec<TermId>,
}

/// Whether the tool downloads, and the table finds that the same as, or compatible with, one of `asked`:
/// to save is to download ("save the player's games as a PGN file" → `download_player_games_pgn`). Other
/// readers compatible with an action stay readers ("open a new incident" is not served by `get_incident`).
fn reads_as_asked(asked: &[Family], t: &crate::profile::ToolProfile) -> bool {
    let table = families();
    t.actions.iter().any(|&f| table.name(f) == "download")
        && matches!(table.agreement_of_sets(asked, &t.actions), Agreement::Same | Agreement::Compatible)
}

/// The action of a tool whose name, an identifier, shows no action, read from its description's opening
/// verb (`new_game`, "Starts a new game …"), unless it converts (a converter's name is its formats, and it
/// makes a new document: `docx-to-markdown`).
fn described_action(t: &crate::profile::ToolProfile) -> Option<Family> {
    t.described.filter(|&f| t.actions.is_empty() && t.identifier && families().name(f) != "convert")
}

/// `described_action` when it reads (`collection-indexes`, "Describe the indexes …").
fn described_reading(t: &crate::profile::ToolProfile) -> Option<Family> {
    described_action(t).filter(|&f| families().class(f) == EffectClass::Read)
}

/// What a request acts on or looks up, read from its object's words (`thing_of`).
struct Thing {
    /// The last word before any "of": "group" of "a ZPA segment group", "build" of "a build of pipeline web".
    head: TermId,
    /// The catalog's terms of the words before it: "zpa", "segment".
    qualifiers: Vec<TermId>,
    /// The catalog's terms of the words after "of": what it belongs to ("pipelin", "web").
    owners: Vec<TermId>,
    /// Its head is written in the plural ("show recent bitrise *builds*"): more than one is asked for.
    plural: bool,
}

/// Places that hold things of the kind the word before them names (`Guard::makes_where_it_goes`): a task
/// list, a reading queue.
const LIST_PLACES: [&str; 5] = ["list", "checklist", "queue", "backlog", "todo"];

/// Words before a thing that say which of them by time, not its kind (`Guard::fits`). ("latest" is
/// left out: `get_latest_release` is told apart from `get_release` by it.)
const WHEN_ONLY: [&str; 4] = ["recent", "newest", "oldest", "previous"];

/// Words that say which thing a request acts on by the state it is in ("merge an *approved* pull request",
/// "cancel the *stuck* build"): for a request that acts (not one that reads, where the state may be what
/// a tool filters by), read as `WHEN_ONLY`.
#[rustfmt::skip]
const STATE_ONLY: [&str; 16] = [
    "approved", "pending", "draft", "stale", "stuck", "failed", "failing", "broken", "duplicate", "unused",
    "inactive", "expired", "obsolete", "outdated", "open", "closed",
];

/// Heads of tools that act on things of any kind (`batch_create_objects` makes contacts, `create_record` a
/// lead, `PlayMedia` plays songs): never another kind than the request's.
const ANY_THING: [&str; 8] = ["object", "item", "record", "entry", "resource", "entity", "media", "content"];

/// Heads of tools that show a thing whole, in another form, not a part of it (`get_board_visualization`
/// for "show me the current chess board"): a look-up of the thing is not barred as reading a part.
const VIEWS: [&str; 8] = ["visualization", "view", "image", "picture", "snapshot", "overview", "preview", "rendering"];

/// Words that stand for a thing named elsewhere in the request ("push *it* to the network").
const REFERRING: [&str; 6] = ["it", "them", "this", "that", "these", "those"];

/// Families that change the state of a thing that exists and never make one: a request made only of these
/// ("archive the product", "close issue 12", "stop the container") is not served by a tool that makes the
/// thing. Approving, rejecting, assigning, subscribing, resuming, merging and moving are left out: their
/// tools are often named for what they make or add ("approve the pull request" →
/// `create_pull_request_review`, "subscribe to the list" → `create_subscription`, "move the task into the
/// Done section" → `add_task_to_section`, "combine these PDFs" → a tool that makes one). Changing a thing
/// (`update`) counts too, unless its verb also makes or adds (`Analysis::updates_ambiguously`: "set a
/// reminder" → `create_reminder`).
const ENDS: [&str; 7] = ["close", "stop", "archive", "ban", "lock", "unlock", "logout"];

/// Pairs of families that undo each other: a tool of one does not serve a request for the other ("suspend
/// the user" → `unsuspend_user`, "combine these PDFs into one" → `pdf_splitter`). Making and deleting are the irreversible rule's to judge.
const OPPOSITES: [(&str, &str); 8] = [
    ("start", "stop"),
    ("merge", "split"),
    ("resume", "stop"),
    ("lock", "unlock"),
    ("ban", "unlock"),
    ("subscribe", "unsubscribe"),
    ("login", "logout"),
    ("approve", "reject"),
];

/// Whether `request` names the server `n` as the guard reads naming. A server called by a request filler
/// or a verb is not named by "… created_at > now()" (`Now`, `MCP Create`): only a service word that is
/// neither (`STOP`, the verbs of the action table) names a server here. Nor does a server whose name is
/// ordinary words ("everything", "monday", "phone"): in a request they are more often the words than the
/// server ("stage everything, commit …", "the email I queued for monday", "a push notification to my
/// phone"), unless the request writes them as a name ("tickets to the Met Museum": `Analysis::proper`).
pub(crate) fn counts_as_named(request: &Analysis, profiles: &Profiles, n: usize) -> bool {
    let table = families();
    let names = |w: &TermId| {
        let word = profiles.term(*w);
        request.known.contains(w) && !STOP.contains(&word) && !table.is_verb_stem(word)
    };
    let named = &profiles.servers[n];
    let by_service = !named.service.is_empty()
        && named.service.iter().all(|w| request.known.contains(w))
        && named.service.iter().any(names);
    let proper = !named.service.is_empty() && named.service.iter().all(|w| request.proper.contains(w));
    (!named.ordinary || proper) && (by_service || named.aliases.iter().any(names))
}

impl<'a> Guard<'a> {
    /// The guard for `request`, among the candidate tools `candidates` (each with its server).
    pub(crate) fn new(request: &'a Analysis, profiles: &'a Profiles, candidates: &[(usize, usize)]) -> Guard<'a> {
        let table = families();
        let counts = |n: &usize| counts_as_named(request, profiles, *n);
        let acting: Vec<Family> = request.acted_on.iter().filter(|(n, _)| counts(n)).map(|&(_, f)| f).collect();
        let named: Vec<usize> =
            if acting.is_empty() { Vec::new() } else { request.named_servers.iter().copied().filter(counts).collect() };
        let only_acts = !request.families.is_empty()
            && request.families.iter().all(|&f| table.class(f) != EffectClass::Read && table.name(f) != "run");
        // Words of the request as the catalog's term ids.
        let ids = |words: &[String]| -> Vec<TermId> {
            words.iter().flat_map(|w| toolscout_indexer::terms(w)).filter_map(|t| profiles.id(&t)).collect()
        };
        // What its first action acts on, as terms: read by the rules for a request that only acts, or only
        // looks something up.
        let object_terms = |wanted: bool| if wanted { ids(&request.object_words) } else { Vec::new() };
        let acted_object = object_terms(only_acts);
        let mut referred: Vec<TermId> = if only_acts
            && !request.object_words.is_empty()
            && request.object_words.iter().all(|w| REFERRING.contains(&w.as_str()))
        {
            request.known.iter().copied().collect()
        } else {
            Vec::new()
        };
        // A file it names by path is what it acts on too: "rotate pages 2 and 3 of /scans/invoice.pdf" is not
        // served by `read_pdf`.
        if only_acts {
            for &k in &request.file_kinds {
                if !referred.contains(&k) {
                    referred.push(k);
                }
            }
        }
        let looked_up = object_terms(request.looks_up);
        // What a look-up asks: a question that shows no action asks to get something.
        let lookup_asks: Vec<Family> = match (request.looks_up, request.families.is_empty()) {
            (false, _) => Vec::new(),
            (true, true) => table.by_name("get").into_iter().collect(),
            (true, false) => request.families.clone(),
        };
        let irreversible: Vec<Family> =
            request.families.iter().copied().filter(|&f| table.class(f) == EffectClass::Irreversible).collect();
        // Every service of the table the request names, as the terms of its name ("Outlook" in "make an
        // outlook rule: … to the Jira folder"): a tool that mentions one of them is about the request.
        let services = crate::services::services();
        // Per service it names: its name's terms, and those the catalog knows.
        let named_services: Vec<(usize, Vec<TermId>)> = request
            .services
            .iter()
            .map(|&service| {
                let terms = toolscout_indexer::terms(services.name(service));
                (terms.len(), terms.iter().filter_map(|t| profiles.id(t)).collect())
            })
            .collect();
        let service_terms = if named.is_empty() {
            Vec::new()
        } else {
            named_services
                .iter()
                .filter(|(len, ids)| !ids.is_empty() && ids.len() == *len)
                .map(|(_, ids)| ids.clone())
                .collect()
        };
        // A past participle before the thing is a state of it ("commit my *staged* changes", "list the
        // *archived* projects"), not another thing its service tells apart: a tool that acts on such things
        // in any state (`git_commit`) is not barred because another one names the state (`git_diff_staged`).
        let qualifiers: Vec<TermId> = {
            let before_head = request.object_words.split_last().map_or(&[][..], |(_, rest)| rest);
            ids(&before_head.iter().filter(|w| participle(w, table)).cloned().collect::<Vec<_>>())
        };
        let mut distinguished: Vec<(usize, TermId)> = Vec::new();
        let mut looked_apart: Vec<(usize, TermId)> = Vec::new();
        for &(tool, server) in candidates {
            for &o in profiles.tools[tool].object.iter().filter(|o| !qualifiers.contains(o)) {
                if acted_object.contains(&o) && !distinguished.contains(&(server, o)) {
                    distinguished.push((server, o));
                }
                if looked_up.contains(&o) && !looked_apart.contains(&(server, o)) {
                    looked_apart.push((server, o));
                }
            }
        }
        let makes_or_deletes = !acted_object.is_empty()
            && request
                .action
                .as_ref()
                .is_some_and(|a| table.class(a.family) == EffectClass::Create || table.name(a.family) == "delete");
        let acted_words =
            acted_object.iter().copied().filter(|o| !named_services.iter().any(|(_, ids)| ids.contains(o))).collect();
        let acts_on_one_service = only_acts
            && request
                .named_servers
                .iter()
                .all(|&n| profiles.servers[n].service == profiles.servers[request.named_servers[0]].service);
        let only_acted_on = named
            .iter()
            .copied()
            .filter(|n| {
                let asked = || request.acted_on.iter().filter(|(m, _)| m == n).map(|&(_, f)| f);
                !request.unknown_verb
                    && asked().next().is_some()
                    && asked().all(|f| table.name(f) != "run")
                    && !request.read_from.contains(n)
            })
            .collect();
        let ends = !acted_object.is_empty()
            && !request.updates_ambiguously
            && request.families.iter().all(|&f| ENDS.contains(&table.name(f)) || table.name(f) == "update");
        let undoing: Vec<Family> = OPPOSITES
            .iter()
            .flat_map(|&(x, y)| [(x, y), (y, x)])
            .filter(|&(asked, _)| request.families.iter().any(|&f| table.name(f) == asked))
            .filter_map(|(_, undone)| table.by_name(undone))
            .collect();
        let converts_to = ids(&request.converts_to);
        let removed = ids(&request.removed_words);
        let sources: Vec<TermId> = thing_of(&request.source_words, profiles).map(|p| p.head).into_iter().collect();
        let made = ids(&request.made_words);
        let destination = ids(&request.destination_words);
        let place_things: Vec<Thing> = std::iter::once(&request.destination_words)
            .chain(&request.owned_words)
            .filter_map(|words| thing_of(words, profiles))
            .collect();
        let places: Vec<TermId> = place_things.iter().map(|p| p.head).collect();
        let mut collections: Vec<TermId> = place_things.iter().filter(|p| p.plural).map(|p| p.head).collect();
        // A list is a collection of what the word before it names: "add 'Renew SSL certificates' to my Ops
        // *task* list" puts a task there (`create_task`).
        let lists = if place_things.is_empty() { Vec::new() } else { ids(&LIST_PLACES.map(String::from)) };
        collections.extend(
            place_things.iter().filter(|p| lists.contains(&p.head)).filter_map(|p| p.qualifiers.last().copied()),
        );
        let thing = if only_acts || request.looks_up { thing_of(&request.object_words, profiles) } else { None };
        let mut kinds_apart = Vec::new();
        let mut holders_apart = Vec::new();
        let mut qualifiers_apart = Vec::new();
        let kind_done = only_acts
            && request.families.len() == 1
            && thing.as_ref().is_some_and(|thing| {
                candidates.iter().any(|&(tool, _)| {
                    let t = &profiles.tools[tool];
                    t.head == Some(thing.head) && t.actions == request.families
                })
            });
        // Read by the rule for a kind the catalog tells apart and by the irreversible rule's deleted object.
        let any_thing =
            if kind_done || !irreversible.is_empty() { ids(&ANY_THING.map(String::from)) } else { Vec::new() };
        let acts = request.action.as_ref().is_some_and(|a| families().class(a.family) != EffectClass::Read);
        let when_only = match (&thing, acts) {
            (None, _) => Vec::new(),
            (Some(_), false) => ids(&WHEN_ONLY.map(String::from)),
            (Some(_), true) => ids(&WHEN_ONLY.iter().chain(&STATE_ONLY).map(|w| w.to_string()).collect::<Vec<_>>()),
        };
        let views = if request.looks_up { ids(&VIEWS.map(String::from)) } else { Vec::new() };
        if let Some(thing) = &thing {
            let acting_on_it = || {
                candidates
                    .iter()
                    .map(|&(tool, server)| (server, &profiles.tools[tool]))
                    .filter(|(_, t)| t.head == Some(thing.head))
            };
            let mut kinds: Vec<(usize, &[TermId])> =
                acting_on_it().filter(|(_, t)| t.object.len() > 1).map(|(s, t)| (s, t.object.as_slice())).collect();
            kinds.sort_unstable();
            kinds.dedup();
            for pair in kinds.windows(2) {
                if pair[0].0 == pair[1].0 && !kinds_apart.contains(&pair[0].0) {
                    kinds_apart.push(pair[0].0);
                }
            }
            for (server, t) in acting_on_it() {
                // The words of `words` this candidate names or describes, as (server, term) pairs.
                let apart = |words: &[TermId], into: &mut Vec<(usize, TermId)>| {
                    for &w in words {
                        if (t.object.contains(&w) || t.description.contains(&w)) && !into.contains(&(server, w)) {
                            into.push((server, w));
                        }
                    }
                };
                apart(&thing.owners, &mut holders_apart);
                if !irreversible.is_empty() {
                    apart(&thing.qualifiers, &mut qualifiers_apart);
                }
            }
        }
        let makes_existing = request.made_words.iter().any(|w| profiles.id(w).is_none() && id_like(w));
        let makes_new = (!request.made_words.is_empty()
            && !makes_existing
            && !request.updates_ambiguously
            && request.families.iter().all(|&f| ["create", "open"].contains(&table.name(f))))
        .then(|| thing_of(&request.object_words, profiles).map(|t| t.head))
        .flatten();
        Guard {
            request,
            profiles,
            named,
            acting,
            service_terms,
            acted_object,
            referred,
            foreign_acts: request.foreign_alone && only_acts,
            irreversible,
            distinguished,
            looked_up,
            looked_apart,
            lookup_asks,
            makes_or_deletes,
            acted_words,
            ends,
            acts_on_one_service,
            only_acted_on,
            undoing,
            made,
            destination,
            thing,
            kinds_apart,
            holders_apart,
            qualifiers_apart,
            makes_existing,
            places,
            collections,
            makes_new,
            converts_to,
            removed,
            sources,
            kind_done,
            any_thing,
            views,
            when_only,
            compound_parts: compound_parts(request.compounds, profiles),
        }
    }

    /// Whether the tool `tool` of the server `server` must not be delivered (`judge` says how).
    #[cfg(test)]
    pub(crate) fn bars(&self, tool: usize, server: usize) -> bool {
        self.judge(tool, server) != Bar::Clear
    }

    /// Whether the tool is barred for a reason that does not make it the near miss of what is asked
    /// (`Bar::Quiet`).
    #[cfg(test)]
    pub(crate) fn bars_quietly(&self, tool: usize, server: usize) -> bool {
        matches!(self.judge(tool, server), Bar::Quiet | Bar::RuledOut)
    }

    /// How the guard judges the tool `tool` of the server `server` (each rule asked at most once): quietly
    /// barred when it does only what the request says not to do (`does_what_is_denied`), or only reads a
    /// service the request acts on and no near-miss rule bars it (`reads_where_it_acts`); barred as a near
    /// miss by the other rules (`bars_as_a_near_miss`).
    pub(crate) fn judge(&self, tool: usize, server: usize) -> Bar {
        if self.does_what_is_denied(tool) || self.names_what_is_denied(tool) {
            Bar::RuledOut
        } else if self.bars_as_a_near_miss(tool, server) {
            Bar::NearMiss
        } else if self.reads_where_it_acts(tool, server) {
            Bar::Quiet
        } else {
            Bar::Clear
        }
    }

    /// Whether the tool's name shows only actions the request says not to do (`Analysis::denied`): "draft
    /// a reply … but don't send it" is not served by `sendMessage`; "pause the trigger, don't delete it"
    /// not by `event_delete_trigger`. A tool whose action the table finds compatible with one the request
    /// asks may still do what is asked: "append these two tasks to the request we registered last week" is
    /// served by `add_tasks_to_request` though adding (registering) was done already.
    pub(crate) fn does_what_is_denied(&self, tool: usize) -> bool {
        let t = &self.profiles.tools[tool];
        !t.actions.is_empty()
            && t.actions.iter().all(|a| self.request.denied.contains(a))
            && families().agreement_of_sets(&self.request.families, &t.actions) != Agreement::Compatible
    }

    /// Whether the tool's name (or title) is about what the request rules out: it uses a word that tells the
    /// ruled-out thing apart, or a form of it (`akin`) (`Analysis::denied_terms`: "I want the current
    /// fear/greed reading, not the history" is not served by `fearAndGreedHistorical`; "not the summary"
    /// not by `summarize_article_section`), or its head and no word the request wants
    /// (`Analysis::denied_heads`: "I don't need a new branch, I need a proper release" is not served by
    /// `create_branch`; "copy the tab …, I don't want a blank sheet" is by `excel_copy_sheet`).
    pub(crate) fn names_what_is_denied(&self, tool: usize) -> bool {
        let (t, r) = (&self.profiles.tools[tool], self.request);
        let names = |d: &TermId| {
            t.name.contains(d) || t.name.iter().any(|n| akin(self.profiles.term(*d), self.profiles.term(*n)))
        };
        r.denied_terms.iter().any(names)
            || (r.denied_heads.iter().any(|d| t.name.contains(d)) && !r.wanted.iter().any(|w| t.name.contains(w)))
    }

    /// Whether the tool only reads a server the request names only where it acts (`only_acted_on`): "find
    /// arxiv papers on LoRA and save a note … in my obsidian vault"
    /// is not served by Obsidian's `search-vault`. The tool may still look like the request's other part,
    /// so such a bar does not make it a near miss that overshadows the rest (`Bar::Quiet`).
    ///
    /// A tool that reads in a way the asked action allows is not barred: "save all of a Chess.com player's
    /// games as a PGN file" is served by `download_player_games_pgn` (to save is compatible with to download).
    pub(crate) fn reads_where_it_acts(&self, tool: usize, server: usize) -> bool {
        let t = &self.profiles.tools[tool];
        self.only_acted_on.contains(&server) && self.only_reads(t) && {
            let asked: Vec<Family> =
                self.request.acted_on.iter().filter(|(s, _)| *s == server).map(|&(_, f)| f).collect();
            !reads_as_asked(&asked, t)
        }
    }

    /// Whether the tool's name uses a part of a compound noun the request asks about (`compounds.txt`) and
    /// its name, title and description never use the whole: "what's my credit score" is not served by
    /// `list-credit-notes` or `get-advanced-box-score`, "what's my heart rate" not by `exchange_rate`.
    fn splits_a_compound(&self, t: &crate::profile::ToolProfile) -> bool {
        self.compound_parts
            .iter()
            .any(|(bit, parts)| t.compounds & bit == 0 && parts.iter().any(|p| t.name.contains(p)))
    }

    /// Whether the tool's name shows reading actions only, and its description does not open with another
    /// kind — or its name, an identifier, shows no action and its description opens by reading, not
    /// converting.
    fn only_reads(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        let reads = |f: &Family| table.class(*f) == EffectClass::Read;
        (!t.actions.is_empty() && t.actions.iter().all(reads) && t.described.is_none_or(|f| reads(&f)))
            || described_reading(t).is_some()
    }

    /// Whether the tool must not be delivered by a rule that marks it as the near miss of what is asked:
    /// every rule of `judge` but those of `Bar::Quiet`.
    pub(crate) fn bars_as_a_near_miss(&self, tool: usize, server: usize) -> bool {
        let (request, profiles, table) = (self.request, self.profiles, families());
        let (t, s) = (&profiles.tools[tool], &profiles.servers[server]);
        // A tool that does something else than what is asked of the named service may serve the request's
        // other part ("screenshot the page and upload it to cloudinary": a screenshot tool) — when it has one:
        // "create a merge request on GitLab" is not served by Gitee's `merge_pull` either.
        let may_do_it = || {
            t.actions.is_empty()
                || (request.families.len() == 1 && !request.unknown_verb)
                || table.agreement_of_sets(&self.acting, &t.actions) != Agreement::Conflict
        };
        if !self.named.is_empty() && !self.named.contains(&server) && may_do_it() {
            let mentions = |id: &TermId| t.mentions(s, id);
            let mentioned = self.named.iter().any(|&n| {
                let named = &profiles.servers[n];
                (!named.service.is_empty() && named.service.iter().all(mentions)) || named.aliases.iter().any(mentions)
            });
            let other_service = self.service_terms.iter().any(|ids| ids.iter().all(mentions));
            if !mentioned && !other_service {
                return true;
            }
            // Another server's tool that names the service but does something else with it is a near miss:
            // "create a new public Slack channel" is not served by Graphlit's `Slack`, "Connects to Slack to
            // ingest messages and files".
            let described = t.described.map(|f| [f]);
            let acts: &[Family] = match &described {
                Some(one) if t.actions.is_empty() => one,
                _ => &t.actions,
            };
            if mentioned
                && request.families.len() == 1
                && !request.unknown_verb
                && table.agreement_of_sets(&request.families, acts) == Agreement::Conflict
            {
                return true;
            }
        }
        if (t.object.iter().any(|o| self.acted_object.contains(o) || self.referred.contains(o))
            || (self.acts_on_one_service && self.named.contains(&server))
            || self.foreign_acts)
            && self.only_reads(t)
            && !reads_as_asked(&request.families, t)
        {
            return true;
        }
        // A converter's name often shows no verb (`docx-to-markdown`): judged before that is asked.
        if self.converts_the_other_way(t) || self.splits_a_compound(t) {
            return true;
        }
        // A name, an identifier, that shows no action says what it does in its description's opening verb:
        // "transfer 300 EUR … at today's rate" is not served by `exchange_rate`, "Retrieves exchange rates …";
        // "take my last move back" not by `new_game`, "Starts a new game …".
        // A question asks about the action ("how much sales tax do I have to pay …"): not this rule's.
        if !self.irreversible.is_empty()
            && !request.question
            && described_action(t)
                .is_some_and(|f| table.agreement_of_sets(&request.families, &[f]) == Agreement::Conflict)
        {
            return true;
        }
        if t.actions.is_empty() || t.runs_given {
            return false;
        }
        if self.acts_on_another_thing(t, server)
            || self.acts_on_a_part(t)
            || self.makes_what_is_ended(t)
            || self.ends_what_is_made(t)
            || self.changes_what_is_looked_up(t)
            || self.looks_up_another_thing(t, server)
            || self.undoes_what_is_asked(t)
            || self.makes_where_it_goes(t)
            || self.deletes_where_it_is(t)
            || self.another_kind(t, server)
            || self.acts_on_what_holds_it(t, server)
            || self.destroys_what_qualifies_it(t, server)
            || self.makes_what_exists(t)
            || self.does_it_to_another_kind(t)
            || self.changes_what_is_made(t)
        {
            return true;
        }
        // A request that asks for nothing irreversible is not served by a tool that only destroys or undoes
        // something, and not what was asked: "disable app connector 7205…" → `delete_app_connector`. Its
        // description must open with an irreversible action too: a product's name is not a verb_object
        // name (`WebRewind` gets past versions of a page). Paying is left out: "can I get three tickets"
        // buys them.
        let destroys = |f: &Family| ["delete", "cancel", "revert"].contains(&table.name(*f));
        if self.irreversible.is_empty()
            && t.actions.iter().all(destroys)
            && t.described.is_some_and(|f| table.class(f) == EffectClass::Irreversible)
            && table.agreement_of_sets(&request.families, &t.actions) == Agreement::Conflict
        {
            return true;
        }
        if self.irreversible.is_empty() {
            return false;
        }
        if table.agreement_of_sets(&request.families, &t.actions) == Agreement::Conflict {
            return true;
        }
        // (b) is for deleting only: the other irreversible actions name their object by an id or not at all
        // ("cancel sub_1Oz…", "buy 10 INFY"), and a tool's object read from its name is often a leftover
        // word (`place_order`: `place`).
        let deletes = t.actions.iter().any(|&a| self.irreversible.contains(&a) && table.name(a) == "delete");
        // A tool for things of any kind (`ANY_THING`: `delete_resource` for "delete the configmap …") misses no
        // object.
        let object_missed = !t.object.is_empty()
            && !t.object.iter().any(|o| request.known.contains(o))
            && !t.head.is_some_and(|h| self.any_thing.contains(&h));
        // A request not written in English names its object in words the catalog does not know.
        deletes && object_missed && !request.foreign
    }

    /// Whether the tool `tool` does what the request asks to the thing it names: its name's actions agree
    /// with the request's first as the same action (`Agreement::Same`), or without conflict when that one
    /// acts ("kick off a build of …" → `create_build`; a read is not: "list current alerts" is not served
    /// by `get_alert`) or shows things in the plural and the tool lists ("show recent bitrise builds" →
    /// `list_builds`), the one thing its name acts on is
    /// the head of what the request acts on or looks up, every word its name acts on is a word of the
    /// request, and every word that qualifies the request's thing is in its name or names its server
    /// (`create_issue` of GitLab for "open an issue in gitlab project …"; not `zpa_create_server_group` or
    /// Okta's `create_group` for "create a ZPA segment group"), or only says which by time (`WHEN_ONLY`).
    /// A tool whose name is only its action, the same as the request's first, acts on whatever it is
    /// given and fits too ("commit my staged changes" → `git_commit`), unless that action cannot be undone
    /// ("drop the temp_import collection" is not served by MongoDB's `delete-one`). Such a tool is not
    /// overshadowed by a barred near miss (`stages::decide`).
    pub(crate) fn fits(&self, tool: usize, server: usize) -> bool {
        let (t, s) = (&self.profiles.tools[tool], &self.profiles.servers[server]);
        let only_its_action = t.head.is_none()
            && t.object.is_empty()
            && !t.actions.is_empty()
            && self.request.action.as_ref().is_some_and(|a| {
                families().class(a.family) != EffectClass::Irreversible
                    && families().agreement_of_sets(&[a.family], &t.actions) == Agreement::Same
            });
        only_its_action
            || self.thing.as_ref().is_some_and(|thing| {
                t.head == Some(thing.head)
                    && thing.qualifiers.iter().all(|q| {
                        t.name.contains(q)
                            || s.service.contains(q)
                            || s.aliases.contains(q)
                            || self.when_only.contains(q)
                            || (NEWNESS.contains(&self.profiles.term(*q)) && self.makes_or_starts())
                    })
            }) && t.object.iter().all(|o| self.request.known.contains(o))
                && self.request.action.as_ref().is_some_and(|a| {
                    let table = families();
                    match table.agreement_of_sets(&[a.family], &t.actions) {
                        Agreement::Same => true,
                        // Showing things (plural) is listing them: "show recent bitrise builds" → `list_builds`.
                        Agreement::Compatible => {
                            table.class(a.family) != EffectClass::Read
                                || (self.thing.as_ref().is_some_and(|thing| thing.plural)
                                    && table.name(a.family) == "get"
                                    && t.actions.iter().any(|&f| table.name(f) == "list"))
                        }
                        _ => false,
                    }
                })
    }

    /// Whether the request's action makes or starts something: "new" of "kick off a fresh build" then says
    /// only that it is made, not which kind of build (`NEWNESS`).
    fn makes_or_starts(&self) -> bool {
        let table = families();
        self.request.action.as_ref().is_some_and(|a| {
            table.class(a.family) == EffectClass::Create || ["start", "run"].contains(&table.name(a.family))
        })
    }

    /// A request that only acts on a thing its service tells apart from others (another candidate of the
    /// tool's server acts on it by name) is not served by a tool of that server that acts on something the
    /// request never mentions and never mentions that thing: "rename trello card …" → `update_list`. (Not
    /// "create a section in asana project …" → `create_project`: the request mentions projects.)
    ///
    /// When the request makes the thing and the tool only makes something else, only its name counts: a
    /// description that mentions the thing says where the tool's own thing goes ("create a project 'Kitchen
    /// Reno'" → `create_group`, "Create a group in a project").
    fn acts_on_another_thing(&self, t: &crate::profile::ToolProfile, server: usize) -> bool {
        // Most requests leave `distinguished` empty (they do more than act, or no server tells things
        // apart): nothing else is looked at then.
        if self.distinguished.is_empty() || t.object.iter().any(|o| self.request.known.contains(o)) {
            return false;
        }
        // An object of abbreviations only (`ps_restart`: "ps", Heroku's processes) names no thing the
        // request could be told apart by: "restart my heroku app".
        if t.object.iter().all(|&o| self.profiles.term(o).chars().count() <= 2) {
            return false;
        }
        let table = families();
        let makes = |fs: &[Family]| !fs.is_empty() && fs.iter().all(|&f| table.class(f) == EffectClass::Create);
        // A tool that sends makes a message ("create a new public channel in Slack" → `slack_post_message`,
        // "Post a new message to a Slack channel").
        let sends = |fs: &[Family]| !fs.is_empty() && fs.iter().all(|&f| table.name(f) == "send");
        if (makes(&t.actions) || sends(&t.actions)) && self.request.action.as_ref().is_some_and(|a| makes(&[a.family]))
        {
            return self.distinguished.iter().any(|&(s, o)| s == server && !t.name.contains(&o));
        }
        on_another_thing(&self.distinguished, t, server)
    }

    /// A request that only looks up a thing its service tells apart from others (another candidate of the
    /// tool's server names it as what it acts on) is not served by a tool of that server that acts on
    /// something else and never mentions that thing: "list invoices for customer cus_9s6…" →
    /// `list_customers` when `create_invoice` is a candidate. Unlike `acts_on_another_thing`, the other
    /// thing may be a word of the request: a look-up names what it is filtered by ("for customer …").
    fn looks_up_another_thing(&self, t: &crate::profile::ToolProfile, server: usize) -> bool {
        !self.looked_apart.is_empty()
            && !t.object.iter().any(|o| self.looked_up.contains(o))
            && on_another_thing(&self.looked_apart, t, server)
    }

    /// A request that only changes the state of a thing that exists (`ENDS`: archive, close, stop, ban …;
    /// or changes it: `update`) is not served by a tool that only makes that thing, whose actions conflict
    /// with every action asked: "archive the paddle product" → `create_product`, "close issue 12" →
    /// `create_issue`, "change the default branch of pipeline …" → `create_pipeline`.
    fn makes_what_is_ended(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        self.ends
            && t.actions.iter().all(|&f| table.class(f) == EffectClass::Create)
            && t.object.iter().any(|o| self.acted_object.contains(o))
            && table.agreement_of_sets(&self.request.families, &t.actions) == Agreement::Conflict
    }

    /// The other way round: a request that only makes a thing (every action it shows is of the `create`
    /// class) is not served by a tool that only ends that thing (`ENDS`: close, stop, archive …), whose
    /// actions conflict with every action asked: "raise a ServiceNow incident …" → `resolve_incident`.
    fn ends_what_is_made(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        !self.acted_object.is_empty()
            && self.request.families.iter().all(|&f| table.class(f) == EffectClass::Create)
            && t.actions.iter().all(|&f| ENDS.contains(&table.name(f)))
            && t.object.iter().any(|o| self.acted_object.contains(o))
            && table.agreement_of_sets(&self.request.families, &t.actions) == Agreement::Conflict
    }

    /// A request that only looks something up (`Analysis::looks_up`) is not served by a tool that only acts
    /// (its name's actions all create, change, send or remove something), whose actions conflict with every
    /// action asked: "list invoices for customer …" → `create_invoice`, "show me the score trend …" →
    /// `start_analysis`. Only a name written as an identifier counts (`ToolProfile::identifier`): the verb
    /// of `RestaurantBookingTool` is a word of a product's name. A tool whose name first generates
    /// something is not barred: "show them on a map" is served by `generate_pin_map`. (A later "chart" is
    /// a thing: `uninstall_helm_chart` is barred for "which helm releases are installed?".)
    fn changes_what_is_looked_up(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        !self.lookup_asks.is_empty()
            && t.identifier
            && t.actions.iter().all(|&f| table.class(f) != EffectClass::Read)
            && t.actions.first().is_some_and(|&f| table.name(f) != "generate")
            && table.agreement_of_sets(&self.lookup_asks, &t.actions) == Agreement::Conflict
    }

    /// A request is not served by a tool that undoes what it asks: each action of the tool's name is the
    /// opposite (`OPPOSITES`) of an action of the request, and none agrees with any of them ("suspend okta
    /// user jdoe" → `unsuspend_user`; not "stop the old container and start a new one" → `start_container`).
    fn undoes_what_is_asked(&self, t: &crate::profile::ToolProfile) -> bool {
        !self.undoing.is_empty()
            && !t.actions.is_empty()
            && t.actions.iter().all(|f| self.undoing.contains(f))
            && families().agreement_of_sets(&self.request.families, &t.actions) == Agreement::Conflict
    }

    /// A request that makes, sends or moves a thing into another it names ("add a row to the Invoices
    /// table", "create a section in asana project …", "move item 555 to the 'Done' group"), or another it
    /// calls its own ("on my Neon project, add a column …"), is not served by a tool that only makes that
    /// other thing (`create_table`, `create_project`, `create_group`), nor one that makes what a word of the
    /// place names and does not name the place ("add a field to the Tasks table" → `add-tasks`): the one
    /// thing the tool's name acts on is the head of the place ("category" of "our url category", not the
    /// "url" of `add_urls_to_category`) but not a word of what is put there, and the tool's object shares
    /// no term with what is put there. A place written in the plural is a collection of such things ("save
    /// Maria's number to my phone contacts"): a tool that makes one (`create_contact`) puts it there; so is a
    /// list of what the word before it names ("add 'Renew SSL certificates' to my Ops task list" →
    /// `create_task`, `LIST_PLACES`).
    fn makes_where_it_goes(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        // What is put there may be words the catalog never uses ("add evil-cdn.biz to our url category").
        // A tool that stores does not make the place it stores in ("write text to a file" → `write_file`).
        !self.request.made_words.is_empty()
            && t.head.is_some_and(|h| {
                !self.made.contains(&h)
                    && !self.collections.contains(&h)
                    && (self.places.contains(&h)
                        || (self.destination.contains(&h) && !t.object.iter().any(|o| self.places.contains(o))))
            })
            && !t.object.iter().any(|o| self.made.contains(o))
            && t.actions.iter().all(|&f| table.class(f) == EffectClass::Create && table.name(f) != "store")
    }

    /// A request that removes a thing from another ("kick 00u77abcD out of the Finance-RO group", "remove
    /// records doc-17 and doc-18 from my pinecone index") is not served by a tool that only deletes that other
    /// thing (`delete_group`, `delete_index`): the one thing the tool's name acts on is the head of where
    /// the thing is taken from and not a word of what is removed, and the tool's object shares no term with
    /// what is removed (`remove_user_from_group` stays).
    fn deletes_where_it_is(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        t.head.is_some_and(|h| self.sources.contains(&h) && !self.removed.contains(&h))
            && !t.object.iter().any(|o| self.removed.contains(o))
            && t.actions.iter().all(|&f| table.name(f) == "delete")
    }

    /// A request to convert something to a format is not served by a tool that converts from that format to
    /// another: "convert notes.md to a word .docx" → `docx-to-markdown`. What the tool's name converts from
    /// is a word of what the request converts to, and what it converts to is none. Nor by one that makes
    /// what the request converts from: "convert lease.pdf into an editable Word .docx" → `convert_to_pdf`.
    /// What it converts to is then no word of what the request converts to, and every one a word of the
    /// request.
    fn converts_the_other_way(&self, t: &crate::profile::ToolProfile) -> bool {
        let into = |s: &TermId| self.converts_to.contains(s);
        t.converts.as_ref().is_some_and(|c| {
            (c.0.iter().any(into) && !c.1.iter().any(into))
                || (!self.converts_to.is_empty()
                    && !c.1.is_empty()
                    && !c.1.iter().any(into)
                    && c.1.iter().all(|s| self.request.known.contains(s)))
        })
    }

    /// A request that acts on or looks up a kind of thing its server tells apart from other kinds of it
    /// (two or more candidates of the server act on kinds of the same head) is not served by a tool of
    /// another kind: "create a ZPA segment group" → `zpa_create_app_connector_group`. The tool's name acts
    /// on the same head, qualified by a word the request never uses, and its name and description never
    /// use one of the request's qualifiers. (A tool with no qualifier of its own, `create_event` for "add a
    /// calendar event", is the thing itself.)
    fn another_kind(&self, t: &crate::profile::ToolProfile, server: usize) -> bool {
        let Some(thing) = &self.thing else { return false };
        t.head == Some(thing.head)
            && self.kinds_apart.contains(&server)
            && t.object.iter().any(|&o| o != thing.head && !self.request.known.contains(&o))
            && thing.qualifiers.iter().any(|q| !t.name.contains(q) && !t.description.contains(q))
    }

    /// A request that does one thing to a kind of thing the catalog tells apart (`Guard::kind_done`) is
    /// not served by a tool that does the same to something the request never names, and whose name and
    /// description never name the request's thing: "create a merge request on GitLab" → GitLab's
    /// `create_repository`. (Its server need not tell the thing apart, as `acts_on_another_thing` asks: a
    /// server that lacks the thing says nothing of it.) A tool for things of any kind (`ANY_THING`:
    /// `batch_create_objects` for "create three contacts") is not of another kind.
    fn does_it_to_another_kind(&self, t: &crate::profile::ToolProfile) -> bool {
        let Some(thing) = &self.thing else { return false };
        self.kind_done
            && t.actions == self.request.families
            && t.head.is_some_and(|h| h != thing.head && !self.any_thing.contains(&h))
            && !t.object.iter().any(|o| self.request.known.contains(o))
            && !t.name.contains(&thing.head)
            && !t.description.contains(&thing.head)
    }

    /// A request that acts on or looks up a thing of another ("a build *of* pipeline web-frontend") that its
    /// server tells apart (a candidate of the server acts on it by name, and names or describes what holds
    /// it) is not served by a tool that acts on what holds it and not on the thing: "kick off a build of
    /// pipeline web-frontend" → `update_pipeline` beside `get_build` ("Get a build of a pipeline"). (Not a
    /// word that only qualifies the thing: "find train tickets" is served by `FindTrains`.)
    fn acts_on_what_holds_it(&self, t: &crate::profile::ToolProfile, server: usize) -> bool {
        self.acts_on_a_word_apart(t, server, &self.holders_apart)
    }

    /// Whether the one thing the tool's name acts on is not the request's thing but a word its server tells
    /// apart from it (`apart`: pairs of server and term), and its object never names the thing.
    fn acts_on_a_word_apart(&self, t: &crate::profile::ToolProfile, server: usize, apart: &[(usize, TermId)]) -> bool {
        let Some(thing) = &self.thing else { return false };
        t.head.is_some_and(|h| h != thing.head && apart.contains(&(server, h))) && !t.object.contains(&thing.head)
    }

    /// A request to destroy a thing that a word qualifies ("delete the pod *logs*"), where the thing's server
    /// tells the two apart (a candidate of the server acts on the thing's head by name, and names or
    /// describes the qualifying word: `pods_log`), is not served by a tool that does the irreversible action
    /// to what the word names and not to the thing: `pods_delete`. A look-up may be served by such a word
    /// ("find train tickets" → `FindTrains`, `acts_on_what_holds_it`); destroying the wrong thing may not.
    fn destroys_what_qualifies_it(&self, t: &crate::profile::ToolProfile, server: usize) -> bool {
        t.actions.iter().any(|a| self.irreversible.contains(a))
            && self.acts_on_a_word_apart(t, server, &self.qualifiers_apart)
    }

    /// A request to make a thing that an identifier names ("add user 00u8k2j3HqZ to okta group …": the user
    /// exists) is not served by a tool that only makes that thing (`create_user`), unless the tool puts it
    /// where the request says (`add_user_to_group`: its object has a word of the place). A copy is made of
    /// what exists: "copy node 3f9c1a7e-… into folder …" is served by `copy_node`.
    fn makes_what_exists(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        self.makes_existing
            && t.head.is_some_and(|h| self.made.contains(&h))
            && !t.object.iter().any(|o| self.destination.contains(o))
            && t.actions.iter().all(|&f| table.class(f) == EffectClass::Create && table.name(f) != "copy")
    }

    /// A request that only makes a new thing ("open a github issue", "file a linear issue") is not served by
    /// a tool that only changes that thing (`update_issue`): what is changed exists already.
    fn changes_what_is_made(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        self.makes_new.is_some_and(|h| t.head == Some(h)) && t.actions.iter().all(|&f| table.name(f) == "update")
    }

    /// A request that makes or deletes a thing is not served by a tool that makes or deletes a part of it:
    /// "open a github issue" → `add_issue_comment` (a comment, of an issue), "delete the repository" →
    /// `delete_repository_webhook`; nor a request that only looks a thing up by a tool that only reads a
    /// part of it ("list the open issues" → `list_issue_comments`; a view of the whole, `VIEWS`, is no part:
    /// "show me the current chess board" → `get_board_visualization`). The tool's object has a word of what
    /// the request makes or deletes, one that names no service the request names (`acted_words`: "ticket"
    /// of "a jira ticket", so `jira_create_issue` is not a part of it; "discount" of "a discount code", so
    /// `create_discount_group` is another thing) — or its name shows verbs only and its description names
    /// what the request makes or deletes (`linear_add_comment`, "Add a comment to an issue", for "file a
    /// linear issue") — or the head of what it looks up; but the one thing its name acts on is a word the
    /// request never uses; and what the tool does does not conflict with the request (a conflict is the
    /// other rules' to judge).
    fn acts_on_a_part(&self, t: &crate::profile::ToolProfile) -> bool {
        let table = families();
        let reads = !t.actions.is_empty() && t.actions.iter().all(|&f| table.class(f) == EffectClass::Read);
        // What is looked up is the thing, not what it belongs to ("recent messages of a Slack channel").
        let looked_up_thing = self.thing.as_ref().filter(|_| self.request.looks_up && reads).map(|thing| thing.head);
        // A name made of verbs only (`linear_add_comment`: adds, comments; its head the noun "comment") names
        // no object: its description says what the part belongs to ("Add a comment to an issue").
        let described_part = |head: &TermId| t.object.is_empty() && t.description.contains(head);
        ((self.makes_or_deletes
            && (self.acted_words.iter().any(|o| t.object.contains(o))
                || self.thing.as_ref().is_some_and(|thing| described_part(&thing.head))))
            || looked_up_thing
                .is_some_and(|head| t.object.contains(&head) && t.head.is_none_or(|h| !self.views.contains(&h))))
            && t.head.is_some_and(|h| !self.request.known.contains(&h))
            && table.agreement_of_sets(&self.request.families, &t.actions) != Agreement::Conflict
    }
}

/// Qualifiers that say only that a thing is new ("create a new issue", "kick off a fresh build"), as the
/// analyzer stems them: of a thing made or started, they name no kind of it.
const NEWNESS: [&str; 3] = ["new", "fresh", "brand"];

/// What `object_words` name (`Thing`): the head, the last word before any "of"; the qualifiers, the
/// catalog's terms of the words before it; the owners, those of the words after the "of". Identifiers the
/// catalog does not know (terms with a digit: "72058304855015574"), numbers ("firewall 88": a name, even
/// when the catalog knows the term) and function words are passed over.
/// `None` when the head is not a catalog term.
fn thing_of(object_words: &[String], profiles: &Profiles) -> Option<Thing> {
    let terms = |words: &[String]| -> Vec<String> {
        words
            .iter()
            .flat_map(|w| toolscout_indexer::terms(w))
            .filter(|t| !STOP.contains(&t.as_str()))
            .filter(|t| profiles.id(t).is_some() || !t.chars().any(|c| c.is_ascii_digit()))
            .filter(|t| !t.chars().all(|c| c.is_ascii_digit()))
            .collect()
    };
    let of = object_words.iter().position(|w| w == "of").unwrap_or(object_words.len());
    let before = terms(&object_words[..of]);
    let (last, rest) = before.split_last()?;
    let head = profiles.id(last)?;
    let known =
        |ts: &[String]| -> Vec<TermId> { ts.iter().filter_map(|t| profiles.id(t)).filter(|&q| q != head).collect() };
    let owners = if of < object_words.len() { known(&terms(&object_words[of + 1..])) } else { Vec::new() };
    let written = object_words[..of].iter().rev().find(|w| terms(std::slice::from_ref(w)).last() == Some(last));
    let plural = written.is_some_and(|w| crate::analysis::written_plural(w, last));
    Some(Thing { head, qualifiers: known(rest), owners, plural })
}

/// The compound nouns of the set `compounds` (`Analysis::compounds`), each as its bit and the terms of its
/// parts that the catalog knows.
fn compound_parts(compounds: u64, profiles: &Profiles) -> Vec<(u64, Vec<TermId>)> {
    crate::compounds::compounds()
        .iter()
        .enumerate()
        .filter(|(k, _)| compounds & (1 << k) != 0)
        .map(|(k, c)| (1 << k, [&c.modifier, &c.head].into_iter().filter_map(|w| profiles.id(w)).collect()))
        .collect()
}

/// Whether a word reads as the id of a thing that exists: a number of five digits or more, or letters and
/// digits mixed in six characters or more ("5551234", "00u8k2j3hqz"; not "3pm", "1080p", "2025").
fn id_like(word: &str) -> bool {
    let digits = word.chars().filter(char::is_ascii_digit).count();
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    (digits >= 5 && letters == 0) || (digits > 0 && letters > 0 && word.chars().count() >= 6)
}

/// Whether a word is the past participle of a verb of the table ("staged", "archived", "deleted"): before
/// a noun, it says what state the thing is in.
fn participle(word: &str, table: &crate::actions::Families) -> bool {
    word.len() > 4
        && word.ends_with("ed")
        && toolscout_indexer::terms(word).first().is_some_and(|t| table.is_verb_stem(t))
}

/// Whether the tool `t` of `server` acts on a thing (its name shows an object) and, for a thing its server
/// tells apart (`apart`: pairs of server and term), never names or describes that thing.
fn on_another_thing(apart: &[(usize, TermId)], t: &crate::profile::ToolProfile, server: usize) -> bool {
    !t.object.is_empty()
        && apart.iter().any(|&(s, o)| s == server && !t.name.contains(&o) && !t.description.contains(&o))
}

/// Whether two stems are one word's forms that the stemmer left apart: one is the other and at most two
/// more letters, of at least five ("summari" of "summary", "summar" of "summarize").
fn akin(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 5 && long.len() - short.len() <= 2 && long.starts_with(short)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{ServerProfile, TermSet, ToolProfile};

    #[test]
    fn akin_stems_are_one_words_forms() {
        assert!(super::akin("summari", "summar"));
        assert!(!super::akin("list", "lists"), "too short to tell");
        assert!(!super::akin("submiss", "submit"));
    }

    fn guards(request: &Analysis, profiles: &Profiles, tool: usize, server: usize) -> bool {
        let candidates: Vec<(usize, usize)> = (0..profiles.tools.len()).map(|t| (t, 0)).collect();
        Guard::new(request, profiles, &candidates).bars(tool, server)
    }

    fn family(name: &str) -> Family {
        families().by_name(name).expect("family")
    }

    fn set(ids: &[TermId]) -> TermSet {
        ids.iter().copied().collect::<std::collections::HashSet<_>>().into()
    }

    /// A request: its actions, its words, and the servers it names (acted on, unless it only reads).
    fn request(families: &[&str], known: &[TermId], named: &[usize]) -> Analysis {
        let families: Vec<Family> = families.iter().map(|f| family(f)).collect();
        let acted_on = families
            .iter()
            .find(|&&f| crate::actions::families().class(f) != EffectClass::Read)
            .map(|&f| named.iter().map(|&n| (n, f)).collect())
            .unwrap_or_default();
        Analysis {
            families,
            known: known.iter().copied().collect(),
            named_servers: named.to_vec(),
            acted_on,
            ..Analysis::default()
        }
    }

    /// A tool: its actions, its object, and other words of its description.
    type Tool<'a> = (&'a [&'a str], &'a [TermId], &'a [TermId]);

    /// Servers by their service word, and the tools of each.
    fn catalog(servers: &[(TermId, &[Tool<'_>])]) -> Profiles {
        let mut p = Profiles::default();
        for i in 0..32 {
            assert_eq!(p.intern(&format!("word{i}")), i, "term ids are the numbers the tests use");
        }
        for &(word, tools) in servers {
            p.servers.push(ServerProfile { terms: set(&[word]), service: vec![word], ..Default::default() });
            for &(actions, object, words) in tools {
                p.tools.push(ToolProfile {
                    actions: actions.iter().map(|f| family(f)).collect(),
                    object: object.to_vec(),
                    description: set(words),
                    identifier: true,
                    ..Default::default()
                });
            }
        }
        p.mark_runners();
        p
    }

    #[test]
    fn a_server_called_by_a_verb_is_not_named() {
        // "create a new manual activity on Strava": `MCP Create` is not named by the verb, Strava is.
        let mut p = Profiles::default();
        let create = p.intern(&toolscout_indexer::terms("create")[0]);
        let strava = p.intern("strava");
        p.servers.push(ServerProfile { service: vec![create], ..Default::default() });
        p.servers.push(ServerProfile { service: vec![strava], ..Default::default() });
        let request = Analysis {
            known: [create, strava].into_iter().collect(),
            named_servers: vec![0, 1],
            ..Analysis::default()
        };
        assert!(!counts_as_named(&request, &p, 0));
        assert!(counts_as_named(&request, &p, 1));
    }

    #[test]
    fn a_part_of_a_compound_asked_about_is_another_thing() {
        let mut p = Profiles::default();
        let mut tool = |name: &str, description: &str| {
            let name_terms: Vec<TermId> = toolscout_indexer::terms(name).iter().map(|t| p.intern(t)).collect();
            p.tools.push(ToolProfile {
                name: set(&name_terms),
                compounds: crate::compounds::in_text(&format!("{name}. {description}")),
                identifier: true,
                ..Default::default()
            });
        };
        tool("list credit notes", "List the credit notes of an account");
        tool("get advanced box score", "Advanced box score of a game");
        tool("get credit score", "Get the user's credit score");
        tool("get report", "A consumer's credit score and report");
        tool("exchange rate", "Retrieves exchange rates");
        p.servers.push(ServerProfile::default());
        let asks = |text: &str| Analysis { compounds: crate::compounds::in_text(text), ..Analysis::default() };
        let credit = asks("what's my credit score");
        assert!(guards(&credit, &p, 0, 0), "a credit note is no credit score");
        assert!(guards(&credit, &p, 1, 0), "a box score is no credit score");
        assert!(!guards(&credit, &p, 2, 0));
        assert!(!guards(&credit, &p, 3, 0), "its description names the whole");
        assert!(guards(&asks("what's my heart rate"), &p, 4, 0));
        assert!(!guards(&asks("what's the exchange rate for EUR to USD"), &p, 4, 0), "no compound asked");
    }

    #[test]
    fn acting_on_a_named_service_is_not_done_with_another_service() {
        // Terms: 1 gitlab, 2 gitee, 3 ms365, 4 outlook, 10 merge request, 11 rule.
        let p = catalog(&[
            (1, &[(&["merge"], &[10], &[])]),
            (2, &[(&["merge"], &[10], &[])]),
            (3, &[(&["create"], &[11], &[4]), (&["send"], &[11], &[4])]),
            (4, &[(&["get"], &[11], &[])]),
        ]);
        let merge_on_gitlab = request(&["approve", "merge"], &[1, 10], &[0]);
        assert!(guards(&merge_on_gitlab, &p, 1, 1), "Gitee's merge does not merge on GitLab");
        assert!(!guards(&merge_on_gitlab, &p, 0, 0), "GitLab's own tool");
        // A tool that mentions the named service is left to the decision: ms365 works on Outlook.
        assert!(!guards(&request(&["create"], &[4, 11], &[3]), &p, 2, 2));
        // Unless it does something else with it: ms365's sending is no way to make an Outlook rule.
        assert!(guards(&request(&["create"], &[4, 11], &[3]), &p, 3, 2));
        // A server called by a request filler is not named ("run … SELECT now()" is not about `Now`).
        let mut p = p;
        let now = p.intern("now");
        p.servers[1].service = vec![now];
        assert!(!guards(&request(&["run"], &[now], &[1]), &p, 0, 0));
        let create = p.intern("creat");
        p.servers[1].service = vec![create];
        assert!(!guards(&request(&["run"], &[create], &[1]), &p, 0, 0), "`MCP Create` is not named by created_at");
        // Reading, or a request naming no service: left to the decision.
        assert!(!guards(&request(&["search"], &[1], &[0]), &p, 1, 1));
        assert!(!guards(&request(&[], &[1], &[0]), &p, 1, 1));
        assert!(!guards(&request(&["merge"], &[], &[]), &p, 1, 1));
    }

    #[test]
    fn a_service_named_only_where_the_request_acts_is_not_served_by_its_reading_tools() {
        // "fetch the failure logs from circleci and file a jira bug": terms 1 circleci, 2 jira, 12 log,
        // 13 version, 14 bug.
        let p = catalog(&[(1, &[(&["get"], &[12], &[])]), (2, &[(&["get"], &[13], &[]), (&["create"], &[14], &[])])]);
        let mut r = request(&["get", "create"], &[1, 2, 12, 14], &[0, 1]);
        r.acted_on = vec![(1, family("create"))];
        r.read_from = vec![0];
        let pairs = [(0, 0), (1, 1), (2, 1)];
        let g = Guard::new(&r, &p, &pairs);
        assert!(g.bars(1, 1), "Jira's reading tool: Jira is only acted on");
        assert!(g.reads_where_it_acts(1, 1) && !g.bars_as_a_near_miss(1, 1), "barred, but no near miss");
        assert!(!g.bars(2, 1), "Jira's tool that makes the bug");
        assert!(!g.bars(0, 0), "CircleCI is read");
        // Jira read too, or a verb the table does not know before it: left to the decision.
        let mut read_too = r.clone();
        read_too.read_from.push(1);
        assert!(!Guard::new(&read_too, &p, &pairs).bars(1, 1));
        let mut unknown = r.clone();
        unknown.unknown_verb = true;
        assert!(!Guard::new(&unknown, &p, &pairs).bars(1, 1));
    }

    #[test]
    fn a_tool_that_does_only_what_the_request_says_not_to_do_is_barred_quietly() {
        // "draft a reply to the landlord in gmail but don't send it": terms 1 gmail, 10 message, 11 draft.
        let p = catalog(&[(1, &[(&["send"], &[10], &[]), (&["create"], &[11], &[]), (&["send", "create"], &[], &[])])]);
        let mut r = request(&["create"], &[1, 11], &[]);
        r.denied = vec![family("send")];
        let g = Guard::new(&r, &p, &[(0, 0), (1, 0), (2, 0)]);
        assert!(g.bars(0, 0) && g.bars_quietly(0, 0), "sendMessage: barred, and no near miss");
        assert!(!g.bars(1, 0), "createDraft: what was asked");
        assert!(!g.bars(2, 0), "a tool that also does what was asked is left to the decision");
        r.denied.clear();
        assert!(!Guard::new(&r, &p, &[(0, 0), (1, 0), (2, 0)]).bars_quietly(0, 0));
    }

    #[test]
    fn a_server_named_by_ordinary_words_is_not_taken_as_named() {
        // Terms: 1 everything, 2 git, 10 echo, 11 commit.
        let mut p = catalog(&[(1, &[(&["run"], &[10], &[])]), (2, &[(&["create"], &[11], &[])])]);
        // "stage everything, commit …": not about the `everything` server.
        assert!(guards(&request(&["create"], &[1, 11], &[0]), &p, 1, 1), "a brand would be named");
        p.servers[0].ordinary = true;
        assert!(!guards(&request(&["create"], &[1, 11], &[0]), &p, 1, 1));
        // "… commit it with Everything": written as a name, it names the server.
        let proper = Analysis { proper: vec![1], ..request(&["create"], &[1, 11], &[0]) };
        assert!(guards(&proper, &p, 1, 1), "written as a name");
    }

    #[test]
    fn a_request_naming_a_service_where_it_only_reads_or_two_services_bars_less() {
        // Terms: 1 snowflake, 2 quickchart, 3 sentry, 4 github, 10 query, 11 chart, 12 issue.
        let p = catalog(&[
            (1, &[(&["get"], &[10], &[])]),
            (2, &[(&["generate"], &[11], &[])]),
            (3, &[(&["get"], &[12], &[])]),
            (4, &[(&["create"], &[12], &[])]),
        ]);
        // "pull revenue from snowflake and chart it": snowflake is where it reads; the chart is free to come
        // from another server.
        let mut chart = request(&["download", "generate"], &[1, 11], &[0]);
        chart.acted_on.clear();
        assert!(!guards(&chart, &p, 1, 1));
        // "pull sentry issue 991 and open a github issue": it acts on GitHub, and Sentry's tool reads the
        // other service it names.
        let mut both = request(&["download", "create"], &[3, 4, 12], &[2, 3]);
        both.acted_on = vec![(3, family("create"))];
        assert!(!guards(&both, &p, 2, 2), "sentry, named too");
        assert!(guards(&both, &p, 1, 1), "quickchart, named by neither");
        // A tool that does something else than what is asked of GitHub may serve the other part.
        assert!(!guards(&both, &p, 0, 0), "snowflake's reading tool");
        // "make an outlook rule: … to the GitHub folder": a tool that mentions Outlook, a service of the
        // table the request names, is about the request.
        let mut p = p;
        let outlook = p.intern(&toolscout_indexer::terms("Outlook")[0]);
        p.tools[1].description = set(&[outlook]);
        let mut rule = request(&["create"], &[outlook, 4], &[3]);
        rule.services = crate::services::services().named_in("make an outlook rule");
        assert!(!guards(&rule, &p, 1, 1));
        rule.services.clear();
        assert!(guards(&rule, &p, 1, 1));
    }

    #[test]
    fn a_request_that_only_acts_is_not_served_by_a_tool_that_only_reads_what_it_acts_on() {
        // Terms: 1 notion, 10 page, 11 ticket.
        let mut p = catalog(&[(
            1,
            &[(&["get"], &[10], &[]), (&["update"], &[10], &[]), (&["get"], &[11], &[]), (&[], &[10], &[])],
        )]);
        let on = |families: &[&str], object: &str| {
            let mut r = request(families, &[1, 10, 11], &[]);
            r.object_words = vec![object.to_string()];
            r
        };
        // rename my notion page → retrieve_page; update_page is what was asked.
        let rename = on(&["update"], "word10");
        assert!(guards(&rename, &p, 0, 0));
        assert!(!guards(&rename, &p, 1, 0));
        // A tool that reads something else may serve another part ("make a deck using Wikipedia").
        assert!(!guards(&rename, &p, 2, 0));
        // "my notion page is out of date. Update it": what "it" stands for is named elsewhere.
        let mut pronoun = request(&["update"], &[1, 10], &[]);
        pronoun.object_words = vec!["it".to_string()];
        assert!(guards(&pronoun, &p, 0, 0));
        assert!(!guards(&pronoun, &p, 1, 0));
        assert!(!guards(&pronoun, &p, 2, 0), "tickets are named nowhere");
        // … unless the request is not in English and asks one thing: what it acts on is not read, so any
        // tool that only reads is taken as reading it ("Erstell mir im Google Kalender einen Termin").
        let mut foreign = on(&["update"], "word10");
        foreign.object_words.clear();
        assert!(!guards(&foreign, &p, 2, 0));
        foreign.foreign_alone = true;
        assert!(guards(&foreign, &p, 2, 0));
        assert!(!guards(&foreign, &p, 1, 0), "the tool that does it");
        // "book train tickets" → `GetTrainTickets`, "Reserve tickets for a train": its description says it acts.
        let book = on(&["create"], "word11");
        assert!(guards(&book, &p, 2, 0));
        p.tools[2].described = Some(family("create"));
        assert!(!guards(&book, &p, 2, 0));
        // A request that reads too, or runs something; a tool whose name shows no action: left to the decision.
        assert!(!guards(&on(&["search", "update"], "word10"), &p, 0, 0));
        assert!(!guards(&on(&["run"], "word10"), &p, 0, 0));
        assert!(!guards(&rename, &p, 3, 0));
        // … unless it is an identifier whose description opens by reading: "create an index on users.email"
        // → `collection-indexes`, "Describe the indexes for a collection". Not a product's name
        // (`PageInsights`), nor one that converts (`docx-to-markdown`, "Convert a DOCX file to markdown").
        p.tools[3].described = Some(family("get"));
        assert!(guards(&rename, &p, 3, 0));
        p.tools[3].identifier = false;
        assert!(!guards(&rename, &p, 3, 0));
        p.tools[3].identifier = true;
        p.tools[3].described = Some(family("convert"));
        assert!(!guards(&rename, &p, 3, 0));
    }

    #[test]
    fn a_request_that_only_acts_on_the_one_service_it_names_is_not_served_by_its_reading_tools() {
        // Terms: 1 youtube, 2 sentry, 3 github, 10 transcript, 11 issue, 12 video.
        let p = catalog(&[
            (1, &[(&["get"], &[10], &[]), (&["upload"], &[12], &[])]),
            (2, &[(&["get"], &[11], &[])]),
            (3, &[(&["create"], &[11], &[])]),
        ]);
        // "upload /videos/demo.mp4 to my youtube channel" (no object left once the path is set aside) →
        // get_transcript: it reads, however close it scores.
        let upload = request(&["upload"], &[1], &[0]);
        assert!(guards(&upload, &p, 0, 0));
        assert!(!guards(&upload, &p, 1, 0), "upload_video: what was asked");
        // "take sentry issue WEB-3K2 and open a github issue": two services named, the reading one may be
        // the other part of the request (and Sentry is named before the first verb: maybe read).
        let mut both = request(&["create"], &[2, 3, 11], &[1, 2]);
        both.read_from = vec![1];
        assert!(!guards(&both, &p, 2, 1));
        assert!(!guards(&both, &p, 3, 2));
        // A request that reads YouTube too: left to the decision; one that reads elsewhere and names
        // YouTube only where it uploads is not served by its reading tools either
        // (`a_service_named_only_where_the_request_acts_is_not_served_by_its_reading_tools`).
        let mut reads_too = request(&["search", "upload"], &[1], &[0]);
        reads_too.read_from = vec![0];
        assert!(!guards(&reads_too, &p, 0, 0));
        reads_too.read_from.clear();
        assert!(guards(&reads_too, &p, 0, 0));
    }

    #[test]
    fn an_irreversible_request_is_not_served_by_another_action_or_by_deleting_another_thing() {
        // Terms: 1 stripe, 2 todoist, 10 invoice, 11 task, 12 project, 13 subscription.
        let mut p = catalog(&[
            (1, &[(&["close"], &[10], &[]), (&["cancel"], &[10], &[]), (&["cancel"], &[13], &[])]),
            (2, &[(&["delete"], &[11], &[]), (&["run"], &[], &[]), (&[], &[12], &[])]),
        ]);
        // void that invoice → finalizeInvoice: another action; void_invoice: what was asked.
        assert!(guards(&request(&["cancel"], &[10], &[]), &p, 0, 0));
        assert!(!guards(&request(&["cancel"], &[10], &[]), &p, 1, 0));
        // cancel sub_1Oz… → cancel_subscription: the same action; what it acts on is left to the decision.
        assert!(!guards(&request(&["cancel"], &[], &[]), &p, 2, 0));
        // delete the project → delete_task: deleting something else; delete the task: what was asked.
        assert!(guards(&request(&["delete"], &[12], &[]), &p, 3, 1));
        assert!(!guards(&request(&["delete"], &[11], &[]), &p, 3, 1));
        // … unless the request is not written in English: "lösche die Aufgabe …" names the task in a word
        // the catalog does not know.
        let mut foreign = request(&["delete"], &[12], &[]);
        foreign.foreign = true;
        assert!(!guards(&foreign, &p, 3, 1));
        // A tool that runs what it is given, or whose name shows no action: left to the decision.
        assert!(!guards(&request(&["delete"], &[12], &[]), &p, 4, 1));
        assert!(!guards(&request(&["delete"], &[12], &[]), &p, 5, 1));
        // … unless its description opens by reading: "Retrieves …" does not delete.
        p.tools[5].described = Some(family("get"));
        assert!(guards(&request(&["delete"], &[12], &[]), &p, 5, 1));
        let question = Analysis { question: true, ..request(&["delete"], &[12], &[]) };
        assert!(!guards(&question, &p, 5, 1), "a question asks about deleting");
        // … or by another action: "take my last move back" is not served by `new_game`, "Starts a new game".
        p.tools[5].described = Some(family("start"));
        assert!(guards(&request(&["revert"], &[12], &[]), &p, 5, 1));
        p.tools[5].described = Some(family("convert"));
        assert!(!guards(&request(&["delete"], &[12], &[]), &p, 5, 1), "a converter makes something");
        // "delete the configmap …" → `delete_resource`: a tool for things of any kind deletes this one too.
        let resource = p.intern("resourc");
        p.tools[3].object = vec![resource];
        p.tools[3].head = Some(resource);
        assert!(!guards(&request(&["delete"], &[12], &[]), &p, 3, 1));
    }

    #[test]
    fn acting_on_a_thing_the_service_tells_apart_is_not_done_on_another_thing() {
        // Terms: 1 trello, 10 card, 11 list, 12 board, 13 message.
        let mut p = catalog(&[(
            1,
            &[
                (&["update"], &[11], &[]),
                (&["get"], &[10], &[]),
                (&["update"], &[10], &[]),
                (&["create"], &[12], &[10]),
                (&["send"], &[13], &[10]),
            ],
        )]);
        let rename_card = || {
            let mut r = request(&["update"], &[1, 10], &[]);
            r.object_words = vec!["word10".to_string()];
            r
        };
        let r = rename_card();
        let bars = |p: &Profiles, candidates: &[usize], tool: usize| {
            let pairs: Vec<(usize, usize)> = candidates.iter().map(|&t| (t, 0)).collect();
            Guard::new(&r, p, &pairs).bars(tool, 0)
        };
        // rename trello card → update_list: Trello's get_card shows cards are a thing of their own.
        assert!(bars(&p, &[0, 1, 2], 0));
        assert!(!bars(&p, &[0, 1, 2], 2), "update_card: what was asked");
        // Only a candidate is evidence (a tool left out of the catalog's answer is not): without get_card
        // and update_card among them, update_list is the decision's to judge.
        assert!(!bars(&p, &[0], 0));
        // A tool that mentions the thing (create_board "… with its cards"), or acts on something the request
        // names too, may serve it.
        assert!(!bars(&p, &[1, 3], 3));
        // An object of abbreviations only (`ps_restart`: "ps") names no thing to tell apart.
        let ps = p.intern("ps");
        p.tools[0].object = vec![ps];
        assert!(!bars(&p, &[0, 1, 2], 0), "an abbreviation is no other thing");
        p.tools[0].object = vec![1];
        assert!(!bars(&p, &[0, 1], 0), "its object is in the request");
        // A request that makes a thing: a tool that makes another is judged by its name alone ("create a
        // card" → create_board, whose description says boards hold cards).
        let mut make_card = request(&["create"], &[1, 10], &[]);
        make_card.object_words = vec!["word10".to_string()];
        make_card.action =
            Some(crate::actions::Action { family: family("create"), verb: "create".into(), at: 0, len: 1 });
        assert!(Guard::new(&make_card, &p, &[(1, 0), (3, 0)]).bars(3, 0));
        // So is one that sends, which makes a message ("create a new channel in Slack" → post_message, "Post
        // a message to a channel").
        assert!(Guard::new(&make_card, &p, &[(1, 0), (4, 0)]).bars(4, 0));
        // A request that reads too is left to the decision.
        let mut reads = rename_card();
        reads.families.push(family("search"));
        assert!(!Guard::new(&reads, &p, &[(0, 0), (1, 0)]).bars(0, 0));
    }

    #[test]
    fn a_state_of_the_thing_is_not_another_thing() {
        // Terms: 1 git, 10 change, 11 branch; "stage" after the numbered ones.
        let mut p = catalog(&[(1, &[(&["store"], &[1], &[]), (&["compare"], &[11], &[]), (&["compare"], &[10], &[])])]);
        let stage = p.intern("stage");
        p.tools[2].object = vec![stage];
        let commit = |object_words: &[&str], known: &[TermId]| {
            let mut r = request(&["store"], known, &[]);
            r.object_words = object_words.iter().map(|w| w.to_string()).collect();
            r.action = Some(crate::actions::Action { family: family("store"), verb: "commit".into(), at: 0, len: 1 });
            r
        };
        // "commit my staged changes" → git_commit, though git_diff_staged names the state.
        let staged = commit(&["staged", "word10"], &[10, stage]);
        assert!(!Guard::new(&staged, &p, &[(0, 0), (2, 0)]).bars(0, 0));
        // A thing of its own that another tool names still bars ("commit the branch changes" if the server
        // told branches apart).
        p.tools[1].object = vec![11];
        let branch = commit(&["word11", "word10"], &[10, 11]);
        assert!(Guard::new(&branch, &p, &[(0, 0), (1, 0)]).bars(0, 0));
    }

    #[test]
    fn acting_on_a_kind_of_thing_the_server_tells_apart_is_not_done_on_another_kind() {
        // Terms: 1 zscaler, 10 group, 11 segment, 12 app, 13 server (of a server group), 14 calendar.
        let mut p = catalog(&[(
            1,
            &[
                (&["create"], &[12, 10], &[]),
                (&["create"], &[13, 10], &[]),
                (&["create"], &[10], &[]),
                (&["create"], &[11, 10], &[]),
            ],
        )]);
        for t in &mut p.tools {
            t.head = Some(10);
        }
        let segment_group = || {
            let mut r = request(&["create"], &[1, 10, 11], &[]);
            r.object_words = vec!["word11".to_string(), "word10".to_string()];
            r
        };
        let r = segment_group();
        let bars = |p: &Profiles, r: &Analysis, candidates: &[usize], tool: usize| {
            let pairs: Vec<(usize, usize)> = candidates.iter().map(|&t| (t, 0)).collect();
            Guard::new(r, p, &pairs).bars(tool, 0)
        };
        // "create a segment group" → create_app_group: the server tells app groups from server groups.
        assert!(bars(&p, &r, &[0, 1], 0));
        assert!(bars(&p, &r, &[0, 1, 2], 1));
        assert!(!bars(&p, &r, &[0, 1, 3], 3), "create_segment_group: what was asked");
        assert!(!bars(&p, &r, &[0, 1, 2], 2), "create_group: the thing itself, no kind of its own");
        assert!(!bars(&p, &r, &[0, 2], 0), "one kind among the candidates: the decision's to judge");
        // A request that names no kind ("create a group") is left to the decision.
        let mut plain = request(&["create"], &[1, 10], &[]);
        plain.object_words = vec!["word10".to_string()];
        assert!(!bars(&p, &plain, &[0, 1], 0));
        // A word after "of" is no qualifier.
        let mut of = request(&["create"], &[1, 10, 14], &[]);
        of.object_words = vec!["word10".to_string(), "of".to_string(), "word14".to_string()];
        assert!(!bars(&p, &of, &[0, 1], 0));
        // A tool that mentions the qualifier (its description: "… of segments") may serve it.
        p.tools[0].description = set(&[11]);
        assert!(!bars(&p, &r, &[0, 1], 0));
    }

    #[test]
    fn doing_one_thing_to_a_kind_the_catalog_tells_apart_is_not_done_to_another_kind() {
        // Terms: 1 gitlab, 2 github, 10 request (a merge or pull request), 12 repository.
        let mut p = catalog(&[(1, &[(&["create"], &[12], &[])]), (2, &[(&["create"], &[10], &[])])]);
        p.tools[0].head = Some(12);
        p.tools[1].head = Some(10);
        let any = p.intern("object");
        let mut r = request(&["create"], &[1, 10], &[]);
        r.object_words = vec!["word10".to_string()];
        r.action = Some(crate::actions::Action { family: family("create"), verb: "create".into(), at: 0, len: 1 });
        let bars = |p: &Profiles, r: &Analysis, candidates: &[(usize, usize)], tool: usize, server: usize| {
            Guard::new(r, p, candidates).bars(tool, server)
        };
        let both = [(0, 0), (1, 1)];
        // "create a merge request on GitLab" → GitLab's create_repository: GitHub's create_pull_request shows
        // requests are a kind of their own, though GitLab has no tool for them.
        assert!(bars(&p, &r, &both, 0, 0));
        assert!(!bars(&p, &r, &both, 1, 1), "create_pull_request: the thing asked");
        // Only a candidate is evidence.
        assert!(!bars(&p, &r, &[(0, 0)], 0, 0));
        // A request that does two things is left to the decision.
        let mut two = r.clone();
        two.families.push(family("search"));
        assert!(!bars(&p, &two, &both, 0, 0));
        // A tool that mentions the thing, or acts on a word the request uses, or on things of any kind
        // (`ANY_THING`), may serve it.
        p.tools[0].description = set(&[10]);
        assert!(!bars(&p, &r, &both, 0, 0));
        p.tools[0].description = set(&[]);
        p.tools[0].object = vec![1, 12];
        assert!(!bars(&p, &r, &both, 0, 0));
        p.tools[0].object = vec![any];
        p.tools[0].head = Some(any);
        assert!(!bars(&p, &r, &both, 0, 0));
    }

    #[test]
    fn acting_on_a_thing_is_not_done_on_what_holds_it() {
        // Terms: 1 okta, 10 policy, 11 rule, 12 password, 13 build, 14 pipeline.
        let mut p = catalog(&[(
            1,
            &[
                (&["resume"], &[10], &[]),
                (&["stop"], &[10, 11], &[]),
                (&["update"], &[14], &[]),
                (&["get"], &[13], &[14]),
                (&["get"], &[13], &[]),
            ],
        )]);
        for (t, head) in p.tools.iter_mut().zip([10, 11, 14, 13, 13]) {
            t.head = Some(head);
        }
        let bars = |r: &Analysis, candidates: &[usize], tool: usize| {
            let pairs: Vec<(usize, usize)> = candidates.iter().map(|&t| (t, 0)).collect();
            Guard::new(r, &p, &pairs).bars(tool, 0)
        };
        // "turn on a rule of policy …" → activate_policy, beside deactivate_policy_rule.
        let mut rule = request(&["resume"], &[1, 10, 11, 12], &[]);
        rule.object_words = ["word11", "of", "word10"].map(String::from).to_vec();
        assert!(bars(&rule, &[0, 1], 0));
        assert!(!bars(&rule, &[0], 0), "no candidate acts on a policy rule: the decision's to judge");
        // A word that only qualifies the thing ("find train tickets") may be what is asked: FindTrains.
        rule.object_words = ["word12", "word10", "word11"].map(String::from).to_vec();
        assert!(!bars(&rule, &[0, 1], 0));
        // "kick off a build of pipeline …" → update_pipeline, beside get_build ("… of a pipeline").
        let mut build = request(&["start"], &[1, 13, 14], &[]);
        build.object_words = ["word13", "of", "word14"].map(String::from).to_vec();
        assert!(bars(&build, &[2, 3], 2));
        assert!(!bars(&build, &[2, 4], 2), "get_build never mentions pipelines");
        // A tool that acts on the thing too is not barred.
        p.tools[2].object = vec![14, 13];
        assert!(!Guard::new(&build, &p, &[(2, 0), (3, 0)]).bars(2, 0));
    }

    #[test]
    fn destroying_a_thing_is_not_done_to_what_qualifies_it() {
        // Terms: 1 kubernetes, 10 pod, 11 log.
        let mut p = catalog(&[(1, &[(&["delete"], &[10], &[]), (&[], &[10, 11], &[]), (&["get"], &[10], &[])])]);
        for (t, head) in p.tools.iter_mut().zip([10, 11, 10]) {
            t.head = Some(head);
        }
        let bars = |r: &Analysis, candidates: &[usize], tool: usize| {
            let pairs: Vec<(usize, usize)> = candidates.iter().map(|&t| (t, 0)).collect();
            Guard::new(r, &p, &pairs).bars(tool, 0)
        };
        // "delete the pod logs" → pods_delete, beside pods_log.
        let mut logs = request(&["delete"], &[10, 11], &[]);
        logs.object_words = ["word10", "word11"].map(String::from).to_vec();
        assert!(bars(&logs, &[0, 1], 0));
        assert!(!bars(&logs, &[0], 0), "no candidate acts on pod logs: the decision's to judge");
        // "delete the pod" → pods_delete.
        let mut pod = request(&["delete"], &[10], &[]);
        pod.object_words = ["word10"].map(String::from).to_vec();
        assert!(!bars(&pod, &[0, 1], 0));
        // A look-up may be served by what qualifies its thing ("find train tickets" → `FindTrains`).
        let mut look = request(&["get"], &[10, 11], &[]);
        look.object_words = ["word10", "word11"].map(String::from).to_vec();
        look.looks_up = true;
        assert!(!bars(&look, &[1, 2], 2));
    }

    #[test]
    fn making_a_thing_an_identifier_names_is_not_done_by_making_it_again() {
        // Terms: 1 okta, 10 user, 11 group.
        let p = catalog(&[(1, &[(&["create"], &[10], &[]), (&["create"], &[10, 11], &[])])]);
        let mut p = p;
        p.tools[0].head = Some(10);
        p.tools[1].head = Some(10);
        let mut r = request(&["create"], &[1, 10, 11], &[]);
        r.made_words = ["word10", "00u8k2j3hqz"].map(String::from).to_vec();
        r.destination_words = ["word1", "word11"].map(String::from).to_vec();
        assert!(guards(&r, &p, 0, 0), "create_user for 'add user 00u8k2j3HqZ to okta group'");
        assert!(!guards(&r, &p, 1, 0), "add_user_to_group puts it there");
        r.made_words = ["word10", "3pm"].map(String::from).to_vec();
        assert!(!guards(&r, &p, 0, 0), "no identifier");
        assert!(id_like("5551234") && id_like("00u8k2j3hqz"));
        assert!(!id_like("3pm") && !id_like("1080p") && !id_like("2025") && !id_like("q4"));
    }

    #[test]
    fn converting_to_a_format_is_not_done_by_converting_from_it() {
        // Terms: 1 markdownify, 10 docx, 11 markdown, 12 word.
        let mut p = catalog(&[(1, &[(&[], &[10, 11], &[]), (&[], &[11, 10], &[])])]);
        p.tools[0].converts = Some(Box::new((vec![10], vec![11])));
        p.tools[1].converts = Some(Box::new((vec![11], vec![10])));
        let mut r = request(&["convert"], &[1, 10, 12], &[]);
        r.converts_to = ["word12", "word10"].map(String::from).to_vec();
        // "convert notes.md to a word .docx" → docx-to-markdown; markdown-to-docx serves it.
        let pairs = [(0, 0), (1, 0)];
        assert!(Guard::new(&r, &p, &pairs).bars(0, 0));
        assert!(!Guard::new(&r, &p, &pairs).bars(1, 0));
        r.converts_to.clear();
        assert!(!Guard::new(&r, &p, &pairs).bars(0, 0), "no format named");
        // "convert lease.pdf into an editable word .docx" → convert_to_pdf (13: pdf).
        p.tools[0].converts = Some(Box::new((vec![], vec![13])));
        r.converts_to = ["word12", "word10"].map(String::from).to_vec();
        assert!(!Guard::new(&r, &p, &pairs).bars(0, 0), "pdf is no word of the request: another format");
        r.known.insert(13);
        assert!(Guard::new(&r, &p, &pairs).bars(0, 0), "it makes what the request converts from");
    }

    #[test]
    fn a_request_for_nothing_irreversible_is_not_served_by_destroying_something() {
        // Terms: 1 zscaler, 10 connector.
        let mut p = catalog(&[(
            1,
            &[(&["delete"], &[10], &[]), (&["stop"], &[10], &[]), (&["delete"], &[10], &[]), (&["pay"], &[10], &[])],
        )]);
        p.tools[0].described = Some(family("delete"));
        p.tools[3].described = Some(family("pay"));
        // disable app connector 7205… → delete_app_connector; disable_app_connector is what was asked.
        let disable = request(&["stop"], &[10], &[]);
        assert!(guards(&disable, &p, 0, 0));
        assert!(!guards(&disable, &p, 1, 0));
        // A name that only looks like a verb_object (`WebRewind` "Get the past …"): its description decides.
        assert!(!guards(&disable, &p, 2, 0));
        // Paying is left out ("can I get three tickets" buys them), and so is a request that deletes too.
        assert!(!guards(&request(&["get"], &[10], &[]), &p, 3, 0));
        assert!(!guards(&request(&["stop", "delete"], &[10], &[]), &p, 0, 0));
    }

    #[test]
    fn making_or_deleting_a_thing_is_not_done_on_a_part_of_it() {
        // Terms: 1 github, 3 ticket, 4 discount, 5 code, 10 issue, 11 comment, 12 template, 13 repository,
        // 14 webhook, 15 group.
        let mut p = catalog(&[(
            1,
            &[
                (&["create"], &[10], &[]),
                (&["create"], &[10, 12], &[]),
                (&["delete"], &[13, 14], &[]),
                (&["close"], &[10], &[]),
                (&["create"], &[4, 15], &[]),
            ],
        )]);
        p.tools[0].head = Some(11); // add_issue_comment
        p.tools[1].head = Some(10); // create_issue_from_template
        p.tools[2].head = Some(14); // delete_repository_webhook
        p.tools[3].head = Some(11); // close_issue_comment
        p.tools[4].head = Some(15); // create_discount_group
        p.tools.push(ToolProfile {
            actions: vec![family("create"), family("comment")],
            head: Some(11),
            description: set(&[11, 10]),
            identifier: true,
            ..Default::default()
        }); // linear_add_comment, "Add a comment to an issue"
        let jira = p.intern("jira");
        let on = |verb: &str, known: &[TermId], object: &str| {
            let action = crate::actions::families().first_action(&[verb]).expect("a verb of the table");
            let mut r = request(&[crate::actions::families().name(action.family)], known, &[]);
            r.action = Some(action);
            r.object_words = vec![object.to_string()];
            r
        };
        // "open a github issue" → add_issue_comment: a comment is a part of an issue.
        let open_issue = on("open", &[1, 10], "word10");
        assert!(guards(&open_issue, &p, 0, 0));
        assert!(!guards(&open_issue, &p, 1, 0), "create_issue_from_template makes an issue");
        // … and `linear_add_comment`, whose name shows only verbs: its description says it is of an issue.
        assert!(guards(&open_issue, &p, 5, 0));
        assert!(!guards(&on("add", &[10, 11], "word11"), &p, 5, 0), "a request for the comment");
        p.tools[5].description = set(&[11]);
        assert!(!guards(&open_issue, &p, 5, 0), "a description that never names the issue");
        p.tools[5].description = set(&[11, 10]);
        // "delete the repository" → delete_repository_webhook.
        assert!(guards(&on("delete", &[13], "word13"), &p, 2, 0));
        // A request that names the part: "add a comment to the issue", "delete the repository's webhook".
        assert!(!guards(&on("add", &[10, 11], "word11"), &p, 0, 0));
        assert!(!guards(&on("delete", &[13, 14], "word14"), &p, 2, 0));
        // "create a jira ticket" → jira_create_issue: "jira" names the service the ticket is made in, it is
        // not a thing the tool makes a part of.
        let mut ticket = on("create", &[jira, 3], "jira");
        ticket.object_words = vec!["jira".to_string(), "word3".to_string()];
        ticket.services = crate::services::services().named_in("jira");
        p.tools[1].object = vec![jira, 10];
        assert!(!guards(&ticket, &p, 1, 0));
        p.tools[1].object = vec![10, 12];
        // "create a 20% off discount code" → create_discount_group: a group of discounts, not the code; the
        // tool makes something else of a word that qualifies what is asked.
        let mut code = on("create", &[4, 5], "word4");
        code.object_words = vec!["word4".to_string(), "word5".to_string()];
        assert!(guards(&code, &p, 4, 0));
        assert!(!guards(&on("create", &[4, 15], "word15"), &p, 4, 0), "a request for the discount group");
        // Neither making nor deleting ("share the issue"): left to the other rules and the decision.
        assert!(!guards(&on("share", &[10], "word10"), &p, 0, 0));
        // A tool whose action conflicts is the other rules' to judge, not this one's: opening an issue is not
        // done by closing one of its comments (`ends_what_is_made`).
        assert!(guards(&on("open", &[1, 10], "word10"), &p, 3, 0));
        assert!(!Guard::new(&on("open", &[1, 10], "word10"), &p, &[(3, 0)]).acts_on_a_part(&p.tools[3]));
    }

    #[test]
    fn looking_up_a_thing_is_not_done_by_reading_a_part_of_it() {
        // Terms: 1 github, 10 issue, 11 comment.
        let mut p =
            catalog(&[(1, &[(&["list"], &[10, 11], &[]), (&["list"], &[10], &[]), (&["create"], &[10, 11], &[])])]);
        p.tools[0].head = Some(11); // list_issue_comments
        p.tools[1].head = Some(10); // list_issues
        p.tools[2].head = Some(11); // add_issue_comment
        let look_up = |known: &[TermId], object: &str| {
            let mut r = request(&["list"], known, &[]);
            r.looks_up = true;
            r.object_words = vec![object.to_string()];
            r
        };
        // "list the open issues" → list_issue_comments: comments are a part of an issue.
        assert!(guards(&look_up(&[10], "word10"), &p, 0, 0));
        assert!(!guards(&look_up(&[10], "word10"), &p, 1, 0), "list_issues reads the thing");
        // "list the comments on the issue" names the part.
        assert!(!guards(&look_up(&[10, 11], "word11"), &p, 0, 0));
        // "read the messages of the issue": what is looked up is the thing before "of", not its owner.
        let mut of_owner = look_up(&[10, 12], "word12");
        of_owner.object_words = ["word12", "of", "word10"].map(String::from).to_vec();
        assert!(!guards(&of_owner, &p, 0, 0));
        // A request that does not only look up is this rule's only when it makes or deletes.
        let mut read_and_share = look_up(&[10], "word10");
        read_and_share.looks_up = false;
        assert!(!guards(&read_and_share, &p, 0, 0));
        // "show me the current chess board" → get_board_visualization: a view of the whole is no part.
        let view = p.intern("visual");
        assert_eq!(toolscout_indexer::terms("visualization"), vec!["visual".to_string()], "the stem of the view");
        (p.tools[0].head, p.tools[0].object) = (Some(view), vec![10, view]);
        assert!(!guards(&look_up(&[10], "word10"), &p, 0, 0));
    }

    #[test]
    fn making_a_thing_somewhere_is_not_done_by_making_the_place() {
        // Terms: 1 airtable, 10 row, 11 table, 12 field, 13 lead.
        let mut p = catalog(&[(1, &[(&["create"], &[11], &[]), (&["create"], &[10], &[]), (&["get"], &[11], &[])])]);
        p.tools[0].head = Some(11); // create_table
        p.tools[1].head = Some(10); // create_row
        p.tools[2].head = Some(11); // get_table
        let add = |made: &[&str], destination: &[&str]| {
            let mut r = request(&["create"], &[10, 11, 12, 13], &[]);
            r.made_words = made.iter().map(|w| w.to_string()).collect();
            r.destination_words = destination.iter().map(|w| w.to_string()).collect();
            r
        };
        // "add a row to the Invoices table" → create_table: the table is where the row goes.
        let row = add(&["word10"], &["invoices", "word11"]);
        assert!(guards(&row, &p, 0, 0));
        assert!(!guards(&row, &p, 1, 0), "create_row makes what is asked");
        assert!(!guards(&row, &p, 2, 0), "a tool that does not only make is the other rules' to judge");
        p.tools[0].actions = vec![family("store")];
        assert!(!guards(&row, &p, 0, 0), "a tool that stores does not make the place (write_file)");
        p.tools[0].actions = vec![family("create")];
        // "create a table in the base" makes the table; "add its totals as rows" names no place.
        assert!(!guards(&add(&["word11"], &["base"]), &p, 0, 0));
        assert!(!guards(&add(&["totals"], &[]), &p, 0, 0));
        // "save Maria's number to my phone contacts" → create_contact: a place written in the plural is a
        // collection of the things the tool makes, so making one puts it there.
        assert!(!guards(&add(&["word10"], &["my", "word11s"]), &p, 0, 0));
        // "add 'Renew SSL certificates' to my Ops task checklist" → create_task: a list holds what the word
        // before it names, so making one puts it there; into the task itself it goes no more.
        p.intern("checklist");
        assert!(!guards(&add(&["renew"], &["my", "ops", "word11", "checklist"]), &p, 0, 0));
        assert!(guards(&add(&["renew"], &["my", "ops", "word11"]), &p, 0, 0));
        // "add a new lead and a field to the table": a table made too is not a place only.
        assert!(!guards(&add(&["word13", "word11"], &["word11"]), &p, 0, 0));
        // "on my airtable table, add a row": what the request calls its own exists, a place too. A number
        // after the place names it, even one the catalog knows ("on my VPS firewall 88, add a rule").
        let mut owned = add(&["word10"], &[]);
        owned.owned_words = vec![vec!["word1".into(), "word11".into()]];
        assert!(guards(&owned, &p, 0, 0));
        assert!(!guards(&owned, &p, 1, 0));
        p.intern("88");
        owned.owned_words = vec![vec!["word1".into(), "word11".into(), "88".into()]];
        assert!(guards(&owned, &p, 0, 0));
        // "create my table": what is made is not a place.
        let mut made_own = add(&["word11"], &[]);
        made_own.owned_words = vec![vec!["word11".into()]];
        assert!(!guards(&made_own, &p, 0, 0));
        // "add a field to the Tasks table" → add_tasks (Todoist): a word that qualifies the place is not
        // what is made; a tool that names the place too puts things there (`add_task_to_table`).
        let (task, todoist) = (14, 2);
        p.servers.push(ServerProfile { service: vec![todoist], ..Default::default() });
        for object in [vec![task], vec![task, 11]] {
            p.tools.push(ToolProfile {
                actions: vec![family("create")],
                object,
                head: Some(task),
                identifier: true,
                ..Default::default()
            });
        }
        let field = add(&["word12"], &["the", "word14", "word11"]);
        assert!(guards(&field, &p, 3, 1));
        assert!(!guards(&field, &p, 4, 1));
        assert!(!guards(&add(&["word14"], &["the", "word14", "word11"]), &p, 3, 1), "a request for a task");
    }

    #[test]
    fn making_a_new_thing_is_not_done_by_changing_it() {
        // Terms: 1 github, 10 issue, 11 comment.
        let p = catalog(&[(1, &[(&["update"], &[10], &[]), (&["create"], &[10], &[]), (&["update"], &[11], &[])])]);
        let mut p = p;
        p.tools[0].head = Some(10); // update_issue
        p.tools[1].head = Some(10); // create_issue
        p.tools[2].head = Some(11); // update_comment
        let make = |families: &[&str], object: &[&str]| {
            let mut r = request(families, &[1, 10, 11], &[]);
            r.object_words = object.iter().map(|w| w.to_string()).collect();
            r.made_words = r.object_words.clone();
            r
        };
        // "open a github issue", "file a linear issue" → update_issue: what is changed exists already.
        assert!(guards(&make(&["open"], &["word1", "word10"]), &p, 0, 0));
        assert!(guards(&make(&["create"], &["word10"]), &p, 0, 0));
        assert!(!guards(&make(&["create"], &["word10"]), &p, 1, 0), "create_issue makes it");
        // "add a comment to the issue" is not served or barred by what changes the issue here.
        assert!(!guards(&make(&["create"], &["word11"]), &p, 0, 0));
        // A request that changes something too, or sets it, may be served by a tool that changes it.
        assert!(!guards(&make(&["create", "update"], &["word10"]), &p, 0, 0));
        let mut set = make(&["create"], &["word10"]);
        set.updates_ambiguously = true;
        assert!(!guards(&set, &p, 0, 0));
        // "add issue 12345678 to the milestone": an identifier names a thing that exists.
        assert!(!guards(&make(&["create"], &["word10", "12345678"]), &p, 0, 0));
    }

    #[test]
    fn ending_a_thing_is_not_done_by_making_it() {
        // Terms: 1 paddle, 10 product, 11 price, 12 issue, 13 review.
        let p = catalog(&[(
            1,
            &[
                (&["create"], &[10], &[]),
                (&["create"], &[11], &[]),
                (&["update"], &[10], &[]),
                (&["create"], &[12, 13], &[]),
                (&["create", "archive"], &[10], &[]),
            ],
        )]);
        // The request mentions prices too, so `create_price` is not barred for acting on another thing.
        let on = |families: &[&str], object: &str| {
            let mut r = request(families, &[1, 10, 11, 12], &[]);
            r.object_words = vec![object.to_string()];
            r
        };
        // "archive the paddle product" → create_product; "close issue 12" → create_issue_review.
        assert!(guards(&on(&["archive"], "word10"), &p, 0, 0));
        assert!(guards(&on(&["close"], "word12"), &p, 3, 0));
        // A tool that makes another thing, changes the thing, or also does what is asked: not this rule's.
        assert!(!guards(&on(&["archive"], "word10"), &p, 1, 0), "create_price");
        assert!(!guards(&on(&["archive"], "word10"), &p, 2, 0), "update_product");
        assert!(!guards(&on(&["archive"], "word10"), &p, 4, 0), "create_archive_of_product");
        // Approving, subscribing or enabling is often done by making something ("approve the pull request"
        // → create_pull_request_review); a request that also makes, or names no object, is left alone.
        assert!(!guards(&on(&["approve"], "word12"), &p, 3, 0));
        assert!(!guards(&on(&["resume"], "word10"), &p, 0, 0));
        assert!(!guards(&on(&["archive", "create"], "word10"), &p, 0, 0));
        assert!(!guards(&request(&["archive"], &[1, 10], &[]), &p, 0, 0), "no object");
        // Changing a thing that exists is not making it: "rename the paddle product" → create_product.
        assert!(guards(&on(&["update"], "word10"), &p, 0, 0));
        assert!(!guards(&on(&["update"], "word10"), &p, 2, 0), "update_product");
        // Unless the verb may also make it ("set a reminder" → create_reminder).
        let mut set = on(&["update"], "word10");
        set.updates_ambiguously = true;
        assert!(!guards(&set, &p, 0, 0));
    }

    #[test]
    fn making_a_thing_is_not_done_by_ending_it() {
        // Terms: 1 servicenow, 10 incident.
        let p = catalog(&[(1, &[(&["close"], &[10], &[]), (&["create"], &[10], &[])])]);
        let on = |families: &[&str], object: &str| {
            let mut r = request(families, &[1, 10], &[]);
            r.object_words = vec![object.to_string()];
            r
        };
        // "raise a servicenow incident" → resolve_incident.
        assert!(guards(&on(&["create"], "word10"), &p, 0, 0));
        assert!(!guards(&on(&["create"], "word10"), &p, 1, 0), "create_incident");
        // A request that also ends the thing is not this rule's.
        assert!(!guards(&on(&["create", "close"], "word10"), &p, 0, 0));
        assert!(!guards(&request(&["create"], &[1, 10], &[]), &p, 0, 0), "no object");
    }

    #[test]
    fn a_request_is_not_served_by_undoing_what_it_asks() {
        // Terms: 1 okta, 10 user, 11 list.
        let p = catalog(&[(
            1,
            &[
                (&["resume"], &[10], &[]),
                (&["stop"], &[10], &[]),
                (&["start"], &[10], &[]),
                (&["subscribe"], &[11], &[]),
                (&["delete"], &[10], &[]),
                (&["split"], &[11], &[]),
            ],
        )]);
        // "suspend okta user jdoe" → unsuspend_user; suspend_user is what was asked.
        let suspend = request(&["stop"], &[1, 10], &[]);
        assert!(guards(&suspend, &p, 0, 0));
        assert!(guards(&suspend, &p, 2, 0), "start_user undoes it too");
        assert!(!guards(&suspend, &p, 1, 0));
        // "unsubscribe me from the list" → subscribe_list.
        assert!(guards(&request(&["unsubscribe"], &[11], &[]), &p, 3, 0));
        // "combine these PDFs into one" → pdf_splitter.
        assert!(guards(&request(&["merge"], &[11], &[]), &p, 5, 0));
        // A request that asks for both ("stop the old one and start a new one"): starting is asked too.
        assert!(!guards(&request(&["stop", "start"], &[10], &[]), &p, 2, 0));
        // Another action, not the opposite, is the other rules' to judge.
        assert!(!guards(&suspend, &p, 4, 0));
    }

    #[test]
    fn looking_something_up_is_not_done_by_changing_it() {
        // Terms: 1 stripe, 10 invoice, 11 item, 12 analysis, 13 container.
        let mut p = catalog(&[(
            1,
            &[
                (&["list"], &[10], &[]),
                (&["create"], &[10], &[]),
                (&["create"], &[10, 11], &[]),
                (&["start"], &[12], &[]),
                (&["delete"], &[10], &[]),
                (&["open"], &[10], &[]),
                (&["run"], &[], &[]),
                (&[], &[12], &[]),
                (&["get", "update"], &[10], &[]),
                (&["generate"], &[10], &[]),
                (&["delete", "generate"], &[10], &[]),
                (&["run"], &[13], &[]),
                (&["run"], &[], &[]),
            ],
        )]);
        let query = p.intern(&toolscout_indexer::terms("query")[0]);
        p.tools[12].object = vec![query];
        p.mark_runners();
        let lookup = |families: &[&str]| {
            let mut r = request(families, &[1, 10], &[]);
            r.looks_up = true;
            r
        };
        // "list invoices for customer …" → create_invoice, create_invoice_item, delete_invoice; "show me the
        // score trend" → start_analysis.
        let list = lookup(&["list"]);
        assert!(!guards(&list, &p, 0, 0), "list_invoices");
        for tool in [1, 2, 4] {
            assert!(guards(&list, &p, tool, 0), "tool {tool}");
        }
        assert!(guards(&lookup(&["get"]), &p, 3, 0), "start_analysis");
        // A question that shows no action: "what's my stripe balance right now" → update_dispute.
        assert!(guards(&lookup(&[]), &p, 1, 0), "a question asks to get");
        assert!(!guards(&lookup(&[]), &p, 5, 0), "open_invoice");
        // A tool compatible with looking up ("show the invoice" → open_invoice), one that runs what it is
        // given, one whose name shows no action, one that reads too: left to the decision.
        assert!(!guards(&lookup(&["get"]), &p, 5, 0), "open_invoice");
        assert!(!guards(&list, &p, 6, 0), "run");
        assert!(!guards(&list, &p, 12, 0), "run_query");
        assert!(!guards(&list, &p, 7, 0), "no action");
        assert!(!guards(&list, &p, 8, 0), "get_or_update_invoice");
        assert!(!guards(&lookup(&["get"]), &p, 9, 0), "generate_invoice_chart: showing is often drawing");
        // A later "chart" is a thing, not drawing: "which helm releases are installed?" → uninstall_helm_chart.
        assert!(guards(&lookup(&[]), &p, 10, 0), "uninstall_helm_chart");
        // A tool that runs a thing of its own, not what it is given: "what docker containers are running" →
        // run_container.
        assert!(guards(&lookup(&[]), &p, 11, 0), "run_container");
        // A product's name in capitals ("InvoiceCreatorTool"): its verb is not what it does.
        p.tools[1].identifier = false;
        assert!(!guards(&list, &p, 1, 0));
        // A request that is not only a look-up ("can I get three tickets": getting may be buying; "find the
        // invoice and delete it"): left alone.
        assert!(!guards(&request(&["get"], &[1, 10], &[]), &p, 1, 0));
        assert!(!guards(&request(&["search", "delete"], &[1, 10], &[]), &p, 4, 0));
    }

    #[test]
    fn looking_up_a_thing_the_service_tells_apart_is_not_done_on_another_thing() {
        // Terms: 1 stripe, 10 invoice, 11 customer, 12 resource, 13 balance.
        let p = catalog(&[(
            1,
            &[
                (&["create"], &[10], &[]),
                (&["list"], &[11], &[]),
                (&["search"], &[12], &[10]),
                (&["get"], &[13], &[]),
                (&["list"], &[10, 11], &[]),
            ],
        )]);
        let lookup = |object: &str| {
            let mut r = request(&["list"], &[1, 10, 11], &[]);
            r.looks_up = true;
            r.object_words = vec![object.to_string()];
            r
        };
        // "list invoices for customer cus_9s6…" → list_customers: `create_invoice` shows Stripe tells invoices
        // apart, and list_customers never mentions them (customers is what the request filters by).
        let invoices = lookup("word10");
        assert!(guards(&invoices, &p, 1, 0), "list_customers");
        assert!(guards(&invoices, &p, 3, 0), "get_balance");
        // A tool whose description mentions invoices, or that looks them up too: left to the decision.
        assert!(!guards(&invoices, &p, 2, 0), "search_stripe_resources");
        assert!(!guards(&invoices, &p, 4, 0), "list_customer_invoices");
        // "list customers" is served by list_customers; a request that does more than look up is left alone.
        assert!(!guards(&lookup("word11"), &p, 1, 0));
        let mut acts = request(&["list", "delete"], &[1, 10, 11], &[]);
        acts.object_words = vec!["word10".to_string()];
        assert!(!guards(&acts, &p, 1, 0));
    }

    #[test]
    fn removing_a_thing_from_another_is_not_done_by_deleting_the_other() {
        // Terms: 1 okta, 10 user, 11 group.
        let mut p =
            catalog(&[(1, &[(&["delete"], &[11], &[]), (&["delete"], &[10, 11], &[]), (&["get"], &[11], &[])])]);
        p.tools[0].head = Some(11); // delete_group
        p.tools[1].head = Some(10); // remove_user_from_group
        p.tools[2].head = Some(11); // get_group
        let remove = |removed: &[&str], source: &[&str]| {
            let mut r = request(&["delete"], &[1, 10, 11], &[]);
            r.removed_words = removed.iter().map(|w| w.to_string()).collect();
            r.source_words = source.iter().map(|w| w.to_string()).collect();
            r
        };
        // "kick 00u77abcD out of the Finance-RO group" → delete_group: the group is where the user is.
        let kick = remove(&["00u77abcd"], &["the", "word11"]);
        assert!(guards(&kick, &p, 0, 0));
        assert!(!guards(&kick, &p, 1, 0), "remove_user_from_group takes the user out");
        // "delete the group": nothing is taken out of anything; "remove the group from okta": the group.
        assert!(!guards(&remove(&["word11"], &[]), &p, 0, 0));
        assert!(!guards(&remove(&["word11"], &["word1"]), &p, 0, 0));
    }

    #[test]
    fn a_tool_fits_when_it_does_what_is_asked_to_the_thing_named() {
        // Terms: 1 gitlab, 2 zpa, 10 issue, 11 link, 13 segment, 14 group, 15 server.
        let mut p = catalog(&[
            (1, &[(&["create"], &[10], &[]), (&["create"], &[10, 11], &[]), (&["update"], &[10], &[])]),
            (2, &[(&["create"], &[2, 14], &[]), (&["create"], &[14], &[])]),
        ]);
        for (tool, head, name) in
            [(0, 10, &[10][..]), (1, 11, &[10, 11]), (2, 10, &[10]), (3, 14, &[2, 15, 14]), (4, 14, &[14])]
        {
            p.tools[tool].head = Some(head);
            p.tools[tool].name = set(name);
        }
        let ask = |verb: &str, known: &[TermId], object: &[&str]| {
            let action = families().first_action(&[verb]).expect("a verb of the table");
            let mut r = request(&[families().name(action.family)], known, &[]);
            r.action = Some(action);
            r.object_words = object.iter().map(|w| w.to_string()).collect();
            r
        };
        let fits = |r: &Analysis, p: &Profiles, tool: usize, server: usize| {
            let candidates: Vec<(usize, usize)> = (0..p.tools.len()).map(|t| (t, usize::from(t >= 3))).collect();
            Guard::new(r, p, &candidates).fits(tool, server)
        };
        // "open an issue in gitlab project …" → create_issue; not create_issue_link, not update_issue.
        let open = ask("open", &[1, 10], &["word10"]);
        assert!(fits(&open, &p, 0, 0));
        assert!(!fits(&open, &p, 1, 0), "it makes a link");
        assert!(!fits(&open, &p, 2, 0), "it changes an issue");
        // A state says which thing an action acts on ("merge an approved pull request" → merge_pull_request).
        let approved = p.intern(&toolscout_indexer::terms("approved")[0]);
        assert!(fits(&ask("open", &[1, 10, approved], &["approved", "word10"]), &p, 0, 0));
        // "create a ZPA segment group": a server group is another kind, a bare group names no segment.
        let group = ask("create", &[2, 13, 14], &["word2", "word13", "word14"]);
        assert!(!fits(&group, &p, 3, 1));
        assert!(!fits(&group, &p, 4, 1));
        p.tools[3].name = set(&[2, 13, 14]);
        p.tools[3].object = vec![2, 13, 14];
        assert!(fits(&group, &p, 3, 1), "zpa_create_segment_group; zpa is its server's word");
        // A request that names no thing has nothing to fit.
        assert!(!fits(&ask("create", &[10], &[]), &p, 0, 0));
        // An action compatible with the request's fits when the request acts ("kick off a build of …" →
        // create_build), not when it only reads ("list current alerts" → get_alert: one alert).
        assert!(fits(&ask("start", &[1, 10], &["word10"]), &p, 0, 0));
        p.tools[2].actions = vec![family("get")];
        assert!(!fits(&ask("list", &[1, 10], &["word10"]), &p, 2, 0));
        // Showing things written in the plural is listing them ("show recent bitrise builds" →
        // list_builds); "recent" says which of them, not what kind.
        let (build, recent) = (p.intern("build"), p.intern("recent"));
        p.tools[2].actions = vec![family("list")];
        (p.tools[2].head, p.tools[2].object, p.tools[2].name) = (Some(build), vec![build], set(&[build]));
        let show = |known: &[TermId], object: &[&str]| Analysis { looks_up: true, ..ask("show", known, object) };
        assert!(fits(&show(&[1, build], &["builds"]), &p, 2, 0));
        assert!(!fits(&show(&[1, build], &["build"]), &p, 2, 0), "one is got, not listed");
        assert!(fits(&show(&[1, build, recent], &["recent", "builds"]), &p, 2, 0));
        assert!(!fits(&show(&[1, build, 13], &["word13", "builds"]), &p, 2, 0), "a kind the name lacks");
        assert!(!fits(&show(&[1, build, approved], &["approved", "builds"]), &p, 2, 0), "a reader may filter by state");
        // A name that is only its action fits a request for that action, whatever it acts on ("commit my
        // staged changes" → git_commit); not another action, and not one that cannot be undone ("drop the
        // temp_import collection" → delete-one).
        (p.tools[2].head, p.tools[2].object, p.tools[2].actions) = (None, Vec::new(), vec![family("store")]);
        assert!(fits(&ask("commit", &[10], &["word10"]), &p, 2, 0));
        assert!(!fits(&ask("create", &[10], &["word10"]), &p, 2, 0), "another action");
        p.tools[2].actions = vec![family("delete")];
        assert!(!fits(&ask("drop", &[10], &["word10"]), &p, 2, 0), "irreversible");
    }

    #[test]
    fn a_tool_that_reads_as_the_request_acts_is_no_reader_of_what_is_acted_on() {
        let p = catalog(&[(1, &[(&["download"], &[10], &[]), (&["get"], &[10], &[]), (&[], &[10], &[])])]);
        assert!(reads_as_asked(&[family("store")], &p.tools[0]), "to save is to download");
        assert!(!reads_as_asked(&[family("store")], &p.tools[1]), "to get is not to save");
        assert!(!reads_as_asked(&[family("open")], &p.tools[1]), "to open a new one is not to get one");
        assert!(!reads_as_asked(&[family("delete")], &p.tools[0]));
        assert!(!reads_as_asked(&[family("store")], &p.tools[2]), "a name with no action");
    }

    #[test]
    fn other_requests_are_left_to_the_decision() {
        // Terms: 1 files, 10 file, 11 page.
        let p = catalog(&[(1, &[(&["get"], &[10], &[]), (&["delete"], &[11], &[]), (&["search"], &[11], &[])])]);
        // Not irreversible: a file tool for a page request, or a delete tool for a create request, is the
        // decision's to judge.
        assert!(!guards(&request(&["search"], &[11], &[]), &p, 0, 0));
        assert!(!guards(&request(&["create"], &[11], &[]), &p, 1, 0));
        // A compound request: finding the file fits a search tool though the request also deletes.
        assert!(!guards(&request(&["search", "delete"], &[10], &[]), &p, 2, 0));
        // Nothing read as an action: left alone.
        assert!(!guards(&request(&[], &[10], &[]), &p, 1, 0));
    }
}
