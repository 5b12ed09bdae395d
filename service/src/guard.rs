//! The guard: tools that must not be delivered for a request however close they score, because calling
//! them would act on the wrong thing. Two rules:
//! - A request to act on a service it names (any action but reading) is not served by another service's
//!   tool: `merge_pull` of Gitee does not merge a GitLab merge request, TickTick's `delete_project` does not
//!   delete a Todoist project. (A service the catalog never mentions is handled before: `missing_service`.)
//! - A request for something that cannot be undone (the `irreversible` families of
//!   `actions/families.txt`: delete, cancel, revert, pay, refund) is not served by a tool that does
//!   something else, or the same thing to something else: "void that invoice" → `finalizeInvoice`, "delete
//!   the project" → `delete_task`.
//!
//! A barred tool can still be offered as `closest`. The decision's model sees these signals too
//! (`other_service_named`, `action_conflict`, `object_miss`), but only as some among many, fitted for
//! recall on the dev sets. The guard is a rule for the cases where a wrong tool costs the most. Pure code,
//! no I/O.

use crate::actions::{Agreement, EffectClass, Family, families};
use crate::analysis::Analysis;
use crate::profile::{Profiles, STOP, TermId};

/// The guard for one pass: what it reads of the request, worked out once for all candidates.
///
/// A tool of the server `server` must not be delivered for the request when:
/// - the request asks for an action other than reading on services it names, `server` is not one of them,
///   and neither the tool nor its server mentions them (ms365 may mention Outlook; Gitee does not mention
///   GitLab) — a server counts as named only through a word that is neither a request filler nor a verb;
///   or
/// - the request asks for an irreversible action and (a) the tool's name shows only actions that conflict
///   with every action of the request, or (b) the tool deletes something the request does not mention
///   ("delete the project" is not `delete_task`). For (a) and (b), a tool whose name shows no action, or
///   that runs whatever it is given (the `run` family: `execute_sql`), is not barred.
pub(crate) struct Guard<'a> {
    request: &'a Analysis,
    profiles: &'a Profiles,
    /// The servers the request acts on by name (empty when it only reads or names none).
    named: Vec<usize>,
    /// Its irreversible actions.
    irreversible: Vec<Family>,
}

impl<'a> Guard<'a> {
    /// The guard for `request`.
    pub(crate) fn new(request: &'a Analysis, profiles: &'a Profiles) -> Guard<'a> {
        let table = families();
        let acts = request.families.iter().any(|&f| table.class(f) != EffectClass::Read);
        // A server called by a request filler or a verb is not named by "… created_at > now()" (`Now`,
        // `MCP Create`): only a service word that is neither (`STOP`, the verbs of the action table) names
        // a server here.
        let names = |w: &TermId| {
            let word = profiles.term(*w);
            request.known.contains(w) && !STOP.contains(&word) && !table.is_verb_stem(word)
        };
        let named = if acts {
            request
                .named_servers
                .iter()
                .copied()
                .filter(|&n| {
                    let named = &profiles.servers[n];
                    let by_service = !named.service.is_empty()
                        && named.service.iter().all(|w| request.known.contains(w))
                        && named.service.iter().any(names);
                    by_service || named.aliases.iter().any(names)
                })
                .collect()
        } else {
            Vec::new()
        };
        let irreversible =
            request.families.iter().copied().filter(|&f| table.class(f) == EffectClass::Irreversible).collect();
        Guard { request, profiles, named, irreversible }
    }

    /// Whether the tool `tool` of the server `server` must not be delivered.
    pub(crate) fn bars(&self, tool: usize, server: usize) -> bool {
        let (request, profiles, table) = (self.request, self.profiles, families());
        let (t, s) = (&profiles.tools[tool], &profiles.servers[server]);
        if !self.named.is_empty() && !self.named.contains(&server) {
            let mentions = |id: &TermId| t.mentions(s, id);
            let mentioned = self.named.iter().any(|&n| {
                let named = &profiles.servers[n];
                named.service.iter().all(mentions) || named.aliases.iter().any(mentions)
            });
            if !mentioned {
                return true;
            }
        }
        if self.irreversible.is_empty() || t.actions.is_empty() {
            return false;
        }
        if t.actions.iter().any(|&f| table.name(f) == "run") {
            return false;
        }
        if table.agreement_of_sets(&request.families, &t.actions) == Agreement::Conflict {
            return true;
        }
        // (b) is for deleting only: the other irreversible actions name their object by an id or not at all
        // ("cancel sub_1Oz…", "buy 10 INFY"), and a tool's object read from its name is often a leftover
        // word (`place_order`: `place`).
        let deletes = t.actions.iter().any(|&a| self.irreversible.contains(&a) && table.name(a) == "delete");
        let object_missed = !t.object.is_empty() && !t.object.iter().any(|o| request.known.contains(o));
        deletes && object_missed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{ServerProfile, TermSet, ToolProfile};

    fn guards(request: &Analysis, profiles: &Profiles, tool: usize, server: usize) -> bool {
        Guard::new(request, profiles).bars(tool, server)
    }

    fn family(name: &str) -> Family {
        families().by_name(name).expect("family")
    }

    fn set(ids: &[TermId]) -> TermSet {
        ids.iter().copied().collect::<std::collections::HashSet<_>>().into()
    }

    fn request(families: &[&str], known: &[TermId], named: &[usize]) -> Analysis {
        Analysis {
            families: families.iter().map(|f| family(f)).collect(),
            known: known.iter().copied().collect(),
            named_servers: named.to_vec(),
            ..Analysis::default()
        }
    }

    /// A tool: its actions, its object, and other words of its description.
    type Tool<'a> = (&'a [&'a str], &'a [TermId], &'a [TermId]);

    /// Servers by their service word, and the tools of each.
    fn catalog(servers: &[(TermId, &[Tool<'_>])]) -> Profiles {
        let mut p = Profiles::default();
        for i in 0..32 {
            assert_eq!(p.intern(&format!("w{i}")), i, "term ids are the numbers the tests use");
        }
        for &(word, tools) in servers {
            p.servers.push(ServerProfile { terms: set(&[word]), service: vec![word], ..Default::default() });
            for &(actions, object, words) in tools {
                p.tools.push(ToolProfile {
                    actions: actions.iter().map(|f| family(f)).collect(),
                    object: object.to_vec(),
                    description: set(words),
                    ..Default::default()
                });
            }
        }
        p
    }

    #[test]
    fn acting_on_a_named_service_is_not_done_with_another_service() {
        // Terms: 1 gitlab, 2 gitee, 3 ms365, 4 outlook, 10 merge request, 11 rule.
        let p = catalog(&[
            (1, &[(&["merge"], &[10], &[])]),
            (2, &[(&["merge"], &[10], &[])]),
            (3, &[(&["create"], &[11], &[4])]),
            (4, &[(&["get"], &[11], &[])]),
        ]);
        let merge_on_gitlab = request(&["approve", "merge"], &[1, 10], &[0]);
        assert!(guards(&merge_on_gitlab, &p, 1, 1), "Gitee's merge does not merge on GitLab");
        assert!(!guards(&merge_on_gitlab, &p, 0, 0), "GitLab's own tool");
        // A tool that mentions the named service is left to the decision: ms365 works on Outlook.
        assert!(!guards(&request(&["create"], &[4, 11], &[3]), &p, 2, 2));
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
    fn an_irreversible_request_is_not_served_by_another_action_or_by_deleting_another_thing() {
        // Terms: 1 stripe, 2 todoist, 10 invoice, 11 task, 12 project, 13 subscription.
        let p = catalog(&[
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
        // A tool that runs what it is given, or whose name shows no action: left to the decision.
        assert!(!guards(&request(&["delete"], &[12], &[]), &p, 4, 1));
        assert!(!guards(&request(&["delete"], &[12], &[]), &p, 5, 1));
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
